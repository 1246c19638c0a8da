#!/bin/sh
# tdctl report and tdctl diff on fixture sessions: golden text and CSV
# (tests/data/golden/) for a Skylake L3 import (toplev's oracle input), a
# Zen 4 import, a multiplexed Skylake L2 import (confidence below 100 %) and
# a software-only session built by SQL with fixed numbers; a tree over
# software events collected live on the software-only rung; the report's
# values against the stored metrics; filters, levels, intervals (counts
# summed, then evaluated); a --from/--to time window (on the aggregate and
# per target, and refusals); the HTML file rendered by headless Chromium (DOM:
# every node, the bottleneck path open; a phone-width screenshot); diff
# naming the nodes that changed most, in order.
# TD_GOLDEN_UPDATE=1 rewrites the golden files (refused when CI is set: a
# rewritten golden proves nothing); a golden that differs is shown as a diff.
. "$(dirname "$0")/lib.sh"

GOLDEN="$TD_SRCDIR/tests/data/golden"
REPORT="$TD_SRCDIR/tests/data/report"
ORACLE="$TD_SRCDIR/tests/data/oracle/toplev/inputs"

# imp DIR FILE PMU DB: import DIR/FILE (named relatively, so the golden
# header is the same in every build tree)
imp() { (cd "$1" && "$TDCTL" import -q --pmu "$3" --smt off -d "$4" "$2"); }

# golden NAME FILE: FILE equals tests/data/golden/NAME
if [ "${TD_GOLDEN_UPDATE:-}" = 1 ] && [ -n "${CI:-}" ]; then
	echo "report.sh: TD_GOLDEN_UPDATE is refused under CI: update goldens by hand, check every number, commit them" >&2
	echo "Bail out! TD_GOLDEN_UPDATE under CI"
	exit 1
fi
golden() {
	if [ "${TD_GOLDEN_UPDATE:-}" = 1 ]; then cp "$2" "$GOLDEN/$1"; fi
	if cmp -s "$GOLDEN/$1" "$2"; then ok "golden $1"; else
		not_ok "golden $1 differs (diff -u below)"
		diff -u "$GOLDEN/$1" "$2" | sed 's/^/# /'
	fi
}

