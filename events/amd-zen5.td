# amd-zen5.td — AMD Zen 5 (Family 1Ah Models 00h-2Fh, 40h-4Fh, 60h-7Fh): dispatch-slot "pipeline utilization"
pmu      amd64_fam1ah_zen5
title    AMD Zen 5
version  AMD pipeline utilization L1-L2, as Linux perf amdzen5/pipeline.json (commit a9fe4ac7a3a2 "Add Zen 5 metrics")
note     Formulas: Linux tools/perf/pmu-events/arch/x86/amdzen5/pipeline.json (PipelineL1, PipelineL2),
note     added by AMD (commit a9fe4ac7a3a2) from AMD's "Performance Monitor Counters for AMD Family 1Ah
note     Model 00h-0Fh Processors" (the source its cover letter names).
note     Encodings: the same directory's decode.json, branch-prediction.json, load-store.json and
note     execution.json (core events commit 45c072f2537a, same AMD document; execution.json read from
note     the Linux mirror Kingxukai/linux 9b44fff655e2): event code / umask beside each event below.
note     libpfm4 4.13 has no Zen 5 table, so every event is a raw perf form. The host is recognised by
note     CPUID vendor AuthenticAMD, family 1Ah and the Zen 5 model ranges of Linux
note     arch/x86/kernel/cpu/amd.c (bsp_init_amd, X86_FEATURE_ZEN5); a libpfm4 that knows Zen 5 calls
note     the model amd64_fam1ah_zen5, so this file serves it either way.
note     Eight dispatch slots per cycle, per thread (Zen 4: six). Level 1 has five categories:
note     SMT_Contention holds slots lost because the sibling thread owned dispatch (about 0 with SMT off).
note     Bad_Speculation is dispatched-but-not-retired ops only; unlike Intel it has no recovery term.
note     Zen 5 splits it with bp_redirects.resync (PMCx09F umask 1) where Zen 4 used
note     resyncs_or_nc_redirects (PMCx096).
note     Node names follow toplev where the meaning matches (Fetch_Latency = AMD frontend_bound_by_latency,
note     Memory_Bound = backend_bound_by_memory, Core_Bound = backend_bound_by_cpu); AMD's own names are
note     kept for Pipeline_Restarts, Fastpath and Microcode.
note     AMD publishes no thresholds: the Intel TMA values (L1 0.15/0.15/0.20/0.70, L2 0.10/0.20) are
note     reused so bottleneck marking works, as in amd-zen4.td.
note     perf uses d_ratio (0 on a zero denominator); here a zero denominator makes the node not available.

const    W 8         # pipeline.json total_dispatch_slots = 8 * ls_not_halted_cyc

# Raw encodings: cpu/event=CODE,umask=MASK/ with the event code and umask of perf's amdzen5 JSON
# (file named per line). Event codes above 0xff use the x86 event bits 32-35 (cpu format
# event=config:0-7,32-35 on AMD).
event    CYCLES            cpu/event=0x76,umask=0x0/               | ls_not_halted_cyc, core cycles not in halt (load-store.json) [0x76/0x00]
event    INST              cpu/event=0xc0,umask=0x0/               | ex_ret_instr, retired instructions (execution.json) [0xC0/0x00]
event    RET_OPS           cpu/event=0xc1,umask=0x0/               | ex_ret_ops, retired macro-ops (execution.json) [0xC1/0x00]
event    FE_NO_OPS         cpu/event=0x1a0,umask=0x1/              | de_no_dispatch_per_slot.no_ops_from_frontend, slots empty because the frontend supplied no ops (decode.json) [0x1A0/0x01]
event    FE_NO_OPS_C8      cpu/event=0x1a0,umask=0x1,cmask=0x8/    | de_no_dispatch_per_slot.no_ops_from_frontend cmask 8, cycles all 8 slots empty (pipeline.json) [0x1A0/0x01 c=8]
event    BE_STALLS         cpu/event=0x1a0,umask=0x1e/             | de_no_dispatch_per_slot.backend_stalls, ops unable to dispatch for backend stalls (decode.json) [0x1A0/0x1E]
event    SMT_CONT          cpu/event=0x1a0,umask=0x60/             | de_no_dispatch_per_slot.smt_contention, ops unable to dispatch because the other thread had the cycle (decode.json) [0x1A0/0x60]
event    OPS_DISP          cpu/event=0xaa,umask=0x7/               | de_src_op_disp.all, ops dispatched from any source (decode.json) [0xAA/0x07]
event    BR_MISP           cpu/event=0xc3,umask=0x0/               | ex_ret_brn_misp, retired branch instructions mispredicted (execution.json) [0xC3/0x00]
event    RESYNCS           cpu/event=0x9f,umask=0x1/               | bp_redirects.resync, branch predictor redirects caused by resyncs (branch-prediction.json) [0x9F/0x01]
event    NOT_COMPLETE      cpu/event=0xd6,umask=0x2/               | ex_no_retire.not_complete, cycles with no retire while the oldest op waits to execute (execution.json) [0xD6/0x02]
event    LOAD_NOT_COMPLETE cpu/event=0xd6,umask=0xa2/              | ex_no_retire.load_not_complete, cycles with no retire while the oldest op waits for load data (execution.json) [0xD6/0xA2]
event    UCODE_OPS         cpu/event=0x1c2,umask=0x0/              | ex_ret_ucode_ops, retired microcode ops (execution.json) [0x1C2/0x00]

