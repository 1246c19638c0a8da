#!/bin/sh
# tdctl doctor: names this CPU (vendor, family, model, microarchitecture as
# derived here independently from /proc/cpuinfo) and, on a machine whose
# kernel exposes no core PMU, says in one line that only software metrics
# can be collected and why; BPF is reported as what it is (available or not),
# and thread discovery as what a session gets here: the BPF tracker where it
# was built and loads (root, BTF), the /proc rescan with the reason otherwise.
. "$(dirname "$0")/lib.sh"

# doctor and the paranoid level it is compared with, read while no test changes it
with_sysctl_lock sh -c '"$1" doctor >"$2"; echo $? >"$3"; cat /proc/sys/kernel/perf_event_paranoid >"$4"' sh \
	"$TDCTL" "$WORK/doctor.txt" "$WORK/doctor.rc" "$WORK/paranoid"
out=$(cat "$WORK/doctor.txt")
check_eq "doctor exits 0" 0 "$(cat "$WORK/doctor.rc")"
field() { awk -F': ' -v k="$1" '$1 ~ "^"k"[ \t]*$" { print $2; exit }' /proc/cpuinfo; }
vendor=$(field vendor_id)
family=$(field "cpu family")
model=$(field model)
name=$(field "model name")
# the name is text, not a pattern: "Intel(R) Xeon(R)" has ERE groups
ere() { printf '%s' "$1" | sed 's/[][\\.*^$+?(){}|]/\\&/g'; }
if [ -n "$name" ]; then check_match "names the CPU model" "^CPU: +$(ere "$name")\$" "$out"
else skip "names the CPU model" "/proc/cpuinfo has no 'model name' here"; fi
if [ -n "$vendor" ]; then
	check_match "names vendor, family and model" "vendor: +$vendor, family $family \(.*\), model $model " "$out"
else
	skip "names vendor, family and model" "/proc/cpuinfo has no vendor_id here (Arm)"
fi
# microarchitecture, derived here from AMD's and Intel's family/model numbers
uarch=
case "$vendor:$family" in
AuthenticAMD:25)
	if [ "$model" -lt 16 ] || { [ "$model" -ge 32 ] && [ "$model" -lt 96 ]; }; then uarch="Zen 3"; else uarch="Zen 4"; fi ;;
AuthenticAMD:26) # Linux bsp_init_amd: Zen 5 = models 0x00-0x2f, 0x40-0x4f, 0x60-0x7f; Zen 6 = 0x50-0x5f, 0x80-0xaf, 0xc0-0xcf
	if [ "$model" -le 47 ] || { [ "$model" -ge 64 ] && [ "$model" -le 79 ]; } || { [ "$model" -ge 96 ] && [ "$model" -le 127 ]; }; then
		uarch="Zen 5"
	elif { [ "$model" -ge 80 ] && [ "$model" -le 95 ]; } || { [ "$model" -ge 128 ] && [ "$model" -le 175 ]; } ||
		{ [ "$model" -ge 192 ] && [ "$model" -le 207 ]; }; then
		uarch="Zen 6"
	fi ;;
GenuineIntel:6)
	# Linux arch/x86/include/asm/intel-family.h: SAPPHIRERAPIDS_X 0x8F, EMERALDRAPIDS_X 0xCF, GRANITERAPIDS_X 0xAD, _D 0xAE
	case "$model" in 78 | 94) uarch=Skylake ;; 143) uarch="Sapphire Rapids" ;; 207) uarch="Emerald Rapids" ;;
	173 | 174) uarch="Granite Rapids" ;; 125 | 126) uarch="Ice Lake" ;; esac ;;
esac
if [ -n "$uarch" ]; then check_match "names the microarchitecture" "microarch: +$uarch\$" "$out"
else skip "names the microarchitecture" "this test knows no name for $vendor family $family model $model (the fixture hosts cover the table)"; fi

if [ ! -e /sys/bus/event_source/devices/cpu ] && ! ls -d /sys/bus/event_source/devices/armv8* >/dev/null 2>&1; then
	check_match "rung is software-only without a core PMU" "^rung: +software-only\$" "$out"
	if grep -qw hypervisor /proc/cpuinfo; then
		check_match "one line says the VM exposes no PMU and only software metrics" \
			"why: +hardware counters are unavailable because this VM \(.*\) exposes no PMU to the guest: only software metrics" "$out"
	fi
	check_match "core PMU reported missing" "core PMU: +none" "$out"
else
	check_match "rung is not software-only with a core PMU" "^rung: +(ipc-only|partial-tree|full-tree)\$" "$out"
