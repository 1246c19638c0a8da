# arm-neoverse.td — Arm Neoverse N1 (arm_n1) and V1 (arm_v1)
# Events are perf raw forms of the Arm PMUv3 common events (libpfm4's Arm tables exist only in
# Arm builds); each description gives Arm's event number as [Arm 0xNN].
pmu      arm_n1 arm_v1
title    Arm Neoverse N1 / V1
version  Arm topdown methodology: V1 per Arm telemetry-solution neoverse-v1.json and perf arm64 neoverse-v1/metrics.json (8 slots); N1 stage 1 Cycle_Accounting per neoverse-n1.json
note     Slot_events selects the level-1 definition: 1 = Arm's slot-based V1 formulas (STALL_SLOT_*,
note     OP_RETIRED/OP_SPEC, 8 slots, 4 x BR_MIS_PRED correction); 0 = N1, which has no slot events:
note     Frontend_Bound and Backend_Bound are Arm's stage-1 cycle accounting (STALL_FRONTEND and
note     STALL_BACKEND over CPU_CYCLES). Arm defines no Retiring/Bad_Speculation for N1: with
note     Slot_events 0 they are an approximation (the remaining cycles split by INST_RETIRED/INST_SPEC,
note     docs cpi-stack.md 2.7.4), not an Arm metric.
note     The default 0 is correct on N1 and safe on V1; a V1 host should set Slot_events 1 (format
note     extension proposed in td-format.md: per-model parameter defaults).
note     Level 2 on Arm is MPKI and miss-ratio groups (stage 2), given here as info metrics.
note     The 4 x BR_MIS_PRED constant comes from Arm's V1 metrics without a published derivation.

const    V1_SLOTS 8
const    V1_BR_MIS_PRED_COST 4
param    Slot_events 0

event    CPU_CYCLES          armv8_pmuv3/event=0x11/   | CPU_CYCLES, core cycles [Arm 0x11]
event    INST_RETIRED        armv8_pmuv3/event=0x08/   | INST_RETIRED, instructions architecturally executed [Arm 0x08]
event    INST_SPEC           armv8_pmuv3/event=0x1b/   | INST_SPEC, operations speculatively executed [Arm 0x1B]
event    STALL_FRONTEND      armv8_pmuv3/event=0x23/   | STALL_FRONTEND, cycles no operation was dispatched for lack of fetched instructions [Arm 0x23]
event    STALL_BACKEND       armv8_pmuv3/event=0x24/   | STALL_BACKEND, cycles no operation was dispatched for lack of backend resources [Arm 0x24]
event    BR_MIS_PRED         armv8_pmuv3/event=0x10/   | BR_MIS_PRED, mispredicted branches, speculative [Arm 0x10]
event    BR_MIS_PRED_RETIRED armv8_pmuv3/event=0x22/   | BR_MIS_PRED_RETIRED, mispredicted branches retired [Arm 0x22]
event    BR_RETIRED          armv8_pmuv3/event=0x21/   | BR_RETIRED, branches retired [Arm 0x21]
event    L1I_CACHE_REFILL    armv8_pmuv3/event=0x01/   | L1I_CACHE_REFILL, L1 instruction cache refills [Arm 0x01]
event    L1I_TLB_REFILL      armv8_pmuv3/event=0x02/   | L1I_TLB_REFILL, L1 instruction TLB refills [Arm 0x02]
event    L1D_CACHE_REFILL    armv8_pmuv3/event=0x03/   | L1D_CACHE_REFILL, L1 data cache refills [Arm 0x03]
event    L1D_CACHE           armv8_pmuv3/event=0x04/   | L1D_CACHE, L1 data cache accesses [Arm 0x04]
event    L1D_TLB_REFILL      armv8_pmuv3/event=0x05/   | L1D_TLB_REFILL, L1 data TLB refills [Arm 0x05]
event    L2D_CACHE_REFILL    armv8_pmuv3/event=0x17/   | L2D_CACHE_REFILL, L2 cache refills (unified) [Arm 0x17]
event    DTLB_WALK           armv8_pmuv3/event=0x34/   | DTLB_WALK, data TLB walks [Arm 0x34]
event    ITLB_WALK           armv8_pmuv3/event=0x35/   | ITLB_WALK, instruction TLB walks [Arm 0x35]
event    LL_CACHE_MISS_RD    armv8_pmuv3/event=0x37/   | LL_CACHE_MISS_RD, last-level cache read misses [Arm 0x37]
event    OP_RETIRED          armv8_pmuv3/event=0x3a/   | OP_RETIRED, micro-operations retired (V1) [Arm 0x3A]
event    OP_SPEC             armv8_pmuv3/event=0x3b/   | OP_SPEC, micro-operations speculatively executed (V1) [Arm 0x3B]
event    STALL_SLOT_BACKEND  armv8_pmuv3/event=0x3d/   | STALL_SLOT_BACKEND, slots with no operation sent for execution due to backend (V1) [Arm 0x3D]
event    STALL_SLOT_FRONTEND armv8_pmuv3/event=0x3e/   | STALL_SLOT_FRONTEND, slots with no operation sent for execution due to frontend (V1) [Arm 0x3E]
event    STALL_SLOT          armv8_pmuv3/event=0x3f/   | STALL_SLOT, slots with no operation sent for execution (V1) [Arm 0x3F]

