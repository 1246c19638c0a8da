# intel-gnr.td — Intel Granite Rapids (Xeon 6 with P-cores, CPUID family 6 model 0xAD / 0xAE): the TMA 5.2
# tree of perfmon's graniterapids_metrics.json, levels 1-6: levels 1 and 2 from PERF_METRICS, the deeper
# nodes from counting events, and the nodes whose formulas read retire latencies with Linux perf's
# unsampled fallback (perfmon's mean retire latency per event, rounded)
pmu      gnr
title    Intel Granite Rapids
version  TMA 5.2 (intel/perfmon GNR/metrics/graniterapids_metrics.json V1.3, 06/02/2026; events GNR/events/graniterapids_core.json V1.20)
note     Formulas: Intel's perfmon GNR/metrics/graniterapids_metrics.json (TmaVersion 5.2, TmaFlavor Full;
note     read at intel/perfmon 6dadedf3aa48), the source Linux perf's graniterapids/gnr-metrics.json is
note     generated from; node names and thresholds are that file's (levels 1-3: Frontend_Bound > 15%, ...).
note     Its L1 and L2 formulas are identical to Sapphire Rapids' (intel-spr.td's PERF_METRICS path);
note     at L3 GNR's Ports_Utilization drops SPR's RS.EMPTY_RESOURCE and stall-share terms, and it adds
note     five Branch_Mispredicts children (here), and L4/L5 nodes that read retire latencies
note     (EVENT:retire_latency, the latency in cycles that timed-PEBS samples of the event carry): Code_L2_Hit,
note     Code_L2_Miss, Code_STLB_Hit, Code_STLB_Miss, DTLB_Load, Load_STLB_Hit, Lock_Latency, Split_Loads,
note     L2_Hit_Latency, Contested_Accesses, Data_Sharing, L3_Hit_Latency, Local_MEM, Remote_MEM, Remote_Cache,
note     Split_Stores, DTLB_Store, Store_STLB_Hit. topdown counts and does not sample, so it does what Linux
note     perf stat does when it has no sample of an event's retire latency (tools/perf/util/intel-tpebs.c
note     evsel__tpebs_read, default --tpebs-mode mean): it takes rint(RetirementLatencyMean) of the event's
note     JSON, which perfmon's create_perf_json.py copies from GNR/metrics/graniterapids_retire_latency.json
note     (MEAN; measured on a GNR-X, "TMA version 5.01-full-perf"). Those rounded means are the RL_*
note     constants; the values are averages over Intel's workloads, not this program's: these nodes are
note     estimates of the same quality as perf's without --record-tpebs. Hand values in gnr-retire-latency.fix.
note     The level-3..6 nodes that read counting events only follow perfmon's formulas and thresholds too
note     (FP_Arith, Int_Operations and FP_Vector with the FP_ARITH_INST_RETIRED2 half-precision terms, MEM_Bandwidth
note     with OFFCORE_REQUESTS_OUTSTANDING.DATA_RD:c12, False_Sharing's 170/81 ns costs x Core_Frequency,
note     Ports_Utilized_0 without SPR's RS.EMPTY_RESOURCE term); hand values in gnr-l3-l6-counting.fix.
note     Five level-3 nodes read events that need MSR 0x3F7 (MSR_PEBS_FRONTEND), set through perf's
note     frontend= term (sysfs cpu/format/frontend, config1:0-23): Branch_Resteers (INT_MISC.
note     UNKNOWN_BRANCH_CYCLES, 0x3F7 = 0x7), MS_Switches, MS, Microcode_Sequencer and Few_Uops_Instructions
note     (UOPS_RETIRED.MS, 0x3F7 = 0x8). The MSR is one per core thread: two events with different values
note     cannot count at once: an 'extra frontend 1' line keeps one value per group. The level-4
note     Unknown_Branches reads UNKNOWN_BRANCH_CYCLES too; Code_L2_Hit/Miss and Code_STLB_Hit/Miss read
note     FRONTEND_RETIRED.L1I_MISS/L2_MISS/ITLB_MISS/STLB_MISS (0xC6/0x03, 0x3F7 = 0x12-0x15; Linux
note     intel_rwc_extra_regs 0x03c6): one value per group too, so Code_L2_Hit and Code_STLB_Hit span two groups.
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
# retire latencies (cycles) where perfmon's formulas read EVENT:retire_latency: rint of perfmon's
# GNR/metrics/graniterapids_retire_latency.json MEAN, as Linux perf uses when it has no sample
const    RL_FR_L1I_MISS 10        # FRONTEND_RETIRED.L1I_MISS 9.83
const    RL_FR_L2_MISS 137        # FRONTEND_RETIRED.L2_MISS 137.41
const    RL_FR_ITLB_MISS 42       # FRONTEND_RETIRED.ITLB_MISS 41.96
const    RL_FR_STLB_MISS 207      # FRONTEND_RETIRED.STLB_MISS 206.85
const    RL_STLB_HIT_LOADS 2      # MEM_INST_RETIRED.STLB_HIT_LOADS 1.57
const    RL_STLB_HIT_STORES 5     # MEM_INST_RETIRED.STLB_HIT_STORES 5.24
const    RL_LOCK_LOADS 64         # MEM_INST_RETIRED.LOCK_LOADS 63.76
const    RL_SPLIT_LOADS 4         # MEM_INST_RETIRED.SPLIT_LOADS 3.97
const    RL_SPLIT_STORES 19       # MEM_INST_RETIRED.SPLIT_STORES 19.0
const    RL_L2_HIT 6              # MEM_LOAD_RETIRED.L2_HIT 5.71
const    RL_L3_HIT 58             # MEM_LOAD_RETIRED.L3_HIT 57.64
const    RL_XSNP_MISS 125         # MEM_LOAD_L3_HIT_RETIRED.XSNP_MISS 125.27
const    RL_XSNP_FWD 353          # MEM_LOAD_L3_HIT_RETIRED.XSNP_FWD 353.04
const    RL_XSNP_NO_FWD 290       # MEM_LOAD_L3_HIT_RETIRED.XSNP_NO_FWD 289.9
const    RL_L3M_LOCAL_DRAM 116    # MEM_LOAD_L3_MISS_RETIRED.LOCAL_DRAM 115.83
const    RL_L3M_REMOTE_DRAM 430   # MEM_LOAD_L3_MISS_RETIRED.REMOTE_DRAM 430.22
const    RL_L3M_REMOTE_HITM 135   # MEM_LOAD_L3_MISS_RETIRED.REMOTE_HITM 135.29
const    RL_L3M_REMOTE_FWD 125    # MEM_LOAD_L3_MISS_RETIRED.REMOTE_FWD 125.36

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
# level-3+ events of the counting-only nodes below: perfmon GNR/events/graniterapids_core.json V1.20
# [code/umask c=cmask; OCR: MSR 0x1A6 value as offcore_rsp=, config1]
event    AMX_BUSY         cpu/event=0xb7,umask=0x2/            | EXE.AMX_BUSY, core cycles the AMX unit was busy with tile (arithmetic) operations [0xB7/0x02]
event    UOPS_X87         cpu/event=0xb1,umask=0x10/           | UOPS_EXECUTED.X87, x87 uops executed [0xB1/0x10]
event    UOPS_EXEC        cpu/event=0xb1,umask=0x1/            | UOPS_EXECUTED.THREAD, uops executed by this thread [0xB1/0x01]
event    FP_SCALAR        cpu/event=0xc7,umask=0x3/            | FP_ARITH_INST_RETIRED.SCALAR, scalar SP/DP FP arithmetic instructions retired [0xC7/0x03]
event    FP2_SCALAR       cpu/event=0xcf,umask=0x3/            | FP_ARITH_INST_RETIRED2.SCALAR, scalar half-precision FP arithmetic instructions retired [0xCF/0x03]
event    FP_VECTOR        cpu/event=0xc7,umask=0xfc/           | FP_ARITH_INST_RETIRED.VECTOR, packed SP/DP FP arithmetic instructions retired (all widths) [0xC7/0xFC]
event    FP2_VECTOR       cpu/event=0xcf,umask=0x1c/           | FP_ARITH_INST_RETIRED2.VECTOR, packed half-precision FP arithmetic instructions retired (all widths) [0xCF/0x1C]
event    FP_128D          cpu/event=0xc7,umask=0x4/            | FP_ARITH_INST_RETIRED.128B_PACKED_DOUBLE [0xC7/0x04]
event    FP_128S          cpu/event=0xc7,umask=0x8/            | FP_ARITH_INST_RETIRED.128B_PACKED_SINGLE [0xC7/0x08]
event    FP2_128H         cpu/event=0xcf,umask=0x4/            | FP_ARITH_INST_RETIRED2.128B_PACKED_HALF [0xCF/0x04]
event    FP_256D          cpu/event=0xc7,umask=0x10/           | FP_ARITH_INST_RETIRED.256B_PACKED_DOUBLE [0xC7/0x10]
event    FP_256S          cpu/event=0xc7,umask=0x20/           | FP_ARITH_INST_RETIRED.256B_PACKED_SINGLE [0xC7/0x20]
event    FP2_256H         cpu/event=0xcf,umask=0x8/            | FP_ARITH_INST_RETIRED2.256B_PACKED_HALF [0xCF/0x08]
event    FP_512D          cpu/event=0xc7,umask=0x40/           | FP_ARITH_INST_RETIRED.512B_PACKED_DOUBLE [0xC7/0x40]
event    FP_512S          cpu/event=0xc7,umask=0x80/           | FP_ARITH_INST_RETIRED.512B_PACKED_SINGLE [0xC7/0x80]
event    FP2_512H         cpu/event=0xcf,umask=0x10/           | FP_ARITH_INST_RETIRED2.512B_PACKED_HALF [0xCF/0x10]
event    IV_ADD_128       cpu/event=0xe7,umask=0x3/            | INT_VEC_RETIRED.ADD_128 [0xE7/0x03]
event    IV_VNNI_128      cpu/event=0xe7,umask=0x10/           | INT_VEC_RETIRED.VNNI_128 [0xE7/0x10]
event    IV_ADD_256       cpu/event=0xe7,umask=0xc/            | INT_VEC_RETIRED.ADD_256 [0xE7/0x0C]
event    IV_MUL_256       cpu/event=0xe7,umask=0x80/           | INT_VEC_RETIRED.MUL_256 [0xE7/0x80]
event    IV_VNNI_256      cpu/event=0xe7,umask=0x20/           | INT_VEC_RETIRED.VNNI_256 [0xE7/0x20]
event    IV_SHUFFLES      cpu/event=0xe7,umask=0x40/           | INT_VEC_RETIRED.SHUFFLES, retired 256-bit integer shuffles [0xE7/0x40]
event    MEM_UOPS         cpu/event=0xe5,umask=0x3/            | MEM_UOP_RETIRED.ANY, retired memory uops [0xE5/0x03]
event    MACRO_FUSED      cpu/event=0xc0,umask=0x10/           | INST_RETIRED.MACRO_FUSED [0xC0/0x10]
event    BR_INST          cpu/event=0xc4,umask=0x0/            | BR_INST_RETIRED.ALL_BRANCHES [0xC4/0x00]
event    NOP_INST         cpu/event=0xc0,umask=0x2/            | INST_RETIRED.NOP, retired NOP instructions [0xC0/0x02]
event    ASSISTS_ANY      cpu/event=0xc1,umask=0x1b/           | ASSISTS.ANY, microcode assists [0xC1/0x1B]
event    ASSISTS_PF       cpu/event=0xc1,umask=0x8/            | ASSISTS.PAGE_FAULT, page-fault assists [0xC1/0x08]
event    ASSISTS_FP       cpu/event=0xc1,umask=0x2/            | ASSISTS.FP, floating-point assists [0xC1/0x02]
event    ASSISTS_MIX      cpu/event=0xc1,umask=0x10/           | ASSISTS.SSE_AVX_MIX, SSE/AVX transition assists [0xC1/0x10]
event    FPDIV_ACTIVE     cpu/event=0xb0,umask=0x1,cmask=1/    | ARITH.FPDIV_ACTIVE, cycles the FP divider was busy [0xB0/0x01 c=1]
event    CLK_PAUSE        cpu/event=0xec,umask=0x40/           | CPU_CLK_UNHALTED.PAUSE, cycles in PAUSE [0xEC/0x40]
event    C01              cpu/event=0xec,umask=0x10/           | CPU_CLK_UNHALTED.C01, core clocks in the C0.1 light-weight wait state [0xEC/0x10]
event    LFENCE           cpu/event=0xe0,umask=0x20/           | MISC2_RETIRED.LFENCE, retired LFENCE instructions [0xE0/0x20]
event    EXE_2            cpu/event=0xa6,umask=0x4/            | EXE_ACTIVITY.2_PORTS_UTIL, cycles two uops executed [0xA6/0x04]
event    EXEC_GE3         cpu/event=0xb1,umask=0x1,cmask=3/    | UOPS_EXECUTED.CYCLES_GE_3, cycles with 3 or more uops executed [0xB1/0x01 c=3]
event    PORT_0           cpu/event=0xb2,umask=0x1/            | UOPS_DISPATCHED.PORT_0 [0xB2/0x01]
event    PORT_1           cpu/event=0xb2,umask=0x2/            | UOPS_DISPATCHED.PORT_1 [0xB2/0x02]
event    PORT_2_3_10      cpu/event=0xb2,umask=0x4/            | UOPS_DISPATCHED.PORT_2_3_10, load ports [0xB2/0x04]
event    PORT_4_9         cpu/event=0xb2,umask=0x10/           | UOPS_DISPATCHED.PORT_4_9, store-data ports [0xB2/0x10]
event    PORT_5_11        cpu/event=0xb2,umask=0x20/           | UOPS_DISPATCHED.PORT_5_11 [0xB2/0x20]
event    PORT_6           cpu/event=0xb2,umask=0x40/           | UOPS_DISPATCHED.PORT_6 [0xB2/0x40]
event    PORT_7_8         cpu/event=0xb2,umask=0x80/           | UOPS_DISPATCHED.PORT_7_8, store-address ports [0xB2/0x80]
event    DECODERS_C1      cpu/event=0x75,umask=0x1,cmask=1/    | INST_DECODED.DECODERS (:c1), cycles at least one decoder was utilized [0x75/0x01 c=1]
event    DECODERS_C2      cpu/event=0x75,umask=0x1,cmask=2/    | INST_DECODED.DECODERS (:c2), cycles at least two decoders were utilized [0x75/0x01 c=2]
event    LD_STORE_FWD     cpu/event=0x3,umask=0x82/            | LD_BLOCKS.STORE_FORWARD, loads blocked by a store that cannot forward [0x03/0x82]
event    ALL_LOADS        cpu/event=0xd0,umask=0x81/           | MEM_INST_RETIRED.ALL_LOADS [0xD0/0x81]
event    FB_HIT           cpu/event=0xd1,umask=0x40/           | MEM_LOAD_RETIRED.FB_HIT [0xD1/0x40]
event    CYCLES_MEM_ANY   cpu/event=0xa3,umask=0x10,cmask=16/  | CYCLE_ACTIVITY.CYCLES_MEM_ANY, cycles with a load outstanding [0xA3/0x10 c=16]
event    MA_CYC_L1D       cpu/event=0x47,umask=0x2,cmask=2/    | MEMORY_ACTIVITY.CYCLES_L1D_MISS, cycles with an L1D miss outstanding [0x47/0x02 c=2]
event    FB_FULL          cpu/event=0x48,umask=0x2/            | L1D_PEND_MISS.FB_FULL, cycles a demand request waited for a fill buffer [0x48/0x02]
event    XQ_FULL          cpu/event=0x2d,umask=0x1,cmask=1/    | XQ.FULL_CYCLES, cycles the uncore request queue was full [0x2D/0x01 c=1]
event    L2_STALLS        cpu/event=0x48,umask=0x4/            | L1D_PEND_MISS.L2_STALLS, cycles a demand request waited for L2 resources [0x48/0x04]
event    ORO_DRD_C12      cpu/event=0x20,umask=0x8,cmask=12/   | OFFCORE_REQUESTS_OUTSTANDING.DATA_RD (:c12), cycles with 12 or more data reads outstanding [0x20/0x08 c=12]
event    ORO_DRD_C1       cpu/event=0x20,umask=0x8,cmask=1/    | OFFCORE_REQUESTS_OUTSTANDING.CYCLES_WITH_DATA_RD, cycles with a data read outstanding [0x20/0x08 c=1]
libpfm4-differs AMX_BUSY      | libpfm4 4.13 (spr) EXE:AMX_BUSY is 0xB7/0x02 with config1 = 0x2 (as if 0xB7 were ICL's offcore-response event); perfmon GNR V1.20 EXE.AMX_BUSY has no MSR
event    MBA_STALLS       cpu/event=0xad,umask=0x20/           | INT_MISC.MBA_STALLS, cycles stalled by memory bandwidth allocation (MBA) throttling [0xAD/0x20]
event    ST_L2_HIT        cpu/event=0x44,umask=0x1/            | MEM_STORE_RETIRED.L2_HIT, retired stores that hit L2 [0x44/0x01]
event    LOCK_LOADS       cpu/event=0xd0,umask=0x21/           | MEM_INST_RETIRED.LOCK_LOADS [0xD0/0x21]
event    ALL_STORES       cpu/event=0xd0,umask=0x82/           | MEM_INST_RETIRED.ALL_STORES [0xD0/0x82]
event    ORO_RFO_C1       cpu/event=0x20,umask=0x4,cmask=1/    | OFFCORE_REQUESTS_OUTSTANDING.CYCLES_WITH_DEMAND_RFO, cycles with a demand RFO outstanding [0x20/0x04 c=1]
event    OCR_RFO_RHITM    cpu/event=0x2a,umask=0x1,offcore_rsp=0x103b800002/ | OCR.DEMAND_RFO.L3_MISS, with TMA's MSR value 0x103B800002 (RFOs that missed L3 and hit a modified line in a remote socket) [0x2A/0x01 MSR 0x1A6 = 0x103B800002]
event    OCR_RFO_HITM     cpu/event=0x2a,umask=0x1,offcore_rsp=0x10003c0002/ | OCR.DEMAND_RFO.L3_HIT.SNOOP_HITM, RFOs that hit L3 and a modified line in another core [0x2A/0x01 MSR 0x1A6 = 0x10003C0002]
event    OCR_STREAM_WR    cpu/event=0x2a,umask=0x1,offcore_rsp=0x10800/ | OCR.STREAMING_WR.ANY_RESPONSE, streaming (non-temporal) stores [0x2A/0x01 MSR 0x1A6 = 0x10800]
# events of the retire-latency nodes: perfmon GNR V1.20 (FRONTEND_RETIRED.* set MSR 0x3F7 as frontend=)
event    FR_L1I_MISS      cpu/event=0xc6,umask=0x3,frontend=0x12/ | FRONTEND_RETIRED.L1I_MISS, retired instructions that missed the L1 I-cache [0xC6/0x03 MSR 0x3F7 = 0x12]
event    FR_L2_MISS       cpu/event=0xc6,umask=0x3,frontend=0x13/ | FRONTEND_RETIRED.L2_MISS, retired instructions whose fetch missed L2 [0xC6/0x03 MSR 0x3F7 = 0x13]
event    FR_ITLB_MISS     cpu/event=0xc6,umask=0x3,frontend=0x14/ | FRONTEND_RETIRED.ITLB_MISS, retired instructions that missed the I-TLB [0xC6/0x03 MSR 0x3F7 = 0x14]
event    FR_STLB_MISS     cpu/event=0xc6,umask=0x3,frontend=0x15/ | FRONTEND_RETIRED.STLB_MISS, retired instructions whose fetch missed the STLB [0xC6/0x03 MSR 0x3F7 = 0x15]
libpfm4-differs FR_L1I_MISS   | libpfm4 4.13 (spr) FRONTEND_RETIRED:L1I_MISS is SPR's 0xC6/0x01; perfmon GNR V1.20 is 0xC6/0x03 with MSR 0x3F7 = 0x12 (Linux intel_rwc_extra_regs: 0x03c6)
libpfm4-differs FR_L2_MISS    | libpfm4 4.13 (spr) FRONTEND_RETIRED:L2_MISS is SPR's 0xC6/0x01; perfmon GNR V1.20 is 0xC6/0x03 with MSR 0x3F7 = 0x13 (Linux intel_rwc_extra_regs: 0x03c6)
libpfm4-differs FR_ITLB_MISS  | libpfm4 4.13 (spr) FRONTEND_RETIRED:ITLB_MISS is SPR's 0xC6/0x01; perfmon GNR V1.20 is 0xC6/0x03 with MSR 0x3F7 = 0x14 (Linux intel_rwc_extra_regs: 0x03c6)
libpfm4-differs FR_STLB_MISS  | libpfm4 4.13 (spr) FRONTEND_RETIRED:STLB_MISS is SPR's 0xC6/0x01; perfmon GNR V1.20 is 0xC6/0x03 with MSR 0x3F7 = 0x15 (Linux intel_rwc_extra_regs: 0x03c6)
event    STLB_HIT_LOADS   cpu/event=0xd0,umask=0x9/            | MEM_INST_RETIRED.STLB_HIT_LOADS, retired loads that missed the DTLB and hit the STLB [0xD0/0x09]
event    STLB_HIT_STORES  cpu/event=0xd0,umask=0xa/            | MEM_INST_RETIRED.STLB_HIT_STORES, retired stores that missed the DTLB and hit the STLB [0xD0/0x0A]
event    SPLIT_LOADS      cpu/event=0xd0,umask=0x41/           | MEM_INST_RETIRED.SPLIT_LOADS, retired loads that split a cache line [0xD0/0x41]
event    SPLIT_STORES     cpu/event=0xd0,umask=0x42/           | MEM_INST_RETIRED.SPLIT_STORES, retired stores that split a cache line [0xD0/0x42]
event    L2_HIT           cpu/event=0xd1,umask=0x2/            | MEM_LOAD_RETIRED.L2_HIT [0xD1/0x02]
event    L3_HIT           cpu/event=0xd1,umask=0x4/            | MEM_LOAD_RETIRED.L3_HIT [0xD1/0x04]
event    XSNP_MISS        cpu/event=0xd2,umask=0x1/            | MEM_LOAD_L3_HIT_RETIRED.XSNP_MISS, L3-hit loads whose snoop missed [0xD2/0x01]
event    XSNP_FWD         cpu/event=0xd2,umask=0x4/            | MEM_LOAD_L3_HIT_RETIRED.XSNP_FWD, L3-hit loads a sibling core forwarded [0xD2/0x04]
event    XSNP_NO_FWD      cpu/event=0xd2,umask=0x2/            | MEM_LOAD_L3_HIT_RETIRED.XSNP_NO_FWD, L3-hit loads snooped without forwarding [0xD2/0x02]
event    OCR_DRD_HITM     cpu/event=0x2a,umask=0x1,offcore_rsp=0x10003c0001/ | OCR.DEMAND_DATA_RD.L3_HIT.SNOOP_HITM, demand data reads that hit L3 and a modified line in another core [0x2A/0x01 MSR 0x1A6 = 0x10003C0001]
event    OCR_DRD_HWF      cpu/event=0x2a,umask=0x1,offcore_rsp=0x8003c0001/ | OCR.DEMAND_DATA_RD.L3_HIT.SNOOP_HIT_WITH_FWD, demand data reads that hit L3 and a clean forwarded line [0x2A/0x01 MSR 0x1A6 = 0x8003C0001]
event    L3M_LOCAL_DRAM   cpu/event=0xd3,umask=0x1/            | MEM_LOAD_L3_MISS_RETIRED.LOCAL_DRAM [0xD3/0x01]
event    L3M_REMOTE_DRAM  cpu/event=0xd3,umask=0x2/            | MEM_LOAD_L3_MISS_RETIRED.REMOTE_DRAM [0xD3/0x02]
event    L3M_REMOTE_HITM  cpu/event=0xd3,umask=0x4/            | MEM_LOAD_L3_MISS_RETIRED.REMOTE_HITM [0xD3/0x04]
event    L3M_REMOTE_FWD   cpu/event=0xd3,umask=0x8/            | MEM_LOAD_L3_MISS_RETIRED.REMOTE_FWD [0xD3/0x08]
event    ITLB_WALK_ACT    cpu/event=0x11,umask=0x10,cmask=1/   | ITLB_MISSES.WALK_ACTIVE, cycles a code page walk was active [0x11/0x10 c=1]
event    ITLB_WC_4K       cpu/event=0x11,umask=0x2/            | ITLB_MISSES.WALK_COMPLETED_4K [0x11/0x02]
event    ITLB_WC_2M       cpu/event=0x11,umask=0x4/            | ITLB_MISSES.WALK_COMPLETED_2M_4M [0x11/0x04]
event    DTLB_LD_WALK     cpu/event=0x12,umask=0x10,cmask=1/   | DTLB_LOAD_MISSES.WALK_ACTIVE, cycles a load page walk was active [0x12/0x10 c=1]
event    DTLB_LD_WC_4K    cpu/event=0x12,umask=0x2/            | DTLB_LOAD_MISSES.WALK_COMPLETED_4K [0x12/0x02]
event    DTLB_LD_WC_2M    cpu/event=0x12,umask=0x4/            | DTLB_LOAD_MISSES.WALK_COMPLETED_2M_4M [0x12/0x04]
event    DTLB_LD_WC_1G    cpu/event=0x12,umask=0x8/            | DTLB_LOAD_MISSES.WALK_COMPLETED_1G [0x12/0x08]
event    DTLB_ST_WALK     cpu/event=0x13,umask=0x10,cmask=1/   | DTLB_STORE_MISSES.WALK_ACTIVE, cycles a store page walk was active [0x13/0x10 c=1]
event    DTLB_ST_WC_4K    cpu/event=0x13,umask=0x2/            | DTLB_STORE_MISSES.WALK_COMPLETED_4K [0x13/0x02]
event    DTLB_ST_WC_2M    cpu/event=0x13,umask=0x4/            | DTLB_STORE_MISSES.WALK_COMPLETED_2M_4M [0x13/0x04]
event    DTLB_ST_WC_1G    cpu/event=0x13,umask=0x8/            | DTLB_STORE_MISSES.WALK_COMPLETED_1G [0x13/0x08]
event    L1D_PENDING      cpu/event=0x48,umask=0x1/            | L1D_PEND_MISS.PENDING, outstanding L1D misses per cycle [0x48/0x01]
event    L1_MISS_ANY      cpu/event=0x43,umask=0xfd/           | MEM_LOAD_COMPLETED.L1_MISS_ANY, completed demand loads that missed L1D [0x43/0xFD]
event    TSC              msr/event=0x0/                       | msr/tsc/, time-stamp counter (perf msr PMU, event 0; perfmon's TSC in Info_System_Core_Frequency) [msr tsc]
libpfm4-differs OCR_RFO_RHITM | TMA's False_Sharing sets MSR 0x1A6 = 0x103B800002 (perfmon metrics ocr_msr_val); libpfm4 4.13 (spr) OCR:DEMAND_RFO_L3_MISS is the event table's 0x3F3FC00002

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
perf-name TSC             msr/tsc/   # as perf stat prints it: matched without the host having an msr PMU
perf-name AMX_BUSY         exe.amx_busy
perf-name UOPS_X87         uops_executed.x87
perf-name UOPS_EXEC        uops_executed.thread
perf-name FP_SCALAR        fp_arith_inst_retired.scalar
perf-name FP2_SCALAR       fp_arith_inst_retired2.scalar
perf-name FP_VECTOR        fp_arith_inst_retired.vector
perf-name FP2_VECTOR       fp_arith_inst_retired2.vector
perf-name FP_128D          fp_arith_inst_retired.128b_packed_double
perf-name FP_128S          fp_arith_inst_retired.128b_packed_single
perf-name FP2_128H         fp_arith_inst_retired2.128b_packed_half
perf-name FP_256D          fp_arith_inst_retired.256b_packed_double
perf-name FP_256S          fp_arith_inst_retired.256b_packed_single
perf-name FP2_256H         fp_arith_inst_retired2.256b_packed_half
perf-name FP_512D          fp_arith_inst_retired.512b_packed_double
perf-name FP_512S          fp_arith_inst_retired.512b_packed_single
perf-name FP2_512H         fp_arith_inst_retired2.512b_packed_half
perf-name IV_ADD_128       int_vec_retired.add_128
perf-name IV_VNNI_128      int_vec_retired.vnni_128
perf-name IV_ADD_256       int_vec_retired.add_256
perf-name IV_MUL_256       int_vec_retired.mul_256
perf-name IV_VNNI_256      int_vec_retired.vnni_256
perf-name IV_SHUFFLES      int_vec_retired.shuffles
perf-name MEM_UOPS         mem_uop_retired.any
perf-name MACRO_FUSED      inst_retired.macro_fused
perf-name BR_INST          br_inst_retired.all_branches
perf-name NOP_INST         inst_retired.nop
perf-name ASSISTS_ANY      assists.any
perf-name ASSISTS_PF       assists.page_fault
perf-name ASSISTS_FP       assists.fp
perf-name ASSISTS_MIX      assists.sse_avx_mix
perf-name FPDIV_ACTIVE     arith.fpdiv_active
perf-name CLK_PAUSE        cpu_clk_unhalted.pause
perf-name C01              cpu_clk_unhalted.c01
perf-name LFENCE           misc2_retired.lfence
perf-name EXE_2            exe_activity.2_ports_util
perf-name EXEC_GE3         uops_executed.cycles_ge_3
perf-name PORT_0           uops_dispatched.port_0
perf-name PORT_1           uops_dispatched.port_1
perf-name PORT_2_3_10      uops_dispatched.port_2_3_10
perf-name PORT_4_9         uops_dispatched.port_4_9
perf-name PORT_5_11        uops_dispatched.port_5_11
perf-name PORT_6           uops_dispatched.port_6
perf-name PORT_7_8         uops_dispatched.port_7_8
perf-name DECODERS_C1      cpu/inst_decoded.decoders,cmask=1/
perf-name DECODERS_C2      cpu/inst_decoded.decoders,cmask=2/
perf-name LD_STORE_FWD     ld_blocks.store_forward
perf-name ALL_LOADS        mem_inst_retired.all_loads
perf-name FB_HIT           mem_load_retired.fb_hit
perf-name CYCLES_MEM_ANY   cycle_activity.cycles_mem_any
perf-name MA_CYC_L1D       memory_activity.cycles_l1d_miss
perf-name FB_FULL          l1d_pend_miss.fb_full
perf-name XQ_FULL          xq.full_cycles
perf-name L2_STALLS        l1d_pend_miss.l2_stalls
perf-name ORO_DRD_C12      cpu/offcore_requests_outstanding.data_rd,cmask=12/
perf-name ORO_DRD_C1       offcore_requests_outstanding.cycles_with_data_rd
perf-name MBA_STALLS       int_misc.mba_stalls
perf-name ST_L2_HIT        mem_store_retired.l2_hit
perf-name LOCK_LOADS       mem_inst_retired.lock_loads
perf-name ALL_STORES       mem_inst_retired.all_stores
perf-name ORO_RFO_C1       offcore_requests_outstanding.cycles_with_demand_rfo
perf-name OCR_RFO_HITM     ocr.demand_rfo.l3_hit.snoop_hitm
perf-name OCR_STREAM_WR    ocr.streaming_wr.any_response
perf-name FR_L1I_MISS      frontend_retired.l1i_miss
perf-name FR_L2_MISS       frontend_retired.l2_miss
perf-name FR_ITLB_MISS     frontend_retired.itlb_miss
perf-name FR_STLB_MISS     frontend_retired.stlb_miss
perf-name STLB_HIT_LOADS   mem_inst_retired.stlb_hit_loads
perf-name STLB_HIT_STORES  mem_inst_retired.stlb_hit_stores
perf-name SPLIT_LOADS      mem_inst_retired.split_loads
perf-name SPLIT_STORES     mem_inst_retired.split_stores
perf-name L2_HIT           mem_load_retired.l2_hit
perf-name L3_HIT           mem_load_retired.l3_hit
perf-name XSNP_MISS        mem_load_l3_hit_retired.xsnp_miss
perf-name XSNP_FWD         mem_load_l3_hit_retired.xsnp_fwd
perf-name XSNP_NO_FWD      mem_load_l3_hit_retired.xsnp_no_fwd
perf-name OCR_DRD_HITM     ocr.demand_data_rd.l3_hit.snoop_hitm
perf-name OCR_DRD_HWF      ocr.demand_data_rd.l3_hit.snoop_hit_with_fwd
perf-name L3M_LOCAL_DRAM   mem_load_l3_miss_retired.local_dram
perf-name L3M_REMOTE_DRAM  mem_load_l3_miss_retired.remote_dram
perf-name L3M_REMOTE_HITM  mem_load_l3_miss_retired.remote_hitm
perf-name L3M_REMOTE_FWD   mem_load_l3_miss_retired.remote_fwd
perf-name ITLB_WALK_ACT    itlb_misses.walk_active
perf-name ITLB_WC_4K       itlb_misses.walk_completed_4k
perf-name ITLB_WC_2M       itlb_misses.walk_completed_2m_4m
perf-name DTLB_LD_WALK     dtlb_load_misses.walk_active
perf-name DTLB_LD_WC_4K    dtlb_load_misses.walk_completed_4k
perf-name DTLB_LD_WC_2M    dtlb_load_misses.walk_completed_2m_4m
perf-name DTLB_LD_WC_1G    dtlb_load_misses.walk_completed_1g
perf-name DTLB_ST_WALK     dtlb_store_misses.walk_active
perf-name DTLB_ST_WC_4K    dtlb_store_misses.walk_completed_4k
perf-name DTLB_ST_WC_2M    dtlb_store_misses.walk_completed_2m_4m
perf-name DTLB_ST_WC_1G    dtlb_store_misses.walk_completed_1g
perf-name L1D_PENDING      l1d_pend_miss.pending
perf-name L1_MISS_ANY      mem_load_completed.l1_miss_any

# --- counters (planner): 8 general-purpose counters per logical CPU, 4 fixed (3 = SLOTS), as SPR
# (Linux arch/x86/events/intel/core.c treats GNR as SPR-class); the eight PERF_METRICS events take no
# counter but must follow SLOTS in its group.
# Kernel source: linux 6.12.117 (Debian linux-source-6.12 6.12.117-1~deb12u1; a Debian source package
# carries no git commit). Paths are relative to its root.
# - counters: the GP counters are CPUID 0xA's (x86_pmu.cntr_mask64); a group may hold at most GP + fixed
#   counters + its metric events (collect_event(), arch/x86/events/core.c:1140-1162);
# - fixed: FIXED_EVENT_CONSTRAINT(0x00c0, 0) INST_RETIRED.ANY and (0x003c, 1) CPU_CLK_UNHALTED.CORE may
#   also take any GP counter; the pseudo encodings (event byte 0: 0x0300 REF_TSC, 0x0400 SLOTS) only their
#   fixed counter (intel_pmu_check_event_constraints(), arch/x86/events/intel/core.c:6318-6361;
#   use_fixed_pseudo_encoding(), arch/x86/include/asm/perf_event.h:344); a match ignores the any bit but
#   not cmask/inv/edge (FIXED_EVENT_FLAGS, arch/x86/events/perf_event.h:435);
# - watchdog: the NMI watchdog is a pinned PERF_COUNT_HW_CPU_CYCLES event per CPU (kernel/
#   watchdog_perf.c:87-93) = 0x003c (intel_perfmon_event_map, intel/core.c:34), on the CPU before any
#   group; the scheduler prefers fixed counters (__perf_sched_find_counter(), core.c:868-890), so it
#   holds fixed counter 1 and a group's own cycles event takes a GP counter.
# - GNR (intel_pmu_init() case INTEL_GRANITERAPIDS_X, intel/core.c:7114-7121, shares SPR's glc_common): intel_glc_event_constraints (intel/core.c:332-370): fixed 0-2 (0x013c
#   REF_TSC_P also on fixed 2, :337), SLOTS on fixed 3 only (:338); eight metric events (umask 0x80-0x87,
#   :339-346; num_topdown_events = 8, intel_pmu_init_glc(), :6454) under SLOTS as for ICL
#   (intel_pmu_hw_config(), :4195-4231); 8 GP counters with or without SMT.
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
# MSR 0x3F7 (MSR_PEBS_FRONTEND) holds one value: intel_rwc_extra_regs (Granite Rapids' table,
# intel/core.c:7116) gives 0x02c6, 0x03c6, 0x40ad and 0x04c2 one EXTRA_REG_FE, without an alternate
# (intel/core.c:373-381 of linux 6.12.117, Debian
# linux-source-6.12 6.12.117-1~deb12u1, no git commit in a source package); a second value gets
# emptyconstraint (__intel_shared_reg_get_constraints(), intel/core.c:3301). The UOPS_RETIRED.MS forms
# write the same 0x8 and share it; 0xAD, 0xC2 and 0xC6 take any counter (0x90-0xFE, intel/core.c:368).
extra     frontend 1 UNKNOWN_BR MS_RET MS_RET_CYCLES MS_SWITCHES_RET FR_L1I_MISS FR_L2_MISS FR_ITLB_MISS FR_STLB_MISS
# perfmon "Counter": "0,1,2,3" for the level-3+ events of codes below 0x90 and 0x20, 0x2A, 0xD0, 0xD1, 0x44
# INST_DECODED.DECODERS (0x0175): counters 0-3 (intel_glc_event_constraints, below 0x90, intel/core.c:354;
# perfmon GNR "Counter" 0,1,2,3); UOPS_EXECUTED (0xB1) any counter (:368). Counter 2 for 0x0175/0x0148 and
# counter 3 for 0x01b1 are intel_lnc_event_constraints (:404-416), Lion Cove's, not Redwood Cove's.
limit     DECODERS_C1 DECODERS_C2 counters=0-3
limit     LD_STORE_FWD ALL_LOADS FB_HIT MA_CYC_L1D FB_FULL XQ_FULL L2_STALLS ORO_DRD_C12 ORO_DRD_C1 ST_L2_HIT \
          LOCK_LOADS ALL_STORES ORO_RFO_C1 counters=0-3
# OCR (0x2A) on counters 0-3 (0x01-0x8F, intel/core.c:354); two offcore-response MSRs (0x1A6, 0x1A7,
# intel_rwc_extra_regs :374-375, the second value on the alternate by intel_alt_er(), :3256): at most two
# OCR values in a group, a third gets emptyconstraint
limit     OCR_RFO_RHITM OCR_RFO_HITM OCR_STREAM_WR OCR_DRD_HITM OCR_DRD_HWF counters=0-3
extra     offcore_rsp 2 OCR_RFO_RHITM OCR_RFO_HITM OCR_STREAM_WR OCR_DRD_HITM OCR_DRD_HWF
nocounter TSC                           # msr PMU: no core counter, may join any group
# the retire-latency nodes' events: perfmon "Counter": "0,1,2,3" (0xD0-0xD3, 0x11-0x13, 0x43, 0x48),
# L1D_PEND_MISS.PENDING (0x0148) on 0-3 too (intel/core.c:354); OCR and FRONTEND_RETIRED: the extra lines above
limit     STLB_HIT_LOADS STLB_HIT_STORES SPLIT_LOADS SPLIT_STORES L2_HIT L3_HIT XSNP_MISS XSNP_FWD XSNP_NO_FWD \
          L3M_LOCAL_DRAM L3M_REMOTE_DRAM L3M_REMOTE_HITM L3M_REMOTE_FWD ITLB_WALK_ACT ITLB_WC_4K ITLB_WC_2M \
          DTLB_LD_WALK DTLB_LD_WC_4K DTLB_LD_WC_2M DTLB_LD_WC_1G DTLB_ST_WALK DTLB_ST_WC_4K DTLB_ST_WC_2M \
          DTLB_ST_WC_1G L1_MISS_ANY counters=0-3
limit     L1D_PENDING counters=0-3
# two MSR 0x3F7 values (Code_L2_Hit, Code_STLB_Hit) or six events on counters 0-3 (Contested_Accesses,
# Data_Sharing): these may span groups
span      Frontend_Bound.Fetch_Latency.ICache_Misses.Code_L2_Hit Frontend_Bound.Fetch_Latency.ITLB_Misses.Code_STLB_Hit
span      Backend_Bound.Memory_Bound.L3_Bound.Contested_Accesses Backend_Bound.Memory_Bound.L3_Bound.Data_Sharing
span      Frontend_Bound.Fetch_Bandwidth.MITE.Decoder0_Alone
# Other_Light_Ops is Light_Operations less its five siblings: it reads their fourteen events
span      Retiring.Light_Operations.Other_Light_Ops

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
info     Load_Miss_Real_Latency Metric = L1D_PENDING / L1_MISS_ANY | Average latency of L1D miss demand loads in core cycles (perfmon Info_Memory_Load_Miss_Real_Latency)
info     Core_Frequency    GHz   = CLKS / REF_TSC * TSC / 1e9 / DURATION | Average core frequency while unhalted (perfmon Info_System_Core_Frequency)

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
unrelated Backend_Bound.Core_Bound | the children (Divider, Serializing_Operation, Ports_Utilization, AMX_Busy) \
      are Clocks fractions of all (or core) cycles under a Slots share of Backend_Bound, which Intel relates by \
      no sum or bound

# Heavy_Operations' level 3 (perfmon GNR): Microcode_Sequencer = uops_retired.ms / slots,
# Few_Uops_Instructions = max(0, Heavy_Operations - Microcode_Sequencer)
node  Retiring.Heavy_Operations.Microcode_Sequencer Slots = MS_RET / SLOTS \
      | > 0.05 | Slots retiring uops from the microcode sequencer
node  Retiring.Heavy_Operations.Few_Uops_Instructions Slots = \
        max(0, Retiring.Heavy_Operations - Retiring.Heavy_Operations.Microcode_Sequencer) \
      | > 0.05 | Slots retiring instructions decoded into two to four uops
partition Retiring.Heavy_Operations   # Few_Uops_Instructions = max(0, Heavy - Microcode_Sequencer)

# --- levels 3-6 that read counting events only (perfmon graniterapids_metrics.json V1.3, TMA 5.2; names,
# formulas and thresholds as there, thresholds / 100; a flagged node needs flagged ancestors, as for every
# node, also where perfmon's threshold of a level-5/6 node names only the node itself)
let   RETIRED_SLOTS = Retiring * SLOTS
node  Backend_Bound.Core_Bound.AMX_Busy Core_Clocks = AMX_BUSY / CORE_CLKS \
      | > 0.50 | Core cycles the AMX unit was busy with tile (arithmetic) operations
node  Retiring.Light_Operations.FP_Arith Uops = \
        Retiring.Light_Operations.FP_Arith.X87_Use + Retiring.Light_Operations.FP_Arith.FP_Scalar + \
        Retiring.Light_Operations.FP_Arith.FP_Vector \
      | > 0.20 | Retired uops of floating-point arithmetic (x87, scalar and vector)
node  Retiring.Light_Operations.Int_Operations Uops = \
        Retiring.Light_Operations.Int_Operations.Int_Vector_128b + Retiring.Light_Operations.Int_Operations.Int_Vector_256b \
      | > 0.10 | Retired uops of integer vector arithmetic (128 and 256 bit)
node  Retiring.Light_Operations.Memory_Operations Slots = Retiring.Light_Operations * MEM_UOPS / RETIRED_SLOTS \
      | > 0.10 | Slots retiring memory operations (loads and stores)
node  Retiring.Light_Operations.Fused_Instructions Slots = Retiring.Light_Operations * MACRO_FUSED / RETIRED_SLOTS \
      | > 0.10 | Slots retiring macro-fused (compare/test and branch) instructions
node  Retiring.Light_Operations.Non_Fused_Branches Slots = \
        Retiring.Light_Operations * (BR_INST - MACRO_FUSED) / RETIRED_SLOTS \
      | > 0.10 | Slots retiring branches that were not fused
node  Retiring.Light_Operations.Other_Light_Ops Slots = max(0, Retiring.Light_Operations - \
        (Retiring.Light_Operations.FP_Arith + Retiring.Light_Operations.Int_Operations + \
         Retiring.Light_Operations.Memory_Operations + Retiring.Light_Operations.Fused_Instructions + \
         Retiring.Light_Operations.Non_Fused_Branches)) \
      | > 0.30 | Slots retiring other light-weight operations
children-sum Retiring.Light_Operations = Retiring.Light_Operations | TMA 5.2: Other_Light_Ops = max(0, \
      Light_Operations - the other five), FP_Arith's and Int_Operations' Uops taken as slots; \
      exact while the clamp does not bite
node  Retiring.Light_Operations.FP_Arith.X87_Use Uops = Retiring * UOPS_X87 / UOPS_EXEC \
      | > 0.1 | Retired x87 floating-point uops (estimate from executed uops)
node  Retiring.Light_Operations.FP_Arith.FP_Scalar Uops = (FP_SCALAR + FP2_SCALAR) / RETIRED_SLOTS \
      | > 0.1 | Retired scalar floating-point arithmetic uops (SP, DP and half precision)
node  Retiring.Light_Operations.FP_Arith.FP_Vector Uops = (FP_VECTOR + FP2_VECTOR) / RETIRED_SLOTS \
      | > 0.1 | Retired packed floating-point arithmetic uops (SP, DP and half precision, all widths)
partition Retiring.Light_Operations.FP_Arith   # perfmon: FP_Arith = X87_Use + FP_Scalar + FP_Vector
node  Retiring.Light_Operations.FP_Arith.FP_Vector.FP_Vector_128b Uops = (FP_128D + FP_128S + FP2_128H) / RETIRED_SLOTS \
      | > 0.1 | Retired 128-bit packed floating-point arithmetic uops
node  Retiring.Light_Operations.FP_Arith.FP_Vector.FP_Vector_256b Uops = (FP_256D + FP_256S + FP2_256H) / RETIRED_SLOTS \
      | > 0.1 | Retired 256-bit packed floating-point arithmetic uops
node  Retiring.Light_Operations.FP_Arith.FP_Vector.FP_Vector_512b Uops = (FP_512D + FP_512S + FP2_512H) / RETIRED_SLOTS \
      | > 0.1 | Retired 512-bit packed floating-point arithmetic uops
partition Retiring.Light_Operations.FP_Arith.FP_Vector | FP_ARITH_INST_RETIRED.VECTOR (umask 0xFC) and \
      FP_ARITH_INST_RETIRED2.VECTOR (0x1C) are the unions of the width umasks the three children read
node  Retiring.Light_Operations.Int_Operations.Int_Vector_128b Uops = (IV_ADD_128 + IV_VNNI_128) / RETIRED_SLOTS \
      | > 0.1 | Retired 128-bit integer vector add and VNNI uops
node  Retiring.Light_Operations.Int_Operations.Int_Vector_256b Uops = (IV_ADD_256 + IV_MUL_256 + IV_VNNI_256) / RETIRED_SLOTS \
      | > 0.1 | Retired 256-bit integer vector add, multiply and VNNI uops
partition Retiring.Light_Operations.Int_Operations   # perfmon: Int_Operations = Int_Vector_128b + Int_Vector_256b
node  Retiring.Light_Operations.Other_Light_Ops.Nop_Instructions Slots = \
        Retiring.Light_Operations * NOP_INST / RETIRED_SLOTS \
      | > 0.10 | Slots retiring NOP instructions
node  Retiring.Light_Operations.Other_Light_Ops.Shuffles_256b Slots = \
        Retiring.Light_Operations * IV_SHUFFLES / RETIRED_SLOTS \
      | > 0.10 | Slots retiring 256-bit integer shuffles
unrelated Retiring.Light_Operations.Other_Light_Ops | TMA 5.2: Nop_Instructions and Shuffles_256b scale \
      Light_Operations by their share of retired slots; they are not bounded by Other_Light_Ops
node  Retiring.Heavy_Operations.Microcode_Sequencer.Assists Slots_est = (99 * 3 + 63 + 30) / 5 * ASSISTS_ANY / SLOTS \
      | > 0.10 | Slots of microcode assists (78 cycles each on average)
node  Retiring.Heavy_Operations.Microcode_Sequencer.CISC Slots = \
        max(0, Retiring.Heavy_Operations.Microcode_Sequencer - Retiring.Heavy_Operations.Microcode_Sequencer.Assists) \
      | > 0.10 | Slots of CISC instructions the microcode sequencer expands
partition Retiring.Heavy_Operations.Microcode_Sequencer   # CISC = max(0, Microcode_Sequencer - Assists)
node  Retiring.Heavy_Operations.Microcode_Sequencer.Assists.Page_Faults Slots_est = 99 * ASSISTS_PF / SLOTS \
      | > 0.05 | Slots of page-fault assists (99 cycles each)
node  Retiring.Heavy_Operations.Microcode_Sequencer.Assists.FP_Assists Slots_est = 30 * ASSISTS_FP / SLOTS \
      | > 0.1 | Slots of floating-point assists (30 cycles each)
node  Retiring.Heavy_Operations.Microcode_Sequencer.Assists.AVX_Assists Slots_est = 63 * ASSISTS_MIX / SLOTS \
      | > 0.1 | Slots of SSE/AVX transition assists (63 cycles each)
unrelated Retiring.Heavy_Operations.Microcode_Sequencer.Assists | TMA 5.2: Assists charges every assist an \
      average 78 cycles, its children their own 99, 30 and 63: no sum or bound holds

let   MISP_CLEARS_FRACTION = Bad_Speculation.Branch_Mispredicts / Bad_Speculation
node  Frontend_Bound.Fetch_Latency.Branch_Resteers.Mispredicts_Resteers Clocks = MISP_CLEARS_FRACTION * RESTEER / CLKS \
      | > 0.05 | Resteer cycles after branch mispredictions
node  Frontend_Bound.Fetch_Latency.Branch_Resteers.Clears_Resteers Clocks = (1 - MISP_CLEARS_FRACTION) * RESTEER / CLKS \
      | > 0.05 | Resteer cycles after machine clears
node  Frontend_Bound.Fetch_Latency.Branch_Resteers.Unknown_Branches Clocks = UNKNOWN_BR / CLKS \
      | > 0.05 | Bubble cycles of resteers for branches the branch predictor did not know
partition Frontend_Bound.Fetch_Latency.Branch_Resteers   # CLEAR_RESTEER_CYCLES split by Branch_Mispredicts / Bad_Speculation, plus Unknown_Branches
node  Frontend_Bound.Fetch_Bandwidth.MITE.Decoder0_Alone Slots_est = (DECODERS_C1 - DECODERS_C2) / CORE_CLKS / 2 \
      | > 0.10 | Cycles only decoder 0 of the legacy decoders was utilized
unrelated Frontend_Bound.Fetch_Bandwidth.MITE | TMA 5.2: Decoder0_Alone is a cycle estimate of one cause \
      of MITE's shortfall; no sum or bound is given
node  Backend_Bound.Core_Bound.Divider.FP_Divider Clocks = FPDIV_ACTIVE / CLKS \
      | > 0.20 | Cycles the floating-point divider was busy
node  Backend_Bound.Core_Bound.Divider.INT_Divider Clocks = Backend_Bound.Core_Bound.Divider - Backend_Bound.Core_Bound.Divider.FP_Divider \
      | > 0.20 | Cycles the integer divider was busy
partition Backend_Bound.Core_Bound.Divider   # INT_Divider = Divider - FP_Divider
node  Backend_Bound.Core_Bound.Serializing_Operation.Slow_Pause Clocks = CLK_PAUSE / CLKS \
      | > 0.05 | Cycles in PAUSE instructions
node  Backend_Bound.Core_Bound.Serializing_Operation.C01_Wait Clocks = C01 / CLKS \
      | > 0.05 | Cycles in the C0.1 light-weight wait state (UMWAIT, TPAUSE)
node  Backend_Bound.Core_Bound.Serializing_Operation.C02_Wait Clocks = C02 / CLKS \
      | > 0.05 | Cycles in the C0.2 light-weight wait state (UMWAIT, TPAUSE)
node  Backend_Bound.Core_Bound.Serializing_Operation.Memory_Fence Clocks = 13 * LFENCE / CLKS \
      | > 0.05 | Cycles of LFENCE instructions (13 each)
unrelated Backend_Bound.Core_Bound.Serializing_Operation | TMA 5.2: the children are cycle counts of \
      causes that overlap the scoreboard stalls (only C02_Wait is a term of the parent); no sum or bound is given
node  Backend_Bound.Core_Bound.Ports_Utilization.Ports_Utilized_0 Clocks = max(EXE_0 - SCOREBOARD, 0) / CLKS \
      | > 0.2 | Cycles with no uop executed, serializing-operation stalls excluded
node  Backend_Bound.Core_Bound.Ports_Utilization.Ports_Utilized_1 Clocks = EXE_1 / CLKS \
      | > 0.2 | Cycles with exactly one uop executed
node  Backend_Bound.Core_Bound.Ports_Utilization.Ports_Utilized_2 Clocks = EXE_2 / CLKS \
      | > 0.15 | Cycles with exactly two uops executed
node  Backend_Bound.Core_Bound.Ports_Utilization.Ports_Utilized_3m Clocks = EXEC_GE3 / CLKS \
      | > 0.4 | Cycles with three or more uops executed
unrelated Backend_Bound.Core_Bound.Ports_Utilization | TMA 5.2: Ports_Utilized_0/1/2/3m split cycles by \
      uops executed; Ports_Utilization weights the 2- and 3-uop cycles by Retiring: no sum or bound is defined
node  Backend_Bound.Core_Bound.Ports_Utilization.Ports_Utilized_0.Mixing_Vectors Clocks = 160 * ASSISTS_MIX / CLKS \
      | > 0.05 | Cycles of SSE/AVX transition assists (160 each)
unrelated Backend_Bound.Core_Bound.Ports_Utilization.Ports_Utilized_0 | TMA 5.2: Mixing_Vectors is a cost \
      estimate of assists, not a share of the zero-port cycles
node  Backend_Bound.Core_Bound.Ports_Utilization.Ports_Utilized_3m.ALU_Op_Utilization Core_Execution = \
        (PORT_0 + PORT_1 + PORT_5_11 + PORT_6) / (5 * CORE_CLKS) \
      | > 0.4 | Utilization of the five ALU ports (0, 1, 5, 6, 11)
node  Backend_Bound.Core_Bound.Ports_Utilization.Ports_Utilized_3m.ALU_Op_Utilization.Port_0 Core_Clocks = PORT_0 / CORE_CLKS \
      | > 0.6 | Core cycles port 0 (ALU, branch, FP/vector) dispatched a uop
node  Backend_Bound.Core_Bound.Ports_Utilization.Ports_Utilized_3m.ALU_Op_Utilization.Port_1 Core_Clocks = PORT_1 / CORE_CLKS \
      | > 0.6 | Core cycles port 1 (ALU, FP/vector) dispatched a uop
node  Backend_Bound.Core_Bound.Ports_Utilization.Ports_Utilized_3m.ALU_Op_Utilization.Port_6 Core_Clocks = PORT_6 / CORE_CLKS \
      | > 0.6 | Core cycles port 6 (ALU, branch) dispatched a uop
bound Backend_Bound.Core_Bound.Ports_Utilization.Ports_Utilized_3m.ALU_Op_Utilization = \
        5 * Backend_Bound.Core_Bound.Ports_Utilization.Ports_Utilized_3m.ALU_Op_Utilization \
      | TMA 5.2: 5 x ALU_Op_Utilization = Port_0 + Port_1 + Port_5_11 + Port_6 (Port_5_11 has no node)
node  Backend_Bound.Core_Bound.Ports_Utilization.Ports_Utilized_3m.Load_Op_Utilization Core_Execution = \
        PORT_2_3_10 / (3 * CORE_CLKS) \
      | > 0.6 | Utilization of the three load ports (2, 3, 10)
node  Backend_Bound.Core_Bound.Ports_Utilization.Ports_Utilized_3m.Store_Op_Utilization Core_Execution = \
        (PORT_4_9 + PORT_7_8) / (4 * CORE_CLKS) \
      | > 0.6 | Utilization of the store ports (data 4, 9; address 7, 8)
unrelated Backend_Bound.Core_Bound.Ports_Utilization.Ports_Utilized_3m | TMA 5.2: the ALU, load and store \
      utilizations are per-port averages over core cycles, not shares of the 3+-uop cycles

node  Backend_Bound.Memory_Bound.L1_Bound.Store_Fwd_Blk Clocks_est = 13 * LD_STORE_FWD / CLKS \
      | > 0.10 | Cycles of loads blocked by stores that could not forward (13 each)
node  Backend_Bound.Memory_Bound.L1_Bound.L1_Latency_Dependency Clocks_est = \
        min(2 * (ALL_LOADS - FB_HIT - L1_MISS) * 20 / 100, max(CYCLES_MEM_ANY - MA_CYC_L1D, 0)) / CLKS \
      | > 0.10 | Cycles of dependent loads that hit L1D (pointer chasing; 20% of loads taken as dependent)
node  Backend_Bound.Memory_Bound.L1_Bound.FB_Full Clocks_Calculated = FB_FULL / CLKS \
      | > 0.30 | Cycles a demand request waited for an L1D fill buffer
unrelated Backend_Bound.Memory_Bound.L1_Bound | TMA 5.2: the children are Clocks estimates of causes of \
      L1-hit load stalls, under a Stalls fraction; no sum or bound is given
node  Backend_Bound.Memory_Bound.L3_Bound.SQ_Full Clocks = (XQ_FULL + L2_STALLS) / CLKS \
      | > 0.30 | Cycles the uncore queue was full or demand requests waited for L2 resources
unrelated Backend_Bound.Memory_Bound.L3_Bound | TMA 5.2: the children are a queue-full fraction and \
      latency estimates in clocks under a Stalls fraction; no sum or bound is given
node  Backend_Bound.Memory_Bound.L3_Miss_Bound.MEM_Bandwidth Clocks = min(CLK_THREAD, ORO_DRD_C12) / CLKS \
      | > 0.20 | Cycles with twelve or more data reads outstanding to memory (bandwidth)
node  Backend_Bound.Memory_Bound.L3_Miss_Bound.MEM_Latency Clocks = \
        min(CLK_THREAD, ORO_DRD_C1) / CLKS - Backend_Bound.Memory_Bound.L3_Miss_Bound.MEM_Bandwidth \
      | > 0.10 | Cycles with one to eleven data reads outstanding to memory (latency)
children-sum Backend_Bound.Memory_Bound.L3_Miss_Bound = min(CLK_THREAD, ORO_DRD_C1) / CLKS \
      | TMA 5.2: MEM_Latency = cycles with data reads outstanding / CLKS - MEM_Bandwidth
node  Backend_Bound.Memory_Bound.L3_Miss_Bound.MEM_Bandwidth.MBA_Stalls Clocks = MBA_STALLS / CLKS \
      | > 0.10 | Cycles stalled by memory bandwidth allocation (MBA) throttling
unrelated Backend_Bound.Memory_Bound.L3_Miss_Bound.MEM_Bandwidth | TMA 5.2: MBA_Stalls counts cycles the MBA \
      throttle stalled the core, MEM_Bandwidth cycles with twelve or more data reads outstanding; Intel \
      gives no sum or bound between them
let   MEM_LOCK_ST_FRACTION = LOCK_LOADS / ALL_STORES
node  Backend_Bound.Memory_Bound.Store_Bound.Store_Latency Clocks_est = (ST_L2_HIT * 10 * (1 - MEM_LOCK_ST_FRACTION) + \
        (1 - MEM_LOCK_ST_FRACTION) * min(CLK_THREAD, ORO_RFO_C1)) / CLKS \
      | > 0.10 | Cycles of store latency (L2 hits at 10 cycles each, plus outstanding RFOs)
node  Backend_Bound.Memory_Bound.Store_Bound.False_Sharing Clocks_est = \
        (170 * Core_Frequency * OCR_RFO_RHITM + 81 * Core_Frequency * OCR_RFO_HITM) / CLKS \
      | > 0.05 | Cycles of RFOs that found the line modified in another core's or socket's cache
node  Backend_Bound.Memory_Bound.Store_Bound.Streaming_Stores Clocks_est = 9 * OCR_STREAM_WR / CLKS \
      | > 0.20 | Cycles of streaming (non-temporal) stores (9 each)
unrelated Backend_Bound.Memory_Bound.Store_Bound | TMA 5.2: the children are cost estimates in clocks \
      under a Stalls fraction; no sum or bound is given

# --- the retire-latency nodes (perfmon graniterapids_metrics.json V1.3): EVENT x EVENT:retire_latency. Not
# sampled here, so each latency is what Linux perf uses when it has no sample (tools/perf/util/intel-tpebs.c
# evsel__tpebs_read, default --tpebs-mode mean): rint(RetirementLatencyMean) of the event's JSON, which
# perfmon's create_perf_json.py copies from GNR/metrics/graniterapids_retire_latency.json (MEAN; platform
# "TMA version 5.01-full-perf"). The rounded means are the RL_* constants above. perfmon's
# "if (E:retire_latency >= 0) min(count x latency, count x cost) else count x cost" takes the min, the
# constants being >= 0.
let   FB_FACTOR = 1 + FB_HIT / L1_MISS / 2
node  Frontend_Bound.Fetch_Latency.ICache_Misses.Code_L2_Miss Clocks_Retired = FR_L2_MISS * RL_FR_L2_MISS / CLKS \
      | > 0.05 | Cycles of retired instructions whose fetch missed L2 (retire latency 137 each)
node  Frontend_Bound.Fetch_Latency.ICache_Misses.Code_L2_Hit Clocks_Retired = max(0, FR_L1I_MISS * RL_FR_L1I_MISS / CLKS - \
        Frontend_Bound.Fetch_Latency.ICache_Misses.Code_L2_Miss) \
      | > 0.05 | Cycles of retired instructions whose fetch missed the L1 I-cache and hit L2
children-sum Frontend_Bound.Fetch_Latency.ICache_Misses = FR_L1I_MISS * RL_FR_L1I_MISS / CLKS | TMA 5.2: \
      Code_L2_Hit = max(0, L1I-miss latency cycles / CLKS - Code_L2_Miss); exact while the clamp does not bite
node  Frontend_Bound.Fetch_Latency.ITLB_Misses.Code_STLB_Miss Clocks_Retired = FR_STLB_MISS * RL_FR_STLB_MISS / CLKS \
      | > 0.05 | Cycles of retired instructions whose fetch missed the STLB (retire latency 207 each)
node  Frontend_Bound.Fetch_Latency.ITLB_Misses.Code_STLB_Hit Clocks_Retired = max(0, FR_ITLB_MISS * RL_FR_ITLB_MISS / CLKS - \
        Frontend_Bound.Fetch_Latency.ITLB_Misses.Code_STLB_Miss) \
      | > 0.05 | Cycles of retired instructions whose fetch missed the I-TLB and hit the STLB
children-sum Frontend_Bound.Fetch_Latency.ITLB_Misses = FR_ITLB_MISS * RL_FR_ITLB_MISS / CLKS | TMA 5.2: \
      Code_STLB_Hit = max(0, ITLB-miss latency cycles / CLKS - Code_STLB_Miss); exact while the clamp does not bite
let   ITLB_WC = ITLB_WC_4K + ITLB_WC_2M
node  Frontend_Bound.Fetch_Latency.ITLB_Misses.Code_STLB_Miss.Code_STLB_Miss_4K Clocks_est = \
        ITLB_WALK_ACT / CLKS * ITLB_WC_4K / ITLB_WC \
      | > 0.05 | Code page-walk cycles of walks that completed to a 4K page
node  Frontend_Bound.Fetch_Latency.ITLB_Misses.Code_STLB_Miss.Code_STLB_Miss_2M Clocks_est = \
        ITLB_WALK_ACT / CLKS * ITLB_WC_2M / ITLB_WC \
      | > 0.05 | Code page-walk cycles of walks that completed to a 2M/4M page
children-sum Frontend_Bound.Fetch_Latency.ITLB_Misses.Code_STLB_Miss = ITLB_WALK_ACT / CLKS | TMA 5.2: the \
      page-walk cycles shared out by completed walks (Code_STLB_Miss itself is a retire-latency estimate)

node  Backend_Bound.Memory_Bound.L1_Bound.DTLB_Load Clocks_est = \
        min(STLB_HIT_LOADS * RL_STLB_HIT_LOADS, STLB_HIT_LOADS * 7) / CLKS + \
        Backend_Bound.Memory_Bound.L1_Bound.DTLB_Load.Load_STLB_Miss \
      | > 0.10 | Cycles of load DTLB misses (STLB hits at their retire latency, at most 7, plus page walks)
node  Backend_Bound.Memory_Bound.L1_Bound.DTLB_Load.Load_STLB_Miss Clocks_Calculated = DTLB_LD_WALK / CLKS \
      | > 0.05 | Cycles a load page walk was active (loads that missed the STLB)
node  Backend_Bound.Memory_Bound.L1_Bound.DTLB_Load.Load_STLB_Hit Clocks_est = max(0, \
        Backend_Bound.Memory_Bound.L1_Bound.DTLB_Load - Backend_Bound.Memory_Bound.L1_Bound.DTLB_Load.Load_STLB_Miss) \
      | > 0.05 | Cycles of load DTLB misses that hit the STLB
partition Backend_Bound.Memory_Bound.L1_Bound.DTLB_Load   # Load_STLB_Hit = max(0, DTLB_Load - Load_STLB_Miss)
let   DTLB_LD_WC = DTLB_LD_WC_4K + DTLB_LD_WC_2M + DTLB_LD_WC_1G
node  Backend_Bound.Memory_Bound.L1_Bound.DTLB_Load.Load_STLB_Miss.Load_STLB_Miss_4K Clocks_est = \
        Backend_Bound.Memory_Bound.L1_Bound.DTLB_Load.Load_STLB_Miss * DTLB_LD_WC_4K / DTLB_LD_WC \
      | > 0.05 | Load page-walk cycles of walks that completed to a 4K page
node  Backend_Bound.Memory_Bound.L1_Bound.DTLB_Load.Load_STLB_Miss.Load_STLB_Miss_2M Clocks_est = \
        Backend_Bound.Memory_Bound.L1_Bound.DTLB_Load.Load_STLB_Miss * DTLB_LD_WC_2M / DTLB_LD_WC \
      | > 0.05 | Load page-walk cycles of walks that completed to a 2M/4M page
node  Backend_Bound.Memory_Bound.L1_Bound.DTLB_Load.Load_STLB_Miss.Load_STLB_Miss_1G Clocks_est = \
        Backend_Bound.Memory_Bound.L1_Bound.DTLB_Load.Load_STLB_Miss * DTLB_LD_WC_1G / DTLB_LD_WC \
      | > 0.05 | Load page-walk cycles of walks that completed to a 1G page
partition Backend_Bound.Memory_Bound.L1_Bound.DTLB_Load.Load_STLB_Miss   # shared out by completed walks
node  Backend_Bound.Memory_Bound.L1_Bound.Lock_Latency Clocks = LOCK_LOADS * RL_LOCK_LOADS / CLKS \
      | > 0.20 | Cycles of locked loads (retire latency 64 each)
node  Backend_Bound.Memory_Bound.L1_Bound.Split_Loads Clocks_Calculated = \
        min(SPLIT_LOADS * RL_SPLIT_LOADS, SPLIT_LOADS * Load_Miss_Real_Latency) / CLKS \
      | > 0.30 | Cycles of loads that cross a cache line
node  Backend_Bound.Memory_Bound.L2_Bound.L2_Hit_Latency Clocks_Retired = \
        min(L2_HIT * RL_L2_HIT, L2_HIT * 4.4 * Core_Frequency) * FB_FACTOR / CLKS \
      | > 0.05 | Cycles of loads that hit L2 (retire latency, at most 4.4 ns each)
unrelated Backend_Bound.Memory_Bound.L2_Bound | TMA 5.2: L2_Hit_Latency is a cost estimate in clocks of \
      retired loads, L2_Bound a stall fraction; no sum or bound is given
let   TRUE_XSNP_HITM_FRACTION = OCR_DRD_HITM / (OCR_DRD_HITM + OCR_DRD_HWF)
node  Backend_Bound.Memory_Bound.L3_Bound.Contested_Accesses Clocks_est = \
        (min(XSNP_MISS * RL_XSNP_MISS, XSNP_MISS * (79 - 4.4) * Core_Frequency) + \
         min(XSNP_FWD * RL_XSNP_FWD, XSNP_FWD * (81 - 4.4) * Core_Frequency) * TRUE_XSNP_HITM_FRACTION) * FB_FACTOR / CLKS \
      | > 0.05 | Cycles of loads served by a modified line in another core's cache
node  Backend_Bound.Memory_Bound.L3_Bound.Data_Sharing Clocks_est = \
        (min(XSNP_NO_FWD * RL_XSNP_NO_FWD, XSNP_NO_FWD * (79 - 4.4) * Core_Frequency) + \
         min(XSNP_FWD * RL_XSNP_FWD, XSNP_FWD * (79 - 4.4) * Core_Frequency) * (1 - TRUE_XSNP_HITM_FRACTION)) * FB_FACTOR / CLKS \
      | > 0.05 | Cycles of loads served by a clean line shared with another core
node  Backend_Bound.Memory_Bound.L3_Bound.L3_Hit_Latency Clocks_est = \
        min(L3_HIT * RL_L3_HIT, L3_HIT * (37 - 4.4) * Core_Frequency) * FB_FACTOR / CLKS \
      | > 0.10 | Cycles of loads that hit L3 without snoops
node  Backend_Bound.Memory_Bound.L3_Miss_Bound.MEM_Latency.Local_MEM Clocks_est = \
        L3M_LOCAL_DRAM * RL_L3M_LOCAL_DRAM * FB_FACTOR / CLKS \
      | > 0.10 | Cycles of loads served by local DRAM (retire latency 116 each)
node  Backend_Bound.Memory_Bound.L3_Miss_Bound.MEM_Latency.Remote_MEM Clocks_est = \
        L3M_REMOTE_DRAM * RL_L3M_REMOTE_DRAM * FB_FACTOR / CLKS \
      | > 0.10 | Cycles of loads served by remote DRAM (retire latency 430 each)
node  Backend_Bound.Memory_Bound.L3_Miss_Bound.MEM_Latency.Remote_Cache Clocks_est = \
        (L3M_REMOTE_HITM * RL_L3M_REMOTE_HITM + L3M_REMOTE_FWD * RL_L3M_REMOTE_FWD) * FB_FACTOR / CLKS \
      | > 0.05 | Cycles of loads served by a remote socket's cache
unrelated Backend_Bound.Memory_Bound.L3_Miss_Bound.MEM_Latency | TMA 5.2: Local_MEM, Remote_MEM and \
      Remote_Cache are latency estimates of retired loads, MEM_Latency a fraction of cycles with reads \
      outstanding; no sum or bound is given
node  Backend_Bound.Memory_Bound.Store_Bound.Split_Stores Core_Utilization = \
        min(SPLIT_STORES * RL_SPLIT_STORES, SPLIT_STORES * 1) / CLKS \
      | > 0.20 | Rate of stores that cross a cache line
node  Backend_Bound.Memory_Bound.Store_Bound.DTLB_Store Clocks_est = \
        min(STLB_HIT_STORES * RL_STLB_HIT_STORES, STLB_HIT_STORES * 7) / CLKS + \
        Backend_Bound.Memory_Bound.Store_Bound.DTLB_Store.Store_STLB_Miss \
      | > 0.05 | Cycles of store DTLB misses (STLB hits at their retire latency, at most 7, plus page walks)
node  Backend_Bound.Memory_Bound.Store_Bound.DTLB_Store.Store_STLB_Miss Clocks_Calculated = DTLB_ST_WALK / CORE_CLKS \
      | > 0.05 | Cycles a store page walk was active (stores that missed the STLB)
node  Backend_Bound.Memory_Bound.Store_Bound.DTLB_Store.Store_STLB_Hit Clocks_est = max(0, \
        Backend_Bound.Memory_Bound.Store_Bound.DTLB_Store - Backend_Bound.Memory_Bound.Store_Bound.DTLB_Store.Store_STLB_Miss) \
      | > 0.05 | Cycles of store DTLB misses that hit the STLB
partition Backend_Bound.Memory_Bound.Store_Bound.DTLB_Store   # Store_STLB_Hit = max(0, DTLB_Store - Store_STLB_Miss)
let   DTLB_ST_WC = DTLB_ST_WC_4K + DTLB_ST_WC_2M + DTLB_ST_WC_1G
node  Backend_Bound.Memory_Bound.Store_Bound.DTLB_Store.Store_STLB_Miss.Store_STLB_Miss_4K Clocks_est = \
        Backend_Bound.Memory_Bound.Store_Bound.DTLB_Store.Store_STLB_Miss * DTLB_ST_WC_4K / DTLB_ST_WC \
      | > 0.05 | Store page-walk cycles of walks that completed to a 4K page
node  Backend_Bound.Memory_Bound.Store_Bound.DTLB_Store.Store_STLB_Miss.Store_STLB_Miss_2M Clocks_est = \
        Backend_Bound.Memory_Bound.Store_Bound.DTLB_Store.Store_STLB_Miss * DTLB_ST_WC_2M / DTLB_ST_WC \
      | > 0.05 | Store page-walk cycles of walks that completed to a 2M/4M page
node  Backend_Bound.Memory_Bound.Store_Bound.DTLB_Store.Store_STLB_Miss.Store_STLB_Miss_1G Clocks_est = \
        Backend_Bound.Memory_Bound.Store_Bound.DTLB_Store.Store_STLB_Miss * DTLB_ST_WC_1G / DTLB_ST_WC \
      | > 0.05 | Store page-walk cycles of walks that completed to a 1G page
partition Backend_Bound.Memory_Bound.Store_Bound.DTLB_Store.Store_STLB_Miss   # shared out by completed walks

cpi-cycles        CLKS
cpi-instructions  INST
cpi   Base               derived = Retiring                            | Ideal retiring: retired uops at full width
cpi   Branch_Mispredict  derived = Bad_Speculation.Branch_Mispredicts  | Slots lost to branch mispredictions (PERF_METRICS)
cpi   Machine_Clear      derived = Bad_Speculation.Machine_Clears      | Slots lost to machine clears
cpi   Frontend_Latency   derived = Frontend_Bound.Fetch_Latency        | Cycles the frontend delivered nothing
cpi   Frontend_Bandwidth derived = Frontend_Bound.Fetch_Bandwidth      | Cycles the frontend delivered less than the width
cpi   Memory             derived = Backend_Bound.Memory_Bound          | Memory-bound slots (PERF_METRICS)
cpi   Core               derived = Backend_Bound.Core_Bound            | Core-bound slots
