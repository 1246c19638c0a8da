#!/bin/sh
# tools/gen-all.sh PERFMON [COMMIT] — regenerates events/generated/*.td from an intel/perfmon
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
g --model SRF --pmu srf --title "Intel Sierra Forest" --class cmt -o "$O/intel-srf.td"