# --- counters (planner): 6 programmable counters plus the PMUv3 cycle counter (fixed 0),
# which the NMI watchdog's cycles event takes when it runs.
counters  gp=6 fixed=1 watchdog=fixed:0
fixed     0 CPU_CYCLES

info     CLKS            Count  = CPU_CYCLES                              | Core cycles
info     IPC             Metric = INST_RETIRED / CPU_CYCLES               | Instructions per cycle
info     CPI             Metric = CPU_CYCLES / INST_RETIRED               | Cycles per instruction
info     frontend_stalled_cycles Ratio = STALL_FRONTEND / CPU_CYCLES      | Arm stage 1: fraction of cycles stalled in the frontend
info     backend_stalled_cycles  Ratio = STALL_BACKEND / CPU_CYCLES       | Arm stage 1: fraction of cycles stalled in the backend
info     branch_mpki      MPKI  = 1000 * BR_MIS_PRED_RETIRED / INST_RETIRED | Mispredicted branches per 1000 instructions
info     branch_misprediction_ratio Ratio = BR_MIS_PRED_RETIRED / BR_RETIRED | Fraction of retired branches mispredicted
info     l1i_cache_mpki   MPKI  = 1000 * L1I_CACHE_REFILL / INST_RETIRED  | L1 instruction cache refills per 1000 instructions
info     l1d_cache_mpki   MPKI  = 1000 * L1D_CACHE_REFILL / INST_RETIRED  | L1 data cache refills per 1000 instructions
info     l1d_cache_miss_ratio Ratio = L1D_CACHE_REFILL / L1D_CACHE        | L1 data cache miss ratio
info     l2_cache_mpki    MPKI  = 1000 * L2D_CACHE_REFILL / INST_RETIRED  | L2 cache refills per 1000 instructions
info     ll_cache_read_mpki MPKI = 1000 * LL_CACHE_MISS_RD / INST_RETIRED | Last-level cache read misses per 1000 instructions
info     itlb_walk_mpki   MPKI  = 1000 * ITLB_WALK / INST_RETIRED         | Instruction TLB walks per 1000 instructions
info     dtlb_walk_mpki   MPKI  = 1000 * DTLB_WALK / INST_RETIRED         | Data TLB walks per 1000 instructions

let   V1_SLOT_CYC = V1_SLOTS * CPU_CYCLES
node  Frontend_Bound  Slots = \
        STALL_SLOT_FRONTEND / V1_SLOT_CYC - V1_BR_MIS_PRED_COST * BR_MIS_PRED / CPU_CYCLES \
        if Slot_events else STALL_FRONTEND / CPU_CYCLES \
      | > 0.15 | V1: slots stalled in the frontend (less the mispredict share); N1: cycles stalled in the frontend
node  Backend_Bound   Slots = \
        STALL_SLOT_BACKEND / V1_SLOT_CYC if Slot_events else STALL_BACKEND / CPU_CYCLES \
      | > 0.20 | V1: slots stalled in the backend; N1: cycles stalled in the backend
node  Retiring        Slots = \
        OP_RETIRED / OP_SPEC * (1 - STALL_SLOT / V1_SLOT_CYC) if Slot_events \
        else (1 - Frontend_Bound - Backend_Bound) * INST_RETIRED / INST_SPEC \
      | > 0.70 | V1: slots that retired an operation; N1: approximation from INST_RETIRED/INST_SPEC (not an Arm metric)
node  Bad_Speculation Slots = \
        (1 - OP_RETIRED / OP_SPEC) * (1 - STALL_SLOT / V1_SLOT_CYC) + V1_BR_MIS_PRED_COST * BR_MIS_PRED / CPU_CYCLES \
        if Slot_events else (1 - Frontend_Bound - Backend_Bound) * (1 - INST_RETIRED / INST_SPEC) \
      | > 0.15 | V1: slots of operations that did not retire plus mispredict recovery; N1: approximation (not an Arm metric)

# CPI stack: Arm stage-1 cycle accounting, valid on N1 and V1 (docs cpi-stack.md 2.7.4)
let   DISPATCH_FRAC = 1 - STALL_FRONTEND / CPU_CYCLES - STALL_BACKEND / CPU_CYCLES
cpi-cycles        CPU_CYCLES
cpi-instructions  INST_RETIRED
cpi   Base             derived  = DISPATCH_FRAC * INST_RETIRED / INST_SPEC       | Dispatching cycles of operations that retired
cpi   Bad_Speculation  derived  = DISPATCH_FRAC * (1 - INST_RETIRED / INST_SPEC) | Dispatching cycles of operations that did not retire
cpi   Frontend         measured = STALL_FRONTEND / CPU_CYCLES                    | Cycles with nothing to dispatch (STALL_FRONTEND)
cpi   Backend          measured = STALL_BACKEND / CPU_CYCLES                     | Cycles dispatch was blocked by the backend (STALL_BACKEND)
