#!/bin/sh
# bench_drill_hotspots: what a watch-mode drill-down's hotspots cost topdownd
# ([watch] drill_hotspots: the group sampled, each sampled process's
# addresses named by a symbolizer of its owner). Two daemons at once, side by
# side, each watching a cgroup v2 group of its own at 250 ms (the test tree
# over software events, as the tests): one with drill_hotspots = yes, one
# with no; both groups run the same loop of 0.5 ms sleeps and, from the same
# moment, the same busy processes — td-demo -t 2 as nobody and as root
# (two owners: two symbolizers), and a perl loop filling a hash as nobody
# (an interpreter: many functions, deep stacks) — so that each daemon finds a change and
# drills down for drill_duration (30 s). Prints each daemon's CPU time
# (user + system, its reaped children's — the symbolizers — included) from
# the shift to the end of both drill-downs, the difference per second of
# drill-down as a share of one CPU, and what the symbolizers were asked.
# The kernel's side of sampling (the overflow handling, in the sampled
# threads' time) is the watched program's cost, not in these figures.
# Never fails. Run as root.
# Usage: bench/bench_drill_hotspots.sh BUILDDIR
set -eu
build=${1:?usage: bench_drill_hotspots.sh BUILDDIR}
src=$(cd "$(dirname "$0")/.." && pwd)
daemon="$build/src/topdownd/topdownd"
demo="$build/src/demo/td-demo"
if [ "$(id -u)" != 0 ]; then
	echo "bench_drill_hotspots: run as root (the daemon is a root service, and makes cgroups)"
	exit 0
fi
mnt=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
if [ -z "$mnt" ] || ! command -v perl >/dev/null || ! command -v setpriv >/dev/null || ! command -v sqlite3 >/dev/null; then
	echo "bench_drill_hotspots: needs a cgroup v2 hierarchy, perl, setpriv and sqlite3"
	exit 0
fi
dir=$(mktemp -d "${TMPDIR:-/tmp}/td-bench-drill.XXXXXX")
chmod 755 "$dir"
root="$mnt/td-bench-drill-$$"
pids=
cleanup() {
	kill $pids 2>/dev/null || :
	sleep 0.5
	rmdir "$root/on/g" "$root/off/g" "$root/on" "$root/off" "$root" 2>/dev/null || :
	rm -rf "$dir"
}
trap cleanup EXIT
mkdir "$root" "$root/on" "$root/off" "$root/on/g" "$root/off/g" "$dir/events"
cp "$src"/events/*.td "$src/tests/data/live/soft-tree.td" "$dir/events/"
cp "$demo" "$dir/td-demo"
chmod 755 "$dir/td-demo"
for g in on off; do
	sh -c "echo \$\$ >'$root/$g/g/cgroup.procs' && exec perl -e 'select(undef, undef, undef, 0.0005) while 1'" &
	pids="$pids $!"
	yes=no
	[ $g = on ] && yes=yes
	printf '%s\n' "[daemon]" "events_dir = $dir/events" "[watch]" "enable = yes" "root = $root/$g" \
		"interval = 250ms" "baseline = 12" "window = 4" "drill_duration = 30s" "drill_hotspots = $yes" \
		>"$dir/$g.conf"
	TD_PFM_MODEL=td_soft_tree "$daemon" -f -c "$dir/$g.conf" --socket "$dir/$g.sock" --database "$dir/$g.db" \
		>"$dir/$g.log" 2>&1 &
	pids="$pids $!"
	eval "pid_$g=\$!"
done
sleep 8 # each group's baseline and a window (16 intervals of 250 ms), and more
# CPU time in clock ticks: utime stime cutime cstime (fields 14-17 of /proc/PID/stat)
cpu() { awk '{ sub(/.*\) /, ""); print $12 + $13 + $14 + $15 }' "/proc/$1/stat"; }
on0=$(cpu "$pid_on")
off0=$(cpu "$pid_off")
for g in on off; do
	sh -c "echo \$\$ >'$root/$g/g/cgroup.procs' && exec setpriv --reuid=65534 --regid=65534 --clear-groups \
		'$dir/td-demo' -t 2 -l 0 -e 0 -s 120" >/dev/null 2>&1 &
	pids="$pids $!"
	sh -c "echo \$\$ >'$root/$g/g/cgroup.procs' && exec '$dir/td-demo' -t 2 -l 0 -e 0 -s 120" >/dev/null 2>&1 &
	pids="$pids $!"
	# and an interpreter's many code paths (hashes, strings, numbers: libperl's functions), as nobody
	sh -c "echo \$\$ >'$root/$g/g/cgroup.procs' && exec setpriv --reuid=65534 --regid=65534 --clear-groups \
		perl -e 'my %h; while (1) { \$h{sprintf(\"%x\", rand(1e9))} = [split //, rand()]; %h = () if keys %h > 1e5 }'" \
		>/dev/null 2>&1 &
	pids="$pids $!"
done
drilled() { sqlite3 "$dir/$1.db" "select count(*) from sessions where id in
	(select drill_session_id from changes) and status = 'completed'" 2>/dev/null; }
i=0
while [ "$(drilled on)" != 1 ] || [ "$(drilled off)" != 1 ]; do
	i=$((i + 1))
	if [ $i -gt 120 ]; then
		echo "bench_drill_hotspots: no completed drill-down on both daemons within 2 minutes (on: $(drilled on), off: $(drilled off)); their logs' watch lines:"
		grep -h 'watch:' "$dir/on.log" "$dir/off.log" | tail -n 6
		exit 0
	fi
	sleep 1
done
on1=$(cpu "$pid_on")
off1=$(cpu "$pid_off")
hz=$(getconf CLK_TCK)
secs() { sqlite3 "$dir/$1.db" "select (ended_ns - started_ns) / 1e9 from sessions where id =
	(select drill_session_id from changes)"; }
don=$(secs on)
samples=$(sqlite3 "$dir/on.db" "select samples || ' samples, ' || unresolved || ' without a symbol' from sampling")
asked=$(sed -n 's/.*hotspots: \([0-9]* address.* kept\)$/\1/p' "$dir/on.log" | tail -1)
grep -h 'hotspots: .*symbolizer' "$dir/on.log" | sed 's/^/  log: /' | grep -v ' started for ' || :
awk -v a="$((on1 - on0))" -v b="$((off1 - off0))" -v hz="$hz" -v d="$don" -v s="$samples" -v q="$asked" 'BEGIN {
	printf "bench_drill_hotspots: from the shift to the end of both drill-downs (%.1f s of drill-down)\n", d
	printf "  drill_hotspots = yes: %.0f ms of CPU (symbolizers included); %s; %s\n", 1000 * a / hz, s, q
	printf "  drill_hotspots = no:  %.0f ms of CPU\n", 1000 * b / hz
	printf "  the hotspots: %.0f ms, %.2f %% of one CPU over the drill-down (clock ticks of 1/%d s)\n",
		1000 * (a - b) / hz, 100 * (a - b) / hz / d, hz
}'
