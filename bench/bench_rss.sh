#!/bin/sh
# bench_rss: tdctl's resident memory attached to 1,000 threads (issue 32: at most 32 MB), with
# the default plan and with a level-3 plan standing in for a hardware level (soft-wide.td's 54
# software events in 9 groups, BPF counting). Prints tdctl's max RSS (wait4's ru_maxrss) and a
# breakdown from /proc/PID/smaps_rollup sampled near the end of the run (anonymous vs file).
# Needs root (BPF) and chrt. Usage: bench/bench_rss.sh BUILD_DIR [THREADS] [SECONDS]
set -eu
build=${1:?usage: bench_rss.sh BUILD_DIR [THREADS] [SECONDS]}
threads=${2:-1000}
seconds=${3:-8}
src=$(cd "$(dirname "$0")/.." && pwd)
tdctl="$build/src/tdctl/tdctl"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir "$dir/events"
cp "$src"/events/*.td "$src/tests/data/live/soft-wide.td" "$dir/events/"
# the target runs as a copy, so that no test ending the build tree's td-demo ends it
cp "$build/src/demo/td-demo" "$dir/target"

. "$(dirname "$0")/timed.sh" # timed OUT CMD...: at SCHED_FIFO 1, "USER_S SYSTEM_S MAXRSS_KB" into OUT

# measure NAME ARGS...: one tdctl attach on a fresh target
measure() {
	name=$1
	shift
	rm -f "$dir/ready" "$dir/td.db"*
	"$dir/target" -t "$threads" -l 0 -e 0 -s $((seconds + 60)) -r "$dir/ready" >/dev/null 2>&1 &
	pid=$!
	while [ ! -s "$dir/ready" ]; do sleep 0.05; done
	timed "$dir/rss" "$tdctl" attach "$pid" -I 1000 --duration "$seconds" -d "$dir/td.db" "$@" \
		>/dev/null 2>"$dir/err" &
	w=$!
	sleep $((seconds - 1))
	td= # the tdctl of this run (timed's child), by its database's path
	for p in $(pgrep -x tdctl || :); do
		tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null | grep -qF "$dir/td.db" && td=$p
	done
	roll=
	[ -z "$td" ] || roll=$(grep -E '^(Rss|Anonymous|Shared_Clean|Shared_Dirty|Private_Clean|Private_Dirty):' \
		"/proc/$td/smaps_rollup" 2>/dev/null | awk '{printf "%s%d ", $1, $2/1024}' || :)
	maps=
	[ -z "$td" ] || maps=$(awk '/^[0-9a-f]+-/{name=$6} /^Rss:/{r[name]+=$2} END{for(n in r) if (r[n] >= 1024) printf "%s=%dM ", (n==""?"[anon]":n), r[n]/1024}' \
		"/proc/$td/smaps" 2>/dev/null || :)
	wait "$w" || :
	kill "$pid" 2>/dev/null || :
	wait "$pid" 2>/dev/null || :
	kb=$(awk '{ print $3 }' "$dir/rss" 2>/dev/null || echo 0)
	mb=$(awk -v k="$kb" 'BEGIN{printf "%.1f", k/1024}')
	verdict=$(awk -v k="$kb" 'BEGIN{print (k <= 32*1024) ? "within" : "OVER"}')
	printf '  %-28s max RSS %6s MB (%s the 32 MB goal)\n' "$name" "$mb" "$verdict"
	[ -z "$roll" ] || echo "    near the end (MB): $roll"
	[ -z "$maps" ] || echo "    mappings of 1 MB or more: $maps"
	grep -h '^tdctl: ' "$dir/err" | grep -v '^tdctl: note: ' | sed 's/^/    /' | cut -c1-200 || :
}

echo "bench_rss: tdctl attach on $threads threads for $seconds s, -I 1000 (goal: at most 32 MB)"
echo "  load average at start: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs"
measure "default plan"
measure "level-3 wide plan (BPF)" -l 3 --counting=bpf --events-dir "$dir/events" --pmu td_soft_wide
