#!/bin/sh
# One evaluator (issue 12): the same stored counts give the same metric
# values bit for bit whoever evaluates them — live collection, `tdctl
# recompute` and the report — on
#   - a live session of a tree over software events (tests/data/live/
#     soft-tree.td, --pmu td_soft_tree), counted for real on this machine,
#     with two perf groups taking turns (--rotate) so that confidence is
#     below 1 and level-2 nodes read each group's own window;
#   - the toplev oracle's Skylake level-3 counts imported (one interval,
#     every node of the file's L3 tree);
#   - the oracle's SMT case imported per CPU (two sibling CPUs and their
#     `whole` sum, SMT on).
# tests/tools/eval_same does the comparing (its opening comment says what).
. "$(dirname "$0")/lib.sh"

SAME="$TD_BUILDDIR/tests/tools/eval_same"
ORACLE="$TD_SRCDIR/tests/data/oracle/toplev/inputs"
EV="$WORK/events"
mkdir -p "$EV"
cp "$TD_SRCDIR"/events/*.td "$TD_SRCDIR/tests/data/live/soft-tree.td" "$EV/"

# run_same NAME DB: eval_same's TAP lines, as this test's
run_same() {
	"$SAME" "$2" 1 "$EV" >"$WORK/$1.tap" 2>"$WORK/$1.err"
	rc=$?
	while IFS= read -r line; do
		case "$line" in
		"not ok "*) not_ok "$1: ${line#not ok * - }" ;;
		"ok "*) ok "$1: ${line#ok * - }" ;;
		esac
	done <"$WORK/$1.tap"
	check_eq "$1: eval_same exits 0 (stderr: $(head -c 600 "$WORK/$1.err" | tr '\n' ' '))" 0 "$rc"
}

# ---- live: soft-tree's level 2 in two rotating groups -------------------------
DB="$WORK/live.db"
"$TDCTL" run -q -I 100 -l 2 --rotate 30 --thread-metrics --events-dir "$EV" --pmu td_soft_tree -d "$DB" -- \
	"$DEMO" -t 3 -l 1 -L 300 -e 1 -s 1 >/dev/null 2>&1
check_eq "live: run exits 0" 0 "$?"
check "live: the session has several intervals and two model groups" test \
	"$(sql "$DB" "select (select count(*) from intervals) >= 3 and
		(select count(distinct group_idx) from events where file='soft-tree.td') = 2")" = 1
check "live: some node value has confidence below 1 (the groups took turns)" test \
	"$(sql "$DB" "select count(*) from metric_values where kind='node' and confidence < 0.99")" -gt 0
run_same live "$DB"

# ---- imported: toplev's SKL level-3 counts, and the SMT pair ---------------------
DB="$WORK/skl-l3.db"
"$TDCTL" import -q --pmu skl --smt off -d "$DB" "$ORACLE/skl-l3.perf.csv" 2>"$WORK/skl-l3.import.err"
check_eq "skl-l3: import exits 0" 0 "$?"
run_same skl-l3 "$DB"

DB="$WORK/skl-smt.db"
"$TDCTL" import -q --pmu skl --smt on -d "$DB" "$ORACLE/skl-smt-l2.perf.csv" 2>"$WORK/skl-smt.import.err"
check_eq "skl-smt-l2: import exits 0" 0 "$?"
check_eq "skl-smt-l2: two CPUs and their whole sum" "cpu:0 cpu:1 whole" \
	"$(sql "$DB" "select group_concat(l, ' ') from (select case kind when 'cpu' then 'cpu:' || cpu else kind end l
		from targets order by id)")"
run_same skl-smt "$DB"

finish