# golden_numbers NAME "node=value ..." [ORACLE]: every session node row of the golden
# CSV tests/data/golden/NAME has its value (in %, '' for n/a) from the list
# (hand arithmetic, written beside it) or from toplev's expected CSV ORACLE,
# within the golden's rounding (5e-5 points): the golden pins layout, these pin
# its numbers independently of the program
golden_numbers() {
	printf '%s\n' "$2" | tr ' ' '\n' | awk -F= 'NF { print $1 "," $2 }' >"$WORK/want.$1"
	if [ -n "${3:-}" ]; then awk -F, 'NR > 1 { print $1 "," $2 }' "$3" >>"$WORK/want.$1"; fi
	bad=$(awk -F, 'FNR == NR { want[$1] = $2; have[$1] = 1; next }
		FNR > 1 && $1 == "session" && $10 == "node" { n++
			if (!($2 in have)) { print "no independent value for " $2; next }
			if ((want[$2] == "") != ($4 == "")) { print $2 ": golden " ($4 == "" ? "n/a" : $4) ", expected " (want[$2] == "" ? "n/a" : want[$2]); next }
			d = want[$2] - $4; if (d < 0) d = -d; if (d > 5e-5) print $2 ": golden " $4 ", expected " want[$2] }
		END { if (!n) print "no session row" }' "$WORK/want.$1" "$GOLDEN/$1")
	check_eq "golden $1: every number agrees with the hand-derived or toplev value" "" "$bad"
}

# rows CSV AWK-CONDITION: the report CSV rows matching, as "node=value" words
rows() { awk -F, "NR > 1 && \$10 == \"node\" && ($2) { printf \"%s%s=%s\", sep, \$2, \$4; sep = \" \" }" "$1"; }

# ---- Skylake L3 (toplev oracle input) -----------------------------------------------
DB="$WORK/skl.db"
imp "$ORACLE" skl-l3.perf.csv skl "$DB"
check_eq "skl-l3: import exits 0" 0 "$?"
"$TDCTL" report -d "$DB" >"$WORK/skl-l3.txt"
check_eq "skl-l3: report (latest session, text) exits 0" 0 "$?"
golden skl-l3.txt "$WORK/skl-l3.txt"
"$TDCTL" report 1 -d "$DB" --format csv -o "$WORK/skl-l3.csv"
golden skl-l3.csv "$WORK/skl-l3.csv"
# toplev -l3 prints all but these level-4 nodes; from the oracle input's counts
# (tests/data/fixtures/oracle-skl-l3.fix), SMT off so CLKS = CORE_CLKS = 1e9:
# Mispredicts_Resteers = BR_MISP/(BR_MISP+MC_COUNT) * RESTEER/CLKS = 0.9 * 3e7/1e9 = 2.7 %;
# Clears_Resteers = 0.1 * 0.03 = 0.3 %; Unknown_Branches = 9 * BACLEARS/CLKS = 9 * 2e6/1e9 = 1.8 %;
# Ports_Utilized_0/1/2 = EXE_0, EXE_1, EXE_2 / 1e9 = 3, 5, 10 %; Ports_Utilized_3m: EXEC_GE3
# missing, n/a; X87_Use = Retiring * UOPS_X87/UOPS_EXEC = 0.4 * 1.7e7/1.7e9 = 0.4 %;
# FP_Scalar = 6.4e7/1.6e9 = 4 %, FP_Vector = 3.2e7/1.6e9 = 2 % (of RETIRE_SLOTS)
# the TMA 5.1 level-4 nodes below read events this level-3 input did not count
# (ITLB_MISSES.WALK_ACTIVE, INST_DECODED.DECODERS, DTLB_*, LD_BLOCKS*, OFFCORE_*, ...): n/a
SKL_L4_NA=$(printf '%s= ' Frontend_Bound.Fetch_Latency.ITLB_Misses.Code_STLB_Miss \
	Frontend_Bound.Fetch_Latency.ITLB_Misses.Code_STLB_Hit Frontend_Bound.Fetch_Bandwidth.MITE.Decoder0_Alone \
	Backend_Bound.Memory_Bound.L1_Bound.DTLB_Load Backend_Bound.Memory_Bound.L1_Bound.Store_Fwd_Blk \
	Backend_Bound.Memory_Bound.L1_Bound.L1_Latency_Dependency Backend_Bound.Memory_Bound.L1_Bound.Lock_Latency \
	Backend_Bound.Memory_Bound.L1_Bound.Split_Loads Backend_Bound.Memory_Bound.L1_Bound.4K_Aliasing \
	Backend_Bound.Memory_Bound.L1_Bound.FB_Full Backend_Bound.Memory_Bound.L2_Bound.L2_Hit_Latency \
	Backend_Bound.Memory_Bound.L3_Bound.Contested_Accesses Backend_Bound.Memory_Bound.L3_Bound.Data_Sharing \
	Backend_Bound.Memory_Bound.L3_Bound.L3_Hit_Latency Backend_Bound.Memory_Bound.L3_Bound.SQ_Full \
	Backend_Bound.Memory_Bound.DRAM_Bound.MEM_Bandwidth Backend_Bound.Memory_Bound.DRAM_Bound.MEM_Latency \
	Backend_Bound.Memory_Bound.Store_Bound.Store_Latency Backend_Bound.Memory_Bound.Store_Bound.False_Sharing \
	Backend_Bound.Memory_Bound.Store_Bound.Split_Stores Backend_Bound.Memory_Bound.Store_Bound.DTLB_Store \
	Backend_Bound.Core_Bound.Serializing_Operation.Slow_Pause Retiring.Light_Operations.Other_Light_Ops.Nop_Instructions \
	Retiring.Heavy_Operations.Microcode_Sequencer.Assists Retiring.Heavy_Operations.Microcode_Sequencer.CISC)
# and the level-5/6 nodes (TLB walk page sizes, port utilizations, Mixing_Vectors, FP widths,
# FP_Assists) read events it did not count either (*_WALK_COMPLETED_*, UOPS_DISPATCHED_PORT.*, ...): n/a
SKL_L6_NA=$(awk -F, 'NR > 1 && $10 == "node" && $3 >= 5 { printf "%s= ", $2 }' "$GOLDEN/skl-l3.csv")
golden_numbers skl-l3.csv "Frontend_Bound.Fetch_Latency.Branch_Resteers.Mispredicts_Resteers=2.7
Frontend_Bound.Fetch_Latency.Branch_Resteers.Clears_Resteers=0.3 Frontend_Bound.Fetch_Latency.Branch_Resteers.Unknown_Branches=1.8
Backend_Bound.Core_Bound.Ports_Utilization.Ports_Utilized_0=3 Backend_Bound.Core_Bound.Ports_Utilization.Ports_Utilized_1=5
Backend_Bound.Core_Bound.Ports_Utilization.Ports_Utilized_2=10 Backend_Bound.Core_Bound.Ports_Utilization.Ports_Utilized_3m=
Retiring.Light_Operations.FP_Arith.X87_Use=0.4 Retiring.Light_Operations.FP_Arith.FP_Scalar=4
Retiring.Light_Operations.FP_Arith.FP_Vector=2 $SKL_L4_NA $SKL_L6_NA" "$TD_SRCDIR/tests/data/oracle/toplev/expected/skl-l3.csv"
check_eq "skl-l3: the text golden shows the CSV golden's values to one decimal" "" \
	"$(awk -F, 'FNR == NR { if (FNR > 1 && $10 == "node") { n = split($2, p, "."); v[p[n]] = ($4 == "" ? "n/a" : sprintf("%.1f", $4)) } next }
	   /% (Slots|Clocks|Stalls|Uops|Core)/ { split($0, f, " "); if (f[1] in v) { n++; if (f[2] != v[f[1]]) print f[1] ": text " f[2] ", csv " v[f[1]] } }
	   END { if (n < 100) print "only " n " of 100 nodes found in the text" }' \
	   "$GOLDEN/skl-l3.csv" "$GOLDEN/skl-l3.txt")"
check_grep "skl-l3: Core_Bound carries <==" "    Core_Bound                                    15.0 % Slots        <==" "$WORK/skl-l3.txt"
check_grep "skl-l3: Memory_Bound is below its threshold (<)" "    Memory_Bound                                  15.0 % Slots      <" "$WORK/skl-l3.txt"
check_grep "skl-l3: a node that could not be computed prints n/a" "Ports_Utilized_3m                          n/a % Clocks" "$WORK/skl-l3.txt"
check_grep "skl-l3: the CPI stack ends with CPI = 0.667 (1e9 cycles / 1.5e9 instructions)" \
	"  CPI                              measured       0.667     100.0" "$WORK/skl-l3.txt"
"$TDCTL" export 1 -d "$DB" --format csv -o "$WORK/skl-export.csv"
check_eq "skl-l3: every report node value equals the stored metric (export) to 1e-4 points" "100 0" \
	"$(awk -F, 'FNR == NR { if ($1 == "node" && $5 == "whole") v[$6] = $8; next }
	   FNR > 1 && $10 == "node" { n++; e = ($4 == "" ? (v[$2] == "" ? 0 : 1) : ($4 - 100 * v[$2])); if (e < 0) e = -e; if (e > 1e-4) bad++ }
	   END { printf "%d %d\n", n, bad }' "$WORK/skl-export.csv" "$WORK/skl-l3.csv")"
check_eq "skl-l3: every report info metric and CPI component equals the stored one (export), relative 1e-5" "47 0" \
	"$(awk -F, 'FNR == NR { if (($1 == "info" || $1 == "cpi") && $5 == "whole") v[$1 "," $6] = $8; next }
	   FNR > 1 && ($10 == "info" || $10 == "cpi") { n++; k = $10 "," $2
	     if ($4 == "" || v[k] == "") { if (($4 == "") != (v[k] == "")) bad++; next }
	     e = $4 - v[k]; if (e < 0) e = -e; if (e > 1e-5 * (v[k] < 0 ? -v[k] : v[k]) + 1e-12) bad++ }
	   END { printf "%d %d\n", n, bad }' "$WORK/skl-export.csv" "$WORK/skl-l3.csv")"
# --what-if by hand: CPI = CLKS / INST = 1e9 / 1.5e9; the stack charges Base = Retiring (40 %,
# toplev) and Frontend_Bandwidth = Fetch_Bandwidth (20 - 12 = 8 %, toplev) of the cycles. Halving
# Base and removing Frontend_Bandwidth leaves 1 - 0.2 - 0.08 = 0.72 of the cycles: CPI' = 0.48,
# speed-up 1 / 0.72 = 1.389
"$TDCTL" report -d "$DB" --what-if Base=0.5,Frontend_Bandwidth=0 >"$WORK/whatif.txt" 2>&1
check_eq "skl-l3 --what-if: exit 0" 0 "$?"
check_eq "skl-l3 --what-if: CPI, cycles and speed-up as by hand" \
	"$(awk 'BEGIN { c = 1e9 / 1.5e9; p = c * (1 - 0.5 * 0.40 - 0.08)
		printf "CPI %.3f -> %.3f|cycles x %.3f (%+.1f %%)|speed-up %.3f x", c, p, p / c, 100 * (p / c - 1), c / p }')" \
	"$(awk '/^What if/ { w = 1 } w && $1 == "CPI" { printf "CPI %s -> %s", $2, $4 }
		w && $1 == "cycles" { printf "|cycles x %s %s %%)", $3, $4 } w && $1 == "speed-up" { printf "|speed-up %s x", $2 }' "$WORK/whatif.txt")"
check_grep "skl-l3 --what-if: the assumptions are stated" "assumes the components independent" "$WORK/whatif.txt"
# diff --what-if: A's projection against B (here the same counts: B measures the unchanged
# CPI, 1 / 0.72 - 1 = +38.9 % above the projection; Base was 0.267, projected 0.133)
"$TDCTL" diff 1 1 -d "$DB" --what-if Base=0.5,Frontend_Bandwidth=0 >"$WORK/whatif-diff.txt" 2>&1
check_eq "diff --what-if: exit 0" 0 "$?"
check_eq "diff --what-if: B's measured CPI against the projection, by hand" \
	"$(awk 'BEGIN { c = 1e9 / 1.5e9; p = 0.72 * c; printf "%.3f: %+.1f %% from the projection (%.3f); A measured %.3f", c, 100 * (c / p - 1), p, c }')" \
	"$(awk '/^  B measured CPI/ { sub(/^  B measured CPI +/, ""); print }' "$WORK/whatif-diff.txt")"
check_grep "diff --what-if: each changed component, A, projected and B" \
	"$(awk 'BEGIN { b = 0.4 / 1.5; printf "A %.3f, projected %.3f, B %.3f", b, b / 2, b }')" "$WORK/whatif-diff.txt"
err=$("$TDCTL" report -d "$DB" --what-if No_Such=0.5 2>&1)
check_eq "--what-if with an unknown component: exit 1, one line listing the components" "1 1 1" \
	"$? $(printf '%s\n' "$err" | wc -l | tr -d ' ') $(printf '%s' "$err" | grep -c 'the components are Base, ')"
err=$("$TDCTL" report -d "$DB" --what-if DRAM=x 2>&1)
check_eq "--what-if with a bad factor: exit 1, one line" "1 1" "$? $(printf '%s\n' "$err" | wc -l | tr -d ' ')"
check_eq "skl-l3: --level 1 gives the four level-1 nodes" \
	"Frontend_Bound=20.0000 Bad_Speculation=10.0000 Backend_Bound=30.0000 Retiring=40.0000" \
	"$("$TDCTL" report -d "$DB" -l 1 --format csv -o "$WORK/l1.csv"; rows "$WORK/l1.csv" 1)"
