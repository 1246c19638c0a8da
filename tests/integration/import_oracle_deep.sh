#!/bin/sh
# The deep toplev oracle cases (tests/data/oracle/toplev-deep, public pmu-tools
# toplev 5.1 --import): tdctl import of each input, then tdctl export --format
# csv. EVERY row toplev printed (nodes down to level 3 or 4, and the info
# metrics asked for with --nodes +IPC,+CPI,+CLKS,+SLOTS) must be computed by the
# events file and agree with toplev: nodes within 1e-6 percentage points, info
# metrics within 1e-6 relative. A row toplev prints that the events file lacks
# counts as a mismatch, not a skip. Only MUX (toplev's multiplexing ratio, not
# a metric) is left out.
. "$(dirname "$0")/lib.sh"

ORACLE="$TD_SRCDIR/tests/data/oracle/toplev-deep"

# compare EXPORT.csv EXPECTED.csv: prints "MATCHED ROWS"; each mismatch or missing row on stderr
compare() {
	awk -F, '
	FNR == NR { if ($5 == "whole" && ($1 == "node" || $1 == "info") && $8 != "") v[$1 SUBSEP $6] = $8; next }
	FNR == 1 { for (i = 1; i <= NF; i++) if ($i == "Area") a = i; next }
	/^#/ { next }
	{
		area = $a; val = $(a + 1); unit = $(a + 2)
		if (area == "MUX") next
		rows++
		if (unit ~ /^%/) {
			k = "node" SUBSEP area
			if (!(k in v)) { print "missing node " area > "/dev/stderr"; next }
			d = v[k] * 100 - val; if (d < 0) d = -d
			if (d > 1e-6) { print "mismatch " area ": " v[k] * 100 " vs " val > "/dev/stderr"; next }
		} else {
			k = "info" SUBSEP area
			if (!(k in v)) { print "missing info " area > "/dev/stderr"; next }
			d = v[k] - val; if (d < 0) d = -d
			if (d > 1e-6 * (val < 0 ? -val : val)) { print "mismatch " area ": " v[k] " vs " val > "/dev/stderr"; next }
		}
		matched++
	}
	END { printf "%d %d\n", matched, rows }' "$1" "$2"
}

# check_case CASE MODEL ROWS: ROWS = toplev's rows in expected/CASE.csv other than MUX
check_case() {
	c=$1 model=$2 rows=$3
	db="$WORK/$c.db"
	"$TDCTL" import -q --pmu "$model" --smt off -d "$db" "$ORACLE/inputs/$c.perf.csv" 2>"$WORK/$c.err"
	check_eq "$c: import exits 0" 0 "$?"
	check_eq "$c: import reports nothing (every event read or a dummy)" "" "$(cat "$WORK/$c.err")"
	"$TDCTL" export 1 -d "$db" --format csv -o "$WORK/$c.csv"
	check_eq "$c: export exits 0" 0 "$?"
	got=$(compare "$WORK/$c.csv" "$ORACLE/expected/$c.csv" 2>"$WORK/$c.diff")
	sed "s/^/# $c: /" "$WORK/$c.diff"
	echo "# $c: ${got% *} of ${got#* } toplev rows match"
	check_eq "$c: all $rows of toplev's rows computed and matching (matched rows)" "$rows $rows" "$got"
}

check_case icl-l3-pm-fe-icache icl 42
check_case spr-l3-pm-badspec-ms spr 44
check_case skl-l4-core-ports skl 77

# An event string means what perf makes of it: perf expands a JSON event name into its terms and ORs
# every term into the field (tools/perf/util/pmu.c:1282-1297, :1607-1650; linux 6.12.117), so toplev's
# cpu/exe_activity.3_ports_util,umask=0x80/ (EXE_ACTIVITY.3_PORTS_UTIL is 0xA6/0x08, perfmon ICL) and the
# raw spelling cpu/event=0xa6,umask=0x8,umask=0x80/ both count 0xA6/0x88: the case with the raw
# spelling reads every event and gives toplev's values again. cpu/event=0xa6,umask=0x80/ (0x80 alone) is
# another event: the import says it cannot read it.
c=icl-l3-pm-fe-icache
in="$ORACLE/inputs/$c.perf.csv"
check_grep "$c: toplev wrote EXE_ACTIVITY.3_PORTS_UTIL with umask=0x80" ";cpu/exe_activity.3_ports_util,umask=0x80/;" "$in"
ORACLE_COPY="$WORK/oracle"
mkdir -p "$ORACLE_COPY/inputs" "$ORACLE_COPY/expected"
sed 's|;cpu/exe_activity.3_ports_util,umask=0x80/;|;cpu/event=0xa6,umask=0x8,umask=0x80/;|' "$in" >"$ORACLE_COPY/inputs/$c.perf.csv"
cp "$ORACLE/expected/$c.csv" "$ORACLE_COPY/expected/"
check "$c raw spelling: the copy has the repeated umask" grep -q ';cpu/event=0xa6,umask=0x8,umask=0x80/;' \
	"$ORACLE_COPY/inputs/$c.perf.csv"
ORACLE_SAVED=$ORACLE
ORACLE=$ORACLE_COPY
check_case "$c" icl 42
sed -i 's|;cpu/event=0xa6,umask=0x8,umask=0x80/;|;cpu/event=0xa6,umask=0x80/;|' "$ORACLE_COPY/inputs/$c.perf.csv"
"$TDCTL" import --pmu icl --smt off -d "$WORK/umask80.db" "$ORACLE_COPY/inputs/$c.perf.csv" >"$WORK/umask80.out" 2>&1
check_grep "$c with umask 0x80 alone: not read as EXE_0, the import says so" \
	"not read by intel-icl.td: cpu/event=0xa6,umask=0x80/" "$WORK/umask80.out"
# Every event no file reads is named, however many: 40 raw events of an umask no ICL event has
# (0xfe), about 1,100 characters of names (the list was once cut at 512)
cp "$ORACLE_COPY/inputs/$c.perf.csv" "$WORK/many.csv"
for i in $(seq 10 49); do
	printf '1000;;cpu/event=0x%s,umask=0xfe/;1000000000;100.00;;\n' "$i" >>"$WORK/many.csv"
done
"$TDCTL" import --pmu icl --smt off -d "$WORK/many.db" "$WORK/many.csv" >"$WORK/many.out" 2>&1
check_eq "40 unknown events added: the 40 and the umask-0x80 one named, none cut" 41 \
	"$(sed -n 's/^not read by intel-icl.td: //p' "$WORK/many.out" | tr ' ' '\n' | grep -c '^cpu/event=0x[0-9a-f]*,umask=0x[0-9a-f]*/$')"
ORACLE=$ORACLE_SAVED
finish
