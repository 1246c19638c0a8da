#!/bin/sh
# plan_sched.sh — every group `tdctl plan` makes is one the Linux x86 PMU
# driver schedules: each model (skl icl spr gnr srf zen4 zen5) x level 1-6 x SMT
# on/off x NMI watchdog on/off goes through tests/tools/sched_check.py, a
# check with its own constraint tables and its own counter assignment, both
# transcribed from the kernel source (linux 6.12.117), sharing nothing with
# src/plan/ or the events files' counter lines. Prints the table of groups
# per model and level. Then shows the check is not blind: events files with
# kernel rules removed (a temp copy) give plans it rejects.
# TD_PLAN_SCHED_SAMPLE=1 (tests/check-all.sh's ASan build, which looks for
# memory errors on the paths the plain build's full matrix checks): each
# model's SMT x watchdog pairs alternate, half of them, each pair still met
# on four of the seven models.
. "$(dirname "$0")/lib.sh"
CHECK="$TD_SRCDIR/tests/tools/sched_check.py"
EVENTS="$TD_SRCDIR/events"

if ! command -v python3 >/dev/null 2>&1; then
	skip_all "python3 (runs tests/tools/sched_check.py) is not installed"
fi

# run_check DIR PFM-MODEL MODEL LEVEL SMT WATCHDOG: "groups N unschedulable M" or "n/a" (no such level)
run_check() {
	if ! "$TDCTL" plan --pmu "$2" -l "$4" --smt "$5" --watchdog "$6" --events-dir "$1" --json \
		>"$WORK/plan.json" 2>"$WORK/plan.err"; then
		if grep -q "has levels 1 to" "$WORK/plan.err"; then echo "n/a"; else echo "plan failed: $(cat "$WORK/plan.err")"; fi
		return 0
	fi
	python3 "$CHECK" "$3" "$5" "$6" <"$WORK/plan.json" >"$WORK/check.out" 2>&1
	grep "^group .*UNSCHEDULABLE" "$WORK/check.out" >&2
	tail -1 "$WORK/check.out"
}

printf '# groups per model and level (SMT on/off, NMI watchdog on/off); all checked schedulable\n'
printf '# %-5s %-4s %-3s %s\n' model smt wd "L1 L2 L3 L4 L5 L6"
mi=0
for pair in skl:skl icl:icl spr:spr gnr:gnr srf:srf amd64_fam19h_zen4:zen4 amd64_fam1ah_zen5:zen5; do
	pfm=${pair%%:*}
	model=${pair##*:}
	mi=$((mi + 1)) ci=0
	for smt in on off; do
		for wd in on off; do
			ci=$((ci + 1))
			if [ "${TD_PLAN_SCHED_SAMPLE:-0}" = 1 ] && [ $(((mi + ci) % 2)) = 1 ]; then
				printf '# %-5s %-4s %-3s  (not in the sample)\n' "$model" "$smt" "$wd"
				continue
			fi
			row=""
			for level in 1 2 3 4 5 6; do
				r=$(run_check "$EVENTS" "$pfm" "$model" "$level" "$smt" "$wd")
				case "$r" in
				n/a) row="$row  -" ;;
				"groups "*" unschedulable 0")
					n=${r#groups }
					row="$row $(printf '%2s' "${n%% *}")"
					ok "$model level $level SMT $smt watchdog $wd: ${n%% *} groups, all schedulable" ;;
				*)
					row="$row  X"
					not_ok "$model level $level SMT $smt watchdog $wd: $r" ;;
				esac
			done
			printf '# %-5s %-4s %-3s%s\n' "$model" "$smt" "$wd" "$row"
		done
	done
done