"$TDCTL" report -d "$DB" --node Backend_Bound.Memory_Bound --format csv -o "$WORK/mem.csv"
check_eq "skl-l3: --node gives the subtree only (Memory_Bound, its 5 children, their 18 and the 10 TLB-walk nodes below DTLB_Load and DTLB_Store)" "34 34" \
	"$(awk -F, 'NR > 1 { n++; if ($2 ~ /^Backend_Bound\.Memory_Bound/) m++ } END { print n, m }' "$WORK/mem.csv")"
"$TDCTL" report -d "$DB" --node Core_Bound >"$WORK/out" 2>"$WORK/err"
check_eq "skl-l3: --node with a bare name: exit 1, nothing printed, one line offering the path" \
	"1||'Core_Bound' is not a node path of intel-skl.td: did you mean --node Backend_Bound.Core_Bound?" \
	"$?|$(cat "$WORK/out")|$(sed 's/^tdctl: report: //' "$WORK/err")"
"$TDCTL" report -d "$DB" --node No_Such_Node --format csv >"$WORK/out" 2>"$WORK/err"
check_eq "skl-l3: --node naming nothing: exit 1, one line listing the level-1 nodes" \
	"1|1|1" "$?|$(wc -l <"$WORK/err" | tr -d ' ')|$(grep -c "has no node 'No_Such_Node': its level-1 nodes are Frontend_Bound, Bad_Speculation, Backend_Bound, Retiring" "$WORK/err")"
"$TDCTL" report -d "$DB" --format json -o "$WORK/skl.json"
jq_skl() { sql :memory: "select $1 from (select readfile('$WORK/skl.json') j)"; }
check_eq "skl-l3: JSON has one object per node, the bottleneck true once" "100 1" \
	"$(jq_skl "json_array_length(j, '\$.nodes')") $(grep -c '"bottleneck":true' "$WORK/skl.json")"
