#!/bin/sh
# Retention limits of long runs: `tdctl run --max-age` deletes sessions that
# ended longer ago than the limit (all that is due at start, then a short
# step after each interval), keeps the newer ones and the running one;
# --max-size deletes the oldest data without ever vacuuming while sampling;
# bad limits are one-line errors.
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
# ---- --max-size while sampling: short deletion steps, never a VACUUM ------------
# An imported session of 300 intervals x 10 threads fills the file; a run with a
# limit below its size deletes it step by step (one short transaction at the start
# and after each interval: TD_RETAIN_STEP_ROWS rows' worth of intervals) and never vacuums: the freed pages stay in
# the file for reuse (a VACUUM, which stalls sampling for seconds on a large file,
# would leave no free page and a smaller file). 'tdctl prune' then shrinks it.
DB="$WORK/size.db"
awk 'BEGIN { for (t = 1; t <= 300; t++) for (th = 0; th < 10; th++)
	printf "%d.000000000;w-%d;%d;;cycles;1000000000;100.00;;\n", t, 1000 + th, 1000 + t }' >"$WORK/old.csv"
"$TDCTL" import -q --pmu skl -d "$DB" "$WORK/old.csv" 2>/dev/null
used() { sql "$DB" "select (select page_count from pragma_page_count) - (select freelist_count from pragma_freelist_count)"; }
pages=$(sql "$DB" "pragma page_count")
psize=$(sql "$DB" "pragma page_size")
check "the imported session holds more than 0.5 MB" test $(($(used) * psize)) -gt 524288
"$TDCTL" run -q -I 20 -d "$DB" --max-size 0.5 -- "$DEMO" -t 1 -l 0 -e 0 -s 1 >/dev/null 2>&1
check_eq "run with --max-size exits 0" 0 "$?"
check_eq "the imported session lost its oldest intervals, not its newest" "1|300" \
	"$(sql "$DB" "select (count(*) < 300 and min(seq) > 0) || '|' || (max(seq) + 1) from intervals where session_id = 1")"
check_eq "the new session is whole" "completed|1" \
	"$(sql "$DB" "select status || '|' || (select count(*) > 0 from intervals where session_id = 2) from sessions where id = 2")"
check "no VACUUM while sampling: the file did not shrink" test "$(sql "$DB" "pragma page_count")" -ge "$pages"
check "the freed pages are kept for reuse" test "$(sql "$DB" "pragma freelist_count")" -gt 0
# one step at the start and after each interval but the last, each of at least one interval
check "a step per interval written: the import lost at least as many intervals as the run wrote" test \
	"$(sql "$DB" "select (300 - (select count(*) from intervals where session_id = 1)) >=
		(select count(*) from intervals where session_id = 2)")" = 1
"$TDCTL" prune -d "$DB" --max-size 0.5 >/dev/null
check "tdctl prune brings the data within the limit" test $(($(used) * psize)) -le 524288
check "tdctl prune vacuums: no free page left, a smaller file" test \
	"$(sql "$DB" "pragma freelist_count")|$(($(sql "$DB" "pragma page_count") < pages))" = "0|1"

"$TDCTL" run -d "$DB" --max-age 7x -- true 2>"$WORK/err"
check_eq "bad --max-age exits 2" 2 "$?"
check_grep "bad --max-age explained" "bad --max-age '7x': give a number with d, h, m, s or ms" "$WORK/err"
"$TDCTL" attach 1 -d "$DB" --max-size abc 2>"$WORK/err"
check_eq "bad --max-size exits 2" 2 "$?"
check_grep "bad --max-size explained" "bad --max-size 'abc': give megabytes" "$WORK/err"
finish
