#!/bin/sh
# bench_saturated: does the sampler keep its clock when the target saturates
# the CPUs? (issue 16 item 4: 1,000 busy threads, --duration 5 -I 100: >= 49
# of 50 intervals stored, wall time <= 5.5 s, every thread listed.)
# td-demo runs THREADS busy threads (compute, memory, branchy, and some that
# sleep 1 ms between chunks); then in both counting modes (--counting=bpf,
# per-thread), and once with --no-priority (the default mode):
#   tdctl attach PID --duration 5 -I 100
#   tdctl run --duration 5 -I 100 -- td-demo -t THREADS ...
# and for each prints the intervals stored of those due, the periods read
# late (the session's message), the wall time of the whole command (and that
# less the start wait of a do-nothing program measured the same way, in the
# same run: a floor no program can go below; and from the session's recorded
# start to the end), tdctl's
# CPU time (attach: user + system of the whole command, the kernel's
# accounting of this shell's children), the CPU time the intervals record
# (collector_ns: sampling and writing, from the first interval to the last)
# and the threads listed. Then bench_collector: the collector's CPU per interval
# against bare read()s of the same groups (the fallback per-thread mode,
# goal <= 2x). Never fails. The priority needs root (or CAP_SYS_NICE).
# Usage: bench/bench_saturated.sh BUILDDIR [THREADS] [SECONDS]
set -eu
build=${1:?usage: bench_saturated.sh BUILDDIR [THREADS] [SECONDS]}
threads=${2:-1000}
seconds=${3:-5}
tdctl="$build/src/tdctl/tdctl"
demo="$build/src/demo/td-demo"
dir=$(mktemp -d "${TMPDIR:-/tmp}/td-bench-saturated.XXXXXX")
wpid=
trap 'kill $wpid 2>/dev/null || :; rm -rf "$dir"' EXIT
due=$((seconds * 10))

# row LABEL DB WALL_NS CPU_TICKS END_NS: one line of figures for a session
row() {
	n=$(sqlite3 "$2" "select count(*) from intervals" 2>/dev/null || echo 0)
	late=$(sqlite3 "$2" "select message from sessions" 2>/dev/null |
		sed -n 's/.*; \([0-9]*\) interval periods\{0,1\} of 100 ms not read on time.*/\1/p')
	listed=$(sqlite3 "$2" "select count(*) from threads where tid != 0" 2>/dev/null || echo 0)
	sampling=$(sqlite3 "$2" "select coalesce(sum(collector_ns), 0) from intervals" 2>/dev/null || echo 0)
	started=$(sqlite3 "$2" "select started_ns from sessions order by id limit 1" 2>/dev/null || echo 0)
	awk -v l="$1" -v n="$n" -v d="$due" -v late="${late:-0}" -v w="$3" -v c="$4" -v t="$(getconf CLK_TCK)" \
		-v s="$sampling" -v floor="$floor" -v started="${started:-0}" -v end="$5" -v listed="$listed" -v want=$((threads + 1)) 'BEGIN {
		printf "  %-24s %3d of %d intervals stored, %3d periods late, wall %5.2f s (%.2f s less the start wait, %.2f s from the session'"'"'s start to the end), CPU %s, sampling CPU %.2f s (%.1f ms per interval), threads listed %d of %d\n",
			l, n, d, late, w / 1e9, (w - floor) / 1e9, started ? (end - started) / 1e9 : 0, c < 0 ? "-" : sprintf("%.2f s", c / t), s / 1e9, n ? s / 1e6 / n : 0, listed, want }'
}

# start_wait: the wall time a do-nothing program (true) takes to start and
# end here, started as timed() starts tdctl: the median of 5, in ns. On a
# saturated machine that is the scheduler's wait for a newly started program
# (EEVDF gives it its turn after the runnable threads whose deadlines come
# first: ~0.7 s behind 1,000 busy threads on 2 CPUs); no program shortens it
# before it runs, so each row also prints its wall time less this floor
start_wait() {
	for i in 1 2 3 4 5; do
		if chrt -f 1 true 2>/dev/null; then
			chrt -f 1 sh -c 's=$(date +%s%N); chrt -o 0 true; echo $(($(date +%s%N) - s))'
		else
			s=$(date +%s%N); true; echo $(($(date +%s%N) - s))
		fi
	done | sort -n | sed -n 3p
}