# the session scope: its bottleneck is the node marked, its IPC and CLKS the raw counts'
# (INST_RETIRED.ANY = event 0xc0 and CPU_CLK_UNHALTED.THREAD = 0x3c, umask 0, as imported;
# toplev's input prints each in several groups, and rows of one event are averaged)
raw() { sql "$DB" "select cast(avg(c.value) as integer) from counts c join events e on e.id = c.event_id
	where e.name = '$1'"; }
check_eq "skl-l3: JSON scope 'session': bottleneck, CLKS and IPC from the raw counts" \
	"Backend_Bound.Core_Bound|$(raw 'cpu/event=0x3c,umask=0x0/')|$(awk -v i="$(raw 'cpu/event=0xc0,umask=0x0/')" \
		-v c="$(raw 'cpu/event=0x3c,umask=0x0/')" 'BEGIN { printf "%.6f", i / c }')" \
	"$(jq_skl "json_extract(j, '\$.scopes[0].bottleneck') || '|' || json_extract(j, '\$.scopes[0].info.CLKS') || '|' ||
		printf('%.6f', json_extract(j, '\$.scopes[0].info.IPC'))")"
# (values in full precision: 15 % is 15.000000000000002 after the formula's arithmetic)
check_match "skl-l3: JSON names node, value, unit, threshold, confidence, spans" \
	'\{"scope":"session","node":"Backend_Bound.Core_Bound","level":2,"value":15(\.0000000000000[0-9]*)?,"unit":"% Slots","threshold":"above","bottleneck":true,"confidence":100.0,"spans":false\}' \
	"$(cat "$WORK/skl.json")"
check_eq "skl-l3: no colour when not a terminal; --color always adds bars and escapes" "0 1" \
	"$(grep -c "$(printf '\033')" "$WORK/skl-l3.txt") $("$TDCTL" report -d "$DB" --color always | grep -c "$(printf '\033')\[1;31m.*Core_Bound.*|###  *| <==")"

# ---- Zen 4 ----------------------------------------------------------------------------------
ZDB="$WORK/zen4.db"
imp "$REPORT" zen4-l2.perf.csv amd64_fam19h_zen4 "$ZDB"
"$TDCTL" report -d "$ZDB" >"$WORK/zen4.txt"
golden zen4-l2.txt "$WORK/zen4.txt"
"$TDCTL" report -d "$ZDB" --format csv >"$WORK/zen4.csv"
golden zen4-l2.csv "$WORK/zen4.csv"
# Zen 4 by hand from tests/data/report/zen4-l2.perf.csv: W = 6, SLOTS = 6 x 1e9 cycles;
# Frontend = 1.2e9/6e9 = 20; Fetch_Latency = 6 x 1.5e8 (cmask 6)/6e9 = 15, Bandwidth 5;
# Bad_Speculation = (ops dispatched 2.4e9 - retired 1.8e9)/6e9 = 10, split by mispredicts
# 9e6 : resyncs 1e6 = 9 and 1; Backend = 2.4e9/6e9 = 40, Memory = 40 x 3e8/5e8 (load
# not complete / not complete) = 24, Core 16; SMT contention 0; Retiring = 1.8e9/6e9 = 30,
# Microcode = 30 x 9e7/1.8e9 = 1.5, Fastpath 28.5
golden_numbers zen4-l2.csv "Frontend_Bound=20 Frontend_Bound.Fetch_Latency=15 Frontend_Bound.Fetch_Bandwidth=5
Bad_Speculation=10 Bad_Speculation.Branch_Mispredicts=9 Bad_Speculation.Pipeline_Restarts=1 Backend_Bound=40
Backend_Bound.Memory_Bound=24 Backend_Bound.Core_Bound=16 SMT_Contention=0 Retiring=30 Retiring.Fastpath=28.5
Retiring.Microcode=1.5"
check_eq "zen4: Memory_Bound = 40 % x 3e8/5e8 = 24 %, the bottleneck" "Backend_Bound.Memory_Bound=24.0000" \
	"$(rows "$WORK/zen4.csv" '$7 == 1')"

# ---- multiplexed: confidence below 100 % ----------------------------------------------------------
imp "$REPORT" skl-l2-mux.perf.csv skl "$DB"
"$TDCTL" report 2 -d "$DB" >"$WORK/mux.txt"
golden skl-l2-mux.txt "$WORK/mux.txt"
"$TDCTL" report 2 -d "$DB" --format csv >"$WORK/mux.csv"
golden skl-l2-mux.csv "$WORK/mux.csv"
# Skylake L2, by hand from tests/data/report/skl-l2-mux.perf.csv (perf prints
# multiplexed counts already scaled): SLOTS = 4 x 1e9; Frontend = 8e8/4e9 = 20,
# Fetch_Latency = 4 x 1.2e8/4e9 = 12, Bandwidth 8; Bad_Speculation = (1.8e9 - 1.6e9
# + 4 x 5e7)/4e9 = 10, mispredicts 9e6 : clears 1e6 = 9 and 1; Retiring = 1.6e9/4e9 =
# 40; Backend = 100 - 20 - 10 - 40 = 30; Memory = 30 x (1.8e8 + 1e7)/(2e8 + 5e7 + 0.4
# x 1e8 + 1e7) = 30 x 1.9e8/3e8 = 19, Core 11; Store_Bound = 1e7/1e9 = 1;
# Ports_Utilized_1, _2 = 5e7, 1e8 / 1e9 = 5, 10; Heavy = (1.6e9 + 1e8 - 1.5e9)/4e9 = 5,
# Light 35, Fused = 35 x 1e8/1.6e9 = 2.1875; every other node reads an event this
# level-2 file did not count: n/a
golden_numbers skl-l2-mux.csv "Frontend_Bound=20 Frontend_Bound.Fetch_Latency=12 Frontend_Bound.Fetch_Bandwidth=8
Bad_Speculation=10 Bad_Speculation.Branch_Mispredicts=9 Bad_Speculation.Machine_Clears=1 Backend_Bound=30
Backend_Bound.Memory_Bound=19 Backend_Bound.Core_Bound=11 Backend_Bound.Memory_Bound.Store_Bound=1
Backend_Bound.Core_Bound.Ports_Utilization.Ports_Utilized_1=5 Backend_Bound.Core_Bound.Ports_Utilization.Ports_Utilized_2=10
Retiring=40 Retiring.Heavy_Operations=5 Retiring.Light_Operations=35 Retiring.Light_Operations.Fused_Instructions=2.1875
$(awk -F, 'NR > 1 && $4 == "" { printf "%s= ", $2 }' "$GOLDEN/skl-l2-mux.csv")"
check_grep "mux: Memory_Bound shows its confidence" "Memory_Bound                                  19.0 % Slots      < [conf 62%]" "$WORK/mux.txt"
check_eq "mux: confidence 62.5 on the nodes reading the multiplexed events, 100 elsewhere" \
	"Backend_Bound.Memory_Bound=62.5 Backend_Bound.Core_Bound=62.5 Frontend_Bound=100.0" \
	"$(awk -F, '$2 == "Backend_Bound.Memory_Bound" || $2 == "Backend_Bound.Core_Bound" || $2 == "Frontend_Bound" { a[$2] = $8 }
	   END { printf "Backend_Bound.Memory_Bound=%s Backend_Bound.Core_Bound=%s Frontend_Bound=%s", a["Backend_Bound.Memory_Bound"], a["Backend_Bound.Core_Bound"], a["Frontend_Bound"] }' "$WORK/mux.csv")"

# ---- intervals: counts summed, then evaluated ----------------------------------------------------
IDB="$WORK/iv.db"
imp "$REPORT" zen4-intervals.perf.csv amd64_fam19h_zen4 "$IDB"
"$TDCTL" report -d "$IDB" -l 1 --intervals --format csv >"$WORK/iv.csv"
check_eq "intervals: Backend_Bound 40 % then 50 % (twice the cycles): the session is 8.4e9/18e9 = 46.67 %, not the mean 45 %" \
	"Backend_Bound=46.6667 Backend_Bound=40.0000 Backend_Bound=50.0000" "$(rows "$WORK/iv.csv" '$2 == "Backend_Bound"')"
check_eq "intervals: scopes session, 0, 1" "session 0 1" \
	"$(awk -F, '$2 == "Retiring" { printf "%s%s", sep, $1; sep = " " }' "$WORK/iv.csv")"
check_grep "intervals: the text report has a per-interval table" "    1             10.0             10.0             50.0" \
	"$("$TDCTL" report -d "$IDB" --intervals >"$WORK/iv.txt"; echo "$WORK/iv.txt")"

# ---- --from/--to: a time window of intervals ----------------------------------------------------
# l1 CSV: "node=value" of the session scope, level-1 nodes and Memory_Bound
l1() { rows "$1" '$1 == "session" && ($3 == 1 || $2 == "Backend_Bound.Memory_Bound")'; }
"$TDCTL" report -d "$IDB" --from 1 --to 2 -l 1 --format csv >"$WORK/w.csv"
check_eq "--from 1 --to 2: only interval 1 (Backend_Bound 50 %, not the session's 46.67 %)" \
	"Frontend_Bound=10.0000 Bad_Speculation=10.0000 Backend_Bound=50.0000 SMT_Contention=0.0000 Retiring=30.0000" \
	"$(l1 "$WORK/w.csv")"
check_eq "--from 0 --to 1: only interval 0 (Backend_Bound 40 %)" "Backend_Bound=40.0000" \
	"$("$TDCTL" report -d "$IDB" --from 0 --to 1 --format csv >"$WORK/w0.csv"; rows "$WORK/w0.csv" '$2 == "Backend_Bound"')"
check_eq "--from 0.5 (decimals; an interval is in when its midpoint is): both, 46.67 %" "Backend_Bound=46.6667" \
	"$("$TDCTL" report -d "$IDB" --from 0.5 --format csv >"$WORK/w1.csv"; rows "$WORK/w1.csv" '$2 == "Backend_Bound"')"
check_eq "--to 1.2 alone: from the start, interval 0" "Backend_Bound=40.0000" \
	"$("$TDCTL" report -d "$IDB" --to 1.2 --format csv >"$WORK/w2.csv"; rows "$WORK/w2.csv" '$2 == "Backend_Bound"')"
"$TDCTL" report -d "$IDB" --from 1 --to 2 --intervals >"$WORK/w.txt"
check_grep "window: the header gives the duration of the window" "Duration: 1.000 s in 1 interval of 1000 ms" "$WORK/w.txt"
check_grep "window: the header says the window" \
	"Window:   1.000 s to 2.000 s after the first interval's start (--from/--to)" "$WORK/w.txt"
check_grep "window: the tree says it sums the window" "counts of 1 target summed over the window, then evaluated" "$WORK/w.txt"
check_eq "window: the per-interval table has interval 1 only" "1" \
	"$(awk '/^Per interval/ { on = 1; next } on && $1 ~ /^[0-9]+$/ { printf "%s%s", sep, $1; sep = " " }' "$WORK/w.txt")"
"$TDCTL" report -d "$IDB" --from 1 --to 2 --format html -o "$WORK/w.html"
check_grep "window: the HTML header says it too" "Window:   1.000 s to 2.000 s" "$WORK/w.html"
# three CPUs, two intervals: the window applies to the aggregate and to each target
CDB="$WORK/cpus.db"
imp "$REPORT" zen4-cpus-intervals.perf.csv amd64_fam19h_zen4 "$CDB"
check_eq "window, 3 CPUs: interval 1 summed over the CPUs (BE 12e9 / 36e9 slots; Memory 33.33 % x 7.5e8/3e9)" \
	"Frontend_Bound=10.0000 Bad_Speculation=10.0000 Backend_Bound=33.3333 Backend_Bound.Memory_Bound=8.3333 SMT_Contention=0.0000 Retiring=30.0000" \
	"$("$TDCTL" report -d "$CDB" --from 1 --to 2 -l 2 --format csv >"$WORK/wc.csv"; l1 "$WORK/wc.csv")"
check_eq "window, --cpu 1: that CPU's interval 1 (Backend_Bound 50 %, Memory 5 %), not its session (43.33 %, 11.56 %)" \
	"Frontend_Bound=10.0000 Bad_Speculation=10.0000 Backend_Bound=50.0000 Backend_Bound.Memory_Bound=5.0000 SMT_Contention=0.0000 Retiring=30.0000" \
	"$("$TDCTL" report -d "$CDB" --cpu 1 --from 1 --to 2 -l 2 --format csv >"$WORK/wc1.csv"; l1 "$WORK/wc1.csv")"
"$TDCTL" report -d "$CDB" --from 1 --to 2 -l 1 --format html -o "$WORK/wc.html"
check_grep "window, HTML per-CPU table (-l 1): cpu:1 over the window (Backend_Bound 50 %)" \
	'<tr><td>cpu:1</td><td data-v="10">10.0</td><td data-v="10">10.0</td><td data-v="50">50.0</td><td data-v="0">0.0</td><td data-v="30">30.0</td><td' \
	"$WORK/wc.html"
# what cannot be windowed is refused in one line
for bad in "--from x" "--to -1" "--from 1e3" "--from 2 --to 1"; do
	# shellcheck disable=SC2086
	"$TDCTL" report -d "$IDB" $bad >/dev/null 2>"$WORK/werr"
	check_eq "report $bad: exit 2" 2 "$?"
	check_eq "report $bad: one line" 1 "$(wc -l <"$WORK/werr" | tr -d ' ')"
done
check_grep "--from 2 --to 1: says so" "tdctl: report: --from 2 is after --to 1: give FROM <= TO" "$WORK/werr"
"$TDCTL" report -d "$IDB" --from 0.6 --to 1.4 >"$WORK/wout" 2>"$WORK/werr"
check_eq "a window with no interval's midpoint: exit 1, nothing on stdout" "1 0" "$? $(wc -c <"$WORK/wout" | tr -d ' ')"
check_eq "...and one line saying what the intervals cover" \
	"tdctl: report: session 1 has no interval between 0.600 s and 1.400 s: its intervals cover 0 to 2.000 s" "$(cat "$WORK/werr")"
"$TDCTL" report -d "$ZDB" --from 0 --to 5 2>"$WORK/werr"
check_eq "a session without interval times: exit 1" 1 "$?"
check_eq "...one line" "tdctl: report: session 1 recorded no interval times: --from/--to need them" "$(cat "$WORK/werr")"

# ---- long sessions: the HTML charts sum consecutive intervals into at most 300 columns --------------
# 601 one-second Zen 4 intervals whose Backend_Bound cycles through 20, 25, 30, 35, 40 %
awk -v csv="$REPORT/zen4-l2.perf.csv" 'BEGIN {
	while ((getline l < csv) > 0) if (l !~ /^#/) { n++; split(l, f, ";"); v[n] = f[1]; ev[n] = f[3] }
	for (t = 1; t <= 601; t++) for (i = 1; i <= n; i++) {
		x = ev[i] == "cpu/event=0x1a0,umask=0x1e/" ? 1200000000 + (t % 5) * 300000000 : v[i]
		printf "%d.000000000;%d;;%s;1000000000;100.00;;\n", t, x, ev[i] }
}' >"$WORK/long.perf.csv"
LDB="$WORK/long.db"
imp "$WORK" long.perf.csv amd64_fam19h_zen4 "$LDB"
"$TDCTL" report -d "$LDB" --format html -o "$WORK/long.html"
check_eq "long session: 601 intervals, 3 to a column: 201 columns in each chart" "201 201" \
	"$(sed -n 's/.*\(<svg id="cpi-series".*<\/svg>\).*/\1/p' "$WORK/long.html" | grep -o '<g class="col"' | wc -l | tr -d ' ') $(
	   sed -n 's/.*\(<svg id="series".*<\/svg>\).*/\1/p' "$WORK/long.html" | grep -o 'intervals [0-9-]*: Retiring' | wc -l | tr -d ' ')"
check_grep "long session: the charts say so" "<p class=\"note\">601 intervals, 3 to a column (counts summed, then evaluated).</p>" "$WORK/long.html"
check_eq "long session: a column is its intervals' counts summed, then evaluated (= report --from 3 --to 6)" \
	"$("$TDCTL" report -d "$LDB" --from 3 --to 6 -l 1 --format csv | awk -F, '$2 == "Backend_Bound" { printf "%.1f%%", $4 }')" \
	"$(grep -o '<title>intervals 3-5: Backend_Bound [0-9.]*%' "$WORK/long.html" | sed 's/.* //')"
check_eq "long session: the last column holds the one interval left" "1" \
	"$(grep -c '<title>intervals 600-600: Backend_Bound ' "$WORK/long.html")"
check "long session: the HTML stays small (< 500 kB; a column per interval: about 1 MB)" test "$(wc -c <"$WORK/long.html")" -lt 500000

# ---- targets: --cpu of a per-CPU (SMT) import -----------------------------------------------------
SDB="$WORK/smt.db"
(cd "$ORACLE" && "$TDCTL" import -q --pmu skl --smt on -d "$SDB" skl-smt-l2.perf.csv)
"$TDCTL" export 1 -d "$SDB" --format csv -o "$WORK/smt-export.csv"
"$TDCTL" report -d "$SDB" --cpu 1 -l 1 --format csv -o "$WORK/cpu1.csv"
check_eq "--cpu 1: the level-1 values equal the stored metrics of target cpu:1" \
	"$(awk -F, '$1 == "node" && $5 == "cpu:1" && $6 !~ /\./ { printf "%s%s=%.4f", sep, $6, 100 * $8; sep = " " }' "$WORK/smt-export.csv")" \
	"$(rows "$WORK/cpu1.csv" 1)"
"$TDCTL" report -d "$SDB" --cpu 7 >/dev/null 2>"$WORK/cpu7.err"
check_eq "--cpu 7 (not in the session) exits 1" 1 "$?"
check_grep "--cpu 7: says so" "session 1 has no cpu 7" "$WORK/cpu7.err"

# ---- software-only session (fixed numbers, built by SQL) ---------------------------------------------
(cd "$WORK" && "$TDCTL" prune -d sw.db --max-age 1000d >/dev/null && sqlite3 -batch sw.db <"$REPORT/sw-session.sql")
(cd "$WORK" && "$TDCTL" report -d sw.db >sw.txt)
check_eq "software-only: report exits 0" 0 "$?"
golden sw-session.txt "$WORK/sw.txt"
# the per-thread table by hand from sw-session.sql (2 intervals of 1 s): thread 4000
# ran 0.5 + 0.5 s (util 1.0/2 s), 100 + 100 switches (100/s), 2 + 2 migrations (2.0/s),
# 1000 + 1000 faults (1000/s); thread 4001 ran 0.25 + 0.75 s, 40 + 60 switches (50/s),
# 0 + 1 migrations (0.5/s), 10 + 10 faults (10/s); all: the sums; /proc switches n/c
check_eq "software-only: the golden's table rows agree with the hand arithmetic" \
	"all 2.000 1.00 150.0 2.5 1010.0|4000 1.000 0.50 100.0 2.0 1000.0|4001 1.000 0.50 50.0 0.5 10.0" \
	"$(awk '$1 ~ /^(all|4000|4001)$/ && NF >= 10 { c = ($1 == "all") ? 2 : 3
		printf "%s%s %s %s %s %s %s", sep, $1, $c, $(c + 1), $(c + 2), $(c + 5), $(c + 6); sep = "|" }' "$GOLDEN/sw-session.txt")"
