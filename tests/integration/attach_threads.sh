#!/bin/sh
# tdctl attach on a workload with 8 workers + main at attach time and 4 more
# workers born later (3 exit early): every one of the 13 threads is in the
# session with its TID, and each thread's task-clock total agrees within 10%
# with the kernel's own runtime for it (/proc/.../schedstat, first field),
# which the workload reports itself just before each thread ends (over by at
# most what the hypervisor stole meanwhile, which schedstat leaves out).
# Then a workload idle for its first second (threads that do not run give
# intervals with enabled = running = 0): the summary's CPU s of every thread is
# a number agreeing with the database's task-clock sum for that thread, and
# the /proc switch rates (vol/s, invol/s) of threads that exited early are numbers.
. "$(dirname "$0")/lib.sh"

DB="$WORK/t.db"
"$DEMO" -t 8 -l 4 -L 800 -e 3 -s 3 -w -r "$WORK/ready" -R "$WORK/runtimes" >"$WORK/demo.out" 2>&1 &
DPID=$!
CLEANUP_PIDS="$DPID"
wait_for 20 test -s "$WORK/ready" || { not_ok "workload started"; finish; exit 1; }
check_eq "8 workers and main exist at attach time" 9 "$(ls /proc/$DPID/task | wc -l)"

# the time the hypervisor stole from all CPUs (/proc/stat's eighth number, in USER_HZ ticks), ns
steal_ns() { awk -v hz="$(getconf CLK_TCK)" '$1 == "cpu" { printf "%.0f", $9 * 1e9 / hz; exit }' /proc/stat; }
STEAL0=$(steal_ns)
"$TDCTL" attach "$DPID" -I 250 -d "$DB" >"$WORK/attach.out" 2>"$WORK/attach.err" &
TPID=$!
CLEANUP_PIDS="$DPID $TPID"
# start the work once the session is recorded (the collector is attached)
wait_for 20 sh -c "[ \"\$(sqlite3 '$DB' \"select count(*) from sessions where status='running'\" 2>/dev/null)\" = 1 ]" ||
	not_ok "session recorded as running while attached"
kill -USR1 "$DPID"
wait "$TPID"
check_eq "tdctl attach exits 0 when the process ends" 0 "$?"
wait "$DPID"
# TASK_CLOCK runs on through time the hypervisor took while the thread was on its CPU (perf's
# clock), which schedstat leaves out (PARAVIRT_TIME_ACCOUNTING: linux 6.12 kernel/sched/core.c
# update_rq_clock_task 779-790 takes the steal from clock_task): a thread may be over by at most
# what was stolen meanwhile, plus one tick that a reading may hide
STOLEN=$(($(steal_ns) - STEAL0 + 1000000000 / $(getconf CLK_TCK)))

check_eq "session completed" "completed|target exited" "$(sql "$DB" "select status||'|'||message from sessions")"
check_eq "13 threads in the session, and the unlisted remainder (tid 0)" "13|1" \
	"$(sql "$DB" "select sum(tid != 0), sum(tid = 0) from threads")"
check_eq "13 distinct TIDs" 13 "$(sql "$DB" "select count(distinct tid) from threads where tid != 0")"
check_eq "workload reported 13 thread runtimes" 13 "$(wc -l <"$WORK/runtimes" | tr -d ' ')"
check_eq "all 12 workers ended before the process and are marked exited" 12 \
	"$(sql "$DB" "select count(*) from threads where exited=1 and tid != pid")"

# per thread: task-clock total from the database vs the kernel's runtime
sql "$DB" "select t.tid, sum(c.value) from counts c join threads t on t.id=c.thread_id
           join events e on e.id=c.event_id where e.name='TASK_CLOCK' group by t.tid" >"$WORK/measured"
bad=0
while read -r tid runtime _switches; do
	measured=$(awk -v t="$tid" '$0 ~ "^"t"\\|" { split($0, a, "|"); print a[2] }' "$WORK/measured")
	if [ -z "$measured" ]; then
		not_ok "thread $tid is in the database"
		bad=1
		continue
	fi
	if awk -v m="$measured" -v r="$runtime" -v s="$STOLEN" 'BEGIN { d = m - r; exit !(r > 0 && d >= -0.10 * r && d <= 0.10 * r + s) }'; then
		ok "thread $tid task-clock $measured ns within 10% of schedstat $runtime ns (over by at most $STOLEN ns stolen)"
	else
		not_ok "thread $tid task-clock $measured ns within 10% of schedstat $runtime ns (over by at most $STOLEN ns stolen)"
		bad=1
	fi
