#!/bin/sh
# bench_vs_perf: what the whole command costs, tdctl against perf stat, start
# and end included (issue 32's measure). For 13, 100 and 1,000 busy threads
# (td-demo -t N), on one target, at the same time and both at real-time
# priority:
#   tdctl attach PID -I 100 --duration SECONDS        (both started at SCHED_FIFO 1)
#   perf stat -I 100 --per-thread -p PID -e <software.td's events> --interval-count SECONDS*10
# the CPU time of each whole command (user + system, as /usr/bin/time gets it: from
# exec to exit, the set-up, every interval and the summary: wait4's rusage), the intervals
# each produced (tdctl: stored; perf: time stamps printed), and the ratio
# tdctl / perf of the whole commands and per interval. Also tdctl's own split
# (its summary line: sampling, start, summary). Prints, never fails; no ratio
# without perf. Goals (issue 32): ratio <= 1.0 at 13 threads, <= 0.5 at 100,
# <= 0.10 at 1,000, >= 199 of 200 intervals stored.
# Usage: bench/bench_vs_perf.sh BUILDDIR [SECONDS] [THREADS...]
set -eu
build=${1:?usage: bench_vs_perf.sh BUILDDIR [SECONDS] [THREADS...]}
seconds=${2:-20}
shift $(($# < 2 ? $# : 2))
counts=${*:-13 100 1000}
tdctl="$build/src/tdctl/tdctl"
demo="$build/src/demo/td-demo"
# a copy of the build tree's programs (bench the code before a change) reads the source tree's events
[ -n "${TOPDOWN_EVENTS_DIR:-}" ] || export TOPDOWN_EVENTS_DIR="$(cd "$(dirname "$0")/.." && pwd)/events"
dir=$(mktemp -d "${TMPDIR:-/tmp}/td-bench-vs-perf.XXXXXX")
pid=
trap '[ -z "$pid" ] || kill "$pid" 2>/dev/null || :; rm -rf "$dir"' EXIT
events=task-clock,context-switches,cpu-migrations,page-faults,minor-faults,major-faults
intervals=$((seconds * 10))
have_perf=1
command -v perf >/dev/null || have_perf=0
. "$(dirname "$0")/timed.sh" # timed OUT CMD...: at SCHED_FIFO 1, its rusage into OUT

# the target runs as a copy: a test elsewhere on the machine that ends the build tree's td-demo
# by its path ends no run of this bench
cp "$demo" "$dir/target"
echo "bench_vs_perf: $seconds s at -I 100 ($intervals intervals), tdctl attach and perf stat --per-thread at once, real-time"
echo "  load average at start: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs"
printf '  %8s %10s %10s %12s %10s %10s %8s\n' threads "tdctl s" "perf s" "tdctl/perf" "td ints" "perf ints" "/interval"
for n in $counts; do
	rm -f "$dir/ready" "$dir"/*.db* "$dir"/*.out "$dir"/*.time "$dir"/*.err
	"$dir/target" -t "$n" -l 0 -e 0 -s $((seconds + 60)) -r "$dir/ready" >/dev/null 2>&1 &
	pid=$!
	while [ ! -s "$dir/ready" ]; do sleep 0.05; done
	sleep 0.5
	ppid=
	if [ $have_perf = 1 ]; then
		timed "$dir/perf.time" perf stat -I 100 --per-thread -x, \
			-o "$dir/perf.out" -e "$events" -p "$pid" --interval-count "$intervals" >/dev/null 2>"$dir/perf.err" &
		ppid=$!
	fi
	timed "$dir/td.time" "$tdctl" attach "$pid" -I 100 --duration "$seconds" \
		-d "$dir/td.db" >/dev/null 2>"$dir/td.err" || :
	[ -z "$ppid" ] || wait "$ppid" || :
	kill -0 "$pid" 2>/dev/null || echo "    the target (a copy of td-demo, PID $pid) ended before both tools did: intervals are missing"
	kill "$pid" 2>/dev/null || :
	wait "$pid" 2>/dev/null || :
	pid=
	td=$(awk '{ printf "%.3f", $1 + $2 }' "$dir/td.time")
	td_rss=$(awk '{ printf "%.1f", $3 / 1024 }' "$dir/td.time")
	stored=$(sqlite3 "$dir/td.db" "select count(*) from intervals" 2>/dev/null || echo 0)
	pf=n/a ratio=n/a per=n/a
	printed=$(grep -v '^#' "$dir/perf.out" 2>/dev/null | cut -d, -f1 | sort -u | grep -c . || :)
	if [ "$printed" -gt 0 ]; then
		pf=$(awk '{ printf "%.3f", $1 + $2 }' "$dir/perf.time")
		ratio=$(awk -v a="$td" -v b="$pf" 'BEGIN { printf (b > 0 ? sprintf("%.2f", a / b) : "n/a") }')
		per=$(awk -v a="$td" -v b="$pf" -v i="$stored" -v j="$printed" \
			'BEGIN { printf ((b > 0 && i > 0 && j > 0) ? sprintf("%.2f", (a / i) / (b / j)) : "n/a") }')
	fi
	printf '  %8s %10s %10s %12s %10s %10s %8s\n' "$n" "$td" "$pf" "$ratio" "$stored" "$printed" "$per"
	# tdctl's own account of the same run (its summary's cost line), and its peak RSS
	sed -n 's/^.*topdown used/    tdctl says: topdown used/p' "$dir/td.err" | head -n 1 | cut -c1-300
	sed -n 's/^  the whole command used/    the whole command used/p' "$dir/td.err" | head -n 1
	[ -n "$(sed -n '/topdown session/p' "$dir/td.err")" ] || echo "    tdctl printed no summary: $(tail -n 2 "$dir/td.err" | head -c 300)"
	echo "    tdctl max RSS $td_rss MB"
	[ "$printed" -gt 0 ] || [ $have_perf = 0 ] || echo "    perf stat printed nothing: $(head -c 200 "$dir/perf.err")"
	grep -h '^tdctl: ' "$dir/td.err" | grep -v '^tdctl: note: ' | sed 's/^/    /' | cut -c1-200 || :
done
