#!/bin/bash
# bench_counting: what counting the threads of a busy process costs, per
# interval, in the two counting modes and in perf. For 13, 100 and 1,000
# busy threads (td-demo -t N: arithmetic, pointer chasing, branches, short
# sleeps; run at nice 19, so that the machine's other users and the tools
# measured keep their share), on the same running target one after the
# other, each for SECONDS at -I 100 with the software events:
#   perf stat -I 100 --per-thread -p PID -e <software.td's events>
#   tdctl attach PID -I 100 --counting=per-thread
#   tdctl attach PID -I 100 --counting=bpf
# and prints for each the CPU time it used (its utime + stime from
# /proc/PID/stat, last read just before it exits) per interval it produced
# (lines perf printed, intervals tdctl stored), what it used in its first
# second apart (loading BPF programs, opening counters) and per interval
# after it (intervals that ended later: perf's time stamps, tdctl's
# end_ns; the CPU times are the kernel's, in ns: the sum of the first field of
# /proc/PID/task/*/schedstat, its threads' time on a CPU), tdctl's own figure
# per interval (the intervals' collector_ns), and threads listed, then the ratios perf / bpf and per-thread /
# bpf (issue 16's target: bpf at least 10x cheaper than perf). The BPF
# program's own time runs in the context switches of whatever task
# switches: it is not tdctl's and not in these figures. Never fails; skips
# bpf where it does not load.
# Usage: bench/bench_counting.sh BUILDDIR [SECONDS] [THREADS...]
set -eu
build=${1:?usage: bench_counting.sh BUILDDIR [SECONDS] [THREADS...]}
seconds=${2:-5}
shift $(($# < 2 ? $# : 2))
counts=${*:-13 100 1000}
tdctl="$build/src/tdctl/tdctl"
demo="$build/src/demo/td-demo"
dir=$(mktemp -d "${TMPDIR:-/tmp}/td-bench-counting.XXXXXX")
pid=
trap '[ -z "$pid" ] || kill "$pid" 2>/dev/null || :; rm -rf "$dir"' EXIT
events=task-clock,context-switches,cpu-migrations,page-faults,minor-faults,major-faults
intervals=$((seconds * 10))

# ns_of PID: its threads' time on a CPU (schedstat: ns; /proc/PID/stat's utime and stime are
# 10 ms ticks, too coarse for a few ms an interval); empty once it is gone
ns_of() { cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{ s += $1; n++ } END { if (n) printf "%.0f", s }'; }

# cpu_of ERRFILE CMD...: runs CMD; prints "START_S TOTAL_S WALL_S LAUNCH_NS": the CPU it used in
# its first second and in all, how long it ran, and when it started (n/a when never read)
cpu_of() {
	local err=$1 cpid t0 t1 t start end
	shift
	"$@" >/dev/null 2>"$err" &
	cpid=$!
	start=$(date +%s%N)
	sleep 1
	t0=$(ns_of "$cpid")
	t0=${t0:-0}
	t1=$t0
	while t=$(ns_of "$cpid") && [ -n "$t" ]; do
		t1=$t
		end=$(date +%s%N)
		sleep 0.02
	done
	wait "$cpid" || :
	if [ -z "${end:-}" ]; then
		echo "n/a n/a n/a 0" # gone before this shell read it after its first second (this shell starved?)
		return
	fi
	awk -v a="$t0" -v b="$t1" -v h=1000000000 -v s="$start" -v e="$end" \
		'BEGIN { printf "%.6f %.6f %.1f %s", a / h, b / h, (e - s) / 1e9, s }'
}
# steady FIRST_S TOTAL_S INTERVALS: ms of CPU per interval after the first second (set-up left out)
steady() { [ "$1" = n/a ] && echo n/a || awk -v a="$1" -v b="$2" -v i="$3" 'BEGIN { printf "%s", (i > 0) ? sprintf("%.2f", 1000 * (b - a) / i) : "n/a" }'; }
per_interval() { [ "$1" = n/a ] && echo n/a || awk -v c="$1" -v i="$2" 'BEGIN { printf "%.2f", (i > 0) ? 1000 * c / i : 0 }'; }

bpf_ok=1
if ! "$tdctl" run -q --counting=bpf -d "$dir/probe.db" -- true >/dev/null 2>"$dir/probe.err"; then
	bpf_ok=0
fi
have_perf=1
command -v perf >/dev/null || have_perf=0

echo "bench_counting: tdctl attach -I 100 for $seconds s ($intervals intervals), software events, busy threads"
echo "  load average at start: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs"
for n in $counts; do
	rm -f "$dir/ready" "$dir"/*.db
	nice -n 19 "$demo" -t "$n" -l 0 -e 0 -s 3600 -r "$dir/ready" >/dev/null 2>&1 &
	pid=$!
	while [ ! -s "$dir/ready" ]; do sleep 0.05; done
	sleep 0.5
	echo "  $n threads (td-demo PID $pid):"
	p_cpu=
	p_steady=
	if [ $have_perf = 1 ]; then
		set -- $(cpu_of "$dir/perf.err" perf stat -I 100 --per-thread -x, -o "$dir/perf.out" -e "$events" -p "$pid" -- sleep "$seconds")
		printed=$(grep -v '^#' "$dir/perf.out" | cut -d, -f1 | sort -u | grep -c . || :)
		p_cpu=$(per_interval "$2" "$printed")
		later=$(grep -v '^#' "$dir/perf.out" | cut -d, -f1 | sort -u | awk '$1 + 0 > 1.0' | grep -c . || :)
		p_steady=$(steady "$1" "$2" "$later")
		echo "    perf stat --per-thread: $p_cpu ms CPU per interval, $printed intervals printed in $3 s (CPU $2 s, first second $1 s; after it: $p_steady ms per interval, $later intervals)"
	else
		echo "    perf stat: not measured (no perf)"
	fi
	for mode in per-thread bpf; do
		if [ $mode = bpf ] && [ $bpf_ok = 0 ]; then
			echo "    bpf: not measured: $(tail -n 1 "$dir/probe.err")"
			continue
		fi
		set -- $(cpu_of "$dir/$mode.err" "$tdctl" attach "$pid" -q -I 100 --duration "$seconds" --counting=$mode -d "$dir/$mode.db")
		stored=$(sqlite3 "$dir/$mode.db" "select count(*) from intervals" 2>/dev/null || echo 0)
		c=$(per_interval "$2" "$stored")
		later=$(sqlite3 "$dir/$mode.db" "select count(*) from intervals where end_ns > $4 + 1000000000" 2>/dev/null || echo 0)
		c_steady=$(steady "$1" "$2" "$later")
		listed=$(sqlite3 "$dir/$mode.db" "select count(*) from threads where tid > 0" 2>/dev/null || echo 0)
		own=$(sqlite3 "$dir/$mode.db" "select printf('%.2f', avg(collector_ns) / 1e6) from intervals where seq > 10" 2>/dev/null || echo n/a)
		grep -h '^tdctl: ' "$dir/$mode.err" | grep -v '^tdctl: note: ' | sed 's/^/      /' | cut -c1-200 || :
		echo "    $mode: $c ms CPU per interval, $stored of $intervals intervals stored in $3 s (CPU $2 s, first second $1 s; after it: $c_steady ms per interval, $later intervals; tdctl's own figure: $own ms per interval); $listed threads listed"
		eval "cpu_$(echo $mode | tr -d -)=$c"
		eval "steady_$(echo $mode | tr -d -)=$c_steady"
	done
	kill "$pid" 2>/dev/null || :
	wait "$pid" 2>/dev/null || :
	pid=
	if [ $bpf_ok = 1 ]; then
		awk -v p="${p_cpu:-}" -v t="$cpu_perthread" -v b="$cpu_bpf" 'BEGIN {
			if (b == "n/a" || b <= 0) { print "    ratios: n/a (bpf\047s CPU not measured)"; exit }
			printf "    ratios per interval: perf / bpf %s, per-thread / bpf %s\n",
				(p == "" || p == "n/a") ? "n/a" : sprintf("%.2f", p / b), t == "n/a" ? "n/a" : sprintf("%.1f", t / b)
		}'
		awk -v p="${p_steady:-}" -v t="$steady_perthread" -v b="$steady_bpf" 'BEGIN {
			if (b == "n/a" || b <= 0) { print "    ratios after the first second: n/a"; exit }
			printf "    ratios after the first second: perf / bpf %s, per-thread / bpf %s\n",
				(p == "" || p == "n/a") ? "n/a" : sprintf("%.2f", p / b), t == "n/a" ? "n/a" : sprintf("%.1f", t / b)
		}'
	fi
done
