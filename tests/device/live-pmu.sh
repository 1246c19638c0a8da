#!/bin/sh
# live-pmu.sh: topdown on a real host with a hardware PMU, in one run of a few
# minutes (issue 31 item 3; not part of CI): tdctl doctor, tdctl verify -l 3,
# tdctl run -l 3 and attach of td-demo each beside perf stat of the same,
# record --system for 5 s, and the BPF counting mode with a hardware group. Each
# step's output is kept in the output directory; what passed is written to one
# file, DIR/summary.txt, and printed at the end. Run it as root (record --system
# and the BPF mode need it). On a host without a hardware PMU it says so in one
# line and exits 0.
#
#   tests/device/live-pmu.sh [-b BUILDDIR] [-o DIR] [-l LEVEL] [--emulated]
#   -b BUILDDIR  the build tree whose tdctl, td-demo and td-kernels run
#                (default: ./build beside this script's source tree)
#   -o DIR       where outputs and summary.txt go (default ./live-pmu-DATE)
#   -l LEVEL     the level of verify, run and attach (default 3)
#   --emulated   run against the emulated PMU (BUILDDIR/tests/tools/pmu_sim.so
#                preloaded into tdctl, a Skylake host tree, counts at the rates
#                of a toplev case: tests/integration/pmu_sim_live.sh), short
#                durations: the test suite runs the script whole this way. The
#                counts are the emulator's: this shows the plumbing, not the
#                hardware truth. perf never sees the emulator.
# Exits 0 when no step FAILed (SKIPs, with their reasons, are not failures).
set -u

SRC=$(cd "$(dirname "$0")/../.." && pwd)
BUILD="$SRC/build"
OUT="./live-pmu-$(date +%Y%m%d-%H%M%S)"
LEVEL=3
EMULATED=0
while [ $# -gt 0 ]; do
	case $1 in
	-b) BUILD=$2; shift 2 ;;
	-o) OUT=$2; shift 2 ;;
	-l) LEVEL=$2; shift 2 ;;
	--emulated) EMULATED=1; shift ;;
	-h | --help) sed -n '2,22p' "$0"; exit 0 ;;
	*) echo "live-pmu.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
	esac
done
TDCTL="$BUILD/src/tdctl/tdctl"
DEMO="$BUILD/src/demo/td-demo"
for p in "$TDCTL" "$DEMO" "$BUILD/src/verify/td-kernels"; do
	[ -x "$p" ] || { echo "live-pmu.sh: $p is not built: build topdown first, or give -b BUILDDIR" >&2; exit 2; }
done

# durations: a real host's, or the emulated run's (cheap: the suite runs it)
if [ "$EMULATED" = 1 ]; then
	HOST="$SRC/tests/data/hosts/skl-bare-smtoff"
	SIM="$BUILD/tests/tools/pmu_sim.so"
	[ -f "$SIM" ] || { echo "live-pmu.sh: $SIM is not built (make check builds it)" >&2; exit 2; }
	# tdctl reads the emulated host's tree; only tdctl has the emulator preloaded (perf and
	# td-demo run on the real kernel); the kernels' far chase stays small
	TD_SYSROOT="$HOST" TD_PFM_MODEL=skl LIBPFM_FORCE_PMU=skl TD_PMU_SIM_HOST="$HOST"
	TD_PMU_SIM_TRACE="$SRC/tests/data/oracle/toplev-deep/inputs/skl-l4-core-ports.perf.csv"
	TD_PMU_SIM_EVENTS="$SRC/tests/data/pmu_sim/skl.events" TD_PMU_SIM_FREQ=1e14 TD_PMU_SIM_CPU_CLOCK=wall
	TD_KERNELS_CHASE_MB=16
	export TD_SYSROOT TD_PFM_MODEL LIBPFM_FORCE_PMU TD_PMU_SIM_HOST TD_PMU_SIM_TRACE TD_PMU_SIM_EVENTS \
		TD_PMU_SIM_FREQ TD_PMU_SIM_CPU_CLOCK TD_KERNELS_CHASE_MB
	# the tree has more CPUs than a small test host: record CPUs 0-1, which both have
	# and td-demo runs one thread (the suite's CPU time is short)
	VERIFY_SECS=0.1 DEMO_SECS=1 RECORD_SECS=1 COUNTING=--counting=per-thread CPUS="--cpus 0-1" DEMO_THREADS="-t 1 -l 0 -e 0"
else
	VERIFY_SECS=2 DEMO_SECS=5 RECORD_SECS=5 COUNTING= CPUS= DEMO_THREADS=
fi
# td ARGS...: tdctl, with the emulator preloaded when --emulated (a sanitized tdctl loads its runtime first)
td() {
	if [ "$EMULATED" = 1 ]; then
		LD_PRELOAD="$SIM" ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0" "$TDCTL" "$@"
	else
		"$TDCTL" "$@"
	fi
}

rung=$(td doctor --json 2>/dev/null | sed -n 's/.*"rung":"\([^"]*\)".*/\1/p')
case $rung in
full-tree | partial-tree | ipc) ;;
*)
	echo "live-pmu.sh: no hardware PMU here (tdctl doctor: rung ${rung:-unknown}): nothing to check"
	exit 0
	;;
