#!/bin/sh
# make-trees.sh: writes the recorded host trees of tests/data/hosts/ (what
# topdown reads of a machine: /proc/cpuinfo's first CPU, the online CPUs and
# their topology, SMT, perf_event_paranoid, the NMI watchdog, the kernel
# release, the mounts, the PMUs in /sys/bus/event_source/devices, BTF, and the
# CPUID hypervisor leaf as cpuid/hypervisor). Each tree's facts are those of
# the machine its README names. Run from this directory; the trees are
# committed, this script says how they were made.
set -eu
cd "$(dirname "$0")"

# tree NAME: start an empty tree
tree() { T=$1; rm -rf "$T"; mkdir -p "$T/proc/sys/kernel" "$T/proc/self" "$T/sys/devices/system/cpu/smt" \
	"$T/sys/bus/event_source/devices/software" "$T/sys/kernel/btf"
	echo 1 >"$T/sys/bus/event_source/devices/software/type"; : >"$T/sys/kernel/btf/vmlinux"; }
kernel() { echo "$1" >"$T/proc/sys/kernel/osrelease"; echo "$2" >"$T/proc/sys/kernel/perf_event_paranoid"
	echo "$3" >"$T/proc/sys/kernel/nmi_watchdog"; }
readme() { printf '%s\n' "$@" >"$T/README"; }
hypervisor() { mkdir -p "$T/cpuid"; printf '%s\n' "$1" >"$T/cpuid/hypervisor"; }
mounts() { printf '%s\n' "proc /proc proc rw,nosuid,nodev,noexec,relatime 0 0" \
	"sysfs /sys sysfs rw,nosuid,nodev,noexec,relatime 0 0" "$1" >"$T/proc/self/mounts"; }
cgroup_rw="cgroup2 /sys/fs/cgroup cgroup2 rw,nosuid,nodev,noexec,relatime,nsdelegate 0 0"
# x86 NAME VENDOR FAMILY MODEL STEPPING HYPERVISOR-FLAG(0/1): the first CPU of /proc/cpuinfo
x86() { flags="fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush mmx fxsr sse sse2"
	[ "$6" = 1 ] && flags="$flags hypervisor"
	printf 'processor\t: 0\nvendor_id\t: %s\ncpu family\t: %d\nmodel\t\t: %d\nmodel name\t: %s\nstepping\t: %d\nflags\t\t: %s\n\nprocessor\t: 1\nvendor_id\t: %s\n' \
		"$2" "$3" "$4" "$1" "$5" "$flags" "$2" >"$T/proc/cpuinfo"; }
# cpus SOCKETS CORES THREADS: Linux numbering (all first threads, socket by
# socket, then all second threads, ...); core_id counts within the socket
cpus() { s=$1 c=$2 t=$3 n=$(($1 * $2 * $3))
	echo "0-$((n - 1))" >"$T/sys/devices/system/cpu/online"
	[ "$t" -gt 1 ] && echo 1 >"$T/sys/devices/system/cpu/smt/active" || echo 0 >"$T/sys/devices/system/cpu/smt/active"
	i=0; while [ $i -lt "$n" ]; do
		d="$T/sys/devices/system/cpu/cpu$i/topology"; mkdir -p "$d"
		echo $(((i / c) % s)) >"$d/physical_package_id"; echo $((i % c)) >"$d/core_id"; i=$((i + 1)); done; }
# pmu NAME TYPE [EVENT=ENCODING...]: a kernel PMU with x86 or Arm formats
pmu() { d="$T/sys/bus/event_source/devices/$1"; mkdir -p "$d/format" "$d/events"; echo "$2" >"$d/type"; shift 2
	case $d in *armv8*) echo "config:0-15" >"$d/format/event" ;;
	*) echo "config:0-7" >"$d/format/event"; echo "config:8-15" >"$d/format/umask"; echo "config:18" >"$d/format/edge"
	   echo "config:23" >"$d/format/inv"; echo "config:24-31" >"$d/format/cmask" ;; esac
	for e in "$@"; do echo "${e#*=}" >"$d/events/${e%%=*}"; done; }
