#!/bin/sh
# privsep: topdownd's privilege separation (issue 33) on the real daemon. The
# front and the exporter run without capabilities, as a non-root user (the
# package's 'topdown', else nobody), with no_new_privs and a seccomp filter;
# the monitor has no listening socket (/proc/net/unix, ss) and the front
# none of the monitor's descriptors. The front SIGKILLed while 100 clients
# connect comes back with the running session intact; the exporter too; the
# monitor SIGKILLed takes both down. A report's renderer, held before it
# renders (TOPDOWND_TEST_RENDER_HOLD), is seen unprivileged and confined the
# same way, the database it opened as root in hand. Then a "compromised front"
# (tests/tools/evil_front, run in the front's place) speaks the internal
# protocol directly: an attach to root's process for uid 65534, root's
# session read or detached, forged sockets, malformed and oversized
# messages — all refused, no session started, and the monitor answers and
# samples on.
. "$(dirname "$0")/lib.sh"

TOPDOWND="$TD_BUILDDIR/src/topdownd/topdownd"
CLIENT="$TD_BUILDDIR/tests/tools/ctl_client"
EVIL="$TD_BUILDDIR/tests/tools/evil_front"
[ "$(id -u)" = 0 ] || skip_all "the daemon is started as root here (as CI runs); not root"

chmod 755 "$WORK"
D="$WORK/d"
mkdir -m 755 "$D"
SOCK="$D/sock"
DB="$D/td.db"
LOG="$D/log"
printf '[daemon]\ninterval = 100ms\n\n[exporter]\nlisten = 127.0.0.1:0\n' >"$D/conf"

# a report's renderer waits, confined, while $D/hold exists (inspected below)
TOPDOWND_TEST_RENDER_HOLD="$D/hold" "$TOPDOWND" -f --no-priority -c "$D/conf" --socket "$SOCK" --database "$DB" \
	>"$LOG" 2>&1 &
DAEMON=$!
CLEANUP_PIDS=$DAEMON
check "the daemon starts and answers" wait_for 10 "$TDCTL" status --socket "$SOCK"
child() { pgrep -P "$DAEMON" -f -- "--privsep-$1"; }
FRONT=$(child front)
EXP=$(child exporter)
field() { awk -v k="$2:" '$1 == k { print $2 }' "/proc/$1/status"; }
want_uid=$(id -u topdown 2>/dev/null || echo 65534)
if ! id -u topdown >/dev/null 2>&1; then
	check_match "no 'topdown' user here: nobody, and the log says so" \
		"no user 'topdown' here: the front and the exporter run as nobody \(65534\)" "$(cat "$LOG")"
fi
for role in front exporter; do
	pid=$(child $role)
	pid=${pid:-0}
	check "the $role runs (pid $pid)" test "$pid" != 0
	check_eq "... as uid $want_uid, every uid" "$want_uid $want_uid $want_uid $want_uid" \
		"$(awk '$1 == "Uid:" { print $2, $3, $4, $5 }' "/proc/$pid/status")"
	check_eq "... CapEff, CapPrm, CapInh, CapAmb 0" \
		"0000000000000000 0000000000000000 0000000000000000 0000000000000000" \
		"$(field "$pid" CapEff) $(field "$pid" CapPrm) $(field "$pid" CapInh) $(field "$pid" CapAmb)"
	check_eq "... Seccomp: 2 (a filter), NoNewPrivs: 1" "2 1" "$(field "$pid" Seccomp) $(field "$pid" NoNewPrivs)"
	check_eq "... none of the monitor's counters, BPF objects or database" "" \
		"$(ls -l "/proc/$pid/fd" | grep -E 'perf_event|bpf|td\.db')"
done
check_eq "the monitor is root (it counts)" 0 "$(field "$DAEMON" Uid)"

# ---- the monitor has no listening socket --------------------------------------------
# its sockets' inodes against the listening ones of /proc/net/unix (flags: __SO_ACCEPTCON)
sockets_of() { ls -l "/proc/$1/fd" | sed -n 's/.*socket:\[\([0-9]*\)\]$/\1/p' | sort; }
awk 'NR > 1 && $4 == "00010000" { print $7 }' /proc/net/unix | sort >"$D/listening"
sockets_of "$DAEMON" >"$D/monitor"
sockets_of "${FRONT:-0}" >"$D/front"
check_eq "the monitor holds no listening unix socket (/proc/net/unix)" "" "$(comm -12 "$D/monitor" "$D/listening")"
check_eq "... the front holds one, the control socket's (the check can fail)" 1 "$(comm -12 "$D/front" "$D/listening" | wc -l)"
if command -v ss >/dev/null; then
	check_eq "ss: no listening socket, unix or TCP, is the monitor's" "" "$(ss -Hlxtnp | grep "pid=$DAEMON,")"
	check_match "ss: the front listens on the control socket" "$SOCK .*pid=$FRONT," "$(ss -Hlxp | grep "pid=$FRONT,")"
	check_match "ss: the exporter on its port" "127.0.0.1:[0-9]+ .*pid=$EXP," "$(ss -Hltnp | grep "pid=$EXP,")"
