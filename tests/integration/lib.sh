# lib.sh: helpers for the integration tests — TAP output, temporary
# directories, the binaries under test, and waiting without sleeping blindly.
# Each test sources it, calls checks, and ends with `finish`.

set -u
: "${TD_BUILDDIR:?run through 'make check' (TD_BUILDDIR unset)}"
TDCTL="$TD_BUILDDIR/src/tdctl/tdctl"
DEMO="$TD_BUILDDIR/src/demo/td-demo"
TAP_N=0
TAP_FAILED=0
WORK=$(mktemp -d "${TMPDIR:-/tmp}/td-test.XXXXXX")
# every run measures its own switch cost (tdctl keeps this boot's in /run/tdctl-switch-cost by
# default: a test's figures would depend on what ran before it); target_cost.sh tests the file
export TD_SWITCH_COST_CACHE=
# nor does a run take this boot's kernel types file (tdctl makes one in /run by default: a test's
# programs would be the tp_btf or raw_tp ones by what ran before it); kernel_types.sh tests the file
export TD_KERNEL_TYPES_CACHE=
TAP_T0=$(date +%s%N)
trap 'finish_cleanup' EXIT

# at the exit: the script's wall time and the CPU of what it ran (a TAP
# comment in its .log: what CI's 20 minutes go to), then its leftovers
finish_cleanup() {
	times >"$WORK/.times" 2>/dev/null # not in $(...): a subshell's children are not the script's
	echo "# wall $((($(date +%s%N) - TAP_T0) / 1000000)) ms; CPU (user sys) of its commands: $(sed -n 2p "$WORK/.times" 2>/dev/null)"
	if [ -n "${CLEANUP_PIDS:-}" ]; then
		kill -9 $CLEANUP_PIDS 2>/dev/null
	fi
	rm -rf "$WORK"
}

ok() { TAP_N=$((TAP_N + 1)); echo "ok $TAP_N - $*"; }
not_ok() { TAP_N=$((TAP_N + 1)); TAP_FAILED=$((TAP_FAILED + 1)); echo "not ok $TAP_N - $*"; }

# check DESCRIPTION COMMAND...: ok when COMMAND succeeds
check() {
	desc=$1
	shift
	if "$@"; then ok "$desc"; else not_ok "$desc"; fi
}

# check_eq DESCRIPTION EXPECTED ACTUAL
check_eq() {
	if [ "$2" = "$3" ]; then ok "$1"; else not_ok "$1 (expected '$2', got '$3')"; fi
}

# check_match DESCRIPTION REGEX TEXT
check_match() {
	if printf '%s\n' "$3" | grep -Eq -- "$2"; then ok "$1"; else not_ok "$1 ('$3' does not match /$2/)"; fi
}

# wait_for SECONDS COMMAND...: poll COMMAND every 50 ms until it succeeds
wait_for() {
	limit=$(($1 * 20))
	shift
	i=0
	while [ $i -lt $limit ]; do
		if "$@" 2>/dev/null; then return 0; fi
		sleep 0.05
		i=$((i + 1))
	done
	return 1
}

# sqlite3 waits up to 10 s for a lock, as every reader of a live database must: the
# last connection of a writer (tdctl, topdownd) to close checkpoints and removes
# the WAL under an exclusive lock, and a reader opening just then gets SQLITE_BUSY
sql() { sqlite3 -batch -noheader -cmd ".timeout 10000" "$@"; }

# with_sysctl_lock CMD...: run CMD while no test changes a kernel sysctl (tests
# that change one, like bad_input.sh with perf_event_paranoid, hold this lock)
SYSCTL_LOCK=/tmp/topdown-tests-sysctl.lock
with_sysctl_lock() {
	if command -v flock >/dev/null && { : >>"$SYSCTL_LOCK"; } 2>/dev/null; then
		( flock 9 && "$@" 9>&- ) 9>>"$SYSCTL_LOCK"
	else
		"$@"
	fi
}

# skip DESCRIPTION REASON: a check whose premise this host lacks (TAP SKIP,
# counted as skipped by automake, never as passed)
skip() { TAP_N=$((TAP_N + 1)); echo "ok $TAP_N - $1 # SKIP $2"; }

# skip_all REASON: the whole script's premise is missing here; ends the script
skip_all() {
	echo "1..0 # SKIP $1"
	exit 0
}

# free_pid: a PID no process has now: a child started and reaped (PIDs are
# handed out in order, so it is not reused until pid_max wraps around)
free_pid() {
	fp=$(sh -c 'echo $$')
	while [ -e "/proc/$fp" ]; do fp=$(sh -c 'echo $$'); done
	echo "$fp"
}

