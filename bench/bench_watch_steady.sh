#!/bin/sh
# bench_watch_steady: watch mode over steady workloads for SECONDS (issue 35:
# "a steady workload over 10 minutes produces none"; tests/integration/watch.sh
# runs the short version). Two cgroup v2 groups of its own: one running a
# loop of 0.5 ms sleeps, one td-demo's compute threads (-t 2) for the whole
# time; the daemon watches them at level 1 every 250 ms (the test tree over
# software events, as the tests) with the defaults of [watch] but
# workload_every = 10s, so that every change it finds is kept and counted.
# Prints the changes (expected: none) and how many intervals each group was
# tested over. Never fails. Run as root.
# Usage: bench/bench_watch_steady.sh BUILDDIR [SECONDS]  (default 600)
# With TD_BENCH_OLD=BUILDDIR2, that build's daemon watches the same groups at
# the same time (its own socket and database): the two rules side by side over
# the same workloads and the same neighbours. With TD_BENCH_KEEP=DIR, the
# databases, logs and a reading every 250 ms of each group's cpu.stat usage and
# cpu.pressure "some" total (and the load average) are copied to DIR, with
# each daemon's TD_DEBUG_WATCH rows (rows, rows.old): `bench/watch_replay
# DIR/rows` gives them to the rule of the build it was made in, decision by
# decision (make bench-programs builds it).
# With TD_BENCH_NEIGHBOURS=N, N busy loops in a cgroup beside the watched root
# are switched on and off (10 to 40 s each, a fixed pseudo-random sequence):
# noisy neighbours of one's own, whatever else the host runs; their switches
# (seconds since boot, on or off) are in neighbours.log.
set -eu
build=${1:?usage: bench_watch_steady.sh BUILDDIR [SECONDS]}
seconds=${2:-600}
src=$(cd "$(dirname "$0")/.." && pwd)
daemon="$build/src/topdownd/topdownd"
tdctl="$build/src/tdctl/tdctl"
demo="$build/src/demo/td-demo"
if [ "$(id -u)" != 0 ]; then
	echo "bench_watch_steady: run as root (the daemon is a root service, and makes cgroups)"
	exit 0
fi
mnt=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
if [ -z "$mnt" ] || ! command -v perl >/dev/null; then
	echo "bench_watch_steady: needs a cgroup v2 hierarchy and perl"
	exit 0
