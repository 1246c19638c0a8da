#!/bin/sh
# tdctl prune --downsample WIDTH --full-resolution AGE: every session's
# intervals older than AGE merged per WIDTH-wide bucket of the wall clock.
# A run at 100 ms is copied, then downsampled to 1 s: held against the copy,
# each merged interval spans its bucket's intervals, holds per target and
# event the sums of their values, enabled and running times (computed here
# from the copy in SQL), and its metric values are software.td's formulas
# over those sums (CPU_Time = TASK_CLOCK / 1e9 scaled by enabled/running,
# Switches_per_s = CONTEXT_SWITCHES / the merged interval's length); the
# totals over the session are unchanged; a second pass merges nothing; the
# report reads it; without the events files to evaluate the merged values
# nothing is merged; bad options are one-line errors.
. "$(dirname "$0")/lib.sh"

DB="$WORK/d.db"
"$TDCTL" run -q -I 100 -d "$DB" -- "$DEMO" -t 2 -l 0 -e 0 -s 3 >/dev/null 2>&1
check_eq "the run exits 0" 0 "$?"
sql "$DB" "pragma wal_checkpoint(truncate)" >/dev/null
# a bucket is merged once the one after it is over too (no interval of it can still come)
sleep 2
cp "$DB" "$WORK/orig.db"
n0=$(sql "$DB" "select count(*) from intervals")
buckets=$(sql "$DB" "select count(distinct start_ns / 1000000000) from intervals")
check "the run has more intervals ($n0) than 1 s buckets ($buckets)" test "$n0" -gt "$buckets"

many=$(sql "$DB" "select count(*) || ' ' || coalesce(sum(n), 0) from (select count(*) n from intervals group by start_ns / 1000000000 having n > 1)")
out=$("$TDCTL" prune -d "$DB" --downsample 1s --full-resolution 1ms 2>&1)
check_eq "prune --downsample exits 0" 0 "$?"
# what it merges: the buckets of more than one interval
check_eq "it says what it merged" "downsampled $DB: ${many#* } intervals merged into ${many%% *} of 1 s" "$out"
check_eq "one interval a bucket" "$buckets" "$(sql "$DB" "select count(*) from intervals")"
check_eq "each says how many intervals as read it holds: $n0 in all" "$n0" "$(sql "$DB" "select sum(coalesce(merged, 1)) from intervals")"
check_eq "each from its bucket's first start to its last end" 0 "$(sql "$DB" "attach '$WORK/orig.db' as o;
	select count(*) from intervals i where i.start_ns != (select min(start_ns) from o.intervals where start_ns / 1000000000 = i.start_ns / 1000000000)
	or i.end_ns != (select max(end_ns) from o.intervals where start_ns / 1000000000 = i.start_ns / 1000000000)")"
# per (bucket, target, event): the copy's sums against the merged rows, both ways
sums="select i.start_ns / 1000000000 b, c.thread_id t, c.event_id e, sum(c.value) v, sum(c.enabled) en, sum(c.running) r
	from %s.counts c join %s.intervals i on i.id = c.interval_id group by 1, 2, 3"
orig=$(printf "$sums" o o)
merged=$(printf "$sums" main main)
check_eq "each merged count, enabled and running time is the sum of its bucket's" "0|0" "$(sql "$DB" "attach '$WORK/orig.db' as o;
	select (select count(*) from ($orig except $merged)), (select count(*) from ($merged except $orig))")"
check_eq "as many rows as (bucket, target, event) of the copy" "$(sql "$WORK/orig.db" "select count(*) from ($(printf "$sums" main main))")" \
	"$(sql "$DB" "select count(*) from counts")"
check_eq "the session's total TASK_CLOCK is unchanged" \
	"$(sql "$WORK/orig.db" "select sum(value) from counts c join events e on e.id = c.event_id where e.name = 'TASK_CLOCK'")" \
	"$(sql "$DB" "select sum(value) from counts c join events e on e.id = c.event_id where e.name = 'TASK_CLOCK'")"
