#!/bin/sh
# Watch mode's per-cgroup values against `tdctl record --cgroup` of the same
# group (issue 35): the real daemon watching a cgroup v2 group of the test's
# own at level 1 of the test tree over software events
# (tests/data/live/soft-tree.td: TC, the CPU time, and CS, the context
# switches; Running = TC / (TC + 1 ms x CS)), and at the same time a record
# session of the same group, each at its own 100 ms intervals. The group is
# empty while both start; a workload then runs in it (1,500 rounds of a
# little arithmetic and a 0.5 ms sleep) and ends, and both are read past
# its end: each tool's sums over all its intervals hold the whole workload,
# whatever their boundaries. Shown: the two tools' TC and CS agree, each
# with the kernel's own figures (the group's cpu.stat usage_usec over the
# workload, with the hypervisor's stolen time, which TASK_CLOCK counts and
# the scheduler's runtime leaves out; the task's own switches), so their
# level-1 values of the workload agree too; and interval by interval, each
# tool's stored Running of its intervals within the workload has the same
# median, within the spread either saw.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_watch.sh"

[ "$(id -u)" = 0 ] || skip_all "the daemon counts cgroups as root here (as CI runs); not root"
command -v perl >/dev/null || skip_all "perl (the workload's loop) is not installed"
watch_cgroups "td-wvr-$$" g
USER_HZ=$(getconf CLK_TCK)
steal_ns() { awk -v hz="$USER_HZ" '$1 == "cpu" { printf "%.0f", $9 * 1e9 / hz }' /proc/stat; }
usage_ns() { awk '$1 == "usage_usec" { printf "%.0f", $2 * 1000 }' "$root/g/cpu.stat"; }

LOOP='for (1 .. 1500) { my $x = 0; $x++ for 1 .. 2000; select(undef, undef, undef, 0.0005) }'
# This host's gap between the two clocks (below: usage_usec runs ahead of TASK_CLOCK at each
# switch), measured by perf, not by topdown: the same loop under `perf stat -e task-clock`, against
# its own schedstat (the runtime usage_usec sums) read as it ends, per switch it made
GAP_NS=10000
if perf stat -x, -e task-clock -o "$WORK/cal.perf" perl -e "$LOOP"'; open F, "/proc/self/schedstat"; print <F>' \
	>"$WORK/cal.out" 2>/dev/null && grep -q '^[0-9.]*,msec,task-clock' "$WORK/cal.perf"; then
	GAP_NS=$(awk -F, 'NR == FNR { split($0, a, " "); rt = a[1]; n = a[3]; next } $3 == "task-clock" {
		g = (rt - $1 * 1e6) / n * 1.5; printf "%.0f", (g > 10000 ? g : 10000) }' "$WORK/cal.out" "$WORK/cal.perf")
	echo "# this host: the loop's runtime $(cut -d' ' -f1 "$WORK/cal.out") ns over $(cut -d' ' -f3 "$WORK/cal.out") switches, task-clock $(grep task-clock "$WORK/cal.perf" | cut -d, -f1) ms: allowed $GAP_NS ns a switch"
else
	echo "# perf stat cannot count task-clock here: allowed $GAP_NS ns a switch"
fi

watch_dir
REC="$D/rec.db"
# a shift of 100 points can never be seen: no change, no drill-down session beside the watch session
printf '%s\n' "[daemon]" "events_dir = $D/events" "" "[watch]" "enable = yes" "root = $root" "depth = 1" \
	"interval = 100ms" "baseline = 12" "window = 4" "p_value = 0.01" "min_shift = 100" >"$D/topdownd.conf"