# The names perf prints for these events (perf list / perf stat -e NAME), read by 'tdctl import'.
perf-name CYCLES            ls_not_halted_cyc
perf-name INST              ex_ret_instr
perf-name RET_OPS           ex_ret_ops
perf-name FE_NO_OPS         de_no_dispatch_per_slot.no_ops_from_frontend
perf-name FE_NO_OPS_C8      cpu/de_no_dispatch_per_slot.no_ops_from_frontend,cmask=0x8/
perf-name BE_STALLS         de_no_dispatch_per_slot.backend_stalls
perf-name SMT_CONT          de_no_dispatch_per_slot.smt_contention
perf-name OPS_DISP          de_src_op_disp.all
perf-name BR_MISP           ex_ret_brn_misp
perf-name RESYNCS           bp_redirects.resync
perf-name NOT_COMPLETE      ex_no_retire.not_complete
perf-name LOAD_NOT_COMPLETE ex_no_retire.load_not_complete
perf-name UCODE_OPS         ex_ret_ucode_ops

# --- counters (planner): 6 general-purpose core counters per thread, SMT or not, no fixed
# counters (Linux arch/x86/include/asm/perf_event.h AMD64_NUM_COUNTERS_CORE); the NMI
# watchdog's cycles event takes one of them.
# Kernel source: linux 6.12.117 (Debian linux-source-6.12 6.12.117-1~deb12u1; a Debian source package
# carries no git commit). Paths are relative to its root.
# Zen 5 (family 1Ah): as Zen 4 -- 6 core counters (AMD64_NUM_COUNTERS_CORE, arch/x86/include/asm/
# perf_event.h:130; PerfMonV2 CPUID 0x80000022, arch/x86/events/amd/core.c:1435-1442), no fixed counters;
# amd_get_event_constraints_f17h() (amd/core.c:1236, family >= 0x17, :1466-1484): any counter but the
# FLOPs pair event 0x003 (none here); the NMI watchdog's cycles event (0x0076,
# amd_zen4_perfmon_event_map, amd/core.c:276-291, family >= 0x1a) takes one.
counters  gp=6 watchdog=gp

info     CLKS      Count  = CYCLES                | Unhalted core cycles
info     SLOTS     Count  = W * CYCLES            | Dispatch slots (8 per cycle)
info     IPC       Metric = INST / CYCLES         | Instructions per cycle
info     CPI       Metric = CYCLES / INST         | Cycles per instruction
info     OpsPI     Metric = RET_OPS / INST        | Macro-ops retired per instruction
info     Branch_MPKI MPKI = 1000 * BR_MISP / INST | Mispredicted branches per 1000 instructions

node  Frontend_Bound  Slots = FE_NO_OPS / SLOTS \
      | > 0.15 | Dispatch slots empty because the frontend supplied no ops (AMD frontend_bound)
