#!/bin/bash
# bench_target: what the monitored program pays (issue 37). In one run,
# interleaved, REPEATS times each (medians printed), pinned to CPU 0 so that
# both tasks of the benchmark share a CPU (unpinned, a VM's cross-CPU
# wake-ups swamp everything):
#   taskset -c 0 perf bench sched pipe -l LOOPS                 alone
#   perf stat -e <software.td's events> -- (the same)           inherited, as perf counts a command
#   tdctl run --counting=bpf -- (the same)                      the BPF counting program
#   tdctl run --counting=per-thread -- (the same)               perf groups per thread
#   tdctl run --counting=per-thread --unlisted=off -- (the same) ... without the inherited remainder
# and, where a PMU counts cycles, the same with a hardware group added
# (perf stat -e '{cycles,instructions}' and tdctl -e cycles,instructions);
# SKIP with the reason otherwise (the benchmark run by a bash whose `times`
# gives its processes' CPU time). For each: µs per operation, the context
# switches per operation (perf stat's context-switches count / LOOPS), the
# ns each switch gained over the benchmark alone, and that as a ratio of
# perf stat's, then the same from the benchmark's CPU time per operation
# (other processes' time on CPU 0 is not in it: the figure to trust on a
# busy machine; `times` says milliseconds: it needs LOOPS of 100,000 or
# more). tdctl's own estimate of its cost to the target (the summary's
# "cost to the target" line) is printed beside what this bench measured
# (ms: from the wall time per op, and from the CPU time),
# measured by each run (TD_SWITCH_COST_CACHE empty: not this boot's figure
# an earlier tdctl kept, which another build or a busier moment may have
# measured); without the perf mode the switches per operation, and what
# depends on them, are n/a.
# Then the same attached (tdctl attach, perf stat -p): one pipe benchmark
# (pinned to CPU 0, as above) started alone and left running; in turn a
# window of WINDOW seconds (TD_BENCH_WINDOW, default 2) with nothing
# attached, with `perf stat -e <the same events> -p` its two processes, with
# `tdctl attach --children` in each counting mode; each tool pinned to CPU 1
# (its own CPU time is not the target's; bench_vs_perf.sh measures it) and
# its window begun once its counters are open (its perf_event and BPF link
# descriptors unchanged for 0.3 s). The benchmark's ns per switch in a
# window is the CPU time its tasks ran in it (/proc/PID/task/*/schedstat:
# the scheduler charges a switch's work, perf's and the BPF program's, to
# the tasks on either side, here the benchmark's; other processes' time on
# CPU 0 is not in it) over the switches they made in it
# (/proc/PID/task/*/status, both processes); added is that less the alone
# windows'. The window's wall time per switch is printed beside it. perf stat -p is the fair peer for attached use: its events are
# per task, with no cloned contexts to swap at a switch between the two
# processes (perf stat's inherited events give the child a clone of the
# parent's context, which the kernel swaps without touching the events:
# docs/performance.md). The ratio lines at the end: BPF/perf-inherit (run),
# BPF/perf-p and per-thread/perf-p (attached).
# Then an everyday workload, bench_pool (a thread pool handing small tasks
# through a queue, pinned the same way), alone and under each tool: its
# switches a second and how much slower it ran (%); and again with its work
# per task scaled so that it runs at ~20,000 switches a second alone (the
# issue's example of an everyday workload; TD_BENCH_POOL_RATE), measured
# once before the rounds: bench_pool's defaults switch at 19,000 a second on
# one guest and 66,700 on another. Last, the BPF counting
# program's run time per invocation (kernel.bpf_stats_enabled, through
# bench_bpf_run) against an empty tp_btf program on the same tracepoint
# (bench/empty_switch.bpf.c), both attached during one tdctl run; and again
# for switches nobody follows (tdctl attached to a sleeping process while the
# pipe benchmark runs beside it), in each flavour (tp_btf, raw_tp).
# The figures are the medians of REPEATS; the load average at the start and
# the end says how busy the machine was. Never fails on a missing tool: says
# what is missing and skips what needs it. Needs root (perf, BPF).
# Usage: bench/bench_target.sh BUILDDIR [LOOPS] [REPEATS]
# TD_BENCH_ATTACH=0 leaves the attached part out; TD_BENCH_ATTACH_MODES lists
# its modes instead (alone perf-p attach-bpf attach-per-thread, and
# perf-p-x2: perf stat -p with each event twice, a group of them and the
# singles, as many events a task as tdctl's per-thread mode has;
# perf-p-group: perf stat -p with the events as one group, as tdctl opens them; and
# attach-per-thread-off: --unlisted=off, no inherited remainder).
# TD_BENCH_MODES lists the run and everyday modes instead (alone perf bpf
# per-thread per-thread-off, and the hw- ones where a PMU counts).
set -eu
build=${1:?usage: bench_target.sh BUILDDIR [LOOPS] [REPEATS]}
loops=${2:-200000}
repeats=${3:-3}
src=$(cd "$(dirname "$0")/.." && pwd)
export TD_SWITCH_COST_CACHE= # each run measures its cost to the target (the header)
tdctl="$build/src/tdctl/tdctl"
pool="$build/bench/bench_pool"
bpfrun="$build/bench/bench_bpf_run"
dir=$(mktemp -d "${TMPDIR:-/tmp}/td-bench-target.XXXXXX")
bpid=
tpid=
apid=
achild=
spid=
upid=
trap '[ -z "$bpid" ] || kill "$bpid" 2>/dev/null || :; [ -z "$tpid" ] || kill "$tpid" 2>/dev/null || :; [ -z "$apid" ] || kill "$apid" $achild 2>/dev/null || :; [ -z "$upid" ] || kill "$upid" 2>/dev/null || :; [ -z "$spid" ] || kill "$spid" 2>/dev/null || :; rm -rf "$dir"' EXIT
events=$(awk '$1 == "event" { printf "%s%s", sep, tolower($3); sep = "," }' "$src/events/software.td" |
	sed 's/perf:://g')
