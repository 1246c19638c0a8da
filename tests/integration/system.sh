#!/bin/sh
# tdctl record --system: one group set per online CPU; rows per CPU with core
# and socket from sysfs, counts for every CPU, per-CPU, per-core and
# per-socket metric values. Needs root or perf_event_paranoid <= 0: without
# them the test checks the one-line refusal and skips the rest, with the reason.
. "$(dirname "$0")/lib.sh"

DB="$WORK/s.db"
ncpu=$(nproc --all 2>/dev/null)
# the online CPUs, one per line, from sysfs ranges like 0-3,5
cpus=$(awk -F, '{ for (i = 1; i <= NF; i++) { n = split($i, r, "-"); for (c = r[1]; c <= (n == 2 ? r[2] : r[1]); c++) print c } }' \
	/sys/devices/system/cpu/online)
online=$(echo "$cpus" | wc -l | tr -d ' ')
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)
if [ "$(id -u)" -ne 0 ] && [ "$paranoid" -gt 0 ]; then
	"$TDCTL" record --system --duration 1 -d "$DB" 2>"$WORK/err"
	check_eq "not root, paranoid $paranoid: refused with exit 1" 1 "$?"
	check_match "one line saying what to do" "^tdctl: system-wide counting needs root" "$(cat "$WORK/err")"
	check_eq "exactly one line" 1 "$(wc -l <"$WORK/err" | tr -d ' ')"
	skip "record --system counts every online CPU" "needs root or perf_event_paranoid <= 0 (is $paranoid)"
	finish
	exit $?
fi

"$DEMO" -t 2 -l 0 -e 0 -s 4 >/dev/null 2>&1 &
CLEANUP_PIDS=$!
"$TDCTL" record --system --duration 3 -I 500 --thread-metrics -d "$DB" 2>"$WORK/err"
check_eq "record --system --duration 3 exits 0" 0 "$?"
check_eq "session kind system, completed" "system|completed" "$(sql "$DB" "select kind||'|'||status from sessions")"
check_eq "one CPU row per online CPU ($online; nproc --all $ncpu)" "$online" \
	"$(sql "$DB" "select count(*) from targets where kind='cpu' and cpu is not null")"
check_eq "CPU numbers are those of /sys/devices/system/cpu/online" "$(echo $cpus)" \
	"$(sql "$DB" "select cpu from targets where kind='cpu' and cpu is not null order by cpu" | tr '\n' ' ' | sed 's/ $//')"
check_eq "core and socket of every CPU as sysfs says" 0 "$(
	for c in $(sql "$DB" "select cpu from targets where kind='cpu' and cpu is not null"); do
		want="$(cat /sys/devices/system/cpu/cpu$c/topology/core_id)|$(cat /sys/devices/system/cpu/cpu$c/topology/physical_package_id)"
		got=$(sql "$DB" "select core||'|'||socket from targets where kind='cpu' and cpu=$c")
		[ "$want" = "$got" ] || echo "cpu$c: want $want got $got"
	done | wc -l | tr -d ' ')"
check_eq "every CPU has TASK_CLOCK counts with time enabled" "$online" \
	"$(sql "$DB" "select count(distinct t.cpu) from counts c join targets t on t.id=c.thread_id
		join events e on e.id=c.event_id where e.name='TASK_CLOCK' and c.enabled > 0 and t.cpu is not null")"
check "the busy demo made CPU time on the CPUs (sum of TASK_CLOCK > 1 s over 3 s)" test \
	"$(sql "$DB" "select sum(c.value) / 1000000 from counts c join events e on e.id=c.event_id where e.name='TASK_CLOCK'")" -gt 1000
check_eq "per-CPU CPU_Time (--thread-metrics) equals TASK_CLOCK / 1e9 (all rows)" "1|0" \
	"$(sql "$DB" "select count(*) > 0, sum(abs(m.value - c.value * 1.0 * c.enabled / c.running / 1e9) > 1e-12)
		from counts c join events e on e.id=c.event_id and e.name='TASK_CLOCK'
		join metric_values m on m.interval_id=c.interval_id and m.target_id=c.thread_id and m.name='CPU_Time'
		where c.running > 0")"
sockets=$(cat /sys/devices/system/cpu/cpu*/topology/physical_package_id | sort -u | wc -l)
check_eq "one per-socket aggregate per socket ($sockets)" "$sockets" \
	"$(sql "$DB" "select count(*) from targets where kind='cpu' and cpu is null and core is null")"
check_eq "per-socket CPU_Time = sum of its CPUs' CPU_Time, every interval" "1|0" \
	"$(sql "$DB" "select count(*) > 0, sum(coalesce(abs(s.value - (select sum(m.value) from metric_values m
			join targets t on t.id=m.target_id where m.interval_id=s.interval_id and t.cpu is not null
			and t.socket=st.socket and m.name='CPU_Time')) > 1e-9, 1))
		from metric_values s join targets st on st.id=s.target_id
		where st.kind='cpu' and st.cpu is null and st.core is null and s.name='CPU_Time'")"
