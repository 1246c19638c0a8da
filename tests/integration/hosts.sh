#!/bin/sh
# Host-dependent decisions on recorded host trees (tests/data/hosts/NAME,
# each with a README naming the machine): with TD_SYSROOT pointing at a tree
# and TD_PFM_MODEL naming the libpfm4 model that machine has, `tdctl doctor`
# must name the CPU, topology, PMU, hypervisor, paranoid level, cgroup mount
# and BTF of that machine, choose its events file and rung, and `tdctl plan`
# must pack level 1 for its counters. Expected values come from the machines'
# facts (datasheets, the kernel's sysfs layout) and the events files' counter
# budgets, with the arithmetic beside them — not from the program's output.
# Runs the same on every host: nothing here is read from this machine.
. "$(dirname "$0")/lib.sh"

HOSTS="$TD_SRCDIR/tests/data/hosts"

# on NAME MODEL: doctor --json and plan -l 1 for host tree NAME
on() {
	name=$1
	TD_SYSROOT="$HOSTS/$1" TD_PFM_MODEL=$2 "$TDCTL" doctor --json >"$WORK/$1.json" 2>"$WORK/$1.err"
	check_eq "$1: doctor exits 0" 0 "$?"
	TD_SYSROOT="$HOSTS/$1" TD_PFM_MODEL=$2 "$TDCTL" plan -l 1 >"$WORK/$1.plan" 2>&1
	echo $? >"$WORK/$1.plan.rc"
}
# is 'PATH=VALUE ...': doctor's JSON of the current tree has each value ('' = null)
is() {
	for kv in "$@"; do
		path=${kv%%=*} want=${kv#*=}
		got=$(sql :memory: "select coalesce(json_extract(readfile('$WORK/$name.json'), '\$.$path'), '')")
		check_eq "$name: $path" "$want" "$got"
	done
}
# groups N: level 1 is planned in N perf groups
groups() {
	check_eq "$name: plan -l 1 exits 0" 0 "$(cat "$WORK/$name.plan.rc")"
	got=$(awk '/^[0-9]+ groups?:/ { print $1; exit }' "$WORK/$name.plan")
	check_eq "$name: level 1 in $1 perf group(s)" "$1" "$got"
}

# AMD EPYC Zen 4 VM (our CI): family 25 (0x19) model 17 (0x11) is Zen 4
# (Genoa); no cpu PMU in sysfs, the hypervisor flag set: software-only. 6
# general-purpose counters, watchdog off, SMT off: level 1's six events
# (cycles, retired ops, dispatch slots empty/backend/SMT, ops dispatched)
# fit in one group.
on zen4-vm-nopmu amd64_fam19h_zen4
is cpu.vendor=AuthenticAMD cpu.family=25 cpu.model=17 "cpu.microarch=Zen 4" cpu.online_cpus=2 cpu.cores=2 \
	cpu.sockets=1 cpu.smt=0 kernel.core_pmu= kernel.hypervisor=KVM kernel.perf_event_paranoid=2 \
	kernel.nmi_watchdog=0 libpfm4.model=amd64_fam19h_zen4 libpfm4.gp_counters=6 pmu_model.source=libpfm4 events_file=amd-zen4.td \
	rung=software-only cgroup.version=2 cgroup.writable=1 bpf.btf=1
check_grep "zen4-vm-nopmu: the reason says the VM exposes no PMU" "this VM (KVM) exposes no PMU to the guest" \
	"$WORK/zen4-vm-nopmu.json"
groups 1

# AMD Zen 5 (family 26 = 0x1a, model 2: Linux's bsp_init_amd sets X86_FEATURE_ZEN5 for models
# 0x00-0x2f, 0x40-0x4f, 0x60-0x7f) VM with a virtual PMU. libpfm4 4.13 has no Zen 5 model
# (TD_PFM_MODEL=none), so the CPUID path names it amd64_fam1ah_zen5 (upstream libpfm4's name)
# and amd-zen5.td serves it with raw encodings: full tree. Watchdog off, 6 general-purpose
# counters: level 1's six events (cycles, retired ops, dispatched ops, three 0x1A0 slot
# events) fit in one group.
on zen5-vm-vpmu none
is cpu.family=26 cpu.model=2 "cpu.microarch=Zen 5" cpu.online_cpus=8 cpu.cores=4 cpu.smt=1 kernel.core_pmu=cpu \
	libpfm4.model= pmu_model.name=amd64_fam1ah_zen5 pmu_model.source=cpuid events_file=amd-zen5.td rung=full-tree
check_grep "zen5-vm-vpmu: the reason says CPUID named the model and the encodings are raw" \
	"does not know Zen 5, so CPUID (AuthenticAMD family 0x1a model 0x2) names it amd64_fam1ah_zen5, which amd-zen5.td serves with raw event encodings" \
	"$WORK/zen5-vm-vpmu.json"
groups 1
TD_SYSROOT="$HOSTS/zen5-vm-vpmu" TD_PFM_MODEL=none "$TDCTL" doctor >"$WORK/zen5-vm-vpmu.txt" 2>&1
check_grep "zen5-vm-vpmu: doctor's text says which path named the model" \
	"PMU model:      amd64_fam1ah_zen5, from CPUID (AuthenticAMD family 0x1a model 0x2): events files for it use raw encodings" \
	"$WORK/zen5-vm-vpmu.txt"
check_grep "zen5-vm-vpmu: doctor's text says libpfm4 knows no model" "libpfm4 model:  none" "$WORK/zen5-vm-vpmu.txt"
# plan --pmu at level 2 on the same host (watchdog off, SMT on does not change AMD's 6
# counters): 12 events besides CYCLES, every group carries CYCLES (SLOTS) and at most 5
# others, so at least 3 groups; 3 suffice (bad speculation + retiring: RET_OPS OPS_DISP
# BR_MISP RESYNCS UCODE_OPS; frontend + backend: FE_NO_OPS FE_NO_OPS_C8 BE_STALLS
# NOT_COMPLETE LOAD_NOT_COMPLETE; SMT_CONT).
TD_SYSROOT="$HOSTS/zen5-vm-vpmu" TD_PFM_MODEL=none "$TDCTL" plan --pmu amd64_fam1ah_zen5 -l 2 \
	>"$WORK/zen5-l2.plan" 2>&1
check_eq "zen5-vm-vpmu: plan --pmu amd64_fam1ah_zen5 -l 2 exits 0" 0 "$?"
check_grep "zen5-vm-vpmu: level 2 in 3 groups" "3 groups: the kernel multiplexes, each group counts about 33% of the time" \
	"$WORK/zen5-l2.plan"
check_grep "zen5-vm-vpmu: 13 nodes planned" "planned: 13 nodes" "$WORK/zen5-l2.plan"
for ev in RET_OPS FE_NO_OPS FE_NO_OPS_C8 BE_STALLS SMT_CONT OPS_DISP BR_MISP RESYNCS NOT_COMPLETE \
	LOAD_NOT_COMPLETE UCODE_OPS; do
	check_eq "zen5-vm-vpmu: level 2 counts $ev in exactly one group" 1 "$(grep -c "^    $ev  *gp " "$WORK/zen5-l2.plan")"
done
check_eq "zen5-vm-vpmu: CYCLES (SLOTS) in each of the 3 groups" 3 "$(grep -c '^    CYCLES  *gp ' "$WORK/zen5-l2.plan")"
# each event a node reads, with its raw encoding as the host's AMD format gives it
# (event bits 0-7 and 32-35, umask 8-15, cmask 24-31): 0x1A0/0x01 c=8 = 0x1080001a0
check_grep "zen5-vm-vpmu: Fetch_Latency's cmask-8 event encoded with event bits 32-35" \
	"FE_NO_OPS_C8       gp                   cpu/event=0x1a0,umask=0x1,cmask=0x8/         type=4 config=0x1080001a0" \
	"$WORK/zen5-l2.plan"
check_grep "zen5-vm-vpmu: bp_redirects.resync is 0x9F/0x01" \
	"RESYNCS            gp                   cpu/event=0x9f,umask=0x1/                    type=4 config=0x19f" \
	"$WORK/zen5-l2.plan"
check_grep "zen5-vm-vpmu: ex_ret_ucode_ops is 0x1C2" \
	"UCODE_OPS          gp                   cpu/event=0x1c2,umask=0x0/                   type=4 config=0x1000000c2" \
	"$WORK/zen5-l2.plan"

# AMD Ryzen 9 9950X (Zen 5 Granite Ridge, family 26 model 68 = 0x44), bare metal: 16 cores x
# SMT 2 = 32 CPUs, 1 socket; CPUID path as above. The NMI watchdog takes one of the 6
# general-purpose counters: 5 left for level 1's six events, so 2 groups.
on ryzen-9950x none
is cpu.vendor=AuthenticAMD cpu.family=26 cpu.model=68 "cpu.microarch=Zen 5" cpu.online_cpus=32 cpu.cores=16 \
	cpu.sockets=1 cpu.smt=1 kernel.core_pmu=cpu kernel.hypervisor= kernel.nmi_watchdog=1 libpfm4.model= \
	pmu_model.name=amd64_fam1ah_zen5 pmu_model.source=cpuid events_file=amd-zen5.td rung=full-tree
check_grep "ryzen-9950x: the watchdog's counter is taken from the budget" \
	"6 general-purpose (file) - 1 held by the NMI watchdog = 5" "$WORK/ryzen-9950x.plan"
groups 2

# Skylake desktop (family 6 model 94 = 0x5e): bare metal, cpu PMU, full tree.
# 4 cores x SMT 2 = 8 CPUs. SMT on halves the 8 general-purpose counters to 4;
# the NMI watchdog holds fixed counter 1, so CPU_CLK_UNHALTED.THREAD_ANY needs
# a general-purpose one: level 1 reads 5 general-purpose events (clocks,
# uops issued, retire slots, recovery cycles, IDQ not delivered) > 4, so 2 groups.
on skl-bare skl
is cpu.vendor=GenuineIntel cpu.family=6 cpu.model=94 cpu.microarch=Skylake cpu.online_cpus=8 cpu.cores=4 \
	cpu.sockets=1 cpu.smt=1 kernel.core_pmu=cpu kernel.hypervisor= kernel.nmi_watchdog=1 libpfm4.model=skl \
	libpfm4.fixed_counters=3 events_file=intel-skl.td rung=full-tree
check_grep "skl-bare: the plan halves the counters for SMT and gives fixed 1 to the watchdog" \
	"4 general-purpose (file, halved with SMT on), 3 fixed (fixed counter 1 held by the NMI watchdog)" "$WORK/skl-bare.plan"
groups 2

# Ice Lake client (model 126 = 0x7e) with PERF_METRICS: level 1 is SLOTS (fixed
# counter 3) leading the four topdown metrics, plus two general-purpose
# corrections (uops dropped, clears count) of 8: one group.
on icl-perfmetrics icl
is cpu.model=126 "cpu.microarch=Ice Lake" cpu.online_cpus=8 cpu.smt=1 kernel.core_pmu=cpu libpfm4.model=icl \
	events_file=intel-icl.td rung=full-tree
check_grep "icl-perfmetrics: SLOTS leads the group" "SLOTS_EV           fixed 3 only, leader" "$WORK/icl-perfmetrics.plan"
groups 1

# Sapphire Rapids VM (model 143 = 0x8f) with a virtual PMU: full tree, the
# reason warns of hypervisor noise; level 1 as on Ice Lake in one group.
on spr-vm spr
is cpu.model=143 "cpu.microarch=Sapphire Rapids" cpu.online_cpus=16 cpu.cores=8 kernel.hypervisor=KVM \
	libpfm4.model=spr events_file=intel-spr.td rung=full-tree
check_grep "spr-vm: the reason warns of hypervisor noise" "virtualized PMU: counts may include hypervisor noise" "$WORK/spr-vm.json"
groups 1

# Arm Neoverse N1 (Graviton2): /proc/cpuinfo has no vendor_id, only the
# implementer (0x41 = Arm); armv8_pmuv3_0 is the core PMU. arm-neoverse-n1.td (generated from Linux
# perf's pmu-events): level 1 is Arm's stage-1 cycle accounting, CPU_CYCLES (the cycle counter) and
# STALL_FRONTEND, STALL_BACKEND: one group.
on neoverse-n1 arm_n1
is "cpu.vendor=ARM (implementer 0x41)" cpu.online_cpus=4 cpu.smt=0 kernel.core_pmu=armv8_pmuv3_0 \
	libpfm4.model=arm_n1 events_file=arm-neoverse-n1.td rung=full-tree
groups 1
# Arm Neoverse V1 (Graviton3 class, CPU part 0xd40): the MIDR table names it arm_v1, arm-neoverse-v1.td
# (generated from perf's pmu-events, 8 slots) serves it. Level 1 reads CPU_CYCLES (the cycle counter:
# watchdog off) and 6 events (STALL_SLOT*, OP_RETIRED, OP_SPEC, BR_MIS_PRED) on the 6 counters: one group.
on neoverse-v1 none
is "cpu.vendor=ARM (implementer 0x41)" cpu.model=3392 "cpu.microarch=Neoverse V1" cpu.online_cpus=8 \
	libpfm4.model= pmu_model.name=arm_v1 pmu_model.source=cpuid events_file=arm-neoverse-v1.td rung=full-tree
groups 1

# Arm Neoverse N2 (CPU part 0xd49): libpfm4's name arm_n2 picks arm-neoverse-n2.td (5 slots). Watchdog
# off: level 1's seven events are CPU_CYCLES (the PMUv3 cycle counter, fixed 0) and six on the 6
# programmable counters (BR_MIS_PRED, OP_RETIRED, OP_SPEC, STALL_SLOT, STALL_SLOT_FRONTEND,
# STALL_SLOT_BACKEND): one group.
on neoverse-n2 arm_n2
is "cpu.vendor=ARM (implementer 0x41)" cpu.model=3401 "cpu.microarch=Neoverse N2" cpu.online_cpus=8 \
	kernel.core_pmu=armv8_pmuv3_0 libpfm4.model=arm_n2 pmu_model.source=libpfm4 events_file=arm-neoverse-n2.td \
	rung=full-tree
groups 1
# a libpfm4 that does not know N2 (TD_PFM_MODEL=none): the MIDR table names it arm_n2, same file
on neoverse-n2 none
is libpfm4.model= pmu_model.name=arm_n2 pmu_model.source=cpuid events_file=arm-neoverse-n2.td rung=full-tree
check_grep "neoverse-n2: the reason says MIDR named the model" \
	"so MIDR (ARM (implementer 0x41) part 0xd49) names it arm_n2, which arm-neoverse-n2.td serves" "$WORK/neoverse-n2.json"
TD_SYSROOT="$HOSTS/neoverse-n2" TD_PFM_MODEL=none "$TDCTL" doctor >"$WORK/neoverse-n2.txt" 2>&1
check_grep "neoverse-n2: doctor's text says MIDR named the model" \
	"PMU model:      arm_n2, from MIDR (ARM (implementer 0x41) part 0xd49): events files for it use raw encodings" \
	"$WORK/neoverse-n2.txt"
groups 1

# Arm Neoverse V2 (CPU part 0xd4f): arm_v2 picks arm-neoverse-v2.td (8 slots). The NMI watchdog holds
# the cycle counter, so CPU_CYCLES needs a programmable counter: 7 events on 6 counters, 2 groups.
on neoverse-v2 arm_v2
is "cpu.vendor=ARM (implementer 0x41)" cpu.model=3407 "cpu.microarch=Neoverse V2" kernel.nmi_watchdog=1 \
	libpfm4.model=arm_v2 pmu_model.source=libpfm4 events_file=arm-neoverse-v2.td rung=full-tree
groups 2
on neoverse-v2 none
is libpfm4.model= pmu_model.name=arm_v2 pmu_model.source=cpuid events_file=arm-neoverse-v2.td rung=full-tree
groups 2
# Intel Granite Rapids-AP (family 6 model 173 = 0xAD, perfmon mapfile GenuineIntel-6-AD), 2 x 128 cores
# x SMT 2: libpfm4 4.13 has no GNR table (TD_PFM_MODEL=none), CPUID names it gnr and intel-gnr.td serves
# it with raw encodings. Level 1 is SLOTS + the four PERF_METRICS fields + INT_MISC.UOP_DROPPING: one group.
on gnr-2s none
is cpu.family=6 cpu.model=173 "cpu.microarch=Granite Rapids" cpu.online_cpus=512 cpu.cores=256 cpu.sockets=2 \
	cpu.smt=1 libpfm4.model= pmu_model.name=gnr pmu_model.source=cpuid events_file=intel-gnr.td rung=full-tree
check_grep "gnr-2s: the reason says CPUID named gnr and the encodings are raw" \
	"so CPUID (GenuineIntel family 0x6 model 0xad) names it gnr, which intel-gnr.td serves with raw event encodings" \
	"$WORK/gnr-2s.json"
groups 1
# Intel Sierra Forest (family 6 model 175 = 0xAF, perfmon mapfile GenuineIntel-6-AF), 2 x 144 E-cores,
# no SMT: libpfm4 4.13 has no table, CPUID names it srf and intel-srf.td (generated from perfmon) serves
# it with raw encodings. Level 1 reads TOPDOWN_{FE_BOUND,BAD_SPECULATION,BE_BOUND,RETIRING}.ALL_P and the
# core clocks (fixed counter 1 taken by the NMI watchdog): 5 GP events on 8 counters, one group.
on srf-2s none
is cpu.family=6 cpu.model=175 "cpu.microarch=Sierra Forest" cpu.online_cpus=288 cpu.sockets=2 cpu.smt=0 \
	libpfm4.model= pmu_model.name=srf pmu_model.source=cpuid events_file=intel-srf.td rung=full-tree
groups 1
# Intel Tiger Lake laptop (family 6 model 140 = 0x8C), 4 cores x SMT 2: libpfm4 4.13 has no Tiger Lake name,
# CPUID names it tgl and intel-tgl.td (generated from perfmon's TGL files, TMA 5.1) serves it with raw
# encodings. Level 1: SLOTS and the four PERF_METRICS fields (fixed counter 3): one group.
on tgl-laptop none
is cpu.family=6 cpu.model=140 "cpu.microarch=Tiger Lake" cpu.online_cpus=8 cpu.cores=4 cpu.smt=1 \
	libpfm4.model= pmu_model.name=tgl pmu_model.source=cpuid events_file=intel-tgl.td rung=full-tree
groups 1
# 2-socket Intel Skylake-SP (family 6 model 85 = 0x55, stepping 4: Skylake-SP, not Cascade Lake, by perfmon's
# mapfile and libpfm4), 2 x 20 cores x SMT 2: libpfm4 names it skx, intel-skx.td (generated from perfmon's SKX
# files) serves it; without libpfm4's model CPUID names it skx too. Level 1 as on Skylake client: SMT on halves
# the 8 counters to 4, the watchdog holds fixed counter 1, so the 5 distinct events (CPU_CLK_UNHALTED.THREAD_ANY,
# UOPS_ISSUED.ANY, UOPS_RETIRED.RETIRE_SLOTS, INT_MISC.RECOVERY_CYCLES_ANY, IDQ_UOPS_NOT_DELIVERED.CORE) need 2
on skx-2s skx
is cpu.family=6 cpu.model=85 "cpu.microarch=Skylake-SP" cpu.online_cpus=80 cpu.cores=40 cpu.sockets=2 cpu.smt=1 \
	libpfm4.model=skx pmu_model.name=skx pmu_model.source=libpfm4 events_file=intel-skx.td rung=full-tree
groups 2
on skx-2s none
is libpfm4.model= pmu_model.name=skx pmu_model.source=cpuid events_file=intel-skx.td rung=full-tree
# 2-socket Intel Cascade Lake (family 6 model 85 = 0x55, stepping 7: Cascade Lake by perfmon's mapfile, steppings
# 5 and up, and libpfm4), 2 x 20 cores x SMT 2: libpfm4 names it clx, intel-clx.td (generated from perfmon's CLX
# files) serves it; without libpfm4's model CPUID names it clx too. Level 1 as Skylake-SP's: 5 distinct events on
# the 4 counters SMT leaves, fixed counter 1 held by the watchdog: 2 groups
on clx-2s clx
is cpu.family=6 cpu.model=85 "cpu.microarch=Cascade Lake" cpu.online_cpus=80 cpu.cores=40 cpu.sockets=2 cpu.smt=1 \
	libpfm4.model=clx pmu_model.name=clx pmu_model.source=libpfm4 events_file=intel-clx.td rung=full-tree
groups 2
on clx-2s none
is libpfm4.model= pmu_model.name=clx pmu_model.source=cpuid events_file=intel-clx.td rung=full-tree
# 2-socket Intel Broadwell-EP (family 6 model 79 = 0x4F), 2 x 22 cores x SMT 2: libpfm4 names it bdw_ep, which
# intel-bdx.td (generated from perfmon's BDX files, raw encodings) serves; without libpfm4's model CPUID names it
# bdx. Level 1 reads IDQ_UOPS_NOT_DELIVERED.CORE, UOPS_ISSUED.ANY, UOPS_RETIRED.RETIRE_SLOTS,
# INT_MISC.RECOVERY_CYCLES_ANY and CPU_CLK_UNHALTED.THREAD_ANY: 5 events on 4 counters (SMT on), the watchdog
# holding fixed counter 1: 2 groups
on bdx-2s bdw_ep
is cpu.family=6 cpu.model=79 "cpu.microarch=Broadwell-X" cpu.online_cpus=88 cpu.cores=44 cpu.sockets=2 cpu.smt=1 \
	libpfm4.model=bdw_ep pmu_model.name=bdw_ep pmu_model.source=libpfm4 events_file=intel-bdx.td rung=full-tree
groups 2
on bdx-2s none
is libpfm4.model= pmu_model.name=bdx pmu_model.source=cpuid events_file=intel-bdx.td rung=full-tree
# 2-socket Intel Ice Lake-SP (family 6 model 106 = 0x6A), 2 x 40 cores x SMT 2: libpfm4 names it icx, and
# intel-icx.td (generated from perfmon's ICX files, TMA 5.1: the server tree, no longer intel-icl.td's
# client one) serves it; without libpfm4's model, CPUID names it icx too. Level 1: SLOTS and the four
# PERF_METRICS fields on the fixed counter 3 (the NMI watchdog holds fixed counter 1): one group.
on icx-2s icx
is cpu.family=6 cpu.model=106 "cpu.microarch=Ice Lake-SP" cpu.online_cpus=160 cpu.cores=80 cpu.sockets=2 cpu.smt=1 \
	libpfm4.model=icx pmu_model.name=icx pmu_model.source=libpfm4 events_file=intel-icx.td rung=full-tree
groups 1
on icx-2s none
is libpfm4.model= pmu_model.name=icx pmu_model.source=cpuid events_file=intel-icx.td rung=full-tree
# Intel Emerald Rapids (model 207 = 0xCF) VM: libpfm4 4.13 does not know it, CPUID names it emr and
# intel-emr.td (generated from perfmon's EMR files, TMA 5.1, checked against toplev's emr-l6 oracle) serves
# it with raw encodings
on emr-vm none
is cpu.model=207 "cpu.microarch=Emerald Rapids" kernel.hypervisor=KVM pmu_model.name=emr pmu_model.source=cpuid \
	events_file=intel-emr.td rung=full-tree
check_grep "emr-vm: the reason says intel-emr.td serves it with raw encodings" \
	"so CPUID (GenuineIntel family 0x6 model 0xcf) names it emr, which intel-emr.td serves with raw event encodings" \
	"$WORK/emr-vm.json"
TD_SYSROOT="$HOSTS/emr-vm" TD_PFM_MODEL=none "$TDCTL" doctor >"$WORK/emr-vm.txt" 2>&1
check_grep "emr-vm: doctor's text says the events file uses raw encodings" \
	"PMU model:      emr, from CPUID (GenuineIntel family 0x6 model 0xcf): events files for it use raw encodings" \
	"$WORK/emr-vm.txt"
groups 1
# N1 through the MIDR table too (part 0xd0c): still arm-neoverse-n1.td
on neoverse-n1 none
is pmu_model.name=arm_n1 pmu_model.source=cpuid "cpu.microarch=Neoverse N1" events_file=arm-neoverse-n1.td

# 2-socket EPYC 9554 (Zen 4 Genoa, 64 cores a socket, SMT 2): 256 CPUs, 128
# cores, 2 sockets. The NMI watchdog takes one of the 6 general-purpose
# counters: 5 left for level 1's six events, so 2 groups.
on epyc-2s-256 amd64_fam19h_zen4
is cpu.online_cpus=256 cpu.cores=128 cpu.sockets=2 cpu.smt=1 "cpu.microarch=Zen 4" kernel.core_pmu=cpu \
	kernel.nmi_watchdog=1 events_file=amd-zen4.td rung=full-tree
check_grep "epyc-2s-256: the watchdog's counter is taken from the budget" \
	"6 general-purpose (file) - 1 held by the NMI watchdog = 5" "$WORK/epyc-2s-256.plan"
groups 2

# A container on the Zen 4 VM: cgroup2 mounted read-only, no BTF visible.
on container-ro-cgroup amd64_fam19h_zen4
is cgroup.version=2 cgroup.mount=/sys/fs/cgroup cgroup.writable=0 bpf.btf=0 bpf.available=0 rung=software-only

# 512 CPUs: 2 sockets x 64 cores x 4 threads.
on spr-2s-512-smt4 spr
is cpu.online_cpus=512 cpu.cores=128 cpu.sockets=2 cpu.smt=1 events_file=intel-spr.td

# Outside a tree, nothing of a tree leaks in: TD_PFM_MODEL alone forces the model
TD_PFM_MODEL=none "$TDCTL" doctor --json >"$WORK/none.json"
name=none
# (this machine's CPU may still be named by CPUID, Zen 5 for one: that is no tree leaking in)
is libpfm4.model=
check_match "none: the PMU model, if any, came from CPUID" "^(cpuid|none)\$" \
	"$(sql :memory: "select json_extract(readfile('$WORK/none.json'), '\$.pmu_model.source')")"
finish
