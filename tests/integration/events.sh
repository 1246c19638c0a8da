#!/bin/sh
# events.sh — `tdctl events`: the tree, encodings, info and CPI lines of a
# model's file (text and JSON), and its errors: host model unknown, unknown
# --pmu model, malformed files (the test-only tree in tests/data/events), then
# the shipped events/ trees of skl, icl, spr, zen4, zen5, gnr, arm_n2, arm_v2 and bench_metrics running.
. "$(dirname "$0")/lib.sh"
DATA="$TD_SRCDIR/tests/data"
out="$WORK/out"
err="$WORK/err"

# without --pmu the host's PMU model is used (libpfm4's, or the one CPUID names); when
# there is none the command says so in one line and points at --pmu
"$TDCTL" doctor --json >"$WORK/doctor"
if grep -qF '"pmu_model":{"name":null' "$WORK/doctor"; then
	"$TDCTL" events --events-dir "$DATA/events" >"$out" 2>"$err"; rc=$?
	check "no host model: non-zero exit" test "$rc" -ne 0
	check "no host model: exactly one line" test "$(wc -l <"$err")" -eq 1
	check_grep "no host model: hint names --pmu" "--pmu MODEL" "$err"
else
	"$TDCTL" events >"$out" 2>"$err"; rc=$?
	check "host model known: a file or a clear error" test "$rc" -eq 0 -o -s "$err"
	check "host model known: output or error" test -s "$out" -o -s "$err"
	check "host model known: no crash" test "$rc" -lt 128
fi

# text output for the test tree
"$TDCTL" events --events-dir "$DATA/events" --pmu skx >"$out" 2>"$err"; rc=$?
check "text: exit 0" test "$rc" -eq 0
check_grep "text: names the file and model" "test-engine.td: Engine test tree (test-only) (PMU model skx)" "$out"
check_grep "text: level-1 node with domain, formula and threshold" \
	"  Frontend_Bound                           Slots      = FE_NOT / SLOTS  | > 0.15" "$out"
check_grep "text: level-2 node indented under its parent" "    Memory_Bound                           Stalls" "$out"
check_grep "text: expression threshold shown as written" "| this > 0.7 or IPC > 3" "$out"
check_grep "text: libpfm4 event encoded for the model" "CPU_CLK_THREAD_UNHALTED:THREAD_P:t=1         type=4 config=0x20003c" "$out"
check_grep "text: raw-form event encoded" "cpu/event=0x9c,umask=0x1,cmask=4/            type=4 config=0x400019c" "$out"
check_grep "text: info metric with unit" "  IPC                      Metric   = INST / CLKS" "$out"
check_grep "text: CPI component with tag" "  Branch_Penalty           estimated = 15 * BR_MISP / CLKS" "$out"

# JSON output
"$TDCTL" events --events-dir "$DATA/events" --pmu skl --json >"$out" 2>"$err"; rc=$?
check "json: exit 0" test "$rc" -eq 0
check_grep "json: node with parent and level" '"path":"Backend_Bound.Memory_Bound","name":"Memory_Bound","level":2,"parent":"Backend_Bound","domain":"Stalls"' "$out"
check_grep "json: node lists the events it needs" '"events":["CLKS","CLKS_ANY","FE_NOT","UOPS_ISSUED","RET_SLOTS","RECOVERY","STALLS_MEM","STALLS_TOT"]' "$out"
check_grep "json: encoding as hex string" '"alias":"FE_LAT","event":"cpu/event=0x9c,umask=0x1,cmask=4/","description":"raw form on purpose","pmu":"cpu","type":4,"config":"0x400019c","config1":null' "$out"
# read back with sqlite3's JSON functions (the sqlite3 CLI is a test dependency)
jq_() { sql :memory: "select $1 from (select readfile('$out') as j)"; }
check_eq "json: valid JSON" 1 "$(jq_ "json_valid(j)")"
check_eq "json: file, model and the 10 nodes" "test-engine.td|skl|10" \
	"$(jq_ "json_extract(j, '\$.file')||'|'||json_extract(j, '\$.model')||'|'||json_array_length(j, '\$.nodes')")"
check_eq "json: a level-2 node's parent and threshold" "Backend_Bound|> 0.20" \
	"$(jq_ "(select json_extract(value, '\$.parent')||'|'||json_extract(value, '\$.threshold') from json_each(j, '\$.nodes')
	        where json_extract(value, '\$.path') = 'Backend_Bound.Memory_Bound')")"
