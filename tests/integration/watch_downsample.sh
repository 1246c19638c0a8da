#!/bin/sh
# topdownd's watch mode keeps a short look-back at full resolution and the
# rest downsampled (issue 35): the real daemon on a temporary socket and
# database, [watch] over one cgroup v2 group at 250 ms with full_resolution
# = 5s and downsample = 1s, the test tree over software events
# (tests/data/live/soft-tree.td: Running = TC / (TC + 1e6 CS + 1)). A copy
# of the database taken before anything is due stands as the record of the
# intervals as read; after the daemon has run on:
# - the intervals up to the last merged one are merged, one per second of
#   the wall clock, and those of the last 4 s are not;
# - each merged interval's counts, enabled and running times are the sums
#   of the copy's intervals of its second (the buckets the copy holds whole);
# - each interval's stored Running is the tree's formula over its own
#   stored counts (the merged ones evaluated again from their sums);
# - --check-config refuses a width under two intervals, and a
#   full_resolution shorter than the ring of intervals a change is decided on.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_watch.sh"

[ "$(id -u)" = 0 ] || skip_all "the daemon counts cgroups as root here (as CI runs); not root"
command -v perl >/dev/null || skip_all "perl (the workload's loop) is not installed"
watch_cgroups "td-watch-ds-$$" work
watch_dir
conf() { # conf FULL_RESOLUTION DOWNSAMPLE
	printf '%s\n' "[daemon]" "events_dir = $D/events" "" "[watch]" "enable = yes" "root = $root" "depth = 1" \
		"interval = 250ms" "baseline = 4" "window = 3" "min_shift = 100" "full_resolution = $1" "downsample = $2"
}
conf 5s 100ms >"$D/bad1.conf"
"$TOPDOWND" --check-config -c "$D/bad1.conf" >"$D/bad1" 2>&1
check "--check-config refuses downsample under 2 intervals" test "$?" -ne 0
check_grep "... saying so in one line" "'downsample' must be 'off' or at least 2 x 'interval'" "$D/bad1"
conf 1500ms 1s >"$D/bad2.conf"
"$TOPDOWND" --check-config -c "$D/bad2.conf" >"$D/bad2" 2>&1
check "--check-config refuses full_resolution shorter than the ring (10 x 250 ms)" test "$?" -ne 0
check_grep "... saying so" "'full_resolution' must be at least" "$D/bad2"
conf 5s 1s >"$D/topdownd.conf"
"$TOPDOWND" --check-config -c "$D/topdownd.conf" >"$D/check" 2>&1
check_eq "--check-config accepts full_resolution = 5s, downsample = 1s" 0 "$?"

# a loop of short sleeps: Running a few percent, hundreds of switches a second
sh -c "echo \$\$ >'$root/work/cgroup.procs' && exec perl -e 'select(undef, undef, undef, 0.0005) while 1'" &
WPID=$!
CLEANUP_PIDS="$WPID"
check "the workload runs in its group" wait_for 10 grep -qx "$WPID" "$root/work/cgroup.procs"
TD_PFM_MODEL=td_soft_tree "$TOPDOWND" -f -c "$D/topdownd.conf" --socket "$SOCK" --database "$DB" >"$D/log" 2>&1 &
DAEMON=$!
CLEANUP_PIDS="$CLEANUP_PIDS $DAEMON"
check "the daemon starts and answers" wait_for 10 "$TDCTL" status --socket "$SOCK"
session() { sql "$DB" "select id from sessions where schedule = 'watch:$rel/work'"; }
has_session() { [ -n "$(session)" ]; }
check "a watch session on the group" wait_for 10 has_session
SP=$(session)
# the copy: 3 s of intervals, nothing due before the first ended 5 + 1 s ago
some() { [ "$(sql "$DB" "select count(*) from intervals where session_id = $SP")" -ge 12 ]; }
check "the session writes intervals" wait_for 30 some
sql "$DB" ".backup '$D/copy.db'"
check_eq "the copy holds intervals as read (none merged)" 0 \
	"$(sql "$D/copy.db" "select count(merged) from intervals where session_id = $SP")"
merged() { [ "$(sql "$DB" "select count(merged) from intervals where session_id = $SP")" -ge 3 ]; }
check "intervals are merged once they are older than 5 s" wait_for 40 merged
sleep 2
kill "$DAEMON"
wait "$DAEMON" 2>/dev/null
CLEANUP_PIDS="$WPID"

