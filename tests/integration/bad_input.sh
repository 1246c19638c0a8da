#!/bin/sh
# Every mistake a user can make on run/attach gets one line on stderr saying
# what is wrong and what to do, a non-zero exit, and no session that looks
# complete: bad PIDs, commands, intervals, databases (missing directory, not
# SQLite, foreign, newer, not writable by the user), and, as root where the
# sysctl can be written, perf_event_paranoid too high for an unprivileged user.
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
gone=$(free_pid)
expect_error "nonexistent PID ($gone, a reaped child's)" 1 "^tdctl: no process with PID $gone: check the PID" "$TDCTL" attach "$gone" -d "$DB"
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
	"^tdctl: cannot create database '/nonexistent-dir/x.db': directory '/nonexistent-dir' does not exist: create it or give another -d FILE\$" \
	"$TDCTL" run -d /nonexistent-dir/x.db -- true
printf 'not a database, just text\n' >"$WORK/text.db"
expect_error "database that is not SQLite" 1 "^tdctl: '$WORK/text.db' is not a readable topdown database \\(file is not a database\\): try 'sqlite3 $WORK/text.db .recover'" \
	"$TDCTL" run -d "$WORK/text.db" -- true
check_eq "the text file was left as it was" "not a database, just text" "$(cat "$WORK/text.db")"
sqlite3 "$WORK/foreign.db" "create table songs(title text)"
expect_error "SQLite database of another program" 1 "is a SQLite database of another program, not topdown's" \
	"$TDCTL" run -d "$WORK/foreign.db" -- true
check_eq "the foreign database was not touched" "songs" "$(sql "$WORK/foreign.db" "select group_concat(name) from sqlite_master")"
cp "$WORK/foreign.db" "$WORK/newer.db"
sqlite3 "$WORK/newer.db" "pragma application_id=$((0x5444574e)); pragma user_version=99"
expect_error "database of a newer topdown" 1 "has schema version 99, newer than this tdctl understands \(13\): upgrade topdown" \
	"$TDCTL" run -d "$WORK/newer.db" -- true
expect_error "unknown command" 2 "^tdctl: unknown command 'frobnicate'" "$TDCTL" frobnicate

if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	chmod 755 "$WORK"
	expect_error "a PID the user may not trace" 1 \
		"^tdctl: not allowed to monitor PID 1: it belongs to uid 0; run tdctl as that user or as root" \
		as_nobody attach 1 -d "$WORK/nobody.db"
else
	expect_error "a PID the user may not trace" 1 "^tdctl: not allowed to monitor PID 1" "$TDCTL" attach 1 -d "$DB"
fi

# databases this user cannot write: as nobody when run as root (permissions do
# not stop root), else as this user; files and directories made here
if [ "$(id -u)" != 0 ] || command -v setpriv >/dev/null; then
	as_user() {
		if [ "$(id -u)" = 0 ]; then as_nobody "$@"; else "$TDCTL" "$@"; fi
	}
	chmod 755 "$WORK"
	mkdir "$WORK/rodir" "$WORK/side"
	"$TDCTL" run -q -d "$WORK/rodir/ro.db" -- true 2>/dev/null
	"$TDCTL" run -q -d "$WORK/side/s.db" -- true 2>/dev/null
	: >"$WORK/rodir/empty.db"
	touch "$WORK/side/s.db-wal" "$WORK/side/s.db-shm"
	chmod 444 "$WORK/rodir/ro.db" "$WORK/side/s.db-wal" "$WORK/side/s.db-shm"
	chmod 666 "$WORK/rodir/empty.db" "$WORK/side/s.db"
	chmod 555 "$WORK/rodir"
	chmod 777 "$WORK/side"
	expect_error "database file not writable" 1 \
		"^tdctl: cannot write database '$WORK/rodir/ro.db': the file is not writable by this user: give a writable -d FILE or fix its permissions\$" \
		as_user run -d "$WORK/rodir/ro.db" -- true
	expect_error "new database in a directory not writable" 1 \
		"^tdctl: cannot create database '$WORK/rodir/new.db': directory '$WORK/rodir' is not writable by this user .*: give -d FILE in a writable directory or fix the directory's permissions\$" \
		as_user run -d "$WORK/rodir/new.db" -- true
	expect_error "writable database file in a directory not writable (no room for -wal, -shm)" 1 \
		"^tdctl: cannot write database '$WORK/rodir/empty.db': directory '$WORK/rodir' is not writable by this user \(SQLite keeps FILE-wal and FILE-shm beside the database\)" \
		as_user run -d "$WORK/rodir/empty.db" -- true
	expect_error "database whose -wal and -shm files are not writable" 1 \
		"^tdctl: cannot write database '$WORK/side/s.db': '$WORK/side/s.db-(wal|shm)' beside it is not writable by this user: give a writable -d FILE or fix that file's permissions\$" \
		as_user run -d "$WORK/side/s.db" -- true
	check_eq "the unwritable databases keep their one session, the empty file stays empty" "1|1|0" \
		"$(sql "$WORK/rodir/ro.db" "select count(*) from sessions")|$(sql "$WORK/side/s.db" "select count(*) from sessions")|$(wc -c <"$WORK/rodir/empty.db" | tr -d ' ')"
	check "no new database was created in the directory not writable" test ! -e "$WORK/rodir/new.db"
	chmod 755 "$WORK/rodir" # for the cleanup
