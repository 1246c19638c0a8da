#!/bin/sh
# tdctl run: exit status passed through, session/threads/intervals recorded,
# child processes followed, and the summary printed.
. "$(dirname "$0")/lib.sh"

DB="$WORK/r.db"
"$TDCTL" run -I 200 -d "$DB" -- "$DEMO" -t 2 -l 1 -L 300 -e 1 -s 1 >"$WORK/out" 2>"$WORK/err"
check_eq "run exits with the command's status (0)" 0 "$?"
check_eq "one completed session with the command's exit status" "run|completed|0" \
	"$(sql "$DB" "select kind||'|'||status||'|'||exit_code from sessions")"
check_eq "main + 2 + 1 late threads recorded, and the unlisted remainder (tid 0)" "4|1" \
	"$(sql "$DB" "select sum(tid != 0), sum(tid = 0) from threads")"
n=$(sql "$DB" "select count(*) from intervals")
check "at least 5 intervals of 200 ms in a >1 s run" test "$n" -ge 5
check_eq "interval sequence numbers have no gap" "$((n - 1))" "$(sql "$DB" "select max(seq) from intervals")"
check_eq "software events counting" "CONTEXT_SWITCHES CPU_MIGRATIONS INVOLUNTARY_SWITCHES MAJOR_FAULTS MINOR_FAULTS PAGE_FAULTS TASK_CLOCK VOLUNTARY_SWITCHES" \
	"$(sql "$DB" "select group_concat(name, ' ') from (select name from events where status='counting' order by name)")"
check "enabled and running times recorded and never running > enabled" test \
	"$(sql "$DB" "select count(*) from counts where running > enabled")" = 0
check "task-clock enabled time is nonzero" test \
	"$(sql "$DB" "select sum(c.enabled) from counts c join events e on e.id=c.event_id where e.name='TASK_CLOCK'")" -gt 0
check_match "summary has the per-thread table" "TID +COMM +CPU s +util +switch/s" "$(cat "$WORK/err")"
check_match "summary names the workload threads" "compute-0" "$(cat "$WORK/err")"
check_match "demo output reaches stdout" "td-demo: 3 threads of work done" "$(cat "$WORK/out")"
# What was planned and what failed must agree with what doctor says about this
# same host (its CPU varies from run to run: Zen 4 has amd-zen4.td, Zen 5 amd-zen5.td
# by CPUID, CPUs neither libpfm4 nor CPUID names get generic.td; a VM without a PMU is
# software-only).
"$TDCTL" doctor --json >"$WORK/doctor.json"
doc() { sql ":memory:" "select coalesce(json_extract(readfile('$WORK/doctor.json'), '$1'), '')"; }
file=$(doc '$.events_file')
rung=$(doc '$.rung')
hwfile=${file:-generic.td}
check_eq "the session's rung and events file are doctor's ($rung, ${file:-none})" "$rung|$file" \
	"$(sql "$DB" "select rung || '|' || coalesce(events_file, '') from sessions where id = 1")"
check_eq "the hardware events were planned from $hwfile, and only software.td and /proc beside it" \
	"$hwfile proc software.td" "$(sql "$DB" "select group_concat(file, ' ') from (select distinct file from events order by file)")"
nhw=$(sql "$DB" "select count(*) from events where file = '$hwfile'")
check "$hwfile planned at least one event ($nhw)" test "$nhw" -ge 1
case $rung in
software-only)
	check_eq "software-only rung: every $hwfile event failed, none counts" "$nhw|0" \
		"$(sql "$DB" "select sum(status = 'failed') || '|' || sum(status = 'counting') from events where file = '$hwfile'")" ;;
*)
	check_eq "rung $rung: every $hwfile event counts" "$nhw" \
		"$(sql "$DB" "select sum(status = 'counting') from events where file = '$hwfile'")" ;;
esac

"$TDCTL" run -q -d "$DB" -- sh -c 'exit 3' 2>/dev/null
check_eq "exit status 3 passed through" 3 "$?"
"$TDCTL" run -q -d "$DB" -- sh -c 'kill -TERM $$' 2>/dev/null
check_eq "death by SIGTERM gives 143" 143 "$?"
check_eq "both sessions completed with their statuses" "3 143" \
	"$(sql "$DB" "select group_concat(exit_code, ' ') from (select exit_code from sessions where id > 1 order by id)")"

# children: a shell that starts the demo in the background and waits
"$TDCTL" run -q -I 200 -d "$WORK/c.db" -- sh -c "\"$DEMO\" -t 2 -l 0 -e 0 -s 1 >/dev/null; true" 2>/dev/null
check_eq "run through a shell exits 0" 0 "$?"
check_eq "the child process and its threads were followed" 2 \
	"$(sql "$WORK/c.db" "select count(*) from threads where comm like 'compute%' or comm like 'memory%'")"
check "the child process has its own PID in the threads table" test \
	"$(sql "$WORK/c.db" "select count(distinct pid) from threads")" -ge 2
finish