else
	skip "ss: no listening socket is the monitor's" "ss (iproute2) is not installed"
fi

# ---- the front killed while 100 clients connect: sessions intact ----------------------
sleep 60 &
ROOTPID=$!
CLEANUP_PIDS="$CLEANUP_PIDS $ROOTPID"
# the monitor's time waiting for a CPU so far (each task's /proc/PID/task/TID/schedstat, second
# field, ns: the kernel's run-queue wait), to tell a machine's load from the monitor held up
runq_wait() { cat /proc/"$DAEMON"/task/*/schedstat 2>/dev/null | awk '{ s += $2 } END { printf "%.0f", s }'; }
WAIT0=$(runq_wait)
S1=$("$TDCTL" attach "$ROOTPID" --socket "$SOCK" -I 100 2>/dev/null)
check_match "a session is attached" '^[0-9]+$' "$S1"
S1=${S1:-0}
intervals() { sql "$DB" "select count(*) from intervals where session_id = $1"; }
three() { test "$(intervals "$S1")" -ge 3; }
check "... and writes intervals" wait_for 10 three
"$CLIENT" "$SOCK" concurrent 100 >"$D/conc" 2>&1 &
CONC=$!
kill -9 "$FRONT"
wait "$CONC"
# started again once it said it serves (its socket bound), not once its pid exists
newfront() { n=$(child front); test -n "$n" && test "$n" != "$FRONT" && grep -q "the front started again (pid $n)" "$LOG"; }
check "the front killed with SIGKILL is started again" wait_for 10 newfront
check_match "... said in the log" "the front \(pid $FRONT\) killed by signal 9 .*: starting it again; the sessions go on" \
	"$(cat "$LOG")"
check_eq "... and serves 100 concurrent clients" 100 "$("$CLIENT" "$SOCK" concurrent 100)"
check_match "the session runs on, listed" "^ *$S1  attach .*PID $ROOTPID" "$("$TDCTL" list --socket "$SOCK")"
before=$(intervals "$S1")
more() { test "$(intervals "$S1")" -ge $((before + 3)); }
check "... and samples on" wait_for 10 more
# an interval over 200 ms at -I 100 is the monitor held up; what it waited for a CPU meanwhile
# (a loaded machine: other real-time benches, sanitizer builds) is not the kill's doing
WAIT1=$(runq_wait)
over=$(sql "$DB" "select coalesce(sum(end_ns - start_ns - 200000000), 0) from intervals
                  where session_id = $S1 and end_ns - start_ns > 200000000")
check "... no interval missed over the kill (none over 200 ms beyond the monitor's wait for a CPU: ${over} ns over, $((WAIT1 - WAIT0)) ns waited)" \
	test "$over" -le $((WAIT1 - WAIT0))
check_eq "... still running in the database" running "$(sql "$DB" "select status from sessions where id = $S1")"

kill -9 "$EXP"
newexp() { n=$(child exporter); test -n "$n" && test "$n" != "$EXP" && grep -q "the exporter started again" "$LOG"; }
check "the exporter killed is started again" wait_for 10 newexp
PORT=$(sed -n 's/.*the exporter started again (pid [0-9]*), serving metrics on 127.0.0.1:0 (port \([0-9]*\)).*/\1/p' "$LOG" | tail -1)
if command -v curl >/dev/null; then
	check_match "... and serves the session's metrics" "target=\"pid:$ROOTPID\"" "$(curl -s "http://127.0.0.1:${PORT:-1}/metrics")"
else
	skip "... and serves the session's metrics" "curl is not installed"
fi

# ---- a report is rendered by a process without privilege --------------------------------------
# the renderer opens the database as root, drops, then waits on $D/hold before
# it renders: seen in nanosleep (/proc/PID/syscall), its credentials are read
case $(uname -m) in
x86_64) sleeps='^(35|230) ' ;;
aarch64) sleeps='^(101|115) ' ;;
*) sleeps= ;;
esac
if [ -n "$sleeps" ]; then
	touch "$D/hold"
	"$TDCTL" report "$S1" --socket "$SOCK" >"$D/held.report" 2>&1 &
	REP=$!
	held() {
		R=$(pgrep -P "$DAEMON" -f -- "--render-report $S1 ")
		test -n "$R" && grep -Eq "$sleeps" "/proc/$R/syscall"
	}
	check "a report's renderer is started and waits before rendering" wait_for 20 held
	R=${R:-0}
	check_eq "... as uid $want_uid, every uid" "$want_uid $want_uid $want_uid $want_uid" \
		"$(awk '$1 == "Uid:" { print $2, $3, $4, $5 }' "/proc/$R/status")"
	check_eq "... no supplementary group" "" "$(field "$R" Groups)"
	check_eq "... CapEff, CapPrm, CapInh, CapAmb 0" \
		"0000000000000000 0000000000000000 0000000000000000 0000000000000000" \
		"$(field "$R" CapEff) $(field "$R" CapPrm) $(field "$R" CapInh) $(field "$R" CapAmb)"
	check_eq "... Seccomp: 2 (a filter), NoNewPrivs: 1" "2 1" "$(field "$R" Seccomp) $(field "$R" NoNewPrivs)"
	check_match "... holding the database it opened as root" "td\.db$" "$(ls -l "/proc/$R/fd")"
	check_eq "... which it could not open now (root's, mode $(stat -c %a "$DB"))" "640 0" \
		"$(stat -c %a "$DB") $(stat -c %u "$DB")"
	rm -f "$D/hold"
	wait "$REP"
	check_eq "... then renders the report: tdctl exits 0" 0 "$?"
	check_match "... with the session's report" "^Session $S1 \(attach, running\)" "$(head -1 "$D/held.report")"
