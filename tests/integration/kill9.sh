#!/bin/sh
# kill -9 of tdctl in the middle of a run leaves a database that opens, passes
# integrity_check and shows the session as interrupted with the intervals
# written so far. Then kill -9 at any moment (issue 18): trials spread over
# the first 1.5 s (see delay) of 'tdctl run', 'tdctl attach' and topdownd (creating the
# database, opening counters, the first intervals, steady state), each on a
# fresh database: after each, the database (when it exists) passes
# integrity_check, every interval has its counts, 'tdctl sessions' reads it,
# and a new session written to it completes.
#   TD_KILL9_TRIALS=N  trials in all, split across the three (default 24;
#                      100 takes about two minutes here)
. "$(dirname "$0")/lib.sh"

DB="$WORK/k.db"
"$TDCTL" run -I 100 -d "$DB" -- "$DEMO" -t 2 -l 0 -e 0 -s 30 >/dev/null 2>&1 &
TPID=$!
CLEANUP_PIDS="$TPID"
wait_for 20 sh -c "[ \"\$(sqlite3 '$DB' 'select count(*) from intervals' 2>/dev/null)\" -ge 5 ]" ||
	not_ok "intervals are being written"
CHILD=$(sql "$DB" "select target_pid from sessions")
CLEANUP_PIDS="$TPID $CHILD"
kill -9 "$TPID"
wait "$TPID" 2>/dev/null
kill -9 "$CHILD" 2>/dev/null

check_eq "the database passes integrity_check" ok "$(sql "$DB" "pragma integrity_check")"
check_eq "the session still says running before anyone looks" running "$(sql "$DB" "select status from sessions")"
n=$(sql "$DB" "select count(*) from intervals")
check "intervals written before the kill are kept" test "$n" -ge 5
check_eq "every kept interval has its counts" 0 \
	"$(sql "$DB" "select count(*) from intervals i where not exists (select 1 from counts c where c.interval_id=i.id)")"
out=$("$TDCTL" sessions -d "$DB")
check_eq "tdctl sessions exits 0" 0 "$?"
check_match "tdctl sessions shows the session as interrupted" "^ +1 +run +interrupted .* $n int " "$out"
check_match "and says why" "collector stopped without closing the session" "$out"
check_eq "the status is now stored as interrupted" interrupted "$(sql "$DB" "select status from sessions")"
check "the interrupted session has an end time from its last interval" test \
	"$(sql "$DB" "select ended_ns = (select max(end_ns) from intervals) from sessions")" = 1

# a new run in the same database still works and leaves the old one alone
"$TDCTL" run -q -d "$DB" -- true 2>/dev/null
check_eq "a new session after the crash completes" "interrupted completed" \
	"$(sql "$DB" "select group_concat(status, ' ') from (select status from sessions order by id)")"

# ---- kill -9 at any moment ---------------------------------------------------
TOPDOWND="$TD_BUILDDIR/src/topdownd/topdownd"
trials=${TD_KILL9_TRIALS:-24}
per_mode=$(((trials + 2) / 3))
"$DEMO" -t 2 -l 0 -e 0 -s 600 >/dev/null 2>&1 &
TARGET=$!
CLEANUP_PIDS="$TARGET"

# after_kill MODE DB: the checks on what a kill left; one line of diagnosis
# per failure, and the trial's phase (how far the session got) in $phase
after_kill() {
	phase=none
	if [ -s "$2" ]; then
		r=$(sql "$2" "pragma integrity_check" 2>&1)
		[ "$r" = ok ] || { echo "# $1 $2: integrity_check: $r"; bad=$((bad + 1)); }
		n=$(sql "$2" "select count(*) from intervals" 2>/dev/null)
		phase=${n:-schema}
		r=$(sql "$2" "select count(*) from intervals i where not exists (select 1 from counts c where c.interval_id = i.id)" 2>&1)
		[ "$r" = 0 ] || [ -z "$n" ] || { echo "# $1 $2: intervals without counts: $r"; bad=$((bad + 1)); }
		if [ -n "$n" ]; then
			"$TDCTL" sessions -d "$2" >/dev/null 2>"$2.err" ||
				{ echo "# $1 $2: tdctl sessions: $(cat "$2.err")"; bad=$((bad + 1)); }
		else
			# killed before the schema was committed: a database with
			# no topdown tables, which tdctl says (and exits 1)
			"$TDCTL" sessions -d "$2" >/dev/null 2>"$2.err"
			[ $? = 1 ] && grep -q "holds no topdown data: record a session first" "$2.err" ||
				{ echo "# $1 $2: tdctl sessions on a database without a schema: $(cat "$2.err")"; bad=$((bad + 1)); }
		fi
	fi
	"$TDCTL" run -q -d "$2" -- true >/dev/null 2>"$2.err" &&
		[ "$(sql "$2" "select status from sessions order by id desc limit 1")" = completed ] ||
		{ echo "# $1 $2: a new session: $(cat "$2.err")"; bad=$((bad + 1)); }
	phases="$phases $phase"
}

