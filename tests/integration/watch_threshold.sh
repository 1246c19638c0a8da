#!/bin/sh
# topdownd's watch mode, its second rule (issue 35: "crosses its threshold for
# a configured time"): the real daemon on a temporary socket and database,
# [watch] over one cgroup v2 group below a root of the test's own, level 1 of
# the test tree over software events (tests/data/live/soft-tree.td, whose
# Running has the threshold "> 0.5": Running = TC / (TC + 1 ms x CS + 1)).
# The group runs a loop of 0.5 ms sleeps (Running a few percent: under), then,
# at a moment the test chooses, a compute loop (Running near 1: over). With
# threshold_for = 1s at 250 ms intervals (4 intervals) and min_shift = 100
# (no move can pass the rank test's rule: every value is a fraction), the one
# change there is must be the threshold's: kind threshold, Running, stored
# with the held intervals (4, all after the shift) and the baseline's (12,
# all before it), found within 2 intervals of the last held one; tdctl changes
# and report --change say so.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_watch.sh"

[ "$(id -u)" = 0 ] || skip_all "the daemon counts cgroups as root here (as CI runs); not root"
command -v perl >/dev/null || skip_all "perl (the workload's loops) is not installed"
watch_cgroups "td-watch-thr-$$" phase
watch_dir
# 250 ms intervals; a baseline of 12 and windows of 4 (the ring: 20 intervals); held 1 s: 4 intervals
printf '%s\n' "[daemon]" "events_dir = $D/events" "" "[watch]" "enable = yes" "root = $root" "depth = 1" \
	"interval = 250ms" "baseline = 12" "window = 4" "p_value = 0.01" "min_shift = 100" "threshold_for = 1s" \
	"drill_level = 2" "drill_duration = 1s" "drill_hotspots = no" "workload_every = 1m" >"$D/topdownd.conf"
"$TOPDOWND" --check-config -c "$D/topdownd.conf" >"$D/check" 2>&1
check_eq "--check-config accepts threshold_for" "0" "$?"

PHASE='select(undef, undef, undef, 0.0005) until -e $ARGV[0]; 1 while 1'
sh -c "echo \$\$ >'$root/phase/cgroup.procs' && exec perl -e '$PHASE' '$D/go'" &
PHASEPID=$!
CLEANUP_PIDS="$PHASEPID"
check "the workload runs in its group" wait_for 10 grep -qx "$PHASEPID" "$root/phase/cgroup.procs"

TD_PFM_MODEL=td_soft_tree "$TOPDOWND" -f -c "$D/topdownd.conf" --socket "$SOCK" --database "$DB" >"$D/log" 2>&1 &
DAEMON=$!
CLEANUP_PIDS="$CLEANUP_PIDS $DAEMON"
check "the daemon starts and answers" wait_for 10 "$TDCTL" status --socket "$SOCK"
session() { sql "$DB" "select id from sessions where schedule = 'watch:$rel/phase'"; }
has_session() { [ -n "$(session)" ]; }
check "a watch session on the group" wait_for 10 has_session
SP=$(session)
# the ring full (20 intervals) and more, all under the threshold
filled() { [ "$(sql "$DB" "select count(*) from intervals where session_id = $SP")" -ge 22 ]; }
check "the group's session writes intervals" wait_for 30 filled
"$TDCTL" changes --socket "$SOCK" --json >"$D/before.json"
check_match "no change while under the threshold" '"changes":\[\]' "$(cat "$D/before.json")"

SHIFT_NS=$(date +%s%N)
touch "$D/go"
one_change() { "$TDCTL" changes --socket "$SOCK" --json | grep -q '"change":1'; }
check "a change is found after the shift" wait_for 30 one_change
"$TDCTL" changes --socket "$SOCK" --json >"$D/changes.json"
"$TDCTL" changes --socket "$SOCK" >"$D/changes.txt"
field() { sed -n "s/.*\"$1\":\([^,}]*\).*/\1/p" "$D/changes.json" | tr -d '"'; }
check_eq "exactly one change" 1 "$(grep -o '"change":' "$D/changes.json" | wc -l | tr -d ' ')"
check_eq "... the threshold's, of Running" "threshold Running" "$(field kind) $(field node)"
check "... from under to over it (Running $(field before) -> $(field after))" awk -v b="$(field before)" \
	-v a="$(field after)" 'BEGIN { exit !(b < 0.5 && a > 0.5) }'
WHEN=$(field when_ns)
# found as soon as it was held: at most 2 of the group's intervals between the last held one and
# the change (counted in the daemon's own intervals; how soon after the shift the loop's Running
# stays over its threshold is the host's load's, and checked below: the held run starts after
# the shift, the interval before it under)
held_last=$(sql "$DB" "select after_last_seq from changes")
n_after=$(sql "$DB" "select count(*) from intervals where session_id = $SP and end_ns <= $WHEN
	and end_ns > (select end_ns from intervals where session_id = $SP and seq = $held_last)")
check "... found within 2 intervals of the last one held ($n_after)" test "$n_after" -le 2
check "... the held intervals all ending after the shift" test "$(sql "$DB" "select count(*) from intervals i, changes c
	where i.session_id = $SP and i.seq between c.after_first_seq and c.after_last_seq and i.end_ns <= $SHIFT_NS")" -eq 0
check_match "tdctl changes says its kind" "^ +1  .*  $rel/phase +Running +threshold " "$(sed -n 2p "$D/changes.txt")"
check_eq "the database has it: kind, node, the watch session" "threshold|Running|$SP" \
	"$(sql "$DB" "select kind, node, session_id from changes")"
set -- $(sql "$DB" "select before_first_seq, before_last_seq, after_first_seq, after_last_seq from changes" | tr '|' ' ')
check_eq "... with the baseline's 12 intervals and the 4 held" "12 4" "$(($2 - $1 + 1)) $(($4 - $3 + 1))"
# the held intervals all over the threshold by the session's stored Running, the one before them under
over_all=$(sql "$DB" "select count(*) from metric_values where session_id = $SP and name = 'Running'
	and target_kind = 'cgroup' and seq between $3 and $4 and value > 0.5")
under_before=$(sql "$DB" "select count(*) from metric_values where session_id = $SP and name = 'Running'
	and target_kind = 'cgroup' and seq = $(($3 - 1)) and value <= 0.5")
check_eq "... Running stored over 0.5 in each held interval, and not in the one before" "4 1" "$over_all $under_before"
DRILL=$(sql "$DB" "select drill_session_id from changes")
check_eq "drill_hotspots = no: the drill-down session $DRILL samples nothing" "0" \
	"$(sql "$DB" "select count(*) from sampling where session_id = '$DRILL'")"
"$TDCTL" report --change 1 -d "$DB" --events-dir "$D/events" >"$D/rc.txt" 2>&1
check_eq "report --change 1 exits 0" 0 "$?"
check_match "... saying it went over its threshold" \
	"^change 1: $rel/phase Running went over its threshold from [0-9.]+% to [0-9.]+% \(medians of 12 and 4 intervals" \
	"$(head -1 "$D/rc.txt")"
check "the daemon's log says it" grep -q "watch: change 1: $rel/phase Running .*over its threshold for 4 intervals" \
	"$D/log"
kill "$DAEMON"
wait "$DAEMON" 2>/dev/null
finish
