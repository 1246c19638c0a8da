#!/bin/sh
# tdctl attach follows the process and what it starts later — not the
# children it already had (man tdctl). Before, the first scan took every
# running process for new, so `attach 1` followed every daemon init had
# started. A shell with a child started before the attach and one after:
# only the later one (and the shell) become targets.
. "$(dirname "$0")/lib.sh"

DB="$WORK/a.db"
sh -c 'sleep 30 & echo $! >"$1/pre"
	while [ ! -e "$1/go" ]; do sleep 0.05; done
	sleep 30 & echo $! >"$1/post"
	while [ ! -e "$1/stop" ]; do sleep 0.05; done
	kill $(cat "$1/pre") $(cat "$1/post")' sh "$WORK" &
parent=$!
CLEANUP_PIDS=$parent
check "the parent's first child runs" wait_for 5 test -s "$WORK/pre"
"$TDCTL" attach "$parent" -q -I 100 --duration 3 -d "$DB" >/dev/null 2>"$WORK/err" &
attach=$!
CLEANUP_PIDS="$parent $attach"
two_intervals() { test "$(sql "$DB" "select count(*) from intervals" 2>/dev/null || echo 0)" -ge 2; }
check "the attach samples" wait_for 10 two_intervals
: >"$WORK/go"
check "the parent starts its second child" wait_for 5 test -s "$WORK/post"
wait $attach
check_eq "attach exits 0" 0 "$?"
: >"$WORK/stop"
pre=$(cat "$WORK/pre") post=$(cat "$WORK/post")
check_eq "the shell is followed" 1 "$(sql "$DB" "select count(*) > 0 from targets where kind = 'thread' and pid = $parent")"
check_eq "the child started after the attach is followed" 1 \
	"$(sql "$DB" "select count(*) > 0 from targets where kind = 'thread' and pid = $post")"
check_eq "the child it already had is not" 0 "$(sql "$DB" "select count(*) from targets where pid = $pre")"
finish
