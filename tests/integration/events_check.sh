#!/bin/sh
# tdctl events --check: every event of a model's file against libpfm4 4.13's encoding of it.
# On the files of every model libpfm4 knows (skl, icl, spr, zen3, zen4) no event mismatches and
# every event has one line; the four SPR events libpfm4 4.13 encodes wrongly (intel-spr.td's
# libpfm4-differs lines, against Intel perfmon's SPR table) are reported as known. A file with a
# deliberately wrong raw encoding reports the MISMATCH with both configs and exits 1. Expected
# configs are Intel's published codes (event | umask << 8), not the program's output.
. "$(dirname "$0")/lib.sh"

EV="$TD_SRCDIR/events"
out="$WORK/out"
err="$WORK/err"

# shipped: MODEL FILE EVENTS — --check exits 0, "0 mismatches", one line per event of the file
shipped() {
	"$TDCTL" events --pmu "$1" --check >"$out" 2>"$err"; rc=$?
	check_eq "$1: --check exits 0" 0 "$rc"
	check_eq "$1: nothing on stderr" "" "$(cat "$err")"
	check_grep "$1: no mismatch" " 0 mismatches," "$out"
	check_eq "$1: one line per event of $2 ($3)" "$3" \
		"$(grep -cE '^  [A-Za-z0-9_]+ +(ok|known|unknown|MISMATCH|cannot encode) ' "$out")"
	check_eq "$1: $2 has $3 events" "$3" "$(grep -c '^event ' "$EV/$2")"
	cp "$out" "$WORK/$1.check"
}
shipped skl intel-skl.td 112
shipped icl intel-icl.td 122
shipped spr intel-spr.td 150
shipped amd64_fam19h_zen3 amd-zen3.td 8
shipped amd64_fam19h_zen4 amd-zen4.td 13
check_grep "skl: a libpfm4-string event is libpfm4's own (IDQ_UOPS_NOT_DELIVERED:CORE = 0x19c)" \
	"FE_NOT               ok             IDQ_UOPS_NOT_DELIVERED:CORE is a libpfm4 event: config=0x19c is libpfm4's" \
	"$WORK/skl.check"
check_grep "skl: a raw event libpfm4 lacks is unknown, with its source" \
	"NOP_INST             unknown        raw cpu/event=0xc0,umask=0x2/ (config=0x2c0): libpfm4 has no skl::INST_RETIRED:NOP; source: INST_RETIRED.NOP" \
	"$WORK/skl.check"
# perfmon SPR V1.39: TOPDOWN.BACKEND_BOUND_SLOTS 0xA4/0x02 -> 0x2a4; libpfm4 4.13 gives umask 0x02, event 0x00
check_grep "spr: TOPDOWN.BACKEND_BOUND_SLOTS differs from libpfm4, as the file says" \
	"BE_SLOTS             known          ours cpu/event=0xa4,umask=0x2/ config=0x2a4, libpfm4 spr::TOPDOWN:BACKEND_BOUND_SLOTS config=0x200: the file says why" \
	"$WORK/spr.check"
check_grep "spr: 9 known, 13 events unknown to libpfm4 (12 raw, msr/tsc)" "0 mismatches, 9 known to differ (libpfm4-differs), 13 unknown to libpfm4" \
	"$WORK/spr.check"
# perfmon SPR V1.39: UOPS_RETIRED.MS is 0xC2/0x04 with MSR 0x3F7 = 0x8; libpfm4 4.13 has 0xC2/0x08, no MSR
check_grep "spr: UOPS_RETIRED.MS with frontend=0x8 is known to differ from libpfm4, both config1 shown" \
	"MS_UOPS_RET          known          ours cpu/event=0xc2,umask=0x4,frontend=0x8/ config=0x4c2 config1=0x8, libpfm4 spr::UOPS_RETIRED:MS config=0x8c2 config1=0x0" \
	"$WORK/spr.check"
