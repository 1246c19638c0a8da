#!/bin/sh
# check-all: the whole test suite as CI runs it. Installs the Debian packages,
# builds topdown twice out of tree with --enable-werror — plain and with
# ASan+UBSan — runs `make check` in both, then `make distcheck`, builds the
# Debian packages from the tarball (lintian clean), and ends with automake's
# totals of both runs as one line: "N passed, N failed[, N skipped]".
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
sh tests/install-deps.sh || exit 1
autoreconf -fi || exit 1

status=0
started=$(date +%s)
# each phase's header says how far into the run it starts (CI has 20 minutes)
at() { echo "($(($(date +%s) - started)) s in)"; }
passed=0 failed=0 skipped=0
# the failed tests' names and their logs' ends, printed again at the very end:
# CI keeps only the tail of what a run printed
failures=$(mktemp "${TMPDIR:-/tmp}/td-failures.XXXXXX")
total() { awk -v k="$2" '$1 == "#" && $2 == k":" { print $3; exit }' "$1"; }

for variant in plain sanitizers; do
	dir="$top/build-check-$variant"
	rm -rf "$dir"
	mkdir -p "$dir"
	flags=--enable-werror
	[ "$variant" = sanitizers ] && flags="$flags --enable-sanitizers"
	echo "== $variant build $(at) =="
	(cd "$dir" && ../configure -q $flags && make -j2 >/dev/null) || { echo "check-all: $variant build failed"; exit 1; }
	# the ASan build looks for memory errors on the paths the plain build's sweeps
	# cover: the crash, kill and fault sweeps, the planner's model matrix and the
	# false-positive trials of repeats run shorter there (CI has 20 minutes)
	if [ "$variant" = sanitizers ]; then
		(cd "$dir" && TD_CRASH_KILLS=40 TD_FAULT_RUNS=15 TD_KILL9_TRIALS=12 TD_PLAN_SCHED_SAMPLE=1 \
			TD_REPEATS_TRIALS=6 make -j2 check) || status=1
	else
		(cd "$dir" && make -j2 check) || status=1
	fi
	log="$dir/test-suite.log"
	if [ ! -f "$log" ]; then
		echo "check-all: no test-suite.log for the $variant build"
		exit 1
	fi
	passed=$((passed + $(total "$log" PASS) + $(total "$log" XFAIL)))
	failed=$((failed + $(total "$log" FAIL) + $(total "$log" ERROR) + $(total "$log" XPASS)))
	skipped=$((skipped + $(total "$log" SKIP)))
	for t in $(sed -n 's/^\(FAIL\|ERROR\|XPASS\): \([^ ]*\).*/\2/p' "$log" | sort -u); do
		{
			echo "-- $variant: $t --"
			l="$dir/${t%.sh}.log" # automake names tests/x.sh's log tests/x.log
			grep -E '^(not ok|Bail out!|FAIL|ERROR)' "$l" 2>/dev/null | head -20
			tail -15 "$l" 2>/dev/null
		} >>"$failures"
	done
	[ "$(total "$log" TOTAL)" -gt 0 ] || { echo "check-all: the $variant run executed no test"; status=1; }
done

echo "== make distcheck $(at) =="
(cd "$top/build-check-plain" && make -j2 distcheck TESTS="$(make -s print-distcheck-tests)" >distcheck.log 2>&1) || {
	tail -40 "$top/build-check-plain/distcheck.log"
	echo "check-all: make distcheck failed"
	failed=$((failed + 1))
	status=1
}
# The Debian packages build from the distributed tarball, lintian finds no
# error in them, topdownd's unit is installed and enabled the Debian way, and
# tdctl depends on libpfm4 (opened with dlopen: dpkg-shlibdeps cannot see it).
echo "== debian packages $(at) =="
debdir=$(mktemp -d "${TMPDIR:-/tmp}/td-deb.XXXXXX")
if tar -xzf "$top"/build-check-plain/topdown-*.tar.gz -C "$debdir" &&
	(cd "$debdir"/topdown-* && dpkg-buildpackage -b -us -uc >"$debdir/build.log" 2>&1) &&
	lintian --fail-on error "$debdir"/topdown_*.changes >"$debdir/lintian.log" 2>&1 &&
	dpkg-deb -c "$debdir"/topdownd_*.deb >"$debdir/contents" &&
	grep -q ' ./lib/systemd/system/topdownd.service$' "$debdir/contents" &&
	dpkg-deb --ctrl-tarfile "$debdir"/topdownd_*.deb | tar -xO ./postinst >"$debdir/postinst" &&
	grep -q 'deb-systemd-helper enable' "$debdir/postinst" &&
	dpkg-deb -f "$debdir"/tdctl_*.deb Depends | grep -Eq '(^|, )libpfm4($|,| )'; then
	echo "check-all: tdctl and topdownd packages built, lintian clean, topdownd.service enabled on install, tdctl depends on libpfm4"
	passed=$((passed + 1))
else
	tail -20 "$debdir/build.log" "$debdir/lintian.log" 2>/dev/null
	echo "check-all: the Debian packages failed (build, lintian or contents)"
	failed=$((failed + 1))
	status=1
fi
rm -rf "$debdir"
[ "$failed" -eq 0 ] || status=1
if [ -s "$failures" ]; then
	echo "== what failed =="
	cat "$failures"
fi
rm -f "$failures"
echo "== done $(at) =="
if [ "$skipped" -gt 0 ]; then
	echo "$passed passed, $failed failed, $skipped skipped"
else
	echo "$passed passed, $failed failed"
fi
exit $status
