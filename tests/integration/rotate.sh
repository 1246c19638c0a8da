#!/bin/sh
# --counters N splits the events files into groups of at most N events;
# --rotate MS enables one group at a time (the TASK_CLOCK group, the
# reference, always on). Groups really take turns, the stored counts are
# the kernel's (value, running; enabled = the reference's enabled time) as
# dumped by TD_DEBUG_RAW, and confidence = running / enabled.
. "$(dirname "$0")/lib.sh"

DB="$WORK/r.db"
TD_DEBUG_RAW="$WORK/raw" "$TDCTL" run -I 200 --counters 2 --rotate 50 --thread-metrics -d "$DB" -- "$DEMO" -t 2 -l 0 -e 0 -s 2 \
	>/dev/null 2>"$WORK/err"
check_eq "run exits 0" 0 "$?"
check_eq "software.td split into groups of 2, each info metric's events together" \
	"0:TASK_CLOCK,CONTEXT_SWITCHES 1:CPU_MIGRATIONS,PAGE_FAULTS 2:MINOR_FAULTS,MAJOR_FAULTS" \
	"$(sql "$DB" "select group_concat(g, ' ') from (select group_idx||':'||group_concat(name, ',') g from
		(select * from events where status='counting' and group_idx >= 0 order by id) group by group_idx order by group_idx)")"
busy="t.comm like 'compute%' or t.comm like 'memory%'"
share() {
	sql "$DB" "select round(1.0 * sum(c.running) / sum(c.enabled), 3) from counts c join events e on e.id=c.event_id
		join threads t on t.id=c.thread_id where e.group_idx=$1 and ($busy)"
}
check_eq "the reference group (TASK_CLOCK) counts all the time" 1.0 "$(share 0)"
for g in 1 2; do
	s=$(share "$g")
	check "rotated group $g runs about half the time (share $s, 1/2 +- 0.2)" \
		awk -v s="$s" 'BEGIN { exit !(s >= 0.3 && s <= 0.7) }'
done
both=$(sql "$DB" "select round(1.0 * (select sum(c.running) from counts c join events e on e.id=c.event_id
		join threads t on t.id=c.thread_id where e.name in ('CPU_MIGRATIONS','MAJOR_FAULTS') and ($busy))
	/ (select sum(c.running) from counts c join events e on e.id=c.event_id join threads t on t.id=c.thread_id
		where e.name='TASK_CLOCK' and ($busy)), 3)")
check "the two rotated groups take turns: their running times add up to the reference's (ratio $both, 1 +- 0.05)" \
	awk -v s="$both" 'BEGIN { exit !(s >= 0.95 && s <= 1.05) }'

# what the kernel reported, interval by interval, against the database
sql "$DB" "create table raw(end_ns int, tid int, grp int, value int, enabled int, running int, ref int)"
sqlite3 -batch -separator ' ' "$DB" ".import $WORK/raw raw"
nraw=$(sql "$DB" "select count(*) from raw")
check "the raw dump has rows for every group" test "$nraw" -gt 30
join="from raw r join intervals i on i.end_ns = r.end_ns join threads t on t.tid = r.tid
	join events e on e.id = (select min(id) from events where group_idx = r.grp)
	join counts c on c.interval_id = i.id and c.thread_id = t.id and c.event_id = e.id"
check_eq "every raw reading is a stored count" "$nraw" "$(sql "$DB" "select count(*) $join")"
check_eq "stored value and running are the kernel's deltas" 0 \
	"$(sql "$DB" "select count(*) $join where c.value != r.value or c.running != r.running")"
check_eq "reference group: stored enabled is the kernel's" 0 \
	"$(sql "$DB" "select count(*) $join where r.grp = 0 and c.enabled != r.enabled")"
check_eq "rotated groups: stored enabled = the reference's enabled time (or running if larger)" 0 \
	"$(sql "$DB" "select count(*) $join where r.grp > 0 and c.enabled != max(r.ref, r.running)")"
check "rotated groups: the kernel's own enabled time stops while we disable them (raw enabled < reference)" test \
	"$(sql "$DB" "select count(*) from raw where grp > 0 and ref > 0 and enabled < 0.8 * ref")" -gt 5
check_eq "confidence of Faults_per_s = running / enabled of PAGE_FAULTS (every counted thread interval)" "1|0" \
	"$(sql "$DB" "select count(*) > 0, sum(m.confidence is null or abs(m.confidence - 1.0 * c.running / c.enabled) > 1e-12)
		from counts c join events e on e.id=c.event_id and e.name='PAGE_FAULTS'
		join metric_values m on m.interval_id=c.interval_id and m.target_id=c.thread_id and m.name='Faults_per_s'
		where c.running > 0")"
check "some Faults_per_s values have confidence below 0.8" test \
	"$(sql "$DB" "select count(*) from metric_values where name='Faults_per_s' and confidence < 0.8")" -gt 0
check_match "the summary shows the confidence below 100 %" "Faults_per_s +lowest +[0-9.]+%" "$(cat "$WORK/err")"

"$TDCTL" run -q -I 200 --counters 2 -d "$WORK/n.db" -- "$DEMO" -t 1 -l 0 -e 0 -s 1 >/dev/null 2>&1
check_eq "--counters without --rotate: every group counts all the time" 0 \
	"$(sql "$WORK/n.db" "select count(*) from counts c join events e on e.id=c.event_id where e.group_idx >= 0 and c.running != c.enabled")"
"$TDCTL" run -q --rotate 0 -d "$WORK/n.db" -- true 2>"$WORK/bad"
check_eq "--rotate 0 is refused with exit 2" 2 "$?"
check_match "one line saying what to give" "^tdctl: bad '--rotate 0': give milliseconds" "$(cat "$WORK/bad")"
"$TDCTL" run -q --counters x -d "$WORK/n.db" -- true 2>"$WORK/bad"
check_eq "--counters x is refused with exit 2" 2 "$?"
# without a model events file for the CPU, -l and --nodes have no tree to plan;
# LIBPFM_FORCE_PMU naming no PMU makes libpfm4 know no model on any host (a CPU
# it does not know; a Zen 5 still gets its model, and amd-zen5.td, from CPUID)
if LIBPFM_FORCE_PMU=no-such-pmu "$TDCTL" doctor | grep -q "^events file: *none"; then
	for opt in "-l 1" "--nodes Frontend_Bound"; do
		LIBPFM_FORCE_PMU=no-such-pmu "$TDCTL" run -q $opt -d "$WORK/n.db" -- true 2>"$WORK/bad"
		check_eq "run $opt without a model file: refused with exit 1" 1 "$?"
		check_match "run $opt: one line saying why and what to do" "^tdctl: -l/--nodes.*run without them, or name a model with --pmu" "$(cat "$WORK/bad")"
	done
else
	skip "run -l/--nodes without a model file is refused" "LIBPFM_FORCE_PMU=no-such-pmu still left a model with a file on this host (libpfm4's, or CPUID's)"
fi
finish