done <"$WORK/runtimes"
check "every thread has at least one interval with counts" test "$(sql "$DB" "select count(distinct c.thread_id) from counts c join threads t on t.id = c.thread_id where t.tid != 0")" = 13
check_match "summary names the process and all 13 threads" "process $DPID .*13 threads" "$(cat "$WORK/attach.err")"

# summary_rows FILE: "TID CPU_s util switch/s vol/s invol/s ..." of each thread row of a summary
# (the TID is 7 wide and the comm 15, so the numbers start at column 26 whatever the comm)
summary_rows() {
	awk 'substr($0, 1, 9) ~ /^ +[0-9]+$/ { print $1, substr($0, 26) }' "$1"
}

# a workload that idles a second (in the kernel's eyes: not running) before it works
DB2="$WORK/idle.db"
"$DEMO" -t 3 -l 0 -e 2 -s 2 -w -r "$WORK/ready2" >/dev/null 2>&1 &
DPID=$!
CLEANUP_PIDS="$DPID"
wait_for 20 test -s "$WORK/ready2" || { not_ok "idle workload started"; finish; exit 1; }
"$TDCTL" attach "$DPID" -I 250 -d "$DB2" >/dev/null 2>"$WORK/idle.err" &
TPID=$!
CLEANUP_PIDS="$DPID $TPID"
wait_for 20 sh -c "[ \"\$(sqlite3 '$DB2' \"select count(*) from intervals\" 2>/dev/null)\" -ge 4 ]" ||
	not_ok "four idle intervals recorded"
kill -USR1 "$DPID"
wait "$TPID"
check_eq "tdctl attach on the idle-first workload exits 0" 0 "$?"
wait "$DPID"
check "some thread had an interval it did not run in (enabled = running = 0)" test \
	"$(sql "$DB2" "select count(*) from counts c join events e on e.id=c.event_id
	               where e.name='TASK_CLOCK' and c.enabled=0 and c.running=0")" -gt 0
summary_rows "$WORK/idle.err" >"$WORK/idle.rows"
check_eq "summary has a row for each of the 4 threads" 4 "$(wc -l <"$WORK/idle.rows" | tr -d ' ')"
sql "$DB2" "select t.tid, sum(c.value) from counts c join threads t on t.id=c.thread_id
            join events e on e.id=c.event_id where e.name='TASK_CLOCK' group by t.tid" | tr '|' ' ' >"$WORK/idle.db.tc"
while read -r tid cpu rest; do
	db=$(awk -v t="$tid" '$1 == t { print $2 }' "$WORK/idle.db.tc")
	# within 10%, or within the rounding of the 3 decimals shown
	if awk -v s="$cpu" -v d="$db" 'BEGIN { if (s !~ /^[0-9]+\.[0-9]+$/ || d == "") exit 1
		d /= 1e9; e = s - d; if (e < 0) e = -e; exit !(e <= 0.10 * d || e <= 0.0005) }'; then
		ok "thread $tid summary CPU s $cpu matches task-clock $db ns"
	else
		not_ok "thread $tid summary CPU s '$cpu' is a number within 10% of task-clock '$db' ns"
	fi
done <"$WORK/idle.rows"
check_eq "2 workers exited at half time, over half a second before the last thread" 2 \
	"$(sql "$DB2" "select count(*) from threads where exited=1 and tid != pid and
	               last_seen_ns < (select max(last_seen_ns) from threads) - 500000000")"
sql "$DB2" "select tid from threads where exited=1 and tid != pid and
            last_seen_ns < (select max(last_seen_ns) from threads) - 500000000" >"$WORK/early"
while read -r tid; do
	sw=$(awk -v t="$tid" '$1 == t { print $5, $6 }' "$WORK/idle.rows")
	check_match "early-exited thread $tid has numeric vol/s and invol/s" '^[0-9]+\.[0-9] [0-9]+\.[0-9]$' "$sw"
done <"$WORK/early"
finish
