#!/bin/sh
# bench_retain: does retention stall sampling? A one-hour session at 1 s
# intervals with 50 threads (Skylake level-1 events, imported from a
# generated perf stat CSV) fills a database; then `tdctl run -I MS
# --max-size` (half the data) samples a busy td-demo for SECONDS while its
# retention trims that hour step by step. Prints the longest gap between two
# interval reads (the longest stored interval) in intervals, against the
# goal of 2 (issue 14), how much of the hour was trimmed, and for contrast
# how long one `tdctl prune` with VACUUM of the same file takes (what the
# sampling loop used to wait for). Never fails on timing.
# Usage: bench/bench_retain.sh BUILDDIR [SECONDS] [MS]  (`make bench` runs it)
set -eu
build=${1:?usage: bench_retain.sh BUILDDIR [SECONDS] [MS]}
seconds=${2:-5}
ms=${3:-100}
tdctl="$build/src/tdctl/tdctl"
demo="$build/src/demo/td-demo"
src=$(cd "$(dirname "$0")/.." && pwd)
dir=$(mktemp -d "${TMPDIR:-/tmp}/td-bench-retain.XXXXXX")
trap 'rm -rf "$dir"' EXIT
awk -f "$src/tests/data/hour-session.awk" >"$dir/hour.csv"
"$tdctl" import -q --pmu skl -d "$dir/hour.db" "$dir/hour.csv" >/dev/null
cp "$dir/hour.db" "$dir/vacuum.db"
mb=$(sqlite3 "$dir/hour.db" "select round((select page_count from pragma_page_count) *
	(select page_size from pragma_page_size) / 1048576.0 / 2, 1)")
"$tdctl" run -q -I "$ms" --max-size "$mb" -d "$dir/hour.db" -- "$demo" -t 2 -l 0 -e 0 -s "$seconds" >/dev/null 2>&1
sqlite3 -batch -noheader "$dir/hour.db" "select 'intervals sampled: ' || count(*) || ' at ' || $ms || ' ms;' ||
	' longest gap between reads: ' || round(max(end_ns - start_ns) / 1e6, 1) || ' ms = ' ||
	round(max(end_ns - start_ns) / 1e6 / $ms, 2) || ' intervals; ratio to the goal of 2: ' ||
	round(max(end_ns - start_ns) / 1e6 / $ms / 2, 2) from intervals where session_id = 2"
sqlite3 -batch -noheader "$dir/hour.db" "select 'the hour kept ' || count(*) || ' of 3600 intervals (limit ' || $mb ||
	' MB)' from intervals where session_id = 1"
start=$(date +%s.%N)
"$tdctl" prune -d "$dir/vacuum.db" --max-size "$mb" >/dev/null
end=$(date +%s.%N)
echo "for contrast, tdctl prune --max-size $mb with its VACUUM: $(awk -v a="$start" -v b="$end" \
	'BEGIN { printf "%.2f s = %.0f intervals of %d ms", b - a, (b - a) * 1000 / '"$ms"', '"$ms"' }')"
