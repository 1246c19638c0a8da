pmu      spr
title    Intel Sapphire Rapids
version  TMA 5.2 (intel/perfmon SPR/metrics/sapphirerapids_metrics.json)

const    W 6
param    SMT_on 0

event    SLOTS_EV        TOPDOWN:SLOTS                             | TOPDOWN.SLOTS, issue slots (fixed counter 3, group leader) [fixed 0x00/0x04]
event    TD_RET          cpu/event=0x0,umask=0x80/                 | PERF_METRICS.RETIRING (perf topdown-retiring), in slots [pseudo 0x00/0x80]
event    TD_BAD          cpu/event=0x0,umask=0x81/                 | PERF_METRICS.BAD_SPECULATION (perf topdown-bad-spec), in slots [pseudo 0x00/0x81]
event    TD_FE           cpu/event=0x0,umask=0x82/                 | PERF_METRICS.FRONTEND_BOUND (perf topdown-fe-bound), in slots [pseudo 0x00/0x82]
event    TD_BE           cpu/event=0x0,umask=0x83/                 | PERF_METRICS.BACKEND_BOUND (perf topdown-be-bound), in slots [pseudo 0x00/0x83]
event    TD_HEAVY        cpu/event=0x0,umask=0x84/                 | PERF_METRICS.HEAVY_OPERATIONS (perf topdown-heavy-ops), in slots [pseudo 0x00/0x84]
event    TD_BR_MISP      cpu/event=0x0,umask=0x85/                 | PERF_METRICS.BRANCH_MISPREDICTS (perf topdown-br-mispredict), in slots [pseudo 0x00/0x85]
event    TD_FETCH_LAT    cpu/event=0x0,umask=0x86/                 | PERF_METRICS.FETCH_LATENCY (perf topdown-fetch-lat), in slots [pseudo 0x00/0x86]
event    TD_MEM          cpu/event=0x0,umask=0x87/                 | PERF_METRICS.MEMORY_BOUND (perf topdown-mem-bound), in slots [pseudo 0x00/0x87]
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
event    MS_UOPS_RET     UOPS_RETIRED:MS                           | UOPS_RETIRED.MS, retired uops from the microcode sequencer [0xC2/0x08]
event    L1_MISS         MEM_LOAD_RETIRED:L1_MISS                  | MEM_LOAD_RETIRED.L1_MISS [0xD1/0x08]
event    L2_MISS         MEM_LOAD_RETIRED:L2_MISS                  | MEM_LOAD_RETIRED.L2_MISS [0xD1/0x10]
event    L3_MISS         MEM_LOAD_RETIRED:L3_MISS                  | MEM_LOAD_RETIRED.L3_MISS [0xD1/0x20]

counters  gp=8 fixed=4 watchdog=fixed:1
fixed     0 INST
fixed     1 CLK_THREAD
fixed     2 REF_TSC
fixed     3 SLOTS_EV
limit     REF_TSC SLOTS_EV counters=fixed
topdown-group SLOTS_EV TD_RET TD_BAD TD_FE TD_BE TD_HEAVY TD_BR_MISP TD_FETCH_LAT TD_MEM
limit     ICACHE_STALL ITLB_STALL MA_L1D MA_L2 MA_L3 L1_MISS L2_MISS L3_MISS counters=0-3
limit     BR_MISP_SLOTS counters=0

let      PM_SUM    = TD_FE + TD_BAD + TD_RET + TD_BE
let      PM        = available(PM_SUM)

node  Frontend_Bound  Slots = TD_FE / PM_SUM - UOP_DROPPING / SLOTS if PM else (IDQ_BUBBLES - UOP_DROPPING) / SLOTS \
      | > 0.15 | Slots the frontend did not fill while the backend could accept uops
node  Backend_Bound   Slots = TD_BE / PM_SUM if PM else BE_SLOTS / SLOTS \
      | > 0.20 | Slots with no uop issued because the backend lacked resources


cpi-cycles        CLKS
cpi-instructions  INST

