#!/bin/sh
# topdownd's [auto NAME] rules for real: the daemon on a temporary socket and
# database starts a session on each process that executes a matching
# program, and on no other: a rule by the file executed, one by the name
# within a cgroup (where cgroups can be made), one limited to one session
# at a time, and one matching a process that ran before the daemon started.
# Run twice: with the BPF exec watcher (where it loads) and with the /proc
# rescan (tracker = proc).
. "$(dirname "$0")/lib.sh"

TOPDOWND="$TD_BUILDDIR/src/topdownd/topdownd"
[ "$(id -u)" = 0 ] || skip_all "the daemon is started as root here (as CI runs); not root"

D="$WORK/d"
CLEANUP_PIDS=
mkdir "$D"
for name in exec-demo other-demo cg-demo limited-demo pre-demo; do
	cp "$DEMO" "$D/$name"
done

mnt=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
CG=
if [ -n "$mnt" ] && mkdir "$mnt/td-auto-$$" 2>/dev/null; then
	CG="$mnt/td-auto-$$"
fi
trap '[ -z "$CG" ] || rmdir "$CG" 2>/dev/null; finish_cleanup' EXIT

# session_of RULE PID: the id of the session rule RULE started on PID ("" none)
session_of() { sql "$DB" "select id from sessions where schedule = 'auto:$1' and target_pid = $2"; }

for tracker in bpf proc; do
	DB="$D/$tracker.db"
	SOCK="$D/$tracker.sock"
	# a process running before the daemon starts
	"$D/pre-demo" -t 1 -l 0 -e 0 -s 3 >/dev/null 2>&1 &
	PRE=$!
	CLEANUP_PIDS="$CLEANUP_PIDS $PRE"
	{
		printf '[daemon]\ninterval = 100ms\ntracker = %s\n' "$tracker"
		printf '[auto byexec]\nexec = */exec-demo\ninterval = 200ms\n'
		printf '[auto limited]\nexec = */limited-demo\nmax_sessions = 1\n'
		printf '[auto before]\ncomm = pre-d*\n'
		[ -z "$CG" ] || printf '[auto bycg]\ncomm = cg-demo\ncgroup = %s\n' "$CG"
	} >"$D/$tracker.conf"
	"$TOPDOWND" -f -c "$D/$tracker.conf" --socket "$SOCK" --database "$DB" >"$D/$tracker.log" 2>&1 &
	DPID=$!
	CLEANUP_PIDS="$CLEANUP_PIDS $DPID"
	if ! wait_for 10 test -S "$SOCK"; then
		if [ $tracker = bpf ] && grep -q "BPF exec watcher does not load" "$D/$tracker.log"; then
			kill "$PRE" 2>/dev/null
			skip "auto-attach with the BPF exec watcher" "$(tail -n 1 "$D/$tracker.log")"
			continue
		fi
		not_ok "$tracker: topdownd starts: $(tail -n 3 "$D/$tracker.log")"
		continue
	fi
	check_match "$tracker: the daemon says how execs are watched" \
		"auto-attach: execs watched by $([ $tracker = bpf ] && echo BPF || echo 'rescanning /proc')" "$(cat "$D/$tracker.log")"

	"$D/exec-demo" -t 2 -l 0 -e 0 -s 1 >/dev/null 2>&1 &
	A=$!
	"$D/other-demo" -t 1 -l 0 -e 0 -s 1 >/dev/null 2>&1 &
	B=$!
	"$D/limited-demo" -t 1 -l 0 -e 0 -s 2 >/dev/null 2>&1 &
	L1=$!
	"$D/limited-demo" -t 1 -l 0 -e 0 -s 2 >/dev/null 2>&1 &
	L2=$!
	if [ -n "$CG" ]; then
		"$D/cg-demo" -t 1 -l 0 -e 0 -s 1 >/dev/null 2>&1 &
		C_OUT=$!
		sh -c "echo \$\$ >'$CG/cgroup.procs' && exec '$D/cg-demo' -t 1 -l 0 -e 0 -s 1" >/dev/null 2>&1 &
		C_IN=$!
	fi
	wait "$A" "$B" "$L1" "$L2" ${C_OUT:+"$C_OUT"} ${C_IN:+"$C_IN"} "$PRE"
	ended() { test "$(sql "$DB" "select count(*) from sessions where status = 'running'")" = 0; }
	check "$tracker: every auto session ends with its process" wait_for 10 ended

	S=$(session_of byexec "$A")
	check_match "$tracker: a session followed the process that executed */exec-demo" '^[0-9]+$' "$S"
	check_match "... an attach of that process, completed when it exited, at the rule's interval" \
		"^attach\|completed\|200\|target exited" \
		"$(sql "$DB" "select kind || '|' || status || '|' || interval_ms || '|' || message from sessions where id = ${S:-0}")"
	check_eq "... with its three threads listed (main, compute-0, memory-1)" 3 \
		"$(sql "$DB" "select count(*) from threads where session_id = ${S:-0} and tid > 0")"
	check "... sampled every 200 ms over its second: 3 intervals or more" \
		test "$(sql "$DB" "select count(*) from intervals where session_id = ${S:-0}")" -ge 3
	check_eq "$tracker: no session on a program no rule names" 0 \
		"$(sql "$DB" "select count(*) from sessions where target_pid = $B")"
	check_eq "$tracker: max_sessions = 1: one of the two limited-demo processes followed" 1 \
		"$(sql "$DB" "select count(*) from sessions where schedule = 'auto:limited'")"
	check_match "... and the other said not followed" \
		"auto limited: process ($L1|$L2) \(limited-demo\) not followed: this rule runs 1 session already \(max_sessions\)" \
		"$(cat "$D/$tracker.log")"
	check_match "$tracker: the process running before the daemon started is followed" '^[0-9]+$' \
		"$(session_of before "$PRE")"
	if [ -n "$CG" ]; then
		check_match "$tracker: cg-demo in the rule's cgroup is followed" '^[0-9]+$' "$(session_of bycg "$C_IN")"
		check_eq "... cg-demo outside it is not" 0 "$(sql "$DB" "select count(*) from sessions where target_pid = $C_OUT")"
	else
		skip "$tracker: a rule by cgroup" "no cgroup v2 hierarchy, or no cgroup can be made under it (not root?)"
	fi
	kill "$DPID"
	wait "$DPID"
	check_eq "$tracker: topdownd stops cleanly on SIGTERM" 0 "$?"
done
finish
