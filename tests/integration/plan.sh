#!/bin/sh
# plan.sh — `tdctl plan`: groups with encodings, multiplexing and per-level
# group counts for shipped files (text and JSON), and its one-line errors:
# host model unknown, unknown model, bad level, unknown node with near
# matches, counters < 1, a file without a counters line.
. "$(dirname "$0")/lib.sh"
out="$WORK/out"
err="$WORK/err"

# without --pmu the host's model is used (libpfm4's, or the one CPUID names: a Zen 5)
"$TDCTL" doctor --json >"$WORK/doctor"
if grep -qF '"pmu_model":{"name":null' "$WORK/doctor"; then
	"$TDCTL" plan >"$out" 2>"$err"; rc=$?
	check "no host model: non-zero exit" test "$rc" -ne 0
	check "no host model: exactly one line" test "$(wc -l <"$err")" -eq 1
	check_grep "no host model: hint names --pmu" "--pmu MODEL" "$err"
else
	"$TDCTL" plan >"$out" 2>"$err"; rc=$?
	check "host model known: plan or one clear error" test "$rc" -eq 0 -o "$(wc -l <"$err")" -eq 1
	check "host model known: output or error" test -s "$out" -o -s "$err"
	check "host model known: no crash" test "$rc" -lt 128
fi

# Skylake level 2 with SMT on (4 general-purpose counters): 4 groups
"$TDCTL" plan --pmu skl --smt on -l 2 >"$out" 2>"$err"; rc=$?
check "skl L2: exit 0" test "$rc" -eq 0
check_grep "skl L2: header" "intel-skl.td (PMU model skl): level 2, SMT on, NMI watchdog not counted" "$out"
check_grep "skl L2: budget halved with SMT" "counters per group: 4 general-purpose (file, halved with SMT on), 3 fixed" "$out"
check_grep "skl L2: multiplexing and share" "4 groups: the kernel multiplexes, each group counts about 25% of the time" "$out"
check_grep "skl L2: leader of group 1 encoded, on fixed 1" \
	"CLKS_ANY           fixed 1 or gp        CPU_CLK_THREAD_UNHALTED:THREAD_P:t=1         type=4 config=0x20003c" "$out"
# an OCR event's offcore-response MSR value is shown as config1 (perfmon ICL V1.24
# OCR.STREAMING_WR.ANY_RESPONSE: 0xB7/0x01, MSR 0x1A6 = 0x10800)
"$TDCTL" plan --pmu icl --nodes Streaming_Stores >"$WORK/ocr" 2>"$err"; rc=$?
check "icl Streaming_Stores: exit 0" test "$rc" -eq 0
check_grep "icl Streaming_Stores: the OCR event with its config1" \
	"cpu/event=0xb7,umask=0x1,offcore_rsp=0x10800/ type=4 config=0x1b7 config1=0x10800" "$WORK/ocr"
"$TDCTL" plan --pmu icl --nodes Streaming_Stores --json >"$WORK/ocr.json" 2>"$err"
check_grep "icl Streaming_Stores: JSON has config1" '"config":"0x1b7","config1":"0x10800"' "$WORK/ocr.json"
check_grep "skl L2: group serves nodes" "  serves: Frontend_Bound, Bad_Speculation, Backend_Bound, Retiring" "$out"
check_grep "skl L2: spanning node says why" "node Backend_Bound.Memory_Bound needs 9 general-purpose counters, budget 4: spread over groups" "$out"
check_grep "skl L2: per-level counts" "by level: level 1 fits in 1 group; level 2 needs 4 groups (25% each); level 3 needs 10 groups" "$out"

# SMT off on Skylake: 8 counters, level 2 in 2 groups; the watchdog takes fixed counter 1
"$TDCTL" plan --pmu skl --smt off -l 2 >"$out" 2>"$err"
check_grep "skl L2 SMT off: 2 groups" "2 groups: the kernel multiplexes, each group counts about 50% of the time" "$out"
"$TDCTL" plan --pmu skl --smt off -l 1 --watchdog on >"$out" 2>"$err"
check_grep "skl L1 watchdog: fixed counter 1 held" "3 fixed (fixed counter 1 held by the NMI watchdog)" "$out"
check_grep "skl L1 watchdog: still 1 group" "1 group: no multiplexing" "$out"

# Ice Lake level 1: SLOTS leads the PERF_METRICS events
"$TDCTL" plan --pmu icl -l 1 >"$out" 2>"$err"
check_grep "icl L1: one group" "1 group: no multiplexing" "$out"
check "icl L1: SLOTS is the first event of the group" \
	sh -c "grep -A1 '^group 1:' '$out' | tail -1 | grep -q 'SLOTS_EV           fixed 3 only, leader TOPDOWN:SLOTS'"
check_grep "icl L1: metric events take no counter" "TD_RET             topdown metric" "$out"

