#!/bin/sh
# installcheck: the installed tdctl works from its installed files alone —
# it names and reads the installed events directory (never the build or
# source tree), loads every installed events file, and records a run.
# Usage (from Makefile.am's installcheck-local):
#   installcheck.sh TDCTL STAGED_EVENTS_DIR FINAL_EVENTS_DIR DESTDIR UNIT MANDIR
# The installed topdownd.service passes systemd-analyze verify (without
# DESTDIR, where its ExecStart is the installed daemon).
set -u
tdctl=$1 staged=$2 final=$3 destdir=$4 unit=$5 mandir=$6
failed=0
fail() { echo "installcheck: $*" >&2; failed=1; }

unset TOPDOWN_EVENTS_DIR
[ -x "$tdctl" ] || { echo "installcheck: no installed tdctl at $tdctl" >&2; exit 1; }
[ -r "$staged/software.td" ] || { echo "installcheck: no installed events files in $staged" >&2; exit 1; }
# Installed under DESTDIR the binary looks under its final prefix, where
# nothing is yet: name the staged directory. Without DESTDIR (distcheck's
# staged --prefix) it must find the installed directory by itself.
if [ -n "$destdir" ]; then
	TOPDOWN_EVENTS_DIR=$staged
	export TOPDOWN_EVENTS_DIR
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/td-installcheck.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT

"$tdctl" doctor --json >"$work/doctor.json" || fail "tdctl doctor failed"
dir=$(sqlite3 ":memory:" "select json_extract(readfile('$work/doctor.json'), '\$.events_dir')")
[ "$dir" = "$staged" ] || fail "tdctl doctor reads events from '$dir', not the installed $final"

for f in "$staged"/*.td; do
	model=$(awk '$1 == "pmu" { print $2; exit }' "$f")
	[ -n "$model" ] || continue
	"$tdctl" events --pmu "$model" >"$work/events.out" 2>&1 || fail "tdctl events --pmu $model ($(basename "$f")) failed: $(head -1 "$work/events.out")"
done

(cd "$work" && "$tdctl" run -q -d "$work/i.db" -- true) 2>"$work/run.err" || fail "tdctl run -- true failed: $(head -1 "$work/run.err")"
n=$(sqlite3 "$work/i.db" "select count(*) from events where file = 'software.td' and status = 'counting'")
[ "$n" -ge 1 ] 2>/dev/null || fail "the installed tdctl counted no software.td event ($n)"

if [ -z "$destdir" ] && command -v systemd-analyze >/dev/null; then
	[ -r "$unit" ] || fail "no installed unit at $unit"
	manopt=--man=no
	command -v man >/dev/null && manopt=
	MANPATH=$mandir systemd-analyze verify $manopt "$unit" >"$work/verify" 2>&1 ||
		fail "systemd-analyze verify rejects the installed $unit: $(head -3 "$work/verify" | tr '\n' ' ')"
fi

[ "$failed" -eq 0 ] && echo "installcheck: the installed tdctl reads $final and records a run"
exit "$failed"
