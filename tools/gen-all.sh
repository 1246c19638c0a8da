#!/bin/sh
# tools/gen-all.sh PERFMON [COMMIT] — (PERFMON51_EMR=DIR PERFMON51_ICX=DIR for tma-5.1/, KERNEL=DIR for AMD/Arm, PMU_TOOLS=DIR for MTL) regenerates events/generated/*.td from an intel/perfmon
# checkout (or `git archive` of it) with tools/gen-td.py; each file's .untranslated list says
# what the generator could not translate. Maintainer's script: not run at build or test time.
set -e
P=${1:?usage: tools/gen-all.sh PERFMON [COMMIT]}
C=${2:+--commit $2}
D=$(dirname "$0")
O=$D/../events/generated
mkdir -p "$O"
g() { python3 "$D/gen-td.py" --perfmon "$P" $C "$@"; }
g --model SKL --pmu skl --title "Intel Skylake" --class skl -o "$O/intel-skl.td"
g --model SKX --pmu skx --title "Intel Skylake-SP" --class skl -o "$O/intel-skx.td"
# served (events/intel-skx.td: family 6 model 0x55 steppings 0-4, libpfm4's skx), fixture oracle-skx-l6.fix
g --model SKX --pmu skx --title "Intel Skylake-SP" --class skl -o "$D/../events/intel-skx.td"
g --model CLX --pmu clx --title "Intel Cascade Lake" --class skl -o "$O/intel-clx.td"
# served (events/intel-clx.td: family 6 model 0x55 steppings 5 and up, libpfm4's clx), fixture oracle-clx-l6.fix
g --model CLX --pmu clx --title "Intel Cascade Lake" --class skl -o "$D/../events/intel-clx.td"
g --model BDX --pmu bdx --title "Intel Broadwell-X" --class bdw -o "$O/intel-bdx.td"
# served (events/intel-bdx.td: family 6 models 0x4F, 0x56 by CPUID as toplev; libpfm4's bdw_ep), fixture oracle-bdx-l6.fix
g --model BDX --pmu bdx bdw_ep --title "Intel Broadwell-X" --class bdw -o "$D/../events/intel-bdx.td"
g --model ICL --pmu icl --title "Intel Ice Lake" --class icl -o "$O/intel-icl.td"
g --model ICX --pmu icx --title "Intel Ice Lake-SP" --class icl -o "$O/intel-icx.td"
g --model TGL --pmu tgl --title "Intel Tiger Lake" --class icl -o "$O/intel-tgl.td"
# served (events/intel-tgl.td: family 6 models 0x8C, 0x8D by CPUID), fixture oracle-tgl-l6.fix
g --model TGL --pmu tgl --title "Intel Tiger Lake" --class icl -o "$D/../events/intel-tgl.td"
g --model SPR --metrics sapphirerapids_metrics.json --pmu spr --title "Intel Sapphire Rapids" --class glc -o "$O/intel-spr.td"
g --model EMR --pmu emr --title "Intel Emerald Rapids" --class glc -o "$O/intel-emr.td"
g --model GNR --pmu gnr --title "Intel Granite Rapids" --class glc -o "$O/intel-gnr.td"
# served (events/intel-srf.td: CPUID family 6 model 0xAF), checked by fixture oracle-srf-l3.fix
g --model SRF --pmu srf --title "Intel Sierra Forest" --class cmt -o "$D/../events/intel-srf.td"
# Meteor Lake's P-core (Redwood Cove, cpu_core PMU): perfmon has no retire-latency file for MTL;
# pmu-tools' mtl-retlat.json (same format) gives the means (PMU_TOOLS: a pmu-tools checkout)
if [ -n "${PMU_TOOLS:-}" ]; then
	g --model MTL --metrics meteorlake_metrics_redwoodcove_core.json --events meteorlake_redwoodcove_core.json \
		--retire-latency "$PMU_TOOLS/mtl-retlat.json" --pmu-name cpu_core --pmu mtl_rwc \
		--title "Intel Meteor Lake P-core (Redwood Cove)" --class glc -o "$O/intel-mtl-rwc.td"
	# served (events/intel-mtl-rwc.td: CPUID family 6 models 0xAA, 0xAC, cpu_core), fixture oracle-mtl-l6.fix
	g --model MTL --metrics meteorlake_metrics_redwoodcove_core.json --events meteorlake_redwoodcove_core.json \
		--retire-latency "$PMU_TOOLS/mtl-retlat.json" --pmu-name cpu_core --pmu mtl_rwc \
		--title "Intel Meteor Lake P-core (Redwood Cove)" --class glc -o "$D/../events/intel-mtl-rwc.td"
