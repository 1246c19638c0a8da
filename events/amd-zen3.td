# amd-zen3.td — AMD Zen 3 (Family 19h Models 00h-0Fh, 20h-5Fh): cycle-based ESTIMATE
pmu      amd64_fam19h_zen3
title    AMD Zen 3 (estimated top-down)
version  topdown cycle-based approximation (no AMD-defined method for Zen 3; facts tma-formulas.md 3.4)
note     ESTIMATED. Zen 3 has no slot-level top-down events (PMCx1A0, 0xD6, 0x1C2 are Zen 4 only) and
note     AMD defines no top-down method for it. This file approximates level 1 from four raw
note     estimates: Retiring and Bad_Speculation from retired vs dispatched ops over 6 slots per cycle;
note     Frontend_Bound from op-queue-empty cycles; Backend_Bound from dispatch resource/token stall
note     cycles. The raw estimates do not add up to 1: the frontend and backend terms are cycle counts
note     whose causes can overlap (and the two stall events can count the same cycle), so their sum can
note     exceed 1, and cycles none of them explains leave it below 1.
note     NORMALISED: each level-1 node is its raw estimate divided by the sum of the four raw estimates
note     (Estimate_Sum, shown as an info metric), so level 1 sums to 100% like a measured tree and the
note     CPI stack needs no scaling. The nodes stay estimates (domain Slots_est, CPI tag estimated):
note     read them as shares of the estimated total, and Estimate_Sum far from 1 as a warning that the
note     estimates overlap (> 1) or miss cycles (< 1).
note     Thresholds reuse Intel TMA level-1 values so that a bottleneck is marked.
note     No level 2: AMD publishes no pipeline-utilization metrics for Zen 3 (Linux perf has no
note     amdzen3/pipeline.json; amdzen4's L2 splits need PMCx1A0 cmask, 0xD6 and 0x1C2, which Zen 3
note     lacks), and a split made up here would not be AMD's method. Checked again for issue 20 (Linux
note     tools/perf/pmu-events/arch/x86/amdzen3/, torvalds/linux 57390019b68b): branch, cache, core,
note     data-fabric, floating-point, memory, other and recommended.json, no pipeline.json and no
note     PipelineL1/PipelineL2 metric group (amdzen4/ and amdzen5/ have pipeline.json).
note     Encodings: libpfm4 4.13 amd64_fam19h_zen3 event names (lib/events/amd64_events_fam19h_zen3.h);
note     the code/umask in brackets after each event is libpfm4's encoding of it, and where perf's
note     amdzen3 JSON lists the event (core.json, other.json) it gives the same code.

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
# Each normalised level-1 node reads all six events (its raw estimate over the sum of the four):
# with the watchdog holding a counter they cannot share one group, so they may spread over groups
# (lower confidence: the raw estimates are then counted in different time windows).
span      Frontend_Bound Bad_Speculation Backend_Bound Retiring Estimate_Sum

info     CLKS      Count  = CYCLES                | Unhalted core cycles
info     SLOTS     Count  = W * CYCLES            | Dispatch slots (6 per cycle, nominal)
info     IPC       Metric = INST / CYCLES         | Instructions per cycle
info     CPI       Metric = CYCLES / INST         | Cycles per instruction
info     OpsPI     Metric = RET_OPS / INST        | Macro-ops retired per instruction
info     Branch_MPKI MPKI = 1000 * BR_MISP / INST | Mispredicted branches per 1000 instructions

# raw estimates (fractions of cycles or of the 6 nominal slots), then normalised by their sum
let   FE_RAW  = QUEUE_EMPTY / CYCLES
let   BS_RAW  = max(OPS_DISP - RET_OPS, 0) / SLOTS
let   BE_RAW  = (TOKEN_STALL1 + TOKEN_STALL2) / CYCLES
let   RET_RAW = RET_OPS / SLOTS
info  Estimate_Sum Ratio = FE_RAW + BS_RAW + BE_RAW + RET_RAW \
      | Sum of the four raw level-1 estimates before normalising (> 1: they overlap; < 1: cycles unexplained)

node  Frontend_Bound  Slots_est = FE_RAW / Estimate_Sum \
      | > 0.15 | ESTIMATE: share of op-queue-empty cycles (frontend delivered nothing) in the estimated total
node  Bad_Speculation Slots_est = BS_RAW / Estimate_Sum \
      | > 0.15 | ESTIMATE: share of dispatch slots of ops that never retired in the estimated total
node  Backend_Bound   Slots_est = BE_RAW / Estimate_Sum \
      | > 0.20 | ESTIMATE: share of dispatch-stall cycles on backend resources (two events, may overlap) in the estimated total
node  Retiring        Slots_est = RET_RAW / Estimate_Sum \
      | > 0.70 | ESTIMATE: share of dispatch slots of ops that retired in the estimated total

cpi-cycles        CYCLES
cpi-instructions  INST
cpi   Base             estimated = Retiring         | Retired ops at 6 per cycle (normalised approximation)
cpi   Bad_Speculation  estimated = Bad_Speculation  | Dispatched ops that never retired, at 6 per cycle (normalised approximation)
cpi   Frontend         estimated = Frontend_Bound   | Op-queue-empty cycles (normalised approximation)
cpi   Backend          estimated = Backend_Bound    | Dispatch resource stall cycles (normalised approximation, may overlap)