# intelpmu NAME TYPE [EVENT=ENCODING...]: the same with the formats of Intel's extra registers,
# which the kernel writes from config1 (Linux arch/x86/events/intel/core.c: offcore_rsp
# "config1:0-63" for OCR events, ldlat "config1:0-15", frontend "config1:0-23" = MSR 0x3F7)
intelpmu() { pmu "$@"; f="$T/sys/bus/event_source/devices/$1/format"; echo "config1:0-63" >"$f/offcore_rsp"
	echo "config1:0-15" >"$f/ldlat"; echo "config1:0-23" >"$f/frontend"; }
# amdpmu NAME TYPE [EVENT=ENCODING...]: the same with AMD's event format, whose bits 32-35
# carry event codes above 0xff (Linux arch/x86/events/amd/core.c: event "config:0-7,32-35")
amdpmu() { pmu "$@"; echo "config:0-7,32-35" >"$T/sys/bus/event_source/devices/$1/format/event"; }

# the events of Intel's cpu PMU the trees share (Linux arch/x86/events/intel/core.c: the
# generic cycles and instructions; slots and the level-1 topdown-* events of PERF_METRICS, and
# the level-2 ones of Sapphire Rapids and later)
intel_base="cpu-cycles=event=0x3c instructions=event=0xc0"
intel_td4="slots=event=0x00,umask=0x4 topdown-retiring=event=0x00,umask=0x80 topdown-bad-spec=event=0x00,umask=0x81
topdown-fe-bound=event=0x00,umask=0x82 topdown-be-bound=event=0x00,umask=0x83"
intel_td8="$intel_td4 topdown-heavy-ops=event=0x00,umask=0x84 topdown-br-mispredict=event=0x00,umask=0x85
topdown-fetch-lat=event=0x00,umask=0x86 topdown-mem-bound=event=0x00,umask=0x87"

tree zen4-vm-nopmu
readme "AMD EPYC (Zen 4, family 25 model 17) cloud VM under KVM, 2 vCPUs, no PMU exposed to the guest: our CI hosts." \
	"libpfm4 4.13 knows it as amd64_fam19h_zen4 (TD_PFM_MODEL=amd64_fam19h_zen4)."
x86 "AMD EPYC" AuthenticAMD 25 17 1 1; hypervisor KVMKVMKVM; cpus 1 2 1; kernel 6.18.44 2 0; mounts "$cgroup_rw"

tree zen5-vm-vpmu
readme "AMD EPYC 9R45 (Zen 5, family 26 model 2) VM with a virtual PMU, 8 vCPUs (4 cores, SMT)." \
	"libpfm4 4.13 does not know Zen 5 (TD_PFM_MODEL=none): CPUID family 0x1a model 0x2 names it amd64_fam1ah_zen5" \
	"(amd-zen5.td, raw encodings). The cpu PMU's formats are AMD's (event config:0-7,32-35)."
x86 "AMD EPYC 9R45" AuthenticAMD 26 2 0 1; hypervisor KVMKVMKVM; cpus 1 4 2; kernel 6.8.0 2 0; mounts "$cgroup_rw"
amdpmu cpu 4 cpu-cycles=event=0x76 instructions=event=0xc0

tree ryzen-9950x
readme "AMD Ryzen 9 9950X (Zen 5 Granite Ridge, family 26 model 68 = 0x44, stepping 0) desktop, bare metal," \
	"16 cores x SMT 2 = 32 CPUs, NMI watchdog on. /proc/cpuinfo values (vendor_id AuthenticAMD, cpu family 26," \
	"model 68, stepping 0, model name 'AMD Ryzen 9 9950X 16-Core Processor') as this CPU's cpuinfo reads in" \
	"public bug reports; cpu PMU formats as Linux arch/x86/events/amd/core.c (event config:0-7,32-35)." \
	"libpfm4 4.13 does not know Zen 5 (TD_PFM_MODEL=none): CPUID names it amd64_fam1ah_zen5 (amd-zen5.td)."
x86 "AMD Ryzen 9 9950X 16-Core Processor" AuthenticAMD 26 68 0 0; cpus 1 16 2; kernel 6.12.0 2 1; mounts "$cgroup_rw"
amdpmu cpu 4 cpu-cycles=event=0x76 instructions=event=0xc0

