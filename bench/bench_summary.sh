#!/bin/sh
# bench_summary.sh: what tdctl's end-of-run summary costs, two builds side by side (issue 32).
#   bench/bench_summary.sh OLD_BUILDDIR NEW_BUILDDIR [SECONDS] [ROUNDS] [THREADS...]
# On one busy target of each thread count (td-demo -t N), `tdctl attach -I 100 --duration
# SECONDS` of the old build, then the new, alternating, ROUNDS times each; prints the figures
# the summary gives of itself (CPU ms to the first interval, for the summary, sampling: the
# intervals' collector_ns summed, and the whole command), the intervals stored, and the load
# average beside each run. A build whose tdctl reads the summary back (TD_SUMMARY_READBACK=1
# for the new one) is the "before". Not run by make check.
set -eu
old=${1:?usage: bench_summary.sh OLD_BUILDDIR NEW_BUILDDIR [SECONDS] [ROUNDS] [THREADS...]}
new=${2:?usage: bench_summary.sh OLD_BUILDDIR NEW_BUILDDIR [SECONDS] [ROUNDS] [THREADS...]}
seconds=${3:-20}
rounds=${4:-2}
shift $(($# < 4 ? $# : 4))
counts=${*:-13 1000}
[ -n "${TOPDOWN_EVENTS_DIR:-}" ] || export TOPDOWN_EVENTS_DIR="$(cd "$(dirname "$0")/.." && pwd)/events"
dir=$(mktemp -d "${TMPDIR:-/tmp}/td-bench-summary.XXXXXX")
pid=
trap '[ -z "$pid" ] || kill "$pid" 2>/dev/null || :; rm -rf "$dir"' EXIT
cp "$new/src/demo/td-demo" "$dir/target"
printf '%8s %4s %5s %9s %11s %12s %10s %6s %s\n' threads run build "start ms" "summary ms" "sampling ms" "whole ms" ints load
for n in $counts; do
	rm -f "$dir/ready"
	"$dir/target" -t "$n" -l 0 -e 0 -s $((rounds * 2 * (seconds + 5) + 60)) -r "$dir/ready" >/dev/null 2>&1 &
	pid=$!
	while [ ! -s "$dir/ready" ]; do sleep 0.05; done
	sleep 0.5
	for r in $(seq 1 "$rounds"); do
		for b in old new; do
			eval "bd=\$$b"
			rm -f "$dir"/td.db*
			load=$(cut -d' ' -f1 /proc/loadavg)
			"$bd/src/tdctl/tdctl" attach "$pid" -I 100 --duration "$seconds" -d "$dir/td.db" >/dev/null 2>"$dir/td.err" || :
			line=$(sed -n 's/^  the whole command used \([0-9.]*\) ms of CPU: \([0-9.]*\) ms to its first interval, \([0-9.]*\) ms for this summary.*/\1 \2 \3/p' "$dir/td.err")
			samp=$(sqlite3 "$dir/td.db" "select printf('%.1f', sum(collector_ns) / 1e6) || ' ' || count(*) from intervals")
			set -- $line $samp
			printf '%8s %4s %5s %9s %11s %12s %10s %6s %s\n' "$n" "$r" "$b" "${2:-?}" "${3:-?}" "${4:-?}" "${1:-?}" "${5:-?}" "$load"
		done
	done
	kill "$pid" 2>/dev/null || :
	wait "$pid" 2>/dev/null || :
	pid=
done
