#!/bin/sh
# tdctl import of every perf stat -x form (tests/data/import): separators,
# totals and -I intervals, per CPU (-A) and per thread, alone and with -I,
# generic perf names, perf dotted names, raw forms (r019c, cpu/.../) with
# :u/:k, libpfm4 names, Ice Lake topdown slot counts, bare and wrapped
# (cpu/slots/), not-counted lines and scaling; checked through the stored rows
# and tdctl export. Intervals are numbered from 0, as stored (seq).
. "$(dirname "$0")/lib.sh"

D="$TD_SRCDIR/tests/data/import"

imp() { db=$1; shift; "$TDCTL" import -q -d "$db" "$@" 2>"$db.err"; }
# metric DB TARGET NAME: value of a metric in session 1's CSV export
metric() {
	"$TDCTL" export 1 -d "$1" --format csv | awk -F, -v t="$2" -v n="$3" '$1 != "count" && $5 == t && $6 == n { print $8 }'
}
# series DB TARGET NAME: its values in interval order, space-separated ('' = NA)
series() {
	"$TDCTL" export 1 -d "$1" --format csv |
		awk -F, -v t="$2" -v n="$3" '$1 != "count" && $5 == t && $6 == n { printf "%s%s", sep, $8; sep = " " }'
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

# ---- -I with per CPU (-A): perf stat -x; -I 1000 -A -C 0,3 -e cycles,instructions,r019c --------
# r019c is perf's raw form of IDQ_UOPS_NOT_DELIVERED.CORE (event 0x9c, umask 0x01); the
# instructions lines carry perf's own "insn per cycle" columns, which the import ignores.
DB="$WORK/cpu-interval.db"
imp "$DB" --pmu skl --smt off "$D/interval-per-cpu.csv"
check_eq "-I -A: import exits 0, every line used (the 2 others are the comment and the blank line)" \
	"0|18 of 20 lines imported, 0 skipped|" "$?|$(sql "$DB" "select message from sessions")|$(cat "$DB.err")"
check_eq "-I -A: three intervals, the first from perf's start, then timestamp to timestamp" \
	"0:1001002345 1:1001102345 2:1001102345" \
	"$(sql "$DB" "select group_concat(seq || ':' || (end_ns - start_ns), ' ') from intervals")"
check_eq "-I -A: the targets are CPU0 and CPU3 (-C 0,3) and the whole" "cpu:0|cpu:3|whole|" \
	"$(sql "$DB" "select group_concat(kind || coalesce(':' || cpu, ''), '|') || '|' from targets")"
check_eq "-I -A: 2 CPUs, a 1001 ms interval" "2|1001" "$(sql "$DB" "select num_cpus, interval_ms from sessions")"
check_eq "-I -A: bare r019c matches FE_NOT" "cycles=CLK_THREAD instructions=INST r019c=FE_NOT" \
	"$(sql "$DB" "select group_concat(name || '=' || coalesce(alias, '?'), ' ') from events")"
check_eq "-I -A: 3 intervals x 2 CPUs x 3 events, one of them not counted (CPU3's r019c, interval 2)" "18|2:3:r019c" \
	"$(sql "$DB" "select count(*), (select i.seq || ':' || t.cpu || ':' || e.name from counts c join intervals i on i.id = c.interval_id
		join targets t on t.id = c.thread_id join events e on e.id = c.event_id where c.running = 0) from counts")"
# CPU3's instructions in interval 2: 2000000000 printed at 50.00 % of 500551172 ns run
check_eq "-I -A: a multiplexed line is stored raw: 2e9 x 50 % = 1e9, enabled = 500551172 x 2" \
	"1000000000|1001102344|500551172" \
	"$(sql "$DB" "select c.value, c.enabled, c.running from counts c join targets t on t.id = c.thread_id
		join events e on e.id = c.event_id join intervals i on i.id = c.interval_id
		where t.cpu = 3 and e.name = 'instructions' and i.seq = 2")"
# IPC = instructions / cycles: CPU0 2.4/1.2, 1.5/1.5, 1.0/2.0; CPU3 0.4/0.8, 3.0/1.0, 2.0/1.6
# (the scaled count); whole (sums) 2.8/2.0, 4.5/2.5, 3.0/3.6
check_eq "-I -A: IPC of CPU0 per interval" "2 1 0.5" "$(series "$DB" cpu:0 IPC)"
check_eq "-I -A: IPC of CPU3 per interval (interval 2 from the scaled count)" "0.5 3 1.25" "$(series "$DB" cpu:3 IPC)"
check_eq "-I -A: IPC of the whole per interval" "1.3999999999999999 1.8 0.83333333333333337" "$(series "$DB" whole IPC)"
check_eq "-I -A: interval 2's IPC of CPU3 has confidence 0.5 (multiplexed)" 0.5 \
	"$("$TDCTL" export 1 -d "$DB" --format csv | awk -F, '$2 == 2 && $5 == "cpu:3" && $6 == "IPC" { print $11 }')"
# Frontend_Bound = FE_NOT / (4 x CLK_THREAD) with SMT off: CPU0 0.96/4.8, 1.8/6.0, 2.4/8.0;
# CPU3 1.6/3.2, 0.4/4.0, NA (r019c not counted); whole 2.56/8.0, 2.2/10.0, NA
check_eq "-I -A: Frontend_Bound of CPU0 from r019c" "0.20000000000000001 0.29999999999999999 0.29999999999999999" \
	"$(series "$DB" cpu:0 Frontend_Bound)"
check_eq "-I -A: Frontend_Bound of CPU3, NA where r019c was not counted" "0.5 0.10000000000000001 " \
	"$(series "$DB" cpu:3 Frontend_Bound)"
check_eq "-I -A: Frontend_Bound of the whole" "0.32000000000000001 0.22 " "$(series "$DB" whole Frontend_Bound)"

# ---- -I with --per-thread: perf stat -x, -I 500 -a --per-thread -e cycles:u,instructions:u,r019c:u -
# perf -a --per-thread leaves out the threads that counted 0: io-loop (a dash in its comm)
# starts in interval 1, the second myapp thread is idle in interval 2.
DB="$WORK/thread-interval.db"
imp "$DB" --pmu skl --smt off "$D/interval-per-thread.csv"
check_eq "-I --per-thread: import exits 0, every line used" "0|21 of 21 lines imported, 0 skipped|" \
	"$?|$(sql "$DB" "select message from sessions")|$(cat "$DB.err")"
check_eq "-I --per-thread: three intervals of 500 ms" "0:500123456 1:500111111 2:500111111|500" \
	"$(sql "$DB" "select group_concat(seq || ':' || (end_ns - start_ns), ' ') || '|' || (select interval_ms from sessions) from intervals")"
check_eq "-I --per-thread: the threads by COMM-TID, two with the same comm" "myapp:4242 myapp:4250 io-loop:4251" \
	"$(sql "$DB" "select group_concat(comm || ':' || tid, ' ') from threads")"
check_eq "-I --per-thread: io-loop is first seen at the start of interval 1 (0.500123456 s after the others)" \
	"0|0|500123456" \
	"$(sql "$DB" "select group_concat(first_seen_ns - (select min(first_seen_ns) from threads), '|') from threads")"
check_eq "-I --per-thread: each thread lives to the end of the last interval it was counted in" \
	"myapp:1500345678 myapp:1000234567 io-loop:1500345678" \
	"$(sql "$DB" "select group_concat(comm || ':' || (last_seen_ns - (select min(first_seen_ns) from threads)), ' ') from threads")"
check_eq "-I --per-thread: :u forms matched, r019c:u is FE_NOT" "cycles:u=CLK_THREAD instructions:u=INST r019c:u=FE_NOT" \
	"$(sql "$DB" "select group_concat(name || '=' || coalesce(alias, '?'), ' ') from events")"
check_eq "-I --per-thread: counts per interval: 2, 3 and 2 threads x 3 events" "0:6 1:9 2:6" \
	"$(sql "$DB" "select group_concat(seq || ':' || n, ' ') from (select i.seq, count(*) n from counts c
		join intervals i on i.id = c.interval_id group by i.seq order by i.seq)")"
# IPC: myapp-4242 1.2/0.6, 1.5/0.5, 1.0/0.8; myapp-4250 0.2/0.4, 0.3/0.3, -; io-loop -, 0.1/0.2, 0.4/0.1;
# whole (sums over the threads listed) 1.4/1.0, 1.9/1.0, 1.4/0.9
check_eq "-I --per-thread: IPC of myapp-4242" "2 3 1.25" "$(series "$DB" thread:myapp-4242 IPC)"
check_eq "-I --per-thread: IPC of myapp-4250 (absent from interval 2)" "0.5 1" "$(series "$DB" thread:myapp-4250 IPC)"
check_eq "-I --per-thread: IPC of io-loop-4251 (from interval 1)" "0.5 4" "$(series "$DB" thread:io-loop-4251 IPC)"
check_eq "-I --per-thread: IPC of the whole" "1.3999999999999999 1.8999999999999999 1.5555555555555556" \
	"$(series "$DB" whole IPC)"
# Frontend_Bound = r019c:u / (4 x cycles:u): myapp-4242 0.48/2.4, 0.2/2.0, 0.64/3.2;
# io-loop 0.4/0.8, 0.04/0.4; whole 1.28/4.0, 0.96/4.0, 0.68/3.6
check_eq "-I --per-thread: Frontend_Bound of myapp-4242 from r019c:u" \
	"0.20000000000000001 0.10000000000000001 0.20000000000000001" "$(series "$DB" thread:myapp-4242 Frontend_Bound)"
check_eq "-I --per-thread: Frontend_Bound of io-loop-4251" "0.5 0.10000000000000001" \
	"$(series "$DB" thread:io-loop-4251 Frontend_Bound)"
check_eq "-I --per-thread: Frontend_Bound of the whole" "0.32000000000000001 0.23999999999999999 0.18888888888888888" \
	"$(series "$DB" whole Frontend_Bound)"

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
# --no-metrics: the same counts and no metric value; reports compute theirs from the
# counts (the same report), and recompute stores exactly the values the import would have
DB2="$WORK/icl-nometrics.db"
"$TDCTL" import -d "$DB2" --pmu icl --no-metrics "$D/icl-topdown.csv" >"$WORK/nm.out" 2>&1
check_eq "--no-metrics: exit 0, no metric value stored, the session says so" \
	"0|0|6 of 6 lines imported, 0 skipped; metric values not stored (--no-metrics)" \
	"$?|$(sql "$DB2" "select count(*) from metrics")|$(sql "$DB2" "select message from sessions")"
check_grep "--no-metrics: the import says how to store them later" "'tdctl recompute 1' stores them" "$WORK/nm.out"
check_eq "--no-metrics: the same counts" "$(sql "$DB" "select group_concat(value, ' ') from counts")" \
	"$(sql "$DB2" "select group_concat(value, ' ') from counts")"
check_eq "--no-metrics: the same report" "$("$TDCTL" report 1 -d "$DB")" "$("$TDCTL" report 1 -d "$DB2")"
"$TDCTL" recompute 1 -d "$DB2" >/dev/null
"$TDCTL" export 1 -d "$DB2" --format csv >"$WORK/nm.csv"
check "--no-metrics, then recompute: the metric values the import would have stored" cmp -s "$WORK/before.csv" "$WORK/nm.csv"
# ---- Ice Lake, every topdown event wrapped (cpu/slots/, cpu/topdown-*/), -x, and -I -------------
# perf stat -x, -I 1000 -e '{cpu/slots/,cpu/topdown-retiring/,...}',cpu/event=0xd,umask=0x10/,
# cpu/event=0xd,umask=0x1,cmask=1,edge/,cycles,instructions (SMT off: slots = 5 x cycles)
DB="$WORK/icl-wrapped.db"
imp "$DB" --pmu icl --smt off "$D/icl-slots-wrapped.csv"
check_eq "cpu/slots/: import exits 0, every line used" "0|18 of 20 lines imported, 0 skipped|" \
	"$?|$(sql "$DB" "select message from sessions")|$(cat "$DB.err")"
check_eq "cpu/slots/: two intervals of 1000.3 ms, one whole target" "0:1000300000 1:1000300000|whole" \
	"$(sql "$DB" "select group_concat(seq || ':' || (end_ns - start_ns), ' ') from intervals")|$(sql "$DB" "select group_concat(kind) from targets")"
check_eq "cpu/slots/ is SLOTS_EV, cpu/topdown-*/ the PERF_METRICS slots, comma-split raw forms rejoined" \
	"cpu/slots/=SLOTS_EV cpu/topdown-retiring/=TD_RET cpu/topdown-bad-spec/=TD_BAD cpu/topdown-fe-bound/=TD_FE cpu/topdown-be-bound/=TD_BE cpu/event=0xd,umask=0x10/=UOP_DROPPING cpu/event=0xd,umask=0x1,cmask=1,edge/=CLEARS_COUNT cycles=CLK_THREAD instructions=INST" \
	"$(sql "$DB" "select group_concat(name || '=' || coalesce(alias, '?'), ' ') from events")"
check_eq "cpu/slots/: the slot counts are stored as printed" "8000000000 6000000000" \
	"$(sql "$DB" "select group_concat(c.value, ' ') from counts c join events e on e.id = c.event_id where e.name = 'cpu/slots/'")"
# PM_SUM = fe + bad + ret + be = 8e9, 6e9
# Retiring = ret / PM_SUM: 3.2/8, 1.5/6
check_eq "cpu/slots/: Retiring per interval" "0.40000000000000002 0.25" "$(series "$DB" whole Retiring)"
# Frontend_Bound = fe / PM_SUM - UOP_DROPPING / slots: 2/8 - 0.08/8 = 0.24, 3/6 - 0.06/6 = 0.49
check_eq "cpu/slots/: Frontend_Bound per interval" "0.23999999999999999 0.48999999999999999" \
	"$(series "$DB" whole Frontend_Bound)"
# Backend_Bound = be / PM_SUM + 5 x CLEARS_COUNT / slots: 2/8 + 0.04/8 = 0.255, 1.2/6 + 0.06/6 = 0.21
check_eq "cpu/slots/: Backend_Bound per interval" "0.255 0.21000000000000002" "$(series "$DB" whole Backend_Bound)"
# Bad_Speculation = 1 - the three others: 1 - 0.895 = 0.105, 1 - 0.95 = 0.05
check_eq "cpu/slots/: Bad_Speculation per interval" "0.10499999999999998 0.050000000000000044" \
	"$(series "$DB" whole Bad_Speculation)"
# Slots_Utilization = slots / (5 x cycles) = 8/8, 6/6; IPC = 3.0/1.6, 1.2/1.2
check_eq "cpu/slots/: Slots_Utilization 1 with SMT off, IPC per interval" "1 1|1.875 1" \
	"$(series "$DB" whole Slots_Utilization)|$(series "$DB" whole IPC)"
# ---- a thread name with a slash next to a raw form split by -x, ---------------------
printf '%s\n' '0.5,kworker/u8:1-117,1000,,cpu/event=0x3c,umask=0x0/,500000000,100.00,,' \
	'0.5,kworker/u8:1-117,3000,,cpu/event=0xc0,umask=0x0/,500000000,100.00,,' >"$WORK/kworker.csv"
DB="$WORK/kworker.db"
imp "$DB" --pmu skl "$WORK/kworker.csv"
check_eq "kworker/u8:1: both lines used, the slash in the name is not a raw form's" "0|2 of 2 lines imported, 0 skipped" \
	"$?|$(sql "$DB" "select message from sessions")"
check_eq "kworker/u8:1: the thread and its IPC (3000 / 1000)" "kworker/u8:1|117|3.0" \
	"$(sql "$DB" "select t.comm, t.tid, m.value from threads t join metric_values m on m.target_id = t.id where m.name = 'IPC'")"


# ---- '-' reads standard input; a UTF-8 byte-order mark is skipped -------------------
DB="$WORK/stdin.db"
{ printf '\357\273\277'; cat "$D/comma-generic.csv"; } | "$TDCTL" import -q -d "$DB" --pmu skl - 2>"$DB.err"
check_eq "import - (stdin, with a BOM): exits 0" 0 "$?"
check_eq "the same counts as from the file (cycles scaled x 2, instructions:u)" "500000000|1000000000|500000000 750000000" \
	"$(sql "$DB" "select (select c.value || '|' || c.enabled || '|' || c.running from counts c join events e on e.id = c.event_id
		where e.name = 'cycles') || ' ' || (select c.value from counts c join events e on e.id = c.event_id where e.name = 'instructions:u')")"
check_eq "IPC from stdin is 1.5, as from the file" 1.5 "$(metric "$DB" whole IPC)"
# the BOM sits before '# started on': skipped, that line is a comment; kept, it is a bad line with a message
check_eq "the first line after the BOM is read as perf's comment: no line message" "" "$(cat "$DB.err")"

finish
