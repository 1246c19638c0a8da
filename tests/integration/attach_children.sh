#!/bin/sh
# tdctl attach follows the process and what it starts later — not the
# children it already had (man tdctl). Before, the first scan took every
# running process for new, so `attach 1` followed every daemon init had
# started. A shell with a child started before the attach and one after:
# only the later one (and the shell) become targets. With --children, the
# descendants it has at attach (a child and its own child) are followed too.
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

# ---- --children: the descendants it has now, at any depth -----------------------
DB="$WORK/c.db"
mkdir "$WORK/c"
sh -c 'sh -c "sleep 30 & echo \$! >\"\$1/grand\"; wait" sh "$1" & echo $! >"$1/child"
	while [ ! -e "$1/stop" ]; do sleep 0.05; done
	kill $(cat "$1/child") $(cat "$1/grand")' sh "$WORK/c" &
parent=$!
CLEANUP_PIDS=$parent
check "the child and grandchild run" wait_for 5 test -s "$WORK/c/grand"
"$TDCTL" attach "$parent" --children -q -I 100 --duration 1 -d "$DB" >/dev/null 2>"$WORK/err"
check_eq "attach --children exits 0" 0 "$?"
: >"$WORK/c/stop"
child=$(cat "$WORK/c/child") grand=$(cat "$WORK/c/grand")
check_eq "--children: the shell, its child and its grandchild are followed" "1|1|1" \
	"$(sql "$DB" "select count(*) > 0 from targets where kind = 'thread' and pid = $parent;
		select count(*) > 0 from targets where kind = 'thread' and pid = $child;
		select count(*) > 0 from targets where kind = 'thread' and pid = $grand" | tr '\n' '|' | sed 's/|$//')"
err=$("$TDCTL" run --children -d "$DB" -- true 2>&1)
check_eq "--children on run: exit 2 and one line" "2 1" "$? $(printf '%s\n' "$err" | wc -l)"
wait "$parent" 2>/dev/null
CLEANUP_PIDS=
finish
