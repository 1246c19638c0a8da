# intel-spr.td — Intel Sapphire Rapids (spr)
# Levels 1 and 2 from one of two event sets, chosen per evaluation (let PM below); level 3 (TMA 5.1);
# the level-4..6 nodes of toplev 5.1-full spr_server_ratios.py, with raw forms from Intel perfmon
# SPR V1.39 where libpfm4 4.13 lacks the event (OFFCORE_REQUESTS_OUTSTANDING.CYCLES_WITH_DEMAND_CODE_RD)
# or the node needs an offcore-response MSR value (the OCR events: offcore_rsp=, config1).
#  * PERF_METRICS path, when the four L1 PERF_METRICS counts (TD_FE TD_BAD TD_RET TD_BE) are
#    all counted: TOPDOWN.SLOTS (fixed counter 3) + the 8 PERF_METRICS fields (perf topdown-*).
#    This is the path the planner plans (it takes available() as 1), so live collection on a
#    host with PERF_METRICS reads it, and so do imports of perf/toplev output that have it.
#  * General-purpose path, when any of those four is missing (VMs whose virtual PMU lacks
#    PERF_METRICS; toplev with FORCEMETRICS=0): TOPDOWN.SLOTS_P, TOPDOWN.BACKEND_BOUND_SLOTS,
#    UOPS_RETIRED.SLOTS, IDQ_BUBBLES.CORE, IDQ_BUBBLES.CYCLES_0_UOPS_DELIV.CORE,
#    TOPDOWN.BR_MISPREDICT_SLOTS, TOPDOWN.MEMORY_BOUND_SLOTS, UOPS_RETIRED.HEAVY on GP counters,
#    each divided by SLOTS = TOPDOWN.SLOTS_P — toplev's `topdown_use_fixed = False` formulas.
#    The planner does not plan these events: today this path serves imported counts only.
# Both paths follow toplev 5.1-full / TMA 5.2 exactly (oracle cases spr-l2-perfmetrics and
# spr-l2-events). The L3 nodes are the same on both paths (Microcode_Sequencer divides by SLOTS,
# which follows the path).
pmu      spr
title    Intel Sapphire Rapids
version  TMA 5.2 (intel/perfmon SPR/metrics/sapphirerapids_metrics.json)
note     L1 and L2 read PERF_METRICS through perf's topdown-* events (counts in slots); a node is
note     TD_X / PM_SUM with PM_SUM the sum of the four L1 counts, as perfmon and toplev do.
note     libpfm4 4.13 has no TOPDOWN_M pseudo-events, so the eight metric events are perf raw forms
note     (event=0x00, umask 0x80-0x87, the kernel's topdown-* encodings); SLOTS must lead the group.
note     Agrees with toplev 5.1-full on oracle case spr-l2-perfmetrics (all L1/L2 nodes).
note     Without the PERF_METRICS counts (a VM's virtual PMU, toplev FORCEMETRICS=0) L1 and L2 come
note     from general-purpose events, as toplev does when topdown_use_fixed is false: SLOTS is
note     TOPDOWN.SLOTS_P, FE = (IDQ_BUBBLES.CORE - UOP_DROPPING)/SLOTS, BE = BACKEND_BOUND_SLOTS/SLOTS,
note     RET = UOPS_RETIRED.SLOTS/SLOTS, Fetch_Latency = (6*IDQ_BUBBLES.CYCLES_0_UOPS_DELIV.CORE -
note     UOP_DROPPING)/SLOTS, and the L2 *_SLOTS / UOPS_RETIRED.HEAVY over SLOTS; agrees with toplev
note     5.1-full on oracle case spr-l2-events (all L1/L2 nodes). The planner plans the PERF_METRICS
note     path only (available() counts as 1 when planning).
note     TOPDOWN.BAD_SPEC_SLOTS is not read: toplev derives Bad_Speculation as 1 - FE - BE - RET on
note     both paths (and the kernel keeps it and BR_MISPREDICT_SLOTS both on counter 0).
note     libpfm4 4.13 encodes TOPDOWN:BACKEND_BOUND_SLOTS/BAD_SPEC_SLOTS/BR_MISPREDICT_SLOTS/
note     MEMORY_BOUND_SLOTS with event code 0x00 (fixed-counter pseudo codes) instead of 0xA4, so those
note     are perf raw forms with the oracle input's numbers; it has no IDQ_BUBBLES, whose encodings
note     (0x9C/0x01, cmask 6) it knows under the pre-SPR name IDQ_UOPS_NOT_DELIVERED.
note     DRAM_Bound keeps the toplev/TMA-4 name; TMA 5.2 calls the node L3_Miss_Bound.
note     Encodings of the SPR-only L3 events (MEMORY_ACTIVITY, BOUND_ON_LOADS, DIV_ACTIVE)
note     are libpfm4's spr table; the facts sheet names no perfmon encoding for them.
note     Level 3 follows pmu-tools spr_server_ratios.py (TMA 5.1-full) and agrees with toplev 5.1-full
note     on oracle case spr-l3-pm-badspec-ms (every L1-L3 node and IPC, CPI, CLKS, SLOTS).
note     INT_MISC.UNKNOWN_BRANCH_CYCLES (in Branch_Resteers) is perfmon's 0xAD/0x40 with MSR 0x3F7 = 0x7,
note     the raw form's frontend=0x7 (config1; Linux intel_glc_extra_regs writes it to MSR_PEBS_FRONTEND);
note     libpfm4 4.13 encodes it as umask 0x07 without the MSR. UOPS_RETIRED.MS likewise is perfmon's
note     0xC2/0x04 with MSR 0x3F7 = 0x8 (libpfm4 4.13: 0xC2/0x08, not in perfmon's SPR table). One MSR:
note     an 'extra frontend 1' line keeps one value per group (the MS forms share 0x8).
note     OCR (offcore-response) events: perfmon SPR V1.39 event 0x2A umask 0x01 with MSR 0x1A6 =
note     MSRValue, written as perf's offcore_rsp= term (sysfs cpu/format/offcore_rsp, config1:0-63); the
note     kernel moves a second value to MSR 0x1A7 (event 0x2B). Two MSRs: at most two OCR events with
note     different values count at once: an 'extra offcore_rsp 2' line keeps two per group.
note     False_Sharing reads OCR.DEMAND_RFO.L3_MISS with TMA's own MSR value 0x103B800002 (toplev and
note     perfmon metrics: ocr_msr_val=0x103b800002), not the event table's 0x3F3FC00002.
note     The level-4/5 memory costs (Contested_Accesses, Data_Sharing, Local_MEM, Remote_MEM, Remote_Cache,
note     False_Sharing) are toplev 5.1-full's (Mem_XSNP_HitM_Cost 28, Mem_XSNP_Hit_Cost 27, Mem_Local_DRAM_Cost
note     66.5, Mem_Remote_DRAM_Cost 131, Mem_Remote_HitM/Fwd_Cost 120 ns x Core_Frequency), as L2_Hit_Latency
note     and L3_Hit_Latency here; perfmon's TMA 5.2 metrics use other constants (e.g. 81, 79, 4.4, 109, 190,
note     170) in the same formulas. DS (a multi-socket server) is 1, as toplev sets it for SPR.
note     Three nodes are TMA 5.2's alone (perfmon sapphirerapids_metrics.json V1.3; toplev 5.1-full has none of
note     them): AMX_Busy (EXE.AMX_BUSY / CORE_CLKS), MBA_Stalls (INT_MISC.MBA_STALLS / CLKS, under MEM_Bandwidth)
note     and FP_Vector_512b. perfmon adds FP_ARITH_INST_RETIRED2.*_HALF (AVX512-FP16) to FP_Vector and each
note     width; this file follows toplev 5.1 for FP_Vector, 128b and 256b and so leaves the half-precision term
note     out of FP_Vector_512b as well. With these the file has every node of perfmon's SPR TMA 5.2 tree
note     (L3_Miss_Bound under its TMA 4 name DRAM_Bound) and of toplev 5.1-full spr_server_ratios.py.

const    W 6
param    SMT_on 0
const    MS_Switches_Cost 3      # cycles per switch to the microcode sequencer (TMA 5.1 SPR MS_Switches)
const    Avg_Assist_Cost 78      # (99 * 3 + 63 + 30) / 5 cycles per assist (TMA 5.1 SPR Assists)
const    Mem_STLB_Hit_Cost 7     # cycles per DTLB miss that hits the STLB (TMA 5.1 SPR DTLB_Load, DTLB_Store)
const    Dependent_Loads_Weight 20 # % of loads taken as dependent (TMA 5.1 SPR L1_Latency_Dependency)
const    Mem_L2_Store_Cost 10    # cycles per store that hits L2 (TMA 5.1 SPR Store_Latency, Lock_Latency)
const    PMM_App_Direct 1        # toplev spr_server_ratios.py: Memory = 1, PMM_App_Direct = 1 if Memory == 1

