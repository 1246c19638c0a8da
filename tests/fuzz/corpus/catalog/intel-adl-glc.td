# intel-adl-glc.td — Intel Alder Lake / Raptor Lake hybrid: the Golden Cove (Raptor Cove) P-cores,
# counted on the kernel's cpu_core PMU.
# Formulas: Linux perf tools/perf/pmu-events/arch/x86/alderlake/adl-metrics.json (commit
# 008f05a72d32, the "Unit": "cpu_core" metrics tma_*), TMA levels 1-2 through PERF_METRICS.
# Encodings: the kernel's cpu_core slots/topdown-* events (arch/x86/events/intel/core.c, the same
# pseudo encodings as Sapphire Rapids: event 0x00, umask 0x04 and 0x80-0x87) and perf's
# alderlake/pipeline.json for the general-purpose events; each event's [code/umask] below.
# libpfm4 4.13 has no Alder Lake tables: topdown names this model adl_glc (upstream libpfm4's
# name) from CPUID family 6 model 0x97/0x9a/0xb7/0xba/0xbf, and every event is a raw cpu_core/.../
# form (encoded through sysfs cpu_core/format on the host; cpu_core is PERF_TYPE_RAW there).
pmu      adl_glc
title    Intel Alder Lake / Raptor Lake P-core (Golden Cove, cpu_core)
version  TMA 4.x as perf ships it (Linux tools/perf/pmu-events/arch/x86/alderlake/adl-metrics.json, commit 008f05a72d32)
note     Levels 1 and 2 only, from PERF_METRICS (TOPDOWN.SLOTS leads the group): a node is TD_X / PM_SUM,
note     PM_SUM the sum of the four level-1 counts, as adl-metrics.json writes tma_* for cpu_core.
note     Frontend_Bound and Fetch_Latency subtract INT_MISC.UOP_DROPPING / SLOTS, as adl-metrics.json does.
note     Bad_Speculation = max(1 - FE - BE - RET, 0): topdown-bad-spec is not read for it (as perf).
note     A thread on a hybrid CPU is counted on this PMU only while it runs on a P-core; the E-core
note     share is intel-adl-grt.td's (cpu_atom), and 'tdctl report' combines level 1 weighted by slots.

const    W 6
param    SMT_on 0

event    SLOTS_EV     cpu_core/event=0x00,umask=0x4/     | TOPDOWN.SLOTS, issue slots (fixed counter 3, group leader) [fixed 0x00/0x04]
event    TD_RET       cpu_core/event=0x00,umask=0x80/    | PERF_METRICS.RETIRING (perf cpu_core/topdown-retiring/) [pseudo 0x00/0x80]
event    TD_BAD       cpu_core/event=0x00,umask=0x81/    | PERF_METRICS.BAD_SPECULATION (perf cpu_core/topdown-bad-spec/) [pseudo 0x00/0x81]
event    TD_FE        cpu_core/event=0x00,umask=0x82/    | PERF_METRICS.FRONTEND_BOUND (perf cpu_core/topdown-fe-bound/) [pseudo 0x00/0x82]
event    TD_BE        cpu_core/event=0x00,umask=0x83/    | PERF_METRICS.BACKEND_BOUND (perf cpu_core/topdown-be-bound/) [pseudo 0x00/0x83]
event    TD_HEAVY     cpu_core/event=0x00,umask=0x84/    | PERF_METRICS.HEAVY_OPERATIONS (perf cpu_core/topdown-heavy-ops/) [pseudo 0x00/0x84]
event    TD_BR_MISP   cpu_core/event=0x00,umask=0x85/    | PERF_METRICS.BRANCH_MISPREDICTS (perf cpu_core/topdown-br-mispredict/) [pseudo 0x00/0x85]
event    TD_FETCH_LAT cpu_core/event=0x00,umask=0x86/    | PERF_METRICS.FETCH_LATENCY (perf cpu_core/topdown-fetch-lat/) [pseudo 0x00/0x86]
event    TD_MEM       cpu_core/event=0x00,umask=0x87/    | PERF_METRICS.MEMORY_BOUND (perf cpu_core/topdown-mem-bound/) [pseudo 0x00/0x87]
event    UOP_DROPPING cpu_core/event=0xad,umask=0x10/    | INT_MISC.UOP_DROPPING, uops the frontend dropped [0xAD/0x10]
event    CLK_THREAD   cpu_core/event=0x3c,umask=0x00/    | CPU_CLK_UNHALTED.THREAD, unhalted core clocks (fixed counter 1) [0x3C/0x00]
event    INST         cpu_core/event=0xc0,umask=0x00/    | INST_RETIRED.ANY, instructions retired (fixed counter 0) [0xC0/0x00]

