#!/bin/sh
# The HTML report of a one-hour session at 1 s intervals with 50 threads
# (Skylake level-1 events, imported from a generated perf stat CSV: the same
# session bench/bench_report.sh loads in Chromium for the 2 s goal) is under
# 2 MB, and still a whole report: the tree, every thread in the target table,
# charts of at most 300 columns covering the hour.
. "$(dirname "$0")/lib.sh"

awk 'BEGIN {
	split("cpu/event=0x3c,umask=0x0/ cpu/event=0x9c,umask=0x1/ cpu/event=0xc2,umask=0x2/ cpu/event=0xe,umask=0x1/ cpu/event=0xd,umask=0x1/ cpu/event=0xc0,umask=0x0/", ev, " ")
	split("1000000000 800000000 1600000000 1800000000 50000000 1500000000", base, " ")
	for (t = 1; t <= 3600; t++) for (th = 0; th < 50; th++) for (e = 1; e <= 6; e++)
		printf "%d.000000000;w-%d;%d;;%s;1000000000;100.00;;\n", t, 1000 + th,
		       int(base[e] * (0.5 + ((t * 7 + th * 13 + e) % 100) / 100)), ev[e]
}' >"$WORK/hour.csv"
"$TDCTL" import --pmu skl -d "$WORK/hour.db" "$WORK/hour.csv" >/dev/null 2>"$WORK/err"
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
