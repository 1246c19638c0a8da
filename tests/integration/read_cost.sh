#!/bin/sh
# The bound topdown's reads put on a session's counts, as summary and report
# print it: "its reads added at most X % to EVENT (N per read ...)", X being
# every read of the event's group (one stored row per interval and thread)
# times the stored per-read cost, over the event's count — computed here by
# sqlite3 from the rows. The per-read cost is measured only where the PMU
# counts kernel mode (test_read_cost_pmu); here it is written into the events
# row of a real session, as a PMU host's session would hold it.
. "$(dirname "$0")/lib.sh"

DB="$WORK/r.db"
"$TDCTL" run -I 50 -d "$DB" -- "$DEMO" -t 1 -l 0 -e 0 -s 1 >/dev/null 2>"$WORK/err"
check_eq "a run exits 0" 0 "$?"
# software events (type 1): reads add nothing to them, so nothing is measured (a host with a
# PMU measures its hardware events: their costs are cleared below, to start from none)
check_eq "no software event has a read cost" 0 \
	"$(sql "$DB" "select count(*) from events where read_cost is not null and type = 1")"
sql "$DB" "update events set read_cost = null"
"$TDCTL" report 1 -d "$DB" >"$WORK/before" 2>&1
check "a session with no read cost: its report states no bound" sh -c "! grep -q 'its reads added' '$WORK/before'"

sql "$DB" "update events set read_cost = 1500 where session_id = 1 and name = 'TASK_CLOCK'"
want=$(sql "$DB" "select printf('%.2g', 100.0 * count(*) * 1500 / sum(c.value)) from counts c join events e on e.id = c.event_id
	where e.session_id = 1 and e.name = 'TASK_CLOCK'")
"$TDCTL" report 1 -d "$DB" >"$WORK/after" 2>&1
check_match "the report's overhead line bounds what the reads added ($want %)" \
	"its reads added at most $want % to TASK_CLOCK \\(1500 per read of a running target, measured\\)" "$(cat "$WORK/after")"
finish
