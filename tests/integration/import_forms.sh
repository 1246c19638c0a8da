#!/bin/sh
# tdctl import of every perf stat -x form (tests/data/import): separators,
# totals and -I intervals, per CPU (-A), per thread, generic perf names, perf
# dotted names, raw forms with :u/:k, libpfm4 names, Ice Lake topdown slot
# counts, not-counted lines and scaling; checked through the stored rows and
# tdctl export.
. "$(dirname "$0")/lib.sh"

D="$TD_SRCDIR/tests/data/import"

imp() { db=$1; shift; "$TDCTL" import -q -d "$db" "$@" 2>"$db.err"; }
# metric DB TARGET NAME: value of a metric in session 1's CSV export
metric() {
	"$TDCTL" export 1 -d "$1" --format csv | awk -F, -v t="$2" -v n="$3" '$1 != "count" && $5 == t && $6 == n { print $8 }'
}

# ---- ',' totals, generic names, 50 % multiplexing, not counted/supported ----
DB="$WORK/generic.db"
imp "$DB" --pmu skl "$D/comma-generic.csv"
check_eq "comma totals: import exits 0" 0 "$?"
check_eq "cycles: raw = printed x 50 %, enabled = run-time x 2, running = run-time, alias CLK_THREAD" \
	"500000000|1000000000|500000000|CLK_THREAD" \
	"$(sql "$DB" "select c.value, c.enabled, c.running, e.alias from counts c join events e on e.id = c.event_id where e.name = 'cycles'")"
check_eq "instructions:u matches INST (generic name, Intel's 0xc0)" "750000000|INST" \
	"$(sql "$DB" "select c.value, e.alias from counts c join events e on e.id = c.event_id where e.name = 'instructions:u'")"
check_eq "<not counted> and <not supported> are stored as running 0" "0|0 0|0" \
	"$(sql "$DB" "select group_concat(value || '|' || running, ' ') from counts where running = 0")"
check_eq "r01c5 (umask 1) is not BR_MISP (umask 0): kept without alias" "r01c5|" \
	"$(sql "$DB" "select name || '|' || coalesce(alias, '') from events where name like 'r%'")"
check_eq "IPC from scaled counts is 1.5" 1.5 "$(metric "$DB" whole IPC)"
check_eq "Frontend_Bound is NA: its event was not counted" "" "$(metric "$DB" whole Frontend_Bound)"
check_eq "duration_time sets the interval length (1 s)" 1000000000 "$(sql "$DB" "select end_ns - start_ns from intervals")"
check_eq "the session is an import, completed, with its source file" "import|completed|$D/comma-generic.csv" \
	"$(sql "$DB" "select kind || '|' || status || '|' || source from sessions")"

# ---- ';' -I intervals --------------------------------------------------------
DB="$WORK/interval.db"
imp "$DB" --pmu skl "$D/interval-semicolon.csv"
check_eq "intervals: three, numbered 0..2" "0 1 2" "$(sql "$DB" "select group_concat(seq, ' ') from intervals")"
check_eq "interval 1 spans the timestamps 1.000512 -> 2.001024 s" 1000512000 \
	"$(sql "$DB" "select end_ns - start_ns from intervals where seq = 1")"
check_eq "IPC per interval: 2, 0.5, NA (instructions not counted)" "2 0.5 " \
	"$("$TDCTL" export 1 -d "$DB" --format csv | awk -F, '$1 == "info" && $6 == "IPC" { printf "%s%s", sep, $8; sep = " " }')"
check_eq "the session's interval is the timestamps' step, 1001 ms" 1001 "$(sql "$DB" "select interval_ms from sessions")"

# ---- per CPU (-A) ----------------------------------------------------------------
DB="$WORK/cpu.db"
imp "$DB" --pmu skl "$D/per-cpu.csv"
check_eq "per CPU: two CPU targets and the whole" "cpu:0|cpu:1|whole|" \
	"$(sql "$DB" "select group_concat(kind || coalesce(':' || cpu, ''), '|') || '|' from targets")"
