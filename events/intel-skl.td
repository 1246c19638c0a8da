# intel-skl.td — Intel Skylake client (skl); Skylake-SP (skx) and Cascade Lake (clx) are intel-skx.td and intel-clx.td (generated from perfmon)
# Top-down (TMA) tree L1-L6 (every node of toplev 5.1-full skl_client_ratios.py), info metrics, CPI stack.
# Event descriptions carry the perfmon encoding in brackets
# [EVENT/UMASK c=CMASK e=EDGE i=INV any=ANYTHREAD] so a test can compare it with
# what libpfm4 (model skl) produces.
pmu      skl
title    Intel Skylake
version  TMA 5.01 (intel/perfmon SKL/metrics/skylake_metrics.json and CLX/metrics/cascadelakex_metrics.json, 12/02/2024)
note     Formulas follow TMA 5.01 (perfmon BaseFormula); nodes the facts sheet does not list
note     (LSD, Other_Mispredicts, Other_Nukes, the Light_Operations children, X87_Use, FP_Scalar,
note     FP_Vector) follow pmu-tools toplev model 5.1-full (skl_client_ratios.py) and perf's
note     vendor JSON, which give the same expressions; every node toplev 5.1-full also computes
note     agrees with it on the oracle cases (tests/data/fixtures/oracle-skl-*.fix).
note     Level 4 (the children of ITLB_Misses, MITE, L1/L2/L3/DRAM/Store_Bound, Serializing_Operation,
note     Other_Light_Ops, Microcode_Sequencer) follows pmu-tools skl_client_ratios.py (TMA 5.1-full) and
note     agrees with toplev 5.1-full on every row of oracle case skl-l4-core-ports (L1-L4 and IPC, CPI,
note     CLKS, SLOTS). Its memory costs are Skylake-client ones (ns x Core_Frequency, which needs
note     duration_time and msr/tsc/); on SKX/CLX toplev uses server costs and splits DRAM_Bound into
note     Local/Remote DRAM, PMM: those server-only nodes are not included, and the client level-4
note     memory costs are only an approximation there. For levels 1-3 the CLX formulas equal SKL's.
note     Levels 5-6 (TLB page sizes, ports, Mixing_Vectors, FP_Vector_128b/256b, FP_Assists) follow the
note     same skl_client_ratios.py; checked on hand-computed fixtures skl-l6-smt-{off,on}.fix.
note     Before Ice Lake, L1/L2 with SMT on are valid per physical core only: count both siblings
note     (system-wide, per-core aggregation) and set SMT_on 1; *_ANY events need perf_event_paranoid
note     <= 0 or CAP_PERFMON.
note     CPI stack: the budgeted construction of docs cpi-stack.md 2.7.1; frontend-latency and
note     core-bound children are scaled to fit their parent, the remainder goes to Other.

const    W 4                     # issue width (slots per cycle)
param    SMT_on 0                # 1 = hyperthreading on: use *_ANY events / 2 for core clocks
const    BAClear_Cost 9          # cycles charged per BACLEARS.ANY (TMA 5.01 Unknown_Branches)
const    MS_Switches_Cost 2      # cycles charged per IDQ.MS_SWITCHES (TMA 5.01 MS_Switches)
const    Mem_STLB_Hit_Cost 9     # cycles per DTLB miss that hits the STLB (TMA 5.1 SKL DTLB_Load/DTLB_Store)
const    Mem_L2_Store_Cost 9     # cycles per RFO that hits L2 (TMA 5.1 SKL Store_Latency, Lock_Latency)
const    Avg_Assist_Cost 34      # cycles per microcode assist (TMA 5.1 SKL Assists)
const    Dependent_Loads_Weight 20 # % of loads taken as dependent (TMA 5.1 SKL L1_Latency_Dependency)