check_eq "json: 12 events, FE_LAT encoded" "12|0x400019c" \
	"$(jq_ "json_array_length(j, '\$.events')||'|'||(select json_extract(value, '\$.config') from json_each(j, '\$.events')
	        where json_extract(value, '\$.alias') = 'FE_LAT')")"
check_eq "json: CPI cycles and instructions" "CLKS|INST" \
	"$(jq_ "json_extract(j, '\$.cpi.cycles')||'|'||json_extract(j, '\$.cpi.instructions')")"

# unknown model
"$TDCTL" events --events-dir "$DATA/events" --pmu zen9 >"$out" 2>"$err"; rc=$?
check "unknown model: non-zero exit" test "$rc" -ne 0
check "unknown model: one line" test "$(wc -l <"$err")" -eq 1
check_grep "unknown model: lists the models with files" "serves PMU model 'zen9'; models with files: skl skx" "$err"

# malformed files give their FILE:LINE message
mkdir "$WORK/bad1" "$WORK/bad2"
cp "$DATA/bad-td/cycle.td" "$WORK/bad1/"
"$TDCTL" events --events-dir "$WORK/bad1" --pmu skl >"$out" 2>"$err"; rc=$?
check "malformed tree: non-zero exit" test "$rc" -ne 0
check_grep "malformed tree: FILE:LINE message" "cycle.td:4: cycle: A -> B -> C -> A" "$err"
cp "$DATA/bad-td/unknown-keyword.td" "$WORK/bad2/"
"$TDCTL" events --events-dir "$WORK/bad2" --pmu skl >"$out" 2>"$err"; rc=$?
check "malformed file: non-zero exit" test "$rc" -ne 0
check_grep "malformed file: FILE:LINE message" "unknown-keyword.td:3: unknown keyword 'metric'" "$err"

# an event libpfm4 cannot encode: exit 1, one stderr line FILE:LINE: cannot encode ...,
# in text and in JSON (the output still shows every event, the bad one with its error)
mkdir "$WORK/bad3"
sed 's/^event    MCLEAR      MACHINE_CLEARS:COUNT$/event    MCLEAR      NO_SUCH_EVENT:COUNT/' \
	"$DATA/events/test-engine.td" >"$WORK/bad3/t.td"
bad_line=$(grep -n 'NO_SUCH_EVENT:COUNT' "$WORK/bad3/t.td" | cut -d: -f1)
check "bad event: the test file has it" test -n "$bad_line"
for form in text json; do
	[ "$form" = json ] && set -- --json || set --
	"$TDCTL" events --events-dir "$WORK/bad3" --pmu skl "$@" >"$out" 2>"$err"; rc=$?
	check_eq "bad event ($form): exit 1" 1 "$rc"
	check_eq "bad event ($form): exactly one stderr line" 1 "$(wc -l <"$err" | tr -d ' ')"
	check_grep "bad event ($form): FILE:LINE: cannot encode, with the alias and what to do" \
		"t.td:$bad_line: cannot encode event 'skl::NO_SUCH_EVENT:COUNT' with libpfm4: event not found (alias MCLEAR); fix the file's 'event' line" "$err"
	check_grep "bad event ($form): the output still lists the other events" "STALLS_TOT" "$out"
done
check_eq "bad event (json): valid, the event carries its error, the others their encoding" \
	"1|cannot encode event 'skl::NO_SUCH_EVENT:COUNT' with libpfm4: event not found|0x20003c" \
	"$(sql :memory: "select json_valid(j)||'|'||
	   (select json_extract(value, '\$.error') from json_each(j, '\$.events') where json_extract(value, '\$.alias') = 'MCLEAR')||'|'||
	   (select json_extract(value, '\$.config') from json_each(j, '\$.events') where json_extract(value, '\$.alias') = 'CLKS_ANY')
	   from (select readfile('$out') as j)")"

# the shipped software/generic files
"$TDCTL" events --pmu perf >"$out" 2>"$err"; rc=$?
check "shipped perf file: exit 0" test "$rc" -eq 0
check_grep "shipped perf file: generic hardware event encoded" "perf::CYCLES" "$out"

