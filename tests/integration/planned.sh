#!/bin/sh
# The model events file's tree collected live as the planner packs it: one
# perf group per planned group on every thread, an event the plan carries in
# several groups opened in each, and every formula read from one group's
# time window with that group's coverage as its confidence. A tree over
# software events (tests/data/live/soft-tree.td, --pmu td_soft_tree) makes
# this real on machines without a PMU; the hand computations below use the
# raw counts of the database.
. "$(dirname "$0")/lib.sh"

EV="$WORK/events"
mkdir -p "$EV"
cp "$TD_SRCDIR/events/software.td" "$TD_SRCDIR/tests/data/live/soft-tree.td" "$EV/"
plan_of() {
	sql "$1" "select group_concat(g, ' ') from (select group_idx||':'||group_concat(name, ',') g from
		(select * from events where status='counting' and group_idx >= 1 order by id) group by group_idx order by group_idx)"
}

# ---- default level: the deepest that needs no multiplexing (level 1 here) ----
DB="$WORK/d.db"
"$TDCTL" run -q -I 200 --thread-metrics --events-dir "$EV" --pmu td_soft_tree -d "$DB" -- "$DEMO" -t 2 -l 0 -e 0 -s 1 >/dev/null 2>&1
check_eq "run --pmu td_soft_tree exits 0" 0 "$?"
check_eq "the session records the model and its events file" "td_soft_tree|soft-tree.td" \
	"$(sql "$DB" "select pmu_model, events_file from sessions")"
check_eq "default: level 1's events in one group after software.td's" "1:TC,CS" "$(plan_of "$DB")"
check_eq "level-1 nodes have values for the busy threads" 1 \
	"$(sql "$DB" "select count(*) > 0 from metric_values where target_kind='thread' and name='Running' and value is not null")"
check_eq "level-2 nodes were not collected: no value" 0 \
	"$(sql "$DB" "select count(*) from metric_values where name like 'Running.%' and value is not null")"

# ---- -l 2 with rotation: two groups taking turns, TC and CS in both ----------
DB="$WORK/l2.db"
"$TDCTL" run -I 200 -l 2 --rotate 50 --thread-metrics --events-dir "$EV" --pmu td_soft_tree -d "$DB" -- \
	"$DEMO" -t 2 -l 1 -L 300 -e 1 -s 2 >/dev/null 2>"$WORK/err"