else
	skip "a report's renderer is unprivileged" "no nanosleep number known for $(uname -m) here"
fi

# ---- the monitor killed takes the others down ----------------------------------------------
FRONT=$(child front)
EXP=$(child exporter)
kill -9 "$DAEMON"
wait "$DAEMON" 2>/dev/null
gone() { ! kill -0 "${FRONT:-0}" 2>/dev/null && ! kill -0 "${EXP:-0}" 2>/dev/null; }
check "the monitor killed: the front and the exporter end with it" wait_for 10 gone

# ---- a compromised front ------------------------------------------------------------------------
printf '[daemon]\ninterval = 100ms\n\n[schedule sys]\nevery = 60s\nduration = 30s\ninterval = 100ms\n' >"$D/conf2"
t2=$(date +%s%N)
EVIL_TARGET=$ROOTPID EVIL_SESSION=$S1 "$TOPDOWND" -f --no-priority -c "$D/conf2" --socket "$SOCK" --database "$DB" \
	--privsep-front-exe "$EVIL" >"$D/log2" 2>&1 &
DAEMON=$!
CLEANUP_PIDS="$DAEMON $ROOTPID"
done_evil() { grep -q "^evil: status after all that" "$D/log2"; }
check "the compromised front ran its requests" wait_for 20 done_evil
said() { sed -n "s/^evil: $1: //p" "$D/log2"; }
check_match "an attach to root's process for uid 65534: the kernel refuses" \
	"\"ok\":false,\"error\":\"uid 65534 may not count process $ROOTPID: the kernel refuses" \
	"$(said "attach root's process as uid 65534")"
check_match "an attach without the client's socket: refused" \
	'"ok":false,"error":"refused: no client socket came with the request"' "$(said "attach without a socket")"
check_match "... with the listening socket (its credentials are the front's at bind): refused" \
	'"ok":false,"error":"refused: the socket that came with the request is the listening socket' \
	"$(said "attach with the listening socket")"
check_match "... with a socketpair of its own: refused" \
	'"ok":false,"error":"refused: the socket that came with the request is not a connection to the control socket' \
	"$(said "attach with a socket of its own")"
check_match "... with a client end it connected itself: refused" \
	'"ok":false,"error":"refused: the socket that came with the request is not a connection to the control socket' \
	"$(said "attach with the client's own end")"
check_match "root's session's report for uid 65534: refused" "\"ok\":false,\"error\":\"no session $S1 of yours" \
	"$(said "report of root's session")"
check_match "... its detach" "\"ok\":false,\"error\":\"no running session $S1 of yours" "$(said "detach of root's session")"
check_match "... its tail" "\"ok\":false,\"error\":\"no running session $S1 of yours" "$(said "tail of root's session")"
check_match "... a reload" '"ok":false,"error":"only root or the admin group may reload' "$(said "reload")"
check_eq "8 malformed messages (version, length, type, op, cut short, two descriptors, oversized, another's type): 8 refused" \
	8 "$(grep -c "message from the front refused" "$D/log2")"
check_match "... each saying why in one line" "a message from the front refused: a message of version 9" "$(cat "$D/log2")"
check_match "the monitor answers after all that" '"ok":true' "$(said "status after all that")"
check_eq "no attach session was started" 0 "$(sql "$DB" "select count(*) from sessions where kind = 'attach' and started_ns >= $t2")"
run=$(sql "$DB" "select max(id) from sessions where schedule = 'sys' and started_ns >= $t2")
before=$(intervals "${run:-0}")
more2() { test "$(intervals "${run:-0}")" -ge $((before + 3)); }
check "the monitor samples on (schedule session ${run:-none})" wait_for 10 more2
kill -TERM "$DAEMON"
wait "$DAEMON"
check_eq "SIGTERM: exit 0" 0 "$?"
check "... the socket removed" test ! -e "$SOCK"
kill "$ROOTPID" 2>/dev/null
CLEANUP_PIDS=
finish