# --- events ------------------------------------------------------------------------------------
event    CLK_THREAD      CPU_CLK_THREAD_UNHALTED:THREAD_P          | CPU_CLK_UNHALTED.THREAD, unhalted core clocks of this thread [0x3C/0x00]
event    CLKS_ANY        CPU_CLK_THREAD_UNHALTED:THREAD_P:t=1      | CPU_CLK_UNHALTED.THREAD_ANY, unhalted clocks of the physical core (AnyThread) [0x3C/0x00 any=1]
event    INST            INSTRUCTION_RETIRED                       | INST_RETIRED.ANY, instructions retired [0xC0/0x00]
event    REF_TSC         UNHALTED_REFERENCE_CYCLES                 | CPU_CLK_UNHALTED.REF_TSC, unhalted reference (TSC-rate) cycles, fixed counter 2 [fixed 0x00/0x03]
event    TSC             msr/event=0x0/                            | msr/tsc/, time-stamp counter (perf msr PMU, event 0) [msr tsc]
event    FE_NOT          IDQ_UOPS_NOT_DELIVERED:CORE               | IDQ_UOPS_NOT_DELIVERED.CORE, slots the frontend left empty while the backend was not stalled [0x9C/0x01]
event    FE_LAT_CYC      IDQ_UOPS_NOT_DELIVERED:CYCLES_0_UOPS_DELIV_CORE | IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE, cycles with 0 uops delivered [0x9C/0x01 c=4]
event    UOPS_ISSUED     UOPS_ISSUED:ANY                           | UOPS_ISSUED.ANY, uops issued by the RAT [0x0E/0x01]
event    RETIRE_SLOTS    UOPS_RETIRED:RETIRE_SLOTS                 | UOPS_RETIRED.RETIRE_SLOTS, retirement slots used [0xC2/0x02]
event    MACRO_FUSED     cpu/event=0xc2,umask=0x4/                 | UOPS_RETIRED.MACRO_FUSED (absent from libpfm4 skl table, raw form) [0xC2/0x04]
event    RECOVERY        INT_MISC:RECOVERY_CYCLES                  | INT_MISC.RECOVERY_CYCLES, allocator stalled during recovery [0x0D/0x01]
event    RECOVERY_ANY    INT_MISC:RECOVERY_CYCLES_ANY              | INT_MISC.RECOVERY_CYCLES_ANY, same for the physical core [0x0D/0x01 any=1]
event    CLEARS_COUNT    cpu/event=0xd,umask=0x1,edge=1,cmask=1/   | INT_MISC.CLEARS_COUNT, pipeline clears (absent from libpfm4 skl table, raw form) [0x0D/0x01 c=1 e=1]
event    BR_MISP         BR_MISP_RETIRED:ALL_BRANCHES              | BR_MISP_RETIRED.ALL_BRANCHES, mispredicted branches retired [0xC5/0x00]
event    BR_INST         BR_INST_RETIRED:ALL_BRANCHES              | BR_INST_RETIRED.ALL_BRANCHES, branches retired [0xC4/0x00]
event    MC_COUNT        MACHINE_CLEARS:COUNT                      | MACHINE_CLEARS.COUNT, machine clears of any type [0xC3/0x01 c=1 e=1]
event    MC_MO           MACHINE_CLEARS:MEMORY_ORDERING            | MACHINE_CLEARS.MEMORY_ORDERING, memory-ordering machine clears [0xC3/0x02]
event    ICACHE_STALL    ICACHE_16B:IFDATA_STALL                   | ICACHE_16B.IFDATA_STALL, cycles fetch stalled on an I-cache miss [0x80/0x04]
event    ICACHE_STALL_E  ICACHE_16B:IFDATA_STALL:c=1:e             | ICACHE_16B.IFDATA_STALL:c1:e1, I-cache stall episodes [0x80/0x04 c=1 e=1]
event    ITLB_STALL      ICACHE_64B:IFTAG_STALL                    | ICACHE_TAG.STALLS (ICACHE_64B.IFTAG_STALL), cycles stalled on an I-TLB miss [0x83/0x04]
event    RESTEER         INT_MISC:CLEAR_RESTEER_CYCLES             | INT_MISC.CLEAR_RESTEER_CYCLES, cycles until the first uop after a clear or mispredict [0x0D/0x80]
event    BACLEARS        BACLEARS:ANY                              | BACLEARS.ANY, frontend resteers for branches the BPU did not know [0xE6/0x01]
event    MS_SWITCHES     IDQ:MS_SWITCHES                           | IDQ.MS_SWITCHES, switches to the microcode sequencer [0x79/0x30 c=1 e=1]
event    MS_UOPS         IDQ:MS_UOPS                               | IDQ.MS_UOPS, uops delivered by the microcode sequencer [0x79/0x30]
event    LCP             ILD_STALL:LCP                             | DECODE.LCP (ILD_STALL.LCP), length-changing-prefix stall cycles [0x87/0x01]
event    DSB2MITE        DSB2MITE_SWITCHES:PENALTY_CYCLES          | DSB2MITE_SWITCHES.PENALTY_CYCLES, DSB-to-MITE switch penalty cycles [0xAB/0x02]
event    MITE_ANY        IDQ:ALL_MITE_CYCLES_ANY_UOPS              | IDQ.ALL_MITE_CYCLES_ANY_UOPS, cycles MITE delivered any uop [0x79/0x24 c=1]
event    MITE_4          IDQ:ALL_MITE_CYCLES_4_UOPS                | IDQ.ALL_MITE_CYCLES_4_UOPS, cycles MITE delivered 4 uops [0x79/0x24 c=4]
event    DSB_ANY         IDQ:ALL_DSB_CYCLES_ANY_UOPS               | IDQ.DSB_CYCLES_ANY, cycles the DSB delivered any uop [0x79/0x18 c=1]
event    DSB_OK          IDQ:ALL_DSB_CYCLES_4_UOPS                 | IDQ.DSB_CYCLES_OK, cycles the DSB delivered 4 uops [0x79/0x18 c=4]
event    LSD_ACTIVE      LSD:CYCLES_ACTIVE                         | LSD.CYCLES_ACTIVE, cycles the loop stream detector delivered any uop [0xA8/0x01 c=1]
event    LSD_OK          LSD:CYCLES_4_UOPS                         | LSD.CYCLES_4_UOPS (LSD.CYCLES_OK), cycles the LSD delivered 4 uops [0xA8/0x01 c=4]
event    STALLS_TOTAL    CYCLE_ACTIVITY:STALLS_TOTAL               | CYCLE_ACTIVITY.STALLS_TOTAL, execution stall cycles [0xA3/0x04 c=4]
event    STALLS_MEM_ANY  CYCLE_ACTIVITY:STALLS_MEM_ANY             | CYCLE_ACTIVITY.STALLS_MEM_ANY, execution stalls with a load outstanding [0xA3/0x14 c=20]
event    STALLS_L1D      CYCLE_ACTIVITY:STALLS_L1D_MISS            | CYCLE_ACTIVITY.STALLS_L1D_MISS, execution stalls with an L1D miss outstanding [0xA3/0x0C c=12]
event    STALLS_L2       CYCLE_ACTIVITY:STALLS_L2_MISS             | CYCLE_ACTIVITY.STALLS_L2_MISS, execution stalls with an L2 miss outstanding [0xA3/0x05 c=5]
event    STALLS_L3       CYCLE_ACTIVITY:STALLS_L3_MISS             | CYCLE_ACTIVITY.STALLS_L3_MISS, execution stalls with an L3 miss outstanding [0xA3/0x06 c=6]
event    EXE_0           EXE_ACTIVITY:EXE_BOUND_0_PORTS            | EXE_ACTIVITY.EXE_BOUND_0_PORTS, cycles no port executed and no memory miss [0xA6/0x01]
event    EXE_1           EXE_ACTIVITY:1_PORTS_UTIL                 | EXE_ACTIVITY.1_PORTS_UTIL, cycles one uop executed [0xA6/0x02]
event    EXE_2           EXE_ACTIVITY:2_PORTS_UTIL                 | EXE_ACTIVITY.2_PORTS_UTIL, cycles two uops executed [0xA6/0x04]
event    BOUND_ON_STORES EXE_ACTIVITY:BOUND_ON_STORES              | EXE_ACTIVITY.BOUND_ON_STORES, cycles the store buffer was full and no outstanding load [0xA6/0x40]
event    L2_HIT          MEM_LOAD_RETIRED:L2_HIT                   | MEM_LOAD_RETIRED.L2_HIT, retired loads that hit L2 [0xD1/0x02]
event    FB_HIT          MEM_LOAD_RETIRED:FB_HIT                   | MEM_LOAD_RETIRED.FB_HIT, retired loads that hit a fill buffer [0xD1/0x40]
event    L1_MISS         MEM_LOAD_RETIRED:L1_MISS                  | MEM_LOAD_RETIRED.L1_MISS, retired loads that missed L1D [0xD1/0x08]
event    L2_MISS         MEM_LOAD_RETIRED:L2_MISS                  | MEM_LOAD_RETIRED.L2_MISS, retired loads that missed L2 [0xD1/0x10]
event    L3_MISS         MEM_LOAD_RETIRED:L3_MISS                  | MEM_LOAD_RETIRED.L3_MISS, retired loads that missed L3 [0xD1/0x20]
event    FB_FULL         L1D_PEND_MISS:FB_FULL:c=1                 | L1D_PEND_MISS.FB_FULL:c1, cycles the L1D fill buffer was full [0x48/0x02 c=1]
event    DIV_ACTIVE      ARITH:DIVIDER_ACTIVE                      | ARITH.DIVIDER_ACTIVE, cycles the divider was busy [0x14/0x01 c=1]
event    SCOREBOARD      PARTIAL_RAT_STALLS:SCOREBOARD             | PARTIAL_RAT_STALLS.SCOREBOARD, cycles stalled on serializing operations [0x59/0x01]
event    EXEC_GE1        UOPS_EXECUTED:CORE_CYCLES_GE_1            | UOPS_EXECUTED.CORE_CYCLES_GE_1, core cycles with >=1 uop executed [0xB1/0x02 c=1]
event    EXEC_GE2        UOPS_EXECUTED:CORE_CYCLES_GE_2            | UOPS_EXECUTED.CORE_CYCLES_GE_2, core cycles with >=2 uops executed [0xB1/0x02 c=2]
event    EXEC_GE3        UOPS_EXECUTED:CORE_CYCLES_GE_3            | UOPS_EXECUTED.CORE_CYCLES_GE_3, core cycles with >=3 uops executed [0xB1/0x02 c=3]
event    UOPS_EXEC       UOPS_EXECUTED:THREAD                      | UOPS_EXECUTED.THREAD, uops executed by this thread [0xB1/0x01]
event    UOPS_X87        UOPS_EXECUTED:X87                         | UOPS_EXECUTED.X87, x87 uops executed [0xB1/0x10]
event    MEM_INST        MEM_INST_RETIRED:ANY                      | MEM_INST_RETIRED.ANY, retired load and store instructions [0xD0/0x83]
event    FP_SCALAR       FP_ARITH_INST_RETIRED:SCALAR_SINGLE:SCALAR_DOUBLE | FP_ARITH_INST_RETIRED.SCALAR, scalar FP arithmetic instructions [0xC7/0x03]
event    FP_VECTOR       FP_ARITH_INST_RETIRED:128B_PACKED_DOUBLE:128B_PACKED_SINGLE:256B_PACKED_DOUBLE:256B_PACKED_SINGLE:512B_PACKED_DOUBLE:512B_PACKED_SINGLE | FP_ARITH_INST_RETIRED.VECTOR, packed FP arithmetic instructions [0xC7/0xFC]
# level-4 events (TMA 5.1 level-4 nodes below); encodings from Linux perf's
# pmu-events/arch/x86/skylake/*.json (INST_DECODED.DECODERS and INST_RETIRED.NOP are not in libpfm4 4.13)
event    ITLB_WALK_ACT   ITLB_MISSES:WALK_ACTIVE                   | ITLB_MISSES.WALK_ACTIVE, cycles a code page walk was active [0x85/0x10 c=1]
event    DECODERS_C1     cpu/event=0x55,umask=0x1,cmask=1/         | INST_DECODED.DECODERS:c1, cycles at least one decoder was utilized [0x55/0x01 c=1]
event    DECODERS_C2     cpu/event=0x55,umask=0x1,cmask=2/         | INST_DECODED.DECODERS:c2, cycles at least two decoders were utilized [0x55/0x01 c=2]
event    DTLB_LD_HIT_C1  DTLB_LOAD_MISSES:STLB_HIT:c=1             | DTLB_LOAD_MISSES.STLB_HIT:c1, cycles with a load DTLB miss that hit the STLB [0x08/0x20 c=1]
event    DTLB_LD_WALK    DTLB_LOAD_MISSES:WALK_ACTIVE              | DTLB_LOAD_MISSES.WALK_ACTIVE, cycles a load page walk was active [0x08/0x10 c=1]
event    DTLB_ST_HIT_C1  DTLB_STORE_MISSES:STLB_HIT:c=1            | DTLB_STORE_MISSES.STLB_HIT:c1, cycles with a store DTLB miss that hit the STLB [0x49/0x20 c=1]
event    DTLB_ST_WALK    DTLB_STORE_MISSES:WALK_ACTIVE             | DTLB_STORE_MISSES.WALK_ACTIVE, cycles a store page walk was active [0x49/0x10 c=1]
event    CYCLES_MEM_ANY  CYCLE_ACTIVITY:CYCLES_MEM_ANY             | CYCLE_ACTIVITY.CYCLES_MEM_ANY, cycles with a load outstanding [0xA3/0x10 c=16]
event    CYCLES_L1D_MISS CYCLE_ACTIVITY:CYCLES_L1D_MISS            | CYCLE_ACTIVITY.CYCLES_L1D_MISS, cycles with an L1D miss outstanding [0xA3/0x08 c=8]
event    LD_STORE_FWD    LD_BLOCKS:STORE_FORWARD                   | LD_BLOCKS.STORE_FORWARD, loads blocked by a store that cannot forward [0x03/0x02]
event    LD_NO_SR        LD_BLOCKS:NO_SR                           | LD_BLOCKS.NO_SR, split loads blocked for lack of split registers [0x03/0x08]
event    LD_4K_ALIAS     LD_BLOCKS_PARTIAL:ADDRESS_ALIAS           | LD_BLOCKS_PARTIAL.ADDRESS_ALIAS, loads falsely blocked by 4K aliasing [0x07/0x01]
event    ALL_LOADS       MEM_INST_RETIRED:ALL_LOADS                | MEM_INST_RETIRED.ALL_LOADS [0xD0/0x81]
event    ALL_STORES      MEM_INST_RETIRED:ALL_STORES               | MEM_INST_RETIRED.ALL_STORES [0xD0/0x82]
event    LOCK_LOADS      MEM_INST_RETIRED:LOCK_LOADS               | MEM_INST_RETIRED.LOCK_LOADS [0xD0/0x21]
event    SPLIT_STORES    MEM_INST_RETIRED:SPLIT_STORES             | MEM_INST_RETIRED.SPLIT_STORES [0xD0/0x42]
event    L3_HIT          MEM_LOAD_RETIRED:L3_HIT                   | MEM_LOAD_RETIRED.L3_HIT [0xD1/0x04]
event    XSNP_MISS       MEM_LOAD_L3_HIT_RETIRED:XSNP_MISS         | MEM_LOAD_L3_HIT_RETIRED.XSNP_MISS [0xD2/0x01]
event    XSNP_HIT        MEM_LOAD_L3_HIT_RETIRED:XSNP_HIT          | MEM_LOAD_L3_HIT_RETIRED.XSNP_HIT [0xD2/0x02]
event    XSNP_HITM       MEM_LOAD_L3_HIT_RETIRED:XSNP_HITM         | MEM_LOAD_L3_HIT_RETIRED.XSNP_HITM [0xD2/0x04]
event    L1D_PENDING     L1D_PEND_MISS:PENDING                     | L1D_PEND_MISS.PENDING, outstanding L1D misses per cycle [0x48/0x01]
event    L2_ALL_RFO      L2_RQSTS:ALL_RFO                          | L2_RQSTS.ALL_RFO [0x24/0xE2]
event    L2_RFO_HIT      L2_RQSTS:RFO_HIT                          | L2_RQSTS.RFO_HIT [0x24/0x42]
event    ORO_RFO_C1      OFFCORE_REQUESTS_OUTSTANDING:CYCLES_WITH_DEMAND_RFO | OFFCORE_REQUESTS_OUTSTANDING.CYCLES_WITH_DEMAND_RFO [0x60/0x04 c=1]
event    ORO_DRD_C1      cpu/event=0x60,umask=0x8,cmask=1/         | OFFCORE_REQUESTS_OUTSTANDING.CYCLES_WITH_DATA_RD [0x60/0x08 c=1]
event    ORO_DRD_C4      OFFCORE_REQUESTS_OUTSTANDING:ALL_DATA_RD:c=4 | OFFCORE_REQUESTS_OUTSTANDING.ALL_DATA_RD:c4 [0x60/0x08 c=4]
event    SQ_FULL         OFFCORE_REQUESTS_BUFFER:SQ_FULL           | OFFCORE_REQUESTS_BUFFER.SQ_FULL, cycles the super queue was full [0xB2/0x01]
event    OCR_RFO_HITM    OFFCORE_RESPONSE_0:DMND_RFO:L3_HIT:SNP_HITM | OFFCORE_RESPONSE.DEMAND_RFO.L3_HIT.SNOOP_HITM (MSR 0x1A6 = 0x10003C0002) [0xB7/0x01]
event    PAUSE_INST      ROB_MISC_EVENTS:PAUSE_INST                | ROB_MISC_EVENTS.PAUSE_INST [0xCC/0x40]
event    NOP_INST        cpu/event=0xc0,umask=0x2/                 | INST_RETIRED.NOP, retired NOP instructions [0xC0/0x02]
event    FP_ASSIST       FP_ASSIST:ANY                             | FP_ASSIST.ANY, floating-point assists [0xCA/0x1E c=1]
event    OTHER_ASSISTS   OTHER_ASSISTS:ANY                         | OTHER_ASSISTS.ANY, other microcode assists [0xC1/0x3F]
# level-5/6 and info-metric events (TMA 5.1 nodes below); encodings from Linux perf's
# pmu-events/arch/x86/skylake/{frontend,memory,pipeline,floating-point,virtual-memory}.json
event    ITLB_WC_4K      ITLB_MISSES:WALK_COMPLETED_4K             | ITLB_MISSES.WALK_COMPLETED_4K, code page walks completed to a 4K page [0x85/0x02]
event    ITLB_WC_2M      ITLB_MISSES:WALK_COMPLETED_2M_4M          | ITLB_MISSES.WALK_COMPLETED_2M_4M, code page walks completed to a 2M/4M page [0x85/0x04]
event    DTLB_LD_WC_4K   DTLB_LOAD_MISSES:WALK_COMPLETED_4K        | DTLB_LOAD_MISSES.WALK_COMPLETED_4K [0x08/0x02]
event    DTLB_LD_WC_2M   DTLB_LOAD_MISSES:WALK_COMPLETED_2M_4M     | DTLB_LOAD_MISSES.WALK_COMPLETED_2M_4M [0x08/0x04]
event    DTLB_LD_WC_1G   DTLB_LOAD_MISSES:WALK_COMPLETED_1G        | DTLB_LOAD_MISSES.WALK_COMPLETED_1G [0x08/0x08]
event    DTLB_ST_WC_4K   DTLB_STORE_MISSES:WALK_COMPLETED_4K       | DTLB_STORE_MISSES.WALK_COMPLETED_4K [0x49/0x02]
event    DTLB_ST_WC_2M   DTLB_STORE_MISSES:WALK_COMPLETED_2M_4M    | DTLB_STORE_MISSES.WALK_COMPLETED_2M_4M [0x49/0x04]
event    DTLB_ST_WC_1G   DTLB_STORE_MISSES:WALK_COMPLETED_1G       | DTLB_STORE_MISSES.WALK_COMPLETED_1G [0x49/0x08]
event    VEC_MISMATCH    UOPS_ISSUED:VECTOR_WIDTH_MISMATCH         | UOPS_ISSUED.VECTOR_WIDTH_MISMATCH, blend uops inserted for SSE/AVX width mixing [0x0E/0x02]
event    PORT_0          UOPS_DISPATCHED_PORT:PORT_0               | UOPS_DISPATCHED_PORT.PORT_0, uops dispatched to port 0 [0xA1/0x01]
event    PORT_1          UOPS_DISPATCHED_PORT:PORT_1               | UOPS_DISPATCHED_PORT.PORT_1, uops dispatched to port 1 [0xA1/0x02]
event    PORT_2          UOPS_DISPATCHED_PORT:PORT_2               | UOPS_DISPATCHED_PORT.PORT_2, uops dispatched to port 2 [0xA1/0x04]
event    PORT_3          UOPS_DISPATCHED_PORT:PORT_3               | UOPS_DISPATCHED_PORT.PORT_3, uops dispatched to port 3 [0xA1/0x08]
event    PORT_4          UOPS_DISPATCHED_PORT:PORT_4               | UOPS_DISPATCHED_PORT.PORT_4, uops dispatched to port 4 [0xA1/0x10]
event    PORT_5          UOPS_DISPATCHED_PORT:PORT_5               | UOPS_DISPATCHED_PORT.PORT_5, uops dispatched to port 5 [0xA1/0x20]
event    PORT_6          UOPS_DISPATCHED_PORT:PORT_6               | UOPS_DISPATCHED_PORT.PORT_6, uops dispatched to port 6 [0xA1/0x40]
event    PORT_7          UOPS_DISPATCHED_PORT:PORT_7               | UOPS_DISPATCHED_PORT.PORT_7, uops dispatched to port 7 [0xA1/0x80]
event    FP_128B         FP_ARITH_INST_RETIRED:128B_PACKED_DOUBLE:128B_PACKED_SINGLE | FP_ARITH_INST_RETIRED.128B_PACKED_DOUBLE+128B_PACKED_SINGLE, 128-bit packed FP instructions [0xC7/0x0C]
event    FP_256B         FP_ARITH_INST_RETIRED:256B_PACKED_DOUBLE:256B_PACKED_SINGLE | FP_ARITH_INST_RETIRED.256B_PACKED_DOUBLE+256B_PACKED_SINGLE, 256-bit packed FP instructions [0xC7/0x30]
event    UOPS_EXEC_C1    UOPS_EXECUTED:THREAD:c=1                  | UOPS_EXECUTED.THREAD:c1, cycles this thread executed any uop [0xB1/0x01 c=1]
event    L1D_PEND_C1     L1D_PEND_MISS:PENDING:c=1                 | L1D_PEND_MISS.PENDING_CYCLES, cycles with an L1D miss outstanding [0x48/0x01 c=1]
event    RETIRE_C1       UOPS_RETIRED:RETIRE_SLOTS:c=1             | UOPS_RETIRED.RETIRE_SLOTS:c1, cycles with any uop retired [0xC2/0x02 c=1]
event    ISSUED_C1       UOPS_ISSUED:ANY:c=1                       | UOPS_ISSUED.ANY:c1, cycles with any uop issued [0x0E/0x01 c=1]
# perf's names for events libpfm4 4.13 spells differently or lacks (perf stat -x prints these)
perf-name MACRO_FUSED    uops_retired.macro_fused
perf-name CLEARS_COUNT   int_misc.clears_count
perf-name ITLB_STALL     icache_tag.stalls
perf-name LCP            decode.lcp
perf-name ICACHE_STALL_E cpu/icache_16b.ifdata_stall,cmask=1,edge=1/
perf-name DSB_ANY        idq.dsb_cycles_any
perf-name DSB_OK         idq.dsb_cycles_ok
perf-name LSD_OK         lsd.cycles_ok
perf-name FP_SCALAR      fp_arith_inst_retired.scalar
perf-name FP_VECTOR      fp_arith_inst_retired.vector
perf-name FB_FULL        cpu/l1d_pend_miss.fb_full,cmask=1/
perf-name REF_TSC        cpu_clk_unhalted.ref_tsc
perf-name DECODERS_C1    cpu/inst_decoded.decoders,cmask=1/
perf-name DECODERS_C2    cpu/inst_decoded.decoders,cmask=2/
perf-name DTLB_LD_HIT_C1 cpu/dtlb_load_misses.stlb_hit,cmask=1/
perf-name DTLB_ST_HIT_C1 cpu/dtlb_store_misses.stlb_hit,cmask=1/
perf-name ORO_DRD_C1     offcore_requests_outstanding.cycles_with_data_rd
perf-name ORO_DRD_C4     cpu/offcore_requests_outstanding.all_data_rd,cmask=4/
perf-name OCR_RFO_HITM   offcore_response.demand_rfo.l3_hit.snoop_hitm
perf-name NOP_INST       inst_retired.nop
perf-name L1D_PEND_C1    l1d_pend_miss.pending_cycles

