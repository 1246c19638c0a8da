#!/bin/sh
# The BPF counting mode (issue 16) against per-thread groups, on the same
# workloads: td-demo -b 100 runs 4 long threads and two bursts of 100
# threads of 5 ms CPU each and writes its own CPU time
# (CLOCK_PROCESS_CPUTIME_ID: every thread's, the exited ones' too); td-demo
# -R writes each thread's CPU time from its own schedstat as it ends. In both
# modes every thread must be listed (BPF tracker), the stored mode must be
# the one asked for, and the TASK_CLOCK of all targets must be within 1 % of
# the process's CPU time. In BPF mode a thread is counted from its birth, so
# nearly nothing is left to the unlisted remainder and each thread's
# TASK_CLOCK is within 1 % of its own schedstat and its CONTEXT_SWITCHES
# within a few of its own count (/proc status), whether the program counts
# the CPU's clock and switches itself or reads them; the raw_tp programs, and
# the raw_tp ones relocated against this boot's kernel types file, must
# give the same; a sums map too small must say what it lost and still lose
# nothing from the total. The references leave out the time the hypervisor
# stole, which the counters include: that is allowed for (steal_ns). Skipped
# where BPF counting does not load.
. "$(dirname "$0")/lib.sh"
TD_TRACKER=bpf
export TD_TRACKER

if ! "$TDCTL" run -I 100 -d "$WORK/probe.db" --counting=bpf -- true >/dev/null 2>"$WORK/probe.err"; then
	skip_all "BPF counting does not load here: $(tail -n 1 "$WORK/probe.err")"
fi

# total_task_clock DB: seconds of TASK_CLOCK stored for every target of session 1
total_task_clock() {
	sql "$1" "select sum(c.value) / 1e9 from counts c join events e on e.id = c.event_id where e.name = 'TASK_CLOCK'"
}
unlisted_task_clock() {
	sql "$1" "select coalesce(sum(c.value), 0) / 1e9 from counts c join events e on e.id = c.event_id
		join threads t on t.id = c.thread_id where e.name = 'TASK_CLOCK' and t.tid = 0"
}
# within A B PCT [SLACK]: 1 when A is within PCT % of B, plus SLACK (same unit)
within() {
	awk -v a="$1" -v b="$2" -v p="$3" -v s="${4:-0}" 'BEGIN { d = a - b; if (d < 0) d = -d; print (b > 0 && d <= b * p / 100 + s) ? 1 : 0 }'
}
# within_short A B PCT SLACK SHORT: as within, and A may be short of B by SHORT more
within_short() {
	awk -v a="$1" -v b="$2" -v p="$3" -v s="$4" -v short="$5" 'BEGIN { m = b * p / 100 + s
		print (b > 0 && a >= b - m - short && a <= b + m) ? 1 : 0 }'
}
# unseen_ns FILE: what the session's counting note (in tdctl's output FILE) says went to
# no thread, ns: a context switch the program did not see (the kernel emits none when
# this VM's guest agent threads switch out) gives what was counted since the switch before,
# or a followed thread's time since it was switched in unseen, to nobody, rather than to
# the thread found running; a busy worker that followed such a switch is short by that
# much, at most. 0 when none.
unseen_ns() {
	sed -n 's/.* the \([0-9.]*\) ms of followed time they hid went to no thread.*/\1/p' "$1" |
		awk '{ s += $1 * 1e6 } END { printf "%.0f", s }'
}
# The references (CLOCK_PROCESS_CPUTIME_ID, schedstat) are the scheduler's runtime, from
# which the kernel takes the time the hypervisor stole (PARAVIRT_TIME_ACCOUNTING);
# TASK_CLOCK (and perf's task-clock) counts it. steal_ns: the CPUs' stolen time so
# far (/proc/stat), taken around each run; what was stolen meanwhile may be in the
# difference (at most: it is every CPU's, whoever ran).
# /proc/stat counts steal in whole 1/USER_HZ (10 ms): the difference of two
# readings may be short by up to one such unit, so the time stolen since a
# reading is bounded by that difference plus one unit (a "0" may hide up to
# 10 ms of steal). stolen_since_ns S0: that bound, ns.
USER_HZ=$(getconf CLK_TCK)
steal_ns() { awk -v hz="$USER_HZ" '$1 == "cpu" { printf "%.0f", $9 * 1e9 / hz }' /proc/stat; }
stolen_since_ns() { echo $(($(steal_ns) - $1 + 1000000000 / USER_HZ)); }

# the events a default session counts per CPU: software.td's 6 where no PMU counts (a PMU host's
# plan adds its tree's level 1, whatever its size); 2 of software.td's the program counts itself
if perf stat -x, -e instructions -- true 2>&1 | grep -q '^[0-9]*,,instructions'; then
	per_cpu='[0-9][0-9]* events per CPU'
else
	per_cpu='6 events per CPU'
