pmu      icl icx
title    Intel Ice Lake / Ice Lake-SP
version  TMA 5.1 (intel/perfmon ICL/metrics/icelake_metrics.json, 06/17/2025)

const    W 5
param    SMT_on 0
const    BAClear_Cost 10         # cycles per BACLEARS.ANY (TMA 5.1 ICL Unknown_Branches)

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

counters  gp=8 fixed=4 watchdog=fixed:1
fixed     0 INST
fixed     1 CLK_THREAD
fixed     2 REF_TSC
fixed     3 SLOTS_EV
limit     REF_TSC SLOTS_EV counters=fixed
topdown-group SLOTS_EV TD_RET TD_BAD TD_FE TD_BE
limit     STALLS_L1D STALLS_L2 STALLS_L3 MS_UOPS MITE_UOPS ICACHE_STALL ITLB_STALL BACLEARS \
          L2_HIT FB_HIT L1_MISS L2_MISS L3_MISS FB_FULL_PERIODS counters=0-3

let      PM_SUM    = TD_FE + TD_BAD + TD_RET + TD_BE

node  Frontend_Bound  Slots = TD_FE / PM_SUM - UOP_DROPPING / SLOTS \
      | > 0.15 | Slots the frontend did not fill while the backend could accept uops
node  Backend_Bound   Slots = TD_BE / PM_SUM + W * CLEARS_COUNT / SLOTS \
      | > 0.20 | Slots with no uop issued because the backend lacked resources
node  Retiring        Slots = TD_RET / PM_SUM \
      | this > 0.7 or Retiring.Heavy_Operations > 0.1 | Slots that retired a uop (useful work)





cpi-cycles        CLKS
cpi-instructions  INST