pool_args=${TD_BENCH_POOL_ARGS:--t 4 -n 10000 -w 50000} # bench_pool's defaults, said in full
pool_rate=${TD_BENCH_POOL_RATE:-20000}
window=${TD_BENCH_WINDOW:-2}

if ! command -v perf >/dev/null || ! perf bench sched pipe -l 10 >/dev/null 2>&1; then
	echo "bench_target: SKIP: 'perf bench sched pipe' is missing (Debian: apt-get install linux-perf)"
	exit 0
fi
[ -x "$pool" ] && [ -x "$bpfrun" ] || make -C "$build" -s bench/bench_pool bench/bench_bpf_run >/dev/null
bpf_ok=1
"$tdctl" run -q --counting=bpf -d "$dir/probe.db" -- true >/dev/null 2>"$dir/probe.err" || bpf_ok=0
hw_ok=1
hw_why=
if ! perf stat -x, -e cycles,instructions -o "$dir/hw.csv" -- true 2>/dev/null ||
	grep -q "not supported\|not counted" "$dir/hw.csv"; then
	hw_ok=0
	hw_why="no PMU counts cycles here (perf stat -e cycles: not supported)"
fi

modes="alone perf"
[ $bpf_ok = 1 ] && modes="$modes bpf"
modes="$modes per-thread per-thread-off"
[ $hw_ok = 1 ] && modes="$modes hw-perf"
[ $hw_ok = 1 ] && [ $bpf_ok = 1 ] && modes="$modes hw-bpf"
[ $hw_ok = 1 ] && modes="$modes hw-per-thread"
modes=${TD_BENCH_MODES:-$modes}
amodes=
if [ "${TD_BENCH_ATTACH:-1}" != 0 ]; then
	amodes="alone perf-p"
	[ $bpf_ok = 1 ] && amodes="$amodes attach-bpf"
	amodes="$amodes attach-per-thread attach-per-thread-off"
	amodes=${TD_BENCH_ATTACH_MODES:-$amodes}
fi

# the second pool: pool_args with its work per task (-w) scaled by the rate it switches at alone
taskset -c 0 "$pool" $pool_args >"$dir/calib.out" 2>/dev/null || :
calib=$(awk '$1 == "tasks" && $4 > 0 { printf "%.0f", $6 / $4 }' "$dir/calib.out")
work=$(echo " $pool_args " | sed -n 's/.* -w \([0-9][0-9]*\) .*/\1/p')
pool2_args=
if [ -n "$calib" ] && [ "${calib:-0}" -gt 0 ] && [ "$pool_rate" -gt 0 ]; then
	w2=$(awk -v w="${work:-50000}" -v r="$calib" -v want="$pool_rate" 'BEGIN { printf "%d", w * r / want }')
	pool2_args=$(echo " $pool_args " | sed "s/ -w [0-9][0-9]* / /; s/^ *//; s/ *\$//")" -w $w2"
