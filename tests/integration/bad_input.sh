#!/bin/sh
# Every mistake a user can make on run/attach gets one line on stderr saying
# what is wrong and what to do, a non-zero exit, and no session that looks
# complete.
. "$(dirname "$0")/lib.sh"

# expect_error DESCRIPTION EXIT-STATUS REGEX COMMAND...
expect_error() {
	desc=$1 want=$2 re=$3
	shift 3
	"$@" >"$WORK/out" 2>"$WORK/err"
	rc=$?
	lines=$(wc -l <"$WORK/err" | tr -d ' ')
	if [ "$rc" = "$want" ] && [ "$lines" = 1 ] && grep -Eq -- "$re" "$WORK/err"; then
		ok "$desc"
	else
		not_ok "$desc (exit $rc, want $want; $lines line(s): $(head -c 300 "$WORK/err"))"
	fi
}

cd "$WORK" || exit 1
DB="$WORK/b.db"
expect_error "nonexistent PID" 1 "^tdctl: no process with PID 4000000: check the PID" "$TDCTL" attach 4000000 -d "$DB"
expect_error "PID that is not a number" 2 "^tdctl: bad PID 'abc': give the number of a running process" "$TDCTL" attach abc
expect_error "no PID" 2 "^tdctl: attach: no PID given" "$TDCTL" attach
expect_error "command that does not exist" 127 "^tdctl: command 'no-such-command-td' not found: check its name" \
	"$TDCTL" run -d "$DB" -- no-such-command-td
expect_error "command path that does not exist" 127 "not found" "$TDCTL" run -d "$DB" -- /nonexistent/cmd
expect_error "command that is a directory" 126 "^tdctl: cannot execute '/': not a regular file: give an executable file" \
	"$TDCTL" run -d "$DB" -- /
expect_error "no command" 2 "^tdctl: run: no command given" "$TDCTL" run -d "$DB"
expect_error "interval 0" 2 "^tdctl: bad interval '-I 0': give milliseconds between 10 and 3600000" \
	"$TDCTL" run -I 0 -d "$DB" -- true
expect_error "interval not a number" 2 "^tdctl: bad interval '-I 1s'" "$TDCTL" run -I 1s -d "$DB" -- true
expect_error "bad duration" 2 "^tdctl: bad duration '--duration -3'" "$TDCTL" attach 1 --duration -3
expect_error "database in a directory that does not exist" 1 \
	"^tdctl: cannot create database '/nonexistent-dir/x.db' .*check that the directory exists and is writable" \
	"$TDCTL" run -d /nonexistent-dir/x.db -- true
printf 'not a database, just text\n' >"$WORK/text.db"
expect_error "database that is not SQLite" 1 "^tdctl: '$WORK/text.db' is not a SQLite database: give another -d file" \
	"$TDCTL" run -d "$WORK/text.db" -- true
check_eq "the text file was left as it was" "not a database, just text" "$(cat "$WORK/text.db")"
sqlite3 "$WORK/foreign.db" "create table songs(title text)"
expect_error "SQLite database of another program" 1 "is a SQLite database of another program, not topdown's" \
	"$TDCTL" run -d "$WORK/foreign.db" -- true
check_eq "the foreign database was not touched" "songs" "$(sql "$WORK/foreign.db" "select group_concat(name) from sqlite_master")"
cp "$WORK/foreign.db" "$WORK/newer.db"
sqlite3 "$WORK/newer.db" "pragma application_id=$((0x5444574e)); pragma user_version=99"
expect_error "database of a newer topdown" 1 "has schema version 99, newer than this tdctl understands \(3\): upgrade topdown" \
	"$TDCTL" run -d "$WORK/newer.db" -- true
expect_error "unknown command" 2 "^tdctl: unknown command 'frobnicate'" "$TDCTL" frobnicate

if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	chmod 755 "$WORK"
	expect_error "a PID the user may not trace" 1 \
		"^tdctl: not allowed to monitor PID 1: it belongs to uid 0; run tdctl as that user or as root" \
		setpriv --reuid=nobody --regid=nogroup --clear-groups "$TDCTL" attach 1 -d "$WORK/nobody.db"
else
	expect_error "a PID the user may not trace" 1 "^tdctl: not allowed to monitor PID 1" "$TDCTL" attach 1 -d "$DB"
fi

# none of the failures above left a session behind; an exec failure after the
# fork would be recorded as failed, never as completed
if [ -e "$DB" ]; then
	check_eq "no session recorded for refused input" 0 "$(sql "$DB" "select count(*) from sessions")"
else
	ok "no database created for refused input"
fi
finish
