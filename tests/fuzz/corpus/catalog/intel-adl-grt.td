# intel-adl-grt.td — Intel Alder Lake / Raptor Lake hybrid: the Gracemont E-cores, counted on the
# kernel's cpu_atom PMU.
# Formulas: Linux perf tools/perf/pmu-events/arch/x86/alderlake/adl-metrics.json (commit
# 008f05a72d32, the "Unit": "cpu_atom" metrics tma_*): Gracemont's own top-down tree, 5 issue
# slots a cycle (SLOTS = 5 * CPU_CLK_UNHALTED.CORE), from the TOPDOWN_* slot events.
# Encodings: perf's alderlake/pipeline.json and frontend.json (cpu_atom events); each [code/umask].
# libpfm4 4.13 has no Alder Lake tables: topdown names this model adl_grt (upstream libpfm4's name)
# from CPUID family 6 model 0x97/0x9a/0xb7/0xba/0xbf; every event is a raw cpu_atom/.../ form. The
# kernel gives cpu_atom a dynamic PMU type (read from sysfs cpu_atom/type where it exists).
pmu      adl_grt
title    Intel Alder Lake / Raptor Lake E-core (Gracemont, cpu_atom)
version  Gracemont TMA as perf ships it (Linux tools/perf/pmu-events/arch/x86/alderlake/adl-metrics.json, commit 008f05a72d32)
note     Levels 1 and 2, and level 3 below Frontend_Latency, Frontend_Bandwidth and Machine_Clears (the
note     TOPDOWN_FE_BOUND and TOPDOWN_BAD_SPECULATION sub-events). Bad_Speculation is (SLOTS - FE - BE - RET) / SLOTS as adl-metrics.json writes
note     it: TOPDOWN_BAD_SPECULATION.ALL (0x73/0x00) is not read for it (it only counts fast nukes).
note     Backend_Bound's level-2 pair is perf's Core_Bound / Load_Store_Bound (cycle-based, min()-capped
note     to Backend_Bound); Load_Store_Bound reads level 3's Store_Bound = Mem_Scheduler * ST_BUF / ALL,
note     kept here as let helpers. The Backend_Bound_Aux tree (Resource_Bound) is not included.
note     MEM_SCHEDULER_BLOCK.ALL (0x04/0x07: load buffer, store buffer or RSV full) as pipeline.json lists it.
note     Thresholds: Frontend_Bound > 0.2 and Machine_Clears > 0.05 as toplev adl_grt_ratios.py; the others
note     TMA's usual ones for the level (level 3: > 0.05).

const    W 5

