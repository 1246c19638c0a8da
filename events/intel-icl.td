# intel-icl.td — Intel Ice Lake client (icl); Ice Lake-SP (icx) is intel-icx.td (generated from perfmon, TMA 5.1)
# Level 1 from the SLOTS fixed counter + PERF_METRICS; L2/L3 (all TMA 5.1 level-3 nodes) and the
# level-4..6 nodes of toplev 5.1-full whose events libpfm4 and perf's tables publish, from
# general-purpose events; raw forms from Intel perfmon ICL V1.24 (icelake_core.json) for
# ARITH.FP_DIVIDER_ACTIVE (FP_Divider/INT_Divider), which libpfm4 4.13 lacks, and for the OCR events
# of False_Sharing and Streaming_Stores (offcore-response MSR value as offcore_rsp=, config1).
# Event descriptions carry the perfmon encoding in brackets for the libpfm4 check.
pmu      icl
title    Intel Ice Lake
version  TMA 5.1 (intel/perfmon ICL/metrics/icelake_metrics.json, 06/17/2025)
note     L1 reads PERF_METRICS through perf's topdown-* events: perf reports each as a count in
note     slots (slots * field / 0xff), so a node is TD_X / PM_SUM (sum of the four L1 counts), as
note     perfmon and toplev do; SLOTS (fixed counter 3) must lead the group.
note     libpfm4 4.13 has no TOPDOWN_M pseudo-events for icl, so the four metric events are written
note     in perf raw form (event=0x00, umask 0x80-0x83, the kernel's topdown-* encodings).
note     Agrees with toplev 5.1-full on the oracle case icl-l2-perfmetrics (all L1/L2 nodes).
note     Level 3 follows pmu-tools icl_client_ratios.py (TMA 5.1-full) and agrees with toplev 5.1-full
note     on oracle case icl-l3-pm-fe-icache (every L1-L3 node and IPC, CPI, CLKS, SLOTS).
note     icx_server_ratios.py (same commit) has the same level-3 formulas and constants except that it
note     has no LSD node (Ice Lake-SP): on icx, Fetch_Bandwidth.LSD is extra.
note     From Ice Lake on, TMA nodes are valid per logical processor; SMT_on only selects
note     CORE_CLKS (CPU_CLK_UNHALTED.DISTRIBUTED).
note     CPI stack: cpi-stack.md 2.7.2 (ICX column) at L2 granularity plus the memory split by the
note     nested CYCLE_ACTIVITY stall counters; the resteer (refill) part of mispredicts stays in
note     Frontend_Latency.
note     OCR (offcore-response) events: perfmon ICL V1.24 event 0xB7 umask 0x01 with MSR 0x1A6 =
note     MSRValue, perf's offcore_rsp= term (sysfs cpu/format/offcore_rsp, config1:0-63); the kernel moves a
note     second value to MSR 0x1A7 (event 0xBB). Two MSRs: an 'extra offcore_rsp 2' line keeps two per group.

const    W 5
param    SMT_on 0
const    BAClear_Cost 10         # cycles per BACLEARS.ANY (TMA 5.1 ICL Unknown_Branches)
const    MS_Switches_Cost 3      # cycles per switch to the microcode sequencer (TMA 5.1 ICL MS_Switches)
const    Avg_Assist_Cost 34      # cycles per microcode assist (TMA 5.1 ICL Assists)
const    Mem_STLB_Hit_Cost 7     # cycles per DTLB miss that hits the STLB (TMA 5.1 ICL DTLB_Load, DTLB_Store)
const    Dependent_Loads_Weight 20 # % of loads taken as dependent (TMA 5.1 ICL L1_Latency_Dependency)
const    Mem_L2_Store_Cost 10    # cycles per RFO that hits L2 (TMA 5.1 ICL Store_Latency, Lock_Latency)

event    SLOTS_EV        TOPDOWN:SLOTS                             | TOPDOWN.SLOTS, issue slots (fixed counter 3, leader of the PERF_METRICS group) [fixed 0x00/0x04]
event    TD_RET          cpu/event=0x0,umask=0x80/                 | PERF_METRICS.RETIRING (perf topdown-retiring), in slots [pseudo 0x00/0x80]
event    TD_BAD          cpu/event=0x0,umask=0x81/                 | PERF_METRICS.BAD_SPECULATION (perf topdown-bad-spec), in slots [pseudo 0x00/0x81]
event    TD_FE           cpu/event=0x0,umask=0x82/                 | PERF_METRICS.FRONTEND_BOUND (perf topdown-fe-bound), in slots [pseudo 0x00/0x82]
event    TD_BE           cpu/event=0x0,umask=0x83/                 | PERF_METRICS.BACKEND_BOUND (perf topdown-be-bound), in slots [pseudo 0x00/0x83]
event    CLK_THREAD      CPU_CLK_UNHALTED:THREAD_P                 | CPU_CLK_UNHALTED.THREAD, unhalted core clocks of this thread [0x3C/0x00]
event    CLK_DISTRIBUTED CPU_CLK_UNHALTED:DISTRIBUTED              | CPU_CLK_UNHALTED.DISTRIBUTED, core clocks distributed to this thread [0xEC/0x02]
event    INST            INSTRUCTION_RETIRED                       | INST_RETIRED.ANY, instructions retired [0xC0/0x00]
event    REF_TSC         UNHALTED_REFERENCE_CYCLES                 | CPU_CLK_UNHALTED.REF_TSC, reference cycles (fixed counter 2) [fixed 0x00/0x03]
event    UOP_DROPPING    INT_MISC:UOP_DROPPING                     | INT_MISC.UOP_DROPPING, uops the frontend dropped (TMA subtracts them from Frontend_Bound) [0x0D/0x10]
event    CLEARS_COUNT    INT_MISC:CLEARS_COUNT                     | INT_MISC.CLEARS_COUNT, pipeline clears [0x0D/0x01 c=1 e=1]
event    FE_LAT_CYC      IDQ_UOPS_NOT_DELIVERED:CYCLES_0_UOPS_DELIV_CORE | IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE, cycles with 0 uops delivered [0x9C/0x01 c=5]
event    BR_MISP         BR_MISP_RETIRED:ALL_BRANCHES              | BR_MISP_RETIRED.ALL_BRANCHES, mispredicted branches retired [0xC5/0x00]
event    MC_COUNT        MACHINE_CLEARS:COUNT                      | MACHINE_CLEARS.COUNT, machine clears [0xC3/0x01 c=1 e=1]
event    STALLS_TOTAL    CYCLE_ACTIVITY:STALLS_TOTAL               | CYCLE_ACTIVITY.STALLS_TOTAL, execution stall cycles [0xA3/0x04 c=4]
event    STALLS_MEM_ANY  CYCLE_ACTIVITY:STALLS_MEM_ANY             | CYCLE_ACTIVITY.STALLS_MEM_ANY, execution stalls with a load outstanding [0xA3/0x14 c=20]
event    STALLS_L1D      CYCLE_ACTIVITY:STALLS_L1D_MISS            | CYCLE_ACTIVITY.STALLS_L1D_MISS [0xA3/0x0C c=12]
event    STALLS_L2       CYCLE_ACTIVITY:STALLS_L2_MISS             | CYCLE_ACTIVITY.STALLS_L2_MISS [0xA3/0x05 c=5]
event    STALLS_L3       CYCLE_ACTIVITY:STALLS_L3_MISS             | CYCLE_ACTIVITY.STALLS_L3_MISS [0xA3/0x06 c=6]
event    EXE_1           EXE_ACTIVITY:1_PORTS_UTIL                 | EXE_ACTIVITY.1_PORTS_UTIL [0xA6/0x02]
event    EXE_2           EXE_ACTIVITY:2_PORTS_UTIL                 | EXE_ACTIVITY.2_PORTS_UTIL [0xA6/0x04]
event    BOUND_ON_STORES EXE_ACTIVITY:BOUND_ON_STORES              | EXE_ACTIVITY.BOUND_ON_STORES, store buffer full [0xA6/0x40 c=2]
event    RETIRE_SLOTS    UOPS_RETIRED:SLOTS                        | UOPS_RETIRED.SLOTS, retirement slots used [0xC2/0x02]
event    UOPS_ISSUED     UOPS_ISSUED:ANY                           | UOPS_ISSUED.ANY [0x0E/0x01]
event    MS_UOPS         IDQ:MS_UOPS                               | IDQ.MS_UOPS, uops from the microcode sequencer [0x79/0x30]
event    MITE_UOPS       IDQ:MITE_UOPS                             | IDQ.MITE_UOPS, uops from the legacy decoders [0x79/0x04]
event    DEC0            UOPS_DECODED:DEC0                         | UOPS_DECODED.DEC0, uops decoded by decoder 0 [0x56/0x01]
event    DEC0_C1         UOPS_DECODED:DEC0:c=1                     | UOPS_DECODED.DEC0:c1, cycles decoder 0 decoded any uop [0x56/0x01 c=1]
event    ICACHE_STALL    ICACHE_16B:IFDATA_STALL                   | ICACHE_DATA.STALLS (ICACHE_16B.IFDATA_STALL), I-cache miss stall cycles [0x80/0x04]
event    ITLB_STALL      ICACHE_64B:IFTAG_STALL                    | ICACHE_TAG.STALLS (ICACHE_64B.IFTAG_STALL), I-TLB miss stall cycles [0x83/0x04]
event    RESTEER         INT_MISC:CLEAR_RESTEER_CYCLES             | INT_MISC.CLEAR_RESTEER_CYCLES [0x0D/0x80]
event    BACLEARS        BACLEARS:ANY                              | BACLEARS.ANY [0xE6/0x01]
event    L2_HIT          MEM_LOAD_RETIRED:L2_HIT                   | MEM_LOAD_RETIRED.L2_HIT [0xD1/0x02]
event    FB_HIT          MEM_LOAD_RETIRED:FB_HIT                   | MEM_LOAD_RETIRED.FB_HIT [0xD1/0x40]
event    L1_MISS         MEM_LOAD_RETIRED:L1_MISS                  | MEM_LOAD_RETIRED.L1_MISS [0xD1/0x08]
event    L2_MISS         MEM_LOAD_RETIRED:L2_MISS                  | MEM_LOAD_RETIRED.L2_MISS [0xD1/0x10]
event    L3_MISS         MEM_LOAD_RETIRED:L3_MISS                  | MEM_LOAD_RETIRED.L3_MISS [0xD1/0x20]
event    FB_FULL_PERIODS L1D_PEND_MISS:FB_FULL_PERIODS             | L1D_PEND_MISS.FB_FULL_PERIODS, fill-buffer-full episodes [0x48/0x02 c=1 e=1]
event    DIV_ACTIVE      ARITH:DIVIDER_ACTIVE                      | ARITH.DIVIDER_ACTIVE, divider busy cycles [0x14/0x09 c=1]
# level-3 events (TMA 5.1 level-3 nodes below)
event    LCP_STALL       ILD_STALL:LCP                             | DECODE.LCP (ILD_STALL.LCP), decoder stalls on length-changing prefixes [0x87/0x01]
event    MS_SWITCHES     IDQ:MS_SWITCHES                           | IDQ.MS_SWITCHES, switches from DSB/MITE to the microcode sequencer [0x79/0x30 c=1 e=1]
event    DSB2MITE_PEN    DSB2MITE_SWITCHES:PENALTY_CYCLES          | DSB2MITE_SWITCHES.PENALTY_CYCLES, DSB-to-MITE switch penalty cycles [0xAB/0x02]
event    MITE_ANY        IDQ:MITE_CYCLES_ANY                       | IDQ.MITE_CYCLES_ANY, cycles MITE delivered any uop [0x79/0x04 c=1]
event    MITE_OK         IDQ:MITE_CYCLES_OK                        | IDQ.MITE_CYCLES_OK, cycles MITE delivered the optimal number of uops [0x79/0x04 c=5]
event    DSB_ANY         IDQ:DSB_CYCLES_ANY                        | IDQ.DSB_CYCLES_ANY, cycles the DSB delivered any uop [0x79/0x08 c=1]
event    DSB_OK          IDQ:DSB_CYCLES_OK                         | IDQ.DSB_CYCLES_OK, cycles the DSB delivered the optimal number of uops [0x79/0x08 c=5]
event    LSD_ACTIVE      LSD:CYCLES_ACTIVE                         | LSD.CYCLES_ACTIVE, cycles the loop stream detector delivered any uop [0xA8/0x01 c=1]
event    LSD_OK          LSD:CYCLES_OK                             | LSD.CYCLES_OK, cycles the LSD delivered the optimal number of uops [0xA8/0x01 c=5]
event    MS_CYCLES       IDQ:MS_UOPS:c=1                           | IDQ.MS_UOPS:c1, cycles the microcode sequencer delivered any uop [0x79/0x30 c=1]
event    SCOREBOARD      RESOURCE_STALLS:SCOREBOARD                | RESOURCE_STALLS.SCOREBOARD, stalls on serializing operations [0xA2/0x02]
# EXE_0 is what toplev and perf count for TMA's EXE_ACTIVITY.3_PORTS_UTIL:u0x80: both write it as
# cpu/exe_activity.3_ports_util,umask=0x80/ (perf: icl-metrics.json tma_ports_utilized_0), and perf ORs a
# repeated term into the field (tools/perf/util/pmu.c:1282-1297, linux 6.12.117): umask 0x08 | 0x80 = 0x88,
# cycles with 3 ports or with no port utilized, not EXE_BOUND_0_PORTS (0x80) alone as TMA means it
event    EXE_0           cpu/event=0xa6,umask=0x88/                | as perf counts EXE_ACTIVITY.3_PORTS_UTIL:u0x80 (umask 0x08|0x80): cycles with 3 or no ports utilized [0xA6/0x88]
event    UOPS_X87        UOPS_EXECUTED:X87                         | UOPS_EXECUTED.X87, x87 uops executed [0xB1/0x10]
event    UOPS_EXEC       UOPS_EXECUTED:THREAD                      | UOPS_EXECUTED.THREAD, uops executed by this thread [0xB1/0x01]
event    FP_SCALAR       FP_ARITH_INST_RETIRED:SCALAR              | FP_ARITH_INST_RETIRED.SCALAR, scalar FP arithmetic instructions retired [0xC7/0x03]
event    FP_VECTOR       FP_ARITH_INST_RETIRED:VECTOR              | FP_ARITH_INST_RETIRED.VECTOR, vector FP arithmetic instructions retired [0xC7/0xFC]
event    MC_MEM_ORDER    MACHINE_CLEARS:MEMORY_ORDERING            | MACHINE_CLEARS.MEMORY_ORDERING, memory-ordering machine clears [0xC3/0x02]
event    MEM_INST        MEM_INST_RETIRED:ANY                      | MEM_INST_RETIRED.ANY, retired memory instructions [0xD0/0x83]
event    BR_INST         BR_INST_RETIRED:ALL_BRANCHES              | BR_INST_RETIRED.ALL_BRANCHES, retired branches [0xC4/0x00]
# level-4..6 and info-metric events (TMA 5.1 nodes below); libpfm4 icl names, perfmon encodings from
# Linux perf's pmu-events/arch/x86/icelake/*.json. libpfm4 4.13 cannot combine FP_ARITH_INST_RETIRED
# umasks on icl, so each width is its own event, as toplev counts them.
event    ORO_CODE_C1     OFFCORE_REQUESTS_OUTSTANDING:CYCLES_WITH_DEMAND_CODE_RD | OFFCORE_REQUESTS_OUTSTANDING.CYCLES_WITH_DEMAND_CODE_RD, cycles with an L2-miss code read outstanding [0x60/0x02 c=1]
event    ITLB_WALK_ACT   ITLB_MISSES:WALK_ACTIVE                   | ITLB_MISSES.WALK_ACTIVE, cycles a code page walk was active [0x85/0x10 c=1]
event    ITLB_WC_4K      ITLB_MISSES:WALK_COMPLETED_4K             | ITLB_MISSES.WALK_COMPLETED_4K [0x85/0x02]
event    ITLB_WC_2M      ITLB_MISSES:WALK_COMPLETED_2M_4M          | ITLB_MISSES.WALK_COMPLETED_2M_4M [0x85/0x04]
event    DECODERS_C1     INST_DECODED:DECODERS:c=1                 | INST_DECODED.DECODERS:c1, cycles at least one decoder was utilized [0x55/0x01 c=1]
event    DECODERS_C2     INST_DECODED:DECODERS:c=2                 | INST_DECODED.DECODERS:c2, cycles at least two decoders were utilized [0x55/0x01 c=2]
event    MITE_UOPS_C4    IDQ:MITE_UOPS:c=4                         | IDQ.MITE_UOPS:c4, cycles MITE delivered 4 or more uops [0x79/0x04 c=4]
event    MITE_UOPS_C5    IDQ:MITE_UOPS:c=5                         | IDQ.MITE_UOPS:c5, cycles MITE delivered 5 uops [0x79/0x04 c=5]
event    PAUSE_INST      MISC_RETIRED:PAUSE_INST                   | MISC_RETIRED.PAUSE_INST, retired PAUSE instructions [0xCC/0x40]
event    EXEC_GE3        UOPS_EXECUTED:CYCLES_GE_3                 | UOPS_EXECUTED.CYCLES_GE_3, cycles with 3 or more uops executed [0xB1/0x01 c=3]
event    VEC_MISMATCH    UOPS_ISSUED:VECTOR_WIDTH_MISMATCH         | UOPS_ISSUED.VECTOR_WIDTH_MISMATCH, blend uops inserted for SSE/AVX width mixing [0x0E/0x02]
event    PORT_0          UOPS_DISPATCHED:PORT_0                    | UOPS_DISPATCHED.PORT_0 [0xA1/0x01]
event    PORT_1          UOPS_DISPATCHED:PORT_1                    | UOPS_DISPATCHED.PORT_1 [0xA1/0x02]
event    PORT_2_3        UOPS_DISPATCHED:PORT_2_3                  | UOPS_DISPATCHED.PORT_2_3, load ports [0xA1/0x04]
event    PORT_4_9        UOPS_DISPATCHED:PORT_4_9                  | UOPS_DISPATCHED.PORT_4_9, store-data ports [0xA1/0x10]
event    PORT_5          UOPS_DISPATCHED:PORT_5                    | UOPS_DISPATCHED.PORT_5 [0xA1/0x20]
event    PORT_6          UOPS_DISPATCHED:PORT_6                    | UOPS_DISPATCHED.PORT_6 [0xA1/0x40]
event    PORT_7_8        UOPS_DISPATCHED:PORT_7_8                  | UOPS_DISPATCHED.PORT_7_8, store-address ports [0xA1/0x80]
event    FP_128D         FP_ARITH_INST_RETIRED:128B_PACKED_DOUBLE  | FP_ARITH_INST_RETIRED.128B_PACKED_DOUBLE [0xC7/0x04]
event    FP_128S         FP_ARITH_INST_RETIRED:128B_PACKED_SINGLE  | FP_ARITH_INST_RETIRED.128B_PACKED_SINGLE [0xC7/0x08]
event    FP_256D         FP_ARITH_INST_RETIRED:256B_PACKED_DOUBLE  | FP_ARITH_INST_RETIRED.256B_PACKED_DOUBLE [0xC7/0x10]
event    FP_256S         FP_ARITH_INST_RETIRED:256B_PACKED_SINGLE  | FP_ARITH_INST_RETIRED.256B_PACKED_SINGLE [0xC7/0x20]
event    FP_512D         FP_ARITH_INST_RETIRED:512B_PACKED_DOUBLE  | FP_ARITH_INST_RETIRED.512B_PACKED_DOUBLE [0xC7/0x40]
event    FP_512S         FP_ARITH_INST_RETIRED:512B_PACKED_SINGLE  | FP_ARITH_INST_RETIRED.512B_PACKED_SINGLE [0xC7/0x80]
event    NOP_INST        INST_RETIRED:NOP                          | INST_RETIRED.NOP, retired NOP instructions [0xC0/0x02]
event    ASSISTS_ANY     ASSISTS:ANY                               | ASSISTS.ANY, microcode assists [0xC1/0x07]
event    ASSISTS_FP      ASSISTS:FP                                | ASSISTS.FP, floating-point assists [0xC1/0x02]
event    UOPS_EXEC_C1    UOPS_EXECUTED:THREAD:c=1                  | UOPS_EXECUTED.THREAD:c1, cycles this thread executed any uop [0xB1/0x01 c=1]
event    L1D_PENDING     L1D_PEND_MISS:PENDING                     | L1D_PEND_MISS.PENDING, outstanding L1D misses per cycle [0x48/0x01]
event    L1D_PEND_C1     L1D_PEND_MISS:PENDING:c=1                 | L1D_PEND_MISS.PENDING_CYCLES, cycles with an L1D miss outstanding [0x48/0x01 c=1]
event    DTLB_LD_HIT_C1  DTLB_LOAD_MISSES:STLB_HIT:c=1             | DTLB_LOAD_MISSES.STLB_HIT:c1, cycles with a load DTLB miss that hit the STLB [0x08/0x20 c=1]
event    DTLB_LD_WALK    DTLB_LOAD_MISSES:WALK_ACTIVE              | DTLB_LOAD_MISSES.WALK_ACTIVE, cycles a load page walk was active [0x08/0x10 c=1]
event    DTLB_LD_WC_4K   DTLB_LOAD_MISSES:WALK_COMPLETED_4K        | DTLB_LOAD_MISSES.WALK_COMPLETED_4K [0x08/0x02]
event    DTLB_LD_WC_2M   DTLB_LOAD_MISSES:WALK_COMPLETED_2M_4M     | DTLB_LOAD_MISSES.WALK_COMPLETED_2M_4M [0x08/0x04]
event    DTLB_LD_WC      DTLB_LOAD_MISSES:WALK_COMPLETED           | DTLB_LOAD_MISSES.WALK_COMPLETED, load page walks completed, all sizes (4K 0x02 + 2M/4M 0x04 + 1G 0x08) [0x08/0x0E]
event    DTLB_ST_HIT_C1  DTLB_STORE_MISSES:STLB_HIT:c=1            | DTLB_STORE_MISSES.STLB_HIT:c1, cycles with a store DTLB miss that hit the STLB [0x49/0x20 c=1]
event    DTLB_ST_WALK    DTLB_STORE_MISSES:WALK_ACTIVE             | DTLB_STORE_MISSES.WALK_ACTIVE, cycles a store page walk was active [0x49/0x10 c=1]
event    DTLB_ST_WC_4K   DTLB_STORE_MISSES:WALK_COMPLETED_4K       | DTLB_STORE_MISSES.WALK_COMPLETED_4K [0x49/0x02]
event    DTLB_ST_WC_2M   DTLB_STORE_MISSES:WALK_COMPLETED_2M_4M    | DTLB_STORE_MISSES.WALK_COMPLETED_2M_4M [0x49/0x04]
event    DTLB_ST_WC      DTLB_STORE_MISSES:WALK_COMPLETED          | DTLB_STORE_MISSES.WALK_COMPLETED, store page walks completed, all sizes (4K 0x02 + 2M/4M 0x04 + 1G 0x08) [0x49/0x0E]
event    CYCLES_MEM_ANY  CYCLE_ACTIVITY:CYCLES_MEM_ANY             | CYCLE_ACTIVITY.CYCLES_MEM_ANY, cycles with a load outstanding [0xA3/0x10 c=16]
event    CYCLES_L1D_MISS CYCLE_ACTIVITY:CYCLES_L1D_MISS            | CYCLE_ACTIVITY.CYCLES_L1D_MISS, cycles with an L1D miss outstanding [0xA3/0x08 c=8]
event    LD_STORE_FWD    LD_BLOCKS:STORE_FORWARD                   | LD_BLOCKS.STORE_FORWARD, loads blocked by a store that cannot forward [0x03/0x02]
event    LD_NO_SR        LD_BLOCKS:NO_SR                           | LD_BLOCKS.NO_SR, split loads blocked for lack of split registers [0x03/0x08]
event    LD_4K_ALIAS     LD_BLOCKS_PARTIAL:ADDRESS_ALIAS           | LD_BLOCKS_PARTIAL.ADDRESS_ALIAS, loads falsely blocked by 4K aliasing [0x07/0x01]
event    FB_FULL         L1D_PEND_MISS:FB_FULL                     | L1D_PEND_MISS.FB_FULL, cycles a demand request waited for a fill buffer [0x48/0x02]
event    L2_STALL        L1D_PEND_MISS:L2_STALL                    | L1D_PEND_MISS.L2_STALL, cycles a demand request waited for L2 resources [0x48/0x04]
event    ALL_LOADS       MEM_INST_RETIRED:ALL_LOADS                | MEM_INST_RETIRED.ALL_LOADS [0xD0/0x81]
event    SPLIT_STORES    MEM_INST_RETIRED:SPLIT_STORES             | MEM_INST_RETIRED.SPLIT_STORES [0xD0/0x42]
event    ORO_DRD_C1      OFFCORE_REQUESTS_OUTSTANDING:CYCLES_WITH_DATA_RD | OFFCORE_REQUESTS_OUTSTANDING.CYCLES_WITH_DATA_RD [0x60/0x08 c=1]
event    ORO_DRD_C4      OFFCORE_REQUESTS_OUTSTANDING:ALL_DATA_RD:c=4 | OFFCORE_REQUESTS_OUTSTANDING.ALL_DATA_RD:c4 [0x60/0x08 c=4]
event    TSC             msr/event=0x0/                            | msr/tsc/, time-stamp counter (perf msr PMU, event 0) [msr tsc]
event    ORO_RFO_C1      OFFCORE_REQUESTS_OUTSTANDING:CYCLES_WITH_DEMAND_RFO | OFFCORE_REQUESTS_OUTSTANDING.CYCLES_WITH_DEMAND_RFO [0x60/0x04 c=1]
event    L2_ALL_RFO      L2_RQSTS:ALL_RFO                          | L2_RQSTS.ALL_RFO [0x24/0xE2]
event    L2_RFO_HIT      L2_RQSTS:RFO_HIT                          | L2_RQSTS.RFO_HIT [0x24/0xC2]
event    LOCK_LOADS      MEM_INST_RETIRED:LOCK_LOADS               | MEM_INST_RETIRED.LOCK_LOADS [0xD0/0x21]
event    ALL_STORES      MEM_INST_RETIRED:ALL_STORES               | MEM_INST_RETIRED.ALL_STORES [0xD0/0x82]
event    XSNP_HITM       MEM_LOAD_L3_HIT_RETIRED:XSNP_HITM         | MEM_LOAD_L3_HIT_RETIRED.XSNP_HITM [0xD2/0x04]
event    XSNP_HIT        MEM_LOAD_L3_HIT_RETIRED:XSNP_HIT          | MEM_LOAD_L3_HIT_RETIRED.XSNP_HIT [0xD2/0x02]
event    XSNP_MISS       MEM_LOAD_L3_HIT_RETIRED:XSNP_MISS         | MEM_LOAD_L3_HIT_RETIRED.XSNP_MISS [0xD2/0x01]
event    L3_HIT          MEM_LOAD_RETIRED:L3_HIT                   | MEM_LOAD_RETIRED.L3_HIT [0xD1/0x04]
event    FPDIV_ACTIVE    cpu/event=0x14,umask=0x1,cmask=1/         | ARITH.FP_DIVIDER_ACTIVE, cycles the floating-point divider was busy [0x14/0x01 c=1]
event    OCR_RFO_HITM    cpu/event=0xb7,umask=0x1,offcore_rsp=0x10003c0002/ | OCR.DEMAND_RFO.L3_HIT.SNOOP_HITM, RFOs that hit L3 and a modified line in another core [0xB7/0x01 MSR 0x1A6 = 0x10003C0002]
event    OCR_STREAM_WR   cpu/event=0xb7,umask=0x1,offcore_rsp=0x10800/ | OCR.STREAMING_WR.ANY_RESPONSE, streaming (non-temporal) stores [0xB7/0x01 MSR 0x1A6 = 0x10800]
# perf's names for events libpfm4 4.13 spells differently (perf stat -x prints these)
perf-name FPDIV_ACTIVE   arith.fp_divider_active
perf-name OCR_RFO_HITM   ocr.demand_rfo.l3_hit.snoop_hitm
perf-name OCR_STREAM_WR  ocr.streaming_wr.any_response
perf-name ICACHE_STALL   icache_data.stalls
perf-name ITLB_STALL     icache_tag.stalls
perf-name LCP_STALL      decode.lcp
perf-name DEC0_C1        cpu/uops_decoded.dec0,cmask=1/
perf-name MS_CYCLES      cpu/idq.ms_uops,cmask=1/
perf-name EXE_0          cpu/exe_activity.3_ports_util,umask=0x80/

# --- counters (planner; facts tma-formulas.md section 5) ---------------------------------------
# 8 general-purpose counters per logical CPU with or without SMT; 4 fixed counters (3 = SLOTS).
# The four PERF_METRICS events take no counter but must follow SLOTS in its group.
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
# - ICL: intel_icl_event_constraints (intel/core.c:286-312): fixed 0-2, SLOTS (0x0400) on fixed 3 only
#   (:292); the four metric events (event 0, umask 0x80-0x83: METRIC_EVENT_CONSTRAINT, :293-296;
#   num_topdown_events = 4, :7097) take no counter, need SLOTS as group leader, no flags, no config1, no
#   sampling (intel_pmu_hw_config(), :4195-4231); 8 GP counters with or without SMT.
counters  gp=8 fixed=4 watchdog=fixed:1
fixed     0 INST
fixed     1 CLK_THREAD
fixed     2 REF_TSC
fixed     3 SLOTS_EV
limit     REF_TSC SLOTS_EV counters=fixed
topdown-group SLOTS_EV TD_RET TD_BAD TD_FE TD_BE
# intel_icl_event_constraints: codes 0x48-0x54, 0x60-0x8B, 0xA3 (but STALLS_TOTAL and STALLS_MEM_ANY),
# 0xD0-0xE6 only on counters 0-3
limit     STALLS_L1D STALLS_L2 STALLS_L3 MS_UOPS MITE_UOPS ICACHE_STALL ITLB_STALL BACLEARS \
          L2_HIT FB_HIT L1_MISS L2_MISS L3_MISS FB_FULL_PERIODS \
          LCP_STALL MS_SWITCHES MITE_ANY MITE_OK DSB_ANY DSB_OK MS_CYCLES MEM_INST counters=0-3
# The level-4+ events in those ranges, and in the ones the kernel has restricted since (intel_icl_event_
# constraints: 0x03-0x0A, 0x48-0x56 since the May 2022 fix, 0xA3 but 0x04A3/0x10A3/0x14A3), with
# UOPS_DECODED.DEC0 (0x56) of level 2
limit     ORO_CODE_C1 ITLB_WALK_ACT ITLB_WC_4K ITLB_WC_2M MITE_UOPS_C4 MITE_UOPS_C5 L1D_PENDING L1D_PEND_C1 \
          DECODERS_C1 DECODERS_C2 DTLB_LD_HIT_C1 DTLB_LD_WALK DTLB_LD_WC_4K DTLB_LD_WC_2M DTLB_LD_WC \
          DTLB_ST_HIT_C1 DTLB_ST_WALK DTLB_ST_WC_4K DTLB_ST_WC_2M DTLB_ST_WC CYCLES_L1D_MISS LD_STORE_FWD \
          LD_NO_SR LD_4K_ALIAS FB_FULL L2_STALL ALL_LOADS SPLIT_STORES ORO_DRD_C1 ORO_DRD_C4 DEC0 DEC0_C1 \
          ORO_RFO_C1 L2_ALL_RFO L2_RFO_HIT LOCK_LOADS ALL_STORES XSNP_HITM XSNP_HIT XSNP_MISS L3_HIT counters=0-3
# intel_icl_event_constraints (linux 6.12.117, Debian linux-source-6.12 6.12.117-1~deb12u1, no git commit
# in a Debian source package; arch/x86/events/intel/core.c:306): event codes 0xA8-0xB0 (LSD 0xA8,
# DSB2MITE_SWITCHES 0xAB) on counters 0-3 only; found missing by tests/tools/sched_check.py
limit     LSD_ACTIVE LSD_OK DSB2MITE_PEN counters=0-3
nocounter TSC                           # msr PMU: no core counter, may join any group
# OCR (0xB7) on counters 0-3 (intel_icl_event_constraints, arch/x86/events/intel/core.c:307 of
# linux 6.12.117 (Debian linux-source-6.12 6.12.117-1~deb12u1; a Debian source package has no git commit)); their offcore-response values go to
# MSR_OFFCORE_RSP_0/1 (intel_icl_extra_regs, intel/core.c:315-316): a second value takes the other MSR
# (intel_alt_er(), intel/core.c:3256), a third gets emptyconstraint and the group cannot be scheduled
# (__intel_shared_reg_get_constraints(), intel/core.c:3301)
limit     OCR_RFO_HITM OCR_STREAM_WR counters=0-3
extra     offcore_rsp 2 OCR_RFO_HITM OCR_STREAM_WR
# With UOPS_DECODED.DEC0 on counters 0-3, Memory_Operations (Light_Operations' DEC0, DEC0_C1,
# MITE_UOPS, MS_UOPS and its MEM_INST) and Lock_Latency (five 0x24/0x60/0xD0 events) need five of
# the four counters 0-3: they may be spread over groups.
span      Retiring.Light_Operations.Memory_Operations Backend_Bound.Memory_Bound.L1_Bound.Lock_Latency
# L2_Bound (and DRAM_Bound, which subtracts it) read six events that all live on counters 0-3:
# they cannot share one group, so they may be spread over groups (lower confidence).
span      Backend_Bound.Memory_Bound.L2_Bound Backend_Bound.Memory_Bound.DRAM_Bound
# Other_Light_Ops is Light_Operations less its three siblings: it reads their twelve events
span      Retiring.Light_Operations.Other_Light_Ops

let      PM_SUM    = TD_FE + TD_BAD + TD_RET + TD_BE
info     CLKS      Count  = CLK_THREAD                        | Unhalted core clocks of this thread
info     CORE_CLKS Count  = CLK_DISTRIBUTED if SMT_on else CLK_THREAD | Core clocks (distributed share with SMT on)
info     SLOTS     Count  = SLOTS_EV                          | Issue slots (TOPDOWN.SLOTS, per logical processor)
info     IPC       Metric = INST / CLKS                       | Instructions per cycle
info     CPI       Metric = CLKS / INST                       | Cycles per instruction
info     CoreIPC   Metric = INST / CORE_CLKS                  | Instructions per core clock
info     ILP       Metric = UOPS_EXEC / UOPS_EXEC_C1          | Uops executed per cycle with any uop executed
info     EPC       Metric = UOPS_EXEC / CLKS                  | Uops executed per cycle
info     Execute_per_Issue Metric = UOPS_EXEC / UOPS_ISSUED   | Uops executed per uop issued
info     Load_Miss_Real_Latency Metric = L1D_PENDING / (L1_MISS + FB_HIT) | Average latency of L1D miss demand loads in core cycles
info     MLP       Metric = L1D_PENDING / L1D_PEND_C1         | L1D misses outstanding per cycle with any outstanding (memory-level parallelism)
info     IpPause   Metric = INST / PAUSE_INST                 | Instructions per PAUSE
info     IpLoad    Metric = INST / ALL_LOADS                  | Instructions per load
info     Slots_Utilization Ratio = SLOTS / (W * CLKS)         | TOPDOWN.SLOTS relative to width x clocks (1.0 with SMT off)
info     Turbo_Utilization Ratio = CLKS / REF_TSC             | Average frequency relative to nominal
info     Core_Frequency    GHz   = CLKS / REF_TSC * TSC / 1e9 / DURATION | Average core frequency while unhalted
info     Branch_MPKI  MPKI = 1000 * BR_MISP / INST            | Mispredicted branches per 1000 instructions
info     L1MPKI       MPKI = 1000 * L1_MISS / INST            | Retired loads that missed L1D per 1000 instructions
info     L2MPKI       MPKI = 1000 * L2_MISS / INST            | Retired loads that missed L2 per 1000 instructions
info     L3MPKI       MPKI = 1000 * L3_MISS / INST            | Retired loads that missed L3 per 1000 instructions

# --- level 1 (order: Bad_Speculation is the remainder of the other three) ----------------------
node  Frontend_Bound  Slots = TD_FE / PM_SUM - UOP_DROPPING / SLOTS \
      | > 0.15 | Slots the frontend did not fill while the backend could accept uops
node  Backend_Bound   Slots = TD_BE / PM_SUM + W * CLEARS_COUNT / SLOTS \
      | > 0.20 | Slots with no uop issued because the backend lacked resources
node  Retiring        Slots = TD_RET / PM_SUM \
      | this > 0.7 or Retiring.Heavy_Operations > 0.1 | Slots that retired a uop (useful work)
node  Bad_Speculation Slots = max(1 - (Frontend_Bound + Backend_Bound + Retiring), 0) \
      | > 0.15 | Slots wasted on uops that never retire and on recovery

node  Frontend_Bound.Fetch_Latency   Slots = (W * FE_LAT_CYC - UOP_DROPPING) / SLOTS \
      | > 0.10 | Slots lost to cycles in which the frontend delivered no uop
node  Frontend_Bound.Fetch_Bandwidth Slots = max(0, Frontend_Bound - Frontend_Bound.Fetch_Latency) \
      | > 0.20 | Slots lost because the frontend delivered fewer uops than the width
# TMA 5.1 complements: each L2 pair partitions its parent (exactly, while the vendor's
# max(0, ...) clamp does not bite)
partition Frontend_Bound        # Fetch_Bandwidth = max(0, Frontend_Bound - Fetch_Latency)
# --- level 3 below Fetch_Bandwidth, Bad_Speculation's level 3, Core_Bound's and Light_Operations'
# level 3: pmu-tools icl_client_ratios.py, TMA 5.1-full (andikleen/pmu-tools commit 2568760f),
# classes MITE, DSB, LSD, MS, Other_Mispredicts, Other_Nukes, Serializing_Operation,
# Ports_Utilization (with Ports_Utilized_0 and Core_Bound_Cycles), FP_Arith (X87_Use, FP_Scalar,
# FP_Vector), Memory_Operations, Branch_Instructions, Other_Light_Ops; thresholds as there.
node  Frontend_Bound.Fetch_Bandwidth.MITE Slots_est = (MITE_ANY - MITE_OK) / CORE_CLKS / 2 \
      | > 0.10 | Cycles the legacy decode pipeline (MITE) delivered fewer uops than optimal
node  Frontend_Bound.Fetch_Bandwidth.DSB  Slots_est = (DSB_ANY - DSB_OK) / CORE_CLKS / 2 \
      | > 0.15 | Cycles the decoded-uop cache (DSB) delivered fewer uops than optimal
node  Frontend_Bound.Fetch_Bandwidth.LSD  Slots_est = (LSD_ACTIVE - LSD_OK) / CORE_CLKS / 2 \
      | > 0.15 | Cycles the loop stream detector delivered fewer uops than optimal
node  Frontend_Bound.Fetch_Bandwidth.MS   Slots_est = MS_CYCLES / CORE_CLKS / 3.3 \
      | > 0.05 | Cycles the microcode sequencer limited uop delivery (estimated)
unrelated Frontend_Bound.Fetch_Bandwidth | TMA 5.1: the children are per-core cycle estimates of each \
      uop source's shortfall (Slots_Estimated), not a split of Fetch_Bandwidth's slots; no sum or bound is given
node  Frontend_Bound.Fetch_Latency.ICache_Misses Clocks = ICACHE_STALL / CLKS \
      | > 0.05 | Cycles stalled on instruction-cache misses
node  Frontend_Bound.Fetch_Latency.ITLB_Misses   Clocks = ITLB_STALL / CLKS \
      | > 0.05 | Cycles stalled on instruction-TLB misses
node  Frontend_Bound.Fetch_Latency.Branch_Resteers Clocks = RESTEER / CLKS + BAClear_Cost * BACLEARS / CLKS \
      | > 0.05 | Cycles the frontend was delayed fetching from corrected paths (may overlap its siblings)
node  Frontend_Bound.Fetch_Latency.MS_Switches Clocks_est = MS_Switches_Cost * MS_SWITCHES / CLKS \
      | > 0.05 | Cycles lost switching to the microcode sequencer (estimated at MS_Switches_Cost each)
node  Frontend_Bound.Fetch_Latency.LCP Clocks = LCP_STALL / CLKS \
      | > 0.05 | Cycles the decoders stalled on length-changing prefixes
node  Frontend_Bound.Fetch_Latency.DSB_Switches Clocks = DSB2MITE_PEN / CLKS \
      | > 0.05 | Cycles lost switching from the DSB to the legacy decoders (MITE)
unrelated Frontend_Bound.Fetch_Latency | TMA 5.1: the children are Clocks fractions that may overlap \
      (Branch_Resteers "may overlap with its siblings"); Intel's Info.Bottleneck metrics share Fetch_Latency \
      out in proportion child / sum of children, so neither a sum nor a bound is defined

node  Bad_Speculation.Branch_Mispredicts Slots = BR_MISP / (BR_MISP + MC_COUNT) * Bad_Speculation \
      | > 0.10 | Slots wasted on branch mispredictions
node  Bad_Speculation.Machine_Clears     Slots = max(0, Bad_Speculation - Bad_Speculation.Branch_Mispredicts) \
      | > 0.10 | Slots wasted on machine clears
partition Bad_Speculation       # Machine_Clears = max(0, Bad_Speculation - Branch_Mispredicts)
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

let   BE_BOUND_CYCLES = STALLS_TOTAL + EXE_1 + Retiring * EXE_2 + BOUND_ON_STORES
node  Backend_Bound.Memory_Bound Slots = (STALLS_MEM_ANY + BOUND_ON_STORES) / BE_BOUND_CYCLES * Backend_Bound \
      | > 0.20 | Slots stalled on the memory subsystem
node  Backend_Bound.Core_Bound   Slots = max(0, Backend_Bound - Backend_Bound.Memory_Bound) \
      | > 0.10 | Slots stalled on the core (execution ports, dividers, serialization)
partition Backend_Bound         # Core_Bound = max(0, Backend_Bound - Memory_Bound)
let   L2_HIT_ADJ = L2_HIT * (1 + FB_HIT / L1_MISS)
node  Backend_Bound.Memory_Bound.L1_Bound Stalls = max((STALLS_MEM_ANY - STALLS_L1D) / CLKS, 0) \
      | > 0.10 | Stall cycles with loads outstanding that hit L1D
node  Backend_Bound.Memory_Bound.L2_Bound Stalls = L2_HIT_ADJ / (L2_HIT_ADJ + FB_FULL_PERIODS) * (STALLS_L1D - STALLS_L2) / CLKS \
      | > 0.05 | Stall cycles on loads that hit L2
node  Backend_Bound.Memory_Bound.L3_Bound Stalls = (STALLS_L2 - STALLS_L3) / CLKS \
      | > 0.05 | Stall cycles on loads that hit L3
node  Backend_Bound.Memory_Bound.DRAM_Bound Stalls = \
        STALLS_L3 / CLKS + (STALLS_L1D - STALLS_L2) / CLKS - Backend_Bound.Memory_Bound.L2_Bound \
      | > 0.10 | Stall cycles on loads served from DRAM
node  Backend_Bound.Memory_Bound.Store_Bound Stalls = BOUND_ON_STORES / CLKS \
      | > 0.20 | Cycles the store buffer was full
# TMA 5.1, as on SKL: the Memory_Bound children split its numerator by the nested stall counters,
# per clock (L1 + L2 + L3 + DRAM = STALLS_MEM_ANY / CLKS, Store = BOUND_ON_STORES / CLKS); Stalls
# fractions of all cycles, which Memory_Bound rescales to Backend_Bound's slots. Exact while
# L1_Bound's max(.., 0) does not bite.
children-sum Backend_Bound.Memory_Bound = (STALLS_MEM_ANY + BOUND_ON_STORES) / CLKS
node  Backend_Bound.Core_Bound.Divider Clocks = DIV_ACTIVE / CLKS \
      | > 0.20 | Cycles the divider unit was busy
node  Backend_Bound.Core_Bound.Serializing_Operation Clocks = SCOREBOARD / CLKS \
      | > 0.10 | Cycles stalled on serializing operations
let   FEW_UOPS_EXECUTED = EXE_1 + Retiring * EXE_2
node  Backend_Bound.Core_Bound.Ports_Utilization Clocks = \
        (EXE_0 + FEW_UOPS_EXECUTED) / CLKS if DIV_ACTIVE < STALLS_TOTAL - STALLS_MEM_ANY else FEW_UOPS_EXECUTED / CLKS \
      | > 0.15 | Cycles the core was limited by execution-port utilization
unrelated Backend_Bound.Core_Bound | the children (Divider, Serializing_Operation, Ports_Utilization) are \
      Clocks fractions of all cycles under a Slots share of Backend_Bound, which Intel relates by no sum or bound

let   MS_F = RETIRE_SLOTS / UOPS_ISSUED * MS_UOPS / SLOTS
node  Retiring.Heavy_Operations Slots = MS_F + Retiring * (DEC0 - DEC0_C1) / MITE_UOPS \
      | > 0.1 | Slots retiring heavy operations (multi-uop instructions, microcode)
node  Retiring.Light_Operations Slots = max(0, Retiring - Retiring.Heavy_Operations) \
      | > 0.6 | Slots retiring light-weight operations
partition Retiring              # Light_Operations = max(0, Retiring - Heavy_Operations)
let   RETIRED_SLOTS = Retiring * SLOTS
let   X87_USE   = Retiring * UOPS_X87 / UOPS_EXEC
let   FP_SCALAR_USE = FP_SCALAR / RETIRED_SLOTS
let   FP_VECTOR_USE = FP_VECTOR / RETIRED_SLOTS
node  Retiring.Light_Operations.FP_Arith Uops = X87_USE + FP_SCALAR_USE + FP_VECTOR_USE \
      | > 0.20 | Retired uops of floating-point arithmetic (x87, scalar and vector)
node  Retiring.Light_Operations.Memory_Operations Slots = Retiring.Light_Operations * MEM_INST / INST \
      | > 0.10 | Slots retiring memory operations (loads and stores)
node  Retiring.Light_Operations.Branch_Instructions Slots = Retiring.Light_Operations * BR_INST / RETIRED_SLOTS \
      | > 0.10 | Slots retiring branch instructions
node  Retiring.Light_Operations.Other_Light_Ops Slots = max(0, Retiring.Light_Operations - \
        (Retiring.Light_Operations.FP_Arith + Retiring.Light_Operations.Memory_Operations + \
         Retiring.Light_Operations.Branch_Instructions)) \
      | > 0.30 | Slots retiring other light-weight operations
children-sum Retiring.Light_Operations = Retiring.Light_Operations | TMA 5.1: Other_Light_Ops = max(0, \
      Light_Operations - FP_Arith - Memory_Operations - Branch_Instructions), FP_Arith's Uops taken as slots; \
      exact while the clamp does not bite
node  Retiring.Heavy_Operations.Microcode_Sequencer Slots = MS_F \
      | > 0.05 | Slots retiring uops from the microcode sequencer
node  Retiring.Heavy_Operations.Few_Uops_Instructions Slots = \
        max(0, Retiring.Heavy_Operations - Retiring.Heavy_Operations.Microcode_Sequencer) \
      | > 0.05 | Slots retiring instructions decoded into two to four uops
partition Retiring.Heavy_Operations   # Few_Uops_Instructions = max(0, Heavy - Microcode_Sequencer)

# --- levels 4-6: pmu-tools icl_client_ratios.py (TMA 5.1-full, andikleen/pmu-tools commit 2568760f),
# classes of the same names; thresholds as there (the port and Mixing_Vectors/FP_Assists thresholds
# there do not require the parent's; here a flagged node needs flagged ancestors, as for every node).
node  Frontend_Bound.Fetch_Latency.ICache_Misses.Code_L2_Miss Clocks_Retired = ORO_CODE_C1 / CLKS \
      | > 0.05 | Cycles with an instruction fetch outstanding that missed L2
node  Frontend_Bound.Fetch_Latency.ICache_Misses.Code_L2_Hit Clocks_Retired = \
        max(0, Frontend_Bound.Fetch_Latency.ICache_Misses - Frontend_Bound.Fetch_Latency.ICache_Misses.Code_L2_Miss) \
      | > 0.05 | I-cache miss cycles of fetches that hit L2
partition Frontend_Bound.Fetch_Latency.ICache_Misses   # Code_L2_Hit = max(0, ICache_Misses - Code_L2_Miss)
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
let   MISP_CLEARS_FRACTION = BR_MISP / (BR_MISP + MC_COUNT)
node  Frontend_Bound.Fetch_Latency.Branch_Resteers.Mispredicts_Resteers Clocks = MISP_CLEARS_FRACTION * RESTEER / CLKS \
      | > 0.05 | Resteer cycles after branch mispredictions
node  Frontend_Bound.Fetch_Latency.Branch_Resteers.Clears_Resteers Clocks = (1 - MISP_CLEARS_FRACTION) * RESTEER / CLKS \
      | > 0.05 | Resteer cycles after machine clears
node  Frontend_Bound.Fetch_Latency.Branch_Resteers.Unknown_Branches Clocks = BAClear_Cost * BACLEARS / CLKS \
      | > 0.05 | Resteer cycles for branches the branch predictor did not know (10 cycles per BACLEAR)
partition Frontend_Bound.Fetch_Latency.Branch_Resteers   # CLEAR_RESTEER_CYCLES split by BMr, plus Unknown_Branches
node  Frontend_Bound.Fetch_Bandwidth.MITE.Decoder0_Alone Slots_est = (DECODERS_C1 - DECODERS_C2) / CORE_CLKS / 2 \
      | > 0.10 | Cycles only decoder 0 of the legacy decoders was utilized
node  Frontend_Bound.Fetch_Bandwidth.MITE.MITE_4wide Slots_est = (MITE_UOPS_C4 - MITE_UOPS_C5) / CLKS \
      | > 0.05 | Cycles MITE delivered exactly 4 uops (limited to 4-wide decode)
unrelated Frontend_Bound.Fetch_Bandwidth.MITE | TMA 5.1: Decoder0_Alone and MITE_4wide are cycle estimates of \
      two causes of MITE's shortfall; no sum or bound is given

node  Backend_Bound.Core_Bound.Divider.FP_Divider Clocks = FPDIV_ACTIVE / CLKS \
      | > 0.20 | Cycles the floating-point divider was busy
node  Backend_Bound.Core_Bound.Divider.INT_Divider Clocks = Backend_Bound.Core_Bound.Divider - Backend_Bound.Core_Bound.Divider.FP_Divider \
      | > 0.20 | Cycles the integer divider was busy
partition Backend_Bound.Core_Bound.Divider   # INT_Divider = Divider - FP_Divider
node  Backend_Bound.Core_Bound.Serializing_Operation.Slow_Pause Clocks = 140 * PAUSE_INST / CLKS \
      | > 0.05 | Cycles of PAUSE instructions (140 each)
unrelated Backend_Bound.Core_Bound.Serializing_Operation | TMA 5.1: Slow_Pause is a cost estimate of one \
      serializing instruction, not a documented share of the scoreboard stalls
node  Backend_Bound.Core_Bound.Ports_Utilization.Ports_Utilized_0 Clocks = EXE_0 / CLKS \
      | > 0.2 | Cycles with no uop executed on any port
node  Backend_Bound.Core_Bound.Ports_Utilization.Ports_Utilized_1 Clocks = EXE_1 / CLKS \
      | > 0.2 | Cycles with exactly one uop executed
node  Backend_Bound.Core_Bound.Ports_Utilization.Ports_Utilized_2 Clocks = EXE_2 / CLKS \
      | > 0.15 | Cycles with exactly two uops executed
node  Backend_Bound.Core_Bound.Ports_Utilization.Ports_Utilized_3m Clocks = EXEC_GE3 / CLKS \
      | > 0.4 | Cycles with three or more uops executed
unrelated Backend_Bound.Core_Bound.Ports_Utilization | TMA 5.1: Ports_Utilized_0/1/2/3m split all cycles by \
      uops executed; Ports_Utilization counts 0- and 1-uop cycles outside memory stalls and 2-uop cycles \
      weighted by Retiring: no sum or bound is defined
node  Backend_Bound.Core_Bound.Ports_Utilization.Ports_Utilized_0.Mixing_Vectors Clocks = VEC_MISMATCH / UOPS_ISSUED \
      | > 0.05 | Share of issued uops that are blends inserted for mixing SSE and AVX widths
unrelated Backend_Bound.Core_Bound.Ports_Utilization.Ports_Utilized_0 | TMA 5.1: Mixing_Vectors is a ratio of \
      issued uops, not a share of the zero-port cycles
node  Backend_Bound.Core_Bound.Ports_Utilization.Ports_Utilized_3m.ALU_Op_Utilization Core_Execution = \
        (PORT_0 + PORT_1 + PORT_5 + PORT_6) / (4 * CORE_CLKS) \
      | > 0.4 | Utilization of the four ALU ports (0, 1, 5, 6)
node  Backend_Bound.Core_Bound.Ports_Utilization.Ports_Utilized_3m.ALU_Op_Utilization.Port_0 Core_Clocks = PORT_0 / CORE_CLKS \
      | > 0.6 | Core cycles port 0 (ALU, branch, FP/vector) dispatched a uop
node  Backend_Bound.Core_Bound.Ports_Utilization.Ports_Utilized_3m.ALU_Op_Utilization.Port_1 Core_Clocks = PORT_1 / CORE_CLKS \
      | > 0.6 | Core cycles port 1 (ALU, FP/vector) dispatched a uop
node  Backend_Bound.Core_Bound.Ports_Utilization.Ports_Utilized_3m.ALU_Op_Utilization.Port_5 Core_Clocks = PORT_5 / CORE_CLKS \
      | > 0.6 | Core cycles port 5 (ALU, shuffle) dispatched a uop
node  Backend_Bound.Core_Bound.Ports_Utilization.Ports_Utilized_3m.ALU_Op_Utilization.Port_6 Core_Clocks = PORT_6 / CORE_CLKS \
      | > 0.6 | Core cycles port 6 (ALU, branch) dispatched a uop
children-sum Backend_Bound.Core_Bound.Ports_Utilization.Ports_Utilized_3m.ALU_Op_Utilization = \
        4 * Backend_Bound.Core_Bound.Ports_Utilization.Ports_Utilized_3m.ALU_Op_Utilization \
      | TMA 5.1: ALU_Op_Utilization = (Port_0 + Port_1 + Port_5 + Port_6) / 4
node  Backend_Bound.Core_Bound.Ports_Utilization.Ports_Utilized_3m.Load_Op_Utilization Core_Execution = \
        PORT_2_3 / (2 * CORE_CLKS) \
      | > 0.6 | Utilization of the two load ports (2, 3)
node  Backend_Bound.Core_Bound.Ports_Utilization.Ports_Utilized_3m.Store_Op_Utilization Core_Execution = \
        (PORT_4_9 + PORT_7_8) / (4 * CORE_CLKS) \
      | > 0.6 | Utilization of the store ports (data 4, 9; address 7, 8)
unrelated Backend_Bound.Core_Bound.Ports_Utilization.Ports_Utilized_3m | TMA 5.1: the ALU, load and store \
      utilizations are per-port averages over core cycles, not shares of the 3+-uop cycles

node  Retiring.Light_Operations.FP_Arith.X87_Use Uops = X87_USE \
      | > 0.1 | Retired x87 floating-point uops (estimate from executed uops)
node  Retiring.Light_Operations.FP_Arith.FP_Scalar Uops = FP_SCALAR_USE \
      | > 0.1 | Retired scalar SSE/AVX floating-point arithmetic uops
node  Retiring.Light_Operations.FP_Arith.FP_Vector Uops = FP_VECTOR_USE \
      | > 0.1 | Retired packed SSE/AVX/AVX-512 floating-point arithmetic uops
partition Retiring.Light_Operations.FP_Arith   # TMA: FP_Arith = X87_Use + FP_Scalar + FP_Vector
node  Retiring.Light_Operations.FP_Arith.FP_Vector.FP_Vector_128b Uops = (FP_128D + FP_128S) / RETIRED_SLOTS \
      | > 0.1 | Retired 128-bit packed floating-point arithmetic uops
node  Retiring.Light_Operations.FP_Arith.FP_Vector.FP_Vector_256b Uops = (FP_256D + FP_256S) / RETIRED_SLOTS \
      | > 0.1 | Retired 256-bit packed floating-point arithmetic uops
node  Retiring.Light_Operations.FP_Arith.FP_Vector.FP_Vector_512b Uops = (FP_512D + FP_512S) / RETIRED_SLOTS \
      | > 0.1 | Retired 512-bit packed floating-point arithmetic uops
partition Retiring.Light_Operations.FP_Arith.FP_Vector   # FP_ARITH_INST_RETIRED.VECTOR (0xFC) = the six packed umasks
node  Retiring.Light_Operations.Other_Light_Ops.Nop_Instructions Slots = \
        Retiring.Light_Operations * NOP_INST / RETIRED_SLOTS \
      | > 0.10 | Slots retiring NOP instructions
unrelated Retiring.Light_Operations.Other_Light_Ops | TMA 5.1: Nop_Instructions scales Light_Operations by \
      the NOP share of retired slots; it is not bounded by Other_Light_Ops
node  Retiring.Heavy_Operations.Microcode_Sequencer.Assists Slots_est = Avg_Assist_Cost * ASSISTS_ANY / SLOTS \
      | > 0.10 | Slots of microcode assists (34 cycles each)
node  Retiring.Heavy_Operations.Microcode_Sequencer.CISC Slots = \
        max(0, Retiring.Heavy_Operations.Microcode_Sequencer - Retiring.Heavy_Operations.Microcode_Sequencer.Assists) \
      | > 0.10 | Slots of CISC instructions the microcode sequencer expands
partition Retiring.Heavy_Operations.Microcode_Sequencer   # CISC = max(0, Microcode_Sequencer - Assists)
node  Retiring.Heavy_Operations.Microcode_Sequencer.Assists.FP_Assists Slots_est = Avg_Assist_Cost * ASSISTS_FP / SLOTS \
      | > 0.1 | Slots of floating-point assists (34 cycles each)
bound Retiring.Heavy_Operations.Microcode_Sequencer.Assists | TMA 5.1: ASSISTS.FP is one of the ASSISTS.ANY kinds

# memory level 4-6 (icl_client_ratios.py); False_Sharing and Streaming_Stores (OCR events) are with the
# cost helpers below.
let   L1_NO_MISS_CYCLES = max(CYCLES_MEM_ANY - CYCLES_L1D_MISS, 0)
node  Backend_Bound.Memory_Bound.L1_Bound.DTLB_Load Clocks_est = \
        min(Mem_STLB_Hit_Cost * DTLB_LD_HIT_C1 + DTLB_LD_WALK, L1_NO_MISS_CYCLES) / CLKS \
      | > 0.10 | Cycles of load DTLB misses (STLB hits at a fixed cost, plus page walks)
node  Backend_Bound.Memory_Bound.L1_Bound.Store_Fwd_Blk Clocks_est = 13 * LD_STORE_FWD / CLKS \
      | > 0.10 | Cycles of loads blocked by stores that could not forward (13 each)
node  Backend_Bound.Memory_Bound.L1_Bound.L1_Latency_Dependency Clocks_est = \
        min(2 * (ALL_LOADS - FB_HIT - L1_MISS) * Dependent_Loads_Weight / 100, L1_NO_MISS_CYCLES) / CLKS \
      | > 0.10 | Cycles of dependent loads that hit L1D (pointer chasing)
node  Backend_Bound.Memory_Bound.L1_Bound.Split_Loads Clocks_Calculated = \
        L1D_PENDING / (L1_MISS + FB_HIT) * LD_NO_SR / CLKS \
      | > 0.30 | Cycles of loads that cross a cache line
node  Backend_Bound.Memory_Bound.L1_Bound.4K_Aliasing Clocks_est = LD_4K_ALIAS / CLKS \
      | > 0.20 | Cycles of loads falsely blocked by stores 4K apart
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
# toplev divides by WALK_COMPLETED_4K + _2M_4M + _1G; perf's icelake tables publish no _1G event, so the
# 1G walks are WALK_COMPLETED (umask 0x0E, all three sizes) less the 4K and 2M/4M ones
let   DTLB_LD_WC_1G = DTLB_LD_WC - DTLB_LD_WC_4K - DTLB_LD_WC_2M
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
node  Backend_Bound.Memory_Bound.L3_Bound.SQ_Full Clocks = L2_STALL / CLKS \
      | > 0.30 | Cycles demand requests waited for L2 resources (super queue full)
unrelated Backend_Bound.Memory_Bound.L3_Bound | TMA 5.1: the children are cost estimates and a queue-full \
      fraction in clocks under a Stalls fraction; no sum or bound is given
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
# toplev divides by WALK_COMPLETED_4K + _2M_4M + _1G; perf's icelake tables publish no _1G event, so the
# 1G walks are WALK_COMPLETED (umask 0x0E, all three sizes) less the 4K and 2M/4M ones
let   DTLB_ST_WC_1G = DTLB_ST_WC - DTLB_ST_WC_4K - DTLB_ST_WC_2M
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

# memory level 4 with costs (icl_client_ratios.py): the load latencies are ns x Core_Frequency (GHz),
# which needs the run time (duration_time) and msr/tsc/, as on SKL; FB_FACTOR = 1 + FB_HIT / L1_MISS / 2.
let   FB_FACTOR = 1 + FB_HIT / L1_MISS / 2
let   MEM_L2_HIT_COST = 3.5 * Core_Frequency
let   MEM_XSNP_HITM_COST = 32.5 * Core_Frequency
let   MEM_XSNP_HIT_COST = 27 * Core_Frequency
let   MEM_XSNP_NONE_COST = 12.5 * Core_Frequency
let   MEM_LOCK_ST_FRACTION = LOCK_LOADS / ALL_STORES
let   ORO_DEMAND_RFO_C1 = min(CLK_THREAD, ORO_RFO_C1)
node  Backend_Bound.Memory_Bound.L1_Bound.Lock_Latency Clocks = (16 * max(0, LOCK_LOADS - L2_ALL_RFO) + \
        MEM_LOCK_ST_FRACTION * (Mem_L2_Store_Cost * L2_RFO_HIT + ORO_DEMAND_RFO_C1)) / CLKS \
      | > 0.20 | Cycles of lock operations
node  Backend_Bound.Memory_Bound.L2_Bound.L2_Hit_Latency Clocks_Retired = MEM_L2_HIT_COST * L2_HIT * FB_FACTOR / CLKS \
      | > 0.05 | Cycles of L2-hit latency (3.5 ns each)
unrelated Backend_Bound.Memory_Bound.L2_Bound | TMA 5.1: L2_Hit_Latency is a cost estimate in clocks of \
      retired loads, L2_Bound a stall fraction; no sum or bound is given
node  Backend_Bound.Memory_Bound.L3_Bound.Contested_Accesses Clocks_est = ((MEM_XSNP_HITM_COST - MEM_L2_HIT_COST) * XSNP_HITM + \
        (MEM_XSNP_HIT_COST - MEM_L2_HIT_COST) * XSNP_MISS) * FB_FACTOR / CLKS \
      | > 0.05 | Cycles of loads served by a modified line in another core's cache
node  Backend_Bound.Memory_Bound.L3_Bound.Data_Sharing Clocks_est = \
        (MEM_XSNP_HIT_COST - MEM_L2_HIT_COST) * XSNP_HIT * FB_FACTOR / CLKS \
      | > 0.05 | Cycles of loads served by a clean line shared with another core
node  Backend_Bound.Memory_Bound.L3_Bound.L3_Hit_Latency Clocks_est = \
        (MEM_XSNP_NONE_COST - MEM_L2_HIT_COST) * L3_HIT * FB_FACTOR / CLKS \
      | > 0.10 | Cycles of L3-hit latency without snoops
node  Backend_Bound.Memory_Bound.Store_Bound.False_Sharing Clocks_est = MEM_XSNP_HITM_COST * OCR_RFO_HITM / CLKS \
      | > 0.05 | Cycles of RFOs that found the line modified in another core's cache (32.5 ns each)
node  Backend_Bound.Memory_Bound.Store_Bound.Streaming_Stores Clocks_est = 9 * OCR_STREAM_WR / CLKS \
      | > 0.20 | Cycles of streaming (non-temporal) stores (9 each)
node  Backend_Bound.Memory_Bound.Store_Bound.Store_Latency Clocks_est = (L2_RFO_HIT * Mem_L2_Store_Cost * \
        (1 - MEM_LOCK_ST_FRACTION) + (1 - MEM_LOCK_ST_FRACTION) * ORO_DEMAND_RFO_C1) / CLKS \
      | > 0.10 | Cycles of store RFO latency (L2 hits at a fixed cost, plus outstanding RFOs)

let   MEM_PER_STALL = Backend_Bound / BE_BOUND_CYCLES
cpi-cycles        CLKS
cpi-instructions  INST
cpi   Base               derived  = Retiring                              | Ideal retiring: retired uops at full width
cpi   Branch_Mispredict  derived  = Bad_Speculation.Branch_Mispredicts    | Wrong-path slots and recovery of mispredicted branches
cpi   Machine_Clear      derived  = Bad_Speculation.Machine_Clears        | Slots lost to machine clears
cpi   Frontend_Latency   derived  = Frontend_Bound.Fetch_Latency          | Cycles the frontend delivered nothing (I-cache, I-TLB, resteers, ...)
cpi   Frontend_Bandwidth derived  = Frontend_Bound.Fetch_Bandwidth        | Cycles the frontend delivered less than the width
cpi   DRAM               measured = MEM_PER_STALL * STALLS_L3             | Execution stalls with an L3 miss outstanding
cpi   L3_Hit             measured = MEM_PER_STALL * (STALLS_L2 - STALLS_L3) | Execution stalls on L2 misses that hit L3
cpi   L2_Hit             measured = MEM_PER_STALL * (STALLS_L1D - STALLS_L2) | Execution stalls on L1D misses that hit L2
cpi   L1_Other           derived  = MEM_PER_STALL * (STALLS_MEM_ANY - STALLS_L1D) | Load stalls without an L1D miss (DTLB, store forwarding, ...)
cpi   Store_Bound        measured = MEM_PER_STALL * BOUND_ON_STORES       | Cycles the store buffer was full
cpi   Core               derived  = Backend_Bound.Core_Bound              | Core-bound cycles (ports, divider, dependencies)

# --- locate: the event whose samples point at the code behind a node ------------------------------
# toplev 5.1-full icl_client_ratios.py's sample events (its `sample = [...]`, the first where it lists
# several; :pp there is PEBS, precise IPs where the event has them), in libpfm4's spelling for icl
# (FRONTEND_RETIRED latency events checked against perfmon's MSR_PEBS_FRONTEND values). Nodes
# toplev gives none lack a line. `tdctl run --hotspots=NODE` samples it.
locate Frontend_Bound                                     FRONTEND_RETIRED:IDQ_4_BUBBLES:fe_thres=4    | FRONTEND_RETIRED.LATENCY_GE_4:pp
locate Frontend_Bound.Fetch_Latency                       FRONTEND_RETIRED:IDQ_4_BUBBLES:fe_thres=16   | FRONTEND_RETIRED.LATENCY_GE_16:pp
locate Frontend_Bound.Fetch_Latency.ICache_Misses         FRONTEND_RETIRED:L2_MISS                     | FRONTEND_RETIRED.L2_MISS:pp
locate Frontend_Bound.Fetch_Latency.ITLB_Misses           FRONTEND_RETIRED:STLB_MISS                   | FRONTEND_RETIRED.STLB_MISS:pp
locate Frontend_Bound.Fetch_Latency.Branch_Resteers       BR_MISP_RETIRED:ALL_BRANCHES                 | BR_MISP_RETIRED.ALL_BRANCHES
locate Frontend_Bound.Fetch_Latency.MS_Switches           IDQ:MS_SWITCHES                              | IDQ.MS_SWITCHES
locate Frontend_Bound.Fetch_Latency.DSB_Switches          FRONTEND_RETIRED:DSB_MISS                    | FRONTEND_RETIRED.DSB_MISS:pp
locate Frontend_Bound.Fetch_Bandwidth                     FRONTEND_RETIRED:IDQ_1_BUBBLE:fe_thres=2     | FRONTEND_RETIRED.LATENCY_GE_2_BUBBLES_GE_1
locate Frontend_Bound.Fetch_Bandwidth.MITE                FRONTEND_RETIRED:ANY_DSB_MISS                | FRONTEND_RETIRED.ANY_DSB_MISS
locate Bad_Speculation.Branch_Mispredicts                 BR_MISP_RETIRED:ALL_BRANCHES                 | BR_MISP_RETIRED.ALL_BRANCHES
locate Bad_Speculation.Machine_Clears                     MACHINE_CLEARS:COUNT                         | MACHINE_CLEARS.COUNT
locate Backend_Bound                                      TOPDOWN:BACKEND_BOUND_SLOTS                  | TOPDOWN.BACKEND_BOUND_SLOTS
locate Backend_Bound.Memory_Bound.L1_Bound                MEM_LOAD_RETIRED:L1_HIT                      | MEM_LOAD_RETIRED.L1_HIT
locate Backend_Bound.Memory_Bound.L2_Bound                MEM_LOAD_RETIRED:L2_HIT                      | MEM_LOAD_RETIRED.L2_HIT
locate Backend_Bound.Memory_Bound.L3_Bound                MEM_LOAD_RETIRED:L3_HIT                      | MEM_LOAD_RETIRED.L3_HIT:pp
locate Backend_Bound.Memory_Bound.DRAM_Bound              MEM_LOAD_RETIRED:L3_MISS                     | MEM_LOAD_RETIRED.L3_MISS
locate Backend_Bound.Memory_Bound.Store_Bound             MEM_INST_RETIRED:ALL_STORES                  | MEM_INST_RETIRED.ALL_STORES:pp
locate Backend_Bound.Core_Bound.Divider                   ARITH:DIVIDER_ACTIVE                         | ARITH.DIVIDER_ACTIVE
locate Backend_Bound.Core_Bound.Serializing_Operation     RESOURCE_STALLS:SCOREBOARD                   | RESOURCE_STALLS.SCOREBOARD
locate Retiring                                           UOPS_RETIRED:SLOTS                           | UOPS_RETIRED.SLOTS
locate Retiring.Light_Operations                          INST_RETIRED:PREC_DIST                       | INST_RETIRED.PREC_DIST
locate Retiring.Heavy_Operations.Microcode_Sequencer      IDQ:MS_UOPS                                  | IDQ.MS_UOPS