# perfmon SPR V1.39: OCR.DEMAND_DATA_RD.L3_HIT.SNOOP_HITM is 0x2A/0x01 with MSR 0x1A6 = 0x10003C0001; libpfm4
# 4.13 spells it OCR:DEMAND_DATA_RD_L3_HIT_SNOOP_HITM and puts the MSR value in config1 too
check_grep "spr: TMA 5.2's EXE.AMX_BUSY (perfmon 0xB7/0x02, no MSR) is known to differ from libpfm4's (config1 0x2)" \
	"AMX_BUSY             known          ours cpu/event=0xb7,umask=0x2/ config=0x2b7 config1=0x0, libpfm4 spr::EXE:AMX_BUSY config=0x2b7 config1=0x2" "$WORK/spr.check"
check_grep "spr: INT_MISC.MBA_STALLS (perfmon 0xAD/0x20) is libpfm4's" \
	"MBA_STALLS           ok             INT_MISC:MBA_STALLS is a libpfm4 event: config=0x20ad is libpfm4's" "$WORK/spr.check"
check_grep "spr: an OCR raw form's offcore_rsp (config1) equals libpfm4's" \
	"OCR_DRD_HITM         ok             raw cpu/event=0x2a,umask=0x1,offcore_rsp=0x10003c0001/ config=0x12a config1=0x10003c0001 = libpfm4 spr::OCR:DEMAND_DATA_RD_L3_HIT_SNOOP_HITM" \
	"$WORK/spr.check"
# TMA's False_Sharing overrides the MSR value (0x103B800002) of OCR.DEMAND_RFO.L3_MISS (table: 0x3F3FC00002)
check_grep "spr: an OCR event with TMA's own MSR value is known to differ, both config1 shown" \
	"OCR_RFO_RHITM        known          ours cpu/event=0x2a,umask=0x1,offcore_rsp=0x103b800002/ config=0x12a config1=0x103b800002, libpfm4 spr::OCR:DEMAND_RFO_L3_MISS config=0x12a config1=0x3f3fc00002" \
	"$WORK/spr.check"
# perfmon ICL V1.24: OCR.STREAMING_WR.ANY_RESPONSE is 0xB7/0x01 with MSR 0x1A6 = 0x10800, as libpfm4's
# OCR:STREAMING_WR_ANY_RESPONSE; ARITH.FP_DIVIDER_ACTIVE (0x14/0x01 c=1) is not in libpfm4 4.13's icl table
check_grep "icl: an OCR raw form equals libpfm4's, config1 included" \
	"OCR_STREAM_WR        ok             raw cpu/event=0xb7,umask=0x1,offcore_rsp=0x10800/ config=0x1b7 config1=0x10800 = libpfm4 icl::OCR:STREAMING_WR_ANY_RESPONSE" \
	"$WORK/icl.check"
check_grep "icl: ARITH.FP_DIVIDER_ACTIVE is unknown to libpfm4, with its source" \
	"FPDIV_ACTIVE         unknown        raw cpu/event=0x14,umask=0x1,cmask=1/ (config=0x1000114): libpfm4 has no icl::ARITH:FP_DIVIDER_ACTIVE" \
	"$WORK/icl.check"
check_grep "zen4: all 13 events are libpfm4 strings" "13 ok, 0 mismatches, 0 known to differ (libpfm4-differs), 0 unknown to libpfm4" \
	"$WORK/amd64_fam19h_zen4.check"

# a model libpfm4 4.13 has no tables for: every raw event unknown, nothing fails
"$TDCTL" events --pmu gnr --check >"$out" 2>"$err"; rc=$?
check_eq "gnr: --check exits 0" 0 "$rc"
check_grep "gnr: says libpfm4 has no tables for the model" "(this libpfm4 has no tables for that model" "$out"
check_grep "gnr: all 150 events unknown to libpfm4" "0 ok, 0 mismatches, 0 known to differ (libpfm4-differs), 150 unknown to libpfm4" "$out"