fi

# wrap MODE TAG: the command prefix that runs a workload under MODE (a database per run: TAG)
wrap() {
	case $1 in
	alone) ;;
	perf) echo "perf stat -x, -o $dir/$2.perf -e $events --" ;;
	hw-perf) echo "perf stat -x, -o $dir/$2.perf -e {cycles,instructions},$events --" ;;
	bpf) echo "$tdctl run -q --counting=bpf -d $dir/$2.db --" ;;
	per-thread) echo "$tdctl run -q --counting=per-thread -d $dir/$2.db --" ;;
	per-thread-off) echo "$tdctl run -q --counting=per-thread --unlisted=off -d $dir/$2.db --" ;;
	hw-bpf) echo "$tdctl run -q --counting=bpf -e cycles,instructions -d $dir/$2.db --" ;;
	hw-per-thread) echo "$tdctl run -q --counting=per-thread -e cycles,instructions -d $dir/$2.db --" ;;
	esac
}
# attach MODE TAG PID CHILD: run the tool of MODE attached to PID and CHILD, in the background (tpid)
attach() {
	case $1 in
	perf-p) taskset -c 1 perf stat -x, -o "$dir/$2.perf" -e "$events" -p "$3,$4" >/dev/null 2>"$dir/$2.err" & ;;
	perf-p-x2) taskset -c 1 perf stat -x, -o "$dir/$2.perf" -e "{$events},$events" -p "$3,$4" >/dev/null 2>"$dir/$2.err" & ;;
	perf-p-group) taskset -c 1 perf stat -x, -o "$dir/$2.perf" -e "{$events}" -p "$3,$4" >/dev/null 2>"$dir/$2.err" & ;;
	attach-bpf) taskset -c 1 "$tdctl" attach "$3" --children -q --counting=bpf -d "$dir/$2.db" >/dev/null 2>"$dir/$2.err" & ;;
	attach-per-thread)
		taskset -c 1 "$tdctl" attach "$3" --children -q --counting=per-thread -d "$dir/$2.db" >/dev/null 2>"$dir/$2.err" &
		;;
	attach-per-thread-off)
		taskset -c 1 "$tdctl" attach "$3" --children -q --counting=per-thread --unlisted=off -d "$dir/$2.db" \
			>/dev/null 2>"$dir/$2.err" &
		;;
	esac
	tpid=$!
}
# the perf_event and BPF link descriptors process $1 holds
counters_of() { find "/proc/$1/fd" -lname 'anon_inode:*perf_event*' -o -lname 'anon_inode:bpf_link' 2>/dev/null | wc -l; }
# wait (at most 20 s) until tool $1 has counters open, unchanged for 0.3 s
wait_counting() {
	local prev=-1 same=0 n
	for _ in $(seq 200); do
		[ -d "/proc/$1" ] || return 1
		n=$(counters_of "$1")
		if [ "$n" -gt 0 ] && [ "$n" = "$prev" ]; then
			same=$((same + 1))
			[ $same -ge 3 ] && return 0
		else
			same=0
		fi
		prev=$n
		sleep 0.1
	done
	return 1
}
# the context switches the tasks of processes $@ made so far
switches_now() {
	local p
	for p in "$@"; do cat "/proc/$p"/task/*/status 2>/dev/null || :; done | awk '/ctxt_switches/ { s += $2 } END { print s + 0 }'
}
# the CPU time (ns) the tasks of processes $@ ran so far (schedstat's first field: se.sum_exec_runtime)
cpu_now() {
	local p
	for p in "$@"; do cat "/proc/$p"/task/*/schedstat 2>/dev/null || :; done | awk '{ s += $1 } END { printf "%.0f\n", s }'
}
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "n/a"; else if (NR % 2) print v[(NR + 1) / 2]; else printf "%.4f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# the summary's estimate of the cost to the target, ms: "cost to the target: ~X ms of CPU" (absent: none)
estimate_of() { sed -n 's/.*cost to the target: ~\([0-9.]*\) ms.*/\1/p' "$1" | head -n 1; }

