#!/bin/sh
# Faults injected into the store's I/O, swept over a whole session (issue 18):
# tests/tools/fault_inject.so makes the Nth write/fsync/open-for-writing of
# the database's files fail with ENOSPC or EIO, and every one after it (a
# disk that stays full or broken). One `tdctl run -I 20` of about a second
# (~50 intervals) is first run untouched to count those calls; then one
# faulted run per N. After each:
#   - tdctl exits non-zero, and stderr ends with one line saying what failed
#     (disk full / I/O error) and what to do (before it at most the one
#     warning said when the first write failed, which says the counts are
#     kept, and the one saying which interval periods were read late; the
#     session's own notes aside); or, when the fault only hit what comes after the last commit
#     (the WAL checkpoint at close, reading the summary back), it exits 0
#     with the session completed and its summary printed, or (after the
#     session's own notes, and the one warning saying which interval periods
#     were read late, which a loaded machine gives) one line saying why the
#     summary cannot be read
#   - the database opens and `PRAGMA integrity_check` says ok
#   - every interval committed before the fault is there. What was committed
#     is learnt independently of tdctl: at the moment of the fault the shim
#     copies the database and its WAL (what a crash then would leave), and
#     SQLite's own recovery of that copy lists the intervals.
# TD_FAULT_MODE=once fails the Nth call alone (a passing fault: the session
# goes on, and a run that exits 0 must have completed the session).
# N steps over the calls with a stride giving about TD_FAULT_RUNS (30) runs,
# N = 1, 2, 3 and the last four always included; TD_FAULT_SWEEP=full tries every
# N (about 15 minutes here), TD_FAULT_STRIDE=K every Kth. Prints the number
# of N tried, corrupt databases and committed intervals lost.
. "$(dirname "$0")/lib.sh"

SHIM="$TD_BUILDDIR/tests/tools/fault_inject.so"
[ -f "$SHIM" ] || skip_all "no $SHIM (built by make check)"
DB="$WORK/f.db"
SNAP="$WORK/snap"

# faulted_run LOG [VAR=VALUE...]: one session under the shim; stderr in $WORK/err
faulted_run() {
	log=$1
	shift
	rm -f "$DB" "$DB-wal" "$DB-shm" "$DB-journal" "$log"
	rm -rf "$SNAP" && mkdir "$SNAP"
	# ASan insists on coming first among the preloaded libraries; the shim is not instrumented
	env LD_PRELOAD="$SHIM" TD_FAULT_PATH="$DB" TD_FAULT_LOG="$log" TD_FAULT_SNAPSHOT="$SNAP" \
		ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0" "$@" \
		"$TDCTL" run -I 20 -d "$DB" -- "$DEMO" -t 1 -l 0 -e 0 -s 1 >/dev/null 2>"$WORK/err"
}

# intervals FILE: "session:seq" of every interval FILE holds, sorted (none if no table)
intervals() {
	[ -s "$1" ] || return 0
	sql "$1" "select session_id || ':' || seq from intervals order by 1" 2>/dev/null | sort
}

faulted_run "$WORK/count.log"
check_eq "the untouched run exits 0" 0 "$?"
total=$(wc -l <"$WORK/count.log")
n_iv=$(sql "$DB" "select count(*) from intervals")
check "the untouched run writes about 50 intervals ($n_iv)" test "$n_iv" -ge 30
check "the shim counted the store's calls ($total)" test "$total" -ge 100
check "the shim saw the database's writes and its opens" \
	sh -c "grep -q ' pwrite64\\? $DB-wal ok' '$WORK/count.log' && grep -q ' open\\(64\\|at\\)\\? $DB ok' '$WORK/count.log'"
grep -q ' failed$' "$WORK/count.log" && not_ok "the untouched run had no fault injected"

