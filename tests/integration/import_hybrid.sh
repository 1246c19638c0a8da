#!/bin/sh
# tdctl import of a hybrid CPU's perf stat -x file (Alder Lake: cpu_core/.../ and cpu_atom/.../
# events, as perf prints them, tests/data/import/adl-hybrid.csv with hand-chosen counts) with
# --pmu adl_glc+adl_grt: every node of both trees (intel-adl-glc.td, intel-adl-grt.td) as stored
# by the import, and the report's combined level 1, against the hand computations below.
. "$(dirname "$0")/lib.sh"

DATA="$TD_SRCDIR/tests/data/import"
(cd "$DATA" && "$TDCTL" import --pmu adl_glc+adl_grt -d "$WORK/h.db" adl-hybrid.csv) >"$WORK/import.out" 2>&1
check_eq "import exits 0" 0 "$?"
check_grep "all 36 events are read by the two files" "reads 36 of the events" "$WORK/import.out"

# cpu_core (Golden Cove, adl-metrics.json): PM_SUM = 1.2e9 + 0.6e9 + 2.4e9 + 1.8e9 = 6e9 = SLOTS.
#   Frontend_Bound = 1.2/6 - 0.06/6 = 0.19     Fetch_Latency = 0.72/6 - 0.01 = 0.11
#   Fetch_Bandwidth = 0.19 - 0.11 = 0.08        Backend_Bound = 1.8/6 = 0.3, Retiring = 2.4/6 = 0.4
#   Bad_Speculation = 1 - 0.19 - 0.3 - 0.4 = 0.11, Branch_Mispredicts = 0.48/6 = 0.08, Machine_Clears = 0.03
#   Memory_Bound = 1.2/6 = 0.2, Core_Bound = 0.1; Heavy_Operations = 0.3/6 = 0.05, Light = 0.35
# cpu_atom (Gracemont): SLOTS = 5 x 0.5e9 = 2.5e9.
#   Frontend_Bound = 0.75/2.5 = 0.3, Frontend_Latency = 0.5/2.5 = 0.2, Frontend_Bandwidth = 0.25/2.5 = 0.1
#   Backend_Bound = 0.5/2.5 = 0.2, Retiring = 1.0/2.5 = 0.4, Bad_Speculation = (2.5-0.75-0.5-1.0)/2.5 = 0.1
#   Branch_Mispredicts = 0.15/2.5 = 0.06, Machine_Clears = 0.1/2.5 = 0.04
#   Store_Bound = 0.125/2.5 x 0.2/0.4 = 0.025; Load_Store_Bound = min(0.2, 0.05/0.5 + 0.025) = 0.125
#   Core_Bound = 0.2 - 0.125 = 0.075; MS_Uops = 0.125/2.5 = 0.05, Base = (1.0 - 0.125)/2.5 = 0.35
#   level 3, each sub-event / 2.5e9: Icache 0.2 -> 0.08, ITLB 0.1 -> 0.04, Branch_Detect 0.125 -> 0.05,
#   Branch_Resteer 0.075 -> 0.03, Cisc 0.05 -> 0.02, Decode 0.1 -> 0.04, Predecode 0.025 -> 0.01,
#   Other_FB 0.075 -> 0.03, Nuke 0.06 -> 0.024, Fast_Nuke 0.04 -> 0.016
cat >"$WORK/want" <<'W'
Frontend_Bound 0.19
Frontend_Bound.Fetch_Latency 0.11
Frontend_Bound.Fetch_Bandwidth 0.08
Bad_Speculation 0.11
Bad_Speculation.Branch_Mispredicts 0.08
Bad_Speculation.Machine_Clears 0.03
Backend_Bound 0.3
Backend_Bound.Memory_Bound 0.2
Backend_Bound.Core_Bound 0.1
Retiring 0.4
Retiring.Heavy_Operations 0.05
Retiring.Light_Operations 0.35
cpu_atom:Frontend_Bound 0.3
cpu_atom:Frontend_Bound.Frontend_Latency 0.2
cpu_atom:Frontend_Bound.Frontend_Bandwidth 0.1
cpu_atom:Bad_Speculation 0.1
cpu_atom:Bad_Speculation.Branch_Mispredicts 0.06
cpu_atom:Bad_Speculation.Machine_Clears 0.04
cpu_atom:Backend_Bound 0.2
cpu_atom:Backend_Bound.Load_Store_Bound 0.125
cpu_atom:Backend_Bound.Core_Bound 0.075
cpu_atom:Retiring 0.4
cpu_atom:Retiring.Base 0.35
cpu_atom:Retiring.MS_Uops 0.05
cpu_atom:Frontend_Bound.Frontend_Latency.Icache 0.08
cpu_atom:Frontend_Bound.Frontend_Latency.ITLB 0.04
cpu_atom:Frontend_Bound.Frontend_Latency.Branch_Detect 0.05
cpu_atom:Frontend_Bound.Frontend_Latency.Branch_Resteer 0.03
cpu_atom:Frontend_Bound.Frontend_Bandwidth.Cisc 0.02
cpu_atom:Frontend_Bound.Frontend_Bandwidth.Decode 0.04
cpu_atom:Frontend_Bound.Frontend_Bandwidth.Predecode 0.01
cpu_atom:Frontend_Bound.Frontend_Bandwidth.Other_FB 0.03
cpu_atom:Bad_Speculation.Machine_Clears.Nuke 0.024
cpu_atom:Bad_Speculation.Machine_Clears.Fast_Nuke 0.016
W
sql "$WORK/h.db" "select name, value from metric_values where kind = 'node'" | tr '|' ' ' >"$WORK/got"
bad=$(awk 'FNR == NR { want[$1] = $2; n++; next }
	{ got++; if (!($1 in want)) { print "no hand value for " $1; next }
	  d = want[$1] - $2; if (d < 0) d = -d; if (d > 1e-9) print $1 ": " $2 ", expected " want[$1]; seen[$1] = 1 }
	END { for (k in want) if (!(k in seen)) print k ": not stored"; if (got != n) print got " values, " n " hand values" }' \
	"$WORK/want" "$WORK/got")
check_eq "every node of both trees has its hand value" "" "$bad"

# Combined level 1 (eval/combine.h): node = (N_core x 6e9 + N_atom x 2.5e9) / 8.5e9
#   Frontend_Bound  = (0.19 x 6 + 0.3 x 2.5) / 8.5 = 1.89 / 8.5 = 22.235 %
#   Bad_Speculation = (0.11 x 6 + 0.1 x 2.5) / 8.5 = 0.91 / 8.5 = 10.706 %
#   Backend_Bound   = (0.3 x 6 + 0.2 x 2.5) / 8.5 = 2.3 / 8.5 = 27.059 %
#   Retiring        = (0.4 x 6 + 0.4 x 2.5) / 8.5 = 3.4 / 8.5 = 40.000 %  (they add up to 100 %)
"$TDCTL" report -d "$WORK/h.db" >"$WORK/report.txt" 2>&1
check_eq "report exits 0" 0 "$?"
check_grep "the report shows the cpu_core tree" "== cpu_core (PMU model adl_glc, intel-adl-glc.td) ==" "$WORK/report.txt"
check_grep "the report shows the cpu_atom tree" "== cpu_atom (PMU model adl_grt, intel-adl-grt.td) ==" "$WORK/report.txt"
check_grep "the combined view counts 8.5e9 slots" "share of all issue slots (8500000000)" "$WORK/report.txt"
got=$(awk '/^== all core types/ { on = 1; next } on && /% Slots/ { printf "%s=%s ", $1, $2 }' "$WORK/report.txt")
want=$(awk 'BEGIN { printf "Frontend_Bound=%.2f Bad_Speculation=%.2f Backend_Bound=%.2f Retiring=%.2f ",
	100 * 1.89 / 8.5, 100 * 0.91 / 8.5, 100 * 2.3 / 8.5, 100 * 3.4 / 8.5 }')
check_eq "combined level 1 is the slot-weighted share" "$want" "$got"

# CSV: both trees' node rows (the E-core tree's names prefixed as stored) and the combined level
# 1 as node rows "combined:NODE", each to the CSV's 4 decimals of the percentages above
"$TDCTL" report -d "$WORK/h.db" --format csv >"$WORK/h.csv" 2>&1
check_eq "report --format csv exits 0" 0 "$?"
awk '{ printf "%s %.4f\n", $1, 100 * $2 }' "$WORK/want" >"$WORK/want.csv"
awk 'BEGIN { printf "combined:Frontend_Bound %.4f\ncombined:Bad_Speculation %.4f\ncombined:Backend_Bound %.4f\ncombined:Retiring %.4f\n",
	100 * 1.89 / 8.5, 100 * 0.91 / 8.5, 100 * 2.3 / 8.5, 100 * 3.4 / 8.5 }' >>"$WORK/want.csv"