# intel-gnr.td's raw encodings (perfmon's GNR table) against libpfm4's SPR table, for the events Granite
# Rapids shares with Sapphire Rapids: a copy of the file that says it serves spr checks clean, 127 of its
# 150 events equal to libpfm4's spr encoding (config1 of the OCR and FRONTEND_RETIRED events included), 10
# known to differ (the MSR 0x3F7 events: libpfm4 4.13 has INT_MISC.UNKNOWN_BRANCH_CYCLES as umask 0x07 and
# UOPS_RETIRED.MS as umask 0x08, perfmon GNR V1.20 0xAD/0x40 and 0xC2/0x04 with frontend= 0x7 and 0x8;
# FRONTEND_RETIRED.* is SPR's umask 0x01, GNR's 0x03; EXE.AMX_BUSY, to which libpfm4 adds config1 0x2;
# False_Sharing's OCR MSR value), the other 13: PERF_METRICS, 2 EXE_ACTIVITY and 2 MEM_INST_RETIRED.STLB_HIT_*
# umasks libpfm4 4.13 lacks, msr/tsc
mkdir -p "$WORK/gnr-as-spr"
sed 's/^pmu      gnr$/pmu      spr/' "$EV/intel-gnr.td" >"$WORK/gnr-as-spr/intel-gnr.td"
check "gnr as spr: the copy says it serves spr" grep -qx 'pmu      spr' "$WORK/gnr-as-spr/intel-gnr.td"
"$TDCTL" events --events-dir "$WORK/gnr-as-spr" --pmu spr --check >"$out" 2>"$err"; rc=$?
check_eq "gnr as spr: --check exits 0" 0 "$rc"
check_grep "gnr as spr: 127 equal to libpfm4's spr table, none differs unexplained" \
	"127 ok, 0 mismatches, 10 known to differ (libpfm4-differs), 13 unknown to libpfm4" "$out"
check_grep "gnr as spr: UOPS_RETIRED.MS 0xC2/0x04 with frontend=0x8 is known to differ from libpfm4's 0xC2/0x08" \
	"MS_RET               known          ours cpu/event=0xc2,umask=0x4,frontend=0x8/ config=0x4c2 config1=0x8, libpfm4 spr::UOPS_RETIRED:MS config=0x8c2 config1=0x0" "$out"
check_grep "gnr as spr: MEMORY_ACTIVITY.STALLS_L3_MISS 0x47/0x09 c=9" \
	"MA_L3                ok             raw cpu/event=0x47,umask=0x9,cmask=9/ config=0x9000947 = libpfm4 spr::MEMORY_ACTIVITY:STALLS_L3_MISS:c=9" "$out"

# deliberately wrong: IDQ_UOPS_NOT_DELIVERED.CORE is 0x9C/0x01 (config 0x19c); the copy says umask 0x02.
# A right raw form of another event (BR_MISP_RETIRED.ALL_BRANCHES, 0xC5/0x00) is ok.
mkdir -p "$WORK/ev"
sed -e 's|^event    FE_NOT          IDQ_UOPS_NOT_DELIVERED:CORE  |event    FE_NOT          cpu/event=0x9c,umask=0x2/    |' \
    -e 's|^event    BR_MISP         BR_MISP_RETIRED:ALL_BRANCHES  |event    BR_MISP         cpu/event=0xc5,umask=0x0/     |' \
	"$EV/intel-skl.td" >"$WORK/ev/intel-skl.td"
