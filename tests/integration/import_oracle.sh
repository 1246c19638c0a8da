#!/bin/sh
# tdctl import of each toplev oracle input (tests/data/oracle/toplev/inputs),
# then tdctl export --format csv: every tree node toplev and the events file
# both compute agrees with toplev's Value within 0.01 percentage points, for
# the `whole` target (toplev's per-core view in the SMT case: both threads
# summed, with --smt on). spr-l2-events counts the general-purpose TOPDOWN.*
# events instead of PERF_METRICS: intel-spr.td falls back to them (its PM
# let is 0) and must match toplev on all 12 level-1/2 nodes there too.
. "$(dirname "$0")/lib.sh"

ORACLE="$TD_SRCDIR/tests/data/oracle/toplev"

# compare EXPORT.csv EXPECTED.csv: prints "NODES BAD INFOS BADINFO"; mismatches on stderr
compare() {
	awk -F, '
	FNR == NR { if ($5 == "whole" && ($1 == "node" || $1 == "info") && $8 != "") v[$1 SUBSEP $6] = $8; next }
	FNR == 1 { for (i = 1; i <= NF; i++) if ($i == "Area") a = i; next }
	/^#/ { next }
	{
		area = $a; val = $(a + 1); unit = $(a + 2)
		if (area == "MUX") next
		if (unit ~ /^%/) {
			k = "node" SUBSEP area
			if (!(k in v)) next
			d = v[k] * 100 - val; if (d < 0) d = -d
			n++; if (d > 0.01) { bad++; print "mismatch " area ": " v[k] * 100 " vs " val > "/dev/stderr" }
		} else {
			k = "info" SUBSEP area
			if (!(k in v)) next
			d = v[k] - val; if (d < 0) d = -d
			ni++; if (d > 1e-6 * (val < 0 ? -val : val) + 1e-9) { badi++; print "mismatch " area ": " v[k] " vs " val > "/dev/stderr" }
		}
	}
	END { printf "%d %d %d %d\n", n, bad, ni, badi }' "$1" "$2"
}

# case MODEL SMT NODES INFOS: NODES and INFOS = how many toplev rows the events file computes
check_case() {
	c=$1 model=$2 smt=$3 nodes=$4 infos=$5
	db="$WORK/$c.db"
	"$TDCTL" import -q --pmu "$model" --smt "$smt" -d "$db" "$ORACLE/inputs/$c.perf.csv" 2>"$WORK/$c.err"
	check_eq "$c: import exits 0" 0 "$?"
	"$TDCTL" export 1 -d "$db" --format csv -o "$WORK/$c.csv"
	check_eq "$c: export exits 0" 0 "$?"
	check_eq "$c: $nodes nodes and $infos info metrics compared, none off by more than 0.01 points" \
		"$nodes 0 $infos 0" "$(compare "$WORK/$c.csv" "$ORACLE/expected/$c.csv")"
}

check_case skl-l1 skl off 4 0
check_case skl-l2 skl off 12 0
check_case skl-l3 skl off 38 0
check_case skl-l3-info skl off 38 11
check_case skl-smt-l2 skl on 12 0
check_case icl-l2-perfmetrics icl off 12 0
check_case spr-l2-perfmetrics spr off 12 0
check_case spr-l2-events spr off 12 0

# the SMT case: two CPU targets and the whole (core) aggregate; CPU rows exist too
check_eq "skl-smt-l2: targets are cpu 0, cpu 1 and whole" "cpu:0 cpu:1 whole" \
	"$(awk -F, '$1 == "node" && $6 == "Frontend_Bound" { printf "%s%s", sep, $5; sep = " " }' "$WORK/skl-smt-l2.csv")"
check_eq "skl-smt-l2: the bottleneck is Backend_Bound.Core_Bound, as toplev's <==" "Backend_Bound.Core_Bound" \
	"$(awk -F, '$1 == "node" && $5 == "whole" && $13 == 1 { print $6 }' "$WORK/skl-smt-l2.csv")"
check_eq "skl-smt-l2: with --smt off the same counts give another Frontend_Bound (SMT matters)" 1 \
	"$("$TDCTL" import -q --pmu skl --smt off -d "$WORK/off.db" "$ORACLE/inputs/skl-smt-l2.perf.csv" 2>/dev/null &&
	  "$TDCTL" export 1 -d "$WORK/off.db" --format csv |
	  awk -F, '$1 == "node" && $5 == "whole" && $6 == "Frontend_Bound" { print ($8 == "" || $8 != 0.2) }')"
# spr-l2-events: each of the 9 distinct general-purpose events feeds an alias
# of intel-spr.td's fallback path; SLOTS is TOPDOWN.SLOTS_P there
check_eq "spr-l2-events: all 9 distinct events read, none left without an alias" "9 0" \
	"$(sql "$WORK/spr-l2-events.db" "select count(distinct alias), sum(alias is null) from events" | tr '|' ' ')"
check_eq "spr-l2-events: SLOTS is TOPDOWN.SLOTS_P (PERF_METRICS not counted)" 6000000000 \
	"$(awk -F, '$1 == "info" && $5 == "whole" && $6 == "SLOTS" { print $8 }' "$WORK/spr-l2-events.csv")"
check_eq "skl-l3: perf's dummy lines are kept as an event no alias reads, nothing reported" "3 0" \
	"$(sql "$WORK/skl-l3.db" "select count(*) from events where name='dummy' and alias is null") $(wc -l <"$WORK/skl-l3.err")"
finish