tree skl-bare
readme "Intel Core i7-6700K (Skylake, family 6 model 94) desktop, bare metal, 4 cores with SMT (8 CPUs)," \
	"NMI watchdog on (it holds fixed counter 1), perf_event_paranoid 2. libpfm4: skl."
x86 "Intel(R) Core(TM) i7-6700K CPU @ 4.00GHz" GenuineIntel 6 94 3 0; cpus 1 4 2; kernel 6.1.0-13-amd64 2 1
mounts "$cgroup_rw"; intelpmu cpu 4 $intel_base

tree icl-perfmetrics
readme "Intel Core i7-1065G7 (Ice Lake client, family 6 model 126) laptop, bare metal, 4 cores with SMT," \
	"PERF_METRICS: the kernel's cpu PMU has slots and topdown-* events. NMI watchdog on. libpfm4: icl."
x86 "Intel(R) Core(TM) i7-1065G7 CPU @ 1.30GHz" GenuineIntel 6 126 5 0; cpus 1 4 2; kernel 6.1.0-13-amd64 2 1
mounts "$cgroup_rw"
intelpmu cpu 4 $intel_base $intel_td4

tree spr-vm
readme "Intel Xeon Platinum 8488C (Sapphire Rapids, family 6 model 143) cloud VM with a virtual PMU," \
	"16 vCPUs (8 cores, SMT), PERF_METRICS with the level-2 topdown events. libpfm4: spr."
x86 "Intel(R) Xeon(R) Platinum 8488C" GenuineIntel 6 143 8 1; hypervisor KVMKVMKVM; cpus 1 8 2; kernel 6.1.0-13-amd64 2 0
mounts "$cgroup_rw"
intelpmu cpu 4 $intel_base $intel_td8

tree neoverse-n1
readme "Arm Neoverse N1 (AWS Graviton2, implementer 0x41 part 0xd0c), 4 CPUs, no SMT, armv8_pmuv3_0 PMU." \
	"x86 builds of libpfm4 have no Arm tables: TD_PFM_MODEL=arm_n1 names the model for the events file."
T2=$T
printf 'processor\t: 0\nBogoMIPS\t: 243.75\nFeatures\t: fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics fphp asimdhp cpuid asimdrdm lrcpc dcpop asimddp ssbs\nCPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: 0x3\nCPU part\t: 0xd0c\nCPU revision\t: 1\n\nprocessor\t: 1\n' >"$T2/proc/cpuinfo"
cpus 1 4 1; kernel 6.1.0-13-arm64 2 0; mounts "$cgroup_rw"; pmu armv8_pmuv3_0 8 cpu_cycles=event=0x0011 inst_retired=event=0x0008

# arm TREE PART VARIANT REVISION FEATURES: an Arm host's /proc/cpuinfo (first CPU; MIDR fields)
arm() { printf 'processor\t: 0\nBogoMIPS\t: 2000.00\nFeatures\t: %s\nCPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: %s\nCPU part\t: %s\nCPU revision\t: %s\n\nprocessor\t: 1\n' \
	"$4" "$2" "$1" "$3" >"$T/proc/cpuinfo"; }

tree neoverse-n2
readme "Arm Neoverse N2 (e.g. Alibaba Yitian 710 / Azure Cobalt 100 class; implementer 0x41 part 0xd49 r0p3), 8 CPUs," \
	"no SMT, armv8_pmuv3_0 PMU. libpfm4 4.13 names it arm_n2 on Arm; x86 builds have no Arm tables:" \
	"TD_PFM_MODEL=arm_n2 forces the name, TD_PFM_MODEL=none leaves it to the MIDR table (CPU part 0xd49)."
arm 0xd49 0x0 3 "fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics fphp asimdhp cpuid asimdrdm jscvt fcma lrcpc dcpop sha3 sm3 sm4 asimddp sha512 sve asimdfhm dit uscat ilrcpc flagm ssbs sb paca pacg dcpodp sve2 sveaes svepmull svebitperm svesha3 svesm4 flagm2 frint svei8mm svebf16 i8mm bf16 dgh bti"
cpus 1 8 1; kernel 6.8.0-arm64 2 0; mounts "$cgroup_rw"; pmu armv8_pmuv3_0 8 cpu_cycles=event=0x0011 inst_retired=event=0x0008 \
	stall_slot=event=0x003f stall_slot_frontend=event=0x003e stall_slot_backend=event=0x003d
