#!/bin/sh
# The live hardware path on emulated hosts (issue 30 item 4): tdctl run -l 3
# on a workload, its hardware events opened, multiplexed, read and scaled
# through the emulated PMU (tests/tools/pmu_sim.so, preloaded) of a host tree
# whose counts advance at the rates of a deep toplev case
# (tests/data/oracle/toplev-deep). Every node toplev printed that the run
# computed, being a ratio of counts, must equal toplev's value within 1e-6
# percentage points (info metrics that are ratios within 1e-6 relative);
# counts (SLOTS, CLKS) depend on the CPU time the workload got and are left
# out, as is MUX. The emulated clock runs at 1e14 Hz (TD_PMU_SIM_FREQ): the
# ratios do not depend on it, and counts that large leave no rounding in them
# (at 4 GHz a 1-ms first interval gives counts of a few thousand). The trees are the SMT-off twins: toplev computed the cases
# with SMT off. libpfm4 is told the host's model (LIBPFM_FORCE_PMU): it reads
# CPUID, which no preload can emulate.
. "$(dirname "$0")/lib.sh"

SIM="$TD_BUILDDIR/tests/tools/pmu_sim.so"
ORACLE="$TD_SRCDIR/tests/data/oracle/toplev-deep"
HOSTS="$TD_SRCDIR/tests/data/hosts"
[ -f "$SIM" ] || skip_all "tests/tools/pmu_sim.so is not built"
# a sanitized tdctl needs its ASan runtime first; the emulator preloaded after it
ASAN_PRELOAD="${ASAN_OPTIONS:-}:verify_asan_link_order=0"

# compare EXPORT.csv EXPECTED.csv: prints "MATCHED COMPARED WORST MISSING". Every
# interval's value of a node (the process's row) is compared: the rates are
# constant, so each interval's scaled estimate is exact up to rounding (the
# emulator reads a target's groups at one instant: READ_BURST_NS in pmu_sim.c). A row
# the run left empty in an interval (a group that had not run yet) is skipped;
# a node toplev printed that the run never computed is MISSING (on stderr).
compare() {
	awk -F, '
	FNR == NR {
		if ($5 ~ /^(process|cpu):/ && ($1 == "node" || $1 == "info") && $8 != "") { k = $1 SUBSEP $6; v[k, ++n[k]] = $8 }
		next
	}
	FNR == 1 { for (i = 1; i <= NF; i++) if ($i == "Area") a = i; next }
	/^#/ { next }
	{
		area = $a; val = $(a + 1); unit = $(a + 2)
		if (area == "MUX" || unit == "Count") next
		k = (unit ~ /^%/ ? "node" : "info") SUBSEP area
		if (!(k in n)) { missing++; print "not computed: " area > "/dev/stderr"; next }
		rows++; bad = 0
		for (j = 1; j <= n[k]; j++) {
			if (unit ~ /^%/) d = v[k, j] * 100 - val
			else { d = v[k, j] - val; if (val != 0) d /= val }
			if (d < 0) d = -d
			if (d > worst) worst = d
			if (d > 1e-6) { bad = 1; print "mismatch " area ": " v[k, j] " vs " val > "/dev/stderr" }
		}
		if (!bad) matched++
	}
	END { printf "%d %d %g %d\n", matched, rows, worst, missing }' "$1" "$2"
}