echo "bench_target: perf bench sched pipe -l $loops pinned to CPU 0, $repeats runs each, interleaved; events: $events"
echo "  load average at start: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs"
[ $bpf_ok = 1 ] || echo "  bpf: SKIP: tdctl --counting=bpf did not start: $(head -n 1 "$dir/probe.err")"
[ $hw_ok = 1 ] || echo "  hardware group: SKIP: $hw_why"
for r in $(seq "$repeats"); do
	if [ -n "$amodes" ]; then
		taskset -c 0 perf bench sched pipe -l 2000000000 >/dev/null 2>&1 &
		apid=$!
		achild=
		for _ in $(seq 50); do
			achild=$(pgrep -P "$apid" | head -n 1) && [ -n "$achild" ] && break
			sleep 0.1
		done
		for m in $amodes; do
			[ -n "$achild" ] || break
			[ "$m" = alone ] || attach "$m" "attach-$m-$r" "$apid" "$achild"
			if [ "$m" = alone ] || wait_counting "$tpid"; then
				t0=$(date +%s%N) c0=$(cpu_now "$apid" "$achild") s0=$(switches_now "$apid" "$achild")
				sleep "$window"
				t1=$(date +%s%N) c1=$(cpu_now "$apid" "$achild") s1=$(switches_now "$apid" "$achild")
				awk -v t="$((t1 - t0))" -v s="$((s1 - s0))" 'BEGIN { if (s > 0) printf "%.2f\n", t / s }' >>"$dir/attach-$m.wall"
				awk -v t="$((c1 - c0))" -v s="$((s1 - s0))" 'BEGIN { if (s > 0) printf "%.2f\n", t / s }' >>"$dir/attach-$m.ns"
				cut -d' ' -f1 /proc/loadavg >>"$dir/attach-$m.load"
			else
				echo "  $m: its counters did not open within 20 s (round $r): no window; $(head -c 300 "$dir/attach-$m-$r.err" 2>/dev/null | head -n 1)" >>"$dir/attach.why"
			fi
			if [ "$m" != alone ]; then
				kill -INT "$tpid" 2>/dev/null || :
				wait "$tpid" || :
				tpid=
			fi
		done
		# the child too: left behind by its parent's end, it would outlive the bench
		kill "$apid" $achild 2>/dev/null || :
		wait "$apid" 2>/dev/null || :
		apid=
	fi
	for m in $modes; do
		tag="pipe-$m-$r"
		# shellcheck disable=SC2046
		# (bash's times: the CPU time of the benchmark's processes, its children)
		# shellcheck disable=SC2016
		$(wrap "$m" "$tag") bash -c 'taskset -c 0 perf bench sched pipe -l "$1"; times >"$2"' bench "$loops" \
			"$dir/$tag.times" >"$dir/$tag.out" 2>"$dir/$tag.err" || :
		awk '/usecs\/op/ { print $1 }' "$dir/$tag.out" >>"$dir/pipe-$m.us"
		awk -v l="$loops" 'NR == 2 { split($1, u, /[ms]/); split($2, k, /[ms]/)
			printf "%.4f\n", (u[1] * 60 + u[2] + k[1] * 60 + k[2]) * 1e6 / l }' "$dir/$tag.times" >>"$dir/pipe-$m.cpu" 2>/dev/null || :
		if [ -f "$dir/$tag.perf" ]; then
			awk -F, '$3 == "context-switches" { print $1 }' "$dir/$tag.perf" >>"$dir/pipe.switches"
		fi
		e=$(estimate_of "$dir/$tag.err")
		[ -z "$e" ] || echo "$e" >>"$dir/pipe-$m.est"
		tag="pool-$m-$r"
		# shellcheck disable=SC2046,SC2086
		$(wrap "$m" "$tag") taskset -c 0 "$pool" $pool_args >"$dir/$tag.out" 2>"$dir/$tag.err" || :
		awk '$1 == "tasks" { print $4 }' "$dir/$tag.out" >>"$dir/pool-$m.s"
		awk '$1 == "tasks" { print $6 / $4 }' "$dir/$tag.out" >>"$dir/pool-$m.rate"
		[ -n "$pool2_args" ] || continue
		tag="pool2-$m-$r"
		# shellcheck disable=SC2046,SC2086
		$(wrap "$m" "$tag") taskset -c 0 "$pool" $pool2_args >"$dir/$tag.out" 2>"$dir/$tag.err" || :
		awk '$1 == "tasks" { print $4 }' "$dir/$tag.out" >>"$dir/pool2-$m.s"
		awk '$1 == "tasks" { print $6 / $4 }' "$dir/$tag.out" >>"$dir/pool2-$m.rate"
	done