# --- counters (planner; facts tma-formulas.md section 5) ---------------------------------------
# 8 general-purpose counters per logical CPU, 4 with hyperthreading on; 3 fixed counters. The NMI
# watchdog's cycles event takes fixed counter 1 (the x86 scheduler prefers fixed counters), so a
# second cycles event then needs a general-purpose counter.
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
# - SKL: intel_skl_event_constraints (intel/core.c:234-249): fixed 0-2 (:235-237); 8 GP counters with HT
#   off, 4 with it on (the table's 0xf masks: "when HT is off, these can only run on the bottom 4
#   counters", :241); no PERF_METRICS. Extra registers (intel_skl_extra_regs, :274-284): OFFCORE_RSP_0/1
#   (2 values), LDLAT and FRONTEND (1 each); no event of this file sets one.
counters  gp=8 smt-gp=4 fixed=3 watchdog=fixed:1
fixed     0 INST                        # INST_RETIRED.ANY (0xC0) may use fixed counter 0 or a GP counter
fixed     1 CLK_THREAD CLKS_ANY         # CPU_CLK_UNHALTED.THREAD(_ANY) (0x3C): fixed counter 1 or a GP counter
fixed     2 REF_TSC                     # CPU_CLK_UNHALTED.REF_TSC: fixed counter 2 only
limit     REF_TSC counters=fixed
nocounter TSC                           # msr PMU: no core counter, may join any group
# intel_skl_event_constraints (linux 6.12.117, Debian linux-source-6.12 6.12.117-1~deb12u1, no git
# commit in a Debian source package; arch/x86/events/intel/core.c:240-247): MEM_INST_RETIRED (0xD0),
# MEM_LOAD_RETIRED (0xD1), MEM_LOAD_L3_HIT_RETIRED (0xD2), MEM_TRANS_RETIRED (0xCD), FRONTEND_RETIRED
# (0xC6) on counters 0-3 only ("when HT is off, these can only run on the bottom 4 counters"; with HT
# on there are only 4). tests/tools/sched_check.py found ALL_LOADS..SPLIT_STORES missing here.
limit     L2_HIT FB_HIT L1_MISS L2_MISS L3_MISS MEM_INST ALL_LOADS ALL_STORES LOCK_LOADS SPLIT_STORES \
          L3_HIT XSNP_MISS XSNP_HIT XSNP_HITM counters=0-3