# the shipped events/ files for the listed models: exit 0, every level-1
# node, and one level-2 node with its formula and threshold
EV="$TD_SRCDIR/events"
check_tree() { # MODEL FILE-HEADER LEVEL1-NODES... -- LEVEL2-LINE
	model=$1 header=$2
	shift 2
	"$TDCTL" events --events-dir "$EV" --pmu "$model" >"$out" 2>"$err"; rc=$?
	check "$model: exit 0" test "$rc" -eq 0
	check_grep "$model: names its file" "$header (PMU model $model)" "$out"
	while [ "$1" != "--" ]; do
		if grep -Eq "^  $1 +Slots +=" "$out"; then ok "$model: level-1 node $1"; else not_ok "$model: level-1 node $1"; fi
		shift
	done
	check_grep "$model: level-2 node with formula and threshold" "$2" "$out"
}
check_tree skl "intel-skl.td: Intel Skylake" \
	Frontend_Bound Bad_Speculation Backend_Bound Retiring -- \
	"    Memory_Bound                           Slots      = (STALLS_MEM_ANY + BOUND_ON_STORES) / BE_BOUND_CYCLES * Backend_Bound  | > 0.20"
check_tree icl "intel-icl.td: Intel Ice Lake" \
	Frontend_Bound Bad_Speculation Backend_Bound Retiring -- \
	"    Fetch_Latency                          Slots      = (W * FE_LAT_CYC - UOP_DROPPING) / SLOTS  | > 0.10"
check_tree spr "intel-spr.td: Intel Sapphire Rapids" \
	Frontend_Bound Bad_Speculation Backend_Bound Retiring -- \
	"    Memory_Bound                           Slots      = TD_MEM / PM_SUM if PM else MEM_SLOTS / SLOTS  | > 0.20"
check_tree amd64_fam19h_zen4 "amd-zen4.td: AMD Zen 4" \
	Frontend_Bound Bad_Speculation Backend_Bound SMT_Contention Retiring -- \
	"    Memory_Bound                           Slots      = Backend_Bound * LOAD_NOT_COMPLETE / NOT_COMPLETE  | > 0.20"
check_tree amd64_fam1ah_zen5 "amd-zen5.td: AMD Zen 5" \
	Frontend_Bound Bad_Speculation Backend_Bound SMT_Contention Retiring -- \
	"    Fetch_Latency                          Slots      = W * FE_NO_OPS_C8 / SLOTS  | > 0.10"
check_tree gnr "intel-gnr.td: Intel Granite Rapids" \
	Frontend_Bound Bad_Speculation Backend_Bound Retiring -- \
	"    Memory_Bound                           Slots      = TD_MEM / PM_SUM  | > 0.20"
# Arm N2/V2 have no level-2 nodes (Arm's stage 2 is info metrics): the check line is an info metric
check_tree arm_n2 "arm-neoverse-n2.td: Arm Neoverse N2" \
	Frontend_Bound Bad_Speculation Backend_Bound Retiring -- \
	"  SLOTS                    Count    = SLOTS_PER_CYCLE * CPU_CYCLES"
check_tree arm_v2 "arm-neoverse-v2.td: Arm Neoverse V2" \
	Frontend_Bound Bad_Speculation Backend_Bound Retiring -- \
	"  fp_ops_per_cycle         Metric   = (FP_SCALE_OPS_SPEC + FP_FIXED_OPS_SPEC) / CPU_CYCLES"

# the bench programs build ('make bench-programs'; 'make bench' also runs the bench
# scripts, by hand: they time things) and bench_metrics prints a nodes/s figure on the
# Skylake tree (a few intervals: this proves it runs, it times nothing)
MAKEFLAGS= make -s -C "$TD_BUILDDIR" bench-programs >"$WORK/make" 2>&1; rc=$?
check "bench: make bench-programs builds" test "$rc" -eq 0 -a -x "$TD_BUILDDIR/bench/bench_metrics" \
	-a -x "$TD_BUILDDIR/bench/bench_bytes" -a -x "$TD_BUILDDIR/bench/bench_store"
"$TD_BUILDDIR/bench/bench_metrics" "$EV/intel-skl.td" 200 >"$out" 2>"$err"; rc=$?
check "bench: runs on intel-skl.td" test "$rc" -eq 0
check_grep "bench: Skylake tree" "file: intel-skl.td (100 nodes" "$out"
check_match "bench: prints nodes/s" "^nodes evaluated per second: [0-9.]+e\+[0-9]+$" "$(cat "$out")"

finish