done

sw=$(median 2>/dev/null <"$dir/pipe.switches" || echo n/a)
sw_op=$(awk -v s="$sw" -v l="$loops" 'BEGIN { if (s == "n/a") print "n/a"; else printf "%.3f", s / l }')
alone=$(median <"$dir/pipe-alone.us")
perf_us=$(median 2>/dev/null <"$dir/pipe-perf.us" || echo n/a)
echo
echo "pipe: $sw_op context switches per operation (perf stat's context-switches / loops, median)"
echo "  CPU: the benchmark's processes' CPU time (bash's times) per op; other processes' time on CPU 0 is not in it"
printf '  %-16s %12s %16s %14s %22s %10s %12s %10s\n' "how it ran" "µs per op" "added ns/switch" "vs perf stat" \
	"tdctl's estimate (ms)" "CPU µs/op" "added (CPU)" "vs (CPU)"
alone_cpu=$(median <"$dir/pipe-alone.cpu")
for m in $modes; do
	us=$(median <"$dir/pipe-$m.us")
	cpu=$(median <"$dir/pipe-$m.cpu")
	ref=$perf_us
	refc=$(median 2>/dev/null <"$dir/pipe-perf.cpu" || echo n/a)
	case $m in hw-*) ref=$(median 2>/dev/null <"$dir/pipe-hw-perf.us" || echo n/a)
		refc=$(median 2>/dev/null <"$dir/pipe-hw-perf.cpu" || echo n/a) ;;
	esac
	est=n/a
	[ -f "$dir/pipe-$m.est" ] && est=$(median <"$dir/pipe-$m.est")
	awk -v m="$m" -v us="$us" -v a="$alone" -v p="$ref" -v s="$sw_op" -v est="$est" -v l="$loops" \
		-v c="$cpu" -v ca="$alone_cpu" -v cp="$refc" 'BEGIN {
		added = (us == "n/a" || s == "n/a" || m == "alone") ? "-" : sprintf("%.0f", (us - a) * 1000 / s)
		ratio = (added == "-" || p == "n/a" || p - a <= 0) ? "-" : sprintf("%.2f", (us - a) / (p - a))
		meas = (est == "n/a" || us == "n/a") ? "" : sprintf(" (bench: %.1f", (us - a) * l / 1e3)
		if (meas != "") meas = meas ((c == "n/a" || ca == "n/a") ? ")" : sprintf(", CPU %.1f)", (c - ca) * l / 1e3))
		addc = (c == "n/a" || ca == "n/a" || s == "n/a" || m == "alone") ? "-" : sprintf("%.0f", (c - ca) * 1000 / s)
		ratc = (addc == "-" || cp == "n/a" || cp - ca <= 0) ? "-" : sprintf("%.2f", (c - ca) / (cp - ca))
		printf "  %-16s %12s %16s %14s %22s %10s %12s %10s\n", m, us, added, ratio, est meas, c, addc, ratc
	}'
done

if [ -n "$amodes" ]; then
	aalone=$(median <"$dir/attach-alone.ns" 2>/dev/null || echo n/a)
	echo
	echo "attached: perf bench sched pipe pinned to CPU 0, left running; a ${window} s window each, $repeats rounds, interleaved (tools on CPU 1)"
	echo "  per switch: the benchmark's CPU time (its tasks' sum_exec_runtime: a switch's work is charged to them,"
	echo "  not the other helpers' time on CPU 0) and, beside it, the window's wall time, over its switches"
	printf '  %-18s %10s %16s %14s %10s %20s\n' "what was attached" "CPU ns/sw" "added ns/switch" "vs perf stat -p" "wall ns/sw" "load avg (windows)"
	for m in $amodes; do
		ns=$(median <"$dir/attach-$m.ns" 2>/dev/null || echo n/a)
		wall=$(median <"$dir/attach-$m.wall" 2>/dev/null || echo n/a)
		pp=$(median <"$dir/attach-perf-p.ns" 2>/dev/null || echo n/a)
		loads=$(tr '\n' ' ' <"$dir/attach-$m.load" 2>/dev/null | sed 's/ $//')
		awk -v m="$m" -v ns="$ns" -v a="$aalone" -v p="$pp" -v w="$wall" -v l="${loads:-n/a}" 'BEGIN {
			added = (ns == "n/a" || a == "n/a" || m == "alone") ? "-" : sprintf("%.0f", ns - a)
			ratio = (added == "-" || p == "n/a" || p - a <= 0) ? "-" : sprintf("%.2f", (ns - a) / (p - a))
			printf "  %-18s %10s %16s %14s %10s %20s\n", m, ns, added, ratio, w, l
		}'
	done
	[ -f "$dir/attach.why" ] && cat "$dir/attach.why"
