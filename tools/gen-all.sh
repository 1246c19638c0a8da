#!/bin/sh
# tools/gen-all.sh PERFMON [COMMIT] — (PERFMON51_EMR=DIR PERFMON51_ICX=DIR for tma-5.1/) regenerates events/generated/*.td from an intel/perfmon
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
g --model CLX --pmu clx --title "Intel Cascade Lake" --class skl -o "$O/intel-clx.td"
g --model BDX --pmu bdx --title "Intel Broadwell-X" --class bdw -o "$O/intel-bdx.td"
g --model ICL --pmu icl --title "Intel Ice Lake" --class icl -o "$O/intel-icl.td"
g --model ICX --pmu icx --title "Intel Ice Lake-SP" --class icl -o "$O/intel-icx.td"
g --model TGL --pmu tgl --title "Intel Tiger Lake" --class icl -o "$O/intel-tgl.td"
g --model SPR --metrics sapphirerapids_metrics.json --pmu spr --title "Intel Sapphire Rapids" --class glc -o "$O/intel-spr.td"
g --model EMR --pmu emr --title "Intel Emerald Rapids" --class glc -o "$O/intel-emr.td"
g --model GNR --pmu gnr --title "Intel Granite Rapids" --class glc -o "$O/intel-gnr.td"
# served (events/intel-srf.td: CPUID family 6 model 0xAF), checked by fixture oracle-srf-l3.fix
g --model SRF --pmu srf --title "Intel Sierra Forest" --class cmt -o "$D/../events/intel-srf.td"
# TMA 5.1 versions (the version of toplev 5.1-full, pmu-tools' model for the oracle cases): perfmon
# fb93def (2025-09-24) has EMR's emeraldrapids_metrics.json V1.2 TMA 5.1, c07091a (2025-07-01)
# ICX's icelakex_metrics.json V1.1 TMA 5.1. Give a second checkout at those commits as PERFMON51.
if [ -n "${PERFMON51_EMR:-}" ] && [ -n "${PERFMON51_ICX:-}" ]; then
	mkdir -p "$O/tma-5.1"
	python3 "$D/gen-td.py" --perfmon "$PERFMON51_EMR" --commit fb93def --model EMR --pmu emr \
		--title "Intel Emerald Rapids (TMA 5.1)" --class glc -o "$O/tma-5.1/intel-emr.td"
	python3 "$D/gen-td.py" --perfmon "$PERFMON51_ICX" --commit c07091a --model ICX --pmu icx \
		--title "Intel Ice Lake-SP (TMA 5.1)" --class icl -o "$O/tma-5.1/intel-icx.td"
fi
