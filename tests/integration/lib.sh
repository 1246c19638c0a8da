# lib.sh — TAP helpers for the integration tests (sourced, not run).
# Each test prints "ok N - what" or "not ok N - what" and ends with td_done,
# which prints the plan "1..N" and exits non-zero if anything failed.
td_n=0
td_failed=0
TDCTL="${TD_BUILDDIR:?TD_BUILDDIR not set}/src/tdctl/tdctl"
TD_TMP=$(mktemp -d "${TMPDIR:-/tmp}/td-it.XXXXXX")
trap 'rm -rf "$TD_TMP"' EXIT

td_ok() {
	td_n=$((td_n + 1))
	echo "ok $td_n - $1"
}

td_not_ok() {
	td_n=$((td_n + 1))
	td_failed=$((td_failed + 1))
	echo "not ok $td_n - $1"
	[ -n "$2" ] && printf '%s\n' "$2" | sed 's/^/# /'
	return 0
}

# td_check "what" COMMAND...: ok when the command succeeds.
td_check() {
	what=$1
	shift
	if "$@"; then td_ok "$what"; else td_not_ok "$what"; fi
}

# td_grep "what" PATTERN FILE: ok when FILE has a line matching PATTERN (fixed string).
td_grep() {
	if grep -qF -- "$2" "$3"; then td_ok "$1"; else td_not_ok "$1" "$(head -c 2000 "$3")"; fi
}

td_done() {
	echo "1..$td_n"
	[ "$td_failed" -eq 0 ]
}