mkdir -p "$T/sys/bus/event_source/devices/armv8_pmuv3_0/caps"; echo 5 >"$T/sys/bus/event_source/devices/armv8_pmuv3_0/caps/slots" # perf: #slots

tree neoverse-v2
readme "Arm Neoverse V2 (NVIDIA Grace / AWS Graviton4 class; implementer 0x41 part 0xd4f r0p0), 8 CPUs, no SMT," \
	"armv8_pmuv3_0 PMU, NMI watchdog on (it takes the cycle counter). libpfm4 4.13 names it arm_v2 on Arm:" \
	"TD_PFM_MODEL=arm_v2 forces the name, TD_PFM_MODEL=none leaves it to the MIDR table (CPU part 0xd4f)."
arm 0xd4f 0x0 0 "fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics fphp asimdhp cpuid asimdrdm jscvt fcma lrcpc dcpop sha3 sm3 sm4 asimddp sha512 sve asimdfhm dit uscat ilrcpc flagm ssbs sb paca pacg dcpodp sve2 sveaes svepmull svebitperm svesha3 svesm4 flagm2 frint svei8mm svebf16 i8mm bf16 dgh bti"
cpus 1 8 1; kernel 6.8.0-arm64 2 1; mounts "$cgroup_rw"; pmu armv8_pmuv3_0 8 cpu_cycles=event=0x0011 inst_retired=event=0x0008 \
	stall_slot=event=0x003f stall_slot_frontend=event=0x003e stall_slot_backend=event=0x003d
mkdir -p "$T/sys/bus/event_source/devices/armv8_pmuv3_0/caps"; echo 8 >"$T/sys/bus/event_source/devices/armv8_pmuv3_0/caps/slots"

tree neoverse-v1
readme "Arm Neoverse V1 (AWS Graviton3 class; implementer 0x41 part 0xd40 r1p1), 8 CPUs, no SMT, armv8_pmuv3_0 PMU," \
	"NMI watchdog off. libpfm4 4.13 names it arm_v1 on Arm; x86 builds have no Arm tables: TD_PFM_MODEL=none leaves" \
	"it to the MIDR table (CPU part 0xd40): arm-neoverse-v1.td, generated from Linux perf's pmu-events (8 slots)."
arm 0xd40 0x1 1 "fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics fphp asimdhp cpuid asimdrdm jscvt fcma lrcpc dcpop sha3 sm3 sm4 asimddp sha512 sve asimdfhm dit uscat ilrcpc flagm ssbs paca pacg dcpodp svei8mm svebf16 i8mm bf16 dgh rng"
cpus 1 8 1; kernel 6.8.0-arm64 2 0; mounts "$cgroup_rw"; pmu armv8_pmuv3_0 8 cpu_cycles=event=0x0011 inst_retired=event=0x0008 \
	stall_slot=event=0x003f stall_slot_frontend=event=0x003e stall_slot_backend=event=0x003d
mkdir -p "$T/sys/bus/event_source/devices/armv8_pmuv3_0/caps"; echo 8 >"$T/sys/bus/event_source/devices/armv8_pmuv3_0/caps/slots"

tree gnr-2s
readme "2-socket Intel Xeon 6980P (Granite Rapids-AP, family 6 model 173 = 0xAD), bare metal: 2 x 128 cores x SMT 2 = 512 CPUs." \
	"libpfm4 4.13 has no Granite Rapids model (TD_PFM_MODEL=none): CPUID names it gnr (intel-gnr.td, raw encodings)."
x86 "Intel(R) Xeon(R) 6980P" GenuineIntel 6 173 1 0; cpus 2 128 2; kernel 6.12.0-amd64 2 0; mounts "$cgroup_rw"
intelpmu cpu 4 $intel_base $intel_td8