check "per-core aggregates exist" test \
	"$(sql "$DB" "select count(*) from metric_values m join targets t on t.id=m.target_id
		where t.kind='cpu' and t.cpu is null and t.core is not null and m.name='CPU_Time'")" -gt 0
"$TDCTL" record -d "$DB" 2>"$WORK/bad"
check_eq "record without --system: exit 2" 2 "$?"
check_match "says to give --system" "give --system" "$(cat "$WORK/bad")"
# ---- no dishonest zeros: context switches and page faults are counted --------------
# Members added to a CPU-wide group that already counted were never scheduled in: they
# read 0 with running = enabled for the whole session while perf stat -a counted
# hundreds. The switches counted are checked against bounds the kernel sets, not
# against another tool's window (two windows "over the same seconds" are not the same
# on a loaded host): the CONTEXT_SWITCHES software event fires in __schedule's
# prev != next branch, where rq->nr_switches is incremented (kernel/sched/core.c:6713-6714,
# context_switch -> prepare_task_switch -> perf_event_task_sched_out, :5161,
# include/linux/perf_event.h:1549-1550; linux 6.12.117), and /proc/stat's ctxt is the sum
# of nr_switches: the record's count over all CPUs is at most the ctxt difference around
# the record. And two processes handing a byte back and forth N times on one CPU (perf
# bench sched pipe), started after the first interval is stored and ended before the
# record is stopped, need at least 2N switches on that CPU (each must be switched in to
# answer): the record counts at least that. Page faults have no such twin (perf's event
# fires in the arch fault handler, /proc/vmstat's pgfault in handle_mm_fault, which
# get_user_pages calls too): they are checked for not being 0.
DB2="$WORK/s2.db"
sh -c 'end=$(($(date +%s) + 60)); while [ $(date +%s) -lt $end ]; do sleep 0.01; head -c 200000 /dev/zero | wc -c >/dev/null; done' &
load=$!
CLEANUP_PIDS="$CLEANUP_PIDS $load"
ctxt0=$(awk '$1 == "ctxt" { print $2 }' /proc/stat)
"$TDCTL" record --system -q --duration 60 -I 500 -d "$DB2" 2>"$WORK/rec2.err" &
rec=$!
CLEANUP_PIDS="$CLEANUP_PIDS $rec"
wait_for 30 sh -c "[ \"\$(sqlite3 '$DB2' 'select count(*) from intervals' 2>/dev/null)\" -gt 0 ]"
PIPES=0
if command -v perf >/dev/null && taskset -c 0 perf bench sched pipe -l 5000 >"$WORK/pipe.out" 2>&1; then
	PIPES=5000
fi
sleep 1
kill -INT "$rec"
wait "$rec"
check_eq "record --system (switches and faults) exits 0 when stopped" 0 "$?"
ctxt1=$(awk '$1 == "ctxt" { print $2 }' /proc/stat)
kill "$load" 2>/dev/null
sum2() { sql "$DB2" "select coalesce(sum(c.value), 0) from counts c join events e on e.id = c.event_id join targets t
	on t.id = c.thread_id where t.kind = 'cpu' and t.cpu is not null and e.name = '$1'"; }
cs=$(sum2 CONTEXT_SWITCHES) pf=$(sum2 PAGE_FAULTS)
check "context switches are counted, not 0 ($cs)" test "$cs" -gt 50
check "page faults are counted, not 0 ($pf)" test "$pf" -gt 50
check "switches at most the kernel's over a window around the record ($cs of $((ctxt1 - ctxt0)) in /proc/stat)" \
	test "$cs" -le $((ctxt1 - ctxt0))
if [ "$PIPES" -gt 0 ]; then
	cs0=$(sql "$DB2" "select coalesce(sum(c.value), 0) from counts c join events e on e.id = c.event_id join targets t
		on t.id = c.thread_id where t.kind = 'cpu' and t.cpu = 0 and e.name = 'CONTEXT_SWITCHES'")
	check "switches on CPU 0 at least the 2 x $PIPES a pinned pipe ping-pong inside the record needs ($cs0)" \
		test "$cs0" -ge $((2 * PIPES))
else
	skip "switches at least a pinned pipe ping-pong's" "perf (perf bench sched pipe) is not installed or did not run"
fi
# the report of a system-wide session without a tree shows the CPUs (it said "no thread
# was counted"): a row per CPU, and the total's switches per second are the counts over
# the session's wall time
"$TDCTL" report -d "$DB2" >"$WORK/sysrep.txt" 2>&1
check_grep "report: a group of every CPU" "system-wide, $online CPU" "$WORK/sysrep.txt"
check_eq "report: a row per CPU" "$online" "$(grep -cE '^ +cpu[0-9]+ ' "$WORK/sysrep.txt")"
want=$(sql "$DB2" "select printf('%.1f', $cs / ((ended_ns - started_ns) / 1e9)) from sessions")
check_eq "report: switches per second of all CPUs = the counts over the session's time" "$want" \
	"$(awk '/^system-wide/ { s = 1 } s && $1 == "all" { print $4; exit }' "$WORK/sysrep.txt")"
finish