# Nodes whose events exceed one group (with SMT on: 4 counters): perf's skl-metrics.json marks the
# same metrics NO_GROUP_EVENTS. Their events may be spread over groups; the collector lowers the
# confidence of such a node (its parts are counted in different time windows).
span      Bad_Speculation.Branch_Mispredicts Bad_Speculation.Machine_Clears \
          Backend_Bound.Memory_Bound Backend_Bound.Core_Bound

# --- helpers and info metrics ------------------------------------------------------------------
let      CORE_CLKS_V  = CLKS_ANY / 2 if SMT_on else CLK_THREAD
let      RECOVERY_CYC = RECOVERY_ANY / 2 if SMT_on else RECOVERY
info     CLKS          Count   = CLK_THREAD                       | Per-thread unhalted core clocks (CPU_CLK_UNHALTED.THREAD)
info     CORE_CLKS     Count   = CORE_CLKS_V                | Core clocks: THREAD_ANY/2 with SMT on, else the thread clocks
info     SLOTS         Count   = W * CORE_CLKS              | Total issue-pipeline slots (per physical core on SKL)
info     IPC           Metric  = INST / CLKS                | Instructions per cycle (per logical processor)
info     CPI           Metric  = CLKS / INST                | Cycles per instruction
info     CoreIPC       Metric  = INST / CORE_CLKS           | Instructions per core clock
info     UopPI         Metric  = RETIRE_SLOTS / INST        | Uops (retirement slots) per instruction
info     IpBranch      Metric  = INST / BR_INST             | Instructions per branch
info     IpMispredict  Metric  = INST / BR_MISP             | Instructions per mispredicted branch
info     Branch_MPKI   MPKI    = 1000 * BR_MISP / INST      | Mispredicted branches per 1000 instructions
info     L1MPKI        MPKI    = 1000 * L1_MISS / INST      | Retired loads that missed L1D per 1000 instructions
info     L2MPKI        MPKI    = 1000 * L2_MISS / INST      | Retired loads that missed L2 per 1000 instructions
info     L3MPKI        MPKI    = 1000 * L3_MISS / INST      | Retired loads that missed L3 per 1000 instructions
info     ILP           Metric  = UOPS_EXEC / UOPS_EXEC_C1       | Uops executed per cycle with any uop executed (toplev ILP)
info     EPC           Metric  = UOPS_EXEC / CLKS               | Uops executed per cycle
info     Execute_per_Issue Metric = UOPS_EXEC / UOPS_ISSUED     | Uops executed per uop issued
info     Execute       Metric  = UOPS_EXEC / (EXEC_GE1 / 2 if SMT_on else UOPS_EXEC_C1) | Uops executed per cycle with any uop executed (core cycles with SMT on)
info     Retire        Metric  = RETIRE_SLOTS / RETIRE_C1       | Uops retired per cycle with any uop retired
info     Fetch_UpC     Metric  = UOPS_ISSUED / ISSUED_C1        | Uops issued per cycle with any uop issued
info     Load_Miss_Real_Latency Metric = LOAD_MISS_REAL_LATENCY | Average latency of L1D miss demand loads in core cycles
info     MLP           Metric  = L1D_PENDING / L1D_PEND_C1      | L1D misses outstanding per cycle with any outstanding (memory-level parallelism)
info     IpLoad        Metric  = INST / ALL_LOADS               | Instructions per load
info     IpStore       Metric  = INST / ALL_STORES              | Instructions per store
info     IpPause       Metric  = INST / PAUSE_INST              | Instructions per PAUSE
info     Turbo_Utilization Ratio = CLKS / REF_TSC            | Average frequency relative to the nominal (TSC) frequency
info     CPU_Utilization   Ratio = REF_TSC / TSC             | Fraction of time the logical CPU was unhalted (toplev CPU_Utilization)
info     Core_Frequency    GHz   = CLKS / REF_TSC * TSC / 1e9 / DURATION | Average core frequency while unhalted

# --- level 1 -----------------------------------------------------------------------------------
node  Frontend_Bound  Slots = FE_NOT / SLOTS \
      | > 0.15 | Slots the frontend did not fill while the backend could accept uops
node  Bad_Speculation Slots = (UOPS_ISSUED - RETIRE_SLOTS + W * RECOVERY_CYC) / SLOTS \
      | > 0.15 | Slots wasted on uops that never retire and on recovery from mispredicts and clears
node  Backend_Bound   Slots = 1 - Frontend_Bound - (UOPS_ISSUED + W * RECOVERY_CYC) / SLOTS \
      | > 0.20 | Slots with no uop issued because the backend lacked resources
node  Retiring        Slots = RETIRE_SLOTS / SLOTS \
      | this > 0.7 or Retiring.Heavy_Operations > 0.1 | Slots that retired a uop (useful work)

# --- Frontend_Bound ----------------------------------------------------------------------------
node  Frontend_Bound.Fetch_Latency   Slots = W * FE_LAT_CYC / SLOTS \
      | > 0.10 | Slots lost to cycles in which the frontend delivered no uop
node  Frontend_Bound.Fetch_Bandwidth Slots = Frontend_Bound - Frontend_Bound.Fetch_Latency \
      | > 0.20 | Slots lost because the frontend delivered fewer uops than the width
# TMA 5.01 defines Fetch_Bandwidth = Frontend_Bound - Fetch_Latency: the two partition their parent
# (perf's metric test, perf_metric_validation_rules.json, checks the same L2 sums)
partition Frontend_Bound
node  Frontend_Bound.Fetch_Latency.ICache_Misses Clocks = (ICACHE_STALL + 2 * ICACHE_STALL_E) / CLKS \
      | > 0.05 | Cycles stalled on instruction-cache misses
node  Frontend_Bound.Fetch_Latency.ITLB_Misses   Clocks = ITLB_STALL / CLKS \
      | > 0.05 | Cycles stalled on instruction-TLB misses
node  Frontend_Bound.Fetch_Latency.Branch_Resteers Clocks = RESTEER / CLKS + BAClear_Cost * BACLEARS / CLKS \
      | > 0.05 | Cycles the frontend was delayed fetching from corrected paths (may overlap its siblings)
node  Frontend_Bound.Fetch_Latency.Branch_Resteers.Mispredicts_Resteers Clocks = \
        BR_MISP / (BR_MISP + MC_COUNT) * RESTEER / CLKS \
      | > 0.05 | Resteer cycles after branch mispredictions