fi
for mode in bpf per-thread; do
	DB="$WORK/$mode.db"
	s0=$(steal_ns)
	"$TDCTL" run -I 100 -d "$DB" --counting=$mode -- "$DEMO" -t 4 -b 100 -s 2 -R "$WORK/$mode.cpu" \
		>/dev/null 2>"$WORK/$mode.out"
	check_eq "$mode: run exits 0" 0 "$?"
	stolen=$(awk -v n="$(stolen_since_ns "$s0")" 'BEGIN { printf "%.6f", n / 1e9 }')
	check_eq "$mode: the session records the counting mode" "$mode" "$(sql "$DB" "select counting from sessions")"
	case $mode in
	bpf) note="counted by BPF at each context switch \(tp_btf sched_switch, $per_cpu, 2 of them \(a CPU.s clock, its switches\) counted by the program itself; sums map of 8192 threads" ;;
	*) note="counted with perf groups per thread \(--counting=per-thread\)" ;;
	esac
	check_match "$mode: ... with the line that says why, also said at the end" "$note" \
		"$(sql "$DB" "select counting_note from sessions") // $(grep 'note: counted' "$WORK/$mode.out")"
	# the main thread, 4 long ones and 2 bursts of 100
	check_eq "$mode: every thread is listed" 205 "$(sql "$DB" "select count(*) from threads where tid != 0")"
	cpu=$(awk '$1 == "CPU_NS" { printf "%.6f", $3 / 1e9 }' "$WORK/$mode.cpu")
	tc=$(total_task_clock "$DB")
	unseen=$(awk -v n="$(unseen_ns "$WORK/$mode.out")" 'BEGIN { printf "%.6f", n / 1e9 }')
	check_eq "$mode: TASK_CLOCK of all targets ($tc s) within 1 % of the process's CPU time ($cpu s, at most $stolen s stolen meanwhile; $unseen s said to have gone to no thread)" 1 \
		"$(within_short "$tc" "$cpu" 1 "$stolen" "$unseen")"
	check "$mode: no BPF counting warning" test -z "$(grep '^tdctl: BPF counting' "$WORK/$mode.out")"
	# a switch count's enabled time is the span it was counted over: never from before its thread was listed
	check_eq "$mode: every switch row was counted while its thread was listed (enabled <= its interval's end - first seen)" 0 \
		"$(sql "$DB" "select count(*) from counts c join events e on e.id = c.event_id join intervals i on
			i.id = c.interval_id join threads t on t.id = c.thread_id where e.name = 'VOLUNTARY_SWITCHES'
			and c.enabled > i.end_ns - t.first_seen_ns")"
	if [ $mode = bpf ]; then
		# the program counts every thread's switches to each read: a thread that did not switch
		# has its pair wait for its next row, which spans the time since its last one. So a
		# pair of zeros is only ever a thread's last row, and its rows' spans add up, without
		# gap or overlap, to the time from its birth (or listing) to the end of its last row
		check_eq "bpf: no switch row of zeros before a thread's last one" 0 \
			"$(sql "$DB" "select count(*) from samples s join events e on e.id = s.event_id join intervals i on
				i.id = s.interval_id where e.name = 'VOLUNTARY_SWITCHES' and s.vals = '[0,0]' and i.end_ns <
				(select max(i2.end_ns) from samples s2 join intervals i2 on i2.id = s2.interval_id
				 where s2.target_id = s.target_id and s2.event_id = s.event_id)")"
		check_eq "bpf: each thread's switch rows span its time listed exactly (sum of enabled = end of its last row - first seen)" 0 \
			"$(sql "$DB" "select count(*) from threads t where t.tid != 0 and
				(select sum(c.enabled) from counts c join events e on e.id = c.event_id
				 where c.thread_id = t.id and e.name = 'VOLUNTARY_SWITCHES') !=
				(select max(i.end_ns) from counts c join events e on e.id = c.event_id join intervals i on
				 i.id = c.interval_id where c.thread_id = t.id and e.name = 'VOLUNTARY_SWITCHES') - t.first_seen_ns")"
		# counted groups (docs/schema.md): every thread has a row in its first interval and in the
		# last, and otherwise only in those it ran in — so no row of nothing (no value, no time
		# enabled) between a thread's first and the last (a thread asleep throughout: below; this
		# workload's main thread joins 200 threads, and on a loaded host runs in every interval)
		check_eq "bpf: every listed thread has a TASK_CLOCK row" 0 \
			"$(sql "$DB" "select count(*) from threads t where t.tid != 0 and not exists (select 1 from counts c
				join events e on e.id = c.event_id where c.thread_id = t.id and e.name = 'TASK_CLOCK')")"
		check_eq "bpf: no row of a counted group with nothing in it between a thread's first and the last" 0 \
			"$(sql "$DB" "select count(*) from samples s join events e on e.id = s.event_id where e.group_idx >= 0
				and s.enabled = 0 and s.running = 0 and s.vals not glob '*[1-9]*' and s.interval_id >
				(select min(s2.interval_id) from samples s2 where s2.target_id = s.target_id)
				and s.interval_id < (select max(id) from intervals)")"
	fi
done

unl=$(unlisted_task_clock "$WORK/bpf.db")
tc=$(total_task_clock "$WORK/bpf.db")
check "bpf: threads are counted from their birth: under 1 % of the CPU time is unlisted ($unl of $tc s)" \
	test "$(awk -v u="$unl" -v t="$tc" 'BEGIN { print (u < 0.01 * t) ? 1 : 0 }')" = 1
check_eq "bpf: every listed thread has its switches, from the program (not /proc)" 0 \
	"$(sql "$WORK/bpf.db" "select count(*) from threads t where t.tid != 0 and not exists (select 1 from counts c
		join events e on e.id = c.event_id where c.thread_id = t.id and e.name = 'VOLUNTARY_SWITCHES')")"

