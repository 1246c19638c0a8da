#!/bin/sh
# The sampler keeps its clock on a saturated machine (issue 16 item 4):
# tdctl raises its sampling thread to SCHED_FIFO where it may (else a
# negative nice value), says so, and the target it starts does not inherit
# it (SCHED_RESET_ON_FORK): the command and every thread it creates run at
# the test's own policy and nice value, read from /proc/PID/sched. With
# the CPUs saturated by the target's busy threads, a session at -I 50 then
# stores every interval but at most one. --no-priority leaves the priority
# alone. topdownd raises its loop's the same way at start (its log says so)
# and leaves it with --no-priority. Where the priority cannot be raised (no root, no CAP_SYS_NICE),
# the checks that need it are skipped with the reason tdctl gives.
. "$(dirname "$0")/lib.sh"

# sched_field FILE NAME: a field of a /proc/.../sched file ("policy", "prio")
sched_field() { awk -v k="$2" '$1 == k { print $3 }' "$1" 2>/dev/null; }

my_policy=$(sched_field /proc/$$/sched policy)
my_prio=$(sched_field /proc/$$/sched prio)
[ -n "$my_policy" ] && [ -n "$my_prio" ] || skip_all "/proc/PID/sched has no policy or prio field (CONFIG_SCHED_DEBUG off)"

# ---- the priority, and what the target inherits of it --------------------------------
DB="$WORK/p.db"
"$TDCTL" run -I 50 -d "$DB" -- "$DEMO" -t 3 -l 0 -e 0 -s 2 -r "$WORK/ready" >/dev/null 2>"$WORK/err" &
T=$!
CLEANUP_PIDS=$T
check "the target's threads exist" wait_for 20 test -s "$WORK/ready"
W=$(ps -o pid= --ppid "$T" | tr -d ' ')
sampler_policy=$(sched_field "/proc/$T/sched" policy)
sampler_prio=$(sched_field "/proc/$T/sched" prio)
threads=0 inherited=0
for f in /proc/"$W"/task/*/sched; do
	threads=$((threads + 1))
	[ "$(sched_field "$f" policy):$(sched_field "$f" prio)" = "$my_policy:$my_prio" ] || inherited=$((inherited + 1))
done
wait "$T"
check_eq "the run exits 0" 0 "$?"
CLEANUP_PIDS=
said=$(sed -n 's/^tdctl: note: \(sampler at .*\)/\1/p' "$WORK/err")
check_match "one note says what the sampler got" "^sampler at (real-time priority SCHED_FIFO 1 \(|nice -[0-9]+ \(|normal priority: raising it is not permitted)" "$said"
check_eq "the target's 4 threads (main and 3 workers) were listed in /proc" 4 "$threads"
check_eq "none of them runs at the sampler's priority: each has the test's policy $my_policy and prio $my_prio" 0 "$inherited"
case $said in
"sampler at real-time priority SCHED_FIFO 1 ("*)
	# prio in /proc/PID/sched is the kernel's: 99 - rt_priority for a real-time task
	check_eq "tdctl's sampling thread ran at SCHED_FIFO (policy 1), priority 1 (prio 98)" "1:98" "$sampler_policy:$sampler_prio"
	;;
"sampler at nice "*)
	nice=$(printf '%s\n' "$said" | sed 's/^sampler at nice \(-[0-9]*\).*/\1/')
	check_eq "tdctl's sampling thread ran at SCHED_OTHER with nice $nice (prio $((120 + nice)))" \
		"0:$((120 + nice))" "$sampler_policy:$sampler_prio"
	;;
*)
	skip "the sampling thread's priority" "tdctl could not raise it here: $said"
	;;
esac