tree srf-2s
readme "2-socket Intel Xeon 6780E (Sierra Forest-SP, Crestmont E-cores, family 6 model 175 = 0xAF), bare metal: 2 x 144 cores, no SMT = 288 CPUs." \
	"libpfm4 4.13 has no Sierra Forest model (TD_PFM_MODEL=none): CPUID names it srf (intel-srf.td, generated from perfmon, raw encodings)." \
	"cpu PMU as Linux 6.12.117 arch/x86/events/intel/core.c gives INTEL_ATOM_CRESTMONT_X (:6785-6797): cmt_events_attrs (:2170-2216)," \
	"cmt_format_attr offcore_rsp, ldlat, snoop_rsp (:5339-5344, snoop_rsp config1:0-63 :5307); no frontend format, no PERF_METRICS."
x86 "Intel(R) Xeon(R) 6780E" GenuineIntel 6 175 3 0; cpus 2 144 1; kernel 6.12.0-amd64 2 0; mounts "$cgroup_rw"
pmu cpu 4 cpu-cycles=event=0x3c instructions=event=0xc0 topdown-fe-bound=event=0x71,umask=0x0 \
	topdown-retiring=event=0x72,umask=0x0 topdown-bad-spec=event=0x73,umask=0x0 topdown-be-bound=event=0x74,umask=0x0
f="$T/sys/bus/event_source/devices/cpu/format"; echo "config1:0-63" >"$f/offcore_rsp"; echo "config1:0-15" >"$f/ldlat"
echo "config1:0-63" >"$f/snoop_rsp"

tree tgl-laptop
readme "Intel Core i7-1185G7 (Tiger Lake, family 6 model 140 = 0x8C) laptop, bare metal, 4 cores x SMT 2 = 8 CPUs. NMI watchdog on." \
	"libpfm4 4.13 has no Tiger Lake name (TD_PFM_MODEL=none): CPUID names it tgl (intel-tgl.td, generated from perfmon, raw encodings)." \
	"cpu PMU as Linux 6.12.117 arch/x86/events/intel/core.c gives INTEL_TIGERLAKE_L (Ice Lake's case, :7067-7104): icl_td_events_attrs" \
	"(slots, topdown-{retiring,bad-spec,fe-bound,be-bound}), offcore_rsp, ldlat, frontend formats."
x86 "11th Gen Intel(R) Core(TM) i7-1185G7 @ 3.00GHz" GenuineIntel 6 140 1 0; cpus 1 4 2; kernel 6.1.0-13-amd64 2 1
mounts "$cgroup_rw"
intelpmu cpu 4 $intel_base $intel_td4

tree skx-2s
readme "2-socket Intel Xeon Gold 6148 (Skylake-SP, family 6 model 85 = 0x55, stepping 4: perfmon's mapfile GenuineIntel-6-55-[01234] is SKX," \
	"-[56789ABCDEF] Cascade Lake), bare metal: 2 x 20 cores x SMT 2 = 80 CPUs. NMI watchdog on. libpfm4: skx; CPUID names it skx too" \
	"(intel-skx.td, generated from perfmon's SKX files). cpu PMU as Linux 6.12.117 arch/x86/events/intel/core.c gives INTEL_SKYLAKE_X" \
	"(:7005-7060): no PERF_METRICS; intel_arch3_formats_attr (:5309-5318) with any = config:21 (:4806), offcore_rsp, ldlat, frontend."
x86 "Intel(R) Xeon(R) Gold 6148 CPU @ 2.40GHz" GenuineIntel 6 85 4 0; cpus 2 20 2; kernel 6.1.0-13-amd64 2 1
mounts "$cgroup_rw"
intelpmu cpu 4 $intel_base
echo "config:21" >"$T/sys/bus/event_source/devices/cpu/format/any"

tree clx-2s
readme "2-socket Intel Xeon Gold 6248 (Cascade Lake, family 6 model 85 = 0x55, stepping 7: perfmon's mapfile GenuineIntel-6-55-[56789ABCDEF]" \
	"is CLX, -[01234] Skylake-SP), bare metal: 2 x 20 cores x SMT 2 = 80 CPUs. NMI watchdog on. libpfm4: clx; CPUID names it clx too" \
	"(intel-clx.td, generated from perfmon's CLX files). cpu PMU as skx-2s: Linux 6.12.117 arch/x86/events/intel/core.c has one case," \
	"INTEL_SKYLAKE_X (:7005-7060), whatever the stepping: intel_arch3_formats_attr (:5309-5318), any = config:21 (:4806), offcore_rsp, ldlat, frontend."
