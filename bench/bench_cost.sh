#!/bin/sh
# bench_cost: is the CPU time topdown records for itself right? `tdctl attach
# -I 100` follows td-demo's THREADS busy threads for SECONDS; meanwhile this
# script reads tdctl's utime + stime from /proc/PID/stat (the kernel's
# accounting, read from outside) every 50 ms. Over the window from the 10th
# interval to the last but 5, the CPU time the intervals recorded
# (intervals.collector_ns, summed over those whose end falls in the window)
# is compared with the /proc difference between the readings nearest the
# window's ends. Prints both and their ratio (goal: within 10 %). Never fails.
# Usage: bench/bench_cost.sh BUILDDIR [SECONDS] [THREADS]  (`make bench` runs it)
set -eu
build=${1:?usage: bench_cost.sh BUILDDIR [SECONDS] [THREADS]}
seconds=${2:-10}
threads=${3:-100}
tdctl="$build/src/tdctl/tdctl"
demo="$build/src/demo/td-demo"
dir=$(mktemp -d "${TMPDIR:-/tmp}/td-bench-cost.XXXXXX")
pid=
tpid=
trap '[ -z "$pid" ] || kill "$pid" 2>/dev/null || :; [ -z "$tpid" ] || kill "$tpid" 2>/dev/null || :; rm -rf "$dir"' EXIT
tck=$(getconf CLK_TCK)

"$demo" -t "$threads" -l 0 -e 0 -s $((seconds + 3)) >/dev/null 2>&1 &
pid=$!
sleep 0.5
"$tdctl" attach "$pid" -q -I 100 --duration "$seconds" -d "$dir/c.db" >/dev/null 2>&1 &
tpid=$!
# "WALL_NS CPU_TICKS" of tdctl, every 50 ms while it runs
while [ -r "/proc/$tpid/stat" ]; do
	t=$(date +%s%N)
	ticks=$(awk '{ sub(/^.*\) /, ""); print $12 + $13 }' "/proc/$tpid/stat" 2>/dev/null) || break
	[ -n "$ticks" ] && echo "$t $ticks" >>"$dir/proc"
	sleep 0.05
done
wait "$tpid" || :
tpid=
kill "$pid" 2>/dev/null || :
wait "$pid" 2>/dev/null || :
pid=

# the window: from the end of the 10th interval to the end of the 5th from last
from=$(sqlite3 "$dir/c.db" "select end_ns from intervals order by seq limit 1 offset 9")
to=$(sqlite3 "$dir/c.db" "select end_ns from intervals order by seq desc limit 1 offset 5")
recorded=$(sqlite3 "$dir/c.db" "select sum(collector_ns) / 1e9 from intervals where end_ns > $from and end_ns <= $to")
proc=$(awk -v a="$from" -v b="$to" -v tck="$tck" '
	function dist(x, y) { return x > y ? x - y : y - x }
	{ if (na == "" || dist($1, a) < na) { na = dist($1, a); ta = $2 } if (nb == "" || dist($1, b) < nb) { nb = dist($1, b); tb = $2 } }
	END { printf "%.3f", (tb - ta) / tck }' "$dir/proc")
echo "tdctl attach -I 100, $threads threads, over $(awk -v a="$from" -v b="$to" 'BEGIN { printf "%.1f", (b - a) / 1e9 }') s:" \
	"recorded $(printf '%.3f' "$recorded") s of CPU, /proc/PID/stat says $proc s;" \
	"ratio $(awk -v r="$recorded" -v p="$proc" 'BEGIN { printf "%.3f", (p > 0 ? r / p : 0) }') (goal 0.90 to 1.10)"
