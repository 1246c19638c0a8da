# amd-zen4.td — AMD Zen 4 (Family 19h Models 10h+): dispatch-slot "pipeline utilization"
pmu      amd64_fam19h_zen4
title    AMD Zen 4
version  AMD PPR 55901 Table 28 pipeline utilization, as Linux perf amdzen4/pipeline.json (commit aba4cb3eb5b8)
note     Formulas: Linux tools/perf/pmu-events/arch/x86/amdzen4/pipeline.json (PipelineL1, PipelineL2).
note     Encodings: libpfm4 4.13 amd64_fam19h_zen4 event names; the event code/umask in brackets after
note     each event is perf's amdzen4 core.json/other.json/pipeline.json, from the same PPR.
note     Six dispatch slots per cycle, per thread. Level 1 has five categories: SMT_Contention holds
note     slots lost because the sibling thread owned dispatch (about 0 with SMT off).
note     Bad_Speculation is dispatched-but-not-retired ops only; unlike Intel it has no recovery term.
note     Node names follow toplev where the meaning matches (Fetch_Latency = AMD frontend_bound_latency,
note     Memory_Bound = backend_bound_memory, Core_Bound = backend_bound_cpu); AMD's own names are
note     kept for Pipeline_Restarts, Fastpath and Microcode.
note     AMD publishes no thresholds: the Intel TMA values (L1 0.15/0.15/0.20/0.70, L2 0.10/0.20) are
note     reused so bottleneck marking works; SMT_Contention uses 0.15 like the other stall categories.
note     perf uses d_ratio (0 on a zero denominator); here a zero denominator makes the node not available.

const    W 6

event    CYCLES            CYCLES_NOT_IN_HALT                        | ls_not_halted_cyc, unhalted core cycles [0x76/0x00]
event    INST              RETIRED_INSTRUCTIONS                      | ex_ret_instr, instructions retired [0xC0/0x00]
event    RET_OPS           RETIRED_OPS                               | ex_ret_ops, macro-ops retired [0xC1/0x00]
event    FE_NO_OPS         DISPATCH_STALLS_1:FE_NO_OPS               | de_no_dispatch_per_slot.no_ops_from_frontend, slots empty for lack of ops [0x1A0/0x01]
event    FE_NO_OPS_C6      DISPATCH_STALLS_1:FE_NO_OPS:c=6           | de_no_dispatch_per_slot.no_ops_from_frontend cmask 6, cycles all 6 slots empty [0x1A0/0x01 c=6]
event    BE_STALLS         DISPATCH_STALLS_1:BE_STALLS               | de_no_dispatch_per_slot.backend_stalls, slots blocked by backend resources [0x1A0/0x1E]
event    SMT_CONT          DISPATCH_STALLS_1:SMT_CONTENTION          | de_no_dispatch_per_slot.smt_contention, slots lost to the sibling thread (libpfm text for this umask is wrong) [0x1A0/0x60]
event    OPS_DISP          OPS_SOURCE_DISPATCHED_FROM_DECODER:DECODER:OPCACHE:LOOP_BUFFER | de_src_op_disp.all, ops dispatched from decoder, op cache and loop buffer [0xAA/0x07]
event    BR_MISP           RETIRED_BRANCH_INSTRUCTIONS_MISPREDICTED  | ex_ret_brn_misp, mispredicted branches retired [0xC3/0x00]
event    RESYNCS           RESYNCS                                   | resyncs_or_nc_redirects, pipeline restarts [0x96/0x00]
event    NOT_COMPLETE      CYCLES_NO_RETIRE:NOT_COMPLETE_LOAD_AND_ALU | ex_no_retire.not_complete, cycles the oldest op waited to complete [0xD6/0x02]
event    LOAD_NOT_COMPLETE CYCLES_NO_RETIRE:NOT_COMPLETE_MISSING_LOAD | ex_no_retire.load_not_complete, cycles the oldest op waited for load data [0xD6/0xA2]
event    UCODE_OPS         RETIRED_UCODE_OPS                         | ex_ret_ucode_ops, microcode ops retired [0x1C2/0x00]

# The names perf prints for these events (perf list / perf stat -e NAME), read by 'tdctl import'.
perf-name CYCLES            ls_not_halted_cyc
perf-name INST              ex_ret_instr
perf-name RET_OPS           ex_ret_ops
perf-name FE_NO_OPS         de_no_dispatch_per_slot.no_ops_from_frontend
perf-name FE_NO_OPS_C6      cpu/de_no_dispatch_per_slot.no_ops_from_frontend,cmask=0x6/
perf-name BE_STALLS         de_no_dispatch_per_slot.backend_stalls
perf-name SMT_CONT          de_no_dispatch_per_slot.smt_contention
perf-name OPS_DISP          de_src_op_disp.all
perf-name BR_MISP           ex_ret_brn_misp
perf-name RESYNCS           resyncs_or_nc_redirects
perf-name NOT_COMPLETE      ex_no_retire.not_complete
perf-name LOAD_NOT_COMPLETE ex_no_retire.load_not_complete
perf-name UCODE_OPS         ex_ret_ucode_ops