# the summary answers the report's filters, by hand from sw-session.sql:
# --thread 4001: the worker alone: 0.25 + 0.75 s over the 2 s (0.50), 40 + 60 switches (50/s)
summary_rows() { awk '$1 ~ /^(all|[0-9]+)$/ && NF >= 10 { c = ($1 == "all") ? 2 : 3
	printf "%s%s %s %s %s", sep, $1, $c, $(c + 1), $(c + 2); sep = "|" }' "$1"; }
"$TDCTL" report -d "$WORK/sw.db" --thread 4001 >"$WORK/sw-t.txt"
check_eq "software-only --thread 4001: the worker's row only, and the process's is its" \
	"all 1.000 0.50 50.0|4001 1.000 0.50 50.0" "$(summary_rows "$WORK/sw-t.txt")"
check_grep "software-only --thread 4001: the header says 1 of 2 threads" "2.00 s selected, 1 of 2 threads" "$WORK/sw-t.txt"
check_grep "software-only --thread 4001: the process keeps its name" "process 4000 (fixture-app), 1 thread:" "$WORK/sw-t.txt"
# --from 1 --to 2: the second interval (midpoint 1.5 s): 0.5 s and 0.75 s over 1 s, 100 and 60 switches
"$TDCTL" report -d "$WORK/sw.db" --from 1 --to 2 >"$WORK/sw-w.txt"
check_eq "software-only --from 1 --to 2: the second interval only" \
	"all 1.250 1.25 160.0|4000 0.500 0.50 100.0|4001 0.750 0.75 60.0" "$(summary_rows "$WORK/sw-w.txt")"
