#!/bin/sh
# bench_start: what tdctl's start costs (issue 32: start to the first
# interval <= 20 ms of CPU), one build against another in the same run.
# `tdctl attach PID -I 100` on td-demo's 13 busy threads into a new
# database, RUNS times each, the two builds alternating; each run's "to its
# first interval" figure (tdctl's summary: CPU of the process from exec) with
# the load average beside it, then the medians. With STEPS=1, each build's
# last run again under bench/bpf_steps.c (compiled here, preloaded): the CPU
# time of libbpf's steps (BTF, each map, each program, each object's load).
# Prints, never fails.
# Usage: bench/bench_start.sh BUILD/src/tdctl/tdctl [OLD_TDCTL] [RUNS] (td-demo from BUILD;
# OLD_TDCTL: e.g. a copy of an older build's tdctl)
set -eu
new=${1:?usage: bench_start.sh NEW_TDCTL [OLD_TDCTL] [RUNS]}
old=${2:-}
runs=${3:-7}
src=$(cd "$(dirname "$0")/.." && pwd)
demo="$(dirname "$new")/../demo/td-demo"
[ -n "${TOPDOWN_EVENTS_DIR:-}" ] || export TOPDOWN_EVENTS_DIR="$src/events"
dir=$(mktemp -d "${TMPDIR:-/tmp}/td-bench-start.XXXXXX")
pid=
trap '[ -z "$pid" ] || kill "$pid" 2>/dev/null || :; rm -rf "$dir"' EXIT
# the target runs as a copy (a test ending td-demo by its path ends no run of this bench)
cp "$demo" "$dir/start-target"
"$dir/start-target" -t 13 -l 0 -e 0 -s 3600 -r "$dir/ready" >/dev/null 2>&1 &
pid=$!
while [ ! -s "$dir/ready" ]; do sleep 0.05; done
sleep 0.5
start_of() { # start_of TDCTL [ENV...]: ms to the first interval, "-" when none printed
	t=$1
	shift
	rm -f "$dir"/s.db*
	env "$@" "$t" attach "$pid" -I 100 --duration 0.3 -d "$dir/s.db" >/dev/null 2>"$dir/err" || :
	sed -n 's/.* \([0-9.]*\) ms to its first interval.*/\1/p' "$dir/err" | head -n 1 | grep . || echo -
}
echo "bench_start: tdctl attach -I 100 on 13 busy threads, a new database, $runs runs each, alternating"
for i in $(seq "$runs"); do
	for which in new old; do
		eval "t=\$$which"
		[ -n "$t" ] || continue
		echo "$which $(start_of "$t") $(cut -d' ' -f1 /proc/loadavg)" | tee -a "$dir/runs"
	done
done | awk '{ printf "  %-4s %8s ms  (load %s)\n", $1, $2, $3 }'
for which in new old; do
	[ -s "$dir/runs" ] && grep -q "^$which " "$dir/runs" || continue
	awk -v w="$which" '$1 == w && $2 != "-" { print $2 }' "$dir/runs" | sort -n |
		awk -v w="$which" '{ v[NR] = $1 } END { if (NR) printf "  %s: median %.1f ms, min %.1f, max %.1f (%d runs)\n", w, v[int((NR + 1) / 2)], v[1], v[NR], NR }'
done
[ "${STEPS:-0}" = 1 ] || exit 0
if ! cc -shared -fPIC -O2 -o "$dir/bpf_steps.so" "$src/bench/bpf_steps.c" -ldl 2>"$dir/cc.err"; then
	echo "  (no steps: bpf_steps.c did not build: $(head -c 200 "$dir/cc.err"))"
	exit 0
fi
for which in new old; do
	eval "t=\$$which"
	[ -n "$t" ] || continue
	s=$(start_of "$t" LD_PRELOAD="$dir/bpf_steps.so")
	echo "  $which, libbpf's steps (CPU ms, and the process's CPU at their end; $s ms to the first interval with the preload):"
	sed -n 's/^bpf_steps /    /p' "$dir/err" | awk '$3 >= 0.2 || $1 != "map" && $1 != "prog" || 0 { printf "    %-12s %-18s %7.2f  at %7.2f\n", $1, $2, $3, $4 }'
done