node  Frontend_Bound.Fetch_Latency.Branch_Resteers.Clears_Resteers Clocks = \
        (1 - BR_MISP / (BR_MISP + MC_COUNT)) * RESTEER / CLKS \
      | > 0.05 | Resteer cycles after machine clears
node  Frontend_Bound.Fetch_Latency.Branch_Resteers.Unknown_Branches Clocks_est = BAClear_Cost * BACLEARS / CLKS \
      | > 0.05 | Resteer cycles for branches the branch predictor did not know (9 cycles per BACLEAR)
# TMA 5.01: Branch_Resteers = CLEAR_RESTEER_CYCLES/CLKS + Unknown_Branches, and the resteer cycles
# split by BMr into Mispredicts_Resteers and Clears_Resteers: the three children add up to it
partition Frontend_Bound.Fetch_Latency.Branch_Resteers
unrelated Frontend_Bound.Fetch_Latency | TMA 5.01: the children are Clocks fractions that may overlap \
      (Branch_Resteers "may overlap with its siblings"); Intel's Info.Bottleneck metrics share Fetch_Latency \
      out in proportion child / sum of children, so neither a sum nor a bound is defined
node  Frontend_Bound.Fetch_Latency.MS_Switches   Clocks_est = MS_Switches_Cost * MS_SWITCHES / CLKS \
      | > 0.05 | Cycles lost switching to the microcode sequencer (2 cycles per switch)
node  Frontend_Bound.Fetch_Latency.LCP           Clocks = LCP / CLKS \
      | > 0.05 | Cycles stalled on length-changing prefixes
node  Frontend_Bound.Fetch_Latency.DSB_Switches  Clocks = DSB2MITE / CLKS \
      | > 0.05 | Cycles lost switching from the decoded-uop cache to the legacy decoders
node  Frontend_Bound.Fetch_Bandwidth.MITE Slots_est = (MITE_ANY - MITE_4) / CORE_CLKS / 2 \
      | > 0.10 | Bandwidth limits of the legacy decode pipeline (MITE)
node  Frontend_Bound.Fetch_Bandwidth.DSB  Slots_est = (DSB_ANY - DSB_OK) / CORE_CLKS / 2 \
      | > 0.15 | Bandwidth limits of the decoded-uop cache (DSB)
node  Frontend_Bound.Fetch_Bandwidth.LSD  Slots_est = (LSD_ACTIVE - LSD_OK) / CORE_CLKS / 2 \
      | > 0.15 | Bandwidth limits of the loop stream detector (LSD)
unrelated Frontend_Bound.Fetch_Bandwidth | TMA 5.01: MITE, DSB and LSD are estimates (core cycles each \
      delivered fewer than 4 uops, halved), not shares of Fetch_Bandwidth's slots; no sum or bound is defined

# --- Bad_Speculation ---------------------------------------------------------------------------
node  Bad_Speculation.Branch_Mispredicts Slots = BR_MISP / (BR_MISP + MC_COUNT) * Bad_Speculation \
      | > 0.10 | Slots wasted on branch mispredictions
node  Bad_Speculation.Machine_Clears     Slots = Bad_Speculation - Bad_Speculation.Branch_Mispredicts \
      | > 0.10 | Slots wasted on machine clears (memory ordering, self-modifying code, ...)
partition Bad_Speculation       # Machine_Clears = Bad_Speculation - Branch_Mispredicts
node  Bad_Speculation.Branch_Mispredicts.Other_Mispredicts Slots = \
        max(Bad_Speculation.Branch_Mispredicts * (1 - BR_MISP / (CLEARS_COUNT - MC_COUNT)), 0.0001) \
      | > 0.05 | Slots wasted on mispredictions other than retired x86 branches
node  Bad_Speculation.Machine_Clears.Other_Nukes Slots = \
        max(Bad_Speculation.Machine_Clears * (1 - MC_MO / MC_COUNT), 0.0001) \
      | > 0.05 | Slots wasted on machine clears not caused by memory ordering
# TMA 5.01: Other_Mispredicts and Other_Nukes are shares of their parents (parent * (1 - a ratio
# of counts that is within [0, 1] on consistent counts), floored at 0.0001), the only child of each
bound Bad_Speculation.Branch_Mispredicts = max(Bad_Speculation.Branch_Mispredicts, 0.0001) \
      | Other_Mispredicts = max(Branch_Mispredicts * (1 - BR_MISP / (CLEARS_COUNT - MC_COUNT)), 0.0001)
bound Bad_Speculation.Machine_Clears = max(Bad_Speculation.Machine_Clears, 0.0001) \
      | Other_Nukes = max(Machine_Clears * (1 - MC_MO / MC_COUNT), 0.0001)

# --- Backend_Bound -----------------------------------------------------------------------------
let   BE_BOUND_CYCLES = STALLS_TOTAL + EXE_1 + Retiring * EXE_2 + BOUND_ON_STORES
node  Backend_Bound.Memory_Bound Slots = (STALLS_MEM_ANY + BOUND_ON_STORES) / BE_BOUND_CYCLES * Backend_Bound \
      | > 0.20 | Slots stalled on the memory subsystem
node  Backend_Bound.Core_Bound   Slots = Backend_Bound - Backend_Bound.Memory_Bound \
      | > 0.10 | Slots stalled on the core (execution ports, dividers, serialization)
partition Backend_Bound         # Core_Bound = Backend_Bound - Memory_Bound
let   L2_HIT_ADJ = L2_HIT * (1 + FB_HIT / L1_MISS)
node  Backend_Bound.Memory_Bound.L1_Bound Stalls = max((STALLS_MEM_ANY - STALLS_L1D) / CLKS, 0) \
      | > 0.10 | Stall cycles with loads outstanding that hit L1D (DTLB misses, store forwarding, 4K aliasing, ...)
node  Backend_Bound.Memory_Bound.L2_Bound Stalls = L2_HIT_ADJ / (L2_HIT_ADJ + FB_FULL) * (STALLS_L1D - STALLS_L2) / CLKS \
      | > 0.05 | Stall cycles on loads that hit L2
node  Backend_Bound.Memory_Bound.L3_Bound Stalls = (STALLS_L2 - STALLS_L3) / CLKS \
      | > 0.05 | Stall cycles on loads that hit L3
node  Backend_Bound.Memory_Bound.DRAM_Bound Stalls = \
        STALLS_L3 / CLKS + (STALLS_L1D - STALLS_L2) / CLKS - Backend_Bound.Memory_Bound.L2_Bound \
      | > 0.10 | Stall cycles on loads served from DRAM (and L1D fill-buffer-full stalls)
node  Backend_Bound.Memory_Bound.Store_Bound Stalls = BOUND_ON_STORES / CLKS \
      | > 0.20 | Cycles the store buffer was full
# TMA 5.01: the Memory_Bound children split its numerator by the nested stall counters, per clock:
# L1 + L2 + L3 + DRAM = STALLS_MEM_ANY / CLKS (DRAM_Bound takes the L1D-miss stalls L2_Bound leaves),
# Store = BOUND_ON_STORES / CLKS. They are Stalls fractions of all cycles, not of Memory_Bound's
# slots: Memory_Bound rescales the same sum to Backend_Bound. Exact while L1_Bound's max(.., 0)
# does not bite (STALLS_MEM_ANY >= STALLS_L1D_MISS, which the nested counters guarantee).
children-sum Backend_Bound.Memory_Bound = (STALLS_MEM_ANY + BOUND_ON_STORES) / CLKS
node  Backend_Bound.Core_Bound.Divider Clocks = DIV_ACTIVE / CLKS \
      | > 0.20 | Cycles the divider unit was busy
node  Backend_Bound.Core_Bound.Serializing_Operation Clocks = SCOREBOARD / CLKS \
      | > 0.10 | Cycles stalled on serializing operations
node  Backend_Bound.Core_Bound.Ports_Utilization Clocks = \
        (EXE_0 + EXE_1 + Retiring * EXE_2) / CLKS if DIV_ACTIVE < STALLS_TOTAL - STALLS_MEM_ANY \
        else (EXE_1 + Retiring * EXE_2) / CLKS \
      | > 0.15 | Cycles with few or no uops executed for non-memory reasons (dependencies, port contention)
unrelated Backend_Bound.Core_Bound | TMA 5.01: Divider, Serializing_Operation and Ports_Utilization are \
      Clocks fractions of all cycles that may overlap (Ports_Utilization is "non divider-related" only by its \
      if), under a Slots share of Backend_Bound; Intel defines no sum or bound
node  Backend_Bound.Core_Bound.Ports_Utilization.Ports_Utilized_0 Clocks = EXE_0 / CLKS \
      | > 0.2 | Cycles with no uop executed on any port (and no memory miss)
node  Backend_Bound.Core_Bound.Ports_Utilization.Ports_Utilized_1 Clocks = \
        ((EXEC_GE1 - EXEC_GE2) / 2 if SMT_on else EXE_1) / CORE_CLKS \
      | > 0.2 | Cycles with exactly one uop executed
node  Backend_Bound.Core_Bound.Ports_Utilization.Ports_Utilized_2 Clocks = \
        ((EXEC_GE2 - EXEC_GE3) / 2 if SMT_on else EXE_2) / CORE_CLKS \
      | > 0.15 | Cycles with exactly two uops executed