# The check catches a plan the kernel refuses. (1) Skylake without its
# counters=0-3 lines (intel_skl_event_constraints' 0xD0-0xD2 events): the
# planner puts more than four of them into one group.
mkdir -p "$WORK/ev"
cp "$EVENTS"/*.td "$WORK/ev/"
awk '/^limit .*\\$/ { skip = 1; next } skip && /\\$/ { next } skip { skip = 0; next }
     /^limit .*counters=0-3/ { next } { print }' "$EVENTS/intel-skl.td" >"$WORK/ev/intel-skl.td"
check "broken skl file: the 0-3 limits are gone" sh -c "! grep -q 'counters=0-3' '$WORK/ev/intel-skl.td'"
r=$(run_check "$WORK/ev" skl skl 4 off off 2>"$WORK/why")
check_match "broken skl file: level 4 has unschedulable groups" "unschedulable [1-9]" "$r"
check_grep "broken skl file: the reason is a counter assignment" "no counter assignment at perf_event_open" "$WORK/why"

# (2) Groups as a broken planner would make them, checked without the
# planner: five MEM_INST_RETIRED (0xD0) events, which Skylake counts on
# counters 0-3 only, with SMT off (8 counters): no counter for the fifth,
# four fit. On Ice Lake two offcore-response values fit (OFFCORE_RSP_0, then
# the alternate MSR), a third does not; one value shared by three events does.
ev() { # ev N CONFIG [CONFIG1]
	printf '{"alias":"E%s","event":"raw","class":"","type":4,"config":"0x%s","config1":%s}' \
		"$1" "$2" "$(if [ $# -gt 2 ]; then printf '"0x%s"' "$3"; else printf null; fi)"
}
printf '{"groups":[{"group":1,"events":[%s,%s,%s,%s,%s]},{"group":2,"events":[%s,%s,%s,%s]}]}\n' \
	"$(ev 1 81d0)" "$(ev 2 82d0)" "$(ev 3 21d0)" "$(ev 4 42d0)" "$(ev 5 11d0)" \
	"$(ev 1 81d0)" "$(ev 2 82d0)" "$(ev 3 21d0)" "$(ev 4 42d0)" >"$WORK/five.json"
python3 "$CHECK" skl off off <"$WORK/five.json" >"$WORK/five.out"
check_grep "five 0xD0 events in one skl group: unschedulable" \
	"group 1: UNSCHEDULABLE: no counter assignment at perf_event_open" "$WORK/five.out"
check_grep "four of them: schedulable" "group 2: schedulable (4 events)" "$WORK/five.out"
printf '{"groups":[{"group":1,"events":[%s,%s]},{"group":2,"events":[%s,%s,%s]},{"group":3,"events":[%s,%s,%s]}]}\n' \
	"$(ev 1 1b7 10001)" "$(ev 2 1b7 10002)" \
	"$(ev 1 1b7 10001)" "$(ev 2 1b7 10002)" "$(ev 3 1bb 10004)" \
	"$(ev 1 1b7 10001)" "$(ev 2 1b7 10001)" "$(ev 3 1bb 10001)" >"$WORK/ocr.json"
python3 "$CHECK" icl off off <"$WORK/ocr.json" >"$WORK/ocr.out"
check_grep "icl: two offcore-response values: schedulable" "group 1: schedulable" "$WORK/ocr.out"
check_grep "icl: a third value: emptyconstraint" "group 2: UNSCHEDULABLE: E3: RSP_0 holds another value" "$WORK/ocr.out"
check_grep "icl: three events of one value share the MSR" "group 3: schedulable" "$WORK/ocr.out"
# Broadwell (intel_bdw_event_constraints, intel/core.c:530-543): L1D_PEND_MISS.PENDING (0x0148) and
# CYCLE_ACTIVITY with umask bit 0x08 (STALLS_L1D_MISS, 0xa3/0x0c c=12) count on counter 2 only: not both
# in one group; STALLS_TOTAL (0xa3/0x04, bit 0x08 clear) is free. Skylake-SP's table has neither rule.
printf '{"groups":[{"group":1,"events":[%s,%s]},{"group":2,"events":[%s,%s]}]}\n' \
	"$(ev 1 148)" "$(ev 2 c000ca3)" "$(ev 1 148)" "$(ev 2 40004a3)" >"$WORK/bdw.json"
python3 "$CHECK" bdx off off <"$WORK/bdw.json" >"$WORK/bdw.out"
check_grep "bdx: two counter-2 events: unschedulable" "group 1: UNSCHEDULABLE: no counter assignment" "$WORK/bdw.out"
check_grep "bdx: STALLS_TOTAL beside L1D_PEND_MISS.PENDING: schedulable" "group 2: schedulable" "$WORK/bdw.out"
python3 "$CHECK" skx off off <"$WORK/bdw.json" >"$WORK/bdw-skx.out"
check_grep "skx: the same pair: schedulable" "group 1: schedulable" "$WORK/bdw-skx.out"

# (3) Granite Rapids without its `extra` lines: the planner puts two
# FRONTEND_RETIRED events with different MSR 0x3F7 values into one group, and
# MSR_PEBS_FRONTEND holds one (__intel_shared_reg_get_constraints).
cp "$EVENTS/intel-gnr.td" "$WORK/ev/intel-gnr.td"
sed -i '/^extra /d' "$WORK/ev/intel-gnr.td"
check "broken gnr file: the extra lines are gone" sh -c "! grep -q '^extra ' '$WORK/ev/intel-gnr.td'"
r=$(run_check "$WORK/ev" gnr gnr 4 off off 2>"$WORK/why")
check_match "broken gnr file: level 4 has unschedulable groups" "unschedulable [1-9]" "$r"
check_grep "broken gnr file: the frontend MSR is the reason" "FE holds another value in this group" "$WORK/why"

finish