# --- counters (planner): 6 general-purpose counters per thread, SMT or not, no fixed counters;
# the NMI watchdog's cycles event takes one of them.
# Kernel source: linux 6.12.117 (Debian linux-source-6.12 6.12.117-1~deb12u1; a Debian source package
# carries no git commit). Paths are relative to its root.
# Zen 4 (family 19h): 6 core counters (AMD64_NUM_COUNTERS_CORE, arch/x86/include/asm/perf_event.h:130;
# with PerfMonV2 CPUID 0x80000022 gives the number, arch/x86/events/amd/core.c:1435-1442), no fixed
# counters, no PERF_METRICS. Family 17h+ constraints (amd_get_event_constraints_f17h(), amd/core.c:1236):
# any counter, except event 0x003 (Retired SSE/AVX FLOPs), which takes an even/odd counter pair
# (pair_constraint, :1471-1477) -- no event of this file. The NMI watchdog's cycles event (0x0076,
# amd_zen4_perfmon_event_map, amd/core.c:276-286, chosen by amd_pmu_event_map(), :288-291) takes one of the six.
counters  gp=6 watchdog=gp

info     CLKS      Count  = CYCLES                | Unhalted core cycles
info     SLOTS     Count  = W * CYCLES            | Dispatch slots (6 per cycle)
info     IPC       Metric = INST / CYCLES         | Instructions per cycle
info     CPI       Metric = CYCLES / INST         | Cycles per instruction
info     OpsPI     Metric = RET_OPS / INST        | Macro-ops retired per instruction
info     Branch_MPKI MPKI = 1000 * BR_MISP / INST | Mispredicted branches per 1000 instructions

node  Frontend_Bound  Slots = FE_NO_OPS / SLOTS \
      | > 0.15 | Dispatch slots empty because the frontend supplied no ops
node  Bad_Speculation Slots = (OPS_DISP - RET_OPS) / SLOTS \
      | > 0.15 | Dispatch slots used by ops that never retired
node  Backend_Bound   Slots = BE_STALLS / SLOTS \
      | > 0.20 | Dispatch slots blocked by backend resources
node  SMT_Contention  Slots = SMT_CONT / SLOTS \
      | > 0.15 | Dispatch slots lost because the other SMT thread was selected
node  Retiring        Slots = RET_OPS / SLOTS \
      | > 0.70 | Dispatch slots of ops that retired (useful work)

node  Frontend_Bound.Fetch_Latency   Slots = W * FE_NO_OPS_C6 / SLOTS \
      | > 0.10 | Slots lost in cycles with no op at all from the frontend (AMD frontend_bound_latency)
node  Frontend_Bound.Fetch_Bandwidth Slots = (FE_NO_OPS - W * FE_NO_OPS_C6) / SLOTS \
      | > 0.20 | Slots lost in cycles the frontend supplied some but fewer than 6 ops (AMD frontend_bound_bandwidth)
partition Frontend_Bound        # AMD: latency + bandwidth = frontend_bound
node  Bad_Speculation.Branch_Mispredicts Slots = Bad_Speculation * BR_MISP / (BR_MISP + RESYNCS) \
      | > 0.10 | Bad-speculation slots attributed to branch mispredictions (AMD bad_speculation_mispredicts)
node  Bad_Speculation.Pipeline_Restarts  Slots = Bad_Speculation * RESYNCS / (BR_MISP + RESYNCS) \
      | > 0.10 | Bad-speculation slots attributed to resyncs and redirects (AMD bad_speculation_pipeline_restarts)
partition Bad_Speculation       # AMD: mispredicts + pipeline_restarts = bad_speculation
node  Backend_Bound.Memory_Bound Slots = Backend_Bound * LOAD_NOT_COMPLETE / NOT_COMPLETE \
      | > 0.20 | Backend slots while the oldest op waited for memory (AMD backend_bound_memory)
node  Backend_Bound.Core_Bound   Slots = Backend_Bound * (1 - LOAD_NOT_COMPLETE / NOT_COMPLETE) \
      | > 0.10 | Backend slots while the oldest op waited on execution (AMD backend_bound_cpu)
partition Backend_Bound         # AMD: backend_bound_memory + backend_bound_cpu = backend_bound
node  Retiring.Fastpath  Slots = Retiring * (1 - UCODE_OPS / RET_OPS) \
      | > 0.6 | Retiring slots of fast-path (non-microcode) ops (AMD retiring_fastpath)
node  Retiring.Microcode Slots = Retiring * UCODE_OPS / RET_OPS \
      | > 0.1 | Retiring slots of microcode ops (AMD retiring_microcode)
partition Retiring              # AMD: retiring_fastpath + retiring_microcode = retiring

cpi-cycles        CYCLES
cpi-instructions  INST
cpi   Base                derived  = Retiring                            | Ideal retiring: retired ops at 6 per cycle
cpi   Branch_Mispredict   derived  = Bad_Speculation.Branch_Mispredicts  | Wrong-path dispatch of mispredicted branches
cpi   Pipeline_Restart    derived  = Bad_Speculation.Pipeline_Restarts   | Wrong-path dispatch of resyncs and redirects
cpi   Frontend_Latency    measured = FE_NO_OPS_C6 / CYCLES               | Cycles with all six dispatch slots empty from the frontend
cpi   Frontend_Bandwidth  derived  = Frontend_Bound.Fetch_Bandwidth      | Frontend supplied fewer than six ops
cpi   SMT_Contention      derived  = SMT_Contention                      | Slots lost to the sibling thread
cpi   Memory              derived  = Backend_Bound.Memory_Bound          | Backend stalls while the oldest op waited for a load
cpi   Core                derived  = Backend_Bound.Core_Bound            | Backend stalls while the oldest op waited on execution