node  Backend_Bound.Core_Bound.Ports_Utilization.Ports_Utilized_3m Clocks = \
        (EXEC_GE3 / 2 if SMT_on else EXEC_GE3) / CORE_CLKS \
      | > 0.4 | Cycles with three or more uops executed
unrelated Backend_Bound.Core_Bound.Ports_Utilization | TMA 5.01: Ports_Utilized_0/1/2/3m split all \
      cycles (core cycles with SMT on) by uops executed, 0, 1, 2 or 3+; Ports_Utilization counts 0- and 1-uop \
      cycles outside memory stalls and 2-uop cycles weighted by Retiring: no sum or bound is defined

# --- Retiring (Heavy_Operations first: Light_Operations is computed from it) -------------------------------------------------------------------------------
node  Retiring.Heavy_Operations Slots = (RETIRE_SLOTS + MACRO_FUSED - INST) / SLOTS \
      | > 0.1 | Slots retiring heavy operations (instructions of two or more uops, microcode)
node  Retiring.Light_Operations Slots = Retiring - Retiring.Heavy_Operations \
      | > 0.6 | Slots retiring light-weight operations (one uop per instruction)
partition Retiring              # Light_Operations = Retiring - Heavy_Operations
let   X87_USE_F   = Retiring * UOPS_X87 / UOPS_EXEC
let   FP_SCALAR_F = FP_SCALAR / RETIRE_SLOTS
let   FP_VECTOR_F = FP_VECTOR / RETIRE_SLOTS
node  Retiring.Light_Operations.FP_Arith Uops = X87_USE_F + FP_SCALAR_F + FP_VECTOR_F \
      | > 0.2 | Retired floating-point arithmetic uops
node  Retiring.Light_Operations.FP_Arith.X87_Use   Uops = X87_USE_F \
      | > 0.1 | Retired x87 floating-point uops (estimate from executed uops)
node  Retiring.Light_Operations.FP_Arith.FP_Scalar Uops = FP_SCALAR_F \
      | > 0.1 | Retired scalar SSE/AVX floating-point arithmetic uops
node  Retiring.Light_Operations.FP_Arith.FP_Vector Uops = FP_VECTOR_F \
      | > 0.1 | Retired packed SSE/AVX/AVX-512 floating-point arithmetic uops
partition Retiring.Light_Operations.FP_Arith   # TMA: FP_Arith = X87_Use + FP_Scalar + FP_Vector
node  Retiring.Light_Operations.Memory_Operations Slots = Retiring.Light_Operations * MEM_INST / INST \
      | > 0.1 | Slots retiring load and store instructions
node  Retiring.Light_Operations.Fused_Instructions Slots = Retiring.Light_Operations * MACRO_FUSED / RETIRE_SLOTS \
      | > 0.1 | Slots retiring macro-fused compare-and-branch pairs
node  Retiring.Light_Operations.Non_Fused_Branches Slots = \
        Retiring.Light_Operations * (BR_INST - MACRO_FUSED) / RETIRE_SLOTS \
      | > 0.1 | Slots retiring branches that were not macro-fused
node  Retiring.Light_Operations.Other_Light_Ops Slots = \
        max(0, Retiring.Light_Operations - (Retiring.Light_Operations.FP_Arith \
        + Retiring.Light_Operations.Memory_Operations + Retiring.Light_Operations.Fused_Instructions \
        + Retiring.Light_Operations.Non_Fused_Branches)) \
      | > 0.3 | Slots retiring other light operations (integer ALU, moves, ...)
# TMA 5.01: Other_Light_Ops is "the remaining light uops fraction ... not covered by other sibling
# nodes", max(0, Light_Operations - the other four): the five children add up to Light_Operations,
# or to the other four when those exceed it ("may undercount due to FMA double counting": FP_Arith
# is a Uops-domain node Intel subtracts from these slots; skl-smt-on.fix is such a case).
children-sum Retiring.Light_Operations = max(Retiring.Light_Operations, Retiring.Light_Operations.FP_Arith \
        + Retiring.Light_Operations.Memory_Operations + Retiring.Light_Operations.Fused_Instructions \
        + Retiring.Light_Operations.Non_Fused_Branches)
node  Retiring.Heavy_Operations.Microcode_Sequencer Slots = RETIRE_SLOTS / UOPS_ISSUED * MS_UOPS / SLOTS \
      | > 0.05 | Slots retiring uops from the microcode sequencer
node  Retiring.Heavy_Operations.Few_Uops_Instructions Slots = \
        Retiring.Heavy_Operations - Retiring.Heavy_Operations.Microcode_Sequencer \
      | > 0.05 | Slots retiring instructions decoded into two to four uops
partition Retiring.Heavy_Operations   # Few_Uops_Instructions = Heavy_Operations - Microcode_Sequencer

# --- level 4: pmu-tools skl_client_ratios.py, TMA 5.1-full (andikleen/pmu-tools commit 2568760f),
# classes of the same names with their helpers (Load_Miss_Real_Latency, FB_Factor, Mem_*_Cost =
# cycles x Core_Frequency, Mem_Lock_St_Fraction, ORO_* = min(CLKS, OFFCORE_REQUESTS_OUTSTANDING.*),
# Store_L2_Hit_Cycles, SQ_Full_Cycles); thresholds as there. The memory costs are in ns scaled by
# Core_Frequency (GHz), which needs the run time (duration_time) and msr/tsc/.
node  Frontend_Bound.Fetch_Latency.ITLB_Misses.Code_STLB_Miss Clocks_Retired = ITLB_WALK_ACT / CLKS \
      | > 0.05 | Cycles a code page walk was active (instruction fetches that missed the STLB)
node  Frontend_Bound.Fetch_Latency.ITLB_Misses.Code_STLB_Hit Clocks_Retired = \
        max(0, Frontend_Bound.Fetch_Latency.ITLB_Misses - Frontend_Bound.Fetch_Latency.ITLB_Misses.Code_STLB_Miss) \
      | > 0.05 | I-TLB miss cycles of code fetches that hit the STLB
partition Frontend_Bound.Fetch_Latency.ITLB_Misses   # Code_STLB_Hit = max(0, ITLB_Misses - Code_STLB_Miss)
node  Frontend_Bound.Fetch_Bandwidth.MITE.Decoder0_Alone Slots_est = (DECODERS_C1 - DECODERS_C2) / CORE_CLKS / 2 \
      | > 0.10 | Cycles only decoder 0 of the legacy decoders was utilized
unrelated Frontend_Bound.Fetch_Bandwidth.MITE | TMA 5.1: Decoder0_Alone is an estimate in core cycles, one \
      cause of MITE's shortfall; no sum or bound is given

let   LOAD_MISS_REAL_LATENCY = L1D_PENDING / (L1_MISS + FB_HIT)
let   FB_FACTOR = 1 + FB_HIT / L1_MISS / 2
let   MEM_LOCK_ST_FRACTION = LOCK_LOADS / ALL_STORES
let   ORO_DEMAND_RFO_C1 = min(CLK_THREAD, ORO_RFO_C1)
let   MEM_L2_HIT_COST = 3.5 * Core_Frequency
let   MEM_XSNP_HITM_COST = 22 * Core_Frequency
let   MEM_XSNP_HIT_COST = 20 * Core_Frequency
let   MEM_XSNP_NONE_COST = 10 * Core_Frequency
let   L1_NO_MISS_CYCLES = max(CYCLES_MEM_ANY - CYCLES_L1D_MISS, 0)
node  Backend_Bound.Memory_Bound.L1_Bound.DTLB_Load Clocks_est = \
        min(Mem_STLB_Hit_Cost * DTLB_LD_HIT_C1 + DTLB_LD_WALK, L1_NO_MISS_CYCLES) / CLKS \
      | > 0.10 | Cycles of load DTLB misses (STLB hits at a fixed cost, plus page walks)
node  Backend_Bound.Memory_Bound.L1_Bound.Store_Fwd_Blk Clocks_est = 13 * LD_STORE_FWD / CLKS \
      | > 0.10 | Cycles of loads blocked by stores that could not forward (13 each)
node  Backend_Bound.Memory_Bound.L1_Bound.L1_Latency_Dependency Clocks_est = \
        min(2 * (ALL_LOADS - FB_HIT - L1_MISS) * Dependent_Loads_Weight / 100, L1_NO_MISS_CYCLES) / CLKS \
      | > 0.10 | Cycles of dependent loads that hit L1D (pointer chasing)
node  Backend_Bound.Memory_Bound.L1_Bound.Lock_Latency Clocks = (12 * max(0, LOCK_LOADS - L2_ALL_RFO) + \
        MEM_LOCK_ST_FRACTION * (Mem_L2_Store_Cost * L2_RFO_HIT + ORO_DEMAND_RFO_C1)) / CLKS \
      | > 0.20 | Cycles of lock operations
node  Backend_Bound.Memory_Bound.L1_Bound.Split_Loads Clocks_Calculated = LOAD_MISS_REAL_LATENCY * LD_NO_SR / CLKS \
      | > 0.30 | Cycles of loads that cross a cache line
node  Backend_Bound.Memory_Bound.L1_Bound.4K_Aliasing Clocks_est = LD_4K_ALIAS / CLKS \
      | > 0.20 | Cycles of loads falsely blocked by stores 4K apart
node  Backend_Bound.Memory_Bound.L1_Bound.FB_Full Clocks_Calculated = LOAD_MISS_REAL_LATENCY * FB_FULL / CLKS \
      | > 0.30 | Cycles the L1D fill buffers were full