fi

# everyday PREFIX ARGS: the pool's table (PREFIX pool or pool2)
everyday() {
	pa=$(median <"$dir/$1-alone.s")
	echo
	echo "everyday: bench_pool $2 pinned to CPU 0 ($(median <"$dir/$1-alone.rate" | awk '{ printf "%.0f", $1 }') switches/s alone)"
	printf '  %-16s %12s %14s %12s\n' "how it ran" "seconds" "switches/s" "slower %"
	for m in $modes; do
		s=$(median <"$dir/$1-$m.s")
		rate=$(median <"$dir/$1-$m.rate")
		awk -v m="$m" -v s="$s" -v a="$pa" -v r="$rate" 'BEGIN {
			printf "  %-16s %12s %14.0f %12s\n", m, s, r, (m == "alone" || s == "n/a") ? "-" : sprintf("%.2f", 100 * (s - a) / a)
		}'
	done
}
everyday pool "$pool_args"
if [ -n "$pool2_args" ]; then
	everyday pool2 "$pool2_args"
	echo "  (its work per task scaled from -w ${work:-50000} by the $calib switches/s the defaults made alone here, for ~$pool_rate)"
else
	echo "  (no second pool at ~$pool_rate switches/s: bench_pool's rate alone was not measured)"
fi

echo
if [ $bpf_ok = 0 ]; then
	echo "bpf run time: SKIP: tdctl --counting=bpf did not start"
elif ! command -v "${BPF_CLANG:-clang}" >/dev/null; then
	echo "bpf run time: SKIP: clang is missing (it compiles bench/empty_switch.bpf.c)"
