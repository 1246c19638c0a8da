#!/bin/sh
# bench_watch: what topdownd's watch mode costs (issue 35: <= 1 % of one CPU
# for 50 cgroups and the top 20 processes). Makes GROUPS cgroup v2 groups
# below a root of its own, a sleeping process in each, and PROCS processes of
# its own that wake every millisecond (a few % of a CPU each: on a quiet host
# the busiest; on a busy one the host's own are, and those are watched), and
# runs the daemon three times on a temporary socket and database for SECONDS
# each: idle (no [watch]), watching the groups at level 1 every second, then
# the groups and the top PROCS processes (top_processes) — the test tree over
# software events, tests/data/live/soft-tree.td, as the tests: counted on any
# host. Reads the daemon's utime + stime from /proc (the kernel's accounting,
# from outside) after a warm-up of 8 s (the processes are listed every 5 s, the busiest
# taken on at the second listing) and prints each as a percentage of one
# CPU, and the watch sessions that ran. The BPF program's time at context
# switches is the kernel's, in no process's utime or stime, and not in these
# figures. Never fails. Run as root.
# Usage: bench/bench_watch.sh BUILDDIR [SECONDS] [GROUPS] [PROCS]  (`make bench` runs it)
set -eu
build=${1:?usage: bench_watch.sh BUILDDIR [SECONDS] [GROUPS] [PROCS]}
seconds=${2:-20}
groups=${3:-50}
procs=${4:-20}
src=$(cd "$(dirname "$0")/.." && pwd)
daemon="$build/src/topdownd/topdownd"
tdctl="$build/src/tdctl/tdctl"
if [ "$(id -u)" != 0 ]; then
	echo "bench_watch: run as root (the daemon is a root service, and makes cgroups)"
	exit 0
fi
mnt=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
if [ -z "$mnt" ]; then
	echo "bench_watch: no cgroup v2 hierarchy mounted"
	exit 0
fi
dir=$(mktemp -d "${TMPDIR:-/tmp}/td-bench-watch.XXXXXX")
root="$mnt/td-bench-watch-$$"
dpid=
sleepers=
cleanup() {
	kill $dpid $sleepers 2>/dev/null || :
	sleep 0.5
	for g in "$root"/g*; do rmdir "$g" 2>/dev/null || :; done
	rmdir "$root" 2>/dev/null || :
	rm -rf "$dir"
}
trap cleanup EXIT
tck=$(getconf CLK_TCK)
mkdir "$root" "$dir/events"
cp "$src"/events/*.td "$src/tests/data/live/soft-tree.td" "$dir/events/"
i=0
while [ $i -lt "$groups" ]; do
	mkdir "$root/g$i"
	sh -c "echo \$\$ >'$root/g$i/cgroup.procs' && exec sleep 100000" &
	sleepers="$sleepers $!"
	i=$((i + 1))
done
i=0
while [ $i -lt "$procs" ]; do
	perl -e 'select(undef, undef, undef, 0.001) while 1' &
	sleepers="$sleepers $!"
	i=$((i + 1))
done

# run CONF: the daemon's CPU over $seconds after 8 s, in hundredths of a CPU-percent
run() {
	rm -f "$dir/d.db"*
	TD_PFM_MODEL=td_soft_tree "$daemon" -f -c "$1" --socket "$dir/sock" --database "$dir/d.db" 2>"$dir/log" &
	dpid=$!
	n=0
	while ! "$tdctl" status --socket "$dir/sock" >/dev/null 2>&1 && [ $n -lt 200 ]; do sleep 0.05; n=$((n + 1)); done
	sleep 8
	c0=$(awk '{ print $14 + $15 }' "/proc/$dpid/stat")
	sleep "$seconds"
	c1=$(awk '{ print $14 + $15 }' "/proc/$dpid/stat")
	kill "$dpid"
	wait "$dpid" || :
	dpid=
	echo $(((c1 - c0) * 10000 / tck / seconds))
}
printf '%s\n' "[daemon]" "events_dir = $dir/events" >"$dir/idle.conf"
printf '%s\n' "[daemon]" "events_dir = $dir/events" "max_sessions = $((groups + procs + 16))" "[watch]" "enable = yes" \
	"root = $root" "interval = 1s" "max_cpu_percent = 100" >"$dir/watch.conf"
cp "$dir/watch.conf" "$dir/top.conf"
echo "top_processes = $procs" >>"$dir/top.conf"
idle=$(run "$dir/idle.conf")
watch=$(run "$dir/watch.conf")
sessions=$(sqlite3 "$dir/d.db" "select count(*) from sessions where schedule like 'watch:%'" 2>/dev/null || echo "?")
top=$(run "$dir/top.conf")
tsessions=$(sqlite3 "$dir/d.db" "select count(*) from sessions where schedule like 'watch:%'" 2>/dev/null || echo "?")
psessions=$(sqlite3 "$dir/d.db" "select count(*) from sessions where schedule like 'watch-process:%'" 2>/dev/null || echo "?")
pct() { printf '%d.%02d' $(($1 / 100)) $(($1 % 100)); }
echo "bench_watch: topdownd idle $(pct "$idle") % of one CPU; watching $groups groups at 1 s: $(pct "$watch") % ($sessions watch sessions); $groups groups and the top $procs processes: $(pct "$top") % ($tsessions group and $psessions process sessions, over the run) over $seconds s each (target <= 1 %)"