unrelated Backend_Bound.Memory_Bound.L1_Bound | TMA 5.1: the children are Clocks estimates of causes of \
      L1-hit load stalls, under a Stalls fraction; no sum or bound is given
node  Backend_Bound.Memory_Bound.L2_Bound.L2_Hit_Latency Clocks_Retired = \
        MEM_L2_HIT_COST * L2_HIT * FB_FACTOR / CLKS \
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
node  Backend_Bound.Memory_Bound.L3_Bound.SQ_Full Clocks = (SQ_FULL / 2 if SMT_on else SQ_FULL) / CORE_CLKS \
      | > 0.30 | Cycles the super queue (L2 miss requests) was full
unrelated Backend_Bound.Memory_Bound.L3_Bound | TMA 5.1: the children are cost estimates and a queue-full \
      fraction in clocks under a Stalls fraction; no sum or bound is given
node  Backend_Bound.Memory_Bound.DRAM_Bound.MEM_Bandwidth Clocks = min(CLK_THREAD, ORO_DRD_C4) / CLKS \
      | > 0.20 | Cycles with four or more data reads outstanding to memory (bandwidth)
node  Backend_Bound.Memory_Bound.DRAM_Bound.MEM_Latency Clocks = \
        min(CLK_THREAD, ORO_DRD_C1) / CLKS - Backend_Bound.Memory_Bound.DRAM_Bound.MEM_Bandwidth \
      | > 0.10 | Cycles with one to three data reads outstanding to memory (latency)
children-sum Backend_Bound.Memory_Bound.DRAM_Bound = min(CLK_THREAD, ORO_DRD_C1) / CLKS \
      | TMA 5.1: MEM_Latency = cycles with data reads outstanding / CLKS - MEM_Bandwidth
node  Backend_Bound.Memory_Bound.Store_Bound.Store_Latency Clocks_est = (L2_RFO_HIT * Mem_L2_Store_Cost * \
        (1 - MEM_LOCK_ST_FRACTION) + (1 - MEM_LOCK_ST_FRACTION) * ORO_DEMAND_RFO_C1) / CLKS \
      | > 0.10 | Cycles of store RFO latency (L2 hits at a fixed cost, plus outstanding RFOs)
node  Backend_Bound.Memory_Bound.Store_Bound.False_Sharing Clocks_est = MEM_XSNP_HITM_COST * OCR_RFO_HITM / CLKS \
      | > 0.05 | Cycles of store RFOs that hit a modified line in another core
node  Backend_Bound.Memory_Bound.Store_Bound.Split_Stores Core_Utilization = SPLIT_STORES / CORE_CLKS \
      | > 0.20 | Rate of stores that cross a cache line
node  Backend_Bound.Memory_Bound.Store_Bound.DTLB_Store Clocks_est = \
        (Mem_STLB_Hit_Cost * DTLB_ST_HIT_C1 + DTLB_ST_WALK) / CORE_CLKS \
      | > 0.05 | Cycles of store DTLB misses
unrelated Backend_Bound.Memory_Bound.Store_Bound | TMA 5.1: the children are cost estimates in clocks and a \
      rate per core clock under a Stalls fraction; no sum or bound is given
node  Backend_Bound.Core_Bound.Serializing_Operation.Slow_Pause Clocks = 140 * PAUSE_INST / CLKS \
      | > 0.05 | Cycles of PAUSE instructions (140 each)
unrelated Backend_Bound.Core_Bound.Serializing_Operation | TMA 5.1: Slow_Pause is a cost estimate of one \
      serializing instruction, not a documented share of the scoreboard stalls
node  Retiring.Light_Operations.Other_Light_Ops.Nop_Instructions Slots = \
        Retiring.Light_Operations * NOP_INST / RETIRE_SLOTS \
      | > 0.10 | Slots retiring NOP instructions
unrelated Retiring.Light_Operations.Other_Light_Ops | TMA 5.1: Nop_Instructions scales Light_Operations by \
      the NOP share of retired uops; it is not bounded by Other_Light_Ops
node  Retiring.Heavy_Operations.Microcode_Sequencer.Assists Slots_est = Avg_Assist_Cost * (FP_ASSIST + OTHER_ASSISTS) / SLOTS \
      | > 0.10 | Slots of microcode assists (34 cycles each)
node  Retiring.Heavy_Operations.Microcode_Sequencer.CISC Slots = \
        max(0, Retiring.Heavy_Operations.Microcode_Sequencer - Retiring.Heavy_Operations.Microcode_Sequencer.Assists) \
      | > 0.10 | Slots of CISC instructions the microcode sequencer expands
partition Retiring.Heavy_Operations.Microcode_Sequencer   # CISC = max(0, Microcode_Sequencer - Assists)

# --- levels 5 and 6: pmu-tools skl_client_ratios.py (TMA 5.1-full, andikleen/pmu-tools commit 2568760f),
# classes of the same names; thresholds as there. Port and Mixing_Vectors thresholds there do not
# require the parent's; here, as for every node, a flagged node needs flagged ancestors.
let   ITLB_WC = ITLB_WC_4K + ITLB_WC_2M
node  Frontend_Bound.Fetch_Latency.ITLB_Misses.Code_STLB_Miss.Code_STLB_Miss_4K Clocks_est = \
        Frontend_Bound.Fetch_Latency.ITLB_Misses.Code_STLB_Miss * ITLB_WC_4K / ITLB_WC \
      | > 0.05 | Code page-walk cycles of walks that completed to a 4K page (share of Code_STLB_Miss)
node  Frontend_Bound.Fetch_Latency.ITLB_Misses.Code_STLB_Miss.Code_STLB_Miss_2M Clocks_est = \
        Frontend_Bound.Fetch_Latency.ITLB_Misses.Code_STLB_Miss * ITLB_WC_2M / ITLB_WC \
      | > 0.05 | Code page-walk cycles of walks that completed to a 2M/4M page (share of Code_STLB_Miss)
partition Frontend_Bound.Fetch_Latency.ITLB_Misses.Code_STLB_Miss   # 4K and 2M share it out by completed walks

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
        (PORT_2 + PORT_3 + PORT_7 - PORT_4) / (2 * CORE_CLKS) \
      | > 0.6 | Utilization of the load ports (2, 3; port 7 uops beyond the store-data ones)
node  Backend_Bound.Core_Bound.Ports_Utilization.Ports_Utilized_3m.Load_Op_Utilization.Port_2 Core_Clocks = PORT_2 / CORE_CLKS \
      | > 0.6 | Core cycles port 2 (load, store address) dispatched a uop
node  Backend_Bound.Core_Bound.Ports_Utilization.Ports_Utilized_3m.Load_Op_Utilization.Port_3 Core_Clocks = PORT_3 / CORE_CLKS \
      | > 0.6 | Core cycles port 3 (load, store address) dispatched a uop
unrelated Backend_Bound.Core_Bound.Ports_Utilization.Ports_Utilized_3m.Load_Op_Utilization | TMA 5.1: \
      Load_Op_Utilization also counts port 7 minus port 4 uops, so Port_2 and Port_3 neither add up to it nor are bounded by it
node  Backend_Bound.Core_Bound.Ports_Utilization.Ports_Utilized_3m.Store_Op_Utilization Core_Execution = PORT_4 / CORE_CLKS \
      | > 0.6 | Utilization of the store-data port (4)
node  Backend_Bound.Core_Bound.Ports_Utilization.Ports_Utilized_3m.Store_Op_Utilization.Port_4 Core_Clocks = PORT_4 / CORE_CLKS \
      | > 0.6 | Core cycles port 4 (store data) dispatched a uop
node  Backend_Bound.Core_Bound.Ports_Utilization.Ports_Utilized_3m.Store_Op_Utilization.Port_7 Core_Clocks = PORT_7 / CORE_CLKS \
      | > 0.6 | Core cycles port 7 (simple store address) dispatched a uop
unrelated Backend_Bound.Core_Bound.Ports_Utilization.Ports_Utilized_3m.Store_Op_Utilization | TMA 5.1: Port_4 \
      equals Store_Op_Utilization and Port_7 (store address) is a separate port; no sum or bound is given
unrelated Backend_Bound.Core_Bound.Ports_Utilization.Ports_Utilized_3m | TMA 5.1: the ALU, load and store \
      utilizations are per-port averages over core cycles, not shares of the 3+-uop cycles

node  Retiring.Light_Operations.FP_Arith.FP_Vector.FP_Vector_128b Uops = FP_128B / RETIRE_SLOTS \
      | > 0.1 | Retired 128-bit packed SSE/AVX floating-point arithmetic uops
node  Retiring.Light_Operations.FP_Arith.FP_Vector.FP_Vector_256b Uops = FP_256B / RETIRE_SLOTS \
      | > 0.1 | Retired 256-bit packed AVX floating-point arithmetic uops
bound Retiring.Light_Operations.FP_Arith.FP_Vector | TMA 5.1: FP_Vector counts 128-, 256- and (SKX/CLX) \
      512-bit packed instructions; the 128b and 256b children are parts of it
node  Retiring.Heavy_Operations.Microcode_Sequencer.Assists.FP_Assists Slots_est = Avg_Assist_Cost * FP_ASSIST / SLOTS \
      | > 0.1 | Slots of floating-point assists (34 cycles each)