check_eq "IPC of CPU0, CPU1 and of the sum" "2 0.33333333333333331 0.75" \
	"$(metric "$DB" cpu:0 IPC) $(metric "$DB" cpu:1 IPC) $(metric "$DB" whole IPC)"
check_eq "the session records 2 CPUs" 2 "$(sql "$DB" "select num_cpus from sessions")"

# ---- per thread --------------------------------------------------------------------
DB="$WORK/thread.db"
imp "$DB" --pmu skl "$D/per-thread.csv"
check_eq "per thread: COMM-TID columns become threads (a dash inside COMM kept)" "main:1200 worker:1234 my-thread-7:77" \
	"$(sql "$DB" "select group_concat(comm || ':' || tid, ' ') from threads")"
check_eq "IPC per thread" "3 0.25" "$(metric "$DB" thread:main-1200 IPC) $(metric "$DB" thread:worker-1234 IPC)"
check_eq "whole IPC is NA: one thread has no instructions count" "" "$(metric "$DB" whole IPC)"

# ---- raw forms, modifiers, libpfm4 and dotted names ---------------------------------
DB="$WORK/raw.db"
imp "$DB" --pmu skl "$D/raw-forms.csv"
check_eq "every spelling is matched by encoding" \
	"cpu/event=0x9c,umask=0x1/=FE_NOT cpu/event=0xa3,umask=0x14,cmask=20/=STALLS_MEM_ANY cpu/event=0x3c,umask=0x0,any=1/=CLKS_ANY cpu/event=0x9c,umask=0x1,cmask=4/:u=FE_LAT_CYC cpu/event=0xc2,umask=0x2/:k=RETIRE_SLOTS UOPS_ISSUED:ANY=UOPS_ISSUED inst_retired.any=INST cpu_clk_unhalted.thread=CLK_THREAD r00c5:u=BR_MISP r010d=RECOVERY" \
	"$(sql "$DB" "select group_concat(name || '=' || coalesce(alias, '?'), ' ') from events")"
check_eq "Frontend_Bound from the raw forms is 0.2" 0.20000000000000001 "$(metric "$DB" whole Frontend_Bound)"
check_eq "every event row is 'counting' with its encoding" "10|0" \
	"$(sql "$DB" "select count(*), sum(type is null or config is null) from events where status = 'counting'")"

# ---- Ice Lake: topdown metric events as slot counts --------------------------------
DB="$WORK/icl.db"
imp "$DB" --pmu icl "$D/icl-topdown.csv"
check_eq "slots and topdown-* (bare and cpu/NAME/) map to the PERF_METRICS aliases" \
	"slots=SLOTS_EV topdown-retiring=TD_RET topdown-bad-spec=TD_BAD topdown-fe-bound=TD_FE cpu/topdown-be-bound/=TD_BE cpu/event=0xd,umask=0x10/=UOP_DROPPING" \
	"$(sql "$DB" "select group_concat(name || '=' || coalesce(alias, '?'), ' ') from events")"
check_eq "Retiring = topdown-retiring / slots = 0.4" 0.40000000000000002 "$(metric "$DB" whole Retiring)"
check_eq "Frontend_Bound = (fe-bound - uop dropping) / slots = 0.19" 0.19 \
	"$(metric "$DB" whole Frontend_Bound | cut -c1-4)"

# ---- recompute gives the same values -------------------------------------------------
"$TDCTL" export 1 -d "$DB" --format csv >"$WORK/before.csv"
out=$("$TDCTL" recompute 1 -d "$DB")
check_eq "recompute exits 0" 0 "$?"
check_match "recompute says what it did" "^session 1: 1 evaluation with intel-icl.td \(6 events read, 0 not\)" "$out"
"$TDCTL" export 1 -d "$DB" --format csv >"$WORK/after.csv"
check "recompute reproduces the stored metrics exactly" cmp -s "$WORK/before.csv" "$WORK/after.csv"
finish