fi
dir=$(mktemp -d "${TMPDIR:-/tmp}/td-bench-steady.XXXXXX")
root="$mnt/td-bench-steady-$$"
pids=
cleanup() {
	kill $pids 2>/dev/null || :
	sleep 0.5
	[ -z "${TD_BENCH_KEEP:-}" ] || { mkdir -p "$TD_BENCH_KEEP" && cp -r "$dir"/. "$TD_BENCH_KEEP"/; }
	[ -z "${nb:-}" ] || { kill $(cat "$nb/cgroup.procs") 2>/dev/null; sleep 0.3; rmdir "$nb"; } 2>/dev/null || :
	rmdir "$root/sleeps" "$root/compute" "$root" 2>/dev/null || :
	rm -rf "$dir"
}
trap cleanup EXIT
mkdir "$root" "$root/sleeps" "$root/compute" "$dir/events"
cp "$src"/events/*.td "$src/tests/data/live/soft-tree.td" "$dir/events/"
sh -c "echo \$\$ >'$root/sleeps/cgroup.procs' && exec perl -e 'select(undef, undef, undef, 0.0005) while 1'" &
pids="$pids $!"
sh -c "echo \$\$ >'$root/compute/cgroup.procs' && exec '$demo' -t 2 -l 0 -e 0 -s $((seconds + 60))" >/dev/null &
pids="$pids $!"
printf '%s\n' "[daemon]" "events_dir = $dir/events" "[watch]" "enable = yes" "root = $root" "interval = 250ms" \
	"workload_every = 10s" "changes_per_hour = 3600" >"$dir/conf"
sleep 3 # past the workloads' start (td-demo's allocation is a phase of its own)
TD_DEBUG_WATCH="$dir/rows" TD_PFM_MODEL=td_soft_tree "$daemon" -f -c "$dir/conf" --socket "$dir/sock" --database "$dir/d.db" 2>"$dir/log" &
pids="$pids $!"
if [ -n "${TD_BENCH_OLD:-}" ]; then
	TD_DEBUG_WATCH="$dir/rows.old" TD_PFM_MODEL=td_soft_tree "$TD_BENCH_OLD/src/topdownd/topdownd" -f -c "$dir/conf" --socket "$dir/sock.old" \
		--database "$dir/d.old.db" 2>"$dir/log.old" &
	pids="$pids $!"
fi
if [ -n "${TD_BENCH_KEEP:-}" ]; then
	# ns since boot (the daemon's monotonic clock is close enough at 250 ms), then per group usage_usec and some total
	(while :; do
		printf '%s %s' "$(awk '{ print $1 }' /proc/uptime)" "$(cut -d' ' -f1 /proc/loadavg)"
		for g in sleeps compute; do
			printf ' %s %s' "$(awk '$1 == "usage_usec" { print $2 }' "$root/$g/cpu.stat")" \
				"$(sed -n 's/^some .*total=//p' "$root/$g/cpu.pressure")"
		done
		echo
		sleep 0.25
	done) >"$dir/cpu.log" 2>/dev/null &
	pids="$pids $!"
fi
if [ "${TD_BENCH_NEIGHBOURS:-0}" -gt 0 ]; then
	nb="$mnt/td-bench-steady-nb-$$"
	mkdir "$nb"
	(k=0
	while :; do
		k=$((k + 1))
		t=$(awk -v k=$k 'BEGIN { srand(k); print 10 + int(rand() * 31) }')
		echo "$(awk '{ print $1 }' /proc/uptime) on $t" >>"$dir/neighbours.log"
		i=0
		while [ $i -lt "$TD_BENCH_NEIGHBOURS" ]; do
			sh -c "echo \$\$ >'$nb/cgroup.procs' && exec perl -e '1 while 1'" &
			i=$((i + 1))
		done
		sleep "$t"
		kill $(cat "$nb/cgroup.procs") 2>/dev/null || :
		t=$(awk -v k=$k 'BEGIN { srand(1000 + k); print 10 + int(rand() * 31) }')
		echo "$(awk '{ print $1 }' /proc/uptime) off $t" >>"$dir/neighbours.log"
		sleep "$t"
	done) &
	pids="$pids $!"
fi
sleep "$seconds"
"$tdctl" changes --socket "$dir/sock" >"$dir/changes"
n=$(grep -c "^ *[0-9]" "$dir/changes" || :)
iv=$(sqlite3 "$dir/d.db" "select group_concat(s.schedule || ': ' || (select count(*) from intervals i where i.session_id = s.id), ', ')
	from sessions s where s.schedule like 'watch:%'" 2>/dev/null || echo "?")
echo "bench_watch_steady: $n change(s) in $seconds s of steady workloads (expected 0; $iv intervals)"
[ "$n" = 0 ] || cat "$dir/changes"
# the moves held back because the group's CPU time and its wait for a CPU traded places (its neighbours'):
# without that hold-back (docs/watch.md, "Neighbours") each would have been a change
h=$(grep -c "held back: its CPU time" "$dir/log" || :)
echo "bench_watch_steady: $h move(s) held back as the neighbours' (CPU time traded for wait); load $(cat /proc/loadavg)"
grep "held back\|watch: change" "$dir/log" || :
if [ -n "${TD_BENCH_OLD:-}" ]; then
	"$tdctl" changes --socket "$dir/sock.old" >"$dir/changes.old"
	n=$(grep -c "^ *[0-9]" "$dir/changes.old" || :)
	echo "bench_watch_steady: the old build ($TD_BENCH_OLD) beside it: $n change(s)"
	[ "$n" = 0 ] || cat "$dir/changes.old"
	grep "held back\|watch: change" "$dir/log.old" || :
fi
