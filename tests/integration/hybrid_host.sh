#!/bin/sh
# A hybrid Intel host (tests/data/hosts/adl-hybrid: i9-12900K, family 6 model 0x97, cpu_core on
# CPUs 0-15 with type 4, cpu_atom on CPUs 16-23 with type 10, libpfm4 4.13 not knowing it):
# doctor lists both core PMUs with their CPUs and picks a file for each; plan without --pmu plans
# each core PMU's groups with its own type in the encodings. Expected values are the tree's facts
# and the files' counter budgets, not the program's output.
. "$(dirname "$0")/lib.sh"

T="$TD_SRCDIR/tests/data/hosts/adl-hybrid"
TD_SYSROOT=$T TD_PFM_MODEL=none "$TDCTL" doctor --json >"$WORK/d.json" 2>"$WORK/d.err"
check_eq "doctor exits 0" 0 "$?"
j() { sql :memory: "select coalesce(json_extract(readfile('$WORK/d.json'), '\$.$1'), '')"; }
check_eq "microarch" "Alder Lake (hybrid)" "$(j cpu.microarch)"
check_eq "24 CPUs on 16 cores" "24 16" "$(j cpu.online_cpus) $(j cpu.cores)"
check_eq "cpu_core: type 4, CPUs 0-15 (16), adl_glc, intel-adl-glc.td" "cpu_core 4 0-15 16 adl_glc intel-adl-glc.td" \
	"$(j 'kernel.hybrid_pmus[0].name') $(j 'kernel.hybrid_pmus[0].type') $(j 'kernel.hybrid_pmus[0].cpus') $(j 'kernel.hybrid_pmus[0].ncpus') $(j 'kernel.hybrid_pmus[0].pmu_model') $(j 'kernel.hybrid_pmus[0].events_file')"
check_eq "cpu_atom: type 10, CPUs 16-23 (8), adl_grt, intel-adl-grt.td" "cpu_atom 10 16-23 8 adl_grt intel-adl-grt.td" \
	"$(j 'kernel.hybrid_pmus[1].name') $(j 'kernel.hybrid_pmus[1].type') $(j 'kernel.hybrid_pmus[1].cpus') $(j 'kernel.hybrid_pmus[1].ncpus') $(j 'kernel.hybrid_pmus[1].pmu_model') $(j 'kernel.hybrid_pmus[1].events_file')"
check_eq "the model comes from CPUID, full tree" "adl_glc cpuid full-tree" "$(j pmu_model.name) $(j pmu_model.source) $(j rung)"
TD_SYSROOT=$T TD_PFM_MODEL=none "$TDCTL" doctor >"$WORK/d.txt" 2>&1
check_grep "doctor's text names both files" "events files:   intel-adl-glc.td (cpu_core) + intel-adl-grt.td (cpu_atom)" "$WORK/d.txt"

# A non-hybrid tree has no hybrid PMUs
TD_SYSROOT="$TD_SRCDIR/tests/data/hosts/spr-vm" TD_PFM_MODEL=spr "$TDCTL" doctor --json >"$WORK/spr.json" 2>&1
check_eq "spr-vm: no hybrid PMUs" 0 "$(sql :memory: "select json_array_length(readfile('$WORK/spr.json'), '\$.kernel.hybrid_pmus')")"

# plan -l 1: cpu_core's level 1 is one PERF_METRICS group (SLOTS leading, the eight metrics and
# INT_MISC.UOP_DROPPING on one GP counter); cpu_atom's level 1 reads CPU_CLK_UNHALTED.CORE
# (fixed 1, held by the watchdog: a GP counter) and TOPDOWN_FE/BE_BOUND.ALL, TOPDOWN_RETIRING.ALL:
# 4 of Gracemont's 6 GP counters, one group. Each encodes with its own PMU's sysfs type.
TD_SYSROOT=$T TD_PFM_MODEL=none "$TDCTL" plan -l 1 >"$WORK/plan.txt" 2>&1
check_eq "plan exits 0" 0 "$?"
check_grep "a cpu_core section" "== cpu_core PMU (CPUs 0-15), type 4: PMU model adl_glc ==" "$WORK/plan.txt"
check_grep "a cpu_atom section" "== cpu_atom PMU (CPUs 16-23), type 10: PMU model adl_grt ==" "$WORK/plan.txt"
check_eq "one group per PMU" "1 group: no multiplexing
1 group: no multiplexing" "$(grep '^[0-9]* groups*:' "$WORK/plan.txt")"
check_grep "cpu_core's slots as type 4" "type=4 config=0x400" "$WORK/plan.txt"
check_grep "cpu_atom's TOPDOWN_FE_BOUND.ALL as type 10" "type=10 config=0x71" "$WORK/plan.txt"
TD_SYSROOT=$T TD_PFM_MODEL=none "$TDCTL" plan -l 1 --json >"$WORK/pj.txt" 2>&1
check "plan --json without --pmu is refused on a hybrid host" test $? -eq 2
check_grep "naming both models" "give --pmu adl_glc or --pmu adl_grt" "$WORK/pj.txt"

