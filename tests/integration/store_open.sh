#!/bin/sh
# Opening databases: any number of first runs may create one new database at
# once; the read commands (sessions, report, query, export, diff) never
# create a file, name a missing or corrupt one in one line with what to do
# (exit 1), read a database this user cannot write (a read-only file in a
# read-only directory, as an unprivileged user) and leave no -wal/-shm behind.
. "$(dirname "$0")/lib.sh"

# read CMD DB: each read command on DB (diff compares the session with itself)
read_cmd() {
	case $1 in
	sessions) set -- sessions -d "$2" ;;
	report) set -- report -d "$2" ;;
	query) set -- query -d "$2" "select count(*) from sessions" ;;
	export) set -- export 1 -d "$2" --format csv ;;
	diff) set -- diff 1 1 -d "$2" ;;
	esac
	"${RUN:-$TDCTL}" "$@"
}
READS="sessions report query export diff"

# ---- 8 first runs on one new database, at once ---------------------------------------
DB="$WORK/new.db"
i=0
while [ $i -lt 8 ]; do
	("$TDCTL" run -q -d "$DB" -- true 2>"$WORK/first.$i.err"; echo $? >"$WORK/first.$i.rc") &
	i=$((i + 1))
done
wait
check_eq "8 concurrent first runs all exit 0" "0 0 0 0 0 0 0 0" "$(cat "$WORK"/first.*.rc | tr '\n' ' ' | sed 's/ $//')"
# (a run held up by a loaded machine says so: "N interval periods ... not read on time" is the
# sampler's honest account of the load, not an error of the open)
check_eq "no error from any of them" "" "$(cat "$WORK"/first.*.err | grep '^tdctl:' | grep -v ' not read on time ')"
check_eq "8 completed sessions, integrity ok" "8|ok" \
	"$(sql "$DB" "select count(*) from sessions where status = 'completed'")|$(sql "$DB" "pragma integrity_check")"

# ---- a missing file: one line, exit 1, nothing created ----------------------------------
for c in $READS; do
	read_cmd "$c" "$WORK/typo.db" >/dev/null 2>"$WORK/err"
	check_eq "$c on a missing file: exit 1, one line naming it" "1|1|1" \
		"$?|$(wc -l <"$WORK/err" | tr -d ' ')|$(grep -c "no database '$WORK/typo.db'" "$WORK/err")"
	check "$c on a missing file creates nothing" test ! -e "$WORK/typo.db"
done

# ---- corrupt: random bytes, and a real database with its second half cut off -------------
head -c 4096 /dev/urandom >"$WORK/random.db"
"$TDCTL" import -q --pmu skl -d "$WORK/cut.db" "$TD_SRCDIR/tests/data/oracle/toplev/inputs/skl-l3.perf.csv"
size=$(wc -c <"$WORK/cut.db" | tr -d ' ')
check "the imported database has several pages ($size bytes)" test "$size" -ge 16384
truncate -s $((size / 2)) "$WORK/cut.db"
for c in $READS; do
	read_cmd "$c" "$WORK/random.db" >/dev/null 2>"$WORK/err"
	check_eq "$c on random bytes: exit 1, one line: not a readable topdown database, try .recover" "1|1|1" \
		"$?|$(wc -l <"$WORK/err" | tr -d ' ')|$(grep -c "is not a readable topdown database.*sqlite3 $WORK/random.db .recover" "$WORK/err")"
done
for c in sessions report export; do
	read_cmd "$c" "$WORK/cut.db" >/dev/null 2>"$WORK/err"
	check_eq "$c on a truncated database: exit 1, one line naming it" "1|1|1" \
		"$?|$(wc -l <"$WORK/err" | tr -d ' ')|$(grep -c "$WORK/cut.db" "$WORK/err")"
done

# ---- reading leaves no -wal/-shm behind -----------------------------------------------
"$TDCTL" import -q --pmu skl -d "$WORK/r.db" "$TD_SRCDIR/tests/data/oracle/toplev/inputs/skl-l3.perf.csv"
for c in $READS; do
	read_cmd "$c" "$WORK/r.db" >/dev/null 2>"$WORK/err"
	check_eq "$c reads a database it may write: exit 0, no -wal/-shm left" "0|" \
		"$?|$(ls "$WORK" | grep -E '^r\.db-(wal|shm)$' | tr '\n' ' ')"
done

# ---- a database this user cannot write: read-only file in a read-only directory ---------
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	mkdir "$WORK/ro"
	cp "$WORK/r.db" "$WORK/ro/r.db"
	chmod 444 "$WORK/ro/r.db"
	chmod 555 "$WORK/ro"
	chmod 755 "$WORK"
	for c in $READS; do
		RUN=as_nobody read_cmd "$c" "$WORK/ro/r.db" >"$WORK/out" 2>"$WORK/err"
		check_eq "$c as an unprivileged user on a read-only file and directory: exit 0, no error" "0|" \
			"$?|$(cat "$WORK/err")"
	done
	check_eq "the read-only sessions listing shows the import" 1 \
		"$(RUN=as_nobody read_cmd query "$WORK/ro/r.db" | tail -1)"
	check_eq "nothing was written beside it" "r.db" "$(ls "$WORK/ro" | tr '\n' ' ' | sed 's/ $//')"
	chmod 755 "$WORK/ro"
else
	skip "read commands on a database the user cannot write" "needs root and setpriv to run as an unprivileged user (root ignores file modes)"
fi
finish