fi
# Meteor Lake's E-cores (Crestmont, cpu_atom; served, fixture oracle-mtl-cmt-l3.fix): perfmon has no MTL metrics
# for this core type (mapfile: core type 0x20 has events only); SRF's Crestmont TMA, MTL's Crestmont events
g --model MTL --metrics-model SRF --events meteorlake_crestmont_core.json --pmu-name cpu_atom --pmu mtl_cmt \
	--title "Intel Meteor Lake E-core (Crestmont)" --class cmt -o "$D/../events/intel-mtl-cmt.td"
# TMA 5.1 versions (the version of toplev 5.1-full, pmu-tools' model for the oracle cases): perfmon
# fb93def (2025-09-24) has EMR's emeraldrapids_metrics.json V1.2 TMA 5.1, c07091a (2025-07-01)
# ICX's icelakex_metrics.json V1.1 TMA 5.1. Give a second checkout at those commits as PERFMON51.
if [ -n "${PERFMON51_EMR:-}" ] && [ -n "${PERFMON51_ICX:-}" ]; then
	mkdir -p "$O/tma-5.1"
	python3 "$D/gen-td.py" --perfmon "$PERFMON51_EMR" --commit fb93def --model EMR --pmu emr \
		--title "Intel Emerald Rapids (TMA 5.1)" --class glc -o "$O/tma-5.1/intel-emr.td"
	# served (events/intel-emr.td: CPUID family 6 model 0xCF), TMA 5.1: the version toplev 5.1 checks
	# (fixtures oracle-emr-l6.fix, emr-tma51-amx-mba-fp512.fix)
	python3 "$D/gen-td.py" --perfmon "$PERFMON51_EMR" --commit fb93def --model EMR --pmu emr \
		--title "Intel Emerald Rapids (TMA 5.1)" --class glc -o "$D/../events/intel-emr.td"
	python3 "$D/gen-td.py" --perfmon "$PERFMON51_ICX" --commit c07091a --model ICX --pmu icx \
		--title "Intel Ice Lake-SP (TMA 5.1)" --class icl -o "$O/tma-5.1/intel-icx.td"
	# served (events/intel-icx.td: CPUID family 6 models 0x6A, 0x6C; libpfm4's icx), fixture oracle-icx-l6.fix
	python3 "$D/gen-td.py" --perfmon "$PERFMON51_ICX" --commit c07091a --model ICX --pmu icx \
		--title "Intel Ice Lake-SP (TMA 5.1)" --class icl -o "$D/../events/intel-icx.td"
fi
# AMD and Arm from Linux perf's pmu-events (KERNEL: an extracted kernel source tree; Debian's
# linux-source-6.12 6.12.117-1~deb12u1 for the committed files)
if [ -n "${KERNEL:-}" ]; then
	A=$KERNEL/tools/perf/pmu-events/arch
	S="Linux 6.12.117, Debian linux-source-6.12 6.12.117-1~deb12u1"
	gp() { python3 "$D/gen-td-perf.py" --arch "$A" --source "$S" "$@"; }
	gp --dir x86/amdzen2 --pmu amd64_fam17h_zen2 --title "AMD Zen 2" -o "$O/amd-zen2.td"
	gp --dir x86/amdzen4 --pmu amd64_fam19h_zen4 --title "AMD Zen 4" -o "$O/amd-zen4.td"
	gp --dir x86/amdzen5 --pmu amd64_fam1ah_zen5 --title "AMD Zen 5" -o "$O/amd-zen5.td"
	# served (events/arm-neoverse-n1.td, -v1.td: MIDR parts 0xd0c, 0xd40), with perf's other metrics as info
	# metrics; N1: perf names no sbsa.json TopdownL1 metric for it, level 1 is its Cycle_Accounting pair.
	# Oracle fixtures arm-n1-perf-oracle.fix, arm-v1-perf-oracle.fix: tools/perf-metric-oracle.py --seed 2, 1
	gp --dir arm/neoverse-n1 --slots 4 --cycle-accounting --info --thresholds "Frontend_Bound>0.15,Backend_Bound>0.20" --append "$D/arm-neoverse.append" --pmu arm_n1 --title "Arm Neoverse N1" -o "$D/../events/arm-neoverse-n1.td"
	gp --dir arm/neoverse-v1 --slots 8 --info --thresholds "Frontend_Bound>0.15,Bad_Speculation>0.15,Backend_Bound>0.20,Retiring>0.70" --append "$D/arm-neoverse.append" --pmu arm_v1 --title "Arm Neoverse V1" -o "$D/../events/arm-neoverse-v1.td"
fi