# ---- threads that run now and then, in a session that commits five intervals at once ----------
# tests/tools/pulses: 4 threads, each busy 15 ms of its CPU then asleep 300 ms, for 3 s. At
# -I 100 a thread runs in one interval of a group and in none of the next two or three: those
# samples find its sums as the group's last one did (counting_sums.c's TD_READ_SAME) and
# deliver no row, yet what it counted since the commit is still the listed threads', not the
# unlisted remainder's (the remainder is the process's total beyond them)
s0=$(steal_ns)
"$TDCTL" run -I 100 -d "$WORK/pulses.db" --counting=bpf -- "$TD_BUILDDIR/tests/tools/pulses" "$WORK/pulses.cpu" \
	4 15 300 3 >/dev/null 2>"$WORK/pulses.out"
check_eq "pulses: run exits 0" 0 "$?"
stolen=$(awk -v n="$(stolen_since_ns "$s0")" 'BEGIN { printf "%.6f", n / 1e9 }')
cpu=$(awk '$1 == "CPU_NS" { printf "%.6f", ($3 - $2) / 1e9 }' "$WORK/pulses.cpu")
tc=$(sql "$WORK/pulses.db" "select sum(c.value) / 1e9 from counts c join events e on e.id = c.event_id join
	threads t on t.id = c.thread_id where e.name = 'TASK_CLOCK' and t.comm = 'pulses' and t.tid != (select min(tid)
	from threads where tid != 0)")
unseen=$(awk -v n="$(unseen_ns "$WORK/pulses.out")" 'BEGIN { printf "%.6f", n / 1e9 }')
check_eq "pulses: the 4 threads' TASK_CLOCK ($tc s) within 1 % of their CPU time (the process's from their start to their end: $cpu s, at most $stolen s stolen meanwhile; $unseen s said to have gone to no thread)" 1 \
	"$(within_short "$tc" "$cpu" 1 "$stolen" "$unseen")"
unl=$(unlisted_task_clock "$WORK/pulses.db")
tc=$(total_task_clock "$WORK/pulses.db")
check "pulses: under 1 % of the CPU time is unlisted ($unl of $tc s)" \
	test "$(awk -v u="$unl" -v t="$tc" 'BEGIN { print (u < 0.01 * t) ? 1 : 0 }')" = 1
# the premise that makes the two checks above about such samples (a host too busy to let the
# threads sleep between their runs makes them ordinary checks of counting: said, not failed)
most=$(sql "$WORK/pulses.db" "select max(n) from (select count(*) n from counts c join events e on
	e.id = c.event_id join threads t on t.id = c.thread_id where e.name = 'TASK_CLOCK' and t.tid != 0
	and t.tid != (select min(tid) from threads where tid != 0) group by t.id)")
if [ "${most:-99}" -lt 16 ]; then
	check "pulses: the threads ran in under half of the intervals each ($most at most: samples found them as the last one did)" true
else
	skip "pulses: the threads ran in under half of the intervals each" "one ran in ${most:-?} of ~30 (too busy a host): the checks above met few such samples"
fi

# ---- a thread whose exit runs on after the tracker heard of it -----------------------------------
# tests/tools/exit_tail: a worker busy 20 ms that then, in its exit, frees 512 MB of shared memory
# (a memfd its own file table holds last): ~60 ms of its CPU between sched_process_exit, where the
# BPF tracker says it is gone, and its last switch (linux 6.12 kernel/exit.c:945 and 997). At
# -I 50, each interval committed on its own (TD_DEBUG_RAW), a sample falls in that stretch: the
# thread read there must not be forgotten, or what it ran until its last switch goes to the
# unlisted remainder (the totals right, the thread short: 30 of its 84 ms before the fix).
# Reference: its CPU time, exit included (the process's once it is reaped, less the main thread's).
s0=$(steal_ns)
TD_DEBUG_RAW="$WORK/tail.raw" "$TDCTL" run -I 50 -d "$WORK/tail.db" --counting=bpf -- \
	"$TD_BUILDDIR/tests/tools/exit_tail" "$WORK/tail.cpu" 512 20 >/dev/null 2>"$WORK/tail.out"
rc=$?
if grep -q "^exit_tail: 512 MB of shared memory" "$WORK/tail.out"; then
	skip "exit tail" "the workload could not have its memory: $(grep '^exit_tail:' "$WORK/tail.out")"
else
	check_eq "exit tail: run exits 0" 0 "$rc"
	stolen=$(awk -v n="$(stolen_since_ns "$s0")" 'BEGIN { printf "%.6f", n / 1e9 }')
	read -r wtid wcpu <"$WORK/tail.cpu" || wtid=
	cpu=$(awk -v n="${wcpu:-0}" 'BEGIN { printf "%.6f", n / 1e9 }')
	tc=$(sql "$WORK/tail.db" "select coalesce(sum(c.value), 0) / 1e9 from counts c join events e on e.id = c.event_id
		join threads t on t.id = c.thread_id where e.name = 'TASK_CLOCK' and t.tid = ${wtid:-0}")
	unseen=$(awk -v n="$(unseen_ns "$WORK/tail.out")" 'BEGIN { printf "%.6f", n / 1e9 }')
	# the premise: its exit ran longer than an interval (20 ms busy, the rest its exit)
	if awk -v c="$cpu" 'BEGIN { exit !(c - 0.020 > 0.050) }'; then
		check_eq "exit tail: the worker's TASK_CLOCK ($tc s) within 1 % of its CPU time, its exit's included ($cpu s, at most $stolen s stolen meanwhile; $unseen s said to have gone to no thread)" 1 \
			"$(within_short "$tc" "$cpu" 1 "$stolen" "$unseen")"
	else
		skip "exit tail: the worker's TASK_CLOCK against its CPU time" "its exit ran $cpu s less its 20 ms busy: not longer than an interval"
	fi
	check_eq "exit tail: it is said to have exited" 1 "$(sql "$WORK/tail.db" "select exited from threads where tid = ${wtid:-0}")"
	unl=$(unlisted_task_clock "$WORK/tail.db")
	tc=$(total_task_clock "$WORK/tail.db")
	check "exit tail: under 1 % of the CPU time is unlisted ($unl of $tc s)" \
		test "$(awk -v u="$unl" -v t="$tc" 'BEGIN { print (u < 0.01 * t) ? 1 : 0 }')" = 1
fi

# ---- a thread asleep through an attach: no rows but its first and last, alive throughout --------
sleep 30 &
SLEEPER=$!
"$TDCTL" attach "$SLEEPER" -q -I 100 --duration 1.5 --counting=bpf -d "$WORK/asleep.db" >/dev/null 2>&1
check_eq "asleep: attach exits 0" 0 "$?"
kill "$SLEEPER"
check_eq "asleep: its TASK_CLOCK rows are its first interval's and the last's" 2 \
	"$(sql "$WORK/asleep.db" "select count(*) from counts c join events e on e.id = c.event_id join threads t on
		t.id = c.thread_id where e.name = 'TASK_CLOCK' and t.tid = $SLEEPER")"
check_eq "asleep: it was seen to the end (last seen = the last interval's end)" 1 \
	"$(sql "$WORK/asleep.db" "select last_seen_ns = (select max(end_ns) from intervals) from threads where tid = $SLEEPER")"

# ---- the flush runs where a followed thread runs, not on every CPU at every read ---------
# attached to a process that sleeps throughout, the flush program (run on a CPU by an IPI) runs
# when the process is followed (every CPU once), not at each interval's read: no CPU runs a
# followed thread then. Its runs as the kernel counts them (BPF_ENABLE_STATS, read by
# tests/tools/bpf_run_stats), for this tdctl's program only (its descriptors' prog_ids)
RUNS="$TD_BUILDDIR/tests/tools/bpf_run_stats"
if [ -x "$RUNS" ] && [ "$(id -u)" = 0 ]; then
	"$RUNS" - flush >"$WORK/runs.out" 2>"$WORK/runs.err" &
	runs=$!
	for _ in $(seq 100); do
		grep -q ready "$WORK/runs.out" 2>/dev/null && break
		sleep 0.05
	done
	sleep 30 &
	SLEEPER=$!
	"$TDCTL" attach "$SLEEPER" -q -I 100 --duration 3 --counting=bpf -d "$WORK/flush.db" >/dev/null 2>&1 &
	tpid=$!
	marked=0
	while kill -0 "$tpid" 2>/dev/null; do
		grep -h '^prog_id:' /proc/"$tpid"/fdinfo/* 2>/dev/null | awk '{ print $2 }' >>"$WORK/flush.ids"
		# its start done (the switch cost's probe follows and leaves its pair: flushes of its own),
		# the first interval written: the flush's runs so far
		if [ $marked = 0 ] && [ "$(sql "$WORK/flush.db" "select count(*) from intervals" 2>/dev/null || echo 0)" -gt 0 ]; then
			kill -USR1 "$runs"
			marked=1
		fi
		sleep 0.05
	done
	wait "$tpid"
	rc=$?
	kill -INT "$runs"
	wait "$runs"
	kill "$SLEEPER"
	n=$(sql "$WORK/flush.db" "select count(*) from intervals")
	# its runs from the first interval to the end (the last mark before the end, then the end)
	flushes=$(awk -v ids="$(sort -u "$WORK/flush.ids" | tr '\n' ' ')" 'BEGIN { k = split(ids, a, " "); for (i = 1; i <= k; i++) mine[a[i]] = 1 }
		$2 == "flush" && ($4 in mine) && $1 == "mark" { at = $6 } $2 == "flush" && ($4 in mine) && $1 == "prog" { end = $6 }
		END { if (at != "" && end != "") print end - at }' "$WORK/runs.out")
	if [ "$rc" = 0 ] && [ -n "$flushes" ] && [ "$n" -ge 20 ]; then
		check "flush: over $n intervals of a sleeping process, $flushes runs of the flush on $(nproc) CPUs after the first: at its end, not at each read (<= 2 a CPU)" \
			test "$flushes" -le $((2 * $(nproc)))
	else
		skip "flush: runs only where a followed thread runs" \
			"not measured (attach exit $rc, $n intervals, the flush's runs '${flushes}': $(head -c 200 "$WORK/runs.err"))"
	fi
else
	skip "flush: runs only where a followed thread runs" "needs root and tests/tools/bpf_run_stats (a BPF build)"
fi

# ---- against perf stat on the same run (issue 16's first figure) -----------------------
# perf stat -e task-clock runs the workload under tdctl: td-demo's 205 threads (the main
# thread, 4 long ones, 2 bursts of 100 of 5 ms each) are listed, and their TASK_CLOCK sums to
# within 1 % of perf's task-clock of it (tdctl counts the child from its fork, perf from
# its exec: a few ms apart), short by at most what the session's note says went to no
# thread (switches the program did not see: unseen_ns above)
if perf stat -x, -e task-clock -o "$WORK/probe.perf" -- true 2>/dev/null && grep -q task-clock "$WORK/probe.perf"; then
	"$TDCTL" run -I 100 -d "$WORK/vsperf.db" --counting=bpf -- perf stat -x, -e task-clock -o "$WORK/vsperf.csv" -- \
		"$DEMO" -t 4 -b 100 -s 2 >/dev/null 2>"$WORK/vsperf.out"
	check_eq "vs perf stat: run exits 0" 0 "$?"
	demo_pid=$(sql "$WORK/vsperf.db" "select pid from threads where comm = 'td-demo' and tid = pid")
	check_eq "vs perf stat: every thread of td-demo is listed" 205 \
		"$(sql "$WORK/vsperf.db" "select count(*) from threads where pid = ${demo_pid:-0}")"
	tc=$(sql "$WORK/vsperf.db" "select sum(c.value) / 1e9 from counts c join events e on e.id = c.event_id join threads t
		on t.id = c.thread_id where e.name = 'TASK_CLOCK' and t.pid = ${demo_pid:-0}")
	ptc=$(awk -F, '$3 == "task-clock" { printf "%.6f", $1 / 1e3 }' "$WORK/vsperf.csv")
	unseen=$(awk -v n="$(unseen_ns "$WORK/vsperf.out")" 'BEGIN { printf "%.6f", n / 1e9 }')
	check_eq "vs perf stat: td-demo's threads' TASK_CLOCK ($tc s) within 1 % of perf stat's task-clock ($ptc s), short by at most the $unseen s said to have gone to no thread" 1 \
		"$(within_short "$tc" "$ptc" 1 0 "$unseen")"
else
	skip "vs perf stat: TASK_CLOCK against perf stat's task-clock on the same run" "perf stat cannot count task-clock here"
fi

# ---- each thread against its own schedstat, in BPF mode, each program type ---------
hz=$( (zcat /proc/config.gz 2>/dev/null || cat "/boot/config-$(uname -r)" 2>/dev/null) | sed -n 's/^CONFIG_HZ=//p')
TICK_NS=$((1000000000 / ${hz:-100}))
# types: the raw_tp programs relocated against this boot's kernel types file (made by the first
# run into an empty directory: collect/kernel_types.h), the kernel's BTF not parsed
mkdir -p "$WORK/types"
# read_all: the tp_btf program reading every counter (TD_COUNTING_BPF_READ=all), the CPU's clock and
# switches too, which the others count themselves (counting.bpf.c's clocks and switches)
for type in tp_btf raw_tp types read_all; do
	DB="$WORK/threads-$type.db"
	if [ $type = types ] && [ ! -x "${TD_BPFTOOL:-/usr/sbin/bpftool}" ]; then
		skip "types: the raw_tp programs with this boot's kernel types file" "bpftool is missing"
		continue
	fi
	s0=$(steal_ns)
	prog=$type
	[ $type = read_all ] && prog=tp_btf
	TD_KERNEL_TYPES_CACHE=$([ $type = types ] && echo "$WORK/types") TD_KERNEL_TYPES_TAKE=always \
		TD_COUNTING_BPF_READ=$([ $type = read_all ] && echo all) TD_COUNTING_BPF_TYPE=$prog "$TDCTL" run -I 100 -d "$DB" --counting=bpf -- "$DEMO" -t 4 -l 2 -s 2 \
		-R "$WORK/$type.rt" >/dev/null 2>"$WORK/$type.out"
	check_eq "$type: run exits 0" 0 "$?"
	stolen=$(stolen_since_ns "$s0")
	[ $type = types ] && said="raw_tp sched_switch, relocated against this boot's kernel types file"
	[ $type = types ] || said="$prog sched_switch"
	check_match "$type: those programs count" "note: counted by BPF at each context switch \($said" \
		"$(cat "$WORK/$type.out")"
	if [ $type = read_all ]; then
		check "$type: and reads every counter (its note says none counted by the program)" \
			sh -c "! grep -q 'counted by the program itself' '$WORK/$type.out'"
	else
		check_match "$type: and counts the CPU's clock and switches itself (2 of software.td's events)" \
			"$per_cpu, 2 of them \(a CPU's clock, its switches\) counted by the program itself" \
			"$(cat "$WORK/$type.out")"
	fi
	check_eq "$type: the workload reported its 7 threads" 7 "$(wc -l <"$WORK/$type.rt")"
	# the main thread reports before it frees 32 MiB and exits: the 6 workers report as they end
	main=$(sql "$DB" "select tid from threads where tid = pid")
	awk -v main="$main" '$1 != main' "$WORK/$type.rt" >"$WORK/$type.workers"
	n=$(wc -l <"$WORK/$type.workers")
	sql "$DB" "select t.tid, sum(c.value) from counts c join events e on e.id = c.event_id join threads t
		on t.id = c.thread_id where e.name = 'TASK_CLOCK' and t.tid != 0 group by t.tid" | tr '|' ' ' >"$WORK/$type.tc"
	# a thread's schedstat (se.sum_exec_runtime) lacks the slice it is running since the last tick or
	# switch: read by the thread itself, it is short by up to one tick (CONFIG_HZ, 100 at the least)
	# ... and short by what the session said went to no thread, at most
	unseen=$(unseen_ns "$WORK/$type.out")
	bad=$(awk -v tick="$TICK_NS" -v stolen="$stolen" -v unseen="$unseen" 'NR == FNR { rt[$1] = $2; next } ($1 in rt) {
		m = rt[$1] / 100 + tick + stolen
		if ($2 > rt[$1] + m || $2 < rt[$1] - m - unseen) printf "%s: %d ns stored, %d ns in schedstat; ", $1, $2, rt[$1] }' \
		"$WORK/$type.workers" "$WORK/$type.tc")
	check_eq "$type: each worker's TASK_CLOCK within 1 % + a tick ($TICK_NS ns) + the time stolen meanwhile (at most $stolen ns) of its own schedstat, short by at most the $unseen ns said to have gone to no thread" "" "$bad"
	# CONTEXT_SWITCHES against the thread's own count (/proc status: voluntary and involuntary, read by
	# the thread as it ends, td-demo -R's third field): a stint counts the switch that began it, and
	# every switch out follows a stint, which the program counts when it saw it begin: no fewer than
	# the thread counted, less one and the switches said unseen (a stint begun unseen is counted by
	# nobody: 2 under its own count with 5 said unseen, under CI's load); and no more than its own
	# count and the switches after its reading (its report, its exit: 20 allowed, the load's
	# preemptions) and those said unseen
	sql "$DB" "select t.tid, sum(c.value) from counts c join events e on e.id = c.event_id join threads t
		on t.id = c.thread_id where e.name = 'CONTEXT_SWITCHES' and t.tid != 0 group by t.tid" | tr '|' ' ' >"$WORK/$type.cs"
	unseen_sw=$(sed -n 's/.* \([0-9][0-9]*\) context switch\(es\)\{0,1\} the program did not see.*/\1/p' "$WORK/$type.out" | head -n 1)
	bad=$(awk -v u="${unseen_sw:-0}" 'NR == FNR { own[$1] = $3; next } ($1 in own) {
		if ($2 < own[$1] - 1 - u || $2 > own[$1] + 20 + u) printf "%s: %d stored, %d its own; ", $1, $2, own[$1] }' \
		"$WORK/$type.workers" "$WORK/$type.cs")
	check_eq "$type: each worker's CONTEXT_SWITCHES within its own count - 1 and + 20, give or take the ${unseen_sw:-0} switches said unseen" "" "$bad"
	check_eq "$type: each worker's switches are stored" 6 \
		"$(awk 'NR == FNR { rt[$1] = 1; next } ($1 in rt) { seen++ } END { print seen + 0 }' "$WORK/$type.workers" "$WORK/$type.cs")"
	check_eq "$type: each worker is stored" 6 \
		"$(awk 'NR == FNR { rt[$1] = 1; next } ($1 in rt) { seen++ } END { print seen + 0 }' "$WORK/$type.workers" "$WORK/$type.tc")"
done

# ---- a sums map too small: said, and nothing lost from the total ------------------
DB="$WORK/small.db"
s0=$(steal_ns)
"$TDCTL" run -I 100 -d "$DB" --counting=bpf --bpf-map-entries 8 -- "$DEMO" -t 4 -b 100 -s 2 -R "$WORK/small.cpu" \
	>/dev/null 2>"$WORK/small.out"
check_eq "small map: run exits 0" 0 "$?"
stolen=$(awk -v n="$(stolen_since_ns "$s0")" 'BEGIN { printf "%.6f", n / 1e9 }')
check_match "small map: a warning says what went to no thread and what to do" \
	"tdctl: BPF counting: the sums map \(8 threads, at most 8 used\) was full for [1-9][0-9]* context switch(es)? of followed threads: [0-9.]+ s of their CPU time .*raise --bpf-map-entries" \
	"$(cat "$WORK/small.out")"
cpu=$(awk '$1 == "CPU_NS" { printf "%.6f", $3 / 1e9 }' "$WORK/small.cpu")
tc=$(total_task_clock "$DB")
check_eq "small map: TASK_CLOCK of all targets ($tc s) still within 1 % of the process's ($cpu s, at most $stolen s stolen meanwhile): the rest is unlisted" 1 \
	"$(within "$tc" "$cpu" 1 "$stolen")"

# the same remainder under a tree's report (soft-tree.td: a tree over software events); a map of 2
# threads is full whatever the host's load: the 4 workers and the main thread live the whole second
# (with 8, the 20 short-lived threads a second had to overlap enough, which a loaded host spreads out)
EV="$WORK/events"
mkdir "$EV"
cp "$TD_SRCDIR"/events/*.td "$TD_SRCDIR/tests/data/live/soft-tree.td" "$EV/"
"$TDCTL" run -q -I 100 -d "$WORK/tree.db" --counting=bpf --bpf-map-entries 2 --events-dir "$EV" --pmu td_soft_tree \
	-- "$DEMO" -t 4 -b 20 -s 1 >/dev/null 2>"$WORK/tree.err"
check_grep "small map, a tree: the map was full (the premise)" "the sums map (2 threads, at most 2 used) was full" "$WORK/tree.err"
check_match "small map, a tree's report: the remainder is said to come from the BPF program's sums" \
	"^ +counted by the BPF program's per-process sums, software events only; the tree above covers the listed threads" \
	"$("$TDCTL" report -d "$WORK/tree.db" --events-dir "$EV" 2>&1)"

# ---- a plan with a hardware group: one perf group per CPU too --------------------------
# hw-small.td: cycles and instructions beside software.td's 6 events (8, the program's most).
# Without a PMU the group is disabled, as on a thread, and BPF counts the rest; with one,
# the program counts it: the workload's instructions, summed over its threads, against
# perf stat's count of the same run (perf runs the workload under tdctl)
cp "$TD_SRCDIR/tests/data/live/hw-small.td" "$EV/"
if perf stat -x, -e instructions -- true 2>&1 | grep -q '^[0-9]*,,instructions'; then
	"$TDCTL" run -q -I 100 -d "$WORK/hw.db" --counting=bpf --events-dir "$EV" --pmu td_hw_small -- \
		perf stat -x, -e instructions -o "$WORK/hw.perf" -- "$DEMO" -t 4 -l 2 -s 1 >/dev/null 2>"$WORK/hw.out"
	check_eq "hardware group: run exits 0" 0 "$?"
	check_match "hardware group: BPF counts all 8 events" "^counted by BPF at each context switch \(.*, 8 events per CPU" \
		"$(sql "$WORK/hw.db" "select counting_note from sessions")"
	ins=$(sql "$WORK/hw.db" "select sum(c.value * 1.0 * c.enabled / c.running) from counts c join events e on
		e.id = c.event_id join threads t on t.id = c.thread_id where e.name = 'INS' and c.running > 0
		and t.pid = (select pid from threads where comm = 'td-demo' limit 1)")
	perf_ins=$(awk -F, '$3 == "instructions" { print $1 }' "$WORK/hw.perf")
	check_eq "hardware group: td-demo's instructions ($ins) within 2 % of perf stat's ($perf_ins)" 1 \
		"$(within "$ins" "$perf_ins" 2)"
else
	"$TDCTL" run -q -I 100 -d "$WORK/hw.db" --counting=bpf --events-dir "$EV" --pmu td_hw_small -- \
		"$DEMO" -t 2 -s 1 >/dev/null 2>"$WORK/hw.out"
	check_eq "hardware group, no PMU: run exits 0" 0 "$?"
	check_match "... BPF counts software.td's 6 events" "^counted by BPF at each context switch \(.*, 6 events per CPU" \
		"$(sql "$WORK/hw.db" "select counting_note from sessions")"
	check_eq "... and the hardware events are stored as not counted, with why" "CYC|failed|1 INS|failed|1" \
		"$(sql "$WORK/hw.db" "select name, status, error != '' from events where name in ('CYC', 'INS') order by name" | tr '\n' ' ' | sed 's/ $//')"
	skip "hardware group: td-demo's instructions against perf stat's" "no hardware PMU on this host (perf stat counts no instructions)"
fi

# ---- a whole planned level on 1,000 threads (issue 32) ------------------------------------
# soft-wide.td's level 3: 48 software events in 8 groups of 6 (TC in each), beside spec 0's, as one
# BPF program: the descriptors are CPUs x events, none per thread (polled from /proc while it
# runs). td-demo -b: 1,000 threads each busy for exactly 1 ms of its own CPU time
# (CLOCK_THREAD_CPUTIME_ID) and 2 for 5 ms: each long thread's TC, in every group, scaled by its
# own group's times, must be its 1 ms within 1 % + 300 us (its start and exit, outside the busy
# loop) + the time stolen meanwhile, short by at most what the session said went to no thread.
# (Against a per-thread perf group of the same thread over the same window: test_counting_bpf's
# test_wide_plan; per-thread mode here would take 1,000 x 54 descriptors.)
cp "$TD_SRCDIR/tests/data/live/soft-wide.td" "$EV/"
s0=$(steal_ns)
"$TDCTL" run -I 1000 -l 3 -d "$WORK/wide.db" --counting=bpf --events-dir "$EV" --pmu td_soft_wide -- \
	"$DEMO" -t 1000 -b 1 -s 1 -R "$WORK/wide.cpu" >/dev/null 2>"$WORK/wide.out" &
tdctl_pid=$!
peak=0
while kill -0 "$tdctl_pid" 2>/dev/null; do
	n=$(ls "/proc/$tdctl_pid/fd" 2>/dev/null | wc -l)
	[ "$n" -gt "$peak" ] && peak=$n
	sleep 0.02
done
wait "$tdctl_pid"
check_eq "wide plan: run exits 0" 0 "$?"
stolen_ns=$(stolen_since_ns "$s0")
note=$(sql "$WORK/wide.db" "select counting_note from sessions")
events=$(echo "$note" | sed -n 's/.*sched_switch, \([0-9]*\) events per CPU.*/\1/p')
check_eq "wide plan: BPF counts the whole level, at least 40 events ($note)" 1 "$([ "${events:-0}" -ge 40 ] && echo 1)"
cpus=$(getconf _NPROCESSORS_CONF)
check_eq "wide plan: tdctl's descriptors ($peak at most) within CPUs x events + 64 ($cpus x $events + 64)" 1 \
	"$([ "$peak" -gt 0 ] && [ "$peak" -le $((cpus * ${events:-0} + 64)) ] && echo 1)"
check_eq "wide plan: every thread is listed" 1003 "$(sql "$WORK/wide.db" "select count(*) from threads where tid != 0")"
# the columns: TID, event, TC scaled, and 1 for the two 5 ms threads -- the last two td-demo starts (at a
# third and two thirds of its run, after the 1,000: the tracker's first_seen_ns orders them), whatever
# their counts (a busy host's stolen time, which TC includes, can put a 1 ms thread's above 3 ms)
sql "$WORK/wide.db" "select t.tid, e.id, cast(sum(c.value * 1.0 * c.enabled / c.running) as integer),
	t.id in (select id from threads where tid != pid and tid != 0 order by first_seen_ns desc limit 2) from counts c
	join events e on e.id = c.event_id join threads t on t.id = c.thread_id where e.name = 'TC' and t.tid != t.pid
	and t.tid != 0 and c.running > 0 group by t.tid, e.id" | tr '|' ' ' >"$WORK/wide.tc"
check_eq "wide plan: TC in all 8 groups for each of the 1,002 threads" 8016 "$(wc -l <"$WORK/wide.tc")"
unseen=$(unseen_ns "$WORK/wide.out")
# A known defect (docs/internals.md, "BPF counting: a short thread"): about one run in ten, ONE thread of
# the 1,000 came out 10-125 us short (in every group, or in some), with nothing said to have gone unseen;
# its likely cause, a gone thread forgotten before its last switch, is fixed (the exit tail above), not
# shown to be the only one. The check lists every thread outside the bound and allows that one thread,
# at most 15 % short and never over; two such threads, or any other miss, fail.
out=$(awk -v stolen="$stolen_ns" -v unseen="$unseen" '$4 == 0 { long[$1] = 1
	if ($3 > 1010000 + 300000 + stolen) { over++; printf "over: %s (group %s): %d ns; ", $1, $2, $3 }
	else if ($3 < 990000 - unseen) { shortt[$1] = 1; if ($3 < 850000 - unseen) deep++; printf "short: %s (group %s): %d ns; ", $1, $2, $3 } }
	$4 == 1 { burst[$1] = 1; if ($3 < 4950000 - unseen) { bshort++; printf "5 ms thread short: %s (group %s): %d ns; ", $1, $2, $3 } }
	END { printf "|%d %d %d %d %d %d", over + 0, length(shortt), deep + 0, length(long), length(burst), bshort + 0 }' "$WORK/wide.tc")
[ -n "${out%%|*}" ] && echo "# wide plan: outside the bound: ${out%%|*}"
set -- ${out##*|}
check_eq "wide plan: each thread's TC, every group's, within 1 % + 300 us + the time stolen ($stolen_ns ns) of its 1 ms, short by at most the $unseen ns said to have gone to no thread (the known short thread aside: $2 short)" \
	"0 1 1000" "$1 $([ "$2" -le 1 ] && [ "$3" = 0 ] && echo 1) $4"
check_eq "wide plan: the two threads started last are td-demo's 5 ms ones (TC at least 5 ms less 1 % in every group)" \
	"2 0" "$5 $6"

# ---- doctor says what a session gets ---------------------------------------------------
check_match "doctor: this host counts threads with BPF, the program loaded, its map's memory said" \
	"^thread counting: BPF at each context switch \(tp_btf sched_switch loads, .* sums map of 8192 threads takes [0-9.]+ MiB of kernel memory" \
	"$("$TDCTL" doctor 2>&1 | grep '^thread counting')"
check_eq "doctor --json: the same" bpf \
	"$("$TDCTL" doctor --json | python3 -c 'import json, sys; print(json.load(sys.stdin)["thread_counting"]["method"])')"
if command -v setpriv >/dev/null && [ "$(id -u)" = 0 ]; then
	check_match "doctor as an unprivileged user: per-thread groups, because BPF needs privileges" \
		"^thread counting: perf groups per thread \(BPF counting did not load: .*EPERM.*CAP_BPF" \
		"$(setpriv --reuid=65534 --regid=65534 --clear-groups "$TDCTL" doctor 2>&1 | grep '^thread counting')"
else
	skip "doctor as an unprivileged user" "needs root and setpriv to switch users"
fi

# ---- bad values ----------------------------------------------------------------------
out=$("$TDCTL" run -d "$WORK/bad.db" --counting=fast -- true 2>&1)
check_eq "--counting=fast: exit 2" 2 "$?"
check_match "... one line naming the choices" "^tdctl: bad '--counting=fast': give auto .*, bpf or per-thread$" "$out"
out=$("$TDCTL" run -d "$WORK/bad.db" --bpf-map-entries 0 -- true 2>&1)
check_eq "--bpf-map-entries 0: exit 2" 2 "$?"
check_match "... one line with the range" "^tdctl: bad '--bpf-map-entries 0': .* 1 to 4194304$" "$out"
finish
