# intel-gnr.td — Intel Granite Rapids (Xeon 6 with P-cores, CPUID family 6 model 0xAD / 0xAE): TMA 5.2
# levels 1 and 2 from PERF_METRICS, and the level-3 nodes whose formulas need no retire-latency data
# (with the frontend-MSR events: Branch_Resteers, MS_Switches, MS, Microcode_Sequencer, Few_Uops_Instructions)
pmu      gnr
title    Intel Granite Rapids
version  TMA 5.2 (intel/perfmon GNR/metrics/graniterapids_metrics.json V1.3, 06/02/2026; events GNR/events/graniterapids_core.json V1.20)
note     Formulas: Intel's perfmon GNR/metrics/graniterapids_metrics.json (TmaVersion 5.2, TmaFlavor Full;
note     read at intel/perfmon 6dadedf3aa48), the source Linux perf's graniterapids/gnr-metrics.json is
note     generated from; node names and thresholds are that file's (levels 1-3: Frontend_Bound > 15%, ...).
note     Its L1 and L2 formulas are identical to Sapphire Rapids' (intel-spr.td's PERF_METRICS path);
note     at L3 GNR's Ports_Utilization drops SPR's RS.EMPTY_RESOURCE and stall-share terms, and it adds
note     five Branch_Mispredicts children (here), and L4/L5 nodes that read retire latencies
note     (event:retire_latency, a sampling feature), which this file leaves out.
note     Five level-3 nodes read events that need MSR 0x3F7 (MSR_PEBS_FRONTEND), set through perf's
note     frontend= term (sysfs cpu/format/frontend, config1:0-23): Branch_Resteers (INT_MISC.
note     UNKNOWN_BRANCH_CYCLES, 0x3F7 = 0x7), MS_Switches, MS, Microcode_Sequencer and Few_Uops_Instructions
note     (UOPS_RETIRED.MS, 0x3F7 = 0x8). The MSR is one per core thread: two events with different values
note     cannot count at once, so these events are planned on counter 0 only (one per group).
note     Encodings: event code, umask, counter mask of perfmon GNR/events/graniterapids_core.json V1.20
note     (the same numbers as Linux perf's graniterapids/pipeline.json, frontend.json, memory.json,
note     cache.json), beside each event below. libpfm4 4.13 has no Granite Rapids table, so every event is
note     a perf raw form; the host is recognised by CPUID GenuineIntel family 6 model 0xAD (GNR-X) or 0xAE
note     (GNR-D), as perfmon's mapfile.csv does (GenuineIntel-6-AD, GenuineIntel-6-AE), and 'gnr' is the
note     name this file serves (the PERF_METRICS path needs SLOTS to lead its group, as on SPR).
note     L1/L2 read PERF_METRICS through perf's topdown-* events (the kernel's encodings event 0x00,
note     umask 0x80-0x87; TOPDOWN.SLOTS is fixed counter 3, pseudo 0x00/0x04): a node is TD_X / PM_SUM with
note     PM_SUM the sum of the four level-1 counts, as perfmon does. Without the PERF_METRICS counts (a VM
note     whose virtual PMU lacks them) the level-1 and level-2 nodes are not available.
note     TMA 5.2 names the node under Memory_Bound L3_Miss_Bound (intel-spr.td keeps toplev's DRAM_Bound).

param    SMT_on 0

# PERF_METRICS (pseudo encodings: Linux arch/x86/events/intel/core.c topdown-* events)
event    SLOTS_EV        cpu/event=0x0,umask=0x4/             | TOPDOWN.SLOTS, issue slots (fixed counter 3, group leader) [fixed 0x00/0x04]
event    TD_RET          cpu/event=0x0,umask=0x80/            | PERF_METRICS.RETIRING (perf topdown-retiring), in slots [pseudo 0x00/0x80]
event    TD_BAD          cpu/event=0x0,umask=0x81/            | PERF_METRICS.BAD_SPECULATION (perf topdown-bad-spec), in slots [pseudo 0x00/0x81]
event    TD_FE           cpu/event=0x0,umask=0x82/            | PERF_METRICS.FRONTEND_BOUND (perf topdown-fe-bound), in slots [pseudo 0x00/0x82]
event    TD_BE           cpu/event=0x0,umask=0x83/            | PERF_METRICS.BACKEND_BOUND (perf topdown-be-bound), in slots [pseudo 0x00/0x83]
event    TD_HEAVY        cpu/event=0x0,umask=0x84/            | PERF_METRICS.HEAVY_OPERATIONS (perf topdown-heavy-ops), in slots [pseudo 0x00/0x84]
event    TD_BR_MISP      cpu/event=0x0,umask=0x85/            | PERF_METRICS.BRANCH_MISPREDICTS (perf topdown-br-mispredict), in slots [pseudo 0x00/0x85]
event    TD_FETCH_LAT    cpu/event=0x0,umask=0x86/            | PERF_METRICS.FETCH_LATENCY (perf topdown-fetch-lat), in slots [pseudo 0x00/0x86]
event    TD_MEM          cpu/event=0x0,umask=0x87/            | PERF_METRICS.MEMORY_BOUND (perf topdown-mem-bound), in slots [pseudo 0x00/0x87]
event    REF_TSC         cpu/event=0x0,umask=0x3/             | CPU_CLK_UNHALTED.REF_TSC, reference cycles (fixed counter 2) [fixed 0x00/0x03]
# general-purpose events: perfmon GNR/events/graniterapids_core.json V1.20 [code/umask c=cmask]
event    CLK_THREAD       cpu/event=0x3c,umask=0x0/            | CPU_CLK_UNHALTED.THREAD_P, unhalted core clocks of this thread (fixed counter 1 as CPU_CLK_UNHALTED.THREAD) [0x3C/0x00]
event    INST             cpu/event=0xc0,umask=0x0/            | INST_RETIRED.ANY_P, instructions retired (fixed counter 0 as INST_RETIRED.ANY) [0xC0/0x00]
event    CLK_DISTRIBUTED  cpu/event=0xec,umask=0x2/            | CPU_CLK_UNHALTED.DISTRIBUTED, core clocks distributed to this thread [0xEC/0x02]
event    UOP_DROPPING     cpu/event=0xad,umask=0x10/           | INT_MISC.UOP_DROPPING, uops the frontend dropped [0xAD/0x10]
event    BR_MISP          cpu/event=0xc5,umask=0x0/            | BR_MISP_RETIRED.ALL_BRANCHES, mispredicted branches retired [0xC5/0x00]
event    ICACHE_STALL     cpu/event=0x80,umask=0x4/            | ICACHE_DATA.STALLS, I-cache miss stall cycles [0x80/0x04]
event    ITLB_STALL       cpu/event=0x83,umask=0x4/            | ICACHE_TAG.STALLS, I-TLB miss stall cycles [0x83/0x04]
event    BOUND_ON_LOADS   cpu/event=0xa6,umask=0x21,cmask=5/   | EXE_ACTIVITY.BOUND_ON_LOADS, execution stalls with a load outstanding [0xA6/0x21 c=5]
event    BOUND_ON_STORES  cpu/event=0xa6,umask=0x40,cmask=2/   | EXE_ACTIVITY.BOUND_ON_STORES, store buffer full cycles [0xA6/0x40 c=2]
event    MA_L1D           cpu/event=0x47,umask=0x3,cmask=3/    | MEMORY_ACTIVITY.STALLS_L1D_MISS, execution stalls with an L1D miss outstanding [0x47/0x03 c=3]
event    MA_L2            cpu/event=0x47,umask=0x5,cmask=5/    | MEMORY_ACTIVITY.STALLS_L2_MISS, execution stalls with an L2 miss outstanding [0x47/0x05 c=5]
event    MA_L3            cpu/event=0x47,umask=0x9,cmask=9/    | MEMORY_ACTIVITY.STALLS_L3_MISS, execution stalls with an L3 miss outstanding [0x47/0x09 c=9]
event    DIV_ACTIVE       cpu/event=0xb0,umask=0x9,cmask=1/    | ARITH.DIV_ACTIVE, divider busy cycles [0xB0/0x09 c=1]
event    SCOREBOARD       cpu/event=0xa2,umask=0x2/            | RESOURCE_STALLS.SCOREBOARD, stalls on serializing operations [0xA2/0x02]
event    C02              cpu/event=0xec,umask=0x20/           | CPU_CLK_UNHALTED.C02, core clocks in the C0.2 light-weight wait state [0xEC/0x20]
event    STALLS_TOTAL     cpu/event=0xa3,umask=0x4,cmask=4/    | CYCLE_ACTIVITY.STALLS_TOTAL, execution stall cycles [0xA3/0x04 c=4]
event    EXE_0            cpu/event=0xa6,umask=0x80/           | EXE_ACTIVITY.EXE_BOUND_0_PORTS, cycles no port executed a uop [0xA6/0x80]
event    EXE_1            cpu/event=0xa6,umask=0x2/            | EXE_ACTIVITY.1_PORTS_UTIL, cycles one port executed uops [0xA6/0x02]
event    EXE_23           cpu/event=0xa6,umask=0xc/            | EXE_ACTIVITY.2_3_PORTS_UTIL, cycles two or three ports executed uops [0xA6/0x0C]
event    L1_MISS          cpu/event=0xd1,umask=0x8/            | MEM_LOAD_RETIRED.L1_MISS, retired loads that missed L1D [0xD1/0x08]
event    L2_MISS          cpu/event=0xd1,umask=0x10/           | MEM_LOAD_RETIRED.L2_MISS, retired loads that missed L2 [0xD1/0x10]
event    L3_MISS          cpu/event=0xd1,umask=0x20/           | MEM_LOAD_RETIRED.L3_MISS, retired loads that missed L3 [0xD1/0x20]
event    BR_MISP_COND_NT  cpu/event=0xc5,umask=0x10/           | BR_MISP_RETIRED.COND_NTAKEN, mispredicted not-taken conditional branches retired [0xC5/0x10]
event    BR_MISP_COND_TK  cpu/event=0xc5,umask=0x1/            | BR_MISP_RETIRED.COND_TAKEN, mispredicted taken conditional branches retired [0xC5/0x01]
event    BR_MISP_IND_CALL cpu/event=0xc5,umask=0x2/            | BR_MISP_RETIRED.INDIRECT_CALL, mispredicted indirect calls retired [0xC5/0x02]
event    BR_MISP_INDIRECT cpu/event=0xc5,umask=0x80/           | BR_MISP_RETIRED.INDIRECT, mispredicted indirect branches (not returns) retired [0xC5/0x80]
event    BR_MISP_RET      cpu/event=0xc5,umask=0x8/            | BR_MISP_RETIRED.RET, mispredicted returns retired [0xC5/0x08]
event    CLEARS_COUNT     cpu/event=0xad,umask=0x1,cmask=1,edge=1/ | INT_MISC.CLEARS_COUNT, speculative clears [0xAD/0x01 c=1 e=1]
event    MC_COUNT         cpu/event=0xc3,umask=0x1,cmask=1,edge=1/ | MACHINE_CLEARS.COUNT, machine clears [0xC3/0x01 c=1 e=1]
event    MC_MEM_ORDER     cpu/event=0xc3,umask=0x2/            | MACHINE_CLEARS.MEMORY_ORDERING, memory-ordering machine clears [0xC3/0x02]
event    LCP_STALL        cpu/event=0x87,umask=0x1/            | DECODE.LCP, decoder stalls on length-changing prefixes [0x87/0x01]
event    DSB2MITE_PEN     cpu/event=0x61,umask=0x2/            | DSB2MITE_SWITCHES.PENALTY_CYCLES, DSB-to-MITE switch penalty cycles [0x61/0x02]
event    MITE_ANY         cpu/event=0x79,umask=0x4,cmask=1/    | IDQ.MITE_CYCLES_ANY, cycles MITE delivered any uop [0x79/0x04 c=1]
event    MITE_OK          cpu/event=0x79,umask=0x4,cmask=6/    | IDQ.MITE_CYCLES_OK, cycles MITE delivered the optimal number of uops [0x79/0x04 c=6]
event    DSB_ANY          cpu/event=0x79,umask=0x8,cmask=1/    | IDQ.DSB_CYCLES_ANY, cycles the DSB delivered any uop [0x79/0x08 c=1]
event    DSB_OK           cpu/event=0x79,umask=0x8,cmask=6/    | IDQ.DSB_CYCLES_OK, cycles the DSB delivered the optimal number of uops [0x79/0x08 c=6]

# events with MSR 0x3F7 (perfmon "MSRIndex": "0x3F7", "MSRValue" as frontend=) and their companions
event    RESTEER          cpu/event=0xad,umask=0x80/           | INT_MISC.CLEAR_RESTEER_CYCLES, cycles the frontend was resteered after a clear [0xAD/0x80]
event    UNKNOWN_BR       cpu/event=0xad,umask=0x40,frontend=0x7/ | INT_MISC.UNKNOWN_BRANCH_CYCLES, bubble cycles of BAClear (unknown branch), MSR 0x3F7 = 0x7 [0xAD/0x40]
event    MS_RET           cpu/event=0xc2,umask=0x4,frontend=0x8/ | UOPS_RETIRED.MS, retired uops from the microcode sequencer, MSR 0x3F7 = 0x8 [0xC2/0x04]
event    MS_RET_CYCLES    cpu/event=0xc2,umask=0x4,cmask=1,frontend=0x8/ | UOPS_RETIRED.MS (:c1), cycles retiring microcode-sequencer uops, MSR 0x3F7 = 0x8 [0xC2/0x04 c=1]
event    MS_SWITCHES_RET  cpu/event=0xc2,umask=0x4,cmask=1,edge=1,frontend=0x8/ | UOPS_RETIRED.MS (:c1:e1), switches to the microcode sequencer (retired), MSR 0x3F7 = 0x8 [0xC2/0x04 c=1 e=1]
event    MS_CYCLES_ANY    cpu/event=0x79,umask=0x20,cmask=1/   | IDQ.MS_CYCLES_ANY, cycles the microcode sequencer delivered any uop [0x79/0x20 c=1]
libpfm4-differs UNKNOWN_BR      | libpfm4 4.13 (spr) INT_MISC:UNKNOWN_BRANCH_CYCLES has umask 0x07 (perfmon's MSR 0x3F7 value); perfmon GNR V1.20 is 0xAD/0x40 with MSR 0x3F7 = 0x7
libpfm4-differs MS_RET          | libpfm4 4.13 (spr) UOPS_RETIRED:MS is 0xC2/0x08 without the MSR; perfmon GNR V1.20 (and SPR V1.39) is 0xC2/0x04 with MSR 0x3F7 = 0x8
libpfm4-differs MS_RET_CYCLES   | libpfm4 4.13 (spr) UOPS_RETIRED:MS is 0xC2/0x08 without the MSR; perfmon GNR V1.20 is 0xC2/0x04 c=1 with MSR 0x3F7 = 0x8
libpfm4-differs MS_SWITCHES_RET | libpfm4 4.13 (spr) UOPS_RETIRED:MS is 0xC2/0x08 without the MSR; perfmon GNR V1.20 is 0xC2/0x04 c=1 e=1 with MSR 0x3F7 = 0x8
event    RET_SLOTS        cpu/event=0xc2,umask=0x2/            | UOPS_RETIRED.SLOTS, retirement slots used [0xC2/0x02]
event    UOPS_ISSUED      cpu/event=0xae,umask=0x1/            | UOPS_ISSUED.ANY, uops issued [0xAE/0x01]

# perf's names for these events (perf stat -x prints these; Linux graniterapids/*.json)
perf-name CLK_THREAD       cpu_clk_unhalted.thread_p
perf-name INST             inst_retired.any_p
perf-name CLK_DISTRIBUTED  cpu_clk_unhalted.distributed
perf-name UOP_DROPPING     int_misc.uop_dropping
perf-name BR_MISP          br_misp_retired.all_branches
perf-name ICACHE_STALL     icache_data.stalls
perf-name ITLB_STALL       icache_tag.stalls
perf-name BOUND_ON_LOADS   exe_activity.bound_on_loads
perf-name BOUND_ON_STORES  exe_activity.bound_on_stores
perf-name MA_L1D           memory_activity.stalls_l1d_miss
perf-name MA_L2            memory_activity.stalls_l2_miss
perf-name MA_L3            memory_activity.stalls_l3_miss
perf-name DIV_ACTIVE       arith.div_active
perf-name SCOREBOARD       resource_stalls.scoreboard
perf-name C02              cpu_clk_unhalted.c02
perf-name STALLS_TOTAL     cycle_activity.stalls_total
perf-name EXE_0            exe_activity.exe_bound_0_ports
perf-name EXE_1            exe_activity.1_ports_util
perf-name EXE_23           exe_activity.2_3_ports_util
perf-name L1_MISS          mem_load_retired.l1_miss
perf-name L2_MISS          mem_load_retired.l2_miss
perf-name L3_MISS          mem_load_retired.l3_miss
perf-name BR_MISP_COND_NT  br_misp_retired.cond_ntaken
perf-name BR_MISP_COND_TK  br_misp_retired.cond_taken
perf-name BR_MISP_IND_CALL br_misp_retired.indirect_call
perf-name BR_MISP_INDIRECT br_misp_retired.indirect
perf-name BR_MISP_RET      br_misp_retired.ret
perf-name CLEARS_COUNT     int_misc.clears_count
perf-name MC_COUNT         machine_clears.count
perf-name MC_MEM_ORDER     machine_clears.memory_ordering
perf-name LCP_STALL        decode.lcp
perf-name DSB2MITE_PEN     dsb2mite_switches.penalty_cycles
perf-name MITE_ANY         idq.mite_cycles_any
perf-name MITE_OK          idq.mite_cycles_ok
perf-name DSB_ANY          idq.dsb_cycles_any
perf-name DSB_OK           idq.dsb_cycles_ok
perf-name RESTEER          int_misc.clear_resteer_cycles
perf-name UNKNOWN_BR       int_misc.unknown_branch_cycles
perf-name MS_RET           uops_retired.ms
perf-name MS_RET_CYCLES    cpu/uops_retired.ms,cmask=1/
perf-name MS_SWITCHES_RET  cpu/uops_retired.ms,cmask=1,edge=1/
perf-name MS_CYCLES_ANY    idq.ms_cycles_any
perf-name RET_SLOTS        uops_retired.slots
perf-name UOPS_ISSUED      uops_issued.any
perf-name SLOTS_EV        topdown.slots slots
perf-name TD_RET          topdown-retiring
perf-name TD_BAD          topdown-bad-spec
perf-name TD_FE           topdown-fe-bound
perf-name TD_BE           topdown-be-bound
perf-name TD_HEAVY        topdown-heavy-ops
perf-name TD_BR_MISP      topdown-br-mispredict
perf-name TD_FETCH_LAT    topdown-fetch-lat
perf-name TD_MEM          topdown-mem-bound
perf-name REF_TSC         cpu_clk_unhalted.ref_tsc ref-cycles

# --- counters (planner): 8 general-purpose counters per logical CPU, 4 fixed (3 = SLOTS), as SPR
# (Linux arch/x86/events/intel/core.c treats GNR as SPR-class); the eight PERF_METRICS events take no
# counter but must follow SLOTS in its group.
counters  gp=8 fixed=4 watchdog=fixed:1
fixed     0 INST
fixed     1 CLK_THREAD
fixed     2 REF_TSC
fixed     3 SLOTS_EV
limit     REF_TSC SLOTS_EV counters=fixed
topdown-group SLOTS_EV TD_RET TD_BAD TD_FE TD_BE TD_HEAVY TD_BR_MISP TD_FETCH_LAT TD_MEM
# perfmon "Counter": "0,1,2,3" for these (all others 0-7)
limit     ICACHE_STALL ITLB_STALL MA_L1D MA_L2 MA_L3 L1_MISS L2_MISS L3_MISS \
          LCP_STALL DSB2MITE_PEN MITE_ANY MITE_OK DSB_ANY DSB_OK MS_CYCLES_ANY counters=0-3
# MSR 0x3F7 holds one value per thread (Linux intel_spr_extra_regs: 0x40ad and 0x04c2 share
# MSR_PEBS_FRONTEND, EXTRA_REG_FE): counter 0 keeps the events that set it to one per group
limit     UNKNOWN_BR MS_RET MS_RET_CYCLES MS_SWITCHES_RET counters=0

let      PM_SUM    = TD_FE + TD_BAD + TD_RET + TD_BE
info     CLKS      Count  = CLK_THREAD                        | Unhalted core clocks of this thread
info     CORE_CLKS Count  = CLK_DISTRIBUTED if SMT_on else CLK_THREAD | Core clocks (distributed share with SMT on)
info     SLOTS     Count  = SLOTS_EV                          | Issue slots (TOPDOWN.SLOTS; perfmon tma_info_thread_slots)
info     IPC       Metric = INST / CLKS                       | Instructions per cycle (perfmon Info_Thread_IPC)
info     CPI       Metric = CLKS / INST                       | Cycles per instruction (perfmon Info_Thread_CPI)
info     CoreIPC   Metric = INST / CORE_CLKS                  | Instructions per core clock (perfmon Info_Core_CoreIPC)
info     Turbo_Utilization Ratio = CLKS / REF_TSC             | Average frequency relative to nominal (perfmon Info_System_Turbo_Utilization)
info     Branch_MPKI  MPKI = 1000 * BR_MISP / INST            | Mispredicted branches per 1000 instructions
info     L1MPKI       MPKI = 1000 * L1_MISS / INST            | Retired loads that missed L1D per 1000 instructions (perfmon Info_Memory_L1MPKI)
info     L2MPKI       MPKI = 1000 * L2_MISS / INST            | Retired loads that missed L2 per 1000 instructions (perfmon Info_Memory_L2MPKI)
info     L3MPKI       MPKI = 1000 * L3_MISS / INST            | Retired loads that missed L3 per 1000 instructions (perfmon Info_Memory_L3MPKI)

# level 1 (perfmon Frontend_Bound, Bad_Speculation, Backend_Bound, Retiring; formulas / 100)
node  Frontend_Bound  Slots = TD_FE / PM_SUM - UOP_DROPPING / SLOTS \
      | > 0.15 | Slots the frontend did not fill while the backend could accept uops
node  Backend_Bound   Slots = TD_BE / PM_SUM \
      | > 0.20 | Slots with no uop issued because the backend lacked resources
node  Retiring        Slots = TD_RET / PM_SUM \
      | this > 0.7 or Retiring.Heavy_Operations > 0.1 | Slots that retired a uop (useful work)
node  Bad_Speculation Slots = max(1 - (Frontend_Bound + Backend_Bound + Retiring), 0) \
      | > 0.15 | Slots wasted on uops that never retire and on recovery

# level 2 (perfmon Fetch_Latency, Fetch_Bandwidth, Branch_Mispredicts, Machine_Clears, Memory_Bound,
# Core_Bound, Heavy_Operations, Light_Operations)
node  Frontend_Bound.Fetch_Latency   Slots = TD_FETCH_LAT / PM_SUM - UOP_DROPPING / SLOTS \
      | > 0.10 | Slots lost to cycles in which the frontend delivered no uop
node  Frontend_Bound.Fetch_Bandwidth Slots = max(0, Frontend_Bound - Frontend_Bound.Fetch_Latency) \
      | > 0.20 | Slots lost because the frontend delivered fewer uops than the width
partition Frontend_Bound        # perfmon: Fetch_Bandwidth = max(0, Frontend_Bound - Fetch_Latency)
node  Bad_Speculation.Branch_Mispredicts Slots = TD_BR_MISP / PM_SUM \
      | > 0.10 | Slots wasted on branch mispredictions
node  Bad_Speculation.Machine_Clears     Slots = max(0, Bad_Speculation - Bad_Speculation.Branch_Mispredicts) \
      | > 0.10 | Slots wasted on machine clears
partition Bad_Speculation       # perfmon: Machine_Clears = max(0, Bad_Speculation - Branch_Mispredicts)
node  Backend_Bound.Memory_Bound Slots = TD_MEM / PM_SUM \
      | > 0.20 | Slots stalled on the memory subsystem
node  Backend_Bound.Core_Bound   Slots = max(0, Backend_Bound - Backend_Bound.Memory_Bound) \
      | > 0.10 | Slots stalled on the core
partition Backend_Bound         # perfmon: Core_Bound = max(0, Backend_Bound - Memory_Bound)
node  Retiring.Heavy_Operations Slots = TD_HEAVY / PM_SUM \
      | > 0.1 | Slots retiring heavy operations (multi-uop instructions, microcode)
node  Retiring.Light_Operations Slots = max(0, Retiring - Retiring.Heavy_Operations) \
      | > 0.6 | Slots retiring light-weight operations
partition Retiring              # perfmon: Light_Operations = max(0, Retiring - Heavy_Operations)

# level 3 (perfmon, same names and thresholds)
node  Frontend_Bound.Fetch_Latency.ICache_Misses Clocks = ICACHE_STALL / CLKS \
      | > 0.05 | Cycles stalled on instruction-cache misses
node  Frontend_Bound.Fetch_Latency.ITLB_Misses   Clocks = ITLB_STALL / CLKS \
      | > 0.05 | Cycles stalled on instruction-TLB misses
node  Frontend_Bound.Fetch_Latency.LCP Clocks = LCP_STALL / CLKS \
      | > 0.05 | Cycles the decoders stalled on length-changing prefixes
node  Frontend_Bound.Fetch_Latency.DSB_Switches Clocks = DSB2MITE_PEN / CLKS \
      | > 0.05 | Cycles lost switching from the DSB to the legacy decoders (MITE)
# perfmon GNR Branch_Resteers: clear_resteer_cycles / clks + tma_unknown_branches (= unknown_branch_cycles / clks)
node  Frontend_Bound.Fetch_Latency.Branch_Resteers Clocks = RESTEER / CLKS + UNKNOWN_BR / CLKS \
      | > 0.05 | Cycles the frontend was delayed fetching from corrected paths (may overlap its siblings)
# perfmon GNR MS_Switches: 3 * uops_retired.ms:c1:e1 / (uops_retired.slots / uops_issued.any) / clks
let   RETIRE_FRACTION = RET_SLOTS / UOPS_ISSUED
node  Frontend_Bound.Fetch_Latency.MS_Switches Clocks_est = 3 * MS_SWITCHES_RET / RETIRE_FRACTION / CLKS \
      | > 0.05 | Cycles lost switching to the microcode sequencer (3 cycles each)
unrelated Frontend_Bound.Fetch_Latency | TMA 5.2: the children are Clocks fractions that may overlap \
      (Branch_Resteers "may overlap with its siblings"); Intel defines no sum or bound
node  Frontend_Bound.Fetch_Bandwidth.MITE Slots_est = (MITE_ANY - MITE_OK) / CORE_CLKS / 2 \
      | > 0.10 | Cycles the legacy decode pipeline (MITE) delivered fewer uops than optimal
node  Frontend_Bound.Fetch_Bandwidth.DSB  Slots_est = (DSB_ANY - DSB_OK) / CORE_CLKS / 2 \
      | > 0.15 | Cycles the decoded-uop cache (DSB) delivered fewer uops than optimal
# perfmon GNR MS: max(idq.ms_cycles_any, uops_retired.ms:c1 / retire fraction) / core clks / 2.4
node  Frontend_Bound.Fetch_Bandwidth.MS   Slots_est = max(MS_CYCLES_ANY, MS_RET_CYCLES / RETIRE_FRACTION) / CORE_CLKS / 2.4 \
      | > 0.05 | Cycles the microcode sequencer limited uop delivery (estimated)
unrelated Frontend_Bound.Fetch_Bandwidth | TMA 5.2: the children are per-core cycle estimates of each \
      uop source's shortfall (Slots_Estimated), not a split of Fetch_Bandwidth's slots; no sum or bound is given
# GNR's new Branch_Mispredicts children: each retired-mispredict kind's share of the mispredict slots
let   BR_MISP_SHARE = Bad_Speculation.Branch_Mispredicts / BR_MISP
node  Bad_Speculation.Branch_Mispredicts.Cond_NT_Mispredicts Clocks_Retired = BR_MISP_COND_NT * BR_MISP_SHARE \
      | > 0.05 | Slots lost to mispredicted not-taken conditional branches
node  Bad_Speculation.Branch_Mispredicts.Cond_TK_Mispredicts Clocks_Retired = BR_MISP_COND_TK * BR_MISP_SHARE \
      | > 0.05 | Slots lost to mispredicted taken conditional branches
node  Bad_Speculation.Branch_Mispredicts.Ind_Call_Mispredicts Clocks_Retired = BR_MISP_IND_CALL * BR_MISP_SHARE \
      | > 0.05 | Slots lost to mispredicted indirect calls
node  Bad_Speculation.Branch_Mispredicts.Ind_Jump_Mispredicts Clocks_Retired = \
        max((BR_MISP_INDIRECT - BR_MISP_IND_CALL) * BR_MISP_SHARE, 0) \
      | > 0.05 | Slots lost to mispredicted indirect jumps (indirect branches less calls)
node  Bad_Speculation.Branch_Mispredicts.Ret_Mispredicts Clocks_Retired = BR_MISP_RET * BR_MISP_SHARE \
      | > 0.05 | Slots lost to mispredicted returns
node  Bad_Speculation.Branch_Mispredicts.Other_Mispredicts Slots = \
        max(Bad_Speculation.Branch_Mispredicts * (1 - BR_MISP / (CLEARS_COUNT - MC_COUNT)), 0.0001) \
      | > 0.05 | Slots lost to mispredictions other than of retired x86 branches
bound Bad_Speculation.Branch_Mispredicts = max(Bad_Speculation.Branch_Mispredicts, 0.0001) \
      | TMA 5.2: each child is a share of its parent (Other_Mispredicts floored at 0.0001); the shares \
      of the five kinds and Other are not defined to add up
node  Bad_Speculation.Machine_Clears.Other_Nukes Slots = \
        max(Bad_Speculation.Machine_Clears * (1 - MC_MEM_ORDER / MC_COUNT), 0.0001) \
      | > 0.05 | Slots lost to machine clears other than memory ordering
bound Bad_Speculation.Machine_Clears = max(Bad_Speculation.Machine_Clears, 0.0001) \
      | Other_Nukes is a share of its parent that TMA floors at 0.0001
node  Backend_Bound.Memory_Bound.L1_Bound Stalls = max((BOUND_ON_LOADS - MA_L1D) / CLKS, 0) \
      | > 0.10 | Stall cycles with loads outstanding that hit L1D
node  Backend_Bound.Memory_Bound.L2_Bound Stalls = (MA_L1D - MA_L2) / CLKS \
      | > 0.05 | Stall cycles on loads that hit L2
node  Backend_Bound.Memory_Bound.L3_Bound Stalls = (MA_L2 - MA_L3) / CLKS \
      | > 0.05 | Stall cycles on loads that hit L3
node  Backend_Bound.Memory_Bound.L3_Miss_Bound Stalls = MA_L3 / CLKS \
      | > 0.10 | Stall cycles with an L3 miss outstanding (toplev's DRAM_Bound)
node  Backend_Bound.Memory_Bound.Store_Bound Stalls = BOUND_ON_STORES / CLKS \
      | > 0.20 | Cycles the store buffer was full
# TMA 5.2: the load children split BOUND_ON_LOADS by the nested MEMORY_ACTIVITY counters, Store_Bound
# is BOUND_ON_STORES, all per clock; exact while L1_Bound's max(.., 0) does not bite
children-sum Backend_Bound.Memory_Bound = (BOUND_ON_LOADS + BOUND_ON_STORES) / CLKS
node  Backend_Bound.Core_Bound.Divider Clocks = DIV_ACTIVE / CLKS \
      | > 0.20 | Cycles the divider unit was busy
node  Backend_Bound.Core_Bound.Serializing_Operation Clocks = SCOREBOARD / CLKS + C02 / CLKS \
      | > 0.10 | Cycles stalled on serializing operations (including C0.2 waits)
# GNR's Ports_Utilization: Ports_Utilized_0 = max(EXE_BOUND_0_PORTS - SCOREBOARD, 0) / CLKS (SPR also
# adds RS.EMPTY_RESOURCE and scales by the non-load stall share)
let   FEW_UOPS_EXECUTED = EXE_1 + Retiring * EXE_23
node  Backend_Bound.Core_Bound.Ports_Utilization Clocks = \
        (max(EXE_0 - SCOREBOARD, 0) / CLKS * CLKS + FEW_UOPS_EXECUTED) / CLKS if DIV_ACTIVE < STALLS_TOTAL - BOUND_ON_LOADS \
        else FEW_UOPS_EXECUTED / CLKS \
      | > 0.15 | Cycles the core was limited by execution-port utilization
unrelated Backend_Bound.Core_Bound | the children (Divider, Serializing_Operation, Ports_Utilization) are \
      Clocks fractions of all cycles under a Slots share of Backend_Bound, which Intel relates by no sum or bound

# Heavy_Operations' level 3 (perfmon GNR): Microcode_Sequencer = uops_retired.ms / slots,
# Few_Uops_Instructions = max(0, Heavy_Operations - Microcode_Sequencer)
node  Retiring.Heavy_Operations.Microcode_Sequencer Slots = MS_RET / SLOTS \
      | > 0.05 | Slots retiring uops from the microcode sequencer
node  Retiring.Heavy_Operations.Few_Uops_Instructions Slots = \
        max(0, Retiring.Heavy_Operations - Retiring.Heavy_Operations.Microcode_Sequencer) \
      | > 0.05 | Slots retiring instructions decoded into two to four uops
partition Retiring.Heavy_Operations   # Few_Uops_Instructions = max(0, Heavy - Microcode_Sequencer)

cpi-cycles        CLKS
cpi-instructions  INST
cpi   Base               derived = Retiring                            | Ideal retiring: retired uops at full width
cpi   Branch_Mispredict  derived = Bad_Speculation.Branch_Mispredicts  | Slots lost to branch mispredictions (PERF_METRICS)
cpi   Machine_Clear      derived = Bad_Speculation.Machine_Clears      | Slots lost to machine clears
cpi   Frontend_Latency   derived = Frontend_Bound.Fetch_Latency        | Cycles the frontend delivered nothing
cpi   Frontend_Bandwidth derived = Frontend_Bound.Fetch_Bandwidth      | Cycles the frontend delivered less than the width
cpi   Memory             derived = Backend_Bound.Memory_Bound          | Memory-bound slots (PERF_METRICS)
cpi   Core               derived = Backend_Bound.Core_Bound            | Core-bound slots
