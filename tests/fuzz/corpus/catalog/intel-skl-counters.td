pmu      skl skx clx
title    Intel Skylake / Skylake-SP / Cascade Lake
version  TMA 5.01 (intel/perfmon SKL/metrics/skylake_metrics.json and CLX/metrics/cascadelakex_metrics.json, 12/02/2024)

const    W 4                     # issue width (slots per cycle)
param    SMT_on 0                # 1 = hyperthreading on: use *_ANY events / 2 for core clocks
const    BAClear_Cost 9          # cycles charged per BACLEARS.ANY (TMA 5.01 Unknown_Branches)
const    MS_Switches_Cost 2      # cycles charged per IDQ.MS_SWITCHES (TMA 5.01 MS_Switches)

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

counters  gp=8 smt-gp=4 fixed=3 watchdog=fixed:1
fixed     0 INST                        # INST_RETIRED.ANY (0xC0) may use fixed counter 0 or a GP counter
fixed     1 CLK_THREAD CLKS_ANY         # CPU_CLK_UNHALTED.THREAD(_ANY) (0x3C): fixed counter 1 or a GP counter
fixed     2 REF_TSC                     # CPU_CLK_UNHALTED.REF_TSC: fixed counter 2 only
limit     REF_TSC counters=fixed
nocounter TSC                           # msr PMU: no core counter, may join any group
limit     L2_HIT FB_HIT L1_MISS L2_MISS L3_MISS MEM_INST counters=0-3

let      CORE_CLKS_V  = CLKS_ANY / 2 if SMT_on else CLK_THREAD
let      RECOVERY_CYC = RECOVERY_ANY / 2 if SMT_on else RECOVERY

node  Frontend_Bound  Slots = FE_NOT / SLOTS \
      | > 0.15 | Slots the frontend did not fill while the backend could accept uops
node  Bad_Speculation Slots = (UOPS_ISSUED - RETIRE_SLOTS + W * RECOVERY_CYC) / SLOTS \
      | > 0.15 | Slots wasted on uops that never retire and on recovery from mispredicts and clears






cpi-cycles        CLKS
cpi-instructions  INST