TD_PFM_MODEL=td_soft_tree "$TOPDOWND" -f -c "$D/topdownd.conf" --socket "$SOCK" --database "$DB" >"$D/log" 2>&1 &
DAEMON=$!
CLEANUP_PIDS="$DAEMON"
check "the daemon starts and answers" wait_for 10 "$TDCTL" status --socket "$SOCK"
session() { sql "$DB" "select id from sessions where schedule = 'watch:$rel/g'"; }
check "a watch session on the group" wait_for 10 sh -c "[ -n \"\$(sqlite3 '$DB' \"select id from sessions where schedule = 'watch:$rel/g'\" 2>/dev/null)\" ]"
S=$(session)
intervals() { sql "$1" "select count(*) from intervals where session_id = $2" 2>/dev/null || echo 0; }
check "... writing intervals" wait_for 20 sh -c "[ \$(sqlite3 '$DB' 'select count(*) from intervals where session_id = $S') -ge 2 ]"
TD_PFM_MODEL=td_soft_tree "$TDCTL" record --cgroup "$root/g" -q -l 1 -I 100 --events-dir "$D/events" -d "$REC" \
	>/dev/null 2>"$D/rec.err" &
RECPID=$!
CLEANUP_PIDS="$DAEMON $RECPID"
check "record --cgroup writes intervals" wait_for 20 sh -c "[ \$(sqlite3 '$REC' 'select count(*) from intervals' 2>/dev/null || echo 0) -ge 2 ]"

# the workload, in the group from its exec on
START_NS=$(date +%s%N)
u0=$(usage_ns)
s0=$(steal_ns)
# the workload's own switches, by the kernel's count of its task (all it made but the last, at its exit)
OWN='open S, "/proc/self/status"; while (<S>) { print "$1\n" if /^(?:non)?voluntary_ctxt_switches:\s+(\d+)/ }'
sh -c "echo \$\$ >'$root/g/cgroup.procs' && exec perl -e '$LOOP; $OWN' >'$WORK/own'"
check_eq "the workload ran in the group" 0 "$?"
END_NS=$(date +%s%N)
u1=$(usage_ns)
stolen=$(($(steal_ns) - s0 + 1000000000 / USER_HZ))
usage=$((u1 - u0))
# read past the end: an interval of each that ends after it holds everything counted before it
past() { [ "$(sql "$1" "select count(*) from intervals where session_id = $2 and start_ns > $END_NS")" -ge 1 ]; }
check "the watch session reads past the workload's end" wait_for 20 past "$DB" "$S"
check "record --cgroup reads past the workload's end" wait_for 20 past "$REC" 1
kill -INT "$RECPID"
wait "$RECPID"
check_eq "record --cgroup exits 0 when stopped" 0 "$?"
CLEANUP_PIDS="$DAEMON"