check_eq "every CSV node row is the hand value" "$(sort "$WORK/want.csv")" \
	"$(awk -F, '$1 == "session" && $10 == "node" { print $2, $4 }' "$WORK/h.csv" | sort)"
"$TDCTL" report -d "$WORK/h.db" --format json >"$WORK/h.json" 2>&1
check_eq "report --format json exits 0" 0 "$?"
check_eq "JSON: 38 node rows, two scopes, the second the cpu_atom tree with its own bottleneck" \
	"38 2 cpu_atom cpu_atom:Frontend_Bound.Frontend_Latency.Icache" \
	"$(sql :memory: "select json_array_length(readfile('$WORK/h.json'), '\$.nodes') || ' ' ||
		json_array_length(readfile('$WORK/h.json'), '\$.scopes') || ' ' ||
		json_extract(readfile('$WORK/h.json'), '\$.scopes[1].tree') || ' ' ||
		json_extract(readfile('$WORK/h.json'), '\$.scopes[1].bottleneck')")"

# What the hybrid report cannot show is refused in one line, exit 1
"$TDCTL" report -d "$WORK/h.db" --format html -o "$WORK/h.html" >"$WORK/html.out" 2>&1
check_eq "report --format html of a hybrid session exits 1" 1 "$?"
check_grep "saying which formats it has" "--format text, csv or json only" "$WORK/html.out"
"$TDCTL" report -d "$WORK/h.db" --node Retiring >"$WORK/node.out" 2>&1
check_eq "report --node exits 1" 1 "$?"
check_grep "saying why" "a hybrid CPU's, with a tree per core PMU: leave out --node" "$WORK/node.out"
"$TDCTL" report -d "$WORK/h.db" --thread 5 >"$WORK/thr.out" 2>&1
check_eq "report --thread of a thread the import has not exits 1" 1 "$?"

# The P-core model alone reads the cpu_core lines and says how to read the cpu_atom ones
(cd "$DATA" && "$TDCTL" import --pmu adl_glc -d "$WORK/core.db" adl-hybrid.csv) >"$WORK/core.out" 2>&1
check_eq "import --pmu adl_glc exits 0" 0 "$?"
check_grep "its 12 events read" "reads 12 of the events" "$WORK/core.out"
check_grep "a cpu_atom line's message names the hybrid spec" "give --pmu adl_glc+adl_grt to read both core types" "$WORK/core.out"

# --pmu names a model that is not a hybrid core PMU's: one line, non-zero
(cd "$DATA" && "$TDCTL" import --pmu adl_glc+skl -d "$WORK/bad.db" adl-hybrid.csv) >"$WORK/bad.out" 2>&1
check "a second model that is no core PMU's is refused" test $? -ne 0
check_grep "and the message names it" "'skl' is not the model of a hybrid CPU's core PMU" "$WORK/bad.out"
finish