# tdctl run on the hybrid host: the thread gets both core PMUs' groups (each counts only while
# it runs on that core type), level by level as each file fits one group: cpu_core's level 2
# (10 events, one PERF_METRICS group), cpu_atom's level 1 (its level 2 needs 3 groups). The
# session records adl_glc+adl_grt. Only the plan is checked: this machine's PMU (if any) is not
# the tree's, so whether the events open here says nothing about a hybrid CPU.
TD_SYSROOT=$T TD_PFM_MODEL=none "$TDCTL" run --tracker proc -d "$WORK/run.db" -- true >"$WORK/run.out" 2>&1
check_eq "run exits 0" 0 "$?"
check_eq "the session's model spec" "adl_glc+adl_grt" "$(sql "$WORK/run.db" "select pmu_model from sessions")"
check_eq "cpu_core's groups: 10 events of intel-adl-glc.td, type 4, slots first" \
	"intel-adl-glc.td|10|4|SLOTS_EV" \
	"$(sql "$WORK/run.db" "select file, count(*), min(type), (select name from events where file = 'intel-adl-glc.td' order by id limit 1) from events where file = 'intel-adl-glc.td' and type = 4")"
check_eq "cpu_atom's level-1 group: cycles and the three TOPDOWN_*.ALL slot events as type 10" \
	"CLKS_EV:60 FE_ALL:113 BE_ALL:116 RET_ALL:194 " \
	"$(sql "$WORK/run.db" "select name || ':' || config || ' ' from events where file = 'intel-adl-grt.td' and type = 10 order by id" | tr -d '\n')"
TD_SYSROOT=$T TD_PFM_MODEL=none "$TDCTL" run --tracker proc -d "$WORK/nodes.db" --nodes Backend_Bound -- true >"$WORK/nodes.out" 2>&1
check_eq "run --nodes exits 0" 0 "$?"
check_eq "with --nodes only cpu_core's file is planned" "adl_glc|0" \
	"$(sql "$WORK/nodes.db" "select pmu_model, (select count(*) from events where file = 'intel-adl-grt.td') from sessions")"

# Meteor Lake-H (tests/data/hosts/mtl-hybrid: Core Ultra 7 155H, family 6 model 0xAA, cpu_core on CPUs 0-11,
# type 4; cpu_atom on CPUs 12-21, type 10): perfmon's mapfile gives core type 0x40 the Redwood Cove files and
# 0x20 the Crestmont ones: mtl_rwc (intel-mtl-rwc.td) and mtl_cmt (intel-mtl-cmt.td). plan -l 3 plans both
# PMUs, each with its own type.
T="$TD_SRCDIR/tests/data/hosts/mtl-hybrid"
TD_SYSROOT=$T TD_PFM_MODEL=none "$TDCTL" doctor --json >"$WORK/d.json" 2>"$WORK/d.err"
check_eq "mtl: doctor exits 0" 0 "$?"
check_eq "mtl: microarch" "Meteor Lake (hybrid)" "$(j cpu.microarch)"
check_eq "mtl: cpu_core: type 4, CPUs 0-11 (12), mtl_rwc, intel-mtl-rwc.td" "cpu_core 4 0-11 12 mtl_rwc intel-mtl-rwc.td" \
	"$(j 'kernel.hybrid_pmus[0].name') $(j 'kernel.hybrid_pmus[0].type') $(j 'kernel.hybrid_pmus[0].cpus') $(j 'kernel.hybrid_pmus[0].ncpus') $(j 'kernel.hybrid_pmus[0].pmu_model') $(j 'kernel.hybrid_pmus[0].events_file')"
check_eq "mtl: cpu_atom: type 10, CPUs 12-21 (10), mtl_cmt, intel-mtl-cmt.td" "cpu_atom 10 12-21 10 mtl_cmt intel-mtl-cmt.td" \
	"$(j 'kernel.hybrid_pmus[1].name') $(j 'kernel.hybrid_pmus[1].type') $(j 'kernel.hybrid_pmus[1].cpus') $(j 'kernel.hybrid_pmus[1].ncpus') $(j 'kernel.hybrid_pmus[1].pmu_model') $(j 'kernel.hybrid_pmus[1].events_file')"
check_eq "mtl: the model comes from CPUID, full tree" "mtl_rwc cpuid full-tree" "$(j pmu_model.name) $(j pmu_model.source) $(j rung)"
TD_SYSROOT=$T TD_PFM_MODEL=none "$TDCTL" plan -l 3 >"$WORK/mplan.txt" 2>&1
check_eq "mtl: plan exits 0" 0 "$?"
check_grep "mtl: a cpu_core section" "== cpu_core PMU (CPUs 0-11), type 4: PMU model mtl_rwc ==" "$WORK/mplan.txt"
check_grep "mtl: a cpu_atom section" "== cpu_atom PMU (CPUs 12-21), type 10: PMU model mtl_cmt ==" "$WORK/mplan.txt"
check_grep "mtl: cpu_atom's TOPDOWN_FE_BOUND.ALL_P as type 10" "type=10 config=0x71" "$WORK/mplan.txt"
finish