esac

mkdir -p "$OUT" || exit 2
DB="$OUT/topdown.db"
SUMMARY="$OUT/summary.txt"
FAILED=0
{
	echo "# live-pmu.sh summary: $(date -u '+%Y-%m-%d %H:%M:%S UTC'), $(uname -n), $(uname -r)"
	echo "# tdctl: $TDCTL; rung: $rung; level: $LEVEL"
	[ "$EMULATED" = 1 ] && echo "# EMULATED PMU ($HOST): the counts are the emulator's; this shows the plumbing, not the hardware truth"
} >"$SUMMARY"
# result STEP PASS|FAIL|SKIP DETAIL
result() {
	echo "$2 $1: $3" >>"$SUMMARY"
	[ "$2" = FAIL ] && FAILED=$((FAILED + 1))
	return 0
}
am_root() { [ "$(id -u)" = 0 ]; }

# perf_l1 OUTFILE CMD...: perf stat -M TopdownL1 of CMD into OUTFILE; 0 when it printed level 1
perf_l1() {
	f=$1
	shift
	command -v perf >/dev/null || { echo "perf is not installed" >"$f"; return 1; }
	perf stat -x ';' -M TopdownL1 -o "$f" -- "$@" >/dev/null 2>&1
	grep -qi 'tma_\(frontend_bound\|bad_speculation\|backend_bound\|retiring\)' "$f"
}
# perf prints level 1 here at all (else the workloads are not run again under it)
PERF_L1=0
perf_l1 "$OUT/perf-probe.txt" true && PERF_L1=1
# side_by_side SESSION PERFFILE: level 1 of the session and perf's, with the difference
side_by_side() {
	td report "$1" -d "$DB" --format csv >"$OUT/report-$1.csv" 2>"$OUT/report-$1.err" ||
		echo "    tdctl report $1 failed: $(tail -1 "$OUT/report-$1.err")"
	grep -q '^session,[^,]*,1,' "$OUT/report-$1.csv" ||
		echo "    session $1's report has no level-1 row ($(wc -l <"$OUT/report-$1.csv") lines of CSV)"
	awk -F, -v perf="$2" '
		BEGIN {
			while ((getline l < perf) > 0) {
				n = split(l, f, ";")
				for (i = 2; i <= n; i++) {
					m = tolower(f[i])
					if (m ~ /tma_frontend_bound/) p["Frontend_Bound"] = f[i - 1]
					else if (m ~ /tma_bad_speculation/) p["Bad_Speculation"] = f[i - 1]
					else if (m ~ /tma_backend_bound/) p["Backend_Bound"] = f[i - 1]
					else if (m ~ /tma_retiring/) p["Retiring"] = f[i - 1]
				}
			}
		}
		$1 == "session" && $3 == 1 {
			v = $4 == "" ? "n/a" : $4
			q = ($2 in p) ? p[$2] : "n/a"
			d = (v != "n/a" && q != "n/a") ? sprintf("%+.1f", v - q) : "n/a"
			printf "    %-16s topdown %6s %%  perf %6s %%  difference %s\n", $2, v, q, d
		}' "$OUT/report-$1.csv"
}
last_session() { sqlite3 "$DB" "SELECT max(id) FROM sessions" 2>/dev/null || echo 0; }

echo "live-pmu.sh: outputs in $OUT" >&2

# 1. doctor
if td doctor >"$OUT/doctor.txt" 2>&1; then
	result doctor PASS "rung $rung"
else
	result doctor FAIL "tdctl doctor exited non-zero: $(tail -1 "$OUT/doctor.txt")"
fi

# 2. verify -l LEVEL (its own perf comparison inside)
td verify -l "$LEVEL" --seconds "$VERIFY_SECS" $COUNTING -d "$DB" >"$OUT/verify.txt" 2>"$OUT/verify.err"
rc=$?
counts="$(grep -c ' PASS' "$OUT/verify.txt") PASS, $(grep -c ' FAIL' "$OUT/verify.txt") FAIL, $(grep -c ' SKIP' "$OUT/verify.txt") SKIP"
if [ "$EMULATED" = 1 ] && [ "$rc" -le 1 ]; then
	# the emulated counts are a trace's, the same for every kernel: FAILs are expected there
	result "verify -l $LEVEL" PASS "ran end to end on the emulated PMU ($counts: what the emulated counts say)"
elif [ "$rc" = 0 ]; then
	result "verify -l $LEVEL" PASS "$counts"
else
	result "verify -l $LEVEL" FAIL "exit $rc: $counts; $(grep ' FAIL' "$OUT/verify.txt" | cut -c1-160 | tr '\n' ';')"
fi
sed 's/^/    /' "$OUT/verify.txt" >>"$SUMMARY"