case ${TD_FAULT_SWEEP:-} in
full) stride=1 ;;
*) stride=${TD_FAULT_STRIDE:-$(((total + ${TD_FAULT_RUNS:-30} - 1) / ${TD_FAULT_RUNS:-30}))} ;;
esac
[ "$stride" -ge 1 ] || stride=1
case ${TD_FAULT_MODE:-sticky} in
once) sticky= ;;
*) sticky=1 ;;
esac
echo "# $total store calls in the untouched run; ${sticky:+every call from }the Nth ${sticky:+on }fails, for N = 1, 2, 3, one in $stride, and the last four up to $total (TD_FAULT_SWEEP=full tries all)"

tried=0 corrupt=0 lost=0 unreached=0 harmless=0 bad_exit=0 bad_message=0
k=0
# the last four calls too: the checkpoint at close and the summary's read-back come after the last commit
tail_from=$((total > 4 ? total - 3 : 1))
for n in $( (echo 1; echo 2; echo 3; seq 1 "$stride" "$total"; seq "$tail_from" "$total") | sort -n | uniq); do
	k=$((k + 1))
	if [ $((k % 2)) = 0 ]; then errno=EIO; else errno=ENOSPC; fi
	faulted_run "$WORK/run.log" TD_FAULT_N="$n" TD_FAULT_STICKY="$sticky" TD_FAULT_ERRNO="$errno"
	rc=$?
	if ! grep -q ' failed$' "$WORK/run.log"; then
		unreached=$((unreached + 1)) # this run made fewer calls than the untouched one
		continue
	fi
	tried=$((tried + 1))
	what="N=$n ($(grep ' failed$' "$WORK/run.log" | head -n 1 | cut -d' ' -f2,3), $errno)"
	if [ -s "$DB" ] && [ "$(sql "$DB" "pragma integrity_check" 2>&1)" != ok ]; then
		corrupt=$((corrupt + 1))
		not_ok "$what: the database is sound: $(sql "$DB" "pragma integrity_check" 2>&1 | head -n 3 | tr '\n' ' ')"
		continue
	fi
	intervals "$SNAP/snap.db" >"$WORK/committed"
	intervals "$DB" >"$WORK/final"
	missing=$(comm -23 "$WORK/committed" "$WORK/final" | wc -l)
	if [ "$missing" -gt 0 ]; then
		lost=$((lost + missing))
		not_ok "$what: the $(wc -l <"$WORK/committed") intervals committed before the fault are kept ($missing missing)"
	fi
	case $errno in
	ENOSPC) cause="disk is full|No space left on device" ;;
	EIO) cause="I/O error|Input/output error" ;;
	esac
	# a passing fault of an open is gone when tdctl looks for its cause: it can only say so
	if [ -z "$sticky" ] && grep -q ' open[a-z0-9]* [^ ]* failed$' "$WORK/run.log"; then
		cause="though this user may write it|check that the directory exists and is writable"
	fi
	last=$(tail -n 1 "$WORK/err")
	# a loaded machine can hold the sampler up, a failing disk too: the periods it read late are
	# said once at the session's end, whatever the fault did after it
	late=$(grep -c "^tdctl: [0-9]* interval periods\{0,1\} of [0-9]* ms not read on time" "$WORK/err")
	if [ "$rc" = 0 ]; then
		# the fault came after the last commit, or passed: the session completed
		status=$(sql "$DB" "select status from sessions" 2>/dev/null)
		if [ "$status" = completed ] && [ "$late" -le 1 ] && { grep -q "^topdown session 1 (run) completed" "$WORK/err" ||
			{ [ "$(grep -vc '^tdctl: note: ' "$WORK/err")" = $((1 + late)) ] &&
				printf '%s\n' "$last" | grep -Eq "^tdctl: session 1 is stored, but its summary cannot be read back: .*($cause)"; }; }; then
			harmless=$((harmless + 1))
		else
			bad_exit=$((bad_exit + 1))
			not_ok "$what: exit 0 only with the session completed (status '$status'): $(head -c 300 "$WORK/err" | tr '\n' ' ')"
		fi
		continue
	fi
	# notes (tdctl: note: ...) describe the session, not the failure
	lines=$(grep -vc "^tdctl: note: " "$WORK/err")
	warned=$(grep -c "^tdctl: cannot write interval [0-9]* to the database: .*; its counts are kept" "$WORK/err")
	if [ "$lines" -gt $((1 + warned + late)) ] || [ "$warned" -gt 1 ] || [ "$late" -gt 1 ] || ! printf '%s\n' "$last" | grep -Eq "^tdctl: .*($cause)" ||
		! printf '%s\n' "$last" | grep -Eq ": (free space|check the database's disk|try again)[^:]*$"; then
		bad_message=$((bad_message + 1))
		not_ok "$what: one line says it failed ($cause) and what to do: $(head -c 600 "$WORK/err" | tr '\n' '|')"
	fi