# sum DB SESSION EVENT: the group's count over all the session's intervals
sum() {
	sql "$1" "select coalesce(sum(c.value), 0) from counts c join events e on e.id = c.event_id join targets t
		on t.id = c.thread_id join intervals i on i.id = c.interval_id where i.session_id = $2 and e.name = '$3'
		and t.kind = 'cgroup'"
}
wtc=$(sum "$DB" "$S" TC) rtc=$(sum "$REC" 1 TC)
wcs=$(sum "$DB" "$S" CS) rcs=$(sum "$REC" 1 CS)
echo "# usage $usage ns (stolen meanwhile at most $stolen); watch TC $wtc CS $wcs; record TC $rtc CS $rcs"
# TASK_CLOCK and usage_usec both count the group's tasks' time on a CPU, from different points of
# each switch: the scheduler's runtime from the pick of the task (set_next_entity(),
# kernel/sched/fair.c:5658 in 6.12) to the update_curr() of its dequeue or put_prev (fair.c:5703),
# TASK_CLOCK from sched_switch to sched_switch, where the programs read it (after the pick, after
# the dequeue: core.c:6701-6749). Measured 3.6 us a switch apart (usage the larger) on an Intel
# guest, 10-16 us on an AMD Zen 4 guest (perf's task-clock as far from the runtime): allowed below
# usage 10 us a switch or 1.5 times this host's gap measured by perf above (GAP_NS), whichever is
# larger; above it only what the hypervisor stole meanwhile (TASK_CLOCK counts it, the runtime does
# not) and 1 % + 1 ms for the reads' edges.
within() { awk -v a="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(a >= lo && a <= hi) }'; }
lo=$(awk -v u="$usage" -v cs="$wcs" -v gap="$GAP_NS" 'BEGIN { printf "%.0f", u * 0.99 - 1e6 - gap * cs }')
hi=$(awk -v u="$usage" -v s="$stolen" 'BEGIN { printf "%.0f", u * 1.01 + 1e6 + s }')
check "watch: the group's TC is its cpu.stat usage ($wtc in [$lo, $hi])" within "$wtc" "$lo" "$hi"
check "record --cgroup: the same ($rtc in [$lo, $hi])" within "$rtc" "$lo" "$hi"
check "watch and record agree on TC within 1 % + 1 ms ($wtc, $rtc)" awk -v a="$wtc" -v b="$rtc" \
	'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 0.01 * (a > b ? a : b) + 1e6) }'
# the group's switches are its task's own (/proc's count, above): a stint counts the switch that
# began it (the counter moves after the programs' read at each switch: core.c 6749, then
# perf_event_task_sched_out() in prepare_task_switch()), so up to one more (its last, at its exit)
# and up to 10 fewer (the shell's before it joined the group). Not "a switch a sleep": under load a
# 0.5 ms timer can fire before the task gets to schedule(), which then does not switch (1,498 switches
# for 1,500 sleeps, seen in CI)
own=$(awk '{ s += $1 } END { print s + 0 }' "$WORK/own")
check "watch: the group's switches are its task's own ($wcs in [$own - 10, $own + 1])" \
	awk -v a="$wcs" -v o="$own" 'BEGIN { exit !(o > 0 && a >= o - 10 && a <= o + 1) }'
check "watch and record count the same switches within 1 % ($wcs, $rcs)" awk -v a="$wcs" -v b="$rcs" \
	'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 0.01 * (a > b ? a : b) + 2) }'
run() { awk -v tc="$1" -v cs="$2" 'BEGIN { printf "%.6f", tc / (tc + 1e6 * cs + 1) }'; }
wr=$(run "$wtc" "$wcs") rr=$(run "$rtc" "$rcs")
check "the workload's level 1 (Running) agrees within 1 point ($wr, $rr)" awk -v a="$wr" -v b="$rr" \
	'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 0.01) }'
# interval by interval: each tool's stored Running of its intervals wholly within the steady
# workload (each a session of its own boundaries, at most an interval apart): the same process
# doing the same rounds, so the two medians agree within the spread either tool saw (the larger
# interquartile range) or a point
steady() {
	sql "$1" "select value from metric_values where session_id = $2 and name = 'Running' and kind = 'node'
		and target_kind = 'cgroup' and start_ns >= $START_NS and end_ns <= $END_NS order by value" |
		awk '{ v[NR] = $1 } END { if (NR < 3) { print "none"; exit }
			printf "%.4f %.4f %d\n", v[int((NR + 1) / 2)], v[int(NR * 3 / 4) + 1] - v[int(NR / 4) + 1], NR }'
}
ws=$(steady "$DB" "$S") rs=$(steady "$REC" 1)
echo "# stored Running within the workload (median, interquartile range, intervals): watch $ws; record $rs"
if [ "$ws" = none ] || [ "$rs" = none ]; then
	skip "the stored Running of the workload's intervals agree" "fewer than 3 intervals within the workload (a host this loaded ran it too fast or too slow)"
else
	check "the stored Running of the workload's intervals agree (median, spread: watch $ws; record $rs)" \
		awk -v w="$ws" -v r="$rs" 'BEGIN { split(w, a, " "); split(r, b, " "); d = a[1] - b[1]; if (d < 0) d = -d;
			t = a[2] > b[2] ? a[2] : b[2]; if (t < 0.01) t = 0.01; exit !(d <= t) }'
fi
check_match "no change: nothing shifted 100 points" '"changes":\[\]' "$("$TDCTL" changes --socket "$SOCK" --json)"
kill "$DAEMON"
wait "$DAEMON" 2>/dev/null
CLEANUP_PIDS=
finish