check_eq "run -l 2 --rotate 50 exits 0" 0 "$?"
check_eq "level 2: the planner's two groups, TC and CS carried in both" "1:TC,CS,MINF 2:TC,CS,MAJF" "$(plan_of "$DB")"
check_match "the run says the groups are multiplexed, once" "soft-tree.td needs 2 perf groups" "$(cat "$WORK/err")"
planned=$("$TDCTL" plan --events-dir "$EV" --pmu td_soft_tree -l 2 | awk '/^group/ { g = $2 + 0 } /^    / && g { e[g] = e[g] "," $1 }
	END { for (k = 1; k in e; k++) printf "%s%d:%s", (k > 1 ? " " : ""), k, substr(e[k], 2) }')
check_eq "the groups opened are those 'tdctl plan' shows" "$planned" "$(plan_of "$DB")"

# each group's scaled counts (value * enabled / running) and coverage, per thread interval
sql "$DB" "create view g as select c.interval_id iv, c.thread_id th, e.group_idx grp, e.name name,
	case when c.running >= c.enabled then 1.0 * c.value else 1.0 * c.value * c.enabled / c.running end v,
	min(1.0, 1.0 * c.running / c.enabled) cov from counts c join events e on e.id = c.event_id
	where e.group_idx in (1, 2) and c.running > 0;
	create view grp as select iv, th, grp, max(cov) cov, sum(case when name='TC' then v end) tc,
	sum(case when name='CS' then v end) cs, sum(case when name='MINF' then v end) minf,
	sum(case when name='MAJF' then v end) majf from g group by iv, th, grp;
	create view run as select *, tc / (tc + 1e6 * cs + 1) r from grp;
	create view m as select interval_id iv, target_id th, name, value, confidence conf, spans
	from metric_values where target_kind = 'thread'"
share() { sql "$DB" "select round(avg(cov), 2) from grp where grp = $1 and th in (select id from threads
	where comm like 'compute%' or comm like 'memory%')"; }
# One rotated group is enabled at a time: the two share the time each thread ran, whatever the host's
# load does to how much of each 50 ms turn a thread runs (a loaded host gave one group 72 % on average)
for k in 1 2; do
	s=$(share "$k")
	check "group $k counted the busy threads part of the time (mean coverage $s)" \
		awk -v s="$s" 'BEGIN { exit !(s > 0 && s < 1) }'
done
split=$(sql "$DB" "select round(1.0 * sum(run) / sum(en), 4) from (select c.interval_id, c.thread_id th, max(c.enabled) en,
	sum(c.running) run from counts c join events e on e.id = c.event_id where e.group_idx in (1, 2) and e.name = 'TC'
	group by c.interval_id, c.thread_id) where th in (select id from threads where comm like 'compute%' or comm like 'memory%')")
check "the two groups' running times add up to the time the busy threads ran ($split of it, 0.97 to 1.01)" \
	awk -v s="$split" 'BEGIN { exit !(s >= 0.97 && s <= 1.01) }'
for k in 1 2; do
	n=$(sql "$DB" "select count(*) from grp where grp = $k")
	check "group $k has counted thread intervals to check ($n)" test "$n" -ge 5
done
# a value and its confidence equal to what one group's own counts give
check_eq "Running.Faulting = group 1's Running * MINF / (MINF + 1), with group 1's coverage" 0 \
	"$(sql "$DB" "select count(*) from run join m on m.iv = run.iv and m.th = run.th and m.name = 'Running.Faulting'
		where grp = 1 and (m.value is null or abs(m.value - r * minf / (minf + 1)) > 1e-9 * r
		or abs(m.conf - run.cov) > 1e-12 or m.spans)")"
check_eq "Running.Major = group 2's Running * MAJF / (MAJF + 1), with group 2's coverage" 0 \
	"$(sql "$DB" "select count(*) from run join m on m.iv = run.iv and m.th = run.th and m.name = 'Running.Major'
		where grp = 2 and (m.value is null or abs(m.value - r * majf / (majf + 1)) > 1e-9 * r
		or abs(m.conf - run.cov) > 1e-12 or m.spans)")"
check_eq "Running = TC / (TC + 1e6 CS + 1) of the group counted longer (group 1 on a tie)" 0 \
	"$(sql "$DB" "select count(*) from m join run a on a.iv = m.iv and a.th = m.th and a.grp = 1
		join run b on b.iv = m.iv and b.th = m.th and b.grp = 2 where m.name = 'Running'
		and (abs(m.value - (case when b.cov > a.cov then b.r else a.r end)) > 1e-9
		or abs(m.conf - max(a.cov, b.cov)) > 1e-12)")"
both=$(sql "$DB" "select count(*) from run a join run b on a.iv = b.iv and a.th = b.th and b.grp = 2
	where a.grp = 1 and abs(a.r - b.r) > 1e-6")
check "...in thread intervals where the two groups' windows really differ ($both)" test "$both" -ge 3
check_eq "a group not counted in an interval the thread ran in: its nodes are not available, never 0" 0 \
	"$(sql "$DB" "select count(*) from m where m.name = 'Running.Major' and m.value is not null and exists
		(select 1 from counts c join events e on e.id = c.event_id where c.interval_id = m.iv and c.thread_id = m.th
		and e.group_idx = 2 and c.running = 0 and c.enabled > 0)")"
check_eq "no value mixes the two groups' windows (nothing spans)" 0 \
	"$(sql "$DB" "select count(*) from metric_values where spans")"
check_eq "values below 100 % confidence are there (the groups took turns)" 1 \
	"$(sql "$DB" "select count(*) > 0 from m where name = 'Running.Major' and conf < 0.9")"

# ---- the stored session evaluates the same way again --------------------------
sql "$DB" "create table live as select * from metric_values"
"$TDCTL" recompute 1 -d "$DB" --events-dir "$EV" --threads >/dev/null 2>&1
check_eq "recompute exits 0" 0 "$?"
check_eq "recompute reproduces every live thread value, confidence and span flag" 0 \
	"$(sql "$DB" "select count(*) from live l left join metric_values r on r.interval_id = l.interval_id
		and r.target_id = l.target_id and r.name = l.name where l.target_kind = 'thread'
		and (r.name is null or r.spans != l.spans or (l.value is null) != (r.value is null)
		or abs(l.value - r.value) > 1e-12 or abs(l.confidence - r.confidence) > 1e-12)")"
out=$("$TDCTL" report 1 -d "$DB" --events-dir "$EV" --color never 2>&1)
check_match "report shows the tree with its level-2 nodes" "Faulting" "$out"

# ---- --nodes: the named node and its ancestors only ----------------------------
DB="$WORK/n.db"
"$TDCTL" run -q -I 200 --nodes Running.Major --events-dir "$EV" --pmu td_soft_tree -d "$DB" -- \
	"$DEMO" -t 1 -l 0 -e 0 -s 1 >/dev/null 2>&1
check_eq "--nodes Running.Major: one group with its events and its parent's" "1:TC,CS,MAJF" "$(plan_of "$DB")"

# ---- what cannot be planned is refused in one line ---------------------------------
"$TDCTL" run -q -l 5 --events-dir "$EV" --pmu td_soft_tree -d "$DB" -- true 2>"$WORK/bad"
check_eq "-l beyond the tree: exit 1" 1 "$?"
check_match "one line naming the levels there are" "^tdctl: level 5: soft-tree.td has levels 1 to 2$" "$(cat "$WORK/bad")"
"$TDCTL" run -q --nodes Runnin --events-dir "$EV" --pmu td_soft_tree -d "$DB" -- true 2>"$WORK/bad"
check_eq "an unknown node: exit 1" 1 "$?"
check_match "one line with near matches" "^tdctl: unknown node 'Runnin' in soft-tree.td; near matches: Running" "$(cat "$WORK/bad")"
"$TDCTL" run -q --pmu no_such_model --events-dir "$EV" -d "$DB" -- true 2>"$WORK/bad"
check_eq "--pmu with no events file: exit 1" 1 "$?"
check_match "one line saying so" "^tdctl: no events file in .* serves PMU model 'no_such_model'" "$(cat "$WORK/bad")"
"$TDCTL" run -q -l 1 --nodes Running -d "$DB" -- true 2>"$WORK/bad"
check_eq "-l with --nodes: exit 2" 2 "$?"
check_eq "sessions left by the refusals: none" 1 "$(sql "$DB" "select count(*) from sessions")"
finish
