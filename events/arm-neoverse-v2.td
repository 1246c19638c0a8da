# arm-neoverse-v2.td — Arm Neoverse V2 (arm_v2; MIDR implementer 0x41 part 0xd4f): Arm's topdown
# methodology, stage 1 (level 1, slot based) and stage 2 (MPKI, miss ratios, operation mix) as info metrics
pmu      arm_v2
title    Arm Neoverse V2
version  Arm Topdown Methodology, Neoverse V2 Telemetry Specification (Arm telemetry-solution data/pmu/cpu/neoverse/neoverse-v2.json, r0p0, 08 Aug 2025, Release, sha1 6687b72762c4), 8 slots
note     Formulas: Arm's Telemetry Specification for Neoverse V2 (telemetry-solution, file data/pmu/cpu/neoverse/neoverse-v2.json,
note     document r0p0, 08 Aug 2025, Release, sha1 6687b72762c4; read from the GitHub fork xinydev/telemetry-solution at 917257c776b4): the metrics of
note     its topdown_methodology, stage_1 = Topdown_L1 (the four level-1 nodes below) and stage_2 = the
note     metric groups given here as info metrics, each with Arm's name, unit and formula (Arm's percentages
note     stay percentages, unit %; the level-1 nodes are fractions, Arm's value / 100).
note     Encodings: the PMUv3 event numbers of the same file's events section (Arm's number beside each
note     event below, [Arm 0xNNNN]); the perf raw form armv8_pmuv3/event=N/ (config:0-15). libpfm4 4.13
note     knows the model as arm_v2 but x86 builds carry no Arm tables, hence raw forms. The host is
note     recognised by libpfm4, or else by MIDR (/proc/cpuinfo CPU implementer 0x41, CPU part 0xd4f).
note     8 slots per cycle (Arm product_configuration num_slots; N2 (5 slots, arm-neoverse-n2.td)).
note     Arm's level 1 moves mispredict recovery out of the stall slots: Frontend_Bound less 1 x BR_MIS_PRED
note     per cycle, Backend_Bound less 3 x, Bad_Speculation plus 4 x (so the four still add up to 1 when
note     STALL_SLOT = STALL_SLOT_FRONTEND + STALL_SLOT_BACKEND). Linux perf's arm64 neoverse-n2-v2/metrics.json
note     (with sbsa.json) computes level 1 differently: perf's V2 form (8 slots) is the plain PMUv3 slot formula without the BR_MIS_PRED terms.
note     Arm's methodology for Neoverse V2 has no level 2 nodes (Frontend_Core_Bound, Backend_Memory_Bound, ...
note     start with Neoverse V3/N3); its stage 2 is the info metrics below, grouped as Arm groups them.
note     Arm publishes no thresholds: the Intel TMA level-1 values (0.15/0.20/0.70/0.15) are reused so
note     bottleneck marking works, as in arm-neoverse.td.

const    SLOTS_PER_CYCLE 8    # Arm product_configuration num_slots
const    FE_BR_MIS_PRED_COST 1      # Arm frontend_bound: - BR_MIS_PRED * 1 / CPU_CYCLES
const    BE_BR_MIS_PRED_COST 3      # Arm backend_bound: - BR_MIS_PRED * 3 / CPU_CYCLES
const    BS_BR_MIS_PRED_COST 4      # Arm bad_speculation: + BR_MIS_PRED * 4 / CPU_CYCLES