# a session still running (no end yet): rates over the time up to its last interval, never n/c
cp "$WORK/sw.db" "$WORK/sw-running.db"
sql "$WORK/sw-running.db" "update sessions set status = 'running', ended_ns = NULL"
"$TDCTL" report -d "$WORK/sw-running.db" >"$WORK/sw-r.txt"
check_eq "software-only, still running: the same rates up to the last interval" \
	"all 2.000 1.00 150.0|4000 1.000 0.50 100.0|4001 1.000 0.50 50.0" "$(summary_rows "$WORK/sw-r.txt")"
"$TDCTL" report -d "$WORK/sw.db" --format html -o "$WORK/sw.html"
check_eq "software-only HTML: the refused hardware events are 'not supported' in the counts, never 0" \
	"CYCLES:not supported INSTRUCTIONS:not supported TASK_CLOCK:2000000000" \
	"$(grep -oE '<tr><td>(CYCLES|INSTRUCTIONS|TASK_CLOCK)</td><td>[^<]*</td><td data-v="[0-9]*">[^<]*' "$WORK/sw.html" |
		sed -E 's|<tr><td>([A-Z_]+)</td><td>[^<]*</td><td data-v="[0-9]*">|\1:|' | sort | tr '\n' ' ' | sed 's/ $//')"
"$TDCTL" report -d "$WORK/sw.db" --node Frontend_Bound >/dev/null 2>"$WORK/err"
check_eq "software-only: --node is an error: there is no tree" "1|1" \
	"$?|$(grep -c "^tdctl: report: session 1 has no top-down tree to show --node 'Frontend_Bound' of" "$WORK/err")"
check_grep "software-only: says top-down is unavailable and why" \
	"Top-down: unavailable: the session ran on the software-only rung: hardware counters are unavailable because this VM (KVM) exposes no PMU to the guest." "$WORK/sw.txt"
check_eq "software-only: no % Slots anywhere, CSV has its header only" "0 1" \
	"$(grep -c '% Slots' "$WORK/sw.txt") $("$TDCTL" report -d "$WORK/sw.db" --format csv | wc -l | tr -d ' ')"
"$TDCTL" report -d "$WORK/sw.db" --format json >"$WORK/sw.json"
check_match "software-only: JSON has no nodes and says why" '^0\|the session ran on the software-only rung' \
	"$(sql :memory: "select json_array_length(readfile('$WORK/sw.json'), '\$.nodes') || '|' ||
		json_extract(readfile('$WORK/sw.json'), '\$.unavailable')")"

# ---- a tree over software events on the software-only rung (live, --pmu td_soft_tree) ---------
EV="$WORK/events"
mkdir -p "$EV"
cp "$TD_SRCDIR/events/software.td" "$TD_SRCDIR/tests/data/live/soft-tree.td" "$EV/"
TDB="$WORK/tree.db"
# per-thread groups: a thread's events are enabled only while it runs, so the main thread, asleep
# while its workers run, stores intervals with enabled 0 (BPF counting stores no row for them)
"$TDCTL" run -q -I 200 -l 2 --counting=per-thread --events-dir "$EV" --pmu td_soft_tree -d "$TDB" -- \
	"$DEMO" -t 2 -l 0 -e 0 -s 1 >/dev/null 2>&1
check_eq "soft tree: run exits 0" 0 "$?"
check_eq "soft tree: some thread did not run in some interval (enabled 0), as with every short-lived thread" 1 \
	"$(sql "$TDB" "select count(*) > 0 from counts where enabled = 0")"
"$TDCTL" report -d "$TDB" --events-dir "$EV" --color never >"$WORK/tree.txt"
check_eq "soft tree: report exits 0" 0 "$?"
check_eq "soft tree: the header keeps the session's rung" \
	"Rung:     $(sql "$TDB" "select rung || ': ' || rung_reason from sessions")" "$(grep '^Rung:' "$WORK/tree.txt")"
check_eq "soft tree: no 'Top-down: unavailable' although the rung is $(sql "$TDB" "select rung from sessions")" \
	"0 1" "$(grep -c '^Top-down: unavailable' "$WORK/tree.txt") $(grep -c '^Top-down (soft-tree.td;' "$WORK/tree.txt")"
check_eq "soft tree: the tree's four nodes with values, indented by level" "Running Faulting Major Switching" \
	"$(grep -E '^  (  )?[A-Z][a-z]+ +[0-9]+\.[0-9] % Slots' "$WORK/tree.txt" | awk '{ printf "%s%s", sep, $1; sep = " " }')"
# the session's values by hand from the raw counts: every thread interval that ran (enabled > 0)
# summed; both groups counted all the time (no rotation), so group 1 serves Running on the tie
g() { sql "$TDB" "select sum(c.value) from counts c join events e on e.id = c.event_id
	where e.name = '$1' and e.group_idx = $2 and c.enabled > 0"; }
TC1=$(g TC 1) CS1=$(g CS 1) MINF=$(g MINF 1) TC2=$(g TC 2) CS2=$(g CS 2) MAJF=$(g MAJF 2)
check_eq "soft tree: Running, Faulting, Major, Switching equal the sums of the raw counts" \
	"$(awk -v tc="$TC1" -v cs="$CS1" -v minf="$MINF" -v tc2="$TC2" -v cs2="$CS2" -v majf="$MAJF" 'BEGIN {
		r = tc / (tc + 1e6 * cs + 1); r2 = tc2 / (tc2 + 1e6 * cs2 + 1)
		printf "Running=%.4f Running.Faulting=%.4f Running.Major=%.4f Switching=%.4f",
		100 * r, 100 * r * minf / (minf + 1), 100 * r2 * majf / (majf + 1), 100 * 1e6 * cs / (tc + 1e6 * cs + 1) }')" \
	"$("$TDCTL" report -d "$TDB" --events-dir "$EV" --format csv >"$WORK/tree.csv"; rows "$WORK/tree.csv" 1)"

# spans: without group 1's TC and CS, Running.Faulting reads Running from group 2 and MINF from group 1
cp "$TDB" "$WORK/spans.db"
# (group 1's rows hold its values packed: keep the others, one value per row, through the counts view)
sql "$WORK/spans.db" "pragma foreign_keys = on;
	create temp table keep as select * from counts where event_id in
		(select id from events where group_idx = 1 and name not in ('TC', 'CS'));
	delete from samples where event_id in (select id from events where group_idx = 1);
	insert into counts select * from keep;
	delete from events where name in ('TC', 'CS') and group_idx = 1"
"$TDCTL" report -d "$WORK/spans.db" --events-dir "$EV" --color never >"$WORK/spans.txt"
check_eq "spans: the text marks the one node whose value read two groups" "Faulting" \
	"$(grep -F '[spans groups]' "$WORK/spans.txt" | awk '{ print $1 }' | tr '\n' ' ' | sed 's/ $//')"
check_eq "spans: the CSV's last column is 1 on that node only" \
	"Running=0 Running.Faulting=1 Running.Major=0 Switching=0" \
	"$("$TDCTL" report -d "$WORK/spans.db" --events-dir "$EV" --format csv | awk -F, 'NR == 1 && $9 != "spans" { print "no spans column" } NR > 1 && $10 == "node" { printf "%s%s=%s", sep, $2, $9; sep = " " }')"
check_eq "spans: JSON has \"spans\":true on that node only" "Running.Faulting" \
	"$("$TDCTL" report -d "$WORK/spans.db" --events-dir "$EV" --format json | grep -o '"node":"[^"]*"[^}]*"spans":true}' | sed 's/"node":"\([^"]*\)".*/\1/')"

# ---- HTML in headless Chromium ---------------------------------------------------------------------
"$TDCTL" report 1 -d "$DB" --format html -o "$WORK/skl.html"
check_eq "html: written" 0 "$?"
check_eq "html: self-contained (no src= or href= to anything, no http)" "0" \
	"$(grep -Eci 'src=|href=|https?:' "$WORK/skl.html")"
