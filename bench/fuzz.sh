#!/bin/sh
# fuzz: runs every libFuzzer target of tests/fuzz/ (issue 18) for SECONDS each,
# one after the other under `nice -n 19`, and prints per target its
# executions, executions per second and crashes. Each target starts from a
# copy of its seed corpus (tests/fuzz/corpus/NAME/; the source tree is never
# written); what it finds — new inputs, crashing inputs — stays in the work
# directory printed at the end. A crash: the target stops, its input is named;
# fix the bug and add the input to the seed corpus as a regression case.
# Exits 1 if any target crashed. Not run by `make check` (the replay of the
# corpora is).
# Usage: bench/fuzz.sh SECONDS [BUILDDIR [TARGET...]]
#   BUILDDIR: a build configured with CC=clang --enable-fuzzing; without it (or
#   given as "") the fuzzers are built in a temporary directory (needs clang
#   with libFuzzer).
#   TARGET: run only these (e.g. import_store); default: every target.
set -eu
seconds=${1:?usage: bench/fuzz.sh SECONDS [BUILDDIR [TARGET...]]}
build=${2:-}
[ $# -lt 2 ] || shift 2
only=" $* "
src=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/td-fuzz.XXXXXX")

if [ -z "$build" ]; then
	build="$work/build"
	command -v clang >/dev/null || { echo "fuzz.sh: no clang: apt-get install clang, or give a BUILDDIR configured with --enable-fuzzing" >&2; exit 2; }
	[ -x "$src/configure" ] || (cd "$src" && autoreconf -fi) || exit 2
	mkdir -p "$build"
	echo "fuzz.sh: building the fuzzers in $build"
	(cd "$build" && "$src/configure" -q CC=clang --enable-fuzzing >/dev/null && nice make -j2 >/dev/null) ||
		{ echo "fuzz.sh: the --enable-fuzzing build failed (see $build)" >&2; exit 2; }
fi

for name in $only; do
	[ -f "$src/tests/fuzz/fuzz_$name.c" ] && [ "$name" != model ] ||
		{ echo "fuzz.sh: no fuzz target '$name' (the targets: tests/fuzz/fuzz_NAME.c)" >&2; exit 2; }
done
crashed=0
printf '%-14s %14s %10s %8s\n' target executions exec/s crashes
for source in "$src"/tests/fuzz/fuzz_*.c; do
	name=$(basename "$source" .c)
	name=${name#fuzz_}
	[ "$name" != model ] || continue # shared code, not a target
	[ "$only" = "  " ] || case "$only" in *" $name "*) ;; *) continue ;; esac
	fuzzer="$build/tests/fuzz/fuzz_$name"
	if [ ! -x "$fuzzer" ]; then
		echo "fuzz.sh: no $fuzzer: is $build configured with CC=clang --enable-fuzzing?" >&2
		exit 2
	fi
	# its own corpus, or the one of the name before its last _ (import_store: import)
	dir="$src/tests/fuzz/corpus/$name"
	[ -d "$dir" ] || dir="$src/tests/fuzz/corpus/${name%_*}"
	mkdir -p "$work/$name/corpus" "$work/$name/crashes"
	cp "$dir"/* "$work/$name/corpus/"
	rc=0
	nice -n 19 "$fuzzer" -max_total_time="$seconds" -timeout=25 -print_final_stats=1 \
		-artifact_prefix="$work/$name/crashes/" "$work/$name/corpus" >"$work/$name/log" 2>&1 || rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/$name/log" | tail -n 1)
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$work/$name/log" | tail -n 1)
	crashes=$(find "$work/$name/crashes" -type f | wc -l)
	printf '%-14s %14s %10s %8s\n' "$name" "${execs:-?}" "${rate:-?}" "$crashes"
	if [ "$crashes" -gt 0 ] || [ "$rc" -ne 0 ]; then
		crashed=1
		echo "  $name stopped (exit $rc): $(find "$work/$name/crashes" -type f | head -n 1); log $work/$name/log"
	fi
done
echo "fuzz.sh: corpora, crashes and logs in $work"
exit $crashed