# Events: Arm's PMUv3 event numbers from the telemetry file's events section; descriptions are Arm's titles.
event    CPU_CYCLES            armv8_pmuv3/event=0x11/    | CPU_CYCLES, cycle [Arm 0x0011]
event    INST_RETIRED          armv8_pmuv3/event=0x8/     | INST_RETIRED, instruction architecturally executed [Arm 0x0008]
event    INST_SPEC             armv8_pmuv3/event=0x1b/    | INST_SPEC, operation speculatively executed [Arm 0x001B]
event    STALL_FRONTEND        armv8_pmuv3/event=0x23/    | STALL_FRONTEND, no operation sent for execution due to the frontend [Arm 0x0023]
event    STALL_BACKEND         armv8_pmuv3/event=0x24/    | STALL_BACKEND, no operation sent for execution due to the backend [Arm 0x0024]
event    BR_MIS_PRED           armv8_pmuv3/event=0x10/    | BR_MIS_PRED, branch instruction speculatively executed, mispredicted or not predicted [Arm 0x0010]
event    OP_RETIRED            armv8_pmuv3/event=0x3a/    | OP_RETIRED, micro-operation architecturally executed [Arm 0x003A]
event    OP_SPEC               armv8_pmuv3/event=0x3b/    | OP_SPEC, micro-operation speculatively executed [Arm 0x003B]
event    STALL_SLOT            armv8_pmuv3/event=0x3f/    | STALL_SLOT, no operation sent for execution on a Slot [Arm 0x003F]
event    STALL_SLOT_FRONTEND   armv8_pmuv3/event=0x3e/    | STALL_SLOT_FRONTEND, no operation sent for execution on a Slot due to the frontend [Arm 0x003E]
event    STALL_SLOT_BACKEND    armv8_pmuv3/event=0x3d/    | STALL_SLOT_BACKEND, no operation sent for execution on a Slot due to the backend [Arm 0x003D]
event    BR_MIS_PRED_RETIRED   armv8_pmuv3/event=0x22/    | BR_MIS_PRED_RETIRED, branch instruction architecturally executed, mispredicted [Arm 0x0022]
event    ITLB_WALK             armv8_pmuv3/event=0x35/    | ITLB_WALK, instruction TLB access with at least one translation table walk [Arm 0x0035]
event    DTLB_WALK             armv8_pmuv3/event=0x34/    | DTLB_WALK, data TLB access with at least one translation table walk [Arm 0x0034]
event    L1I_TLB_REFILL        armv8_pmuv3/event=0x2/     | L1I_TLB_REFILL, level 1 instruction TLB refill [Arm 0x0002]
event    L1D_TLB_REFILL        armv8_pmuv3/event=0x5/     | L1D_TLB_REFILL, level 1 data TLB refill [Arm 0x0005]
event    L2D_TLB_REFILL        armv8_pmuv3/event=0x2d/    | L2D_TLB_REFILL, level 2 data TLB refill [Arm 0x002D]
event    L1I_CACHE_REFILL      armv8_pmuv3/event=0x1/     | L1I_CACHE_REFILL, level 1 instruction cache refill [Arm 0x0001]
event    L1D_CACHE_REFILL      armv8_pmuv3/event=0x3/     | L1D_CACHE_REFILL, level 1 data cache refill [Arm 0x0003]
event    L2D_CACHE_REFILL      armv8_pmuv3/event=0x17/    | L2D_CACHE_REFILL, level 2 data cache refill [Arm 0x0017]
event    LL_CACHE_MISS_RD      armv8_pmuv3/event=0x37/    | LL_CACHE_MISS_RD, last level cache miss, read [Arm 0x0037]
event    BR_RETIRED            armv8_pmuv3/event=0x21/    | BR_RETIRED, instruction architecturally executed, branch [Arm 0x0021]
event    L1I_TLB               armv8_pmuv3/event=0x26/    | L1I_TLB, level 1 instruction TLB access [Arm 0x0026]
event    L1D_TLB               armv8_pmuv3/event=0x25/    | L1D_TLB, level 1 data TLB access [Arm 0x0025]
event    L2D_TLB               armv8_pmuv3/event=0x2f/    | L2D_TLB, level 2 data TLB access [Arm 0x002F]
event    L1I_CACHE             armv8_pmuv3/event=0x14/    | L1I_CACHE, level 1 instruction cache access [Arm 0x0014]
event    L1D_CACHE             armv8_pmuv3/event=0x4/     | L1D_CACHE, level 1 data cache access [Arm 0x0004]
event    L2D_CACHE             armv8_pmuv3/event=0x16/    | L2D_CACHE, level 2 data cache access [Arm 0x0016]
event    LL_CACHE_RD           armv8_pmuv3/event=0x36/    | LL_CACHE_RD, last level cache access, read [Arm 0x0036]
event    SVE_PRED_SPEC         armv8_pmuv3/event=0x8074/  | SVE_PRED_SPEC, operation speculatively executed, SVE predicated [Arm 0x8074]
event    SVE_PRED_FULL_SPEC    armv8_pmuv3/event=0x8076/  | SVE_PRED_FULL_SPEC, operation speculatively executed, SVE predicated with all active predicates [Arm 0x8076]
event    SVE_PRED_PARTIAL_SPEC armv8_pmuv3/event=0x8077/  | SVE_PRED_PARTIAL_SPEC, operation speculatively executed, SVE predicated with partially active predicates [Arm 0x8077]
event    SVE_PRED_EMPTY_SPEC   armv8_pmuv3/event=0x8075/  | SVE_PRED_EMPTY_SPEC, operation speculatively executed, SVE predicated with no active predicates [Arm 0x8075]
event    FP_FIXED_OPS_SPEC     armv8_pmuv3/event=0x80c1/  | FP_FIXED_OPS_SPEC, non-scalable floating-point element ALU operations speculatively executed [Arm 0x80C1]
event    FP_SCALE_OPS_SPEC     armv8_pmuv3/event=0x80c0/  | FP_SCALE_OPS_SPEC, scalable floating-point element ALU operations speculatively executed [Arm 0x80C0]
event    FP_HP_SPEC            armv8_pmuv3/event=0x8014/  | FP_HP_SPEC, floating-point operation speculatively executed, half precision [Arm 0x8014]
event    FP_SP_SPEC            armv8_pmuv3/event=0x8018/  | FP_SP_SPEC, floating-point operation speculatively executed, single precision [Arm 0x8018]
event    FP_DP_SPEC            armv8_pmuv3/event=0x801c/  | FP_DP_SPEC, floating-point operation speculatively executed, double precision [Arm 0x801C]
event    LD_SPEC               armv8_pmuv3/event=0x70/    | LD_SPEC, operation speculatively executed, load [Arm 0x0070]
event    ST_SPEC               armv8_pmuv3/event=0x71/    | ST_SPEC, operation speculatively executed, store [Arm 0x0071]
event    DP_SPEC               armv8_pmuv3/event=0x73/    | DP_SPEC, operation speculatively executed, integer data processing [Arm 0x0073]
event    ASE_SPEC              armv8_pmuv3/event=0x74/    | ASE_SPEC, operation speculatively executed, Advanced SIMD data processing [Arm 0x0074]
event    VFP_SPEC              armv8_pmuv3/event=0x75/    | VFP_SPEC, operation speculatively executed, scalar floating-point [Arm 0x0075]
event    DMB_SPEC              armv8_pmuv3/event=0x7e/    | DMB_SPEC, barrier speculatively executed, DMB [Arm 0x007E]
event    DSB_SPEC              armv8_pmuv3/event=0x7d/    | DSB_SPEC, barrier speculatively executed, DSB [Arm 0x007D]
event    ISB_SPEC              armv8_pmuv3/event=0x7c/    | ISB_SPEC, barrier speculatively executed, ISB [Arm 0x007C]
event    BR_IMMED_SPEC         armv8_pmuv3/event=0x78/    | BR_IMMED_SPEC, branch speculatively executed, immediate branch [Arm 0x0078]
event    BR_INDIRECT_SPEC      armv8_pmuv3/event=0x7a/    | BR_INDIRECT_SPEC, branch speculatively executed, indirect branch [Arm 0x007A]
event    CRYPTO_SPEC           armv8_pmuv3/event=0x77/    | CRYPTO_SPEC, operation speculatively executed, Cryptographic instruction [Arm 0x0077]
event    SVE_INST_SPEC         armv8_pmuv3/event=0x8006/  | SVE_INST_SPEC, operation speculatively executed, SVE, including load and store [Arm 0x8006]