event    SLOTS_EV        TOPDOWN:SLOTS                             | TOPDOWN.SLOTS, issue slots (fixed counter 3, group leader) [fixed 0x00/0x04]
event    TD_RET          cpu/event=0x0,umask=0x80/                 | PERF_METRICS.RETIRING (perf topdown-retiring), in slots [pseudo 0x00/0x80]
event    TD_BAD          cpu/event=0x0,umask=0x81/                 | PERF_METRICS.BAD_SPECULATION (perf topdown-bad-spec), in slots [pseudo 0x00/0x81]
event    TD_FE           cpu/event=0x0,umask=0x82/                 | PERF_METRICS.FRONTEND_BOUND (perf topdown-fe-bound), in slots [pseudo 0x00/0x82]
event    TD_BE           cpu/event=0x0,umask=0x83/                 | PERF_METRICS.BACKEND_BOUND (perf topdown-be-bound), in slots [pseudo 0x00/0x83]
event    TD_HEAVY        cpu/event=0x0,umask=0x84/                 | PERF_METRICS.HEAVY_OPERATIONS (perf topdown-heavy-ops), in slots [pseudo 0x00/0x84]
event    TD_BR_MISP      cpu/event=0x0,umask=0x85/                 | PERF_METRICS.BRANCH_MISPREDICTS (perf topdown-br-mispredict), in slots [pseudo 0x00/0x85]
event    TD_FETCH_LAT    cpu/event=0x0,umask=0x86/                 | PERF_METRICS.FETCH_LATENCY (perf topdown-fetch-lat), in slots [pseudo 0x00/0x86]
event    TD_MEM          cpu/event=0x0,umask=0x87/                 | PERF_METRICS.MEMORY_BOUND (perf topdown-mem-bound), in slots [pseudo 0x00/0x87]
# general-purpose TOPDOWN events (read only when the PERF_METRICS counts are missing)
event    SLOTS_P         TOPDOWN:SLOTS_P                           | TOPDOWN.SLOTS_P, issue slots on a general-purpose counter [0xA4/0x01]
event    BE_SLOTS        cpu/event=0xa4,umask=0x2/                 | TOPDOWN.BACKEND_BOUND_SLOTS, slots not issued for lack of backend resources [0xA4/0x02]
event    BR_MISP_SLOTS   cpu/event=0xa4,umask=0x8/                 | TOPDOWN.BR_MISPREDICT_SLOTS, slots wasted by branch mispredictions [0xA4/0x08]
event    MEM_SLOTS       cpu/event=0xa4,umask=0x10/                | TOPDOWN.MEMORY_BOUND_SLOTS, backend-bound slots due to memory [0xA4/0x10]
event    RET_SLOTS       UOPS_RETIRED:SLOTS                        | UOPS_RETIRED.SLOTS, retirement slots used [0xC2/0x02]
event    RET_HEAVY       UOPS_RETIRED:HEAVY                        | UOPS_RETIRED.HEAVY, retired uops of heavy (multi-uop, microcode) instructions [0xC2/0x01]
event    IDQ_BUBBLES     IDQ_UOPS_NOT_DELIVERED:CORE               | IDQ_BUBBLES.CORE, slots the frontend did not fill while the backend could take uops [0x9C/0x01]
event    IDQ_BUBBLES_0   IDQ_UOPS_NOT_DELIVERED:CYCLES_0_UOPS_DELIV_CORE | IDQ_BUBBLES.CYCLES_0_UOPS_DELIV.CORE, cycles the frontend delivered no uop [0x9C/0x01 c=6]
event    CLK_THREAD      CPU_CLK_UNHALTED:THREAD_P                 | CPU_CLK_UNHALTED.THREAD, unhalted core clocks of this thread [0x3C/0x00]
event    CLK_DISTRIBUTED CPU_CLK_UNHALTED:DISTRIBUTED              | CPU_CLK_UNHALTED.DISTRIBUTED, core clocks distributed to this thread [0xEC/0x02]
event    INST            INSTRUCTION_RETIRED                       | INST_RETIRED.ANY, instructions retired [0xC0/0x00]
event    REF_TSC         UNHALTED_REFERENCE_CYCLES                 | CPU_CLK_UNHALTED.REF_TSC, reference cycles (fixed counter 2) [fixed 0x00/0x03]
event    UOP_DROPPING    INT_MISC:UOP_DROPPING                     | INT_MISC.UOP_DROPPING, uops the frontend dropped [0xAD/0x10]
event    BR_MISP         BR_MISP_RETIRED:ALL_BRANCHES              | BR_MISP_RETIRED.ALL_BRANCHES, mispredicted branches retired [0xC5/0x00]
event    ICACHE_STALL    ICACHE_DATA:STALLS                        | ICACHE_DATA.STALLS, I-cache miss stall cycles [0x80/0x04]
event    ITLB_STALL      ICACHE_TAG:STALLS                         | ICACHE_TAG.STALLS, I-TLB miss stall cycles [0x83/0x04]
event    BOUND_ON_LOADS  EXE_ACTIVITY:BOUND_ON_LOADS               | EXE_ACTIVITY.BOUND_ON_LOADS, execution stalls with a load outstanding [0xA6/0x21 c=5]
event    BOUND_ON_STORES EXE_ACTIVITY:BOUND_ON_STORES              | EXE_ACTIVITY.BOUND_ON_STORES, store buffer full [0xA6/0x40 c=2]
event    MA_L1D          MEMORY_ACTIVITY:STALLS_L1D_MISS           | MEMORY_ACTIVITY.STALLS_L1D_MISS, execution stalls with an L1D miss outstanding [0x47/0x03 c=3]
event    MA_L2           MEMORY_ACTIVITY:STALLS_L2_MISS            | MEMORY_ACTIVITY.STALLS_L2_MISS [0x47/0x05 c=5]
event    MA_L3           MEMORY_ACTIVITY:STALLS_L3_MISS            | MEMORY_ACTIVITY.STALLS_L3_MISS [0x47/0x09 c=9]
event    DIV_ACTIVE      ARITH:DIV_ACTIVE                          | ARITH.DIV_ACTIVE, divider busy cycles [0xB0/0x09 c=1]
event    MS_UOPS_RET     cpu/event=0xc2,umask=0x4,frontend=0x8/    | UOPS_RETIRED.MS, retired uops from the microcode sequencer, MSR 0x3F7 = 0x8 [0xC2/0x04]
event    L1_MISS         MEM_LOAD_RETIRED:L1_MISS                  | MEM_LOAD_RETIRED.L1_MISS [0xD1/0x08]
event    L2_MISS         MEM_LOAD_RETIRED:L2_MISS                  | MEM_LOAD_RETIRED.L2_MISS [0xD1/0x10]
event    L3_MISS         MEM_LOAD_RETIRED:L3_MISS                  | MEM_LOAD_RETIRED.L3_MISS [0xD1/0x20]
# level-3 events (TMA 5.1 level-3 nodes below); encodings from Linux perf's
# pmu-events/arch/x86/sapphirerapids/pipeline.json and frontend.json, memory.json
event    CLEARS_COUNT    INT_MISC:CLEARS_COUNT                     | INT_MISC.CLEARS_COUNT, speculative clears [0xAD/0x01 c=1 e=1]
event    MC_COUNT        MACHINE_CLEARS:COUNT                      | MACHINE_CLEARS.COUNT, machine clears [0xC3/0x01 c=1 e=1]
event    MC_MEM_ORDER    MACHINE_CLEARS:MEMORY_ORDERING            | MACHINE_CLEARS.MEMORY_ORDERING, memory-ordering machine clears [0xC3/0x02]
event    RESTEER         INT_MISC:CLEAR_RESTEER_CYCLES             | INT_MISC.CLEAR_RESTEER_CYCLES, cycles until the first uop of a resteered path [0xAD/0x80]
event    UNKNOWN_BR      cpu/event=0xad,umask=0x40,frontend=0x7/   | INT_MISC.UNKNOWN_BRANCH_CYCLES, bubble cycles of BAClear (unknown branch), MSR 0x3F7 = 0x7 [0xAD/0x40]
event    UOPS_ISSUED     UOPS_ISSUED:ANY                           | UOPS_ISSUED.ANY [0xAE/0x01]
event    MS_SWITCHES_RET cpu/event=0xc2,umask=0x4,cmask=1,edge=1,frontend=0x8/ | UOPS_RETIRED.MS (:c1:e1), switches to the microcode sequencer (retired), MSR 0x3F7 = 0x8 [0xC2/0x04 c=1 e=1]
event    MS_RET_CYCLES   cpu/event=0xc2,umask=0x4,cmask=1,frontend=0x8/ | UOPS_RETIRED.MS (:c1), cycles retiring microcode-sequencer uops, MSR 0x3F7 = 0x8 [0xC2/0x04 c=1]
event    LCP_STALL       DECODE:LCP                                | DECODE.LCP, decoder stalls on length-changing prefixes [0x87/0x01]
event    DSB2MITE_PEN    DSB2MITE_SWITCHES:PENALTY_CYCLES          | DSB2MITE_SWITCHES.PENALTY_CYCLES, DSB-to-MITE switch penalty cycles [0x61/0x02]
event    MITE_ANY        IDQ:MITE_CYCLES_ANY                       | IDQ.MITE_CYCLES_ANY [0x79/0x04 c=1]
event    MITE_OK         IDQ:MITE_CYCLES_OK                        | IDQ.MITE_CYCLES_OK [0x79/0x04 c=6]
event    DSB_ANY         IDQ:DSB_CYCLES_ANY                        | IDQ.DSB_CYCLES_ANY [0x79/0x08 c=1]
event    DSB_OK          IDQ:DSB_CYCLES_OK                         | IDQ.DSB_CYCLES_OK [0x79/0x08 c=6]
event    MS_CYCLES_ANY   IDQ:MS_CYCLES_ANY                         | IDQ.MS_CYCLES_ANY, cycles the microcode sequencer delivered any uop [0x79/0x20 c=1]
event    SCOREBOARD      RESOURCE_STALLS:SCOREBOARD                | RESOURCE_STALLS.SCOREBOARD, stalls on serializing operations [0xA2/0x02]
event    C02             CPU_CLK_UNHALTED:C02                      | CPU_CLK_UNHALTED.C02, core clocks in the C0.2 light-weight wait state [0xEC/0x20]
event    STALLS_TOTAL    CYCLE_ACTIVITY:STALLS_TOTAL               | CYCLE_ACTIVITY.STALLS_TOTAL, execution stall cycles [0xA3/0x04 c=4]
event    EXE_1           EXE_ACTIVITY:1_PORTS_UTIL                 | EXE_ACTIVITY.1_PORTS_UTIL [0xA6/0x02]
event    EXE_23          cpu/event=0xa6,umask=0xc/                 | EXE_ACTIVITY.2_3_PORTS_UTIL (umasks of 2_PORTS_UTIL 0x04 and 3_PORTS_UTIL 0x08) [0xA6/0x0C]
event    EXE_0           cpu/event=0xa6,umask=0x80/                | EXE_ACTIVITY.EXE_BOUND_0_PORTS, cycles no port executed a uop [0xA6/0x80]
event    RS_EMPTY_RES    cpu/event=0xa5,umask=0x1/                 | RS.EMPTY_RESOURCE, cycles the RS was empty for a resource reason [0xA5/0x01]
event    UOPS_X87        UOPS_EXECUTED:X87                         | UOPS_EXECUTED.X87, x87 uops executed [0xB1/0x10]
event    UOPS_EXEC       UOPS_EXECUTED:THREAD                      | UOPS_EXECUTED.THREAD, uops executed by this thread [0xB1/0x01]
event    FP_SCALAR       FP_ARITH_INST_RETIRED:SCALAR              | FP_ARITH_INST_RETIRED.SCALAR [0xC7/0x03]
event    FP_VECTOR       FP_ARITH_INST_RETIRED:VECTOR              | FP_ARITH_INST_RETIRED.VECTOR [0xC7/0xFC]
event    IV_ADD_128      INT_VEC_RETIRED:ADD_128                   | INT_VEC_RETIRED.ADD_128 [0xE7/0x03]
event    IV_VNNI_128     INT_VEC_RETIRED:VNNI_128                  | INT_VEC_RETIRED.VNNI_128 [0xE7/0x10]
event    IV_ADD_256      INT_VEC_RETIRED:ADD_256                   | INT_VEC_RETIRED.ADD_256 [0xE7/0x0C]
event    IV_MUL_256      INT_VEC_RETIRED:MUL_256                   | INT_VEC_RETIRED.MUL_256 [0xE7/0x80]
event    IV_VNNI_256     INT_VEC_RETIRED:VNNI_256                  | INT_VEC_RETIRED.VNNI_256 [0xE7/0x20]
event    MEM_UOPS        MEM_UOP_RETIRED:ANY                       | MEM_UOP_RETIRED.ANY, retired memory uops [0xE5/0x03]
event    MACRO_FUSED     INST_RETIRED:MACRO_FUSED                  | INST_RETIRED.MACRO_FUSED [0xC0/0x10]
event    BR_INST         BR_INST_RETIRED:ALL_BRANCHES              | BR_INST_RETIRED.ALL_BRANCHES [0xC4/0x00]
event    FB_HIT          MEM_LOAD_RETIRED:FB_HIT                   | MEM_LOAD_RETIRED.FB_HIT [0xD1/0x40]
event    LOCAL_PMM       MEM_LOAD_RETIRED:LOCAL_PMM                | MEM_LOAD_RETIRED.LOCAL_PMM [0xD1/0x80]
event    L3M_LOCAL_DRAM  MEM_LOAD_L3_MISS_RETIRED:LOCAL_DRAM       | MEM_LOAD_L3_MISS_RETIRED.LOCAL_DRAM [0xD3/0x01]
event    L3M_REMOTE_DRAM MEM_LOAD_L3_MISS_RETIRED:REMOTE_DRAM      | MEM_LOAD_L3_MISS_RETIRED.REMOTE_DRAM [0xD3/0x02]
event    L3M_REMOTE_HITM MEM_LOAD_L3_MISS_RETIRED:REMOTE_HITM      | MEM_LOAD_L3_MISS_RETIRED.REMOTE_HITM [0xD3/0x04]
event    L3M_REMOTE_FWD  MEM_LOAD_L3_MISS_RETIRED:REMOTE_FWD       | MEM_LOAD_L3_MISS_RETIRED.REMOTE_FWD [0xD3/0x08]
event    L3M_REMOTE_PMM  MEM_LOAD_L3_MISS_RETIRED:REMOTE_PMM       | MEM_LOAD_L3_MISS_RETIRED.REMOTE_PMM [0xD3/0x10]
# libpfm4 4.13's spr table against Intel perfmon SPR/events/sapphirerapids_core.json V1.39 ('tdctl events --check')
libpfm4-differs BE_SLOTS      | libpfm4 4.13 TOPDOWN:BACKEND_BOUND_SLOTS = 0x0200 (event 0x00, the fixed-counter pseudo code); perfmon TOPDOWN.BACKEND_BOUND_SLOTS is 0xA4/0x02 on any GP counter
libpfm4-differs BR_MISP_SLOTS | libpfm4 4.13 TOPDOWN:BR_MISPREDICT_SLOTS = 0x0800 (event 0x00); perfmon TOPDOWN.BR_MISPREDICT_SLOTS is 0xA4/0x08 on counter 0
libpfm4-differs MEM_SLOTS     | libpfm4 4.13 TOPDOWN:MEMORY_BOUND_SLOTS = 0x1000 (event 0x00); perfmon TOPDOWN.MEMORY_BOUND_SLOTS is 0xA4/0x10
libpfm4-differs MS_UOPS_RET     | libpfm4 4.13 UOPS_RETIRED:MS is 0xC2/0x08 without the MSR, an encoding perfmon SPR V1.39 does not list; perfmon is 0xC2/0x04 with MSR 0x3F7 = 0x8
libpfm4-differs MS_SWITCHES_RET | libpfm4 4.13 UOPS_RETIRED:MS is 0xC2/0x08 without the MSR; perfmon SPR V1.39 is 0xC2/0x04 c=1 e=1 with MSR 0x3F7 = 0x8
libpfm4-differs MS_RET_CYCLES   | libpfm4 4.13 UOPS_RETIRED:MS is 0xC2/0x08 without the MSR; perfmon SPR V1.39 is 0xC2/0x04 c=1 with MSR 0x3F7 = 0x8
libpfm4-differs UNKNOWN_BR    | libpfm4 4.13 INT_MISC:UNKNOWN_BRANCH_CYCLES has umask 0x07 (perfmon's MSR 0x3F7 value); perfmon is 0xAD/0x40 with MSR 0x3F7 = 0x7
# level-4..6 and info-metric events (TMA 5.1 nodes below); libpfm4 spr names, perfmon encodings from
# Linux perf's pmu-events/arch/x86/sapphirerapids/*.json
event    ITLB_WALK_ACT   ITLB_MISSES:WALK_ACTIVE                   | ITLB_MISSES.WALK_ACTIVE, cycles a code page walk was active [0x11/0x10 c=1]
event    ITLB_WC_4K      ITLB_MISSES:WALK_COMPLETED_4K             | ITLB_MISSES.WALK_COMPLETED_4K [0x11/0x02]
event    ITLB_WC_2M      ITLB_MISSES:WALK_COMPLETED_2M_4M          | ITLB_MISSES.WALK_COMPLETED_2M_4M [0x11/0x04]
event    DECODERS_C1     INST_DECODED:DECODERS:c=1                 | INST_DECODED.DECODERS:c1, cycles at least one decoder was utilized [0x75/0x01 c=1]
event    DECODERS_C2     INST_DECODED:DECODERS:c=2                 | INST_DECODED.DECODERS:c2, cycles at least two decoders were utilized [0x75/0x01 c=2]
event    FPDIV_ACTIVE    ARITH:FPDIV_ACTIVE                        | ARITH.FPDIV_ACTIVE, cycles the FP divider was busy [0xB0/0x01 c=1]
event    CLK_PAUSE       CPU_CLK_UNHALTED:PAUSE                    | CPU_CLK_UNHALTED.PAUSE, cycles in PAUSE [0xEC/0x40]
event    C01             CPU_CLK_UNHALTED:C01                      | CPU_CLK_UNHALTED.C01, core clocks in the C0.1 light-weight wait state [0xEC/0x10]
event    LFENCE          MISC2_RETIRED:LFENCE                      | MISC2_RETIRED.LFENCE, retired LFENCE instructions [0xE0/0x20]
event    ASSISTS_ANY     ASSISTS:ANY                               | ASSISTS.ANY, microcode assists [0xC1/0x1B]
event    ASSISTS_FP      ASSISTS:FP                                | ASSISTS.FP, floating-point assists [0xC1/0x02]
event    ASSISTS_PF      ASSISTS:PAGE_FAULT                        | ASSISTS.PAGE_FAULT, page-fault assists [0xC1/0x08]
event    ASSISTS_MIX     ASSISTS:SSE_AVX_MIX                       | ASSISTS.SSE_AVX_MIX, SSE/AVX transition assists [0xC1/0x10]
event    EXE_2           EXE_ACTIVITY:2_PORTS_UTIL                 | EXE_ACTIVITY.2_PORTS_UTIL, cycles two uops executed [0xA6/0x04]
event    EXEC_GE3        UOPS_EXECUTED:CYCLES_GE_3                 | UOPS_EXECUTED.CYCLES_GE_3, cycles with 3 or more uops executed [0xB1/0x01 c=3]
event    PORT_0          UOPS_DISPATCHED:PORT_0                    | UOPS_DISPATCHED.PORT_0 [0xB2/0x01]
event    PORT_1          UOPS_DISPATCHED:PORT_1                    | UOPS_DISPATCHED.PORT_1 [0xB2/0x02]
event    PORT_2_3_10     UOPS_DISPATCHED:PORT_2_3_10               | UOPS_DISPATCHED.PORT_2_3_10, load ports [0xB2/0x04]
event    PORT_4_9        UOPS_DISPATCHED:PORT_4_9                  | UOPS_DISPATCHED.PORT_4_9, store-data ports [0xB2/0x10]
event    PORT_5_11       UOPS_DISPATCHED:PORT_5_11                 | UOPS_DISPATCHED.PORT_5_11 [0xB2/0x20]
event    PORT_6          UOPS_DISPATCHED:PORT_6                    | UOPS_DISPATCHED.PORT_6 [0xB2/0x40]
event    PORT_7_8        UOPS_DISPATCHED:PORT_7_8                  | UOPS_DISPATCHED.PORT_7_8, store-address ports [0xB2/0x80]
event    FP_128D         FP_ARITH_INST_RETIRED:128B_PACKED_DOUBLE  | FP_ARITH_INST_RETIRED.128B_PACKED_DOUBLE [0xC7/0x04]
event    FP_128S         FP_ARITH_INST_RETIRED:128B_PACKED_SINGLE  | FP_ARITH_INST_RETIRED.128B_PACKED_SINGLE [0xC7/0x08]
event    FP_256D         FP_ARITH_INST_RETIRED:256B_PACKED_DOUBLE  | FP_ARITH_INST_RETIRED.256B_PACKED_DOUBLE [0xC7/0x10]
event    FP_256S         FP_ARITH_INST_RETIRED:256B_PACKED_SINGLE  | FP_ARITH_INST_RETIRED.256B_PACKED_SINGLE [0xC7/0x20]
# TMA 5.2 nodes toplev 5.1-full lacks (AMX_Busy, MBA_Stalls, FP_Vector_512b): encodings from Intel perfmon
# SPR/events/sapphirerapids_core.json V1.39
event    AMX_BUSY        cpu/event=0xb7,umask=0x2/                 | EXE.AMX_BUSY, core cycles the AMX unit was busy with tile (arithmetic) operations [0xB7/0x02]
libpfm4-differs AMX_BUSY | libpfm4 4.13 spr EXE:AMX_BUSY is 0xB7/0x02 with config1 = 0x2 (as if 0xB7 were ICL's offcore-response event); perfmon SPR V1.39 EXE.AMX_BUSY has no MSR
event    MBA_STALLS      INT_MISC:MBA_STALLS                       | INT_MISC.MBA_STALLS, cycles stalled by memory bandwidth allocation (MBA) throttling [0xAD/0x20]
event    FP_512D         FP_ARITH_INST_RETIRED:512B_PACKED_DOUBLE  | FP_ARITH_INST_RETIRED.512B_PACKED_DOUBLE [0xC7/0x40]
event    FP_512S         FP_ARITH_INST_RETIRED:512B_PACKED_SINGLE  | FP_ARITH_INST_RETIRED.512B_PACKED_SINGLE [0xC7/0x80]
event    IV_SHUFFLES     INT_VEC_RETIRED:SHUFFLES                  | INT_VEC_RETIRED.SHUFFLES, retired 256-bit integer shuffles [0xE7/0x40]
event    NOP_INST        INST_RETIRED:NOP                          | INST_RETIRED.NOP, retired NOP instructions [0xC0/0x02]
event    UOPS_EXEC_C1    UOPS_EXECUTED:THREAD:c=1                  | UOPS_EXECUTED.THREAD:c1, cycles this thread executed any uop [0xB1/0x01 c=1]
event    DTLB_LD_HIT_C1  DTLB_LOAD_MISSES:STLB_HIT:c=1             | DTLB_LOAD_MISSES.STLB_HIT:c1, cycles with a load DTLB miss that hit the STLB [0x12/0x20 c=1]
event    DTLB_LD_WALK    DTLB_LOAD_MISSES:WALK_ACTIVE              | DTLB_LOAD_MISSES.WALK_ACTIVE, cycles a load page walk was active [0x12/0x10 c=1]
event    DTLB_LD_WC_4K   DTLB_LOAD_MISSES:WALK_COMPLETED_4K        | DTLB_LOAD_MISSES.WALK_COMPLETED_4K [0x12/0x02]
event    DTLB_LD_WC_2M   DTLB_LOAD_MISSES:WALK_COMPLETED_2M_4M     | DTLB_LOAD_MISSES.WALK_COMPLETED_2M_4M [0x12/0x04]
event    DTLB_LD_WC_1G   DTLB_LOAD_MISSES:WALK_COMPLETED_1G        | DTLB_LOAD_MISSES.WALK_COMPLETED_1G [0x12/0x08]
event    DTLB_ST_HIT_C1  DTLB_STORE_MISSES:STLB_HIT:c=1            | DTLB_STORE_MISSES.STLB_HIT:c1, cycles with a store DTLB miss that hit the STLB [0x13/0x20 c=1]
event    DTLB_ST_WALK    DTLB_STORE_MISSES:WALK_ACTIVE             | DTLB_STORE_MISSES.WALK_ACTIVE, cycles a store page walk was active [0x13/0x10 c=1]
event    DTLB_ST_WC_4K   DTLB_STORE_MISSES:WALK_COMPLETED_4K       | DTLB_STORE_MISSES.WALK_COMPLETED_4K [0x13/0x02]
event    DTLB_ST_WC_2M   DTLB_STORE_MISSES:WALK_COMPLETED_2M_4M    | DTLB_STORE_MISSES.WALK_COMPLETED_2M_4M [0x13/0x04]
event    DTLB_ST_WC_1G   DTLB_STORE_MISSES:WALK_COMPLETED_1G       | DTLB_STORE_MISSES.WALK_COMPLETED_1G [0x13/0x08]
event    CYCLES_MEM_ANY  CYCLE_ACTIVITY:CYCLES_MEM_ANY             | CYCLE_ACTIVITY.CYCLES_MEM_ANY, cycles with a load outstanding [0xA3/0x10 c=16]
event    MA_CYC_L1D      MEMORY_ACTIVITY:CYCLES_L1D_MISS           | MEMORY_ACTIVITY.CYCLES_L1D_MISS, cycles with an L1D miss outstanding [0x47/0x02 c=2]
event    LD_STORE_FWD    LD_BLOCKS:STORE_FORWARD                   | LD_BLOCKS.STORE_FORWARD, loads blocked by a store that cannot forward [0x03/0x82]
event    LD_NO_SR        LD_BLOCKS:NO_SR                           | LD_BLOCKS.NO_SR, split loads blocked for lack of split registers [0x03/0x88]
event    ALL_LOADS       MEM_INST_RETIRED:ALL_LOADS                | MEM_INST_RETIRED.ALL_LOADS [0xD0/0x81]
event    SPLIT_STORES    MEM_INST_RETIRED:SPLIT_STORES             | MEM_INST_RETIRED.SPLIT_STORES [0xD0/0x42]
event    FB_FULL         L1D_PEND_MISS:FB_FULL                     | L1D_PEND_MISS.FB_FULL, cycles a demand request waited for a fill buffer [0x48/0x02]
event    L2_STALLS       L1D_PEND_MISS:L2_STALLS                   | L1D_PEND_MISS.L2_STALLS, cycles a demand request waited for L2 resources [0x48/0x04]
event    XQ_FULL         XQ:FULL_CYCLES                            | XQ.FULL_CYCLES, cycles the uncore request queue was full [0x2D/0x01 c=1]
event    ORO_DRD_C1      OFFCORE_REQUESTS_OUTSTANDING:CYCLES_WITH_DATA_RD | OFFCORE_REQUESTS_OUTSTANDING.CYCLES_WITH_DATA_RD [0x20/0x08 c=1]
event    ORO_DRD_C4      OFFCORE_REQUESTS_OUTSTANDING:DATA_RD:c=4  | OFFCORE_REQUESTS_OUTSTANDING.DATA_RD:c4 (toplev: ALL_DATA_RD:c4, the same encoding) [0x20/0x08 c=4]
event    L1D_PENDING     L1D_PEND_MISS:PENDING                     | L1D_PEND_MISS.PENDING, outstanding L1D misses per cycle [0x48/0x01]
event    L1_MISS_ANY     MEM_LOAD_COMPLETED:L1_MISS_ANY            | MEM_LOAD_COMPLETED.L1_MISS_ANY, completed demand loads that missed L1D [0x43/0xFD]
event    TSC             msr/event=0x0/                            | msr/tsc/, time-stamp counter (perf msr PMU, event 0) [msr tsc]
event    ORO_RFO_C1      OFFCORE_REQUESTS_OUTSTANDING:CYCLES_WITH_DEMAND_RFO | OFFCORE_REQUESTS_OUTSTANDING.CYCLES_WITH_DEMAND_RFO [0x20/0x04 c=1]
event    L2_ALL_RFO      L2_RQSTS:ALL_RFO                          | L2_RQSTS.ALL_RFO [0x24/0xE2]
event    L2_RFO_HIT      L2_RQSTS:RFO_HIT                          | L2_RQSTS.RFO_HIT [0x24/0xC2]
event    LOCK_LOADS      MEM_INST_RETIRED:LOCK_LOADS               | MEM_INST_RETIRED.LOCK_LOADS [0xD0/0x21]
event    ALL_STORES      MEM_INST_RETIRED:ALL_STORES               | MEM_INST_RETIRED.ALL_STORES [0xD0/0x82]
event    L2_HIT          MEM_LOAD_RETIRED:L2_HIT                   | MEM_LOAD_RETIRED.L2_HIT [0xD1/0x02]
event    L3_HIT          MEM_LOAD_RETIRED:L3_HIT                   | MEM_LOAD_RETIRED.L3_HIT [0xD1/0x04]
event    ST_L2_HIT       MEM_STORE_RETIRED:L2_HIT                  | MEM_STORE_RETIRED.L2_HIT, retired stores that hit L2 [0x44/0x01]
# level-4/5 events of the OCR and snoop nodes: libpfm4 strings where libpfm4 4.13 has the perfmon
# encoding, raw forms from perfmon SPR V1.39 (sapphirerapids_core.json) otherwise
event    ORO_CODE_C1     cpu/event=0x20,umask=0x2,cmask=1/         | OFFCORE_REQUESTS_OUTSTANDING.CYCLES_WITH_DEMAND_CODE_RD, cycles with an L2-miss code read outstanding [0x20/0x02 c=1]
event    XSNP_FWD        MEM_LOAD_L3_HIT_RETIRED:XSNP_FWD          | MEM_LOAD_L3_HIT_RETIRED.XSNP_FWD, L3-hit loads a sibling core forwarded [0xD2/0x04]
event    XSNP_NO_FWD     MEM_LOAD_L3_HIT_RETIRED:XSNP_NO_FWD       | MEM_LOAD_L3_HIT_RETIRED.XSNP_NO_FWD, L3-hit loads snooped without forwarding [0xD2/0x02]
event    XSNP_MISS       MEM_LOAD_L3_HIT_RETIRED:XSNP_MISS         | MEM_LOAD_L3_HIT_RETIRED.XSNP_MISS, L3-hit loads whose snoop missed [0xD2/0x01]
event    OCR_DRD_HITM    cpu/event=0x2a,umask=0x1,offcore_rsp=0x10003c0001/ | OCR.DEMAND_DATA_RD.L3_HIT.SNOOP_HITM, demand data reads that hit L3 and a modified line in another core [0x2A/0x01 MSR 0x1A6 = 0x10003C0001]
event    OCR_DRD_HWF     cpu/event=0x2a,umask=0x1,offcore_rsp=0x8003c0001/ | OCR.DEMAND_DATA_RD.L3_HIT.SNOOP_HIT_WITH_FWD, demand data reads that hit L3 and a clean forwarded line [0x2A/0x01 MSR 0x1A6 = 0x8003C0001]
event    OCR_RFO_RHITM   cpu/event=0x2a,umask=0x1,offcore_rsp=0x103b800002/ | OCR.DEMAND_RFO.L3_MISS with TMA's MSR value 0x103B800002 (RFOs that missed L3 and hit a modified line in a remote socket) [0x2A/0x01 MSR 0x1A6 = 0x103B800002]
event    OCR_RFO_HITM    cpu/event=0x2a,umask=0x1,offcore_rsp=0x10003c0002/ | OCR.DEMAND_RFO.L3_HIT.SNOOP_HITM, RFOs that hit L3 and a modified line in another core [0x2A/0x01 MSR 0x1A6 = 0x10003C0002]
event    OCR_STREAM_WR   cpu/event=0x2a,umask=0x1,offcore_rsp=0x10800/ | OCR.STREAMING_WR.ANY_RESPONSE, streaming (non-temporal) stores [0x2A/0x01 MSR 0x1A6 = 0x10800]
libpfm4-differs OCR_RFO_RHITM | TMA's False_Sharing sets MSR 0x1A6 = 0x103B800002 (perfmon metrics ocr_msr_val, toplev the same); libpfm4 4.13 OCR:DEMAND_RFO_L3_MISS is the event table's 0x3F3FC00002
# perf's names for events libpfm4 4.13 spells differently or lacks (perf stat -x prints these)
perf-name ORO_CODE_C1    offcore_requests_outstanding.cycles_with_demand_code_rd
perf-name OCR_DRD_HITM   ocr.demand_data_rd.l3_hit.snoop_hitm
perf-name OCR_DRD_HWF    ocr.demand_data_rd.l3_hit.snoop_hit_with_fwd
perf-name OCR_RFO_HITM   ocr.demand_rfo.l3_hit.snoop_hitm
perf-name OCR_STREAM_WR  ocr.streaming_wr.any_response
perf-name CLK_THREAD     cpu_clk_unhalted.thread
perf-name INST           inst_retired.any
perf-name MS_UOPS_RET    uops_retired.ms
perf-name MS_SWITCHES_RET cpu/uops_retired.ms,cmask=1,edge=1/
perf-name MS_RET_CYCLES  cpu/uops_retired.ms,cmask=1/
perf-name EXE_23         exe_activity.2_3_ports_util
perf-name EXE_0          exe_activity.exe_bound_0_ports
perf-name RS_EMPTY_RES   rs.empty_resource
perf-name UNKNOWN_BR     int_misc.unknown_branch_cycles

# --- counters (planner; facts tma-formulas.md section 5) ---------------------------------------
# 8 general-purpose counters per logical CPU with or without SMT; 4 fixed counters (3 = SLOTS).
# The eight PERF_METRICS events take no counter but must follow SLOTS in its group.
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
# - SPR: intel_glc_event_constraints (intel/core.c:332-370): fixed 0-2 (0x013c
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
# intel_glc_event_constraints (Sapphire Rapids and Granite Rapids, intel_pmu_init_glc(); arch/x86/events/
# intel/core.c:332-370 of linux 6.12.117, Debian linux-source-6.12 6.12.117-1~deb12u1, no git commit in a
# source package): codes below 0x90 (but 0x2E, 0x3C) and 0xD0-0xDF only on counters 0-3 (:354, :363)
limit     ICACHE_STALL ITLB_STALL MA_L1D MA_L2 MA_L3 L1_MISS L2_MISS L3_MISS \
          DSB2MITE_PEN MITE_ANY MITE_OK DSB_ANY DSB_OK MS_CYCLES_ANY LCP_STALL FB_HIT LOCAL_PMM \
          L3M_LOCAL_DRAM L3M_REMOTE_DRAM L3M_REMOTE_HITM L3M_REMOTE_FWD L3M_REMOTE_PMM counters=0-3
# ... and TOPDOWN.BR_MISPREDICT_SLOTS (0x08A4) only on counter 0 (intel/core.c:360; perfmon agrees);
# the other new events (0xA4 umasks 0x01/0x02/0x10, 0xC2, 0x9C) take any counter (0x90-0xFE, :368)
limit     BR_MISP_SLOTS counters=0
limit     ITLB_WALK_ACT ITLB_WC_4K ITLB_WC_2M counters=0-3   # ITLB_MISSES (0x11): below 0x90
# INST_DECODED.DECODERS (0x0175) on counters 0-3 (below 0x90, :354; perfmon SPR "Counter" 0,1,2,3);
# UOPS_EXECUTED (0xB1) on any counter (:368). (Counter 2 for 0x0175 and 0x0148, counter 3 for 0x01b1 are
# intel_lnc_event_constraints, intel/core.c:404-416: Lion Cove's, not this core's.)
limit     DECODERS_C1 DECODERS_C2 counters=0-3
# memory level 4+: codes below 0x90 and 0xD0-0xDF on counters 0-3, L1D_PEND_MISS.PENDING (0x0148) too
limit     DTLB_LD_HIT_C1 DTLB_LD_WALK DTLB_LD_WC_4K DTLB_LD_WC_2M DTLB_LD_WC_1G DTLB_ST_HIT_C1 DTLB_ST_WALK \
          DTLB_ST_WC_4K DTLB_ST_WC_2M DTLB_ST_WC_1G MA_CYC_L1D LD_STORE_FWD LD_NO_SR ALL_LOADS SPLIT_STORES \
          FB_FULL L2_STALLS XQ_FULL ORO_DRD_C1 ORO_DRD_C4 L1_MISS_ANY ORO_RFO_C1 L2_ALL_RFO L2_RFO_HIT \
          LOCK_LOADS ALL_STORES L2_HIT L3_HIT ST_L2_HIT counters=0-3
nocounter TSC                           # msr PMU: no core counter, may join any group
# MSR 0x3F7 (MSR_PEBS_FRONTEND) holds one value: intel_glc_extra_regs (Sapphire Rapids' table,
# intel/core.c:7109) gives 0x40ad (valid 0x7) and 0x04c2 (valid 0x8) one EXTRA_REG_FE, without an
# alternate (intel/core.c:322-330 of linux 6.12.117, Debian
# linux-source-6.12 6.12.117-1~deb12u1, no git commit in a source package); a second value gets
# emptyconstraint (__intel_shared_reg_get_constraints(), intel/core.c:3301). The three UOPS_RETIRED.MS
# forms write the same 0x8 and share it. The kernel puts 0xAD and 0xC2 on any counter (0x90-0xFE, :363).
extra     frontend 1 UNKNOWN_BR MS_UOPS_RET MS_SWITCHES_RET MS_RET_CYCLES
# perfmon "Counter": "0,1,2,3" (0x20, 0xD2)
limit     ORO_CODE_C1 XSNP_FWD XSNP_NO_FWD XSNP_MISS counters=0-3
# OCR (0x2A) on counters 0-3 (the 0x01-0x8F range, intel/core.c:354); its values go to
# MSR_OFFCORE_RSP_0/1 (intel_glc_extra_regs, :323-324): a second value takes the other MSR
# (intel_alt_er(), :3256), a third gets emptyconstraint
limit     OCR_DRD_HITM OCR_DRD_HWF OCR_RFO_RHITM OCR_RFO_HITM OCR_STREAM_WR counters=0-3
extra     offcore_rsp 2 OCR_DRD_HITM OCR_DRD_HWF OCR_RFO_RHITM OCR_RFO_HITM OCR_STREAM_WR
# Contested_Accesses and Data_Sharing read six events on counters 0-3 (two XSNP, two OCR, FB_HIT,
# L1_MISS): they may span groups
span      Backend_Bound.Memory_Bound.L3_Bound.Contested_Accesses Backend_Bound.Memory_Bound.L3_Bound.Data_Sharing
# Lock_Latency reads five events that all live on counters 0-3 (0x20, 0x24, 0xD0): it may span groups.
span      Backend_Bound.Memory_Bound.L1_Bound.Lock_Latency
limit     L1D_PENDING counters=0-3
span      Frontend_Bound.Fetch_Bandwidth.MITE.Decoder0_Alone
# CXL_Mem_Bound reads nine general-purpose events (MA_L3, L1_MISS, FB_HIT and six PMM/DRAM load
# counts, seven of them on counters 0-3): it cannot fit one group, so it may span groups.
span      Backend_Bound.Memory_Bound.CXL_Mem_Bound
# Other_Light_Ops is Light_Operations less its five siblings: it reads their twelve events
span      Retiring.Light_Operations.Other_Light_Ops

let      PM_SUM    = TD_FE + TD_BAD + TD_RET + TD_BE
# PM: 1 = PERF_METRICS path, 0 = general-purpose path (toplev's topdown_use_fixed)
let      PM        = available(PM_SUM)
info     CLKS      Count  = CLK_THREAD                        | Unhalted core clocks of this thread
info     CORE_CLKS Count  = CLK_DISTRIBUTED if SMT_on else CLK_THREAD | Core clocks (distributed share with SMT on)
info     SLOTS     Count  = SLOTS_EV if PM else SLOTS_P       | Issue slots (TOPDOWN.SLOTS, or TOPDOWN.SLOTS_P without PERF_METRICS; per logical processor)
info     IPC       Metric = INST / CLKS                       | Instructions per cycle
info     CPI       Metric = CLKS / INST                       | Cycles per instruction
info     CoreIPC   Metric = INST / CORE_CLKS                  | Instructions per core clock
info     ILP       Metric = UOPS_EXEC / UOPS_EXEC_C1          | Uops executed per cycle with any uop executed
info     EPC       Metric = UOPS_EXEC / CLKS                  | Uops executed per cycle
info     Execute_per_Issue Metric = UOPS_EXEC / UOPS_ISSUED   | Uops executed per uop issued
info     Load_Miss_Real_Latency Metric = L1D_PENDING / L1_MISS_ANY | Average latency of L1D miss demand loads in core cycles
info     IpLoad    Metric = INST / ALL_LOADS                  | Instructions per load
info     Turbo_Utilization Ratio = CLKS / REF_TSC             | Average frequency relative to nominal
info     Core_Frequency    GHz   = CLKS / REF_TSC * TSC / 1e9 / DURATION | Average core frequency while unhalted
info     Branch_MPKI  MPKI = 1000 * BR_MISP / INST            | Mispredicted branches per 1000 instructions
info     L1MPKI       MPKI = 1000 * L1_MISS / INST            | Retired loads that missed L1D per 1000 instructions
info     L2MPKI       MPKI = 1000 * L2_MISS / INST            | Retired loads that missed L2 per 1000 instructions
info     L3MPKI       MPKI = 1000 * L3_MISS / INST            | Retired loads that missed L3 per 1000 instructions

node  Frontend_Bound  Slots = TD_FE / PM_SUM - UOP_DROPPING / SLOTS if PM else (IDQ_BUBBLES - UOP_DROPPING) / SLOTS \
      | > 0.15 | Slots the frontend did not fill while the backend could accept uops
node  Backend_Bound   Slots = TD_BE / PM_SUM if PM else BE_SLOTS / SLOTS \
      | > 0.20 | Slots with no uop issued because the backend lacked resources
node  Retiring        Slots = TD_RET / PM_SUM if PM else RET_SLOTS / SLOTS \
      | this > 0.7 or Retiring.Heavy_Operations > 0.1 | Slots that retired a uop (useful work)
node  Bad_Speculation Slots = max(1 - (Frontend_Bound + Backend_Bound + Retiring), 0) \
      | > 0.15 | Slots wasted on uops that never retire and on recovery

node  Frontend_Bound.Fetch_Latency   Slots = \
      TD_FETCH_LAT / PM_SUM - UOP_DROPPING / SLOTS if PM else (W * IDQ_BUBBLES_0 - UOP_DROPPING) / SLOTS \
      | > 0.10 | Slots lost to cycles in which the frontend delivered no uop
node  Frontend_Bound.Fetch_Bandwidth Slots = max(0, Frontend_Bound - Frontend_Bound.Fetch_Latency) \
      | > 0.20 | Slots lost because the frontend delivered fewer uops than the width
# Linux topdown.txt / TMA 5.2: the SPR level-2 complements partition their level-1 parents
partition Frontend_Bound        # Fetch_Bandwidth = Frontend_Bound - Fetch_Latency
node  Frontend_Bound.Fetch_Latency.ICache_Misses Clocks = ICACHE_STALL / CLKS \
      | > 0.05 | Cycles stalled on instruction-cache misses
node  Frontend_Bound.Fetch_Latency.ITLB_Misses   Clocks = ITLB_STALL / CLKS \
      | > 0.05 | Cycles stalled on instruction-TLB misses
# --- level 3 (all nodes below): pmu-tools spr_server_ratios.py, TMA 5.1-full (andikleen/pmu-tools
# commit 2568760f), classes of the same names; Branch_Resteers with its Unknown_Branches term,
# Serializing_Operation with C02_Wait, Ports_Utilization with Ports_Utilized_0 and Core_Bound_Cycles,
# FP_Arith / Int_Operations with their level-4 terms, CXL_Mem_Bound with Mem_DDR_Hit_Fraction and the
# LOAD_* helpers; thresholds as there.
let   RETIRE_FRACTION = RET_SLOTS / UOPS_ISSUED
node  Frontend_Bound.Fetch_Latency.Branch_Resteers Clocks = RESTEER / CLKS + UNKNOWN_BR / CLKS \
      | > 0.05 | Cycles the frontend was delayed fetching from corrected paths (may overlap its siblings)
node  Frontend_Bound.Fetch_Latency.MS_Switches Clocks_est = MS_Switches_Cost * MS_SWITCHES_RET / RETIRE_FRACTION / CLKS \
      | > 0.05 | Cycles lost switching to the microcode sequencer (estimated at MS_Switches_Cost each)
node  Frontend_Bound.Fetch_Latency.LCP Clocks = LCP_STALL / CLKS \
      | > 0.05 | Cycles the decoders stalled on length-changing prefixes
node  Frontend_Bound.Fetch_Latency.DSB_Switches Clocks = DSB2MITE_PEN / CLKS \
      | > 0.05 | Cycles lost switching from the DSB to the legacy decoders (MITE)
unrelated Frontend_Bound.Fetch_Latency | TMA 5.2: the children are Clocks fractions that may overlap \
      (Branch_Resteers "may overlap with its siblings"); Intel's Info.Bottleneck metrics share Fetch_Latency \
      out in proportion child / sum of children, so neither a sum nor a bound is defined
node  Frontend_Bound.Fetch_Bandwidth.MITE Slots_est = (MITE_ANY - MITE_OK) / CORE_CLKS / 2 \
      | > 0.10 | Cycles the legacy decode pipeline (MITE) delivered fewer uops than optimal
node  Frontend_Bound.Fetch_Bandwidth.DSB  Slots_est = (DSB_ANY - DSB_OK) / CORE_CLKS / 2 \
      | > 0.15 | Cycles the decoded-uop cache (DSB) delivered fewer uops than optimal
node  Frontend_Bound.Fetch_Bandwidth.MS   Slots_est = max(MS_CYCLES_ANY, MS_RET_CYCLES / RETIRE_FRACTION) / CORE_CLKS / 2.4 \
      | > 0.05 | Cycles the microcode sequencer limited uop delivery (estimated)
unrelated Frontend_Bound.Fetch_Bandwidth | TMA 5.1: the children are per-core cycle estimates of each \
      uop source's shortfall (Slots_Estimated), not a split of Fetch_Bandwidth's slots; no sum or bound is given
node  Bad_Speculation.Branch_Mispredicts Slots = TD_BR_MISP / PM_SUM if PM else BR_MISP_SLOTS / SLOTS \
      | > 0.10 | Slots wasted on branch mispredictions
node  Bad_Speculation.Machine_Clears     Slots = max(0, Bad_Speculation - Bad_Speculation.Branch_Mispredicts) \
      | > 0.10 | Slots wasted on machine clears
partition Bad_Speculation       # Machine_Clears = Bad_Speculation - Branch_Mispredicts
node  Bad_Speculation.Branch_Mispredicts.Other_Mispredicts Slots = \
        max(Bad_Speculation.Branch_Mispredicts * (1 - BR_MISP / (CLEARS_COUNT - MC_COUNT)), 0.0001) \
      | > 0.05 | Slots lost to mispredictions other than of retired x86 branches
bound Bad_Speculation.Branch_Mispredicts = max(Bad_Speculation.Branch_Mispredicts, 0.0001) \
      | Other_Mispredicts is a share of its parent that TMA floors at 0.0001
node  Bad_Speculation.Machine_Clears.Other_Nukes Slots = \
        max(Bad_Speculation.Machine_Clears * (1 - MC_MEM_ORDER / MC_COUNT), 0.0001) \
      | > 0.05 | Slots lost to machine clears other than memory ordering
bound Bad_Speculation.Machine_Clears = max(Bad_Speculation.Machine_Clears, 0.0001) \
      | Other_Nukes is a share of its parent that TMA floors at 0.0001
# (perf's metric test, perf_metric_validation_rules.json, checks the same four L2 sums)
node  Backend_Bound.Memory_Bound Slots = TD_MEM / PM_SUM if PM else MEM_SLOTS / SLOTS \
      | > 0.20 | Slots stalled on the memory subsystem
node  Backend_Bound.Core_Bound   Slots = max(0, Backend_Bound - Backend_Bound.Memory_Bound) \
      | > 0.10 | Slots stalled on the core
partition Backend_Bound         # Core_Bound = Backend_Bound - Memory_Bound
node  Backend_Bound.Memory_Bound.L1_Bound Stalls = max((BOUND_ON_LOADS - MA_L1D) / CLKS, 0) \
      | > 0.10 | Stall cycles with loads outstanding that hit L1D
node  Backend_Bound.Memory_Bound.L2_Bound Stalls = (MA_L1D - MA_L2) / CLKS \
      | > 0.05 | Stall cycles on loads that hit L2
node  Backend_Bound.Memory_Bound.L3_Bound Stalls = (MA_L2 - MA_L3) / CLKS \
      | > 0.05 | Stall cycles on loads that hit L3
node  Backend_Bound.Memory_Bound.DRAM_Bound Stalls = MA_L3 / CLKS \
      | > 0.10 | Stall cycles with an L3 miss outstanding (TMA 5.2 L3_Miss_Bound)
# toplev: LOAD_X = count * (1 + FB_HIT / L1_MISS); the remote ones only with DS (1 on SPR servers)
let   FB_SCALE = 1 + FB_HIT / L1_MISS
let   DDR_WEIGHT = 19 * L3M_REMOTE_DRAM * FB_SCALE + 10 * (L3M_LOCAL_DRAM + L3M_REMOTE_FWD + L3M_REMOTE_HITM) * FB_SCALE
let   MEM_DDR_HIT_FRACTION = DDR_WEIGHT / (DDR_WEIGHT + (25 * LOCAL_PMM + 33 * L3M_REMOTE_PMM) * FB_SCALE) \
        if PMM_App_Direct else 1
node  Backend_Bound.Memory_Bound.CXL_Mem_Bound Stalls = \
        ((1 - MEM_DDR_HIT_FRACTION) * MA_L3 / CLKS if 1000000 * (L3M_REMOTE_PMM + LOCAL_PMM) > L1_MISS else 0) \
        if PMM_App_Direct else 0 \
      | > 0.10 | Stall cycles on loads served from CXL-attached (or persistent) memory
node  Backend_Bound.Memory_Bound.Store_Bound Stalls = BOUND_ON_STORES / CLKS \
      | > 0.20 | Cycles the store buffer was full
# TMA 5.2: the Memory_Bound children split the load-bound and store-bound stall cycles by the
# nested MEMORY_ACTIVITY counters, per clock: L1 + L2 + L3 + DRAM = BOUND_ON_LOADS / CLKS, Store =
# BOUND_ON_STORES / CLKS. Stalls fractions of all cycles; Memory_Bound itself is PERF_METRICS'
# (or TOPDOWN.MEMORY_BOUND_SLOTS') slot share. Exact while L1_Bound's max(.., 0) does not bite.
# CXL_Mem_Bound is 0 unless PMM loads are counted (1e6 * PMM loads > L1 misses); it overlaps
# DRAM_Bound then (toplev's DRAM_Bound is the whole L3-miss ratio), so the sum holds while it is 0.
children-sum Backend_Bound.Memory_Bound = (BOUND_ON_LOADS + BOUND_ON_STORES) / CLKS
node  Backend_Bound.Core_Bound.Divider Clocks = DIV_ACTIVE / CLKS \
      | > 0.20 | Cycles the divider unit was busy
node  Backend_Bound.Core_Bound.Serializing_Operation Clocks = SCOREBOARD / CLKS + C02 / CLKS \
      | > 0.10 | Cycles stalled on serializing operations (including C0.2 waits)
let   FEW_UOPS_EXECUTED = EXE_1 + Retiring * EXE_23
let   PORTS_UTILIZED_0 = (EXE_0 + max(RS_EMPTY_RES - SCOREBOARD, 0)) / CLKS * (STALLS_TOTAL - BOUND_ON_LOADS) / CLKS
node  Backend_Bound.Core_Bound.Ports_Utilization Clocks = \
        (PORTS_UTILIZED_0 * CLKS + FEW_UOPS_EXECUTED) / CLKS if DIV_ACTIVE < STALLS_TOTAL - BOUND_ON_LOADS \
        else FEW_UOPS_EXECUTED / CLKS \
      | > 0.15 | Cycles the core was limited by execution-port utilization
# AMX_Busy: TMA 5.2 (perfmon sapphirerapids_metrics.json V1.3); toplev 5.1-full has no such node.
# Domain and threshold as perfmon: Core_Clocks, > 50% (with Core_Bound > 10%, Backend_Bound > 20%).
node  Backend_Bound.Core_Bound.AMX_Busy Core_Clocks = AMX_BUSY / CORE_CLKS \
      | > 0.50 | Core cycles the AMX unit was busy with tile (arithmetic) operations
unrelated Backend_Bound.Core_Bound | the children (Divider, Serializing_Operation, Ports_Utilization, AMX_Busy) \
      are Clocks fractions of all (or core) cycles under a Slots share of Backend_Bound, which Intel relates by \
      no sum or bound
node  Retiring.Heavy_Operations Slots = TD_HEAVY / PM_SUM if PM else RET_HEAVY / SLOTS \
      | > 0.1 | Slots retiring heavy operations (multi-uop instructions, microcode)
node  Retiring.Light_Operations Slots = max(0, Retiring - Retiring.Heavy_Operations) \
      | > 0.6 | Slots retiring light-weight operations
partition Retiring              # Light_Operations = Retiring - Heavy_Operations
let   RETIRED_SLOTS = Retiring * SLOTS
node  Retiring.Light_Operations.FP_Arith Uops = \
        Retiring * UOPS_X87 / UOPS_EXEC + FP_SCALAR / RETIRED_SLOTS + FP_VECTOR / RETIRED_SLOTS \
      | > 0.20 | Retired uops of floating-point arithmetic (x87, scalar and vector)
node  Retiring.Light_Operations.Int_Operations Uops = \
        (IV_ADD_128 + IV_VNNI_128) / RETIRED_SLOTS + (IV_ADD_256 + IV_MUL_256 + IV_VNNI_256) / RETIRED_SLOTS \
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
children-sum Retiring.Light_Operations = Retiring.Light_Operations | TMA 5.1: Other_Light_Ops = max(0, \
      Light_Operations - the other five), FP_Arith's and Int_Operations' Uops taken as slots; \
      exact while the clamp does not bite
node  Retiring.Heavy_Operations.Microcode_Sequencer Slots = MS_UOPS_RET / SLOTS \
      | > 0.05 | Slots retiring uops from the microcode sequencer
node  Retiring.Heavy_Operations.Few_Uops_Instructions Slots = \
        max(0, Retiring.Heavy_Operations - Retiring.Heavy_Operations.Microcode_Sequencer) \
      | > 0.05 | Slots retiring instructions decoded into two to four uops
partition Retiring.Heavy_Operations   # Few_Uops_Instructions = max(0, Heavy - Microcode_Sequencer)

# --- level 4-6: pmu-tools spr_server_ratios.py (TMA 5.1-full, andikleen/pmu-tools commit 2568760f),
# classes of the same names; thresholds as there (the port, Mixing_Vectors and assist-kind thresholds
# there do not require the parent's; here a flagged node needs flagged ancestors, as for every node).
node  Frontend_Bound.Fetch_Latency.ITLB_Misses.Code_STLB_Miss Clocks_Retired = ITLB_WALK_ACT / CLKS \
      | > 0.05 | Cycles a code page walk was active (instruction fetches that missed the STLB)
node  Frontend_Bound.Fetch_Latency.ITLB_Misses.Code_STLB_Hit Clocks_Retired = \
        max(0, Frontend_Bound.Fetch_Latency.ITLB_Misses - Frontend_Bound.Fetch_Latency.ITLB_Misses.Code_STLB_Miss) \
      | > 0.05 | I-TLB miss cycles of code fetches that hit the STLB
partition Frontend_Bound.Fetch_Latency.ITLB_Misses   # Code_STLB_Hit = max(0, ITLB_Misses - Code_STLB_Miss)
let   ITLB_WC = ITLB_WC_4K + ITLB_WC_2M
node  Frontend_Bound.Fetch_Latency.ITLB_Misses.Code_STLB_Miss.Code_STLB_Miss_4K Clocks_est = \
        Frontend_Bound.Fetch_Latency.ITLB_Misses.Code_STLB_Miss * ITLB_WC_4K / ITLB_WC \
      | > 0.05 | Code page-walk cycles of walks that completed to a 4K page
node  Frontend_Bound.Fetch_Latency.ITLB_Misses.Code_STLB_Miss.Code_STLB_Miss_2M Clocks_est = \
        Frontend_Bound.Fetch_Latency.ITLB_Misses.Code_STLB_Miss * ITLB_WC_2M / ITLB_WC \
      | > 0.05 | Code page-walk cycles of walks that completed to a 2M/4M page
partition Frontend_Bound.Fetch_Latency.ITLB_Misses.Code_STLB_Miss   # shared out by completed walks
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
unrelated Frontend_Bound.Fetch_Bandwidth.MITE | TMA 5.1: Decoder0_Alone is a cycle estimate of one cause \
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
unrelated Backend_Bound.Core_Bound.Serializing_Operation | TMA 5.1: the children are cycle counts of \
      causes that overlap the scoreboard stalls (only C02_Wait is a term of the parent); no sum or bound is given
node  Backend_Bound.Core_Bound.Ports_Utilization.Ports_Utilized_0 Clocks = PORTS_UTILIZED_0 \
      | > 0.2 | Cycles with no uop executed (including RS-empty cycles not on serializing operations)
node  Backend_Bound.Core_Bound.Ports_Utilization.Ports_Utilized_1 Clocks = EXE_1 / CLKS \
      | > 0.2 | Cycles with exactly one uop executed
node  Backend_Bound.Core_Bound.Ports_Utilization.Ports_Utilized_2 Clocks = EXE_2 / CLKS \
      | > 0.15 | Cycles with exactly two uops executed
node  Backend_Bound.Core_Bound.Ports_Utilization.Ports_Utilized_3m Clocks = EXEC_GE3 / CLKS \
      | > 0.4 | Cycles with three or more uops executed
unrelated Backend_Bound.Core_Bound.Ports_Utilization | TMA 5.1: Ports_Utilized_0/1/2/3m split cycles by \
      uops executed; Ports_Utilization weights the 2- and 3-uop cycles by Retiring: no sum or bound is defined
node  Backend_Bound.Core_Bound.Ports_Utilization.Ports_Utilized_0.Mixing_Vectors Clocks = 160 * ASSISTS_MIX / CLKS \
      | > 0.05 | Cycles of SSE/AVX transition assists (160 each)
unrelated Backend_Bound.Core_Bound.Ports_Utilization.Ports_Utilized_0 | TMA 5.1: Mixing_Vectors is a cost \
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
      | TMA 5.1: 5 x ALU_Op_Utilization = Port_0 + Port_1 + Port_5_11 + Port_6 (Port_5_11 has no node)
node  Backend_Bound.Core_Bound.Ports_Utilization.Ports_Utilized_3m.Load_Op_Utilization Core_Execution = \
        PORT_2_3_10 / (3 * CORE_CLKS) \
      | > 0.6 | Utilization of the three load ports (2, 3, 10)
node  Backend_Bound.Core_Bound.Ports_Utilization.Ports_Utilized_3m.Store_Op_Utilization Core_Execution = \
        (PORT_4_9 + PORT_7_8) / (4 * CORE_CLKS) \
      | > 0.6 | Utilization of the store ports (data 4, 9; address 7, 8)
unrelated Backend_Bound.Core_Bound.Ports_Utilization.Ports_Utilized_3m | TMA 5.1: the ALU, load and store \
      utilizations are per-port averages over core cycles, not shares of the 3+-uop cycles

node  Retiring.Light_Operations.FP_Arith.X87_Use Uops = Retiring * UOPS_X87 / UOPS_EXEC \
      | > 0.1 | Retired x87 floating-point uops (estimate from executed uops)
node  Retiring.Light_Operations.FP_Arith.FP_Scalar Uops = FP_SCALAR / RETIRED_SLOTS \
      | > 0.1 | Retired scalar SSE/AVX floating-point arithmetic uops
node  Retiring.Light_Operations.FP_Arith.FP_Vector Uops = FP_VECTOR / RETIRED_SLOTS \
      | > 0.1 | Retired packed SSE/AVX/AVX-512 floating-point arithmetic uops
partition Retiring.Light_Operations.FP_Arith   # TMA: FP_Arith = X87_Use + FP_Scalar + FP_Vector
node  Retiring.Light_Operations.FP_Arith.FP_Vector.FP_Vector_128b Uops = (FP_128D + FP_128S) / RETIRED_SLOTS \
      | > 0.1 | Retired 128-bit packed floating-point arithmetic uops
node  Retiring.Light_Operations.FP_Arith.FP_Vector.FP_Vector_256b Uops = (FP_256D + FP_256S) / RETIRED_SLOTS \
      | > 0.1 | Retired 256-bit packed floating-point arithmetic uops
# FP_Vector_512b: TMA 5.2 (perfmon sapphirerapids_metrics.json V1.3), which toplev 5.1-full lacks. perfmon
# adds FP_ARITH_INST_RETIRED2.512B_PACKED_HALF (AVX512-FP16) to it, as it adds the *_HALF events to FP_Vector
# and its 128b/256b children; this file keeps toplev 5.1's FP_ARITH_INST_RETIRED-only forms for all of them,
# so FP_Vector_512b leaves the half-precision term out too (the three widths then still add up to FP_Vector).
node  Retiring.Light_Operations.FP_Arith.FP_Vector.FP_Vector_512b Uops = (FP_512D + FP_512S) / RETIRED_SLOTS \
      | > 0.1 | Retired 512-bit packed floating-point arithmetic uops
partition Retiring.Light_Operations.FP_Arith.FP_Vector | FP_ARITH_INST_RETIRED.VECTOR's umask 0xFC is the \
      union of the 128B/256B/512B PACKED_DOUBLE/SINGLE umasks 0x04-0x80: the three widths add up to FP_Vector
node  Retiring.Light_Operations.Int_Operations.Int_Vector_128b Uops = (IV_ADD_128 + IV_VNNI_128) / RETIRED_SLOTS \
      | > 0.1 | Retired 128-bit integer vector add and VNNI uops
node  Retiring.Light_Operations.Int_Operations.Int_Vector_256b Uops = (IV_ADD_256 + IV_MUL_256 + IV_VNNI_256) / RETIRED_SLOTS \
      | > 0.1 | Retired 256-bit integer vector add, multiply and VNNI uops
partition Retiring.Light_Operations.Int_Operations   # TMA: Int_Operations = Int_Vector_128b + Int_Vector_256b
node  Retiring.Light_Operations.Other_Light_Ops.Nop_Instructions Slots = \
        Retiring.Light_Operations * NOP_INST / RETIRED_SLOTS \
      | > 0.10 | Slots retiring NOP instructions
node  Retiring.Light_Operations.Other_Light_Ops.Shuffles_256b Slots = \
        Retiring.Light_Operations * IV_SHUFFLES / RETIRED_SLOTS \
      | > 0.10 | Slots retiring 256-bit integer shuffles
unrelated Retiring.Light_Operations.Other_Light_Ops | TMA 5.1: Nop_Instructions and Shuffles_256b scale \
      Light_Operations by their share of retired slots; they are not bounded by Other_Light_Ops
node  Retiring.Heavy_Operations.Microcode_Sequencer.Assists Slots_est = Avg_Assist_Cost * ASSISTS_ANY / SLOTS \
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
unrelated Retiring.Heavy_Operations.Microcode_Sequencer.Assists | TMA 5.1: Assists charges every assist an \
      average 78 cycles, its children their own 99, 30 and 63: no sum or bound holds

# memory levels 4-6 (spr_server_ratios.py); Contested_Accesses, Data_Sharing, False_Sharing,
# Streaming_Stores and Local_MEM/Remote_MEM/Remote_Cache are further below (after the cost helpers).
let   L1_NO_MISS_CYCLES = max(CYCLES_MEM_ANY - MA_CYC_L1D, 0)
node  Backend_Bound.Memory_Bound.L1_Bound.DTLB_Load Clocks_est = \
        min(Mem_STLB_Hit_Cost * DTLB_LD_HIT_C1 + DTLB_LD_WALK, L1_NO_MISS_CYCLES) / CLKS \
      | > 0.10 | Cycles of load DTLB misses (STLB hits at a fixed cost, plus page walks)
node  Backend_Bound.Memory_Bound.L1_Bound.Store_Fwd_Blk Clocks_est = 13 * LD_STORE_FWD / CLKS \
      | > 0.10 | Cycles of loads blocked by stores that could not forward (13 each)
node  Backend_Bound.Memory_Bound.L1_Bound.L1_Latency_Dependency Clocks_est = \
        min(2 * (ALL_LOADS - FB_HIT - L1_MISS) * Dependent_Loads_Weight / 100, L1_NO_MISS_CYCLES) / CLKS \
      | > 0.10 | Cycles of dependent loads that hit L1D (pointer chasing)
node  Backend_Bound.Memory_Bound.L1_Bound.Split_Loads Clocks_Calculated = L1D_PENDING / L1_MISS_ANY * LD_NO_SR / CLKS \
      | > 0.30 | Cycles of loads that cross a cache line
node  Backend_Bound.Memory_Bound.L1_Bound.FB_Full Clocks_Calculated = FB_FULL / CLKS \
      | > 0.30 | Cycles a demand request waited for an L1D fill buffer
unrelated Backend_Bound.Memory_Bound.L1_Bound | TMA 5.1: the children are Clocks estimates of causes of \
      L1-hit load stalls, under a Stalls fraction; no sum or bound is given
node  Backend_Bound.Memory_Bound.L1_Bound.DTLB_Load.Load_STLB_Miss Clocks_Calculated = DTLB_LD_WALK / CLKS \
      | > 0.05 | Cycles a load page walk was active (loads that missed the STLB)
node  Backend_Bound.Memory_Bound.L1_Bound.DTLB_Load.Load_STLB_Hit Clocks_est = \
        Backend_Bound.Memory_Bound.L1_Bound.DTLB_Load - Backend_Bound.Memory_Bound.L1_Bound.DTLB_Load.Load_STLB_Miss \
      | > 0.05 | Cycles of load DTLB misses that hit the STLB
partition Backend_Bound.Memory_Bound.L1_Bound.DTLB_Load   # Load_STLB_Hit = DTLB_Load - Load_STLB_Miss
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
node  Backend_Bound.Memory_Bound.L3_Bound.SQ_Full Clocks = (XQ_FULL + L2_STALLS) / CLKS \
      | > 0.30 | Cycles the uncore queue was full or demand requests waited for L2 resources
unrelated Backend_Bound.Memory_Bound.L3_Bound | TMA 5.1: the children are a queue-full fraction and cost \
      estimates in clocks under a Stalls fraction; no sum or bound is given
node  Backend_Bound.Memory_Bound.DRAM_Bound.MEM_Bandwidth Clocks = min(CLK_THREAD, ORO_DRD_C4) / CLKS \
      | > 0.20 | Cycles with four or more data reads outstanding to memory (bandwidth)
node  Backend_Bound.Memory_Bound.DRAM_Bound.MEM_Latency Clocks = \
        min(CLK_THREAD, ORO_DRD_C1) / CLKS - Backend_Bound.Memory_Bound.DRAM_Bound.MEM_Bandwidth \
      | > 0.10 | Cycles with one to three data reads outstanding to memory (latency)
children-sum Backend_Bound.Memory_Bound.DRAM_Bound = min(CLK_THREAD, ORO_DRD_C1) / CLKS \
      | TMA 5.1: MEM_Latency = cycles with data reads outstanding / CLKS - MEM_Bandwidth
node  Backend_Bound.Memory_Bound.Store_Bound.Split_Stores Core_Utilization = SPLIT_STORES / CORE_CLKS \
      | > 0.20 | Rate of stores that cross a cache line
node  Backend_Bound.Memory_Bound.Store_Bound.DTLB_Store Clocks_est = \
        (Mem_STLB_Hit_Cost * DTLB_ST_HIT_C1 + DTLB_ST_WALK) / CORE_CLKS \
      | > 0.05 | Cycles of store DTLB misses
unrelated Backend_Bound.Memory_Bound.Store_Bound | TMA 5.1: the children are a rate per core clock and cost \
      estimates in clocks under a Stalls fraction; no sum or bound is given
node  Backend_Bound.Memory_Bound.Store_Bound.DTLB_Store.Store_STLB_Miss Clocks_Calculated = DTLB_ST_WALK / CORE_CLKS \
      | > 0.05 | Cycles a store page walk was active (stores that missed the STLB)
node  Backend_Bound.Memory_Bound.Store_Bound.DTLB_Store.Store_STLB_Hit Clocks_est = \
        Backend_Bound.Memory_Bound.Store_Bound.DTLB_Store - Backend_Bound.Memory_Bound.Store_Bound.DTLB_Store.Store_STLB_Miss \
      | > 0.05 | Cycles of store DTLB misses that hit the STLB
partition Backend_Bound.Memory_Bound.Store_Bound.DTLB_Store   # Store_STLB_Hit = DTLB_Store - Store_STLB_Miss
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

# memory level 4 with costs (spr_server_ratios.py): the load latencies are ns x Core_Frequency (GHz),
# which needs the run time (duration_time) and msr/tsc/; FB_FACTOR = 1 + FB_HIT / L1_MISS / 2.
let   FB_FACTOR = 1 + FB_HIT / L1_MISS / 2
let   MEM_L2_HIT_COST = 3 * Core_Frequency
let   MEM_XSNP_NONE_COST = 12 * Core_Frequency
let   MEM_LOCK_ST_FRACTION = LOCK_LOADS / ALL_STORES
let   ORO_DEMAND_RFO_C1 = min(CLK_THREAD, ORO_RFO_C1)
node  Backend_Bound.Memory_Bound.L1_Bound.Lock_Latency Clocks = (16 * max(0, LOCK_LOADS - L2_ALL_RFO) + \
        MEM_LOCK_ST_FRACTION * (Mem_L2_Store_Cost * L2_RFO_HIT + ORO_DEMAND_RFO_C1)) / CLKS \
      | > 0.20 | Cycles of lock operations
node  Backend_Bound.Memory_Bound.L2_Bound.L2_Hit_Latency Clocks_Retired = MEM_L2_HIT_COST * L2_HIT * FB_FACTOR / CLKS \
      | > 0.05 | Cycles of L2-hit latency (3 ns each)
unrelated Backend_Bound.Memory_Bound.L2_Bound | TMA 5.1: L2_Hit_Latency is a cost estimate in clocks of \
      retired loads, L2_Bound a stall fraction; no sum or bound is given
node  Backend_Bound.Memory_Bound.L3_Bound.L3_Hit_Latency Clocks_est = \
        (MEM_XSNP_NONE_COST - MEM_L2_HIT_COST) * L3_HIT * FB_FACTOR / CLKS \
      | > 0.10 | Cycles of L3-hit latency without snoops
node  Backend_Bound.Memory_Bound.Store_Bound.Store_Latency Clocks_est = (ST_L2_HIT * Mem_L2_Store_Cost * \
        (1 - MEM_LOCK_ST_FRACTION) + (1 - MEM_LOCK_ST_FRACTION) * ORO_DEMAND_RFO_C1) / CLKS \
      | > 0.10 | Cycles of store latency (L2 hits at a fixed cost, plus outstanding RFOs)

# Code_L2 (spr_server_ratios.py Code_L2_Miss / Code_L2_Hit)
node  Frontend_Bound.Fetch_Latency.ICache_Misses.Code_L2_Miss Clocks_Retired = ORO_CODE_C1 / CLKS \
      | > 0.05 | Cycles with an instruction fetch outstanding that missed L2
node  Frontend_Bound.Fetch_Latency.ICache_Misses.Code_L2_Hit Clocks_Retired = \
        max(0, Frontend_Bound.Fetch_Latency.ICache_Misses - Frontend_Bound.Fetch_Latency.ICache_Misses.Code_L2_Miss) \
      | > 0.05 | I-cache miss cycles of fetches that hit L2
partition Frontend_Bound.Fetch_Latency.ICache_Misses   # Code_L2_Hit = max(0, ICache_Misses - Code_L2_Miss)

# snoop and remote-memory costs (spr_server_ratios.py, TMA 5.1-full; DS = 1): ns x Core_Frequency
let   MEM_XSNP_HITM_COST = 28 * Core_Frequency
let   MEM_XSNP_HIT_COST = 27 * Core_Frequency
let   MEM_LOCAL_DRAM_COST = 66.5 * Core_Frequency
let   MEM_REMOTE_DRAM_COST = 131 * Core_Frequency
let   MEM_REMOTE_HITM_COST = 120 * Core_Frequency
let   MEM_REMOTE_FWD_COST = 120 * Core_Frequency
# toplev True_XSNP_HitM_Fraction: the share of forwarded L3 hits that were modified lines
let   TRUE_XSNP_HITM_FRACTION = OCR_DRD_HITM / (OCR_DRD_HITM + OCR_DRD_HWF)
let   LOAD_XSNP_HITM = XSNP_FWD * TRUE_XSNP_HITM_FRACTION
let   LOAD_XSNP_HIT = XSNP_NO_FWD + XSNP_FWD * (1 - TRUE_XSNP_HITM_FRACTION)
node  Backend_Bound.Memory_Bound.L3_Bound.Contested_Accesses Clocks_est = ((MEM_XSNP_HITM_COST - MEM_L2_HIT_COST) * \
        LOAD_XSNP_HITM + (MEM_XSNP_HIT_COST - MEM_L2_HIT_COST) * XSNP_MISS) * FB_FACTOR / CLKS \
      | > 0.05 | Cycles of loads served by a modified line in another core's cache
node  Backend_Bound.Memory_Bound.L3_Bound.Data_Sharing Clocks_est = \
        (MEM_XSNP_HIT_COST - MEM_L2_HIT_COST) * LOAD_XSNP_HIT * FB_FACTOR / CLKS \
      | > 0.05 | Cycles of loads served by a clean line shared with another core
node  Backend_Bound.Memory_Bound.Store_Bound.False_Sharing Clocks_est = \
        (MEM_REMOTE_HITM_COST * OCR_RFO_RHITM + MEM_XSNP_HITM_COST * OCR_RFO_HITM) / CLKS \
      | > 0.05 | Cycles of RFOs that found the line modified in another core's or socket's cache
node  Backend_Bound.Memory_Bound.Store_Bound.Streaming_Stores Clocks_est = 9 * OCR_STREAM_WR / CLKS \
      | > 0.20 | Cycles of streaming (non-temporal) stores (9 each)
node  Backend_Bound.Memory_Bound.DRAM_Bound.MEM_Latency.Local_MEM Clocks_est = \
        (MEM_LOCAL_DRAM_COST - MEM_XSNP_NONE_COST) * L3M_LOCAL_DRAM * FB_FACTOR / CLKS \
      | > 0.10 | Cycles of loads served by local DRAM
node  Backend_Bound.Memory_Bound.DRAM_Bound.MEM_Latency.Remote_MEM Clocks_est = \
        (MEM_REMOTE_DRAM_COST - MEM_XSNP_NONE_COST) * L3M_REMOTE_DRAM * FB_FACTOR / CLKS \
      | > 0.10 | Cycles of loads served by remote DRAM
node  Backend_Bound.Memory_Bound.DRAM_Bound.MEM_Latency.Remote_Cache Clocks_est = \
        ((MEM_REMOTE_HITM_COST - MEM_XSNP_NONE_COST) * L3M_REMOTE_HITM + \
         (MEM_REMOTE_FWD_COST - MEM_XSNP_NONE_COST) * L3M_REMOTE_FWD) * FB_FACTOR / CLKS \
      | > 0.05 | Cycles of loads served by a remote socket's cache
# MBA_Stalls: TMA 5.2 (perfmon sapphirerapids_metrics.json V1.3), a child of MEM_Bandwidth that toplev
# 5.1-full lacks; threshold as perfmon (> 10%, with MEM_Bandwidth > 20% and its ancestors').
node  Backend_Bound.Memory_Bound.DRAM_Bound.MEM_Bandwidth.MBA_Stalls Clocks = MBA_STALLS / CLKS \
      | > 0.10 | Cycles stalled by memory bandwidth allocation (MBA) throttling
unrelated Backend_Bound.Memory_Bound.DRAM_Bound.MEM_Bandwidth | TMA 5.2: MBA_Stalls counts cycles the MBA \
      throttle stalled the core, MEM_Bandwidth cycles with four or more data reads outstanding; Intel \
      gives no sum or bound between them
unrelated Backend_Bound.Memory_Bound.DRAM_Bound.MEM_Latency | TMA 5.1: Local_MEM, Remote_MEM and Remote_Cache \
      are cost estimates of retired loads (latency x count), MEM_Latency a fraction of cycles with reads \
      outstanding; no sum or bound is given

cpi-cycles        CLKS
cpi-instructions  INST
cpi   Base               derived = Retiring                            | Ideal retiring: retired uops at full width
cpi   Branch_Mispredict  derived = Bad_Speculation.Branch_Mispredicts  | Slots lost to branch mispredictions (PERF_METRICS or TOPDOWN.BR_MISPREDICT_SLOTS)
cpi   Machine_Clear      derived = Bad_Speculation.Machine_Clears      | Slots lost to machine clears
cpi   Frontend_Latency   derived = Frontend_Bound.Fetch_Latency        | Cycles the frontend delivered nothing
cpi   Frontend_Bandwidth derived = Frontend_Bound.Fetch_Bandwidth      | Cycles the frontend delivered less than the width
cpi   Memory             derived = Backend_Bound.Memory_Bound          | Memory-bound slots (PERF_METRICS or TOPDOWN.MEMORY_BOUND_SLOTS)
cpi   Core               derived = Backend_Bound.Core_Bound            | Core-bound slots

# --- locate: the event whose samples point at the code behind a node ------------------------------
# toplev 5.1-full spr_server_ratios.py's sample events (its `sample = [...]`, the first where it lists
# several; :pp there is PEBS, precise IPs where the event has them), in libpfm4's spelling for spr
# (FRONTEND_RETIRED latency events checked against perfmon's MSR_PEBS_FRONTEND values). Nodes
# toplev gives none lack a line. `tdctl run --hotspots=NODE` samples it.
locate Frontend_Bound                                     FRONTEND_RETIRED:LATENCY_GE_4                | FRONTEND_RETIRED.LATENCY_GE_4:pp
locate Frontend_Bound.Fetch_Latency                       FRONTEND_RETIRED:LATENCY_GE_16               | FRONTEND_RETIRED.LATENCY_GE_16:pp
locate Frontend_Bound.Fetch_Latency.ICache_Misses         FRONTEND_RETIRED:L2_MISS                     | FRONTEND_RETIRED.L2_MISS:pp
locate Frontend_Bound.Fetch_Latency.ITLB_Misses           FRONTEND_RETIRED:STLB_MISS                   | FRONTEND_RETIRED.STLB_MISS:pp
locate Frontend_Bound.Fetch_Latency.Branch_Resteers       BR_MISP_RETIRED:ALL_BRANCHES                 | BR_MISP_RETIRED.ALL_BRANCHES
locate Frontend_Bound.Fetch_Latency.MS_Switches           IDQ:MS_SWITCHES                              | IDQ.MS_SWITCHES
locate Frontend_Bound.Fetch_Latency.DSB_Switches          FRONTEND_RETIRED:DSB_MISS                    | FRONTEND_RETIRED.DSB_MISS:pp
locate Frontend_Bound.Fetch_Bandwidth                     FRONTEND_RETIRED:LATENCY_GE_2_BUBBLES_GE_1   | FRONTEND_RETIRED.LATENCY_GE_2_BUBBLES_GE_1
locate Frontend_Bound.Fetch_Bandwidth.MITE                FRONTEND_RETIRED:ANY_DSB_MISS                | FRONTEND_RETIRED.ANY_DSB_MISS
locate Bad_Speculation.Branch_Mispredicts                 cpu/event=0xa4,umask=0x8/                    | TOPDOWN.BR_MISPREDICT_SLOTS (0xA4/0x08: libpfm4 spr encodes TOPDOWN:BR_MISPREDICT_SLOTS as 0x800)
locate Bad_Speculation.Machine_Clears                     MACHINE_CLEARS:COUNT                         | MACHINE_CLEARS.COUNT
locate Backend_Bound                                      cpu/event=0xa4,umask=0x2/                    | TOPDOWN.BACKEND_BOUND_SLOTS (0xA4/0x02: libpfm4 spr encodes TOPDOWN:BACKEND_BOUND_SLOTS as 0x200)
locate Backend_Bound.Memory_Bound.L1_Bound                MEM_LOAD_RETIRED:L1_HIT                      | MEM_LOAD_RETIRED.L1_HIT
locate Backend_Bound.Memory_Bound.L2_Bound                MEM_LOAD_RETIRED:L2_HIT                      | MEM_LOAD_RETIRED.L2_HIT
locate Backend_Bound.Memory_Bound.L3_Bound                MEM_LOAD_RETIRED:L3_HIT                      | MEM_LOAD_RETIRED.L3_HIT:pp
locate Backend_Bound.Memory_Bound.DRAM_Bound              MEM_LOAD_RETIRED:L3_MISS                     | MEM_LOAD_RETIRED.L3_MISS
locate Backend_Bound.Memory_Bound.Store_Bound             MEM_INST_RETIRED:ALL_STORES                  | MEM_INST_RETIRED.ALL_STORES:pp
locate Backend_Bound.Core_Bound.Divider                   ARITH:DIV_ACTIVE                             | ARITH.DIV_ACTIVE
locate Backend_Bound.Core_Bound.Serializing_Operation     RESOURCE_STALLS:SCOREBOARD                   | RESOURCE_STALLS.SCOREBOARD
locate Retiring                                           UOPS_RETIRED:SLOTS                           | UOPS_RETIRED.SLOTS
locate Retiring.Light_Operations                          INST_RETIRED:PREC_DIST                       | INST_RETIRED.PREC_DIST
locate Retiring.Heavy_Operations                          UOPS_RETIRED:HEAVY                           | UOPS_RETIRED.HEAVY
locate Retiring.Heavy_Operations.Microcode_Sequencer      UOPS_RETIRED:MS                              | UOPS_RETIRED.MS