check_grep "html: viewport meta for phones" '<meta name="viewport" content="width=device-width, initial-scale=1">' "$WORK/skl.html"
chromium_run() {
	ud=$(mktemp -d "$WORK/chromium.XXXXXX")
	timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
		--disable-component-update --disable-sync --no-first-run --user-data-dir="$ud" "$@" 2>>"$WORK/chromium.err"
}
if command -v chromium >/dev/null; then
	ok "chromium is installed"
	chromium_run --dump-dom "file://$WORK/skl.html" >"$WORK/dom.html"
	check_eq "html DOM: one <details> per tree node (100)" 100 "$(grep -o '<details[^>]*data-node="[^"]*"' "$WORK/dom.html" | wc -l | tr -d ' ')"
	check_eq "html DOM: every node of the CSV is in the tree" 0 \
		"$(awk -F, 'NR > 1 && $10 == "node" { print $2 }' "$WORK/skl-l3.csv" | while read -r n; do grep -qF "data-node=\"$n\"" "$WORK/dom.html" || echo "$n"; done | wc -l | tr -d ' ')"
	check_eq "html DOM: exactly the bottleneck path is open" "Backend_Bound Backend_Bound.Core_Bound" \
		"$(grep -o '<details[^>]*data-node="[^"]*" open' "$WORK/dom.html" | sed 's/.*data-node="\([^"]*\)".*/\1/' | tr '\n' ' ' | sed 's/ $//')"
	check_grep "html DOM: the bottleneck is marked <==" 'Core_Bound</span><span class="val">15.0 % Slots</span><span class="bar"><i style="width:15.0%"></i></span><span class="mark">&lt;==</span>' "$WORK/dom.html"
	check_grep "html DOM: formula and description as hover title" 'title="Backend_Bound.Memory_Bound = ' "$WORK/dom.html"
	check_eq "html DOM: series, CPI stack, per-target and counts tables" "1 1 1 1" \
		"$(for id in series cpi targets counts; do grep -c "id=\"$id\"" "$WORK/dom.html" | tr '\n' ' '; done | sed 's/ $//')"
	# the CPI stack over the two intervals of the Zen 4 import
	"$TDCTL" report -d "$IDB" --format html -o "$WORK/iv.html"
	chromium_run --dump-dom "file://$WORK/iv.html" >"$WORK/iv-dom.html"
	sed -n 's/.*\(<svg id="cpi-series".*<\/svg>\).*/\1/p' "$WORK/iv-dom.html" >"$WORK/cpi-series.svg"
	check_eq "html DOM: the CPI series has one column per interval (seq 0 and 1)" "0 1" \
		"$(grep -o '<g class="col" data-seq="[0-9]*"' "$WORK/cpi-series.svg" | sed 's/.*="\([0-9]*\)"/\1/' | tr '\n' ' ' | sed 's/ $//')"
	check_eq "html DOM: its legend names every component of the CPI stack and Other" \
		"$(awk '/^CPI stack/ { on = 1; getline; next } on && NF == 0 { on = 0 } on && $1 != "CPI" { printf "%s%s", sep, $1; sep = " " }' "$WORK/iv.txt")" \
		"$(grep -o '<div class="legend" id="cpi-series-legend">.*</div>' "$WORK/iv-dom.html" | grep -o '</i>[A-Za-z_]*' | sed 's/<\/i>//' | tr '\n' ' ' | sed 's/ $//')"
	check_eq "html DOM: Memory per interval: 24 % then 30 % of CPI 0.667" \
		"interval 0: Memory CPI 0.160 of 0.667|interval 1: Memory CPI 0.200 of 0.667" \
		"$(grep -o '<rect[^>]*data-c="Memory"><title>[^<]*' "$WORK/cpi-series.svg" | sed 's/.*<title>//' | tr '\n' '|' | sed 's/|$//')"
	check_eq "html DOM: each column stacks to the full height (the CPI is the same), 200 px" "200.00 200.00" \
		"$(for k in 0 1; do sed 's/<g class="col"/\n&/g' "$WORK/cpi-series.svg" | grep "data-seq=\"$k\"" | grep -o 'height="[0-9.]*"' | tr -d 'height="' | awk '{ s += $1 } END { printf "%.2f\n", s }'; done | tr '\n' ' ' | sed 's/ $//')"
	# the per-CPU table of the three-CPU import: a column per node shown, sortable by any
	"$TDCTL" report -d "$CDB" --format html -o "$WORK/cpus.html"
	"$TDCTL" report -d "$CDB" --format csv -o "$WORK/cpus.csv"
	chromium_run --dump-dom "file://$WORK/cpus.html" >"$WORK/cpus-dom.html"
	th_nodes() { grep -o '<table class="sortable" id="targets">.*</thead>' "$1" | grep -o '<th data-node="[^"]*"' | sed 's/.*="\(.*\)"/\1/' | tr '\n' ' ' | sed 's/ $//'; }
	check_eq "html DOM: the per-target table has a column for every node, in tree order (13)" \
		"$(awk -F, 'NR > 1 && $10 == "node" { printf "%s%s", sep, $2; sep = " " }' "$WORK/cpus.csv")" "$(th_nodes "$WORK/cpus-dom.html")"
	check_eq "html DOM: its rows are the three CPUs" "cpu:0 cpu:1 cpu:2" \
		"$(grep -o '<tr><td>cpu:[0-9]*</td>' "$WORK/cpus-dom.html" | sed 's/<tr><td>\(.*\)<\/td>/\1/' | tr '\n' ' ' | sed 's/ $//')"
	"$TDCTL" report -d "$CDB" --node Backend_Bound --format html -o "$WORK/cpus-be.html"
	check_eq "html: --node Backend_Bound: columns for that subtree only" \
		"Backend_Bound Backend_Bound.Memory_Bound Backend_Bound.Core_Bound" "$(th_nodes "$WORK/cpus-be.html")"
	# click headers as a user would (report.js's handlers) and record each order
	sed 's|</body></html>|<script>\
function order() { return Array.prototype.map.call(document.querySelectorAll("#targets tbody tr"), function (r) { return r.cells[0].textContent; }).join(" "); }\
function click(node) { document.querySelector("#targets th[data-node=\\"" + node + "\\"]").click(); return order(); }\
var out = ["Memory_Bound: " + click("Backend_Bound.Memory_Bound"), "again: " + click("Backend_Bound.Memory_Bound"),\
  "Frontend_Bound: " + click("Frontend_Bound"), "Core_Bound: " + click("Backend_Bound.Core_Bound")];\
var p = document.createElement("pre"); p.id = "sorted"; p.textContent = out.join("\\n"); document.body.appendChild(p);\
</script></body></html>|' "$WORK/cpus.html" >"$WORK/cpus-sort.html"
	chromium_run --dump-dom "file://$WORK/cpus-sort.html" >"$WORK/cpus-sort-dom.html"
	check_eq "html: clicking a level-2 header sorts by it (Memory_Bound 8.67 < 11.11 < 11.56), again reverses, other nodes their own order" \
		"Memory_Bound: cpu:2 cpu:0 cpu:1|again: cpu:1 cpu:0 cpu:2|Frontend_Bound: cpu:0 cpu:1 cpu:2|Core_Bound: cpu:2 cpu:0 cpu:1" \
		"$(sed -n '/<pre id="sorted">/,/<\/pre>/p' "$WORK/cpus-sort-dom.html" | sed 's/<[^>]*>//g' | grep . | tr '\n' '|' | sed 's/|$//')"
	chromium_run --window-size=412,1600 --screenshot="$WORK/skl.png" "file://$WORK/skl.html" >/dev/null
	check_eq "html screenshot: a PNG at phone width" "PNG" "$(head -c 4 "$WORK/skl.png" 2>/dev/null | tail -c 3)"
	check "html screenshot: non-trivial (> 20 kB)" test "$(wc -c <"$WORK/skl.png" 2>/dev/null || echo 0)" -gt 20000
else
	not_ok "chromium is installed (tests/install-deps.sh installs it; the HTML checks need it)"