node  Bad_Speculation Slots = (OPS_DISP - RET_OPS) / SLOTS \
      | > 0.15 | Dispatch slots used by ops that never retired (AMD bad_speculation)
node  Backend_Bound   Slots = BE_STALLS / SLOTS \
      | > 0.20 | Dispatch slots blocked by backend resources (AMD backend_bound)
node  SMT_Contention  Slots = SMT_CONT / SLOTS \
      | > 0.15 | Dispatch slots lost because the other SMT thread was selected (AMD smt_contention)
node  Retiring        Slots = RET_OPS / SLOTS \
      | > 0.70 | Dispatch slots of ops that retired (AMD retiring)

node  Frontend_Bound.Fetch_Latency   Slots = W * FE_NO_OPS_C8 / SLOTS \
      | > 0.10 | Slots lost in cycles with no op at all from the frontend (AMD frontend_bound_by_latency)
node  Frontend_Bound.Fetch_Bandwidth Slots = (FE_NO_OPS - W * FE_NO_OPS_C8) / SLOTS \
      | > 0.20 | Slots lost in cycles the frontend supplied some but fewer than 8 ops (AMD frontend_bound_by_bandwidth)
partition Frontend_Bound        # AMD: by_latency + by_bandwidth = frontend_bound
node  Bad_Speculation.Branch_Mispredicts Slots = Bad_Speculation * BR_MISP / (BR_MISP + RESYNCS) \
      | > 0.10 | Bad-speculation slots attributed to branch mispredictions (AMD bad_speculation_from_mispredicts)
node  Bad_Speculation.Pipeline_Restarts  Slots = Bad_Speculation * RESYNCS / (BR_MISP + RESYNCS) \
      | > 0.10 | Bad-speculation slots attributed to resyncs (AMD bad_speculation_from_pipeline_restarts)
partition Bad_Speculation       # AMD: from_mispredicts + from_pipeline_restarts = bad_speculation
node  Backend_Bound.Memory_Bound Slots = Backend_Bound * LOAD_NOT_COMPLETE / NOT_COMPLETE \
      | > 0.20 | Backend slots while the oldest op waited for memory (AMD backend_bound_by_memory)
node  Backend_Bound.Core_Bound   Slots = Backend_Bound * (1 - LOAD_NOT_COMPLETE / NOT_COMPLETE) \
      | > 0.10 | Backend slots while the oldest op waited on execution (AMD backend_bound_by_cpu)
partition Backend_Bound         # AMD: by_memory + by_cpu = backend_bound
node  Retiring.Fastpath  Slots = Retiring * (1 - UCODE_OPS / RET_OPS) \
      | > 0.6 | Retiring slots of fast-path (non-microcode) ops (AMD retiring_from_fastpath)
node  Retiring.Microcode Slots = Retiring * UCODE_OPS / RET_OPS \
      | > 0.1 | Retiring slots of microcode ops (AMD retiring_from_microcode)
partition Retiring              # AMD: from_fastpath + from_microcode = retiring

cpi-cycles        CYCLES
cpi-instructions  INST
cpi   Base                derived  = Retiring                            | Ideal retiring: retired ops at 8 per cycle
cpi   Branch_Mispredict   derived  = Bad_Speculation.Branch_Mispredicts  | Wrong-path dispatch of mispredicted branches
cpi   Pipeline_Restart    derived  = Bad_Speculation.Pipeline_Restarts   | Wrong-path dispatch of resyncs
cpi   Frontend_Latency    measured = FE_NO_OPS_C8 / CYCLES               | Cycles with all eight dispatch slots empty from the frontend
cpi   Frontend_Bandwidth  derived  = Frontend_Bound.Fetch_Bandwidth      | Frontend supplied fewer than eight ops
cpi   SMT_Contention      derived  = SMT_Contention                      | Slots lost to the sibling thread
cpi   Memory              derived  = Backend_Bound.Memory_Bound          | Backend stalls while the oldest op waited for a load
cpi   Core                derived  = Backend_Bound.Core_Bound            | Backend stalls while the oldest op waited on execution