check "wrong: the copy has both raw lines" test "$(grep -c '^event    \(FE_NOT          cpu/event=0x9c,umask=0x2/\|BR_MISP         cpu/event=0xc5,umask=0x0/\)' "$WORK/ev/intel-skl.td")" -eq 2
cp "$EV/software.td" "$WORK/ev/"
"$TDCTL" events --events-dir "$WORK/ev" --pmu skl --check >"$out" 2>"$err"; rc=$?
check_eq "wrong: --check exits 1" 1 "$rc"
check_grep "wrong: the mismatch with both configs" \
	"FE_NOT               MISMATCH       ours cpu/event=0x9c,umask=0x2/ config=0x29c config1=0x0, libpfm4 skl::IDQ_UOPS_NOT_DELIVERED:CORE config=0x19c config1=0x0" \
	"$out"
check_grep "wrong: the right raw form is ok (BR_MISP_RETIRED.ALL_BRANCHES 0xC5/0x00)" \
	"BR_MISP              ok             raw cpu/event=0xc5,umask=0x0/ config=0xc5 = libpfm4 skl::BR_MISP_RETIRED:ALL_BRANCHES" "$out"
check_grep "wrong: the summary counts it" " 1 mismatch, " "$out"
check_eq "wrong: one line on stderr" 1 "$(wc -l <"$err")"
check_grep "wrong: stderr says what to do" "events: 1 encoding of intel-skl.td differs from libpfm4's (see MISMATCH above): fix the file's 'event' line or say in its description why libpfm4 is wrong" "$err"

# libpfm4-differs on an event libpfm4 agrees with: ok, and the line is called out of date
printf 'libpfm4-differs BR_MISP | test: claimed on purpose\n' >>"$WORK/ev/intel-skl.td"
"$TDCTL" events --events-dir "$WORK/ev" --pmu skl --check >"$out" 2>"$err"
check_grep "stale libpfm4-differs: called out of date" "(this libpfm4 agrees: its libpfm4-differs line is out of date)" "$out"
# ... and a libpfm4-differs line naming no event is a file error with FILE:LINE
printf 'libpfm4-differs NO_SUCH | why\n' >>"$WORK/ev/intel-skl.td"
"$TDCTL" events --events-dir "$WORK/ev" --pmu skl --check >"$out" 2>"$err"; rc=$?
check_eq "libpfm4-differs of an unknown alias: exits 1" 1 "$rc"
check_grep "libpfm4-differs of an unknown alias: FILE:LINE" \
	"intel-skl.td:$(wc -l <"$WORK/ev/intel-skl.td"): libpfm4-differs: 'NO_SUCH' is not an event declared above" "$err"

# ... and one without a reason, or a second one for the same event
sed -i '$d' "$WORK/ev/intel-skl.td"
printf 'libpfm4-differs FE_NOT\n' >>"$WORK/ev/intel-skl.td"
"$TDCTL" events --events-dir "$WORK/ev" --pmu skl --check >"$out" 2>"$err"; rc=$?
check_eq "libpfm4-differs without a reason: exits 1" 1 "$rc"
check_grep "libpfm4-differs without a reason: says what it needs" \
	"'libpfm4-differs' needs one event alias, then '|' and the reason" "$err"
sed -i '$d' "$WORK/ev/intel-skl.td"
printf 'libpfm4-differs BR_MISP | again\n' >>"$WORK/ev/intel-skl.td"
"$TDCTL" events --events-dir "$WORK/ev" --pmu skl --check >"$out" 2>"$err"; rc=$?
check_eq "a second libpfm4-differs for one event: exits 1" 1 "$rc"
check_grep "a second libpfm4-differs for one event: says so" "libpfm4-differs: event 'BR_MISP' already has one" "$err"

# a raw form with an extra-register term (config1) that libpfm4's encoding of the event leaves out:
# "raw, not in libpfm4" (unknown), not a mismatch. BR_MISP_RETIRED.ALL_BRANCHES is 0xC5/0x00 in both;
# frontend=0x11 (config1) is what libpfm4 4.13's skl table has no field for.
mkdir -p "$WORK/extra"
sed -e 's|^event    BR_MISP         BR_MISP_RETIRED:ALL_BRANCHES  |event    BR_MISP         cpu/event=0xc5,umask=0x0,frontend=0x11/ |' \
	"$EV/intel-skl.td" >"$WORK/extra/intel-skl.td"