event    CLKS_EV      cpu_atom/event=0x3c,umask=0x00/    | CPU_CLK_UNHALTED.CORE, unhalted core clocks (fixed counter 1) [0x3C/0x00]
event    INST         cpu_atom/event=0xc0,umask=0x00/    | INST_RETIRED.ANY, instructions retired (fixed counter 0) [0xC0/0x00]
event    FE_ALL       cpu_atom/event=0x71,umask=0x00/    | TOPDOWN_FE_BOUND.ALL, slots not consumed for frontend stalls [0x71/0x00]
event    FE_LAT       cpu_atom/event=0x71,umask=0x72/    | TOPDOWN_FE_BOUND.FRONTEND_LATENCY [0x71/0x72]
event    FE_BW        cpu_atom/event=0x71,umask=0x8d/    | TOPDOWN_FE_BOUND.FRONTEND_BANDWIDTH [0x71/0x8D]
event    FE_ICACHE    cpu_atom/event=0x71,umask=0x20/    | TOPDOWN_FE_BOUND.ICACHE, slots lost to i-cache misses [0x71/0x20]
event    FE_ITLB      cpu_atom/event=0x71,umask=0x10/    | TOPDOWN_FE_BOUND.ITLB, slots lost to iTLB misses [0x71/0x10]
event    FE_BR_DETECT cpu_atom/event=0x71,umask=0x02/    | TOPDOWN_FE_BOUND.BRANCH_DETECT, slots lost to BACLEARs [0x71/0x02]
event    FE_BR_RESTEER cpu_atom/event=0x71,umask=0x40/   | TOPDOWN_FE_BOUND.BRANCH_RESTEER, slots lost to BTCLEARs [0x71/0x40]
event    FE_CISC      cpu_atom/event=0x71,umask=0x01/    | TOPDOWN_FE_BOUND.CISC, slots lost to the microcode sequencer [0x71/0x01]
event    FE_DECODE    cpu_atom/event=0x71,umask=0x08/    | TOPDOWN_FE_BOUND.DECODE, slots lost to decode stalls [0x71/0x08]
event    FE_PREDECODE cpu_atom/event=0x71,umask=0x04/    | TOPDOWN_FE_BOUND.PREDECODE, slots lost to wrong predecodes [0x71/0x04]
event    FE_OTHER     cpu_atom/event=0x71,umask=0x80/    | TOPDOWN_FE_BOUND.OTHER, slots lost to other frontend stalls [0x71/0x80]
event    BAD_MISP     cpu_atom/event=0x73,umask=0x04/    | TOPDOWN_BAD_SPECULATION.MISPREDICT [0x73/0x04]
event    BAD_NUKE     cpu_atom/event=0x73,umask=0x01/    | TOPDOWN_BAD_SPECULATION.NUKE, slots lost to slow nukes [0x73/0x01]
event    BAD_FASTNUKE cpu_atom/event=0x73,umask=0x02/    | TOPDOWN_BAD_SPECULATION.FASTNUKE, slots lost to fast nukes [0x73/0x02]
event    BAD_MC       cpu_atom/event=0x73,umask=0x03/    | TOPDOWN_BAD_SPECULATION.MACHINE_CLEARS [0x73/0x03]
event    BE_ALL       cpu_atom/event=0x74,umask=0x00/    | TOPDOWN_BE_BOUND.ALL, slots not consumed for backend stalls [0x74/0x00]
event    BE_MEM_SCHED cpu_atom/event=0x74,umask=0x02/    | TOPDOWN_BE_BOUND.MEM_SCHEDULER [0x74/0x02]
event    RET_ALL      cpu_atom/event=0xc2,umask=0x00/    | TOPDOWN_RETIRING.ALL, retirement slots consumed [0xC2/0x00]
event    UOPS_MS      cpu_atom/event=0xc2,umask=0x01/    | UOPS_RETIRED.MS, retired uops from the microcode sequencer [0xC2/0x01]
event    LD_HEAD_ANY  cpu_atom/event=0x05,umask=0xff/    | LD_HEAD.ANY_AT_RET, cycles the oldest load is blocked at retirement [0x05/0xFF]
event    MSB_ST_BUF   cpu_atom/event=0x04,umask=0x01/    | MEM_SCHEDULER_BLOCK.ST_BUF, cycles uops blocked on a full store buffer [0x04/0x01]
event    MSB_ALL      cpu_atom/event=0x04,umask=0x07/    | MEM_SCHEDULER_BLOCK.ALL [0x04/0x07]