# delay K: the Kth trial's wait before the kill: 0, then 2 ms to 1.5 s in a
# geometric series (the early phases, creating the database and opening the
# counters, last tens of milliseconds; the intervals, seconds)
delay() {
	awk -v k="$1" -v n="$per_mode" 'BEGIN { printf "%.3f", k == 0 ? 0 : 0.002 * exp(log(750) * (k - 1) / (n > 2 ? n - 2 : 1)) }'
}

# summary MODE: one check per mode, and how far the killed sessions had got
summary() {
	none=0 schema=0 zero=0 some=0
	for p in $phases; do
		case $p in
		none) none=$((none + 1)) ;;
		schema) schema=$((schema + 1)) ;;
		0) zero=$((zero + 1)) ;;
		*) some=$((some + 1)) ;;
		esac
	done
	echo "# $1: $per_mode kills: $none before the database existed, $schema while it was created," \
		"$zero before the first interval, $some with intervals stored"
	check_eq "$1: $per_mode kill -9 trials leave a sound database and a new session works" 0 "$bad"
}

bad=0 phases=
k=0
while [ $k -lt "$per_mode" ]; do
	db="$WORK/run$k.db"
	"$TDCTL" run -I 100 -d "$db" -q -- "$DEMO" -t 2 -l 0 -e 0 -s 30 >/dev/null 2>&1 &
	pid=$!
	sleep "$(delay $k)"
	child=$(pgrep -P "$pid" 2>/dev/null)
	kill -9 "$pid"
	wait "$pid" 2>/dev/null
	[ -z "$child" ] || kill -9 $child 2>/dev/null
	after_kill run "$db"
	k=$((k + 1))
done
summary "tdctl run"

bad=0 phases=
k=0
while [ $k -lt "$per_mode" ]; do
	db="$WORK/attach$k.db"
	"$TDCTL" attach "$TARGET" -I 100 -d "$db" -q >/dev/null 2>&1 &
	pid=$!
	sleep "$(delay $k)"
	kill -9 "$pid"
	wait "$pid" 2>/dev/null
	after_kill attach "$db"
	k=$((k + 1))
done
summary "tdctl attach"

if [ "$(id -u)" = 0 ]; then
	bad=0 phases=
	k=0
	while [ $k -lt "$per_mode" ]; do
		db="$WORK/daemon$k.db"
		"$TOPDOWND" -f --socket "$WORK/sock" --database "$db" >/dev/null 2>&1 &
		pid=$!
		CLEANUP_PIDS="$TARGET $pid"
		# the attach request once the daemon answers (early kills come first)
		( wait_for 5 "$TDCTL" status --socket "$WORK/sock" >/dev/null &&
			"$TDCTL" attach "$TARGET" --socket "$WORK/sock" -I 100 >/dev/null 2>&1 ) &
		client=$!
		sleep "$(delay $k)"
		kill -9 "$pid"
		wait "$pid" 2>/dev/null
		wait "$client" 2>/dev/null
		rm -f "$WORK/sock"
		after_kill daemon "$db"
		k=$((k + 1))
	done
	CLEANUP_PIDS="$TARGET"
	summary topdownd
else
	skip "topdownd: kill -9 trials" "the daemon is started as root here; not root"
fi
kill -9 "$TARGET"
finish