bound Retiring.Heavy_Operations.Microcode_Sequencer.Assists | TMA 5.1: Assists = 34 x (FP_ASSIST + OTHER_ASSISTS) \
      / SLOTS, FP_Assists its FP_ASSIST part

# --- CPI stack (fractions of CLKS; docs cpi-stack.md 2.7.1) ------------------------------------
# Frontend-latency children are clock fractions that may overlap; they are scaled to fit
# Fetch_Latency (FL_SCALE <= 1). Core children likewise into Core_Bound. Unscaled
# remainders (frontend-latency other, core other) end up in the engine's Other.
let   FL_RAW = Frontend_Bound.Fetch_Latency.ICache_Misses + Frontend_Bound.Fetch_Latency.ITLB_Misses \
        + Frontend_Bound.Fetch_Latency.Branch_Resteers + Frontend_Bound.Fetch_Latency.MS_Switches \
        + Frontend_Bound.Fetch_Latency.LCP + Frontend_Bound.Fetch_Latency.DSB_Switches
let   FL_SCALE = Frontend_Bound.Fetch_Latency / max(FL_RAW, Frontend_Bound.Fetch_Latency) \
        if Frontend_Bound.Fetch_Latency > 0 else 0
let   CORE_RAW = Backend_Bound.Core_Bound.Divider + Backend_Bound.Core_Bound.Serializing_Operation \
        + Backend_Bound.Core_Bound.Ports_Utilization
let   CORE_SCALE = Backend_Bound.Core_Bound / max(CORE_RAW, Backend_Bound.Core_Bound) \
        if Backend_Bound.Core_Bound > 0 else 0
let   MEM_PER_STALL = Backend_Bound / BE_BOUND_CYCLES

cpi-cycles        CLKS
cpi-instructions  INST
cpi   Base                derived   = Retiring \
      | Ideal retiring: retired uops at full width (TMA Retiring)
cpi   Branch_Mispredict   derived   = Bad_Speculation.Branch_Mispredicts \
        + FL_SCALE * Frontend_Bound.Fetch_Latency.Branch_Resteers.Mispredicts_Resteers \
      | Wrong-path slots, recovery and refill (resteer) cycles of mispredicted branches
cpi   Machine_Clear       derived   = Bad_Speculation.Machine_Clears \
        + FL_SCALE * Frontend_Bound.Fetch_Latency.Branch_Resteers.Clears_Resteers \
      | Slots and resteer cycles lost to machine clears
cpi   ICache_Miss         derived   = FL_SCALE * Frontend_Bound.Fetch_Latency.ICache_Misses \
      | Instruction-cache miss stall cycles (share of fetch latency)
cpi   ITLB_Miss           measured  = FL_SCALE * Frontend_Bound.Fetch_Latency.ITLB_Misses \
      | Instruction-TLB miss stall cycles (share of fetch latency)
cpi   Unknown_Branch      estimated = FL_SCALE * Frontend_Bound.Fetch_Latency.Branch_Resteers.Unknown_Branches \
      | BTB-miss resteers at an assumed 9 cycles each (share of fetch latency)
cpi   MS_Switch           estimated = FL_SCALE * Frontend_Bound.Fetch_Latency.MS_Switches \
      | Microcode-sequencer switches at an assumed 2 cycles each (share of fetch latency)
cpi   DSB_Switch          measured  = FL_SCALE * Frontend_Bound.Fetch_Latency.DSB_Switches \
      | DSB-to-MITE switch penalty cycles (share of fetch latency)
cpi   LCP_Stall           measured  = FL_SCALE * Frontend_Bound.Fetch_Latency.LCP \
      | Length-changing-prefix stall cycles (share of fetch latency)
cpi   Frontend_Bandwidth  derived   = Frontend_Bound.Fetch_Bandwidth \
      | Cycles the decoders or DSB delivered less than the width
cpi   DRAM                measured  = MEM_PER_STALL * STALLS_L3 \
      | Execution stalls with an L3 miss outstanding (counted once however many misses overlap)
cpi   L3_Hit              measured  = MEM_PER_STALL * (STALLS_L2 - STALLS_L3) \
      | Execution stalls on L2 misses that hit L3
cpi   L2_Hit              measured  = MEM_PER_STALL * (STALLS_L1D - STALLS_L2) \
      | Execution stalls on L1D misses that hit L2 (short misses)
cpi   L1_Other            derived   = MEM_PER_STALL * (STALLS_MEM_ANY - STALLS_L1D) \
      | Execution stalls with loads outstanding but no L1D miss (DTLB, store forwarding, ...)
cpi   Store_Bound         measured  = MEM_PER_STALL * BOUND_ON_STORES \
      | Cycles the store buffer was full
cpi   Divider             measured  = CORE_SCALE * Backend_Bound.Core_Bound.Divider \
      | Divider-busy cycles (share of core bound)
cpi   Serializing         measured  = CORE_SCALE * Backend_Bound.Core_Bound.Serializing_Operation \
      | Serializing-operation stall cycles (share of core bound)
cpi   Ports_ILP           derived   = CORE_SCALE * Backend_Bound.Core_Bound.Ports_Utilization \
      | Dependency and port-contention cycles (Eyerman base ILP part; share of core bound)

# --- locate: the event whose samples point at the code behind a node ------------------------------
# toplev 5.1-full skl_client_ratios.py's sample events (its `sample = [...]`, the first where it lists
# several; :pp there is PEBS, precise IPs where the event has them). Nodes toplev gives none lack a line
# (Bad_Speculation, Backend_Bound, Memory_Bound, Core_Bound ...). `tdctl run --hotspots=NODE` samples it.
# The FRONTEND_RETIRED latency events are libpfm4's IDQ_*_BUBBLE(S):fe_thres=N: MSR_PEBS_FRONTEND
# 0x400406 (LATENCY_GE_4), 0x401006 (LATENCY_GE_16), 0x100206 (LATENCY_GE_2_BUBBLES_GE_1), as perfmon's.
locate Frontend_Bound                                 FRONTEND_RETIRED:IDQ_4_BUBBLES:fe_thres=4  | FRONTEND_RETIRED.LATENCY_GE_4:pp
locate Frontend_Bound.Fetch_Latency                   FRONTEND_RETIRED:IDQ_4_BUBBLES:fe_thres=16 | FRONTEND_RETIRED.LATENCY_GE_16:pp
locate Frontend_Bound.Fetch_Latency.ICache_Misses     FRONTEND_RETIRED:L2_MISS                   | FRONTEND_RETIRED.L2_MISS:pp
locate Frontend_Bound.Fetch_Latency.ITLB_Misses       FRONTEND_RETIRED:STLB_MISS                 | FRONTEND_RETIRED.STLB_MISS:pp
locate Frontend_Bound.Fetch_Latency.Branch_Resteers   BR_MISP_RETIRED:ALL_BRANCHES               | BR_MISP_RETIRED.ALL_BRANCHES
locate Frontend_Bound.Fetch_Latency.MS_Switches       IDQ:MS_SWITCHES                            | IDQ.MS_SWITCHES
locate Frontend_Bound.Fetch_Latency.DSB_Switches      FRONTEND_RETIRED:DSB_MISS                  | FRONTEND_RETIRED.DSB_MISS:pp
locate Frontend_Bound.Fetch_Bandwidth                 FRONTEND_RETIRED:IDQ_1_BUBBLE:fe_thres=2   | FRONTEND_RETIRED.LATENCY_GE_2_BUBBLES_GE_1
locate Frontend_Bound.Fetch_Bandwidth.MITE            FRONTEND_RETIRED:ANY_DSB_MISS              | FRONTEND_RETIRED.ANY_DSB_MISS
locate Bad_Speculation.Branch_Mispredicts             BR_MISP_RETIRED:ALL_BRANCHES               | BR_MISP_RETIRED.ALL_BRANCHES:pp
locate Bad_Speculation.Machine_Clears                 MACHINE_CLEARS:COUNT                       | MACHINE_CLEARS.COUNT
locate Backend_Bound.Memory_Bound.L1_Bound            MEM_LOAD_RETIRED:L1_HIT                    | MEM_LOAD_RETIRED.L1_HIT
locate Backend_Bound.Memory_Bound.L2_Bound            MEM_LOAD_RETIRED:L2_HIT                    | MEM_LOAD_RETIRED.L2_HIT
locate Backend_Bound.Memory_Bound.L3_Bound            MEM_LOAD_RETIRED:L3_HIT                    | MEM_LOAD_RETIRED.L3_HIT:pp
locate Backend_Bound.Memory_Bound.DRAM_Bound          MEM_LOAD_RETIRED:L3_MISS                   | MEM_LOAD_RETIRED.L3_MISS
locate Backend_Bound.Memory_Bound.Store_Bound         MEM_INST_RETIRED:ALL_STORES                | MEM_INST_RETIRED.ALL_STORES:pp
locate Backend_Bound.Core_Bound.Serializing_Operation PARTIAL_RAT_STALLS:SCOREBOARD              | PARTIAL_RAT_STALLS.SCOREBOARD
locate Retiring                                       UOPS_RETIRED:RETIRE_SLOTS                  | UOPS_RETIRED.RETIRE_SLOTS
locate Retiring.Light_Operations                      INST_RETIRED:PREC_DIST                     | INST_RETIRED.PREC_DIST
locate Retiring.Heavy_Operations.Microcode_Sequencer  IDQ:MS_UOPS                                | IDQ.MS_UOPS
