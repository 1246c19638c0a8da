#!/bin/sh
# Commands that change stored data change nothing when they cannot do their
# whole job: recompute without the events files a session needs exits 1 with
# one line and leaves every stored value as it was; prune --dry-run names what
# prune would delete and deletes nothing; prune then deletes exactly that.
. "$(dirname "$0")/lib.sh"

ORACLE="$TD_SRCDIR/tests/data/oracle/toplev/inputs"
DB="$WORK/n.db"
# snapshot: every stored metric value and event alias, in a stable order
snapshot() {
	sql "$DB" "select interval_id, target_id, metric_id, quote(value), quote(confidence), flagged, bottleneck from metrics
		order by 1, 2, 3; select id, quote(alias) from events order by id"
}

"$TDCTL" import -q --pmu skl -d "$DB" "$ORACLE/skl-l3.perf.csv"
# a live run planned from intel-skl.td whatever this CPU is (its hardware events fail here)
"$TDCTL" run -q --pmu skl -I 200 -d "$DB" -- "$DEMO" -t 1 -l 0 -e 0 -s 1 >/dev/null 2>&1
check_eq "two sessions: the import and a run planned from intel-skl.td" "import|run intel-skl.td" \
	"$(sql "$DB" "select group_concat(kind, '|') from sessions") $(sql "$DB" "select distinct file from events where session_id = 2 and file like 'intel%'")"
check "both have stored metric values" test \
	"$(sql "$DB" "select count(distinct i.session_id) from metrics m join intervals i on i.id = m.interval_id")" = 2
before=$(snapshot)

mkdir "$WORK/empty" "$WORK/soft"
cp "$TD_SRCDIR/events/software.td" "$TD_SRCDIR/events/generic.td" "$WORK/soft/"
for s in 1 2; do
	for dir in empty soft; do
		TOPDOWN_EVENTS_DIR="$WORK/$dir" "$TDCTL" recompute "$s" -d "$DB" >/dev/null 2>"$WORK/err"
		check_eq "recompute $s with events dir '$dir': exit 1, one line" "1|1" "$?|$(wc -l <"$WORK/err" | tr -d ' ')"
		check_eq "recompute $s with events dir '$dir': every stored value unchanged" "$before" "$(snapshot)"
	done
done
check_grep "the model file's absence is named, and that nothing changed" \
	"(the session's tree was planned from intel-skl.td): give --events-dir with one; nothing was changed" "$WORK/err"
"$TDCTL" recompute 1 -d "$DB" >/dev/null
check_eq "recompute with the right files exits 0 and gives the same values" "0|$before" "$?|$(snapshot)"

# ---- prune --dry-run ---------------------------------------------------------------
sql "$DB" "update sessions set started_ns = 0, ended_ns = 1 where id = 1"
sum=$(cksum <"$DB")
out=$("$TDCTL" prune -d "$DB" --max-age 1d --dry-run)
check_eq "prune --dry-run exits 0" 0 "$?"
check_match "it says what it would delete: the day-old session" "^would prune .*: 1 session and 0 intervals, .* KiB -> about .* KiB; nothing was deleted$" "$out"
check_eq "nothing was deleted: both sessions, the file unchanged" "2|$sum" "$(sql "$DB" "select count(*) from sessions")|$(cksum <"$DB")"
out=$("$TDCTL" prune -d "$DB" --max-age 1d)
check_match "prune then deletes what the dry run named" "^pruned .*: 1 session and 0 intervals deleted" "$out"
check_eq "the run is left" run "$(sql "$DB" "select group_concat(kind) from sessions")"
finish