else
	"${BPF_CLANG:-clang}" -target bpf -mcpu=v3 -g -O2 -I"$build/src/collect" -c "$src/bench/empty_switch.bpf.c" \
		-o "$dir/empty.o"
	"$bpfrun" "$dir/empty.o" td_empty_switch switch_btf >"$dir/bpfrun.out" 2>"$dir/bpfrun.err" &
	bpid=$!
	for _ in $(seq 100); do
		grep -q ready "$dir/bpfrun.out" 2>/dev/null && break
		sleep 0.1
	done
	# shellcheck disable=SC2046
	$(wrap bpf bpfstats) taskset -c 0 perf bench sched pipe -l "$loops" >/dev/null 2>&1 &
	tpid=$!
	# this tdctl's programs (others may run on this machine): the prog_id of its descriptors
	while [ -d "/proc/$tpid" ]; do
		grep -h '^prog_id:' /proc/"$tpid"/fdinfo/* 2>/dev/null | awk '{ print $2 }' >>"$dir/ids"
		sleep 0.05
	done
	wait "$tpid" || :
	tpid=
	kill -TERM "$bpid"
	wait "$bpid" || :
	bpid=
	echo "bpf run time per invocation (run_time_ns / run_cnt, every switch on every CPU during one tdctl run):"
	awk -v ids="$(sort -u "$dir/ids" | tr '\n' ' ')" 'BEGIN { n = split(ids, a, " "); for (i = 1; i <= n; i++) mine[a[i]] = 1 }
		$1 == "prog" && ($2 == "td_empty_switch" || $4 in mine) { printf "  %-16s %12s ns over %s runs\n", $2, $10, $6 }' "$dir/bpfrun.out"
	[ -s "$dir/bpfrun.err" ] && sed 's/^/  /' "$dir/bpfrun.err"
	# switches nobody follows: tdctl attached to a sleeping process (open-ended, so the
	# tp_btf flavour; raw_tp as a bounded session takes it with the kernel types file)
	# while the pipe benchmark runs unfollowed
	echo "bpf run time per invocation for switches nobody follows (tdctl attach on a sleeping process, the pipe benchmark beside it):"
	for flavour in tp_btf raw_tp; do
		sleep 600 &
		spid=$!
		"$bpfrun" "$dir/empty.o" td_empty_switch switch_btf switch_raw >"$dir/bpfrun2.out" 2>"$dir/bpfrun2.err" &
		bpid=$!
		for _ in $(seq 100); do
			grep -q ready "$dir/bpfrun2.out" 2>/dev/null && break
			sleep 0.1
		done
		TD_COUNTING_BPF_TYPE=$([ $flavour = raw_tp ] && echo raw_tp || :) \
			"$tdctl" attach "$spid" -I 1000 --counting=bpf -d "$dir/unfollowed.db" >/dev/null 2>"$dir/unfollowed.err" &
		upid=$!
		# its programs attached: the database has its session's first interval
		for _ in $(seq 100); do
			[ "$(sqlite3 "$dir/unfollowed.db" 'SELECT count(*) FROM intervals' 2>/dev/null || echo 0)" -gt 0 ] && break
			sleep 0.1
		done
		taskset -c 0 perf bench sched pipe -l "$loops" >/dev/null 2>&1 || :
		kill -TERM "$bpid" "$upid" 2>/dev/null || :
		wait "$bpid" "$upid" 2>/dev/null || :
		kill "$spid" 2>/dev/null || :
		wait "$spid" 2>/dev/null || :
		bpid=
		upid=
		spid=
		rm -f "$dir"/unfollowed.db*
		awk -v f=$flavour '$1 == "prog" { printf "  %-16s %12s ns over %s runs (%s)\n", $2, $10, $6, f }' "$dir/bpfrun2.out"
		[ -s "$dir/bpfrun2.err" ] && sed 's/^/  /' "$dir/bpfrun2.err"
	done
fi
# ratio NAME MEDIANS REF-MEDIANS ALONE-MEDIANS: NAME's added cost over REF's, one line
ratio() {
	local m r a
	m=$(median 2>/dev/null <"$dir/$2" || echo n/a)
	r=$(median 2>/dev/null <"$dir/$3" || echo n/a)
	a=$(median 2>/dev/null <"$dir/$4" || echo n/a)
	awk -v n="$1" -v m="$m" -v r="$r" -v a="$a" 'BEGIN {
		if (m == "n/a" || r == "n/a" || a == "n/a") printf "ratio %-28s n/a (not measured)\n", n
		else if (r - a <= 0) printf "ratio %-28s n/a (the peer added nothing measurable: %.3f - %.3f)\n", n, r, a
		else printf "ratio %-28s %.2f (added %.3f over %.3f)\n", n, (m - a) / (r - a), m - a, r - a
	}'
}
echo
echo "ratios of added cost per switch (medians of the benchmark's CPU time, or of its wall time where said;"
echo "goals: BPF <= 1 (0.5), per-thread <= 1.1):"
ratio "BPF/perf-inherit (run)" pipe-bpf.cpu pipe-perf.cpu pipe-alone.cpu
ratio "per-thread/perf-inherit (run)" pipe-per-thread.cpu pipe-perf.cpu pipe-alone.cpu
ratio "BPF/perf-inherit (run, wall)" pipe-bpf.us pipe-perf.us pipe-alone.us
ratio "per-thread/perf-inherit (run, wall)" pipe-per-thread.us pipe-perf.us pipe-alone.us
ratio "per-thread --unlisted=off/perf-inh. (run)" pipe-per-thread-off.cpu pipe-perf.cpu pipe-alone.cpu
if [ -n "$amodes" ]; then
	ratio "BPF/perf-p (attached)" attach-attach-bpf.ns attach-perf-p.ns attach-alone.ns
	ratio "per-thread/perf-p (attached)" attach-attach-per-thread.ns attach-perf-p.ns attach-alone.ns
	ratio "per-thread --unlisted=off/perf-p (att.)" attach-attach-per-thread-off.ns attach-perf-p.ns attach-alone.ns
fi
echo "  load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