check "extra: the copy has the frontend= line" grep -q '^event    BR_MISP         cpu/event=0xc5,umask=0x0,frontend=0x11/' "$WORK/extra/intel-skl.td"
cp "$EV/software.td" "$WORK/extra/"
"$TDCTL" events --events-dir "$WORK/extra" --pmu skl --check >"$out" 2>"$err"; rc=$?
check_eq "extra: --check exits 0" 0 "$rc"
check_grep "extra: said to be raw, not in libpfm4, with both configs" \
	"BR_MISP              unknown        raw cpu/event=0xc5,umask=0x0,frontend=0x11/ (config=0xc5 config1=0x11): raw, not in libpfm4: skl::BR_MISP_RETIRED:ALL_BRANCHES has config=0xc5 but no extra register (config1)" "$out"
check_grep "extra: no mismatch" " 0 mismatches," "$out"

# perf-name lines in perf's raw form are checked as perf parses them: a JSON event name expanded to its
# perfmon encoding, every term ORed in (tools/perf/util/pmu.c:1282-1297 and :1607-1650, linux 6.12.117).
# ICL's toplev/perf spelling of EXE_ACTIVITY.3_PORTS_UTIL:u0x80 is umask 0x08 | 0x80 = 0x88 (perfmon ICL:
# EXE_ACTIVITY.3_PORTS_UTIL is 0xA6/0x08), which EXE_0 is; IDQ.MS_UOPS (0x79/0x30) with cmask=1 is 0x1003079.
check_grep "icl: toplev's EXE_ACTIVITY.3_PORTS_UTIL,umask=0x80 is 0xA6/0x88, EXE_0" \
	"perf-name cpu/exe_activity.3_ports_util,umask=0x80/    ok       config=0x88a6 = EXE_0" "$WORK/icl.check"
check_grep "icl: IDQ.MS_UOPS with cmask=1" "perf-name cpu/idq.ms_uops,cmask=1/                     ok       config=0x1003079 = MS_CYCLES" \
	"$WORK/icl.check"
# a copy of intel-icl.td whose EXE_0 is EXE_BOUND_0_PORTS alone (0xA6/0x80, TMA's intent): perf's spelling
# then names another event: MISMATCH, exit 1, one line on stderr
mkdir -p "$WORK/pn"
sed 's|^event    EXE_0           cpu/event=0xa6,umask=0x88/   |event    EXE_0           cpu/event=0xa6,umask=0x80/   |' \
	"$EV/intel-icl.td" >"$WORK/pn/intel-icl.td"
check "perf-name: the copy has EXE_0 = 0xA6/0x80" grep -q '^event    EXE_0           cpu/event=0xa6,umask=0x80/' "$WORK/pn/intel-icl.td"
cp "$EV/software.td" "$WORK/pn/"
"$TDCTL" events --events-dir "$WORK/pn" --pmu icl --check >"$out" 2>"$err"; rc=$?
check_eq "perf-name: --check exits 1" 1 "$rc"
check_grep "perf-name: the mismatch with both encodings" \
	"perf-name cpu/exe_activity.3_ports_util,umask=0x80/    MISMATCH perf makes config=0x88a6 config1=0x0 of it, EXE_0 is config=0x80a6 config1=0x0" "$out"
check_eq "perf-name: one line on stderr" 1 "$(wc -l <"$err")"
check_grep "perf-name: stderr says what to do" "events: 1 perf-name line of intel-icl.td names what perf parses as another event" "$err"

# --check and --json together: a usage error
"$TDCTL" events --pmu skl --check --json >"$out" 2>"$err"; rc=$?
check_eq "--check --json: exits 2" 2 "$rc"
check_grep "--check --json: says to give one" "give one of --json and --check" "$err"
finish
