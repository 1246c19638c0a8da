#!/bin/sh
# topdownd's watch mode on the busiest processes ([watch] top_processes,
# issue 35): the real daemon on a temporary socket and database, watching no
# cgroup (its root an empty group of the test's own) and the 3 processes that
# used the most CPU between two listings of /proc, level 1 of the test tree over
# software events (tests/data/live/soft-tree.td: counted with or without a
# PMU). A spinning process the test starts at nice -10 (nine times the CPU
# share of a process at nice 0 when the CPUs are contended) uses a CPU: it
# is among the busiest on an idle or a saturated host (the daemon takes a
# busier one's place only from one that used no CPU for 30 listings). Shown:
# it gets a watch session (an attach session on its PID, named by its
# program), whose counted threads are its own, whose stored level-1 value of an interval
# is the tree's formula over that interval's stored counts of its threads
# (Running = TC / (TC + 1e6 x CS + 1), soft-tree.td); the CPU time counted
# is within what the kernel accounts to the process (/proc/PID/stat). Then
# the disk fails for a second (tests/tools/fail_writes.so, as write_fail.sh):
# the watch sessions' shared transaction fails, and the process's session
# keeps its counts for the next interval written, which spans the failed ones.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_watch.sh"

[ "$(id -u)" = 0 ] || skip_all "the daemon attaches to any process as root here (as CI runs); not root"
command -v perl >/dev/null || skip_all "perl (the spinning process) is not installed"
watch_cgroups "td-watch-top-$$"
watch_dir
printf '%s\n' "[daemon]" "events_dir = $D/events" "" "[watch]" "enable = yes" "root = $root" "interval = 250ms" \
	"top_processes = 3" "max_cpu_percent = 100" >"$D/topdownd.conf"
"$TOPDOWND" --check-config -c "$D/topdownd.conf" >"$D/check" 2>&1
check_eq "--check-config accepts top_processes" "0" "$?"

perl -e 'setpriority(0, 0, -10); 1 while 1' &
BUSY=$!
CLEANUP_PIDS=$BUSY
# its program once the shell's child has run perl
SHELL_EXE=$(readlink "/proc/$$/exe")
check "the spinning process runs" wait_for 10 sh -c "[ \"\$(readlink /proc/$BUSY/exe)\" != '$SHELL_EXE' ]"
EXE=$(readlink "/proc/$BUSY/exe")
SHIM="$TD_BUILDDIR/tests/tools/fail_writes.so"
FLAG="$D/disk-full"
# ASan insists on coming first among the preloaded libraries; the shim is not instrumented
PRELOAD=
[ -f "$SHIM" ] && PRELOAD=$SHIM
LD_PRELOAD="$PRELOAD" TD_FAIL_DB="$DB" TD_FAIL_FLAG="$FLAG" ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0" \
	TD_PFM_MODEL=td_soft_tree "$TOPDOWND" -f -c "$D/topdownd.conf" --socket "$SOCK" --database "$DB" >"$D/log" 2>&1 &
DAEMON=$!
CLEANUP_PIDS="$CLEANUP_PIDS $DAEMON"
check "the daemon starts and answers" wait_for 10 "$TDCTL" status --socket "$SOCK"
watched() { sql "$DB" "select id from sessions where schedule = 'watch-process:$BUSY:$EXE'"; }
S=
found() { S=$(watched) && [ -n "$S" ]; }
check "the spinning process is watched (a session named watch-process:PID:PROGRAM)" wait_for 20 found
S=$(watched)
check_eq "... an attach session on its PID" "attach $BUSY" \
	"$(sql "$DB" "select kind || ' ' || target_pid from sessions where id = ${S:-0}")"
three() { [ "$(sql "$DB" "select count(*) from intervals where session_id = ${S:-0}")" -ge 3 ]; }
check "... which writes intervals" wait_for 20 three
check_eq "... counting the process's threads only" "0" \
	"$(sql "$DB" "select count(*) from targets where session_id = ${S:-0} and kind = 'thread' and pid != $BUSY")"