# the names perf stat -x prints for these events on a hybrid host
perf-name CLKS_EV      cpu_atom/cycles/ cpu_atom/cpu-cycles/ cpu_atom/cpu_clk_unhalted.core/
perf-name INST         cpu_atom/instructions/ cpu_atom/inst_retired.any/
perf-name FE_ALL       cpu_atom/topdown_fe_bound.all/
perf-name FE_LAT       cpu_atom/topdown_fe_bound.frontend_latency/
perf-name FE_BW        cpu_atom/topdown_fe_bound.frontend_bandwidth/
perf-name FE_ICACHE    cpu_atom/topdown_fe_bound.icache/
perf-name FE_ITLB      cpu_atom/topdown_fe_bound.itlb/
perf-name FE_BR_DETECT cpu_atom/topdown_fe_bound.branch_detect/
perf-name FE_BR_RESTEER cpu_atom/topdown_fe_bound.branch_resteer/
perf-name FE_CISC      cpu_atom/topdown_fe_bound.cisc/
perf-name FE_DECODE    cpu_atom/topdown_fe_bound.decode/
perf-name FE_PREDECODE cpu_atom/topdown_fe_bound.predecode/
perf-name FE_OTHER     cpu_atom/topdown_fe_bound.other/
perf-name BAD_MISP     cpu_atom/topdown_bad_speculation.mispredict/
perf-name BAD_NUKE     cpu_atom/topdown_bad_speculation.nuke/
perf-name BAD_FASTNUKE cpu_atom/topdown_bad_speculation.fastnuke/
perf-name BAD_MC       cpu_atom/topdown_bad_speculation.machine_clears/
perf-name BE_ALL       cpu_atom/topdown_be_bound.all/
perf-name BE_MEM_SCHED cpu_atom/topdown_be_bound.mem_scheduler/
perf-name RET_ALL      cpu_atom/topdown_retiring.all/
perf-name UOPS_MS      cpu_atom/uops_retired.ms/
perf-name LD_HEAD_ANY  cpu_atom/ld_head.any_at_ret/
perf-name MSB_ST_BUF   cpu_atom/mem_scheduler_block.st_buf/
perf-name MSB_ALL      cpu_atom/mem_scheduler_block.all/

# --- counters (planner): Gracemont has 6 general-purpose and 3 fixed counters (perf's alderlake
# pipeline.json lists "Counter": "0,1,2,3,4,5" for the cpu_atom events above); no SMT.
counters  gp=6 fixed=3 watchdog=fixed:1
fixed     0 INST
fixed     1 CLKS_EV

info     CLKS      Count  = CLKS_EV          | Unhalted core clocks of this thread on E-cores
info     SLOTS     Count  = W * CLKS         | Issue slots on E-cores (5 a cycle)
info     IPC       Metric = INST / CLKS      | Instructions per cycle on E-cores
info     CPI       Metric = CLKS / INST      | Cycles per instruction on E-cores

# level 1 (adl-metrics.json cpu_atom tma_frontend_bound, tma_bad_speculation, tma_backend_bound, tma_retiring)
node  Frontend_Bound  Slots = FE_ALL / SLOTS \
      | > 0.2  | Slots not consumed by the backend because of frontend stalls
node  Bad_Speculation Slots = (SLOTS - (FE_ALL + BE_ALL + RET_ALL)) / SLOTS \
      | > 0.15 | Slots wasted by mispredicted jumps and machine clears
node  Backend_Bound   Slots = BE_ALL / SLOTS \
      | > 0.1  | Slots not consumed because of backend stalls
node  Retiring        Slots = RET_ALL / SLOTS \
      | > 0.75 | Slots that retired uops
# level 2 (tma_frontend_latency, tma_frontend_bandwidth, tma_branch_mispredicts, tma_machine_clears,
# tma_core_bound, tma_load_store_bound, tma_base, tma_ms_uops)
node  Frontend_Bound.Frontend_Latency   Slots = FE_LAT / SLOTS \
      | > 0.15 | Frontend latency: i-cache and iTLB misses, BACLEARs, BTCLEARs
node  Frontend_Bound.Frontend_Bandwidth Slots = FE_BW / SLOTS \
      | > 0.1  | Frontend bandwidth: decode, predecode, microcode (CISC) limits
unrelated Frontend_Bound | adl-metrics.json counts the two in separate TOPDOWN_FE_BOUND umasks and documents no sum
# level 3 (tma_icache, tma_itlb, tma_branch_detect, tma_branch_resteer; tma_cisc, tma_decode,
# tma_predecode, tma_other_fb): each TOPDOWN_FE_BOUND sub-event over SLOTS
node  Frontend_Bound.Frontend_Latency.Icache         Slots = FE_ICACHE / SLOTS \
      | > 0.05 | Slots the frontend lost to instruction-cache misses
node  Frontend_Bound.Frontend_Latency.ITLB           Slots = FE_ITLB / SLOTS \
      | > 0.05 | Slots the frontend lost to instruction-TLB misses
