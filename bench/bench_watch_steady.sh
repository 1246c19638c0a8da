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
TD_PFM_MODEL=td_soft_tree "$daemon" -f -c "$dir/conf" --socket "$dir/sock" --database "$dir/d.db" 2>"$dir/log" &
pids="$pids $!"
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
