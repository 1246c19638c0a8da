#!/bin/sh
# bench_watch: what topdownd's watch mode costs (issue 35: <= 1 % of one CPU
# for 50 cgroups and the top 20 processes). Makes GROUPS cgroup v2 groups
# below a root of its own, a sleeping process in each, and PROCS processes of
# its own that wake every millisecond (a few % of a CPU each: on a quiet host
# the busiest; on a busy one the host's own are, and those are watched), and
# runs the daemon three times on a temporary socket and database for SECONDS
# each: idle (no [watch]), watching the groups at level 1 every second, then
# the groups and the top PROCS processes (top_processes); then that again with
# the watch sessions downsampled (full_resolution = 40s, the least the
# defaults allow), measured from 45 s on, once the passes have begun: with
# downsample = 6s, a pass a minute merging each session's buckets of 6
# intervals (the defaults: a pass every 10 minutes, buckets of 60), over
# 120 s; and with downsample = 2s, the narrowest buckets of 1 s intervals,
# a pass every 20 s, over 60 s — the test tree over
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

# run CONF [WARMUP [SECONDS]]: the daemon's CPU over SECONDS ($seconds) after WARMUP (8) s, in hundredths of a CPU-percent
run() {
	span=${3:-$seconds}
	rm -f "$dir/d.db"*
	TD_PFM_MODEL=td_soft_tree "$daemon" -f -c "$1" --socket "$dir/sock" --database "$dir/d.db" 2>"$dir/log" &
	dpid=$!
	n=0
	while ! "$tdctl" status --socket "$dir/sock" >/dev/null 2>&1 && [ $n -lt 200 ]; do sleep 0.05; n=$((n + 1)); done
	sleep "${2:-8}"
	c0=$(awk '{ print $14 + $15 }' "/proc/$dpid/stat")
	sleep "$span"
	c1=$(awk '{ print $14 + $15 }' "/proc/$dpid/stat")
	kill "$dpid"
	wait "$dpid" || :
	dpid=
	echo $(((c1 - c0) * 10000 / tck / span))
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
merged() {
	sqlite3 "$dir/d.db" "select count(*) || ' of ' || sum(merged) from intervals i join sessions s on s.id = i.session_id
		where s.schedule like 'watch%' and i.merged is not null" 2>/dev/null || echo "?"
}
cp "$dir/top.conf" "$dir/ds6.conf"
printf '%s\n' "full_resolution = 40s" "downsample = 6s" >>"$dir/ds6.conf"
ds6=$(run "$dir/ds6.conf" 45 120)
merged6=$(merged)
cp "$dir/top.conf" "$dir/ds2.conf"
printf '%s\n' "full_resolution = 40s" "downsample = 2s" >>"$dir/ds2.conf"
ds2=$(run "$dir/ds2.conf" 45 60)
merged2=$(merged)
pct() { printf '%d.%02d' $(($1 / 100)) $(($1 % 100)); }
echo "bench_watch: topdownd idle $(pct "$idle") % of one CPU; watching $groups groups at 1 s: $(pct "$watch") % ($sessions watch sessions); $groups groups and the top $procs processes: $(pct "$top") % ($tsessions group and $psessions process sessions, over the run) over $seconds s each; the same downsampled (full_resolution 40 s) to 6 s, a pass a minute: $(pct "$ds6") % over 120 s ($merged6 merged), to 2 s, a pass every 20 s: $(pct "$ds2") % over 60 s ($merged2 merged) (target <= 1 %)"