# live MODE CASE TREE MODEL [REFUSED-TODO]: tdctl -l 3 on the emulated host, compared with
# toplev's case. MODE: run (a workload started by tdctl), attach (a running process), system
# (record --system on CPUs 0-1, each always busy: TD_PMU_SIM_CPU_CLOCK=wall). REFUSED-TODO: why
# the kernel refuses some of the plan's groups on this model today (a known defect: that check
# is reported as TODO, not passed)
live() {
	mode=$1 c=$2 tree=$3 model=$4 todo=${5:-}
	t="$c ($mode)"
	db="$WORK/$c.$mode.db" sim="$WORK/$c.$mode.sim"
	set -- env TD_SYSROOT="$HOSTS/$tree" TD_PFM_MODEL="$model" LIBPFM_FORCE_PMU="$model" \
		TD_PMU_SIM_HOST="$HOSTS/$tree" TD_PMU_SIM_TRACE="$ORACLE/inputs/$c.perf.csv" \
		TD_PMU_SIM_EVENTS="$TD_SRCDIR/tests/data/pmu_sim/$model.events" TD_PMU_SIM_LOG="$sim" \
		TD_PMU_SIM_FREQ=1e14 TD_PMU_SIM_CPU_CLOCK=wall LD_PRELOAD="$SIM" ASAN_OPTIONS="$ASAN_PRELOAD" "$TDCTL"
	case $mode in
	run) "$@" run -q -l 3 --counting=per-thread -d "$db" -- \
		sh -c 'i=0; while [ $i -lt 150000 ]; do i=$((i + 1)); done' >"$WORK/out" 2>"$WORK/err" ;;
	attach)
		sh -c 'while :; do :; done' &
		spinner=$!
		"$@" attach "$spinner" -q -l 3 --counting=per-thread --duration 3 -d "$db" >"$WORK/out" 2>"$WORK/err"
		rc=$?
		kill "$spinner"
		wait "$spinner" 2>/dev/null
		(exit $rc) ;;
	system) "$@" record --system --cpus 0-1 -q -l 3 --duration 3 -d "$db" >"$WORK/out" 2>"$WORK/err" ;;
	esac
	rc=$?
	check_eq "$t: tdctl on emulated $tree exits 0" 0 "$rc"
	[ "$rc" = 0 ] || sed "s/^/# $t: /" "$WORK/err"
	refused=$(grep -c ': errno ' "$sim")
	grep ': errno ' "$sim" | sed "s/^/# $t: refused: /"
	if [ -n "$todo" ] && [ "$refused" -gt 0 ]; then
		TAP_N=$((TAP_N + 1))
		echo "not ok $TAP_N - $t: the emulated kernel refused $refused of the plan's events # TODO $todo"
	else
		check_eq "$t: the emulated kernel refused none of the plan's events" 0 "$refused"
	fi
	"$TDCTL" export 1 -d "$db" --format csv -o "$WORK/$c.$mode.csv"
	check_eq "$t: export exits 0" 0 "$?"
	got=$(compare "$WORK/$c.$mode.csv" "$ORACLE/expected/$c.csv" 2>"$WORK/diff")
	set -- $got
	grep -v '^not computed' "$WORK/diff" | sed "s/^/# $t: /"
	echo "# $t: $1 of $2 rows computed live match toplev in every interval (worst difference $3: percentage" \
		"points, relative for info metrics); $4 of toplev's rows not computed (below level 3, or not collected)"
	check "$t: nodes computed live" [ "$2" -gt 0 ]
	check_eq "$t: every computed node equals toplev's within 1e-6" "$2" "$1"
}

live run skl-l4-core-ports skl-bare-smtoff skl
# Ice Lake's plan keeps the events intel_icl_event_constraints holds to counters 0-3 (0xA3,
# 0xA8, 0xAB, 0xD1 ...) to at most four a group (issue 30 item 1): the emulated kernel refuses
# none of it, so nothing is split (a split is shown by the broken plan further down)
live run icl-l3-pm-fe-icache icl-perfmetrics-smtoff icl
"$TDCTL" report 1 -d "$WORK/icl-l3-pm-fe-icache.run.db" >"$WORK/icl.report" 2>&1
grep '^Note:' "$WORK/icl.report" | sed 's/^/# icl: /'
check "icl-l3-pm-fe-icache (run): the report notes no split group (the kernel took the plan whole)" \
	sh -c "! grep -q '^Note: .* split: ' '$WORK/icl.report'"
