# test-engine.td — a small Skylake-like tree for the engine's own tests
# (tests/unit/test_fixtures.c, test_model.c, tests/integration/events.sh).
# Not shipped: real trees live in events/. Formulas follow the SKL level-1/2
# shapes of docs/td-format.md so the fixtures' arithmetic is easy to follow.
pmu      skl skx
title    Engine test tree (test-only)
version  hand-written for the metric engine's tests
note     Backend_Bound refers to Retiring, defined after it (forward reference)

const    W 4
param    SMT_on 0

event    CLKS        CPU_CLK_THREAD_UNHALTED:THREAD_P   | unhalted thread cycles
event    CLKS_ANY    CPU_CLK_THREAD_UNHALTED:THREAD_P:t=1
event    INST        INST_RETIRED:ANY_P
event    FE_NOT      IDQ_UOPS_NOT_DELIVERED:CORE
event    FE_LAT      cpu/event=0x9c,umask=0x1,cmask=4/  | raw form on purpose
event    UOPS_ISSUED UOPS_ISSUED:ANY
event    RET_SLOTS   UOPS_RETIRED:RETIRE_SLOTS
event    RECOVERY    INT_MISC:RECOVERY_CYCLES
event    BR_MISP     BR_MISP_RETIRED:ALL_BRANCHES
event    MCLEAR      MACHINE_CLEARS:COUNT
event    STALLS_MEM  CYCLE_ACTIVITY:STALLS_MEM_ANY
event    STALLS_TOT  CYCLE_ACTIVITY:STALLS_TOTAL

let      CORE_CLKS = CLKS_ANY / 2 if SMT_on else CLKS
info     SLOTS  Count  = W * CORE_CLKS          | issue slots
info     IPC    Metric = INST / CLKS            | instructions per cycle
info     GHz    GHz    = CLKS / DURATION / 1e9  | average frequency

node     Frontend_Bound  Slots = FE_NOT / SLOTS | > 0.15 | slots the frontend left empty
node     Frontend_Bound.Fetch_Latency    Slots = W * FE_LAT / SLOTS | > 0.10
node     Frontend_Bound.Fetch_Bandwidth  Slots = Frontend_Bound - Frontend_Bound.Fetch_Latency \
                                         | > 0.20 | bandwidth-limited frontend
node     Bad_Speculation Slots = (UOPS_ISSUED - RET_SLOTS + W * RECOVERY) / SLOTS | > 0.15
node     Bad_Speculation.Branch_Mispredicts Slots = BR_MISP / (BR_MISP + MCLEAR) * Bad_Speculation | > 0.10
node     Bad_Speculation.Machine_Clears     Slots = Bad_Speculation - Bad_Speculation.Branch_Mispredicts | > 0.10
node     Backend_Bound   Slots = 1 - Frontend_Bound - Bad_Speculation - Retiring | > 0.20
node     Backend_Bound.Memory_Bound  Stalls = STALLS_MEM / STALLS_TOT * Backend_Bound | > 0.20
node     Backend_Bound.Core_Bound    Slots  = Backend_Bound - Backend_Bound.Memory_Bound | > 0.10
node     Retiring        Slots = RET_SLOTS / SLOTS | this > 0.7 or IPC > 3 | useful work

cpi-cycles        CLKS
cpi-instructions  INST
cpi   Frontend         derived   = Frontend_Bound   | frontend bubbles
cpi   Bad_Speculation  derived   = Bad_Speculation
cpi   Memory           derived   = Backend_Bound.Memory_Bound
cpi   Core             derived   = Backend_Bound.Core_Bound
cpi   Branch_Penalty   estimated = 15 * BR_MISP / CLKS | mispredicts x assumed 15-cycle refill