# as_nobody TDCTL-ARGS...: tdctl as the unprivileged user nobody (callers are
# root and have setpriv), run from copies of the binary and the events files
# in $WORK, which nobody can read wherever this tree lives (a clone under a
# 0700 directory such as /root is not readable by nobody)
as_nobody() {
	if [ ! -x "$WORK/pub/tdctl" ]; then
		mkdir -p "$WORK/pub/events" && cp "$TDCTL" "$WORK/pub/tdctl" &&
			cp "${TOPDOWN_EVENTS_DIR:-$TD_SRCDIR/events}"/*.td "$WORK/pub/events/" &&
			chmod -R a+rX "$WORK/pub" && chmod 755 "$WORK" || return 125
	fi
	setpriv --reuid=nobody --regid=nogroup --clear-groups \
		env TOPDOWN_EVENTS_DIR="$WORK/pub/events" "$WORK/pub/tdctl" "$@"
}

finish() {
	echo "1..$TAP_N"
	[ "$TAP_FAILED" -eq 0 ]
}

# check_grep DESCRIPTION FIXED-STRING FILE: ok when FILE has a line containing it
check_grep() {
	if grep -qF -- "$2" "$3"; then ok "$1"; else not_ok "$1 ($(head -c 300 "$3" | tr '\n' ' '))"; fi
}

# import_tree NAME MODEL FILE EVENTS "node=percent ..." [MAXLEVEL [MINLEVEL]]: import
# tests/data/import/FILE for MODEL; all EVENTS events are read, every session node row of
# the CSV report (of levels MINLEVEL..MAXLEVEL, when given) equals its hand value (to 5e-5
# points) and the hand values cover every such node
import_tree() {
	name=$1 model=$2 file=$3 events=$4 maxlevel=${6:-99} minlevel=${7:-1}
	(cd "$TD_SRCDIR/tests/data/import" && "$TDCTL" import --pmu "$model" --smt off -d "$WORK/$name.db" "$file") \
		>"$WORK/$name.out" 2>&1
	check_eq "$name: import exits 0" 0 "$?"
	check_grep "$name: all $events events matched" "reads $events of the events" "$WORK/$name.out"
	"$TDCTL" report -d "$WORK/$name.db" --format csv >"$WORK/$name.csv"
	check_eq "$name: report exits 0" 0 "$?"
	printf '%s\n' "$5" | tr ' ' '\n' | awk -F= 'NF { print $1 "," $2 }' >"$WORK/$name.want"
	bad=$(awk -F, -v maxlevel="$maxlevel" -v minlevel="$minlevel" 'FNR == NR { want[$1] = $2; n_want++; next }
		FNR > 1 && $1 == "session" && $10 == "node" && $3 <= maxlevel && $3 >= minlevel { n++
			if (!($2 in want)) { print "no hand value for " $2; next }
			if ($4 == "") { print $2 ": n/a, expected " want[$2]; next }
			d = want[$2] - $4; if (d < 0) d = -d; if (d > 5e-5) print $2 ": " $4 ", expected " want[$2] }
		END { if (n != n_want) print n " node rows, " n_want " hand values" }' "$WORK/$name.want" "$WORK/$name.csv")
	check_eq "$name: every node of the tree has the vendor's value" "" "$bad"
}

# the end-of-run summary is what 'tdctl report' prints of the stored session (its summary part),
# but for the line on the whole command, which only the end of the run knows; the run builds it
# from the totals of the intervals it committed (TD_DEBUG_SUMMARY says so), the report from the
# counts read back: same_summary LABEL DB ERR [PATTERN...]: each PATTERN (a case's point) is in it
same_summary() {
	label=$1 db=$2 err=$3
	shift 3
	check_grep "$label: the run built its summary from the committed intervals' totals" \
		"tdctl: debug: summary from the committed intervals' totals" "$err"
	sed -n '/^topdown session /,$p' "$err" | grep -v '^  the whole command used ' >"$WORK/end.txt"
	"$TDCTL" report -d "$db" 2>&1 | sed -n '/^topdown session /,$p' >"$WORK/report.txt"
	check "$label: the end-of-run summary is the report's ($(wc -l <"$WORK/end.txt") lines)" \
		sh -c "[ \$(wc -l <'$WORK/end.txt') -gt 5 ] && cmp -s '$WORK/end.txt' '$WORK/report.txt'"
	for p in "$@"; do
		check_grep "$label: the summary shows $p" "$p" "$WORK/end.txt"
	done
}
