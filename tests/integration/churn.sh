#!/bin/sh
# Thread churn under tdctl attach: a workload creating and ending 1,000
# threads a second for 10 s (each living 10 ms to 4 s). Every thread that
# lived at least two intervals (the default 1 s) is in the database, and
# tdctl's open perf descriptor count is back to its starting value once the churn
# is over. (The /proc tracker looks every 20 ms while tdctl gets the CPU; on a
# machine loaded by the rest of the suite it may not for a second, so shorter
# intervals would test the machine's load, not the tracker.)
. "$(dirname "$0")/lib.sh"

DB="$WORK/c.db"
"$DEMO" -c 1000 -s 10 -m 4000 -i 2500 -w -r "$WORK/ready" -T "$WORK/lifetimes" >"$WORK/demo.out" 2>&1 &
DPID=$!
CLEANUP_PIDS="$DPID"
wait_for 20 test -s "$WORK/ready" || { not_ok "workload started"; finish; exit 1; }
"$TDCTL" attach "$DPID" -d "$DB" -q 2>"$WORK/attach.err" &
TPID=$!
CLEANUP_PIDS="$DPID $TPID"
wait_for 20 sh -c "[ \"\$(sqlite3 '$DB' \"select count(*) from sessions where status='running'\" 2>/dev/null)\" = 1 ]" ||
	not_ok "session recorded as running while attached"
# the collector's descriptors: perf events (SQLite opens and closes its own
# files as it writes, which would make a count of every descriptor noisy)
perf_fds() { find "/proc/$1/fd" -lname 'anon_inode:*perf_event*' 2>/dev/null | wc -l | tr -d ' '; }
fds_start=$(perf_fds "$TPID")
kill -USR1 "$DPID"
# the churn has begun once a thread has ended (each lives >= 10 ms, one is
# born every ms, so from then on the workload has many threads until the end)
wait_for 20 test -s "$WORK/lifetimes" || not_ok "churn began"
# the churn is over when the workload is back to its main thread (10 s of churn,
# then threads living up to 4 s; the deadline leaves room for a loaded machine)
wait_for 60 sh -c "[ \"\$(ls /proc/$DPID/task | wc -l)\" -eq 1 ]" || not_ok "churn ended"
# the collector closes a gone thread's descriptors at its next scan (20 ms) or
# interval (1 s): wait for that, with a deadline, before comparing
wait_for 10 sh -c "[ \"\$(find /proc/$TPID/fd -lname 'anon_inode:*perf_event*' 2>/dev/null | wc -l)\" -eq $fds_start ]"
fds_end=$(perf_fds "$TPID")
check "the main thread's perf descriptors are open at the start ($fds_start)" test "$fds_start" -ge 6
check_eq "perf descriptor count back to its start value after the churn" "$fds_start" "$fds_end"
wait "$TPID"
check_eq "attach exits 0" 0 "$?"

started=$(wc -l <"$WORK/lifetimes" | tr -d ' ')
check "the workload started at least 9,000 threads" test "$started" -ge 9000
awk '$3 - $2 >= 2000000000 { print $1 }' "$WORK/lifetimes" | sort -u >"$WORK/long"
sql "$DB" "select tid from threads" | sort -u >"$WORK/recorded"
long=$(wc -l <"$WORK/long" | tr -d ' ')
check "thousands of threads lived two intervals or more" test "$long" -ge 3000
missing=$(comm -23 "$WORK/long" "$WORK/recorded" | wc -l | tr -d ' ')
check_eq "every thread that lived >= 2 intervals is in the database" 0 "$missing"
if [ "$missing" != 0 ]; then
	comm -23 "$WORK/long" "$WORK/recorded" | head -5 | while read -r tid; do
		echo "# missing: $(grep "^$tid " "$WORK/lifetimes")"
	done
	cp -r "$WORK" "${TMPDIR:-/tmp}/td-churn-failure.$$" && echo "# kept in ${TMPDIR:-/tmp}/td-churn-failure.$$"
fi
# a TID may be reused by a later thread (10,000 threads run through the PID
# space), but two rows of one TID never overlap in time
check_eq "no thread recorded twice" 0 \
	"$(sql "$DB" "select count(*) from threads a join threads b on a.tid = b.tid and a.id < b.id
	              and a.last_seen_ns > b.first_seen_ns and b.last_seen_ns > a.first_seen_ns")"
check_eq "session completed" completed "$(sql "$DB" "select status from sessions")"
finish
