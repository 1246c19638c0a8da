#!/bin/sh
# format.sh: every C file of src/, tests/ and bench/ is as clang-format
# (.clang-format at the top of the tree) writes it. The check is
# `clang-format --dry-run --Werror` file by file, one TAP line each.
# Formatting differs between clang-format's major versions; the style was
# fixed with Debian 12's (14), so another major version is a SKIP with its
# reason rather than a failure no change of ours could fix.
# Usage: tests/format.sh [SRCDIR] (default: $TD_SRCDIR, or the parent of this
# script's folder).
set -u
SRC=${1:-${TD_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}}
CF=${CLANG_FORMAT:-clang-format}
if ! command -v "$CF" >/dev/null 2>&1; then
	echo "1..0 # SKIP $CF is not installed (tests/install-deps.sh installs it)"
	exit 0
fi
major=$("$CF" --version | sed -n 's/.*version \([0-9]*\)\..*/\1/p')
if [ "$major" != 14 ]; then
	echo "1..0 # SKIP $CF is version ${major:-unknown}; the style is checked with version 14 (Debian 12's)"
	exit 0
fi
if [ ! -f "$SRC/.clang-format" ]; then
	echo "Bail out! no .clang-format in $SRC"
	exit 1
fi
N=0
FAILED=0
# the check itself: a file written against the style must fail it
TMP=$(mktemp -d "${TMPDIR:-/tmp}/td-format.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
cp "$SRC/.clang-format" "$TMP/"
printf 'int  f( int a ){ if(a) return 1; return 0;}\n' >"$TMP/bad.c"
N=$((N + 1))
if (cd "$TMP" && "$CF" --style=file --dry-run --Werror bad.c) >/dev/null 2>&1; then
	FAILED=$((FAILED + 1))
	echo "not ok $N - a file against the style passes clang-format --dry-run --Werror: the check checks nothing"
else
	echo "ok $N - a file against the style fails the check"
fi
for f in $(cd "$SRC" && find src tests bench -path tests/data -prune -o -name '*.[ch]' -print | sort); do
	N=$((N + 1))
	if out=$(cd "$SRC" && "$CF" --style=file --dry-run --Werror "$f" 2>&1); then
		echo "ok $N - $f is formatted"
	else
		FAILED=$((FAILED + 1))
		echo "not ok $N - $f is not as clang-format writes it: run clang-format -i $f"
		echo "$out" | head -5 | sed 's/^/# /'
	fi
done
echo "1..$N"
[ "$FAILED" -eq 0 ]