# The names perf prints for these events (perf list, perf stat -e NAME on an arm64 host).
perf-name CPU_CYCLES            cpu_cycles
perf-name INST_RETIRED          inst_retired
perf-name INST_SPEC             inst_spec
perf-name STALL_FRONTEND        stall_frontend
perf-name STALL_BACKEND         stall_backend
perf-name BR_MIS_PRED           br_mis_pred
perf-name OP_RETIRED            op_retired
perf-name OP_SPEC               op_spec
perf-name STALL_SLOT            stall_slot
perf-name STALL_SLOT_FRONTEND   stall_slot_frontend
perf-name STALL_SLOT_BACKEND    stall_slot_backend
perf-name BR_MIS_PRED_RETIRED   br_mis_pred_retired
perf-name ITLB_WALK             itlb_walk
perf-name DTLB_WALK             dtlb_walk
perf-name L1I_TLB_REFILL        l1i_tlb_refill
perf-name L1D_TLB_REFILL        l1d_tlb_refill
perf-name L2D_TLB_REFILL        l2d_tlb_refill
perf-name L1I_CACHE_REFILL      l1i_cache_refill
perf-name L1D_CACHE_REFILL      l1d_cache_refill
perf-name L2D_CACHE_REFILL      l2d_cache_refill
perf-name LL_CACHE_MISS_RD      ll_cache_miss_rd
perf-name BR_RETIRED            br_retired
perf-name L1I_TLB               l1i_tlb
perf-name L1D_TLB               l1d_tlb
perf-name L2D_TLB               l2d_tlb
perf-name L1I_CACHE             l1i_cache
perf-name L1D_CACHE             l1d_cache
perf-name L2D_CACHE             l2d_cache
perf-name LL_CACHE_RD           ll_cache_rd
perf-name SVE_PRED_SPEC         sve_pred_spec
perf-name SVE_PRED_FULL_SPEC    sve_pred_full_spec
perf-name SVE_PRED_PARTIAL_SPEC sve_pred_partial_spec
perf-name SVE_PRED_EMPTY_SPEC   sve_pred_empty_spec
perf-name FP_FIXED_OPS_SPEC     fp_fixed_ops_spec
perf-name FP_SCALE_OPS_SPEC     fp_scale_ops_spec
perf-name FP_HP_SPEC            fp_hp_spec
perf-name FP_SP_SPEC            fp_sp_spec
perf-name FP_DP_SPEC            fp_dp_spec
perf-name LD_SPEC               ld_spec
perf-name ST_SPEC               st_spec
perf-name DP_SPEC               dp_spec
perf-name ASE_SPEC              ase_spec
perf-name VFP_SPEC              vfp_spec
perf-name DMB_SPEC              dmb_spec
perf-name DSB_SPEC              dsb_spec
perf-name ISB_SPEC              isb_spec
perf-name BR_IMMED_SPEC         br_immed_spec
perf-name BR_INDIRECT_SPEC      br_indirect_spec
perf-name CRYPTO_SPEC           crypto_spec
perf-name SVE_INST_SPEC         sve_inst_spec

