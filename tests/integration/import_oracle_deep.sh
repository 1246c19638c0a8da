#!/bin/sh
# The deep toplev oracle cases (tests/data/oracle/toplev-deep, public pmu-tools
# toplev 5.1 --import): tdctl import of each input, then tdctl export --format
# csv. EVERY row toplev printed (nodes down to level 3 or 4, and the info
# metrics asked for with --nodes +IPC,+CPI,+CLKS,+SLOTS) must be computed by the
# events file and agree with toplev: nodes within 1e-6 percentage points, info
# metrics within 1e-6 relative. A row toplev prints that the events file lacks
# counts as a mismatch, not a skip. Only MUX (toplev's multiplexing ratio, not
# a metric) is left out.
. "$(dirname "$0")/lib.sh"

ORACLE="$TD_SRCDIR/tests/data/oracle/toplev-deep"

# compare EXPORT.csv EXPECTED.csv: prints "MATCHED ROWS"; each mismatch or missing row on stderr
compare() {
	awk -F, '
	FNR == NR { if ($5 == "whole" && ($1 == "node" || $1 == "info") && $8 != "") v[$1 SUBSEP $6] = $8; next }
	FNR == 1 { for (i = 1; i <= NF; i++) if ($i == "Area") a = i; next }
	/^#/ { next }
	{
		area = $a; val = $(a + 1); unit = $(a + 2)
		if (area == "MUX") next
		rows++
		if (unit ~ /^%/) {
			k = "node" SUBSEP area
			if (!(k in v)) { print "missing node " area > "/dev/stderr"; next }
			d = v[k] * 100 - val; if (d < 0) d = -d
			if (d > 1e-6) { print "mismatch " area ": " v[k] * 100 " vs " val > "/dev/stderr"; next }
		} else {
			k = "info" SUBSEP area
			if (!(k in v)) { print "missing info " area > "/dev/stderr"; next }
			d = v[k] - val; if (d < 0) d = -d
			if (d > 1e-6 * (val < 0 ? -val : val)) { print "mismatch " area ": " v[k] " vs " val > "/dev/stderr"; next }
		}
		matched++
	}
	END { printf "%d %d\n", matched, rows }' "$1" "$2"
}

# check_case CASE MODEL ROWS: ROWS = toplev's rows in expected/CASE.csv other than MUX
check_case() {
	c=$1 model=$2 rows=$3
	db="$WORK/$c.db"
	"$TDCTL" import -q --pmu "$model" --smt off -d "$db" "$ORACLE/inputs/$c.perf.csv" 2>"$WORK/$c.err"
	check_eq "$c: import exits 0" 0 "$?"
	check_eq "$c: import reports nothing (every event read or a dummy)" "" "$(cat "$WORK/$c.err")"
	"$TDCTL" export 1 -d "$db" --format csv -o "$WORK/$c.csv"
	check_eq "$c: export exits 0" 0 "$?"
	got=$(compare "$WORK/$c.csv" "$ORACLE/expected/$c.csv" 2>"$WORK/$c.diff")
	sed "s/^/# $c: /" "$WORK/$c.diff"
	echo "# $c: ${got% *} of ${got#* } toplev rows match"
	check_eq "$c: all $rows of toplev's rows computed and matching (matched rows)" "$rows $rows" "$got"
}

check_case icl-l3-pm-fe-icache icl 42
check_case spr-l3-pm-badspec-ms spr 44
check_case skl-l4-core-ports skl 77
finish