# the names perf stat -x prints for these events on a hybrid host
perf-name SLOTS_EV     cpu_core/slots/ cpu_core/topdown.slots/
perf-name TD_RET       cpu_core/topdown-retiring/
perf-name TD_BAD       cpu_core/topdown-bad-spec/
perf-name TD_FE        cpu_core/topdown-fe-bound/
perf-name TD_BE        cpu_core/topdown-be-bound/
perf-name TD_HEAVY     cpu_core/topdown-heavy-ops/
perf-name TD_BR_MISP   cpu_core/topdown-br-mispredict/
perf-name TD_FETCH_LAT cpu_core/topdown-fetch-lat/
perf-name TD_MEM       cpu_core/topdown-mem-bound/
perf-name UOP_DROPPING cpu_core/int_misc.uop_dropping/
perf-name CLK_THREAD   cpu_core/cycles/ cpu_core/cpu-cycles/ cpu_core/cpu_clk_unhalted.thread/
perf-name INST         cpu_core/instructions/ cpu_core/inst_retired.any/

# --- counters (planner): Golden Cove has 8 general-purpose and 4 fixed counters per logical CPU
# (Intel SDM vol. 3B, 20.3.12 / perf's alderlake counter.json "CountersNumFixed": 4 for cpu_core)
counters  gp=8 fixed=4 watchdog=fixed:1
fixed     0 INST
fixed     1 CLK_THREAD
fixed     3 SLOTS_EV
limit     SLOTS_EV counters=fixed
topdown-group SLOTS_EV TD_RET TD_BAD TD_FE TD_BE TD_HEAVY TD_BR_MISP TD_FETCH_LAT TD_MEM

let      PM_SUM    = TD_FE + TD_BAD + TD_RET + TD_BE
info     CLKS      Count  = CLK_THREAD      | Unhalted core clocks of this thread on P-cores
info     SLOTS     Count  = SLOTS_EV        | Issue slots on P-cores (TOPDOWN.SLOTS; 6 a cycle)
info     IPC       Metric = INST / CLKS     | Instructions per cycle on P-cores
info     CPI       Metric = CLKS / INST     | Cycles per instruction on P-cores

# level 1 (adl-metrics.json tma_frontend_bound, tma_bad_speculation, tma_backend_bound, tma_retiring)
node  Frontend_Bound  Slots = TD_FE / PM_SUM - UOP_DROPPING / SLOTS \
      | > 0.15 | Slots the frontend left empty while the backend could take uops
node  Bad_Speculation Slots = max(1 - (Frontend_Bound + Backend_Bound + Retiring), 0) \
      | > 0.15 | Slots wasted by incorrect speculation
node  Backend_Bound   Slots = TD_BE / PM_SUM \
      | > 0.2  | Slots stalled for lack of backend resources
node  Retiring        Slots = TD_RET / PM_SUM \
      | > 0.7 or Retiring.Heavy_Operations > 0.1 | Slots that retired useful uops
# level 2 (tma_fetch_latency, tma_fetch_bandwidth, tma_branch_mispredicts, tma_machine_clears,
# tma_memory_bound, tma_core_bound, tma_light_operations, tma_heavy_operations)
node  Frontend_Bound.Fetch_Latency   Slots = TD_FETCH_LAT / PM_SUM - UOP_DROPPING / SLOTS \
      | > 0.1 | Frontend latency: the frontend delivered no uops (i-cache, iTLB, resteers)
node  Frontend_Bound.Fetch_Bandwidth Slots = max(0, Frontend_Bound - Frontend_Bound.Fetch_Latency) \
      | > 0.1 | Frontend bandwidth: too few uops delivered (decoders, DSB)
partition Frontend_Bound        # Fetch_Bandwidth = Frontend_Bound - Fetch_Latency
node  Bad_Speculation.Branch_Mispredicts Slots = TD_BR_MISP / PM_SUM \
      | > 0.1 | Slots wasted by branch mispredictions
node  Bad_Speculation.Machine_Clears     Slots = max(0, Bad_Speculation - Bad_Speculation.Branch_Mispredicts) \
      | > 0.1 | Slots wasted by machine clears
partition Bad_Speculation       # Machine_Clears = Bad_Speculation - Branch_Mispredicts
node  Backend_Bound.Memory_Bound Slots = TD_MEM / PM_SUM \
      | > 0.2 | Slots stalled on the memory subsystem
node  Backend_Bound.Core_Bound   Slots = max(0, Backend_Bound - Backend_Bound.Memory_Bound) \
      | > 0.1 | Slots stalled on non-memory core resources
partition Backend_Bound         # Core_Bound = Backend_Bound - Memory_Bound
node  Retiring.Heavy_Operations Slots = TD_HEAVY / PM_SUM \
      | > 0.1 | Slots retiring heavy (multi-uop, microcode) operations
node  Retiring.Light_Operations Slots = max(0, Retiring - Retiring.Heavy_Operations) \
      | > 0.6 | Slots retiring light (single-uop) operations
partition Retiring              # Light_Operations = Retiring - Heavy_Operations

cpi-cycles       CLKS
cpi-instructions INST
cpi   Frontend        derived = Frontend_Bound  | Cycles lost to frontend bubbles (slot share)
cpi   Bad_Speculation derived = Bad_Speculation | Cycles lost to wrong-path work (slot share)
cpi   Backend         derived = Backend_Bound   | Cycles stalled in the backend (slot share)
