#!/bin/sh
# Metric values written while collecting: software.td's info metrics per
# process for every interval and, with --thread-metrics, per thread too,
# equal to what the stored raw counts give, with confidence =
# running/enabled of the counts they read.
. "$(dirname "$0")/lib.sh"

# by default: the process's values every interval, no thread's (the counts are the record)
DB="$WORK/default.db"
TD_DEBUG_SUMMARY=1 "$TDCTL" run -I 200 -d "$DB" -- "$DEMO" -t 2 -l 0 -e 0 -s 1 >/dev/null 2>"$WORK/err"
check_eq "default: run exits 0" 0 "$?"
check_eq "default: CPU_Time of the process in every interval, of no thread" \
	"$(sql "$DB" "select count(*) from intervals")|0" \
	"$(sql "$DB" "select (select count(*) from metric_values where target_kind = 'process' and name = 'CPU_Time'),
		(select count(*) from metric_values where target_kind = 'thread')")"
check_eq "default: the process's CPU_Time is the sum of its threads' TASK_CLOCK in each interval" 0 \
	"$(sql "$DB" "select count(*) from metric_values m where m.target_kind = 'process' and m.name = 'CPU_Time'
		and abs(m.value - (select sum(c.value) / 1e9 from counts c join events e on e.id = c.event_id
			where e.name = 'TASK_CLOCK' and c.interval_id = m.interval_id)) > 1e-9")"

# what collecting cost, per interval: tdctl's CPU time and counter reads, and the summary's total
check_eq "default: every interval records the collector's CPU time and reads (> 0)" \
	"$(sql "$DB" "select count(*) from intervals")" \
	"$(sql "$DB" "select count(*) from intervals where collector_ns > 0 and counter_reads > 0")"
check_eq "default: the last interval records its system calls (> 0): the sum covers every interval" 1 \
	"$(sql "$DB" "select syscalls > 0 from intervals order by seq desc limit 1")"
check_match "default: the summary gives reads and system calls per interval, from the intervals" \
	"$(sql "$DB" "select sum(counter_reads), sum(syscalls), count(*) from intervals" |
		awk -F'|' '{ printf "%.0f counter reads and %.0f read/write system calls per interval", $1 / $3, $2 / $3 }')" \
	"$(cat "$WORK/err")"
# the read and write system calls (/proc/self/io) are read at most once a second and for the last
# interval: an interval's count is since the previous interval that has one
DB2="$WORK/syscalls.db"
"$TDCTL" run -I 100 -d "$DB2" -- "$DEMO" -t 2 -l 0 -e 0 -s 3 >/dev/null 2>"$WORK/err2"
check_eq "system calls: run -I 100 for 3 s exits 0" 0 "$?"
check "system calls: read for some intervals, not all (at -I 100, at most once a second: $(sql "$DB2" \
	"select count(syscalls) || ' of ' || count(*) from intervals"))" test "$(sql "$DB2" \
	"select count(syscalls) > 1 and count(syscalls) <= 1 + (max(end_ns) - min(start_ns)) / 1e9 + 1 from intervals")" = 1
check_eq "system calls: two readings before the last are a second apart or more" 0 \
	"$(sql "$DB2" "select count(*) from intervals a join intervals b on b.seq = (select min(seq) from intervals c
		where c.seq > a.seq and c.syscalls is not null) where a.syscalls is not null
		and b.seq < (select max(seq) from intervals) and b.end_ns - a.end_ns < 1e9")"
check_match "system calls: the summary's per interval is their sum over every interval" \
	"$(sql "$DB2" "select sum(syscalls), count(*) from intervals" |
		awk -F'|' '{ printf "and %.0f read/write system calls per interval", $1 / $2 }')" \
	"$(cat "$WORK/err2")"
check_match "default: the summary says what topdown used: the intervals' sum" \
	"topdown used $(sql "$DB" "select printf('%.1f', sum(collector_ns) / 1e6) from intervals") ms of CPU \([0-9.]+ % of the target's" \
	"$(cat "$WORK/err")"
# the whole command (getrusage once the summary is read) holds its start (to the first interval's
# start), the sampling the intervals recorded (from there to the last interval's write) and the
# summary's read, one after the other (each printed to 0.1 ms); the start holds the CPU of the
# processes that measured the switch cost, when they ran, and says how much
whole=$(sed -n 's/^  the whole command used \([0-9.]*\) ms of CPU: \([0-9.]*\) ms to its first interval, \([0-9.]*\) ms for this summary\( ([0-9.]* ms of its start in the two processes that measured the switch cost)\)\{0,1\}$/\1 \2 \3/p' "$WORK/err")
check "default: the summary gives the whole command's CPU, at least its start, sampling and summary ($whole)" \
	awk -v w="$whole" -v c="$(sql "$DB" "select sum(collector_ns) / 1e6 from intervals")" \
	'BEGIN { if (split(w, a, " ") != 3) exit 1; exit !(a[2] > 0 && a[3] > 0 && a[1] + 0.2 >= a[2] + c + a[3]) }'
# not counted: events the kernel refused (this host has no PMU: the hardware files' events) and
# /proc's switches of a process left out (n/c)
case $("$TDCTL" doctor 2>/dev/null | sed -n 's/^rung: *//p') in
software-only) same_summary default "$DB" "$WORK/err" "not counted: " " n/c " ;;
*) same_summary default "$DB" "$WORK/err" ;;
esac

# many threads counted by perf groups per thread, each with its own enabled and running, one
# started late (td-demo -l 1) and one that exits at half time (-e 1): their lives are shorter
DB="$WORK/threads.db"
TD_DEBUG_SUMMARY=1 "$TDCTL" run -I 100 --counting=per-thread -d "$DB" -- "$DEMO" -t 6 -l 1 -e 1 -s 1 \
	>/dev/null 2>"$WORK/err"