# ---- --no-priority ---------------------------------------------------------------------
rm -f "$WORK/ready"
"$TDCTL" run --no-priority -I 50 -d "$DB" -- "$DEMO" -t 1 -l 0 -e 0 -s 1 -r "$WORK/ready" >/dev/null 2>"$WORK/err" &
T=$!
CLEANUP_PIDS=$T
wait_for 20 test -s "$WORK/ready"
np=$(sched_field "/proc/$T/sched" policy):$(sched_field "/proc/$T/sched" prio)
wait "$T"
check_eq "--no-priority: the run exits 0" 0 "$?"
CLEANUP_PIDS=
check_eq "--no-priority: tdctl kept the test's policy and prio" "$my_policy:$my_prio" "$np"
check_eq "--no-priority: no note about the sampler" "" "$(grep 'note: sampler at' "$WORK/err")"

# ---- topdownd: its loop samples every session ----------------------------------------
TOPDOWND="$TD_BUILDDIR/src/topdownd/topdownd"
: >"$WORK/topdownd.conf"
# daemon_policy [OPTION]: "policy:prio" of a topdownd started with OPTION, once it answers
daemon_policy() {
	"$TOPDOWND" -f -c "$WORK/topdownd.conf" --socket "$WORK/sock" --database "$WORK/d.db" "$@" >"$WORK/dlog" 2>&1 &
	D=$!
	CLEANUP_PIDS=$D
	wait_for 10 "$TDCTL" status --socket "$WORK/sock" >/dev/null 2>&1
	echo "$(sched_field "/proc/$D/sched" policy):$(sched_field "/proc/$D/sched" prio)"
	kill "$D"
	wait "$D" 2>/dev/null
	CLEANUP_PIDS=
}
if [ "$(id -u)" = 0 ]; then
	got=$(daemon_policy)
	dsaid=$(sed -n 's/^topdownd: \(sampler at .*\)/\1/p' "$WORK/dlog")
	case $dsaid in
	"sampler at real-time priority SCHED_FIFO 1 ("*)
		check_eq "topdownd: its loop runs at SCHED_FIFO 1, as its log says" "1:98" "$got" ;;
	"")
		not_ok "topdownd: its log says what the sampler got: $(head -c 300 "$WORK/dlog")" ;;
	*)
		skip "topdownd: its loop runs at SCHED_FIFO 1" "it could not raise it here: $dsaid" ;;
	esac
	check_eq "topdownd --no-priority: the test's policy and prio" "$my_policy:$my_prio" "$(daemon_policy --no-priority)"
else
	skip "topdownd's priority" "the daemon is started as root here; not root"
fi

# ---- saturated CPUs: every interval but at most one ------------------------------------
case $said in
"sampler at real-time priority SCHED_FIFO 1 ("*) ;;
*)
	skip "under saturated CPUs, every interval is stored" "the priority could not be raised to SCHED_FIFO here: $said"
	finish
	;;
esac
busy=$((8 * $(nproc)))
rm -f "$WORK/ready"
# busy threads (compute, memory, branchy) and a few that sleep 1 ms: the CPUs stay saturated
"$DEMO" -t "$busy" -l 0 -e 0 -s 30 -r "$WORK/ready" >/dev/null 2>&1 &
W=$!
CLEANUP_PIDS=$W
wait_for 20 test -s "$WORK/ready"
DB2="$WORK/s.db"
"$TDCTL" attach "$W" -I 50 --duration 2 -d "$DB2" -q 2>"$WORK/err2"
check_eq "saturated: the attach exits 0" 0 "$?"
load=$(cut -d' ' -f1 /proc/loadavg)
stored=$(sql "$DB2" "select count(*) from intervals")
# 2 s of 50 ms periods: 40 are due (the final read may add one more)
check "saturated ($busy busy threads on $(nproc) CPUs, load $load): $stored intervals of the 40 due stored, at most one missing" \
	test "$stored" -ge 39
late=$(sql "$DB2" "select message from sessions" | sed -n 's/.*; \([0-9]*\) interval periods\{0,1\} of 50 ms not read on time.*/\1/p')
check "saturated: at most one period read late (${late:-0}, from the session's message)" test "${late:-0}" -le 1
check "saturated: the target's $((busy + 1)) threads listed" \
	test "$(sql "$DB2" "select count(*) from targets where kind = 'thread' and tid != 0")" -eq $((busy + 1))
kill "$W"
wait "$W" 2>/dev/null
CLEANUP_PIDS=
finish