live run spr-l3-pm-badspec-ms spr-vm-smtoff spr
live attach spr-l3-pm-badspec-ms spr-vm-smtoff spr
# SMT on (Skylake: 4 general-purpose counters per thread, the watchdog on fixed counter 1) and
# Zen 4 (6 counters, the watchdog on one; its file has levels 1-2): the emulated kernel accepts
# every group of the plan. No toplev case is computed for these, so values are not compared.
for spec in skl-bare:skl:3 epyc-2s-256:amd64_fam19h_zen4:2; do
	tree=${spec%%:*} rest=${spec#*:}
	model=${rest%%:*} level=${rest#*:}
	env TD_SYSROOT="$HOSTS/$tree" TD_PFM_MODEL="$model" LIBPFM_FORCE_PMU="$model" TD_PMU_SIM_HOST="$HOSTS/$tree" \
		TD_PMU_SIM_LOG="$WORK/$tree.sim" LD_PRELOAD="$SIM" ASAN_OPTIONS="$ASAN_PRELOAD" \
		"$TDCTL" run -q -l "$level" --counting=per-thread -d "$WORK/$tree.db" -- \
		sh -c 'i=0; while [ $i -lt 20000 ]; do i=$((i + 1)); done' >"$WORK/out" 2>"$WORK/err"
	check_eq "$tree -l $level: tdctl run exits 0" 0 "$?"
	opened=$(grep -c ': fd ' "$WORK/$tree.sim")
	check "$tree -l $level: hardware events opened on the emulated PMU ($opened)" [ "$opened" -gt 0 ]
	check_eq "$tree -l $level: the emulated kernel refused none of the plan's events" 0 "$(grep -c ': errno ' "$WORK/$tree.sim")"
done

# A plan breaking a kernel rule is caught by the emulated kernel, not only by the planner's own
# check: --counters 8 on Skylake with SMT on (4 general-purpose counters per thread there) packs
# groups of 8; the kernel refuses each at its fifth general-purpose event (validate_group:
# EINVAL). tdctl then counts each such group in parts, as perf stat does a weak group (issue 30
# item 2): the session, the report (text and JSON) say so, every event is counted, and a value
# read from two parts of one group is marked as spanning groups, with a confidence below 1.
SKL_TRACE="$ORACLE/inputs/skl-l4-core-ports.perf.csv"
env TD_SYSROOT="$HOSTS/skl-bare" TD_PFM_MODEL=skl LIBPFM_FORCE_PMU=skl TD_PMU_SIM_HOST="$HOSTS/skl-bare" \
	TD_PMU_SIM_TRACE="$SKL_TRACE" TD_PMU_SIM_EVENTS="$TD_SRCDIR/tests/data/pmu_sim/skl.events" \
	TD_PMU_SIM_LOG="$WORK/broken.sim" TD_PMU_SIM_FREQ=1e14 LD_PRELOAD="$SIM" ASAN_OPTIONS="$ASAN_PRELOAD" \
	"$TDCTL" run -l 2 --counters 8 --counting=per-thread -d "$WORK/broken.db" -- \
	sh -c 'i=0; while [ $i -lt 150000 ]; do i=$((i + 1)); done' >"$WORK/out" 2>"$WORK/broken.err"
check_eq "a plan of 8-counter groups on SMT-on Skylake: tdctl run exits 0" 0 "$?"
check "the emulated kernel refuses its groups (EINVAL)" grep -q 'errno 22$' "$WORK/broken.sim"
split_note='group [0-9]* of intel-skl.td split: the kernel refused it: Invalid argument (EINVAL at its event [0-9]* of 8, [A-Z_0-9]*: its events cannot all have counters at once); counted as 2 groups of [0-9]* and [0-9]* events'
grep 'split' "$WORK/broken.err" | sed 's/^/# /'
check "the session notes each group split and why" grep -q "^tdctl: note: $split_note\$" "$WORK/broken.err"
check "no event of the plan goes uncounted" sh -c "! grep -q 'not counted' '$WORK/broken.err'"
check_eq "no event of the session failed" 0 "$(sql "$WORK/broken.db" "SELECT count(*) FROM events WHERE status != 'counting'")"
check_eq "every hardware event has counts (running > 0)" 0 "$(sql "$WORK/broken.db" "SELECT count(*) FROM events e
	WHERE e.type = 4 AND NOT EXISTS (SELECT 1 FROM counts c WHERE c.event_id = e.id AND c.running > 0)")"
check "the store records each part as a group of its own (events of one note in 2 groups)" [ "$(sql "$WORK/broken.db" \
	"SELECT max(n) FROM (SELECT count(DISTINCT group_idx) n FROM events WHERE error LIKE '%split%' GROUP BY error)")" = 2 ]
"$TDCTL" report 1 -d "$WORK/broken.db" >"$WORK/broken.report" 2>&1
check "the report says so" grep -q "^Note:     $split_note\$" "$WORK/broken.report"
"$TDCTL" report 1 -d "$WORK/broken.db" --format html -o "$WORK/broken.html" 2>&1
check "the HTML report says so" grep -q "^Note:     $split_note\$" "$WORK/broken.html"
"$TDCTL" report 1 -d "$WORK/broken.db" --format json >"$WORK/broken.json" 2>&1
check_eq "the JSON report lists the notes" "$(grep -c "^Note:" "$WORK/broken.report")" \
	"$(python3 -c 'import json, sys; print(sum("split: the kernel refused it" in n for n in json.load(open(sys.argv[1]))["notes"]))' "$WORK/broken.json")"
# IpMispredict = INST_RETIRED.ANY / BR_MISP_RETIRED.ALL_BRANCHES: one group in the plan, counted in two parts
check_eq "a value read from two parts of one group spans groups, with a confidence below 1, in every interval" "0" \
	"$(sql "$WORK/broken.db" "SELECT count(*) FROM metric_values WHERE name = 'IpMispredict' AND target_kind = 'process'
		AND value IS NOT NULL AND NOT (spans = 1 AND confidence < 1)")"
check "... and it has values" [ "$(sql "$WORK/broken.db" "SELECT count(*) FROM metric_values WHERE name = 'IpMispredict'
	AND target_kind = 'process' AND value IS NOT NULL")" -gt 0 ]
# Every event counted in the parts advances at its rate in the trace: each interval's scaled count of
# an event over the scaled count of INST_RETIRED.ANY (0xc0) equals their counts' ratio in the trace
# within 1e-6 (events the trace lacks, e.g. AnyThread ones, count 0 and are left out)
sql -separator ' ' "$WORK/broken.db" "SELECT c.interval_id, c.thread_id, printf('0x%x', e.config), c.value, c.enabled,
	c.running FROM counts c JOIN events e ON e.id = c.event_id WHERE e.type = 4 AND c.running > 0" >"$WORK/broken.counts"
rates=$(awk -v trace="$SKL_TRACE" '
	FILENAME == trace { split($0, f, ";"); count[f[3]] = f[1]; next }
	FILENAME ~ /skl.events$/ { if ($1 !~ /^#/ && $3 == "0x0") name[$2] = $1; next }
	{ k = $1 " " $2; s = $4 * $5 / $6; if ($3 == "0xc0") inst[k] = s; row[++n] = k; enc[n] = $3; val[n] = s }
	END {
		for (i = 1; i <= n; i++) {
			nm = name[enc[i]]
			if (nm == "" || !(nm in count) || enc[i] == "0xc0" || !(row[i] in inst)) continue
			want = count[nm] / count["inst_retired.any"]; got = val[i] / inst[row[i]]
			d = want == 0 ? got : (got - want) / want; if (d < 0) d = -d
			if (d > worst) worst = d
			rows++; if (d <= 1e-6) ok++
		}
		printf "%d %d %g\n", ok, rows, worst
	}' "$SKL_TRACE" "$TD_SRCDIR/tests/data/pmu_sim/skl.events" "$WORK/broken.counts")
set -- $rates
echo "# split groups: $1 of $2 event counts (per interval) at the trace's rate within 1e-6 (worst relative difference $3)"
check "events of the split groups compared with the trace" [ "$2" -gt 0 ]
check_eq "every event of the split groups counts at the trace's rate" "$2" "$1"

# record --system: the trees' perf_event_paranoid is 2 (CPU-wide events need CAP_PERFMON), and CPUs 0-1
# must exist here (the software events of the session go to the real kernel)
if [ "$(id -u)" != 0 ]; then
	skip "record --system on emulated hosts" "not root: the trees' perf_event_paranoid 2 refuses CPU-wide events"
elif [ "$(getconf _NPROCESSORS_ONLN)" -lt 2 ]; then
	skip "record --system on emulated hosts" "fewer than 2 CPUs online here"
else
	live system skl-l4-core-ports skl-bare-smtoff skl
	live system icl-l3-pm-fe-icache icl-perfmetrics-smtoff icl
fi
finish
