#!/bin/sh
# kill -9 of tdctl in the middle of a run leaves a database that opens, passes
# integrity_check and shows the session as interrupted with the intervals
# written so far.
. "$(dirname "$0")/lib.sh"

DB="$WORK/k.db"
"$TDCTL" run -I 100 -d "$DB" -- "$DEMO" -t 2 -l 0 -e 0 -s 30 >/dev/null 2>&1 &
TPID=$!
CLEANUP_PIDS="$TPID"
wait_for 20 sh -c "[ \"\$(sqlite3 '$DB' 'select count(*) from intervals' 2>/dev/null)\" -ge 5 ]" ||
	not_ok "intervals are being written"
CHILD=$(sql "$DB" "select target_pid from sessions")
CLEANUP_PIDS="$TPID $CHILD"
kill -9 "$TPID"
wait "$TPID" 2>/dev/null
kill -9 "$CHILD" 2>/dev/null

check_eq "the database passes integrity_check" ok "$(sql "$DB" "pragma integrity_check")"
check_eq "the session still says running before anyone looks" running "$(sql "$DB" "select status from sessions")"
n=$(sql "$DB" "select count(*) from intervals")
check "intervals written before the kill are kept" test "$n" -ge 5
check_eq "every kept interval has its counts" 0 \
	"$(sql "$DB" "select count(*) from intervals i where not exists (select 1 from counts c where c.interval_id=i.id)")"
out=$("$TDCTL" sessions -d "$DB")
check_eq "tdctl sessions exits 0" 0 "$?"
check_match "tdctl sessions shows the session as interrupted" "^ +1 +run +interrupted .* $n int " "$out"
check_match "and says why" "collector stopped without closing the session" "$out"
check_eq "the status is now stored as interrupted" interrupted "$(sql "$DB" "select status from sessions")"
check "the interrupted session has an end time from its last interval" test \
	"$(sql "$DB" "select ended_ns = (select max(end_ns) from intervals) from sessions")" = 1

# a new run in the same database still works and leaves the old one alone
"$TDCTL" run -q -d "$DB" -- true 2>/dev/null
check_eq "a new session after the crash completes" "interrupted completed" \
	"$(sql "$DB" "select group_concat(status, ' ') from (select status from sessions order by id)")"
finish