fi
# which path named the PMU model: libpfm4's, or (a Zen 5 this libpfm4 does not know) CPUID's
if printf '%s\n' "$out" | grep -q '^libpfm4 model: *none'; then
	if [ "$uarch" = "Zen 5" ]; then
		check_match "a Zen 5 libpfm4 does not know is named by CPUID, raw encodings said" \
			"PMU model: +amd64_fam1ah_zen5, from CPUID \\(AuthenticAMD family 0x1a model $(printf '%#x' "$model")\\): events files for it use raw encodings" "$out"
		check_match "and amd-zen5.td serves it" "^events file: +amd-zen5.td\$" "$out"
	elif [ "$uarch" = "Emerald Rapids" ]; then
		# perfmon's EMR files, generated (tools/gen-td.py, TMA 5.1): intel-emr.td, raw encodings
		check_match "an Emerald Rapids libpfm4 does not know is named by CPUID as emr" \
			"PMU model: +emr, from CPUID \\(GenuineIntel family 0x6 model 0xcf\\): events files for it use raw encodings" "$out"
		check_match "and intel-emr.td serves it" "^events file: +intel-emr.td\$" "$out"
	elif [ "$uarch" = "Granite Rapids" ]; then
		check_match "a Granite Rapids libpfm4 does not know is named by CPUID as gnr" \
			"PMU model: +gnr, from CPUID \\(GenuineIntel family 0x6 model $(printf '%#x' "$model")\\): " "$out"
		check_match "and intel-gnr.td serves it" "^events file: +intel-gnr.td\$" "$out"
	else
		check_match "no libpfm4 model and no CPUID model: none" "PMU model: +none " "$out"
	fi
else
	check_match "a libpfm4 model is said to come from libpfm4" "PMU model: +[a-z0-9_]+, from libpfm4\$" "$out"
fi
check_match "paranoid level reported" "perf_event_paranoid: $(cat "$WORK/paranoid")\$" "$out"

json=$("$TDCTL" doctor --json)
check_eq "doctor --json exits 0" 0 "$?"
printf '%s' "$json" >"$WORK/doctor.json"
check_eq "doctor --json is valid JSON" 1 "$(sql :memory: "select json_valid(readfile('$WORK/doctor.json'))")"
check_eq "JSON carries the family" "$family" "$(sql :memory: "select json_extract(readfile('$WORK/doctor.json'), '\$.cpu.family')")"
check_eq "JSON rung agrees with the text" "$(printf '%s\n' "$out" | awk '/^rung:/ { print $2 }')" \
	"$(sql :memory: "select json_extract(readfile('$WORK/doctor.json'), '\$.rung')")"
# BPF: availability from BTF and privileges; no BPF tracker is claimed
if [ -r /sys/kernel/btf/vmlinux ] && [ "$(id -u)" = 0 ]; then bpf="available (BTF present)"
elif [ ! -e /sys/kernel/btf/vmlinux ]; then bpf="not available (BTF missing)"
else bpf=; fi
if [ -n "$bpf" ]; then check_match "BPF line says whether BPF is available and why" "^BPF: +$(printf '%s' "$bpf" | sed 's/[()]/\\&/g')\$" "$out"
else skip "BPF line says whether BPF is available and why" "not root and BTF present: availability depends on capabilities"; fi
# thread discovery: BPF where this build has the skeleton and BPF loads (root
# and BTF: tp_btf programs load on the kernels we run on), else /proc, saying why
if [ -f "$TD_BUILDDIR/src/collect/collect.skel.h" ] && [ -r /sys/kernel/btf/vmlinux ] && [ "$(id -u)" = 0 ]; then
	method=bpf
	check_match "thread discovery: the BPF tracker, its programs loaded" \
		"^thread discovery: BPF tracker \\((tp_btf|raw_tp) programs load; --tracker=proc rescans /proc instead\\)\$" "$out"
else
	method=proc-rescan
	check_match "thread discovery: the /proc rescan, and why not BPF" \
		"^thread discovery: /proc rescan every 20 ms \\(BPF tracker not used: .+\\)\$" "$out"
fi
if command -v setpriv >/dev/null && [ "$(id -u)" = 0 ]; then
	check_match "as an unprivileged user: the /proc rescan, because BPF needs privileges" \
		"^thread discovery: /proc rescan every 20 ms \\(BPF tracker not used: .*(root|CAP_BPF|BTF).*\\)\$" \
		"$(setpriv --reuid=65534 --regid=65534 --clear-groups "$TDCTL" doctor 2>&1 | grep '^thread discovery')"
else
	skip "as an unprivileged user: the /proc rescan" "needs root and setpriv to switch users"
fi
check_match "on a recorded host (TD_SYSROOT) BPF is not tried on this kernel" \
	"^thread discovery: /proc rescan every 20 ms \\(BPF tracker not used: .+\\)\$" \
	"$(TD_SYSROOT="$TD_SRCDIR/tests/data/hosts/$(ls "$TD_SRCDIR/tests/data/hosts" | head -1)" "$TDCTL" doctor 2>&1 | grep '^thread discovery')"
check_eq "JSON: BPF availability agrees with the text" \
	"$(printf '%s\n' "$out" | grep -q '^BPF: *available' && echo 1 || echo 0)" \
	"$(sql :memory: "select json_extract(readfile('$WORK/doctor.json'), '\$.bpf.available')")"
check_eq "JSON: thread discovery method and period" "$method|20" \
	"$(sql :memory: "select json_extract(readfile('$WORK/doctor.json'), '\$.thread_discovery.method')||'|'||
	                 json_extract(readfile('$WORK/doctor.json'), '\$.thread_discovery.period_ms')")"
check_eq "JSON: no tracker_possible key" "" \
	"$(sql :memory: "select json_extract(readfile('$WORK/doctor.json'), '\$.bpf.tracker_possible')")"
"$TDCTL" doctor --bogus 2>"$WORK/err"
check_eq "bad option exits 2" 2 "$?"
finish