node  Frontend_Bound.Frontend_Latency.Branch_Detect  Slots = FE_BR_DETECT / SLOTS \
      | > 0.05 | Slots lost to BACLEARs: a later predictor corrected the BTB's prediction (or its lack)
node  Frontend_Bound.Frontend_Latency.Branch_Resteer Slots = FE_BR_RESTEER / SLOTS \
      | > 0.05 | Slots lost to BTCLEARs: the BTB predicted a taken branch
unrelated Frontend_Bound.Frontend_Latency | FRONTEND_LATENCY's umask 0x72 is its children's 0x20|0x10|0x02|0x40, but no sum is documented
node  Frontend_Bound.Frontend_Bandwidth.Cisc      Slots = FE_CISC / SLOTS \
      | > 0.05 | Slots the frontend lost to the microcode sequencer
node  Frontend_Bound.Frontend_Bandwidth.Decode    Slots = FE_DECODE / SLOTS \
      | > 0.05 | Slots the frontend lost to decode stalls
node  Frontend_Bound.Frontend_Bandwidth.Predecode Slots = FE_PREDECODE / SLOTS \
      | > 0.05 | Slots the frontend lost to wrong predecodes
node  Frontend_Bound.Frontend_Bandwidth.Other_FB  Slots = FE_OTHER / SLOTS \
      | > 0.05 | Slots the frontend lost to other, uncategorised stalls
unrelated Frontend_Bound.Frontend_Bandwidth | FRONTEND_BANDWIDTH's umask 0x8D is its children's 0x01|0x08|0x04|0x80, but no sum is documented
node  Bad_Speculation.Branch_Mispredicts Slots = BAD_MISP / SLOTS \
      | > 0.05 | Slots not consumed because of branch mispredicts
node  Bad_Speculation.Machine_Clears     Slots = BAD_MC / SLOTS \
      | > 0.05 | Slots not consumed because of machine clears (nukes) of any kind
unrelated Bad_Speculation | Bad_Speculation is a complement of three counts; its two children are counted apart
# level 3 (tma_nuke, tma_fast_nuke)
node  Bad_Speculation.Machine_Clears.Nuke      Slots = BAD_NUKE / SLOTS \
      | > 0.05 | Slots lost to machine clears handled as slow nukes
node  Bad_Speculation.Machine_Clears.Fast_Nuke Slots = BAD_FASTNUKE / SLOTS \
      | > 0.05 | Slots lost to fast nukes (memory ordering, disambiguation, renaming)
unrelated Bad_Speculation.Machine_Clears | MACHINE_CLEARS's umask 0x03 is its children's 0x01|0x02, but no sum is documented
let   STORE_BOUND = BE_MEM_SCHED / SLOTS * (MSB_ST_BUF / MSB_ALL)
node  Backend_Bound.Load_Store_Bound Stalls = min(BE_ALL / SLOTS, LD_HEAD_ANY / CLKS + STORE_BOUND) \
      | > 0.2 | Cycles the core stalled on loads or stores
node  Backend_Bound.Core_Bound       Stalls = max(0, Backend_Bound - Backend_Bound.Load_Store_Bound) \
      | > 0.1 | Backend cycles not attributed to outstanding loads or stores
bound Backend_Bound = BE_ALL / SLOTS | both children are capped by Backend_Bound (a min() and max(0, BE - Load_Store_Bound))
node  Retiring.Base    Slots = (RET_ALL - UOPS_MS) / SLOTS \
      | > 0.6  | Retired uops not from the microcode sequencer
node  Retiring.MS_Uops Slots = UOPS_MS / SLOTS \
      | > 0.05 | Retired uops from the microcode sequencer (complex flows, assists)
partition Retiring              # Base + MS_Uops = (RET_ALL - UOPS_MS + UOPS_MS) / SLOTS

cpi-cycles       CLKS
cpi-instructions INST
cpi   Frontend        derived = Frontend_Bound  | Cycles lost to frontend bubbles (slot share)
cpi   Bad_Speculation derived = Bad_Speculation | Cycles lost to wrong-path work (slot share)
cpi   Backend         derived = Backend_Bound   | Cycles stalled in the backend (slot share)