# stage 2, group Cycle_Accounting: frontend_stalled_cycles backend_stalled_cycles
info     frontend_stalled_cycles          %      = STALL_FRONTEND / CPU_CYCLES * 100 | Frontend Stalled Cycles (Arm frontend_stalled_cycles, percent of cycles)
info     backend_stalled_cycles           %      = STALL_BACKEND / CPU_CYCLES * 100 | Backend Stalled Cycles (Arm backend_stalled_cycles, percent of cycles)

# stage 2, group General: ipc
info     ipc                              Metric = INST_RETIRED / CPU_CYCLES | Instructions Per Cycle (Arm ipc, per cycle)

# stage 2, group MPKI: branch_mpki itlb_mpki dtlb_mpki l1i_tlb_mpki l1d_tlb_mpki l2_tlb_mpki l1i_cache_mpki l1d_cache_mpki l2_cache_mpki ll_cache_read_mpki
info     branch_mpki                      MPKI   = BR_MIS_PRED_RETIRED / INST_RETIRED * 1000 | Branch MPKI (Arm branch_mpki, MPKI)
info     itlb_mpki                        MPKI   = ITLB_WALK / INST_RETIRED * 1000 | ITLB MPKI (Arm itlb_mpki, MPKI)
info     dtlb_mpki                        MPKI   = DTLB_WALK / INST_RETIRED * 1000 | DTLB MPKI (Arm dtlb_mpki, MPKI)
info     l1i_tlb_mpki                     MPKI   = L1I_TLB_REFILL / INST_RETIRED * 1000 | L1 Instruction TLB MPKI (Arm l1i_tlb_mpki, MPKI)
info     l1d_tlb_mpki                     MPKI   = L1D_TLB_REFILL / INST_RETIRED * 1000 | L1 Data TLB MPKI (Arm l1d_tlb_mpki, MPKI)
info     l2_tlb_mpki                      MPKI   = L2D_TLB_REFILL / INST_RETIRED * 1000 | L2 Unified TLB MPKI (Arm l2_tlb_mpki, MPKI)
info     l1i_cache_mpki                   MPKI   = L1I_CACHE_REFILL / INST_RETIRED * 1000 | L1I Cache MPKI (Arm l1i_cache_mpki, MPKI)
info     l1d_cache_mpki                   MPKI   = L1D_CACHE_REFILL / INST_RETIRED * 1000 | L1D Cache MPKI (Arm l1d_cache_mpki, MPKI)
info     l2_cache_mpki                    MPKI   = L2D_CACHE_REFILL / INST_RETIRED * 1000 | L2 Cache MPKI (Arm l2_cache_mpki, MPKI)
info     ll_cache_read_mpki               MPKI   = LL_CACHE_MISS_RD / INST_RETIRED * 1000 | LL Cache Read MPKI (Arm ll_cache_read_mpki, MPKI)