last=$(sql "$DB" "select max(end_ns) from intervals where session_id = $SP")
check_eq "none of the last 4 s is merged" 0 "$(sql "$DB" "select count(*) from intervals where session_id = $SP
	and end_ns > $last - 4000000000 and merged is not null")"
# up to the last merged interval's end (whenever the daemon's last pass was)
upto=$(sql "$DB" "select max(end_ns) from intervals where session_id = $SP and merged is not null")
check_eq "no two intervals begin in one second up to the last merged one" 0 "$(sql "$DB" "select count(*) from (select start_ns / 1000000000 b
	from intervals where session_id = $SP and end_ns <= $upto group by b having count(*) > 1)")"
old=$(sql "$DB" "select count(*) || ' ' || (count(*) - count(merged)) from intervals where session_id = $SP and end_ns <= $upto")
check "the intervals up to it are merged seconds ($old: intervals, as read; at most 2 of 250 ms left: the first bucket may hold one)" \
	test "${old% *}" -ge 3 -a "${old#* }" -le 2
# the buckets the copy holds whole (those before the second its last interval starts in: the
# intervals are written in order) and the daemon merged
whole=$(sql "$D/copy.db" "select max(start_ns) / 1000000000 - 1 from intervals where session_id = $SP")
sums="select i.start_ns / 1000000000 b, c.thread_id t, c.event_id e, sum(c.value) v, sum(c.enabled) en, sum(c.running) r
	from %s.counts c join %s.intervals i on i.id = c.interval_id where i.session_id = $SP
	and i.start_ns / 1000000000 <= $whole and i.start_ns / 1000000000 in (select start_ns / 1000000000 from main.intervals
	where session_id = $SP and merged is not null) group by 1, 2, 3"
nb=$(sql "$DB" "attach '$D/copy.db' as o; select count(distinct b) from ($(printf "$sums" o o))")
check "the copy holds merged buckets whole ($nb)" test "${nb:-0}" -ge 1
check_eq "each merged count, enabled and running time is the sum of the copy's intervals of its second" "0|0" \
	"$(sql "$DB" "attach '$D/copy.db' as o; select (select count(*) from ($(printf "$sums" o o) except $(printf "$sums" main main))),
		(select count(*) from ($(printf "$sums" main main) except $(printf "$sums" o o)))")"
check_eq "each of those says how many intervals as read it holds: the copy's of its second" 0 \
	"$(sql "$DB" "attach '$D/copy.db' as o; select count(*) from intervals i where i.session_id = $SP and i.merged is not null
		and i.start_ns / 1000000000 <= $whole and i.merged != (select count(*) from o.intervals c
		where c.session_id = $SP and c.start_ns / 1000000000 = i.start_ns / 1000000000)")"
# Running by the tree's formula from each interval's stored counts
res=$(sql "$DB" "select count(*), sum(abs(v.value - f.x) > 1e-9) from metric_values v join (
	select k.id iv, tc / (tc + 1e6 * cs + 1) x from (select c.interval_id id,
		sum(case when e.name = 'TC' then c.value * 1.0 * c.enabled / c.running end) tc,
		sum(case when e.name = 'CS' then c.value * 1.0 * c.enabled / c.running end) cs
		from counts c join events e on e.id = c.event_id join targets t on t.id = c.thread_id
		join intervals i on i.id = c.interval_id
		where i.session_id = $SP and t.kind = 'cgroup' and c.running > 0 group by c.interval_id) k) f
	on f.iv = v.interval_id where v.session_id = $SP and v.name = 'Running' and v.target_kind = 'cgroup'")
check "each interval's Running is TC / (TC + 1e6 CS + 1) of its stored counts, merged ones too ($res: values|off)" \
	awk -v r="$res" 'BEGIN { split(r, a, "|"); exit !(a[1] >= 8 && a[2] == 0) }'
check_eq "... a value for each merged interval" "$(sql "$DB" "select count(merged) from intervals where session_id = $SP")" \
	"$(sql "$DB" "select count(*) from metric_values v join intervals i on i.id = v.interval_id where v.session_id = $SP
		and v.name = 'Running' and v.target_kind = 'cgroup' and i.merged is not null and v.value is not null")"
check "the daemon's log says what a pass merged" grep -q "watch: downsampled [0-9]* intervals older than 5 s into [0-9]* of 1 s" "$D/log"
finish
