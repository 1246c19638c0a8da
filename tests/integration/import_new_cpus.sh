#!/bin/sh
# tdctl import of perf stat -x files for the CPUs libpfm4 4.13 does not know: Arm Neoverse N2 and V2
# (arm-neoverse-n2.td, arm-neoverse-v2.td), Intel Granite Rapids (intel-gnr.td) and Emerald Rapids
# (intel-emr.td, generated, levels 1-2), each file
# synthesised from the event names perf publishes for the model (tests/data/import/*-names.csv).
# Every event is matched through the events file's perf-name lines, and the report gives the whole
# tree: each node row equals the value worked by hand below from the vendor's formula (Arm's
# telemetry specification, Intel perfmon TMA 5.2), not the program's output.
. "$(dirname "$0")/lib.sh"

DATA="$TD_SRCDIR/tests/data/import"

# tree: lib.sh's import_tree (NAME MODEL FILE EVENTS "node=percent ..." [MAXLEVEL [MINLEVEL]])
tree() { import_tree "$@"; }
# info NAME "metric=value ...": info rows of the report (to 1e-6 relative)
info() {
	name=$1
	for kv in $2; do
		m=${kv%%=*} want=${kv#*=}
		got=$(awk -F, -v m="$m" '$1 == "session" && $10 == "info" && $2 == m { print $4 }' "$WORK/$name.csv")
		check "$name: info $m = $want (got '$got')" awk -v a="$got" -v b="$want" \
			'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a != "" && d <= 1e-6 * (b < 0 ? -b : b) + 1e-12) }'
	done
}
# bottleneck NAME PATH
bottleneck() {
	check_eq "$1: the bottleneck is $2" "$2" \
		"$(awk -F, 'NR > 1 && $1 == "session" && $10 == "node" && $7 == 1 { print $2 }' "$WORK/$1.csv")"
}

# Neoverse N2, 5 slots: slots = 5 x cpu_cycles 1e9 = 5e9; br_mis_pred / cpu_cycles = 5e6 / 1e9 = 0.005
#   frontend_bound = 100 x (stall_slot_frontend 1.2e9 / 5e9 - 0.005) = 100 x (0.24 - 0.005) = 23.5
#   backend_bound  = 100 x (stall_slot_backend 2e9 / 5e9 - 3 x 0.005) = 100 x (0.4 - 0.015) = 38.5
#   retiring       = 100 x (1 - stall_slot 3.2e9 / 5e9) x op_retired 1.8e9 / op_spec 2e9 = 100 x 0.36 x 0.9 = 32.4
#   bad_speculation = 100 x ((1 - 0.9) x 0.36 + 4 x 0.005) = 100 x (0.036 + 0.02) = 5.6
tree n2 arm_n2 neoverse-n2-names.csv 38 "Frontend_Bound=23.5 Backend_Bound=38.5 Retiring=32.4 Bad_Speculation=5.6"
# ipc = inst_retired 1.6e9 / 1e9; branch_mpki = 1000 x 4e6 / 1.6e9 = 2.5; load_percentage = 100 x ld_spec
# 5e8 / inst_spec 2e9 = 25; l1d_tlb_miss_ratio = 16e6 / 640e6 = 0.025; ll_cache_read_hit_ratio = (10e6 - 3e6) / 10e6
info n2 "SLOTS=5e+09 ipc=1.6 branch_mpki=2.5 load_percentage=25 l1d_tlb_miss_ratio=0.025 ll_cache_read_hit_ratio=0.7"
# flagged: Frontend_Bound 23.5 > 15, Backend_Bound 38.5 > 20; no level 2: the larger
bottleneck n2 Backend_Bound

# Neoverse V2, 8 slots, the same shares (stall_slot_frontend 1.92e9 = 0.24 x 8e9, stall_slot_backend 3.2e9 =
# 0.4 x 8e9, stall_slot 5.12e9): the same level 1 as N2
tree v2 arm_v2 neoverse-v2-names.csv 50 "Frontend_Bound=23.5 Backend_Bound=38.5 Retiring=32.4 Bad_Speculation=5.6"
# V2-only groups: fp_ops_per_cycle = (fp_scale_ops_spec 1.2e8 + fp_fixed_ops_spec 8e7) / 1e9 = 0.2;
# sve_predicate_full_percentage = 100 x 2.4e7 / 3.2e7 = 75; barrier_percentage = 100 x (1e6 + 2e6 + 3e6) / 2e9 = 0.3
info v2 "SLOTS=8e+09 fp_ops_per_cycle=0.2 sve_predicate_full_percentage=75 barrier_percentage=0.3 fp64_percentage=0.8"
bottleneck v2 Backend_Bound

# Granite Rapids (perfmon TMA 5.2): PM_SUM = topdown-fe-bound 1.2e9 + bad-spec 0.6e9 + retiring 2.4e9 +
# be-bound 1.8e9 = 6e9 = slots; int_misc.uop_dropping / slots = 0.06e9 / 6e9 = 1%
#   Frontend_Bound = 20 - 1 = 19; Fetch_Latency = fetch-lat 0.72e9 / 6e9 - 1 = 11; Fetch_Bandwidth = 8
#   Backend_Bound = 30; Memory_Bound = mem-bound 1.08e9 / 6e9 = 18; Core_Bound = 12
#   Retiring = 40; Heavy_Operations = heavy-ops 0.36e9 / 6e9 = 6; Light_Operations = 34
#   Bad_Speculation = 100 - 19 - 30 - 40 = 11; Branch_Mispredicts = br-mispredict 0.42e9 / 6e9 = 7; Machine_Clears = 4
#   level 3 over cpu_clk_unhalted.thread_p 1e9: ICache_Misses 0.05e9 -> 5, ITLB_Misses 0.02e9 -> 2,
#   L1_Bound (bound_on_loads 0.3e9 - stalls_l1d_miss 0.2e9) -> 10, L2_Bound (0.2e9 - 0.12e9) -> 8,
#   L3_Bound (0.12e9 - 0.08e9) -> 4, L3_Miss_Bound 0.08e9 -> 8, Store_Bound 0.04e9 -> 4, Divider 0.01e9 -> 1,
#   Serializing_Operation (scoreboard 0.03e9 + c02 0.01e9) -> 4, Ports_Utilization (div_active 0.01e9 <
#   stalls_total 0.5e9 - bound_on_loads 0.3e9): (max(exe_bound_0_ports 0.07e9 - 0.03e9, 0) + 1_ports_util 0.1e9
#   + 0.4 x 2_3_ports_util 0.15e9) / 1e9 = (0.04 + 0.1 + 0.06) -> 20
#   lcp 0.01e9 -> 1, dsb2mite_switches.penalty_cycles 0.03e9 -> 3; MITE (idq.mite_cycles_any 0.3e9 - _ok 0.1e9)
#   / 1e9 / 2 -> 10, DSB (0.6e9 - 0.4e9) / 1e9 / 2 -> 10; br_misp_retired.* / all_branches 3e6 x 7:
#   cond_ntaken 0.9e6 -> 2.1, cond_taken 1.2e6 -> 2.8, indirect_call 0.15e6 -> 0.35, (indirect 0.45e6 -
#   indirect_call) -> 0.7, ret 0.15e6 -> 0.35; Other_Mispredicts 7 x (1 - 3e6 / (int_misc.clears_count 4e6 -
#   machine_clears.count 0.5e6)) = 1; Other_Nukes 4 x (1 - memory_ordering 0.2e6 / 0.5e6) = 2.4
#   the MSR 0x3F7 (frontend=) events: Branch_Resteers (int_misc.clear_resteer_cycles 0.04e9 +
#   int_misc.unknown_branch_cycles 0.02e9) / 1e9 -> 6; retire fraction uops_retired.slots 2.4e9 /
#   uops_issued.any 3e9 = 0.8; MS_Switches 3 x uops_retired.ms:c1:e1 4e6 / 0.8 / 1e9 -> 1.5; MS max(
#   idq.ms_cycles_any 0.05e9, uops_retired.ms:c1 0.048e9 / 0.8) / 1e9 / 2.4 -> 2.5; Microcode_Sequencer
#   uops_retired.ms 0.12e9 / 6e9 -> 2; Few_Uops_Instructions 6 - 2 = 4
#   AMX_Busy exe.amx_busy 0.1e9 / 1e9 -> 10; Light_Operations' level 3 over retired slots 0.4 x 6e9 = 2.4e9:
#   X87_Use 0.4 x uops_executed.x87 0.02e9 / uops_executed.thread 2e9 = 0.4, FP_Scalar fp_arith_inst_retired
#   .scalar 0.12e9 (+ ...2.scalar 0) -> 5, FP_Vector .vector 0.24e9 (+ ...2.vector 0) -> 10: FP_Arith 15.4;
#   Int_Operations (int_vec_retired.add_128 0.024e9 + add_256 0.048e9, the others 0) -> 1 + 2 = 3;
#   Memory_Operations 34 x mem_uop_retired.any 0.48e9 / 2.4e9 = 6.8; Fused_Instructions 34 x
#   inst_retired.macro_fused 0.24e9 / 2.4e9 = 3.4; Non_Fused_Branches 34 x (br_inst_retired.all_branches
#   0.36e9 - 0.24e9) / 2.4e9 = 1.7; Other_Light_Ops 34 - (15.4 + 3 + 6.8 + 3.4 + 1.7) = 3.7
# the file is perf stat -M TopdownL1,TopdownL2,TopdownL3: its level-4+ rows are n/a, not compared here
# (tests/data/fixtures/gnr-l3-l6-counting.fix evaluates them)
tree gnr gnr gnr-names.csv 68 "Frontend_Bound=19 Frontend_Bound.Fetch_Latency=11 Frontend_Bound.Fetch_Bandwidth=8
Frontend_Bound.Fetch_Latency.ICache_Misses=5 Frontend_Bound.Fetch_Latency.ITLB_Misses=2
Frontend_Bound.Fetch_Latency.LCP=1 Frontend_Bound.Fetch_Latency.DSB_Switches=3
Frontend_Bound.Fetch_Latency.Branch_Resteers=6 Frontend_Bound.Fetch_Latency.MS_Switches=1.5
Frontend_Bound.Fetch_Bandwidth.MS=2.5 Retiring.Heavy_Operations.Microcode_Sequencer=2
Retiring.Heavy_Operations.Few_Uops_Instructions=4
Frontend_Bound.Fetch_Bandwidth.MITE=10 Frontend_Bound.Fetch_Bandwidth.DSB=10
Bad_Speculation.Branch_Mispredicts.Cond_NT_Mispredicts=2.1 Bad_Speculation.Branch_Mispredicts.Cond_TK_Mispredicts=2.8
Bad_Speculation.Branch_Mispredicts.Ind_Call_Mispredicts=0.35 Bad_Speculation.Branch_Mispredicts.Ind_Jump_Mispredicts=0.7
Bad_Speculation.Branch_Mispredicts.Ret_Mispredicts=0.35 Bad_Speculation.Branch_Mispredicts.Other_Mispredicts=1
Bad_Speculation.Machine_Clears.Other_Nukes=2.4
Backend_Bound=30 Backend_Bound.Memory_Bound=18 Backend_Bound.Core_Bound=12
Backend_Bound.Memory_Bound.L1_Bound=10 Backend_Bound.Memory_Bound.L2_Bound=8 Backend_Bound.Memory_Bound.L3_Bound=4
Backend_Bound.Memory_Bound.L3_Miss_Bound=8 Backend_Bound.Memory_Bound.Store_Bound=4
Backend_Bound.Core_Bound.Divider=1 Backend_Bound.Core_Bound.Serializing_Operation=4 Backend_Bound.Core_Bound.Ports_Utilization=20
Retiring=40 Retiring.Heavy_Operations=6 Retiring.Light_Operations=34
Bad_Speculation=11 Bad_Speculation.Branch_Mispredicts=7 Bad_Speculation.Machine_Clears=4
Backend_Bound.Core_Bound.AMX_Busy=10 Retiring.Light_Operations.FP_Arith=15.4 Retiring.Light_Operations.Int_Operations=3
Retiring.Light_Operations.Memory_Operations=6.8 Retiring.Light_Operations.Fused_Instructions=3.4
Retiring.Light_Operations.Non_Fused_Branches=1.7 Retiring.Light_Operations.Other_Light_Ops=3.7" 3
# IPC = inst_retired.any_p 1.5e9 / 1e9; Turbo_Utilization = 1e9 / ref_tsc 0.8e9; L1MPKI = 1000 x 30e6 / 1.5e9
info gnr "SLOTS=6e+09 IPC=1.5 Turbo_Utilization=1.25 L1MPKI=20 Branch_MPKI=2"
# Backend_Bound 30 > 20 beats Frontend_Bound 19 > 15; Core_Bound 12 > 10 (Memory_Bound 18 is not > 20);
# under it only Ports_Utilization 20 > 15 (AMX_Busy 10 is not > 50); its level-4 children are not counted
bottleneck gnr Backend_Bound.Core_Bound.Ports_Utilization

# Granite Rapids, levels 4-6: the events of every level-4+ node (perf's names, the raw form for
# False_Sharing's OCR.DEMAND_RFO.L3_MISS with TMA's MSR value, msr/tsc/ and duration_time for
# Core_Frequency), with the counts of tests/data/fixtures/gnr-l3-l6-counting.fix and gnr-retire-latency.fix
# (FB_HIT 1e6 and L1_MISS 4e6 the latter's; L1_Latency_Dependency keeps its value, min() taking the
# cycle bound 3e8 either way). The hand values are those fixtures' (worked there from perfmon's formulas,
# the retire latencies as Linux perf's unsampled fallback), in percent.
tree gnr-deep gnr gnr-deep-names.csv 125 "Retiring.Light_Operations.FP_Arith.X87_Use=1 Retiring.Light_Operations.FP_Arith.FP_Scalar=5
Retiring.Light_Operations.FP_Arith.FP_Vector=10 Retiring.Light_Operations.FP_Arith.FP_Vector.FP_Vector_128b=2
Retiring.Light_Operations.FP_Arith.FP_Vector.FP_Vector_256b=3
Retiring.Light_Operations.FP_Arith.FP_Vector.FP_Vector_512b=5
Retiring.Light_Operations.Int_Operations.Int_Vector_128b=2 Retiring.Light_Operations.Int_Operations.Int_Vector_256b=3
Retiring.Light_Operations.Other_Light_Ops.Nop_Instructions=1.8
Retiring.Light_Operations.Other_Light_Ops.Shuffles_256b=0.36 Retiring.Heavy_Operations.Microcode_Sequencer.Assists=1.3
Retiring.Heavy_Operations.Microcode_Sequencer.CISC=1.7
Retiring.Heavy_Operations.Microcode_Sequencer.Assists.Page_Faults=0.33
Retiring.Heavy_Operations.Microcode_Sequencer.Assists.FP_Assists=0.25
Retiring.Heavy_Operations.Microcode_Sequencer.Assists.AVX_Assists=0.315
Frontend_Bound.Fetch_Latency.Branch_Resteers.Mispredicts_Resteers=3
Frontend_Bound.Fetch_Latency.Branch_Resteers.Clears_Resteers=2
Frontend_Bound.Fetch_Latency.Branch_Resteers.Unknown_Branches=2 Frontend_Bound.Fetch_Bandwidth.MITE.Decoder0_Alone=5
Backend_Bound.Core_Bound.Divider.FP_Divider=3 Backend_Bound.Core_Bound.Divider.INT_Divider=2
Backend_Bound.Core_Bound.Serializing_Operation.Slow_Pause=2 Backend_Bound.Core_Bound.Serializing_Operation.C01_Wait=3
Backend_Bound.Core_Bound.Serializing_Operation.C02_Wait=1
Backend_Bound.Core_Bound.Serializing_Operation.Memory_Fence=1.3
Backend_Bound.Core_Bound.Ports_Utilization.Ports_Utilized_0=10
Backend_Bound.Core_Bound.Ports_Utilization.Ports_Utilized_1=20
Backend_Bound.Core_Bound.Ports_Utilization.Ports_Utilized_2=15
Backend_Bound.Core_Bound.Ports_Utilization.Ports_Utilized_3m=25
Backend_Bound.Core_Bound.Ports_Utilization.Ports_Utilized_0.Mixing_Vectors=4.8
Backend_Bound.Core_Bound.Ports_Utilization.Ports_Utilized_3m.ALU_Op_Utilization=28
Backend_Bound.Core_Bound.Ports_Utilization.Ports_Utilized_3m.ALU_Op_Utilization.Port_0=40
Backend_Bound.Core_Bound.Ports_Utilization.Ports_Utilized_3m.ALU_Op_Utilization.Port_1=30
Backend_Bound.Core_Bound.Ports_Utilization.Ports_Utilized_3m.ALU_Op_Utilization.Port_6=20
Backend_Bound.Core_Bound.Ports_Utilization.Ports_Utilized_3m.Load_Op_Utilization=30
Backend_Bound.Core_Bound.Ports_Utilization.Ports_Utilized_3m.Store_Op_Utilization=15
Backend_Bound.Memory_Bound.L1_Bound.Store_Fwd_Blk=2.6 Backend_Bound.Memory_Bound.L1_Bound.L1_Latency_Dependency=15
Backend_Bound.Memory_Bound.L1_Bound.FB_Full=5 Backend_Bound.Memory_Bound.L3_Bound.SQ_Full=3
Backend_Bound.Memory_Bound.L3_Miss_Bound.MEM_Bandwidth=5 Backend_Bound.Memory_Bound.L3_Miss_Bound.MEM_Latency=10
Backend_Bound.Memory_Bound.L3_Miss_Bound.MEM_Bandwidth.MBA_Stalls=3
Backend_Bound.Memory_Bound.Store_Bound.Store_Latency=9.9 Backend_Bound.Memory_Bound.Store_Bound.False_Sharing=3.32
Backend_Bound.Memory_Bound.Store_Bound.Streaming_Stores=4.5
Frontend_Bound.Fetch_Latency.ICache_Misses.Code_L2_Miss=1.37
Frontend_Bound.Fetch_Latency.ICache_Misses.Code_L2_Hit=1.63
Frontend_Bound.Fetch_Latency.ITLB_Misses.Code_STLB_Miss=1.035
Frontend_Bound.Fetch_Latency.ITLB_Misses.Code_STLB_Hit=1.065
Frontend_Bound.Fetch_Latency.ITLB_Misses.Code_STLB_Miss.Code_STLB_Miss_4K=0.375
Frontend_Bound.Fetch_Latency.ITLB_Misses.Code_STLB_Miss.Code_STLB_Miss_2M=0.125
Backend_Bound.Memory_Bound.L1_Bound.DTLB_Load=3 Backend_Bound.Memory_Bound.L1_Bound.DTLB_Load.Load_STLB_Miss=2
Backend_Bound.Memory_Bound.L1_Bound.DTLB_Load.Load_STLB_Hit=1
Backend_Bound.Memory_Bound.L1_Bound.DTLB_Load.Load_STLB_Miss.Load_STLB_Miss_4K=1.2
Backend_Bound.Memory_Bound.L1_Bound.DTLB_Load.Load_STLB_Miss.Load_STLB_Miss_2M=0.6
Backend_Bound.Memory_Bound.L1_Bound.DTLB_Load.Load_STLB_Miss.Load_STLB_Miss_1G=0.2
Backend_Bound.Memory_Bound.L1_Bound.Lock_Latency=3.2 Backend_Bound.Memory_Bound.L1_Bound.Split_Loads=1
Backend_Bound.Memory_Bound.L2_Bound.L2_Hit_Latency=3.375
Backend_Bound.Memory_Bound.L3_Bound.Contested_Accesses=3.288375
Backend_Bound.Memory_Bound.L3_Bound.Data_Sharing=2.51775 Backend_Bound.Memory_Bound.L3_Bound.L3_Hit_Latency=3.2625
Backend_Bound.Memory_Bound.L3_Miss_Bound.MEM_Latency.Local_MEM=6.525
Backend_Bound.Memory_Bound.L3_Miss_Bound.MEM_Latency.Remote_MEM=4.8375
Backend_Bound.Memory_Bound.L3_Miss_Bound.MEM_Latency.Remote_Cache=1.4625
Backend_Bound.Memory_Bound.Store_Bound.Split_Stores=10 Backend_Bound.Memory_Bound.Store_Bound.DTLB_Store=2
Backend_Bound.Memory_Bound.Store_Bound.DTLB_Store.Store_STLB_Miss=1.5
Backend_Bound.Memory_Bound.Store_Bound.DTLB_Store.Store_STLB_Hit=0.5
Backend_Bound.Memory_Bound.Store_Bound.DTLB_Store.Store_STLB_Miss.Store_STLB_Miss_4K=0.75
Backend_Bound.Memory_Bound.Store_Bound.DTLB_Store.Store_STLB_Miss.Store_STLB_Miss_2M=0.45
Backend_Bound.Memory_Bound.Store_Bound.DTLB_Store.Store_STLB_Miss.Store_STLB_Miss_1G=0.3" 6 4

# Emerald Rapids (the emr-vm host tree: family 6 model 0xCF, libpfm4 4.13 does not know it): import with
# no --pmu takes the host's model, emr by CPUID, and intel-emr.td (generated from perfmon's EMR files);
# perfmon's EMR L1/L2 formulas are GNR's, so the same counts give the same level 1 and 2 as the GNR case
# above. inst_retired.any_p (the general-purpose form) is not an event of the generated file (it reads
# the fixed INST_RETIRED.ANY): that line is skipped, the other 12 read
(cd "$DATA" && TD_SYSROOT="$TD_SRCDIR/tests/data/hosts/emr-vm" TD_PFM_MODEL=none \
	"$TDCTL" import --smt off -d "$WORK/emr.db" emr-names.csv) >"$WORK/emr.out" 2>&1
check_eq "emr: import exits 0" 0 "$?"
check_grep "emr: intel-emr.td serves it and reads 12 events" "metrics: intel-emr.td (PMU model emr) reads 12 of the events" \
	"$WORK/emr.out"
"$TDCTL" report -d "$WORK/emr.db" --format csv >"$WORK/emr.csv"
bad=$(printf '%s\n' Frontend_Bound=19 Frontend_Bound.Fetch_Latency=11 Frontend_Bound.Fetch_Bandwidth=8 Backend_Bound=30 \
	Backend_Bound.Memory_Bound=18 Backend_Bound.Core_Bound=12 Retiring=40 Retiring.Heavy_Operations=6 \
	Retiring.Light_Operations=34 Bad_Speculation=11 Bad_Speculation.Branch_Mispredicts=7 Bad_Speculation.Machine_Clears=4 |
	awk -F'[=,]' 'FNR == NR { want[$1] = $2; n_want++; next }
		FNR > 1 && $1 == "session" && $10 == "node" && $3 <= 2 { n++
			d = want[$2] - $4; if (d < 0) d = -d; if (!($2 in want) || $4 == "" || d > 5e-5) print $2 ": " $4 }
		END { if (n != n_want) print n " level-1/2 rows, " n_want " hand values" }' - "$WORK/emr.csv")
check_eq "emr: every level-1 and level-2 node has perfmon's value" "" "$bad"
finish