# JSON
"$TDCTL" plan --pmu amd64_fam19h_zen4 -l 2 --json >"$out" 2>"$err"; rc=$?
check "json: exit 0" test "$rc" -eq 0
check_grep "json: budget" '"budget":{"gp":6,"fixed":[],"why":"6 general-purpose (file), 0 fixed"}' "$out"
check_grep "json: multiplex and share" '"multiplex":true,"share":0.333333333333' "$out"
check_grep "json: levels" '"levels":[{"level":1,"groups":1},{"level":2,"groups":3}]' "$out"
# read back with sqlite3's JSON functions (the sqlite3 CLI is a test dependency)
NODES="with d(j) as (select readfile('$out')),
       nodes(n) as (select value from json_each((select j from d), '\$.items') where json_extract(value, '\$.kind') = 'node')"
check_eq "json: valid, 3 groups" "1|3" \
	"$(sql :memory: "select json_valid(readfile('$out'))||'|'||json_array_length(readfile('$out'), '\$.groups')")"
check_eq "json: 13 nodes, every one ok in a group" "13|13" \
	"$(sql :memory: "$NODES select count(*)||'|'||sum(json_extract(n, '\$.status') = 'ok' and json_extract(n, '\$.group') > 0) from nodes")"
pairs=$(sql :memory: "$NODES select count(*)||' '||sum(not exists (select 1 from json_each((select j from d),
	'\$.groups[' || (json_extract(n, '\$.group') - 1) || '].events') g where json_extract(g.value, '\$.alias') = e.value))
	from nodes, json_each(json_extract(n, '\$.events')) e")
check "json: the nodes read events ($pairs)" test "${pairs% *}" -ge 13
check_eq "json: every event a node reads is in the node's group" 0 "${pairs#* }"

# --nodes plans the named nodes and their ancestors
"$TDCTL" plan --pmu spr --nodes DRAM_Bound --json >"$out" 2>"$err"
check_grep "nodes: ancestors planned" '"name":"Backend_Bound.Memory_Bound","status":"ok"' "$out"
check_grep "nodes: the named node" '"name":"Backend_Bound.Memory_Bound.DRAM_Bound","status":"ok"' "$out"

# errors: one line, non-zero exit
plan_error() { # DESCRIPTION EXPECTED-TEXT ARGS...
	what=$1 text=$2
	shift 2
	"$TDCTL" plan "$@" >"$out" 2>"$err"; rc=$?
	check "$what: non-zero exit" test "$rc" -ne 0
	check "$what: one line" test "$(wc -l <"$err")" -eq 1
	check_grep "$what: message" "$text" "$err"
}
plan_error "unknown model" "plan: no file in" --pmu zen9
plan_error "bad level" "plan: level 7: intel-skl.td has levels 1 to 6" --pmu skl -l 7
plan_error "unknown node" "plan: unknown node 'Memory_Bond' in intel-skl.td; near matches: Backend_Bound.Memory_Bound" \
	--pmu skl --nodes Memory_Bond
plan_error "counters < 1" "plan: --counters needs a number from 1 to 32, got '0'" --pmu skl --counters 0
plan_error "no counters line" "has no 'counters' line: the planner needs the counter budget (give --counters N)" --pmu perf

# --counters overrides the file
"$TDCTL" plan --pmu skl --smt off --counters 2 -l 1 >"$out" 2>"$err"
check_grep "counters override: budget" "counters per group: 2 general-purpose (--counters), 3 fixed" "$out"

# every info metric and CPI component of the file is planned or said left out, never both, never neither
"$TDCTL" plan --pmu skl --smt off -l 1 --json >"$WORK/l1.json" 2>"$err"
all=$(grep -cE '^(info|cpi) ' "$TD_SRCDIR/events/intel-skl.td")
planned=$(sql :memory: "select count(*) from json_each(readfile('$WORK/l1.json'), '$.items') where json_extract(value, '$.kind') in ('info', 'cpi')")
left=$(sql :memory: "select count(*) from json_each(readfile('$WORK/l1.json'), '$.left_out')")
check_eq "level 1: the $all info metrics and CPI components are planned ($planned) or left out ($left)" "$all" "$((planned + left))"
check_eq "... none both" 0 "$(sql :memory: "select count(*) from json_each(readfile('$WORK/l1.json'), '$.items') i
	join json_each(readfile('$WORK/l1.json'), '$.left_out') l on json_extract(i.value, '$.name') = l.value
	where json_extract(i.value, '$.kind') in ('info', 'cpi')")"
# IPC reads INST_RETIRED.ANY, which no level-1 node of Skylake reads
"$TDCTL" plan --pmu skl --smt off -l 1 >"$out" 2>"$err"
check_grep "level 1 text: what is left out is said, IPC among it" "  info IPC, info CPI," "$out"

finish