# stage 2, group Miss_Ratio: branch_misprediction_ratio itlb_walk_ratio dtlb_walk_ratio l1i_tlb_miss_ratio l1d_tlb_miss_ratio l2_tlb_miss_ratio l1i_cache_miss_ratio l1d_cache_miss_ratio l2_cache_miss_ratio ll_cache_read_miss_ratio
info     branch_misprediction_ratio       Ratio  = BR_MIS_PRED_RETIRED / BR_RETIRED | Branch Misprediction Ratio (Arm branch_misprediction_ratio, per branch)
info     itlb_walk_ratio                  Ratio  = ITLB_WALK / L1I_TLB | ITLB Walk Ratio (Arm itlb_walk_ratio, per TLB access)
info     dtlb_walk_ratio                  Ratio  = DTLB_WALK / L1D_TLB | DTLB Walk Ratio (Arm dtlb_walk_ratio, per TLB access)
info     l1i_tlb_miss_ratio               Ratio  = L1I_TLB_REFILL / L1I_TLB | L1 Instruction TLB Miss Ratio (Arm l1i_tlb_miss_ratio, per TLB access)
info     l1d_tlb_miss_ratio               Ratio  = L1D_TLB_REFILL / L1D_TLB | L1 Data TLB Miss Ratio (Arm l1d_tlb_miss_ratio, per TLB access)
info     l2_tlb_miss_ratio                Ratio  = L2D_TLB_REFILL / L2D_TLB | L2 Unified TLB Miss Ratio (Arm l2_tlb_miss_ratio, per TLB access)
info     l1i_cache_miss_ratio             Ratio  = L1I_CACHE_REFILL / L1I_CACHE | L1I Cache Miss Ratio (Arm l1i_cache_miss_ratio, per cache access)
info     l1d_cache_miss_ratio             Ratio  = L1D_CACHE_REFILL / L1D_CACHE | L1D Cache Miss Ratio (Arm l1d_cache_miss_ratio, per cache access)
info     l2_cache_miss_ratio              Ratio  = L2D_CACHE_REFILL / L2D_CACHE | L2 Cache Miss Ratio (Arm l2_cache_miss_ratio, per cache access)
info     ll_cache_read_miss_ratio         Ratio  = LL_CACHE_MISS_RD / LL_CACHE_RD | LL Cache Read Miss Ratio (Arm ll_cache_read_miss_ratio, per cache access)