x86 "Intel(R) Xeon(R) Gold 6248 CPU @ 2.50GHz" GenuineIntel 6 85 7 0; cpus 2 20 2; kernel 6.1.0-13-amd64 2 1
mounts "$cgroup_rw"
intelpmu cpu 4 $intel_base
echo "config:21" >"$T/sys/bus/event_source/devices/cpu/format/any"

tree bdx-2s
readme "2-socket Intel Xeon E5-2699 v4 (Broadwell-EP, family 6 model 79 = 0x4F, stepping 1; perfmon's mapfile GenuineIntel-6-4F: BDX)," \
	"bare metal: 2 x 22 cores x SMT 2 = 88 CPUs. NMI watchdog on. libpfm4: bdw_ep; CPUID names it bdx (intel-bdx.td, generated from" \
	"perfmon's BDX files, raw encodings). cpu PMU as Linux 6.12.117 arch/x86/events/intel/core.c gives INTEL_BROADWELL_X (:6943-6979):" \
	"no PERF_METRICS; intel_arch3_formats_attr (:5309-5318), any = config:21 (:4806); with RTM hsw_format_attr (:5320-5326):" \
	"in_tx config:32, in_tx_cp config:33 (:4809-4810), offcore_rsp config1:0-63, ldlat config1:0-15 (:5301, :5303); no frontend."
x86 "Intel(R) Xeon(R) CPU E5-2699 v4 @ 2.20GHz" GenuineIntel 6 79 1 0; cpus 2 22 2; kernel 6.1.0-13-amd64 2 1
mounts "$cgroup_rw"
pmu cpu 4 cpu-cycles=event=0x3c instructions=event=0xc0
f="$T/sys/bus/event_source/devices/cpu/format"; echo "config:21" >"$f/any"; echo "config:32" >"$f/in_tx"
echo "config:33" >"$f/in_tx_cp"; echo "config1:0-63" >"$f/offcore_rsp"; echo "config1:0-15" >"$f/ldlat"

tree icx-2s
readme "2-socket Intel Xeon Platinum 8380 (Ice Lake-SP, family 6 model 106 = 0x6A), bare metal: 2 x 40 cores x SMT 2 = 160 CPUs. NMI watchdog on." \
	"CPUID names it icx (intel-icx.td, generated from perfmon's ICX files, raw encodings), libpfm4 4.13 too (its icx model)." \
	"cpu PMU as Linux 6.12.117 arch/x86/events/intel/core.c gives INTEL_ICELAKE_X (:7062-7104): icl_events_attrs, icl_td_events_attrs" \
	"(slots, topdown-{retiring,bad-spec,fe-bound,be-bound}: num_topdown_events 4, :7097), offcore_rsp, ldlat, frontend formats."
x86 "Intel(R) Xeon(R) Platinum 8380 CPU @ 2.30GHz" GenuineIntel 6 106 6 0; cpus 2 40 2; kernel 6.1.0-13-amd64 2 1
mounts "$cgroup_rw"
intelpmu cpu 4 $intel_base $intel_td4

tree emr-vm
readme "Intel Xeon Platinum 8592+ (Emerald Rapids, family 6 model 207 = 0xCF) cloud VM under KVM with a virtual PMU, 8 vCPUs (4 cores x SMT 2)." \
	"libpfm4 4.13 has no Emerald Rapids model (TD_PFM_MODEL=none): CPUID names it emr (intel-emr.td, generated from perfmon, raw encodings)."
x86 "Intel(R) Xeon(R) Platinum 8592+" GenuineIntel 6 207 2 1; hypervisor KVMKVMKVM; cpus 1 4 2; kernel 6.8.0-amd64 2 0
mounts "$cgroup_rw"
intelpmu cpu 4 $intel_base $intel_td8

tree epyc-2s-256
readme "2-socket AMD EPYC 9554 (Zen 4 Genoa, family 25 model 17) server, bare metal: 2 x 64 cores x SMT 2 = 256 CPUs." \
	"NMI watchdog on (it takes a general-purpose counter). libpfm4: amd64_fam19h_zen4."
