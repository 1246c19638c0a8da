#!/bin/sh
# tdctl attach on a workload with 8 workers + main at attach time and 4 more
# workers born later (3 exit early): every one of the 13 threads is in the
# session with its TID, and each thread's task-clock total agrees within 10%
# with the kernel's own runtime for it (/proc/.../schedstat, first field),
# which the workload reports itself just before each thread ends.
. "$(dirname "$0")/lib.sh"

DB="$WORK/t.db"
"$DEMO" -t 8 -l 4 -L 800 -e 3 -s 3 -w -r "$WORK/ready" -R "$WORK/runtimes" >"$WORK/demo.out" 2>&1 &
DPID=$!
CLEANUP_PIDS="$DPID"
wait_for 20 test -s "$WORK/ready" || { not_ok "workload started"; finish; exit 1; }
check_eq "8 workers and main exist at attach time" 9 "$(ls /proc/$DPID/task | wc -l)"

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

check_eq "session completed" "completed|target exited" "$(sql "$DB" "select status||'|'||message from sessions")"
check_eq "13 threads in the session" 13 "$(sql "$DB" "select count(*) from threads")"
check_eq "13 distinct TIDs" 13 "$(sql "$DB" "select count(distinct tid) from threads")"
check_eq "workload reported 13 thread runtimes" 13 "$(wc -l <"$WORK/runtimes" | tr -d ' ')"
check_eq "all 12 workers ended before the process and are marked exited" 12 \
	"$(sql "$DB" "select count(*) from threads where exited=1 and tid != pid")"

# per thread: task-clock total from the database vs the kernel's runtime
sql "$DB" "select t.tid, sum(c.value) from counts c join threads t on t.id=c.thread_id
           join events e on e.id=c.event_id where e.name='TASK_CLOCK' group by t.tid" >"$WORK/measured"
bad=0
while read -r tid runtime; do
	measured=$(awk -v t="$tid" '$0 ~ "^"t"\\|" { split($0, a, "|"); print a[2] }' "$WORK/measured")
	if [ -z "$measured" ]; then
		not_ok "thread $tid is in the database"
		bad=1
		continue
	fi
	if awk -v m="$measured" -v r="$runtime" 'BEGIN { d = m - r; if (d < 0) d = -d; exit !(r > 0 && d <= 0.10 * r) }'; then
		ok "thread $tid task-clock $measured ns within 10% of schedstat $runtime ns"
	else
		not_ok "thread $tid task-clock $measured ns within 10% of schedstat $runtime ns"
		bad=1
	fi
done <"$WORK/runtimes"
check "every thread has at least one interval with counts" test "$(sql "$DB" "select count(distinct thread_id) from counts")" = 13
check_match "summary names the process and all 13 threads" "process $DPID .*13 threads" "$(cat "$WORK/attach.err")"
finish