# timed LABEL DB CMD...: run CMD (a tdctl), print its row. The wall time is
# tdctl's, from its start to its end, taken by a real-time shell (where
# permitted) that starts it at normal priority (chrt -o 0), as a user's
# shell would: an ordinary shell on the saturated CPUs would wait its turn
# behind the busy threads to start it and again to see it end, and
# that would be counted as tdctl's
timed() {
	label=$1 db=$2
	shift 2
	rm -f "$db"
	c0=$(awk '{ print $16 + $17 }' /proc/$$/stat)
	if chrt -f 1 true 2>/dev/null; then
		chrt -f 1 sh -c 's=$(date +%s%N); chrt -o 0 "$@" >/dev/null 2>"$0" || true; echo "$s $(date +%s%N)"' \
			"$dir/err" "$@" >"$dir/wall"
	else
		{ s=$(date +%s%N); "$@" >/dev/null 2>"$dir/err" || true; echo "$s $(date +%s%N)"; } >"$dir/wall"
	fi
	read -r s e <"$dir/wall"
	c1=$(awk '{ print $16 + $17 }' /proc/$$/stat) # cutime + cstime: the children waited for
	# tdctl run waits for its command: its CPU time is the command's too, not tdctl's alone
	case $label in run*) c1=-1 c0=0 ;; esac
	row "$label" "$db" $((e - s)) $((c1 - c0)) "$e"
}

echo "bench_saturated: $threads busy threads on $(nproc) CPUs, -I 100 --duration $seconds ($(cut -d' ' -f1-3 /proc/loadavg) load before)"
"$demo" -t "$threads" -l 0 -e 0 -s $((seconds * 20 + 60)) -r "$dir/ready" >/dev/null 2>&1 &
wpid=$!
i=0
while [ ! -s "$dir/ready" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
sleep 1
floor=$(start_wait)
awk -v f="$floor" 'BEGIN { printf "  start wait: %.2f s for true to start and end, started as tdctl is (median of 5)\n", f / 1e9 }'
for mode in bpf per-thread; do
	timed "attach $mode" "$dir/a.db" "$tdctl" attach "$wpid" -I 100 --duration "$seconds" --counting=$mode -d "$dir/a.db"
	grep -h "note: sampler at" "$dir/err" | sed 's/^tdctl: note: /    /' || true
	grep -h "^tdctl: .*BPF counting does not load" "$dir/err" | sed 's/^/    /' || true
done
timed "attach --no-priority" "$dir/an.db" "$tdctl" attach "$wpid" -I 100 --duration "$seconds" --no-priority -d "$dir/an.db"
kill "$wpid" 2>/dev/null || true
wait "$wpid" 2>/dev/null || true
wpid=
floor=$(start_wait) # the machine is idle again: run's tdctl starts before its busy threads
for mode in bpf per-thread; do
	timed "run $mode" "$dir/r.db" "$tdctl" run -I 100 --duration "$seconds" --counting=$mode -d "$dir/r.db" -- \
		"$demo" -t "$threads" -l 0 -e 0 -s 60
done
timed "run --no-priority" "$dir/rn.db" "$tdctl" run -I 100 --duration "$seconds" --no-priority -d "$dir/rn.db" -- \
	"$demo" -t "$threads" -l 0 -e 0 -s 60
echo "  (load after: $(cut -d' ' -f1-3 /proc/loadavg))"

if [ -x "$build/bench/bench_collector" ] || make -C "$build" bench/bench_collector >/dev/null 2>&1; then
	echo "per-interval cost of the per-thread (fallback) mode, $threads sleeping threads:"
	"$build/bench/bench_collector" "$threads" 100 | sed 's/^/  /'
else
	echo "bench_collector could not be built: no per-interval cost figures"
fi