x86 "AMD EPYC 9554 64-Core Processor" AuthenticAMD 25 17 1 0; cpus 2 64 2; kernel 6.1.0-13-amd64 2 1; mounts "$cgroup_rw"
amdpmu cpu 4 cpu-cycles=event=0x76 instructions=event=0xc0

tree container-ro-cgroup
readme "A container on the Zen 4 VM: /sys/fs/cgroup mounted read-only (Docker's default), no BTF visible," \
	"perf_event_paranoid 2; no PMU. libpfm4: amd64_fam19h_zen4."
x86 "AMD EPYC" AuthenticAMD 25 17 1 1; hypervisor KVMKVMKVM; cpus 1 2 1; kernel 6.18.44 2 0
rm -r "$T/sys/kernel/btf"
mounts "cgroup /sys/fs/cgroup cgroup2 ro,nosuid,nodev,noexec,relatime 0 0"

tree spr-2s-512-smt4
readme "A topology fixture: 2 sockets x 64 cores x 4 threads = 512 CPUs, on Sapphire Rapids identity (family 6 model 143)." \
	"No shipping Intel part has SMT-4; the tree checks that nothing assumes SMT-2, 64 cores or 256 CPUs. libpfm4: spr."
x86 "Intel(R) Xeon(R) topology fixture" GenuineIntel 6 143 8 0; cpus 2 64 4; kernel 6.1.0-13-amd64 2 0; mounts "$cgroup_rw"
intelpmu cpu 4 $intel_base slots=event=0x00,umask=0x4
tree adl-hybrid
readme "Intel Core i9-12900K (Alder Lake-S, family 6 model 151 = 0x97, stepping 2) desktop, bare metal: a hybrid CPU" \
	"with 8 P-cores x SMT 2 (CPUs 0-15, kernel PMU cpu_core, type 4 = PERF_TYPE_RAW) and 8 E-cores (CPUs 16-23," \
	"kernel PMU cpu_atom, a dynamic type: 10 here). Each PMU's cpus file lists its CPUs, as Linux's" \
	"arch/x86/events/intel/core.c exposes them. core_id: P-core N's two threads share N, E-cores 8-15." \
	"libpfm4 4.13 has no Alder Lake tables (TD_PFM_MODEL=none): CPUID names cpu_core adl_glc (intel-adl-glc.td)" \
	"and cpu_atom adl_grt (intel-adl-grt.td)."
x86 "12th Gen Intel(R) Core(TM) i9-12900K" GenuineIntel 6 151 2 0; kernel 6.1.0-13-amd64 2 1; mounts "$cgroup_rw"
echo "0-23" >"$T/sys/devices/system/cpu/online"; echo 1 >"$T/sys/devices/system/cpu/smt/active"
i=0; while [ $i -lt 24 ]; do d="$T/sys/devices/system/cpu/cpu$i/topology"; mkdir -p "$d"; echo 0 >"$d/physical_package_id"
	if [ $i -lt 16 ]; then echo $((i / 2)) >"$d/core_id"; else echo $((i - 8)) >"$d/core_id"; fi; i=$((i + 1)); done
intelpmu cpu_core 4 $intel_base $intel_td8
echo "0-15" >"$T/sys/bus/event_source/devices/cpu_core/cpus"
pmu cpu_atom 10 cpu-cycles=event=0x3c instructions=event=0xc0
echo "16-23" >"$T/sys/bus/event_source/devices/cpu_atom/cpus"

tree mtl-hybrid
readme "Intel Core Ultra 7 155H (Meteor Lake-H, family 6 model 170 = 0xAA, stepping 4) laptop, bare metal: a hybrid CPU" \
	"with 6 P-cores x SMT 2 (CPUs 0-11, Redwood Cove, kernel PMU cpu_core, type 4 = PERF_TYPE_RAW), 8 E-cores and 2" \
	"low-power E-cores (CPUs 12-21, Crestmont, kernel PMU cpu_atom, a dynamic type: 10 here), as Linux 6.12.117" \
	"arch/x86/events/intel/core.c:7199-7227 (INTEL_METEORLAKE: hybrid_big_small) exposes them. perfmon's mapfile: core" \
	"type 0x40 Redwood Cove, 0x20 Crestmont. libpfm4 4.13 has no Meteor Lake tables (TD_PFM_MODEL=none): CPUID names" \
	"cpu_core mtl_rwc (intel-mtl-rwc.td) and cpu_atom mtl_cmt (intel-mtl-cmt.td)."