else
	skip "databases an unprivileged user cannot write" "run as root without setpriv (util-linux): root is not stopped by file modes"
fi

# perf_event_paranoid too high for an unprivileged user (3 forbids counting): only
# as root, with the sysctl at 3 for one command and restored at once (and by the
# EXIT trap, whatever happens), holding the lock other tests read it under; left
# out where /proc/sys cannot be written
PARANOID=/proc/sys/kernel/perf_event_paranoid
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null && command -v flock >/dev/null && [ -w "$PARANOID" ] &&
	{ : >>"$SYSCTL_LOCK"; } 2>/dev/null; then
	old_paranoid=$(cat "$PARANOID")
	restore_paranoid() { echo "$old_paranoid" >"$PARANOID"; }
	trap 'restore_paranoid; finish_cleanup' EXIT
	trap 'exit 1' INT TERM HUP
	exec 9>>"$SYSCTL_LOCK"
	flock 9
	if { echo 3 >"$PARANOID"; } 2>/dev/null; then
		mkdir -m 777 "$WORK/nb"
		expect_error "perf_event_paranoid 3 for an unprivileged user" 1 \
			"^tdctl: perf_event_paranoid is 3, which forbids performance counters to unprivileged users: run as root, grant CAP_PERFMON, or run 'sysctl kernel.perf_event_paranoid=2'\$" \
			as_nobody run -d "$WORK/nb/p.db" -- true 9>&-
		restore_paranoid
		check_eq "perf_event_paranoid restored" "$old_paranoid" "$(cat "$PARANOID")"
	else
		skip "perf_event_paranoid 3 for an unprivileged user" "$PARANOID cannot be set to 3 here"
	fi
	flock -u 9
	exec 9>&-
else
	skip "perf_event_paranoid 3 for an unprivileged user" "needs root, setpriv, flock and a writable $PARANOID"
fi

# libpfm4 is opened when an event first needs it (src/machine/libpfm.h): a
# broken one (a file that is no library, found first on LD_LIBRARY_PATH) is
# said in one line, by the command that needed it and by doctor
mkdir -p "$WORK/badpfm"
printf 'not a library\n' >"$WORK/badpfm/libpfm.so.4"
expect_error "libpfm4 that cannot be loaded" 1 \
	"^tdctl: .*libpfm4 cannot be loaded \\($WORK/badpfm/libpfm.so.4: .*\\): install it \\(apt-get install libpfm4\\)\$" \
	env LD_LIBRARY_PATH="$WORK/badpfm" "$TDCTL" run -d "$DB" -- true
LD_LIBRARY_PATH="$WORK/badpfm" "$TDCTL" doctor >"$WORK/out" 2>&1
check_grep "doctor says libpfm4 cannot be loaded" "libpfm4 model:  none (libpfm4 cannot be loaded" "$WORK/out"

# none of the failures above left a session behind; an exec failure after the
# fork would be recorded as failed, never as completed
if [ -e "$DB" ]; then
	check_eq "no session recorded for refused input" 0 "$(sql "$DB" "select count(*) from sessions")"
else
	ok "no database created for refused input"
fi
finish