# the merged intervals' values: software.td's formulas over the copy's sums, for
# the process (its threads' counts, each scaled by its own times, added up)
scaled="select b, sum(x) x from (select i.start_ns / 1000000000 b, sum(c.value) * 1.0 * sum(c.enabled) / sum(c.running) x
	from o.counts c join o.intervals i on i.id = c.interval_id join o.events e on e.id = c.event_id
	where e.name = '%s' group by i.start_ns / 1000000000, c.thread_id) group by b"
res=$(sql "$DB" "attach '$WORK/orig.db' as o;
	select count(*), sum(abs(v.value - f.x / 1e9) > 1e-9 * max(1, v.value)) from metric_values v
	join ($(printf "$scaled" TASK_CLOCK)) f on f.b = v.start_ns / 1000000000
	where v.name = 'CPU_Time' and v.kind = 'info' and v.target_kind = 'process'")
check "CPU_Time of each merged interval is TASK_CLOCK's sums scaled, / 1e9 ($res: values|off)" \
	awk -v r="$res" -v n="$buckets" 'BEGIN { split(r, a, "|"); exit !(a[1] == n && a[2] == 0) }'
res=$(sql "$DB" "attach '$WORK/orig.db' as o;
	select count(*), sum(abs(v.value - f.x / ((v.end_ns - v.start_ns) / 1e9)) > 1e-9 * max(1, v.value)) from metric_values v
	join ($(printf "$scaled" CONTEXT_SWITCHES)) f on f.b = v.start_ns / 1000000000
	where v.name = 'Switches_per_s' and v.kind = 'info' and v.target_kind = 'process'")
check "Switches_per_s of each is CONTEXT_SWITCHES' sums over the merged interval's length ($res: values|off)" \
	awk -v r="$res" -v n="$buckets" 'BEGIN { split(r, a, "|"); exit !(a[1] == n && a[2] == 0) }'
check_eq "no metric value of an interval that is gone" 0 \
	"$(sql "$DB" "select count(*) from metrics where interval_id not in (select id from intervals)")"

out=$("$TDCTL" prune -d "$DB" --downsample 1s --full-resolution 1ms 2>&1)
check_eq "a second pass merges nothing" "downsampled $DB: 0 intervals merged into 0 of 1 s" "$out"
"$TDCTL" report -d "$DB" >"$WORK/report.out" 2>&1
check_eq "the report reads the downsampled session" 0 "$?"
check_match "... and says it was downsampled" "^Duration: .* in $buckets intervals of 100 ms \(${many%% *} of them downsampled: ${many#* } intervals as read merged\)" "$(cat "$WORK/report.out")"

# a bucket younger than --full-resolution is left as it is
cp "$WORK/orig.db" "$WORK/young.db"
"$TDCTL" prune -d "$WORK/young.db" --downsample 1s --full-resolution 1h >/dev/null 2>&1
check_eq "--full-resolution 1h leaves a run of seconds ago as it was" "$n0" "$(sql "$WORK/young.db" "select count(*) from intervals")"

# a bucket whose values cannot be evaluated again is not merged: the transaction is rolled back
mkdir "$WORK/noevents"
cp "$WORK/orig.db" "$WORK/fail.db"
"$TDCTL" prune -d "$WORK/fail.db" --downsample 1s --full-resolution 1ms --events-dir "$WORK/noevents" >"$WORK/e0" 2>&1
check_eq "--downsample without the events files to evaluate: exit 1" 1 "$?"
check_eq "... one line saying why" 1 "$(wc -l <"$WORK/e0")"
check_eq "... and the session as it was: $n0 intervals, none merged" "$n0|0" \
	"$(sql "$WORK/fail.db" "select count(*), count(merged) from intervals")"

"$TDCTL" prune -d "$DB" --downsample 1s --dry-run >"$WORK/e1" 2>&1
check_eq "--downsample with --dry-run: exit 2" 2 "$?"
check_eq "... one line saying so" 1 "$(wc -l <"$WORK/e1")"
"$TDCTL" prune -d "$DB" --downsample soon >"$WORK/e2" 2>&1
check_eq "a bad width: exit 2" 2 "$?"
check_grep "... naming it" "bad --downsample 'soon'" "$WORK/e2"
finish
