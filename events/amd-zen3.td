# amd-zen3.td — AMD Zen 3 (Family 19h Models 00h-0Fh, 20h-5Fh): cycle-based ESTIMATE
pmu      amd64_fam19h_zen3
title    AMD Zen 3 (estimated top-down)
version  topdown cycle-based approximation (no AMD-defined method for Zen 3; facts tma-formulas.md 3.4)
note     ESTIMATED. Zen 3 has no slot-level top-down events (PMCx1A0, 0xD6, 0x1C2 are Zen 4 only) and
note     AMD defines no top-down method for it. This file approximates level 1: Retiring and
note     Bad_Speculation from retired vs dispatched ops over 6 slots per cycle; Frontend_Bound from
note     op-queue-empty cycles; Backend_Bound from dispatch resource/token stall cycles.
note     The four nodes are NOT a partition: the frontend and backend terms are cycle counts whose
note     causes can overlap (and the two stall events can count the same cycle), so the sum can
note     exceed 1; the CPI stack is then scaled down by the engine. Read them as upper bounds.
note     Thresholds reuse Intel TMA level-1 values so that a bottleneck is marked; no L2.

const    W 6

event    CYCLES       CYCLES_NOT_IN_HALT                        | ls_not_halted_cyc, unhalted core cycles [0x76/0x00]
event    INST         RETIRED_INSTRUCTIONS                      | ex_ret_instr, instructions retired [0xC0/0x00]
event    RET_OPS      RETIRED_OPS                               | ex_ret_ops, macro-ops retired [0xC1/0x00]
event    OPS_DISP     OPS_SOURCE_DISPATCHED_FROM_DECODER:X86DECODER_DISPATCHED:OPCACHE_DISPATCHED | de_src_op_disp, ops dispatched from decoder and op cache [0xAA/0x03]
event    QUEUE_EMPTY  UOPS_QUEUE_EMPTY                          | de_dis_uop_queue_empty_di0, cycles the op queue was empty [0xA9/0x00]
event    TOKEN_STALL1 DISPATCH_RESOURCE_STALL_CYCLES_1:INT_PHY_REG_FILE_RSRC_STALL:LOAD_QUEUE_RSRC_STALL:STORE_QUEUE_RSRC_STALL:TAKEN_BRANCH_BUFFER_RSRC_STALL:FP_REG_FILE_RSRC_STALL:FP_SCHEDULER_RSRC_STALL:FP_FLUSH_RECOVERY_STALL | de_dis_dispatch_token_stalls1, cycles dispatch stalled on a full backend resource [0xAE/0xF7]
event    TOKEN_STALL2 DISPATCH_RESOURCE_STALL_CYCLES_2:INT_SCHEDULER_0_TOKEN_STALL:INT_SCHEDULER_1_TOKEN_STALL:INT_SCHEDULER_2_TOKEN_STALL:INT_SCHEDULER_3_TOKEN_STALL:RETIRE_TOKEN_STALL | de_dis_dispatch_token_stalls2, cycles dispatch stalled on scheduler or retire tokens [0xAF/0x2F]
event    BR_MISP      RETIRED_BRANCH_INSTRUCTIONS_MISPREDICTED  | ex_ret_brn_misp, mispredicted branches retired [0xC3/0x00]

# --- counters (planner): 6 general-purpose counters per thread, SMT or not, no fixed counters;
# the NMI watchdog's cycles event takes one of them.
counters  gp=6 watchdog=gp

info     CLKS      Count  = CYCLES                | Unhalted core cycles
info     SLOTS     Count  = W * CYCLES            | Dispatch slots (6 per cycle, nominal)
info     IPC       Metric = INST / CYCLES         | Instructions per cycle
info     CPI       Metric = CYCLES / INST         | Cycles per instruction
info     OpsPI     Metric = RET_OPS / INST        | Macro-ops retired per instruction
info     Branch_MPKI MPKI = 1000 * BR_MISP / INST | Mispredicted branches per 1000 instructions

node  Frontend_Bound  Clocks_est = QUEUE_EMPTY / CYCLES \
      | > 0.15 | ESTIMATE: cycles the op queue was empty (frontend delivered nothing), as a fraction of cycles
node  Bad_Speculation Slots_est = max(OPS_DISP - RET_OPS, 0) / SLOTS \
      | > 0.15 | ESTIMATE: dispatch slots of ops that never retired
node  Backend_Bound   Clocks_est = (TOKEN_STALL1 + TOKEN_STALL2) / CYCLES \
      | > 0.20 | ESTIMATE: cycles dispatch stalled on backend resources (two events, may overlap)
node  Retiring        Slots_est = RET_OPS / SLOTS \
      | > 0.70 | ESTIMATE: dispatch slots of ops that retired

cpi-cycles        CYCLES
cpi-instructions  INST
cpi   Base             estimated = Retiring         | Retired ops at 6 per cycle (approximation)
cpi   Bad_Speculation  estimated = Bad_Speculation  | Dispatched ops that never retired, at 6 per cycle (approximation)
cpi   Frontend         estimated = Frontend_Bound   | Op-queue-empty cycles (approximation)
cpi   Backend          estimated = Backend_Bound    | Dispatch resource stall cycles (approximation, may overlap)