# an interval with the process's Running stored, against the formula over the counts of its threads
Q="with iv as (select i.id from intervals i join metrics m on m.interval_id = i.id
		join targets t on t.id = m.target_id and t.kind = 'process' and t.pid = $BUSY
		join metric_names n on n.id = m.metric_id and n.name = 'Running' and n.kind = 'node'
		where i.session_id = ${S:-0} order by i.seq desc limit 1 offset 1),
	c as (select e.name, sum(c.value) v from counts c join events e on e.id = c.event_id
		join targets t on t.id = c.thread_id and t.kind = 'thread' and t.pid = $BUSY
		where c.interval_id = (select id from iv) and e.file = 'soft-tree.td' group by e.name)
	select (select v from c where name = 'TC') || ' ' || (select v from c where name = 'CS') || ' ' ||
		(select m.value from metrics m join targets t on t.id = m.target_id and t.kind = 'process'
			and t.pid = $BUSY join metric_names n on n.id = m.metric_id and n.name = 'Running'
			and n.kind = 'node' where m.interval_id = (select id from iv))"
R=$(sql "$DB" "$Q")
set -- $R x x x
check "... its Running of an interval is TC / (TC + 1e6 x CS + 1) of its threads' counts (TC $1, CS $2: $3)" \
	awk -v tc="${1:-x}" -v cs="${2:-x}" -v r="${3:-x}" 'BEGIN {
		if (tc !~ /^[0-9]+$/ || cs !~ /^[0-9]+$/ || r == "x" || tc == 0) exit 1
		want = tc / (tc + 1e6 * cs + 1); d = r - want; if (d < 0) d = -d
		exit !(d <= 1e-9 * (want > 1e-3 ? want : 1e-3)) }'
if [ -n "$PRELOAD" ]; then
	: >"$FLAG"
	said() { grep -q "session $S: warning: cannot write interval .*disk is full; its counts are kept" "$D/log"; }
	check "the disk fails: the process's session says its counts are kept" wait_for 10 said
	sleep 1
	rm -f "$FLAG"
	spans() { grep -q "session $S: interval [0-9]* written: it holds the counts of the [0-9]* attempts\{0,1\} that failed" "$D/log"; }
	check "... then an interval holds the counts of the attempts that failed" wait_for 10 spans
	check "... the process's intervals are contiguous: one spans the failed ones" test "$(sql "$DB" "select count(*)
		from intervals a join intervals b on b.seq = a.seq + 1 and b.session_id = a.session_id
		where a.session_id = ${S:-0} and b.start_ns != a.end_ns")" = 0
	check "... one of them spans more than two periods" test "$(sql "$DB" "select count(*) from intervals
		where session_id = ${S:-0} and end_ns - start_ns > 500000000")" -ge 1
else
	skip "a disk that fails" "no $SHIM (built by make check)"
fi
kill "$DAEMON"
wait "$DAEMON"
check_eq "the daemon exits 0 on SIGTERM (under the sanitizers: nothing leaked)" "0" "$?"
# every TC counted is CPU time of the process (the kernel's accounting, read after its last interval: a tick's leeway)
CPU_TICKS=$(awk '{ print $14 + $15 }' "/proc/$BUSY/stat")
TC_ALL=$(sql "$DB" "select sum(c.value) from counts c join events e on e.id = c.event_id and e.name = 'TC'
	and e.file = 'soft-tree.td' join targets t on t.id = c.thread_id and t.kind = 'thread'
	join intervals i on i.id = c.interval_id where i.session_id = ${S:-0} and t.pid = $BUSY")
TCK=$(getconf CLK_TCK)
check "... and the CPU time it counted ($TC_ALL ns) is the process's ($CPU_TICKS ticks of 1/$TCK s after)" \
	awk -v tc="${TC_ALL:-0}" -v t="$CPU_TICKS" -v hz="$TCK" 'BEGIN { exit !(tc > 0 && tc <= (t + 1) * 1e9 / hz) }'
finish