# 3. run -l LEVEL of td-demo, beside perf stat of the same
if td run -q -l "$LEVEL" $COUNTING -d "$DB" -- "$DEMO" $DEMO_THREADS -s "$DEMO_SECS" >"$OUT/run.txt" 2>&1; then
	s=$(last_session)
	result "run -l $LEVEL td-demo" PASS "session $s"
	if [ "$PERF_L1" = 1 ] && perf_l1 "$OUT/run.perf" "$DEMO" $DEMO_THREADS -s "$DEMO_SECS"; then
		result "perf stat of td-demo (run)" PASS "level 1 side by side:"
	else
		result "perf stat of td-demo (run)" SKIP "perf stat -M TopdownL1 prints no level 1 here ($(grep -v '^#' "$OUT/perf-probe.txt" | head -c 120 | tr '\n' ' '))"
	fi
	side_by_side "$s" "$OUT/run.perf" >>"$SUMMARY" 2>/dev/null
else
	result "run -l $LEVEL td-demo" FAIL "$(tail -1 "$OUT/run.txt")"
fi

# 4. attach to td-demo (waiting for SIGUSR1, then working), beside perf stat -p of the same
"$DEMO" $DEMO_THREADS -w -s "$DEMO_SECS" >/dev/null 2>&1 &
demo=$!
perf_pid=
if [ "$PERF_L1" = 1 ]; then
	perf stat -x ';' -M TopdownL1 -o "$OUT/attach.perf" -p "$demo" >/dev/null 2>&1 &
	perf_pid=$!
fi
td attach "$demo" -q -l "$LEVEL" $COUNTING --duration "$DEMO_SECS" -d "$DB" >"$OUT/attach.txt" 2>&1 &
attach=$!
# the work starts once tdctl's session is recorded as running (its collector attached: a fixed
# wait let a loaded machine start the work before tdctl attached, leaving the session without
# level 1); without sqlite3, half a second as before. perf stat -p opens its counters at once.
if command -v sqlite3 >/dev/null; then
	waited=0
	while [ $waited -lt 600 ] && kill -0 "$attach" 2>/dev/null &&
		[ "$(sqlite3 "$DB" "SELECT count(*) FROM sessions WHERE status = 'running'" 2>/dev/null)" != 1 ]; do
		sleep 0.1
		waited=$((waited + 1))
	done
else
	sleep 0.5
fi
kill -USR1 "$demo" 2>/dev/null
wait "$attach"
rc=$?
wait "$demo" 2>/dev/null
[ -n "$perf_pid" ] && wait "$perf_pid" 2>/dev/null
if [ "$rc" = 0 ]; then
	s=$(last_session)
	result "attach -l $LEVEL td-demo" PASS "session $s"
	if [ -f "$OUT/attach.perf" ] && grep -qi 'tma_' "$OUT/attach.perf"; then
		result "perf stat -p td-demo (attach)" PASS "level 1 side by side:"
	else
		result "perf stat -p td-demo (attach)" SKIP "perf stat -M TopdownL1 prints no level 1 here"
	fi
	side_by_side "$s" "$OUT/attach.perf" >>"$SUMMARY" 2>/dev/null
else
	result "attach -l $LEVEL td-demo" FAIL "$(tail -1 "$OUT/attach.txt")"
fi

# 5. record --system for RECORD_SECS s (CPU-wide events: CAP_PERFMON, or paranoid <= 0)
if ! am_root; then
	result "record --system" SKIP "not root: CPU-wide events need CAP_PERFMON"
elif td record --system $CPUS -q -l 1 --duration "$RECORD_SECS" -d "$DB" >"$OUT/record.txt" 2>&1; then
	result "record --system ${RECORD_SECS}s" PASS "session $(last_session)"
else
	result "record --system ${RECORD_SECS}s" FAIL "$(tail -1 "$OUT/record.txt")"
fi

# 6. the BPF counting mode with a hardware group (its program reads the counters at each
# context switch: at most 8 events, so one node's group)
if ! am_root; then
	result "BPF counting" SKIP "not root: the BPF programs need CAP_BPF and CAP_PERFMON"
elif td run -q --counting=bpf --nodes Retiring -d "$DB" -- "$DEMO" -s "$DEMO_SECS" -t 2 -l 0 >"$OUT/bpf.txt" 2>&1; then
	s=$(last_session)
	hw=$(sqlite3 "$DB" "SELECT count(*) FROM events e WHERE e.session_id = $s AND e.type IN (0, 4) AND e.status = 'counting'
		AND EXISTS (SELECT 1 FROM counts c WHERE c.event_id = e.id AND c.running > 0)" 2>/dev/null)
	if [ "${hw:-0}" -gt 0 ]; then
		result "BPF counting" PASS "session $s: $hw hardware events counted at context switches"
	else
		result "BPF counting" FAIL "session $s: no hardware event counted"
	fi
elif grep -q 'BPF counting mode does not load' "$OUT/bpf.txt"; then
	result "BPF counting" SKIP "$(grep 'BPF counting mode does not load' "$OUT/bpf.txt" | head -1 | sed 's/^tdctl: //')"
else
	result "BPF counting" FAIL "$(tail -1 "$OUT/bpf.txt")"
fi

cat "$SUMMARY"
[ "$FAILED" = 0 ]