# stage 2, group SVE_Effectiveness: sve_predicate_percentage sve_predicate_full_percentage sve_predicate_partial_percentage sve_predicate_empty_percentage
info     sve_predicate_percentage         %      = SVE_PRED_SPEC / INST_SPEC * 100 | SVE Predicate Percentage (Arm sve_predicate_percentage, percent of operations)
info     sve_predicate_full_percentage    %      = SVE_PRED_FULL_SPEC / SVE_PRED_SPEC * 100 | SVE Full Predicate Percentage (Arm sve_predicate_full_percentage, percent of operations)
info     sve_predicate_partial_percentage %      = SVE_PRED_PARTIAL_SPEC / SVE_PRED_SPEC * 100 | SVE Partial Predicate Percentage (Arm sve_predicate_partial_percentage, percent of operations)
info     sve_predicate_empty_percentage   %      = SVE_PRED_EMPTY_SPEC / SVE_PRED_SPEC * 100 | SVE Empty Predicate Percentage (Arm sve_predicate_empty_percentage, percent of operations)

# stage 2, group FP_Arithmetic_Intensity: nonsve_fp_ops_per_cycle sve_fp_ops_per_cycle fp_ops_per_cycle
info     nonsve_fp_ops_per_cycle          Metric = FP_FIXED_OPS_SPEC / CPU_CYCLES | Non-SVE Floating Point Operations per Cycle (Arm nonsve_fp_ops_per_cycle, operations per cycle)
info     sve_fp_ops_per_cycle             Metric = FP_SCALE_OPS_SPEC / CPU_CYCLES | SVE Floating Point Operations per Cycle (Arm sve_fp_ops_per_cycle, operations per cycle)
info     fp_ops_per_cycle                 Metric = (FP_SCALE_OPS_SPEC + FP_FIXED_OPS_SPEC) / CPU_CYCLES | Floating Point Operations per Cycle (Arm fp_ops_per_cycle, operations per cycle)

# stage 2, group FP_Precision_Mix: fp16_percentage fp32_percentage fp64_percentage
info     fp16_percentage                  %      = FP_HP_SPEC / INST_SPEC * 100 | Half Precision Floating Point Percentage (Arm fp16_percentage, percent of operations)
info     fp32_percentage                  %      = FP_SP_SPEC / INST_SPEC * 100 | Single Precision Floating Point Percentage (Arm fp32_percentage, percent of operations)
info     fp64_percentage                  %      = FP_DP_SPEC / INST_SPEC * 100 | Double Precision Floating Point Percentage (Arm fp64_percentage, percent of operations)

# stage 2, group LL_Cache_Effectiveness: ll_cache_read_mpki ll_cache_read_miss_ratio ll_cache_read_hit_ratio
info     ll_cache_read_hit_ratio          Ratio  = (LL_CACHE_RD - LL_CACHE_MISS_RD) / LL_CACHE_RD | LL Cache Read Hit Ratio (Arm ll_cache_read_hit_ratio, per cache access)