check_eq "per-thread: run exits 0" 0 "$?"
same_summary per-thread "$DB" "$WORK/err" "threads:"

# multiplexed and partly counted counts: tests/unit/test_summary.c (a session with a tree prints
# no summary in 'tdctl report' to compare with)

DB="$WORK/m.db"
"$TDCTL" run -q -I 200 --thread-metrics -d "$DB" -- "$DEMO" -t 2 -l 0 -e 0 -s 1 >/dev/null 2>"$WORK/err"
check_eq "run exits 0" 0 "$?"
nint=$(sql "$DB" "select count(*) from intervals")
check "at least 5 intervals" test "$nint" -ge 5
check_eq "every info metric of software.td has values" \
	"CPU_Time CPU_Utilization Faults_per_s Major_Faults_per_s Migrations_per_s Switches_per_s" \
	"$(sql "$DB" "select group_concat(name, ' ') from (select distinct name from metric_values order by name)")"
check_eq "every thread has CPU_Time in every interval it was counted (running > 0)" 0 \
	"$(sql "$DB" "select count(*) from counts c join events e on e.id=c.event_id and e.name='TASK_CLOCK'
		left join metric_values m on m.interval_id=c.interval_id and m.target_id=c.thread_id and m.name='CPU_Time'
		where c.running > 0 and m.value is null")"
check_eq "an interval a thread was enabled in but not counted (running = 0 < enabled) has CPU_Time NA, not 0" 0 \
	"$(sql "$DB" "select count(*) from counts c join events e on e.id=c.event_id and e.name='TASK_CLOCK'
		join metric_values m on m.interval_id=c.interval_id and m.target_id=c.thread_id and m.name='CPU_Time'
		where c.running = 0 and c.enabled > 0 and m.value is not null")"
check_eq "an interval a thread did not run in (enabled = running = 0) has CPU_Time 0, and its process a value" 0 \
	"$(sql "$DB" "select count(*) from counts c join events e on e.id=c.event_id and e.name='TASK_CLOCK'
		join metric_values m on m.interval_id=c.interval_id and m.target_id=c.thread_id and m.name='CPU_Time'
		join metric_values p on p.interval_id=c.interval_id and p.target_kind='process' and p.name='CPU_Time'
		where c.running = 0 and c.enabled = 0 and (m.value is not 0.0 or p.value is null)")"
check "some thread CPU_Time values are above zero" test \
	"$(sql "$DB" "select count(*) from metric_values where target_kind='thread' and name='CPU_Time' and value > 0")" -gt 0
check_eq "thread CPU_Time = scaled TASK_CLOCK / 1e9 (all rows)" 0 \
	"$(sql "$DB" "select count(*) from counts c join events e on e.id=c.event_id and e.name='TASK_CLOCK'
		join metric_values m on m.interval_id=c.interval_id and m.target_id=c.thread_id and m.name='CPU_Time'
		where abs(m.value - c.value * 1.0 * c.enabled / c.running / 1e9) > 1e-12")"
check_eq "thread CPU_Utilization = TASK_CLOCK / 1e9 / interval length (within 1 %)" 0 \
	"$(sql "$DB" "select count(*) from counts c join events e on e.id=c.event_id and e.name='TASK_CLOCK'
		join metric_values m on m.interval_id=c.interval_id and m.target_id=c.thread_id and m.name='CPU_Utilization'
		where c.value > 0 and abs(m.value - c.value / 1e9 / ((m.end_ns - m.start_ns) / 1e9)) > 0.01 * m.value")"
check_eq "one process target, named after the demo" "1|td-demo" \
	"$(sql "$DB" "select count(*)||'|'||min(comm) from targets where kind='process'")"
check_eq "process CPU_Time = sum of its threads' CPU_Time, every interval" 0 \
	"$(sql "$DB" "select count(*) from metric_values p where p.target_kind='process' and p.name='CPU_Time'
		and abs(p.value - (select sum(t.value) from metric_values t where t.interval_id=p.interval_id
			and t.target_kind='thread' and t.pid=p.pid and t.name='CPU_Time')) > 1e-9")"
check_eq "process Switches_per_s present in every interval" "$nint" \
	"$(sql "$DB" "select count(*) from metric_values where target_kind='process' and name='Switches_per_s'")"
check_eq "confidence = running/enabled of TASK_CLOCK for CPU_Time (all thread rows)" 0 \
	"$(sql "$DB" "select count(*) from counts c join events e on e.id=c.event_id and e.name='TASK_CLOCK'
		join metric_values m on m.interval_id=c.interval_id and m.target_id=c.thread_id and m.name='CPU_Time'
		where c.running > 0 and abs(m.confidence - 1.0 * c.running / c.enabled) > 1e-12")"
# hardware metric values exist exactly when doctor says this host counts hardware
"$TDCTL" doctor --json >"$WORK/doctor.json"
rung=$(sql :memory: "select json_extract(readfile('$WORK/doctor.json'), '\$.rung')")
hwvals=$(sql "$DB" "select count(*) from metric_values where name not in
	('CPU_Time', 'CPU_Utilization', 'Faults_per_s', 'Major_Faults_per_s', 'Migrations_per_s', 'Switches_per_s')")
case $rung in
software-only) check_eq "rung $rung: no metric value from a hardware events file" 0 "$hwvals" ;;
*) check "rung $rung: the hardware events file's metrics have values ($hwvals)" test "$hwvals" -gt 0 ;;
esac
finish
