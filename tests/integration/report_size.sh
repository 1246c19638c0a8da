#!/bin/sh
# The HTML report of a one-hour session at 1 s intervals with 50 threads
# (Skylake level-1 events, imported from a generated perf stat CSV: the same
# session bench/bench_report.sh loads in Chromium for the 2 s goal) is under
# 2 MB, and still a whole report: the tree, every thread in the target table,
# charts of at most 300 columns covering the hour. The report computes every
# value from the counts, so the hour is imported --no-metrics (storing the
# 27 million metric values it would otherwise write took most of this test).
. "$(dirname "$0")/lib.sh"

awk -f "$TD_SRCDIR/tests/data/hour-session.awk" >"$WORK/hour.csv"
"$TDCTL" import --pmu skl --no-metrics -d "$WORK/hour.db" "$WORK/hour.csv" >/dev/null 2>"$WORK/err"
check_eq "the hour imports: 3600 intervals, 50 threads" "0|3600|50" \
	"$?|$(sql "$WORK/hour.db" "select count(*) from intervals")|$(sql "$WORK/hour.db" "select count(*) from threads")"
"$TDCTL" report -d "$WORK/hour.db" --format html -o "$WORK/hour.html"
check_eq "report --format html exits 0" 0 "$?"
size=$(wc -c <"$WORK/hour.html" | tr -d ' ')
check "the one-hour, 50-thread report is under 2 MB ($size bytes)" test "$size" -lt 2097152
check_eq "every thread has a row in the target table" 50 "$(grep -o 'thread:w-10[0-4][0-9]' "$WORK/hour.html" | sort -u | wc -l | tr -d ' ')"
check_grep "the tree is there with Frontend_Bound" "Frontend_Bound" "$WORK/hour.html"
check_grep "the level-1 series is there" 'id="series"' "$WORK/hour.html"
finish
