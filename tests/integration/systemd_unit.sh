#!/bin/sh
# topdownd.service passes `systemd-analyze verify` (PID 1 need not be systemd):
# the unit built from systemd/topdownd.service.in, its ExecStart pointing at
# the built daemon and its man pages where man finds them. A copy with a
# misspelt key is rejected, so the check can fail. The unit holds the
# hardening issue 15 asks for; the installed unit is verified again by
# tests/installcheck.sh under make distcheck.
. "$(dirname "$0")/lib.sh"

command -v systemd-analyze >/dev/null || skip_all "systemd-analyze is not installed (apt-get install systemd)"
IN="$TD_SRCDIR/systemd/topdownd.service.in"
BUILT="$TD_BUILDDIR/systemd/topdownd.service"

check_match "the built unit starts the installed daemon" "^ExecStart=${TD_SBINDIR}/topdownd\$" \
	"$(grep '^ExecStart=' "$BUILT")"
for key in Type=notify NoNewPrivileges=yes ProtectSystem=strict StateDirectory=topdown RuntimeDirectory=topdown \
	'CapabilityBoundingSet=CAP_PERFMON CAP_SYS_PTRACE'; do
	check_match "the unit sets $key" "^$key" "$(grep "^${key%%=*}=" "$IN")"
done

sed "s|@sbindir@|$TD_BUILDDIR/src/topdownd|" "$IN" >"$WORK/topdownd.service"
mkdir -p "$WORK/man/man1" "$WORK/man/man5" "$WORK/man/man8"
cp "$TD_SRCDIR/man/tdctl.1" "$WORK/man/man1/"
cp "$TD_SRCDIR/man/topdownd.conf.5" "$WORK/man/man5/"
cp "$TD_SRCDIR/man/topdownd.8" "$WORK/man/man8/"
if command -v man >/dev/null; then
	MANOPT=
else
	MANOPT=--man=no
	skip "the unit's Documentation= man pages are found" "man is not installed (apt-get install man-db)"
fi
MANPATH="$WORK/man" systemd-analyze verify $MANOPT "$WORK/topdownd.service" >"$WORK/out" 2>&1
check_eq "systemd-analyze verify accepts topdownd.service" "0:" "$?:$(cat "$WORK/out")"

sed 's/^NoNewPrivileges=/NoNewPrivilege=/' "$WORK/topdownd.service" >"$WORK/bad.service"
MANPATH="$WORK/man" systemd-analyze verify $MANOPT "$WORK/bad.service" >"$WORK/out" 2>&1
check_match "... and rejects a misspelt key" "Unknown key 'NoNewPrivilege' in section \[Service\]" "$(cat "$WORK/out")"
finish