done

# The read-back of the summary faulted for sure: the sweep's last Ns are the untouched run's last
# calls, but a run makes as many calls as it writes intervals, which a loaded machine changes
# (periods read late are absorbed); its opens are as many in every run, and the read-back's is
# the last open of the database itself. With a sampler held up for 200 ms (SIGSTOP, as a
# saturated machine does, once the first interval is committed), the one warning about late
# periods comes before the line.
faulted_run "$WORK/opens.log" TD_FAULT_CALLS=open
readback=$(awk -v db="$DB" '$3 == db { n = $1 } END { print n + 0 }' "$WORK/opens.log")
rm -f "$DB" "$DB-wal" "$DB-shm" "$DB-journal" "$WORK/run.log"
rm -rf "$SNAP" && mkdir "$SNAP"
# exec: $! is tdctl itself (env execs it too)
(exec env LD_PRELOAD="$SHIM" TD_FAULT_PATH="$DB" TD_FAULT_LOG="$WORK/run.log" TD_FAULT_SNAPSHOT="$SNAP" \
	ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0" TD_FAULT_CALLS=open TD_FAULT_N="$readback" \
	TD_FAULT_STICKY=1 TD_FAULT_ERRNO=EIO "$TDCTL" run -I 20 -d "$DB" -- "$DEMO" -t 1 -l 0 -e 0 -s 1 >/dev/null 2>"$WORK/err") &
run=$!
# held up once an interval is committed (the sampler's periods have begun: a WAL alone is the
# session's row, written before them, and a stop then is before any period is due)
committed() { [ "$(sql "$DB" "select count(*) from intervals" 2>/dev/null)" -ge 1 ] 2>/dev/null; }
wait_for 20 committed
kill -STOP $run 2>/dev/null
sleep 0.2
kill -CONT $run 2>/dev/null
wait $run
rc=$?
check_eq "the read-back's open faulted (open $readback of $(wc -l <"$WORK/opens.log")): exit 0, the session completed" \
	"0 completed" "$rc $(sql "$DB" "select status from sessions" 2>/dev/null)"
check_match "... the periods read late said, then one line why the summary cannot be read" \
	"^tdctl: [0-9]+ interval periods? of 20 ms not read on time .*\|tdctl: session 1 is stored, but its summary cannot be read back: .*(I/O error|Input/output error)[^|]*\|$" \
	"$(grep -v '^tdctl: note: ' "$WORK/err" | tr '\n' '|')"

echo "# N tried: $tried (stride $stride over $total calls, and 1, 2, 3; $unreached beyond what their run wrote)"
echo "# runs that exited 0 with the session completed (the fault came after the last commit, or passed): $harmless"
echo "# corrupt databases: $corrupt; committed intervals lost: $lost; wrong exit: $bad_exit; wrong message: $bad_message"
check "faults were injected at $tried points of the session" test "$tried" -ge $((total / stride / 2))
check_eq "no database was corrupt" 0 "$corrupt"
check_eq "no committed interval was lost" 0 "$lost"
check_eq "every failed run exited non-zero, or completed the session" 0 "$bad_exit"
check_eq "every failed run ended with one line saying what failed and what to do" 0 "$bad_message"
finish