fi

# ---- diff -------------------------------------------------------------------------------------------
L2DB="$WORK/l2.db"
imp "$ORACLE" skl-l2.perf.csv skl "$L2DB"
imp "$REPORT" skl-l2-mux.perf.csv skl "$L2DB"
"$TDCTL" diff 1 2 -d "$L2DB" >"$WORK/diff.txt"
check_eq "diff: exits 0" 0 "$?"
check_eq "diff: the nodes that changed most come first, with their deltas" \
	"Backend_Bound.Memory_Bound +4.0|Backend_Bound.Core_Bound -4.0|Frontend_Bound +0.0" \
	"$(awk 'NR > 4 && NR <= 7 { printf "%s%s %s", sep, $1, $4; sep = "|" }' "$WORK/diff.txt")"
check_grep "diff: A and B values side by side" "Backend_Bound.Memory_Bound                                            15.0      19.0      +4.0" "$WORK/diff.txt"
"$TDCTL" diff 1 2 -d "$L2DB" --format html -o "$WORK/diff.html"
check_grep "diff html: a sortable table, biggest change first" '<tbody>
<tr><td>Backend_Bound.Memory_Bound</td>' "$WORK/diff.html"
# clearly different changes: Backend_Bound +6, Frontend_Bound -3, Retiring +1 points (children by other amounts)
DDB="$WORK/diff.db"
imp "$REPORT" zen4-l2.perf.csv amd64_fam19h_zen4 "$DDB"
imp "$REPORT" zen4-l2-changed.perf.csv amd64_fam19h_zen4 "$DDB"
diff_rows() { awk 'NR > 4 { printf "%s%s %s", sep, $1, $4; sep = "|" }' "$1"; }
"$TDCTL" diff 1 2 -d "$DDB" >"$WORK/diff2.txt"
check_eq "diff: every node in order of its absolute change (6, 3.6, 3, 2.5, 2.4, 1, 0.57, 0.5, 0.43 points, then unchanged in tree order)" \
	"Backend_Bound +6.0|Backend_Bound.Memory_Bound +3.6|Frontend_Bound -3.0|Frontend_Bound.Fetch_Latency -2.5|Backend_Bound.Core_Bound +2.4|Retiring +1.0|Retiring.Microcode +0.6|Frontend_Bound.Fetch_Bandwidth -0.5|Retiring.Fastpath +0.4|Bad_Speculation +0.0|Bad_Speculation.Branch_Mispredicts +0.0|Bad_Speculation.Pipeline_Restarts +0.0|SMT_Contention +0.0" \
	"$(diff_rows "$WORK/diff2.txt")"
check_eq "diff B A: the same order, the signs reversed" \
	"Backend_Bound -6.0|Backend_Bound.Memory_Bound -3.6|Frontend_Bound +3.0|Frontend_Bound.Fetch_Latency +2.5|Backend_Bound.Core_Bound -2.4|Retiring -1.0|Retiring.Microcode -0.6|Frontend_Bound.Fetch_Bandwidth +0.5|Retiring.Fastpath -0.4|Bad_Speculation +0.0|Bad_Speculation.Branch_Mispredicts +0.0|Bad_Speculation.Pipeline_Restarts +0.0|SMT_Contention +0.0" \
	"$("$TDCTL" diff 2 1 -d "$DDB" >"$WORK/diff3.txt"; diff_rows "$WORK/diff3.txt")"
check_grep "diff: A, B and the change side by side" \
	"Backend_Bound                                                         40.0      46.0      +6.0" "$WORK/diff2.txt"
"$TDCTL" diff 1 2 -d "$DDB" --format html -o "$WORK/diff2.html"
check_eq "diff html: the rows in the same order" \
	"$(awk 'NR > 4 { printf "%s%s", sep, $1; sep = " " }' "$WORK/diff2.txt")" \
	"$(grep -o '^<tr><td>[^<]*' "$WORK/diff2.html" | sed 's/<tr><td>//' | tr '\n' ' ' | sed 's/ $//')"
"$TDCTL" diff 1 1 -d "$WORK/sw.db" 2>"$WORK/diff.err"
check_eq "diff of a software-only session exits 1" 1 "$?"
check_grep "diff: says why" "session 1 has no top-down tree to compare" "$WORK/diff.err"
# ---- CSV: timestamps, info metrics and the CPI stack of an imported -I file --------
# the SKL L3 oracle counts as three 1 s intervals (seq 0, 1, 2), instructions
# times 1, 2, 3: IPC = 1.5 (seq + 1) (instructions over cycles, by hand), CPI = 1 / IPC
awk -F';' '{ line[NR] = $0; v[NR] = $1; rest[NR] = substr($0, index($0, ";") + 1) }
	END { for (t = 1; t <= 3; t++) for (i = 1; i <= NR; i++)
		printf "%d.000000000;%.0f;%s\n", t, (rest[i] ~ /event=0xc0,/) ? v[i] * t : v[i], rest[i] }' \
	"$TD_SRCDIR/tests/data/oracle/toplev/inputs/skl-l3.perf.csv" >"$WORK/skl-I.csv"
"$TDCTL" import -q --pmu skl -d "$WORK/skl-I.db" "$WORK/skl-I.csv" >/dev/null 2>&1
check_eq "csv: the -I import exits 0" 0 "$?"
"$TDCTL" report -d "$WORK/skl-I.db" --format csv --intervals >"$WORK/skl-I.out"
check_eq "csv: the header names the appended columns" \
	"scope,node,level,value,unit,threshold,bottleneck,confidence,spans,kind,start_ns,end_ns,seconds,target" \
	"$(head -1 "$WORK/skl-I.out")"
check_eq "csv: IPC per interval is instructions / cycles, with each interval's times" \
	"0 1.5 1.000000 1000000000|1 3 1.000000 1000000000|2 4.5 1.000000 1000000000" \
	"$(awk -F, '$2 == "IPC" && $10 == "info" && $1 != "session" { printf "%s%s %s %s %d", sep, $1, $4, $13, $12 - $11; sep = "|" }' "$WORK/skl-I.out")"
check_eq "csv: the CPI stack's CPI is 1 / IPC in every interval, and its components sum to it" \
	"0 ok ok|1 ok ok|2 ok ok" \
	"$(awk -F, '$10 == "cpi" && $1 != "session" { if ($2 == "CPI") cpi[$1] = $4; else sum[$1] += $4 }
		END { for (t = 0; t < 3; t++) { d = cpi[t] - 1 / (1.5 * (t + 1)); e = sum[t] - cpi[t]
			printf "%s%d %s %s", (t > 0 ? "|" : ""), t, (d * d < 1e-10 ? "ok" : "bad " cpi[t]),
				(e * e < 1e-10 ? "ok" : "bad " sum[t]) } }' "$WORK/skl-I.out")"
check_eq "csv: the session scope spans the three intervals (3 s) and names its target" "3.000000 all" \
	"$(awk -F, '$1 == "session" && $2 == "Frontend_Bound" { print $13, $14 }' "$WORK/skl-I.out")"
"$TDCTL" report -d "$WORK/skl-I.db" --format csv --node Frontend_Bound >"$WORK/skl-I-node.out"
check_eq "csv: --node shows that subtree's nodes only (no info or cpi rows)" "node" \
	"$(awk -F, 'NR > 1 { print $10 }' "$WORK/skl-I-node.out" | sort -u)"
"$TDCTL" import -q --pmu skl -d "$WORK/skl-1.db" "$TD_SRCDIR/tests/data/oracle/toplev/inputs/skl-l3.perf.csv" >/dev/null 2>&1
check_eq "csv: an import without times leaves start, end and seconds empty (not 0)" "||" \
	"$("$TDCTL" report -d "$WORK/skl-1.db" --format csv | awk -F, '$2 == "IPC" { print $11 "|" $12 "|" $13 }')"
finish