x86 "Intel(R) Core(TM) Ultra 7 155H" GenuineIntel 6 170 4 0; kernel 6.12.0-amd64 2 1; mounts "$cgroup_rw"
echo "0-21" >"$T/sys/devices/system/cpu/online"; echo 1 >"$T/sys/devices/system/cpu/smt/active"
i=0; while [ $i -lt 22 ]; do d="$T/sys/devices/system/cpu/cpu$i/topology"; mkdir -p "$d"; echo 0 >"$d/physical_package_id"
	if [ $i -lt 12 ]; then echo $((i / 2)) >"$d/core_id"; else echo $((i - 6)) >"$d/core_id"; fi; i=$((i + 1)); done
intelpmu cpu_core 4 $intel_base $intel_td8
echo "0-11" >"$T/sys/bus/event_source/devices/cpu_core/cpus"
# cpu_atom's formats (intel/core.c:6156-6193, FORMAT_ATTR_HYBRID): offcore_rsp, ldlat, snoop_rsp; no frontend
intelpmu cpu_atom 10 $intel_base
f="$T/sys/bus/event_source/devices/cpu_atom/format"; rm "$f/frontend"; echo "config1:0-63" >"$f/snoop_rsp"
echo "12-21" >"$T/sys/bus/event_source/devices/cpu_atom/cpus"

# SMT-off twins of skl-bare, icl-perfmetrics and spr-vm (issue 30): the same
# machines with SMT disabled (smt/active 0, one thread per core). On Skylake
# the cpu PMU then has 8 general-purpose counters per thread instead of 4
# (CPUID leaf 0xA; Intel SDM vol. 3B 20.2); Ice Lake and Sapphire Rapids have
# 8 either way. The emulated PMU (tests/tools/pmu_sim.c) reads these trees.
tree skl-bare-smtoff
readme "Intel Core i7-6700K (Skylake, family 6 model 94) desktop, bare metal, SMT disabled: 4 cores, 4 CPUs," \
	"8 general-purpose counters per thread. NMI watchdog on (it holds fixed counter 1), perf_event_paranoid 2. libpfm4: skl."
x86 "Intel(R) Core(TM) i7-6700K CPU @ 4.00GHz" GenuineIntel 6 94 3 0; cpus 1 4 1; kernel 6.1.0-13-amd64 2 1
mounts "$cgroup_rw"; intelpmu cpu 4 $intel_base

tree icl-perfmetrics-smtoff
readme "Intel Core i7-1065G7 (Ice Lake client, family 6 model 126) laptop, bare metal, SMT disabled: 4 cores, 4 CPUs," \
	"PERF_METRICS: the kernel's cpu PMU has slots and topdown-* events. NMI watchdog on. libpfm4: icl."
x86 "Intel(R) Core(TM) i7-1065G7 CPU @ 1.30GHz" GenuineIntel 6 126 5 0; cpus 1 4 1; kernel 6.1.0-13-amd64 2 1
mounts "$cgroup_rw"
intelpmu cpu 4 $intel_base $intel_td4

tree spr-vm-smtoff
readme "Intel Xeon Platinum 8488C (Sapphire Rapids, family 6 model 143) VM with a virtual PMU, SMT off:" \
	"8 vCPUs (8 cores, one thread each), PERF_METRICS with the level-2 topdown events. libpfm4: spr."
x86 "Intel(R) Xeon(R) Platinum 8488C" GenuineIntel 6 143 8 1; hypervisor KVMKVMKVM; cpus 1 8 1; kernel 6.1.0-13-amd64 2 0
mounts "$cgroup_rw"
intelpmu cpu 4 $intel_base $intel_td8

echo "made: $(ls -d */ | tr -d / | tr '\n' ' ')"