# stage 2, group Operation_Mix: load_percentage store_percentage integer_dp_percentage simd_percentage scalar_fp_percentage barrier_percentage branch_percentage crypto_percentage sve_all_percentage
info     load_percentage                  %      = LD_SPEC / INST_SPEC * 100 | Load Operations Percentage (Arm load_percentage, percent of operations)
info     store_percentage                 %      = ST_SPEC / INST_SPEC * 100 | Store Operations Percentage (Arm store_percentage, percent of operations)
info     integer_dp_percentage            %      = DP_SPEC / INST_SPEC * 100 | Integer Operations Percentage (Arm integer_dp_percentage, percent of operations)
info     simd_percentage                  %      = ASE_SPEC / INST_SPEC * 100 | Advanced SIMD Operations Percentage (Arm simd_percentage, percent of operations)
info     scalar_fp_percentage             %      = VFP_SPEC / INST_SPEC * 100 | Floating Point Operations Percentage (Arm scalar_fp_percentage, percent of operations)
info     barrier_percentage               %      = (ISB_SPEC + DSB_SPEC + DMB_SPEC) / INST_SPEC * 100 | Barrier Operations Percentage (Arm barrier_percentage, percent of operations)
info     branch_percentage                %      = (BR_IMMED_SPEC + BR_INDIRECT_SPEC) / INST_SPEC * 100 | Branch Operations Percentage (Arm branch_percentage, percent of operations)
info     crypto_percentage                %      = CRYPTO_SPEC / INST_SPEC * 100 | Crypto Operations Percentage (Arm crypto_percentage, percent of operations)
info     sve_all_percentage               %      = SVE_INST_SPEC / INST_SPEC * 100 | SVE Operations (Load/Store Inclusive) Percentage (Arm sve_all_percentage, percent of operations)

# --- counters (planner): 6 programmable counters (libpfm4 arm_v2 num_cntrs 6) plus the PMUv3
# cycle counter (fixed 0), which the NMI watchdog's cycles event takes when it runs.
counters  gp=6 fixed=1 watchdog=fixed:0
fixed     0 CPU_CYCLES

info     CLKS            Count  = CPU_CYCLES                  | Core cycles
info     SLOTS           Count  = SLOTS_PER_CYCLE * CPU_CYCLES | Issue slots (Arm: num_slots x CPU_CYCLES)
info     CPI             Metric = CPU_CYCLES / INST_RETIRED   | Cycles per instruction

# stage 1 (Arm Topdown_L1), Arm's formulas / 100
node  Frontend_Bound  Slots = STALL_SLOT_FRONTEND / SLOTS - FE_BR_MIS_PRED_COST * BR_MIS_PRED / CPU_CYCLES \
      | > 0.15 | Slots stalled in the frontend, less mispredict recovery (Arm frontend_bound)
node  Backend_Bound   Slots = STALL_SLOT_BACKEND / SLOTS - BE_BR_MIS_PRED_COST * BR_MIS_PRED / CPU_CYCLES \
      | > 0.20 | Slots stalled in the backend, less mispredict recovery (Arm backend_bound)
node  Retiring        Slots = (1 - STALL_SLOT / SLOTS) * OP_RETIRED / OP_SPEC \
      | > 0.70 | Slots that retired an operation (Arm retiring)
node  Bad_Speculation Slots = (1 - OP_RETIRED / OP_SPEC) * (1 - STALL_SLOT / SLOTS) + BS_BR_MIS_PRED_COST * BR_MIS_PRED / CPU_CYCLES \
      | > 0.15 | Slots of operations that did not retire plus mispredict recovery (Arm bad_speculation)

# CPI stack: Arm stage-1 cycle accounting (docs cpi-stack.md 2.7.4), as arm-neoverse.td
let   DISPATCH_FRAC = 1 - STALL_FRONTEND / CPU_CYCLES - STALL_BACKEND / CPU_CYCLES
cpi-cycles        CPU_CYCLES
cpi-instructions  INST_RETIRED
cpi   Base             derived  = DISPATCH_FRAC * INST_RETIRED / INST_SPEC       | Dispatching cycles of operations that retired
cpi   Bad_Speculation  derived  = DISPATCH_FRAC * (1 - INST_RETIRED / INST_SPEC) | Dispatching cycles of operations that did not retire
cpi   Frontend         measured = STALL_FRONTEND / CPU_CYCLES                    | Cycles with nothing to dispatch (STALL_FRONTEND)
cpi   Backend          measured = STALL_BACKEND / CPU_CYCLES                     | Cycles dispatch was blocked by the backend (STALL_BACKEND)
