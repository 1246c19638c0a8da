#!/bin/sh
# Retention limits of long runs: `tdctl run --max-age` deletes sessions that
# ended longer ago than the limit (at start and every minute), keeps the
# newer ones and the running one, and bad limits are one-line errors.
. "$(dirname "$0")/lib.sh"

DB="$WORK/ret.db"
"$TDCTL" run -q -d "$DB" -- true 2>/dev/null
"$TDCTL" run -q -d "$DB" -- true 2>/dev/null
# the first session ended 30 days ago, the second 2 days ago
day=86400000000000
sql "$DB" "update sessions set started_ns = started_ns - 30*$day, ended_ns = ended_ns - 30*$day where id = 1;
           update sessions set started_ns = started_ns - 2*$day, ended_ns = ended_ns - 2*$day where id = 2;
           update intervals set start_ns = start_ns - 30*$day, end_ns = end_ns - 30*$day where session_id = 1"
check_eq "two old sessions before" 2 "$(sql "$DB" "select count(*) from sessions")"
"$TDCTL" run -q -d "$DB" --max-age 7d -- "$DEMO" -t 1 -l 0 -e 0 -s 1 >/dev/null 2>&1
check_eq "run with --max-age exits 0" 0 "$?"
check_eq "the 30-day-old session is gone, the 2-day-old one and the new one stay" "2 3" \
	"$(sql "$DB" "select group_concat(id, ' ') from (select id from sessions order by id)")"
check_eq "its intervals and counts went with it" 0 \
	"$(sql "$DB" "select count(*) from intervals where session_id = 1")"
check_eq "the new session completed with its data" "completed|1" \
	"$(sql "$DB" "select status || '|' || (count(*) > 0) from sessions s join intervals i on i.session_id = s.id where s.id = 3")"
"$TDCTL" run -d "$DB" --max-age 7x -- true 2>"$WORK/err"
check_eq "bad --max-age exits 2" 2 "$?"
check_grep "bad --max-age explained" "bad --max-age '7x': give a number with d, h, m or s" "$WORK/err"
"$TDCTL" attach 1 -d "$DB" --max-size abc 2>"$WORK/err"
check_eq "bad --max-size exits 2" 2 "$?"
check_grep "bad --max-size explained" "bad --max-size 'abc': give megabytes" "$WORK/err"
finish
