#!/bin/sh
# Every value measured (issue 13): record --system and record --cgroup count
# the software events perf stat -a / -G counts over the same seconds. A
# steady workload runs meanwhile — td-demo -c (300 thread births a second,
# each switching) and a shell starting `head | wc` every 10 ms (each process
# faulting its pages in). "The same seconds" is made exact, not hoped for (two
# tools started together open their windows apart, by more on a loaded host):
# an outer perf stat runs around the whole record, an inner one starts after
# the record's first interval is stored and ends before the record is stopped
# (SIGINT: its final read is stored). Every event is monotonic, so each count
# tdctl stores lies between the inner perf's and the outer perf's; one the
# inner perf counts is not stored as 0. Events the outer perf counts 10 times
# or fewer are reported, not judged. Skipped where perf cannot count software
# events system-wide (not installed, not permitted) or, for the cgroup, where
# no cgroup v2 can be created.
. "$(dirname "$0")/lib.sh"

if ! perf stat -a -x, -e context-switches -o "$WORK/probe" -- true 2>/dev/null || ! grep -q context-switches "$WORK/probe"; then
	skip_all "perf stat -a cannot count software events here (perf missing, or not root with perf_event_paranoid > 0)"
fi
EVENTS="task-clock,context-switches,cpu-migrations,page-faults,minor-faults,major-faults"

# count CSV EVENT: perf's count of EVENT in CSV (task-clock in ns: perf prints msec)
count() { awk -F, -v e="$2" '$3 == e { printf "%.0f", (e == "task-clock") ? $1 * 1e6 : $1 }' "$1"; }

# compare NAME TDCTL_DB INNER_CSV OUTER_CSV: one check per event
compare() {
	for pair in task-clock:TASK_CLOCK context-switches:CONTEXT_SWITCHES cpu-migrations:CPU_MIGRATIONS \
		page-faults:PAGE_FAULTS minor-faults:MINOR_FAULTS major-faults:MAJOR_FAULTS; do
		pev=${pair%%:*} tev=${pair#*:}
		lo=$(count "$3" "$pev") hi=$(count "$4" "$pev")
		t=$(sql "$2" "select coalesce(sum(c.value), 0) from counts c join events e on e.id = c.event_id
			join targets t on t.id = c.thread_id where e.name = '$tev' and (t.cpu is not null or t.kind = 'cgroup')")
		if [ -z "$lo" ] || [ -z "$hi" ]; then
			not_ok "$1 $pev: perf printed no count"
		elif [ "$hi" -gt 10 ]; then
			check "$1 $pev between perf's inside and around the record ($lo <= $t <= $hi)" \
				test "$lo" -le "$t" -a "$t" -le "$hi"
			[ "$lo" -gt 0 ] && check "$1 $pev counted, not 0 ($t)" test "$t" -gt 0
		else
			skip "$1 $pev ($t; perf $lo to $hi)" "perf counted 10 or fewer: too few to compare"
		fi
	done
}

# measure NAME DB [-G CGROUP | --cgroup PATH]: the outer perf stat around tdctl record, the inner one
# inside it; writes NAME.inner.csv, NAME.outer.csv, NAME.rc
measure() {
	name=$1 db=$2 pg=$3 tg=$4
	# shellcheck disable=SC2086 # $pg and $tg are option words or empty
	perf stat -a -x, -e "$EVENTS" $pg -o "$WORK/$name.outer.csv" -- sh -c '
		"$1" record $2 -q --duration 120 -I 500 -d "$3" 2>"$4.err" & rec=$!
		n=0
		until [ "$(sqlite3 "$3" "select count(*) from intervals" 2>/dev/null || echo 0)" -gt 0 ] || [ $n -ge 600 ]; do
			sleep 0.05; n=$((n + 1))
		done
		perf stat -a -x, -e "$5" $6 -o "$4.inner.csv" -- sleep 3 2>/dev/null
		kill -INT $rec
		wait $rec
		echo $? >"$4.rc"' sh "$TDCTL" "$tg" "$db" "$WORK/$name" "$EVENTS" "$pg" 2>/dev/null
}

# load [CGROUP_DIR]: the workload for 9 s (in the cgroup when given)
load() {
	sh -c '[ -z "$2" ] || echo $$ >"$2/cgroup.procs" || exit 1
		"$1" -c 300 -s 9 -i 0 -m 40 >/dev/null 2>&1 &
		end=$(($(date +%s) + 9))
		while [ "$(date +%s)" -lt "$end" ]; do head -c 200000 /dev/zero | wc -c >/dev/null; sleep 0.01; done
		wait' sh "$DEMO" "${1:-}" &
	LOAD=$!
}
load
CLEANUP_PIDS=$LOAD
sleep 1
measure sys "$WORK/sys.db" "" --system
check_eq "record --system exits 0 when stopped" 0 "$(cat "$WORK/sys.rc")"
compare "system:" "$WORK/sys.db" "$WORK/sys.inner.csv" "$WORK/sys.outer.csv"
wait "$LOAD" 2>/dev/null

# ---- the same for a cgroup --------------------------------------------------------
mnt=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
cg="td-test-vs-perf-$$"
if [ -z "$mnt" ] || ! mkdir "$mnt/$cg" 2>/dev/null; then
	skip "cgroup: software events against perf stat -G" "no cgroup v2 to create a cgroup in"
	CLEANUP_PIDS=
	finish
	exit
fi
trap 'rmdir "$mnt/$cg" 2>/dev/null; finish_cleanup' EXIT
load "$mnt/$cg"
CLEANUP_PIDS=$LOAD
wait_for 20 grep -qx "$LOAD" "$mnt/$cg/cgroup.procs" || not_ok "the workload moved into $cg"
sleep 1
measure cg "$WORK/cg.db" "-G $cg,$cg,$cg,$cg,$cg,$cg" "--cgroup $mnt/$cg"
check_eq "record --cgroup exits 0 when stopped" 0 "$(cat "$WORK/cg.rc")"
compare "cgroup:" "$WORK/cg.db" "$WORK/cg.inner.csv" "$WORK/cg.outer.csv"
wait "$LOAD" 2>/dev/null
CLEANUP_PIDS=
finish
