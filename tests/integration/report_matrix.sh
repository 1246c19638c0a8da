#!/bin/sh
# Reports for every kind of session (issue 13): each session kind — run,
# attach, a live session still running, system, cgroup, and imports of
# totals, -I, -A (per CPU) and --per-thread; software-only (this machine's
# live sessions) and hardware (the imports) — through every format (text,
# CSV, JSON, HTML) and diff, without and with a filter that applies to it.
# Each cell must exit 0 and produce its format's shape with the session's
# own numbers in it (a count the store holds, or the tree's first node);
# diff must compare two sessions with a tree and refuse, with its reason,
# one without. The values themselves are checked in report.sh,
# summary-related tests and eval_same.sh; this sweep checks that no cell
# is left out. The table in docs/internals.md lists the cells.
. "$(dirname "$0")/lib.sh"

D="$TD_SRCDIR/tests/data/import"
ORACLE="$TD_SRCDIR/tests/data/oracle/toplev/inputs"
DB="$WORK/m.db"

# cell KIND SESSION FILTER...: the four formats, each shaped and holding the session's numbers
cell() {
	kind=$1 s=$2
	shift 2
	label="$kind${*:+ $*}"
	out="$WORK/cell"
	# shellcheck disable=SC2068
	"$TDCTL" report "$s" -d "$DB" --color never $@ >"$out.txt" 2>"$out.err"
	check_eq "$label: text exits 0 ($(head -c 200 "$out.err"))" 0 "$?"
	check "$label: text names the session" grep -q "ession $s (" "$out.txt"
	"$TDCTL" report "$s" -d "$DB" --format csv $@ >"$out.csv" 2>"$out.err"
	check_eq "$label: csv exits 0" 0 "$?"
	check "$label: csv has its header" grep -q '^scope,node,level,value,unit,threshold,bottleneck,confidence,spans,kind,' "$out.csv"
	"$TDCTL" report "$s" -d "$DB" --format json $@ >"$out.json" 2>"$out.err"
	check_eq "$label: json exits 0" 0 "$?"
	check_eq "$label: json is one object of this session" "{ $s }" \
		"$(head -c 1 "$out.json") $(grep -o '"session": *[0-9]*' "$out.json" | head -1 | grep -o '[0-9]*$') $(tail -c 2 "$out.json" | head -c 1)"
	"$TDCTL" report "$s" -d "$DB" --format html -o "$out.html" $@ 2>"$out.err"
	check_eq "$label: html exits 0" 0 "$?"
	check "$label: html is a whole page" sh -c "grep -qi '^<!doctype html>' '$out.html' && tail -c 20 '$out.html' | grep -q '</html>'"
	if [ -n "${WANT:-}" ]; then
		check_match "$label: text shows $WANT" "$WANT" "$(cat "$out.txt")"
	fi
}

# ---- the sessions ----------------------------------------------------------------
"$TDCTL" run -q -I 200 -d "$DB" -- "$DEMO" -t 2 -l 0 -e 0 -s 1 >/dev/null 2>&1
RUN=$(sql "$DB" "select max(id) from sessions")
RUN_TID=$(sql "$DB" "select tid from threads where session_id = $RUN and tid != pid and tid != 0 limit 1")
"$DEMO" -t 1 -l 0 -e 0 -s 20 >/dev/null &
DP=$!
CLEANUP_PIDS=$DP
"$TDCTL" attach "$DP" -q -I 200 --duration 1 -d "$DB" >/dev/null 2>&1
ATT=$(sql "$DB" "select max(id) from sessions")
# a live session, read while it runs
"$TDCTL" attach "$DP" -q -I 200 --duration 15 -d "$DB" >/dev/null 2>&1 &
AP=$!
CLEANUP_PIDS="$DP $AP"
wait_for 20 sh -c "[ \"\$(sqlite3 '$DB' \"select count(*) from intervals i join sessions s on s.id = i.session_id where s.status = 'running'\" 2>/dev/null)\" -ge 2 ]" ||
	not_ok "the live session writes intervals"
LIVE=$(sql "$DB" "select max(id) from sessions where status = 'running'")
# live sessions on a host with a PMU have a tree: their text shows it instead of the summary's rows
SOFT=$(sql "$DB" "select rung = 'software-only' from sessions where id = $RUN")
lw() { if [ "$SOFT" = 1 ]; then printf '%s' "$1"; else printf 'Top-down \\('; fi; }
WANT="attach, running" cell live "$LIVE"
WANT="attach, running" cell live "$LIVE" --from 0 --to 0.3
kill -INT "$AP"
SYS= CG=
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)
if [ "$(id -u)" -eq 0 ] || [ "$paranoid" -le 0 ]; then
	"$TDCTL" record --system -q --duration 1 -I 250 -d "$DB" >/dev/null 2>&1
	SYS=$(sql "$DB" "select max(id) from sessions where kind = 'system'")
fi
mnt=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
cg="$mnt/td-test-matrix-$$"
if [ -n "$mnt" ] && mkdir "$cg" 2>/dev/null; then
	trap 'rmdir "$cg" 2>/dev/null; finish_cleanup' EXIT
	"$TDCTL" record --cgroup "$cg" -q --duration 1 -I 250 -d "$DB" >/dev/null 2>&1
	CG=$(sql "$DB" "select max(id) from sessions where kind = 'cgroup'")
fi
imp() { "$TDCTL" import -q --pmu skl --smt off -d "$DB" "$@" >/dev/null 2>&1; sql "$DB" "select max(id) from sessions"; }
# the SKL L3 oracle's counts in each perf stat form: totals, -I (3 intervals),
# -A (2 CPUs), --per-thread (2 threads of one process), -I -A
L3="$ORACLE/skl-l3.perf.csv"
awk '{ for (t = 1; t <= 3; t++) printf "%d.000000000;%s\n", t, $0 }' "$L3" | sort -t';' -k1,1n -s >"$WORK/l3-I.csv"
awk '{ printf "CPU0;%s\nCPU1;%s\n", $0, $0 }' "$L3" >"$WORK/l3-A.csv"
awk '{ printf "app-4000;%s\napp-4001;%s\n", $0, $0 }' "$L3" >"$WORK/l3-T.csv"
awk '{ for (t = 1; t <= 2; t++) printf "%d.000000000;CPU0;%s\n%d.000000000;CPU1;%s\n", t, $0, t, $0 }' "$L3" |
	sort -t';' -k1,1n -s >"$WORK/l3-IA.csv"
TOT=$(imp "$L3")
TOT2=$(imp "$ORACLE/skl-l2.perf.csv")
IVL=$(imp "$WORK/l3-I.csv")
PCPU=$(imp "$WORK/l3-A.csv")
PTHR=$(imp "$WORK/l3-T.csv")
IPCPU=$(imp "$WORK/l3-IA.csv")
# imports with too few events for a tree: the summary's IPC instead
SMALL_I=$(imp "$D/interval-semicolon.csv")
SMALL_T=$(imp "$D/per-thread.csv")

# ---- software-only live sessions: the summary's rows --------------------------------
WANT=$(lw "process [0-9]+ \(td-demo\)") cell run "$RUN"
WANT=$(lw "thread") cell run "$RUN" --thread "$RUN_TID"
WANT=$(lw "process $DP") cell attach "$ATT"
WANT=$(lw "process $DP") cell attach "$ATT" --process "$DP"
if [ -n "$SYS" ]; then
	WANT=$(lw "system-wide") cell system "$SYS"
	WANT=$(lw "cpu0") cell system "$SYS" --cpu 0
else
	skip "system: every format" "record --system needs root or perf_event_paranoid <= 0 (is $paranoid)"
fi
if [ -n "$CG" ]; then
	WANT=$(lw "cgroup:") cell cgroup "$CG"
	WANT=$(lw "cgroup:") cell cgroup "$CG" --from 0 --to 0.5
else
	skip "cgroup: every format" "no cgroup v2 to create a cgroup in"
fi
# ---- hardware (imported) sessions: the tree ------------------------------------------
WANT="Frontend_Bound" cell "import totals" "$TOT"
WANT="Memory_Bound" cell "import totals" "$TOT" --node Backend_Bound
WANT="Frontend_Bound" cell "import -I" "$IVL"
WANT="Frontend_Bound" cell "import -I" "$IVL" --from 0 --to 1
WANT="Frontend_Bound" cell "import -A" "$PCPU"
WANT="Frontend_Bound" cell "import -A" "$PCPU" --cpu 1
WANT="Frontend_Bound" cell "import --per-thread" "$PTHR"
WANT="Frontend_Bound" cell "import --per-thread" "$PTHR" --thread 4001
WANT="Frontend_Bound" cell "import -I -A" "$IPCPU" --intervals
WANT="Frontend_Bound" cell "import -I -A" "$IPCPU" --cpu 0 --intervals
WANT="whole:" cell "import -I, no tree" "$SMALL_I"
WANT="whole:" cell "import -I, no tree" "$SMALL_I" --from 1 --to 2
WANT="worker" cell "import --per-thread, no tree" "$SMALL_T"
WANT="worker" cell "import --per-thread, no tree" "$SMALL_T" --thread 1234

# ---- diff ----------------------------------------------------------------------------
"$TDCTL" diff "$TOT2" "$TOT" -d "$DB" >"$WORK/diff.txt" 2>&1
check_eq "diff: two trees (imports) compare" 0 "$?"
check "diff: the biggest change is listed" grep -q "Frontend_Bound\|Backend_Bound\|Retiring\|Bad_Speculation" "$WORK/diff.txt"
"$TDCTL" diff "$PCPU" "$IPCPU" -d "$DB" --cpu 1 >"$WORK/diff.txt" 2>&1
check_eq "diff with a filter (--cpu 1) compares" 0 "$?"
"$TDCTL" diff "$IVL" "$IVL" -d "$DB" --from 1 --to 2 --format html -o "$WORK/diff.html" 2>&1
check_eq "diff with a window, as HTML, compares" 0 "$?"
"$TDCTL" diff "$PTHR" "$PTHR" -d "$DB" --thread 4001 >"$WORK/diff.txt" 2>&1
check_eq "diff with --thread compares" 0 "$?"
err=$("$TDCTL" diff "$PTHR" "$PTHR" -d "$DB" --thread 99 2>&1)
check_match "diff with a thread the session lacks: says which it has" "has no thread 99: its threads are 4000, 4001" "$err"
for s in "$RUN" "$ATT" "$LIVE" ${SYS:+"$SYS"} ${CG:+"$CG"}; do
	if [ "$SOFT" != 1 ]; then
		skip "diff of live session $s without a tree" "this host counts hardware events: the live sessions have a tree"
		continue
	fi
	"$TDCTL" diff "$s" "$TOT" -d "$DB" >"$WORK/diff.txt" 2>&1
	check_eq "diff of session $s (no tree) and a tree: exit 1" 1 "$?"
	check_grep "diff of session $s: says why" "has no top-down tree to compare" "$WORK/diff.txt"
done
wait "$AP"
kill "$DP" 2>/dev/null
wait "$DP" 2>/dev/null
CLEANUP_PIDS=
finish
