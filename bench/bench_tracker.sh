#!/bin/sh
# bench_tracker: the two thread trackers on a churn of short threads.
# td-demo -c RATE starts RATE threads a second for SECONDS, each sleeping
# 10 to 100 ms (many shorter than the 20 ms /proc scan), and writes each
# thread's TID, start and end (-T); `tdctl attach -I 100` follows it with
# --tracker=proc, then with --tracker=bpf. Prints for each: threads listed
# of those the workload started, intervals stored, and the CPU time tdctl
# used (its utime + stime from /proc/PID/stat, read from outside just before
# it exits), then the ratios bpf / proc. Never fails; skips bpf where it
# does not load.
# Usage: bench/bench_tracker.sh BUILDDIR [SECONDS] [RATE]  (`make bench` runs it)
set -eu
build=${1:?usage: bench_tracker.sh BUILDDIR [SECONDS] [RATE]}
seconds=${2:-5}
rate=${3:-1000}
tdctl="$build/src/tdctl/tdctl"
demo="$build/src/demo/td-demo"
dir=$(mktemp -d "${TMPDIR:-/tmp}/td-bench-tracker.XXXXXX")
pid=
tpid=
trap '[ -z "$pid" ] || kill "$pid" 2>/dev/null || :; [ -z "$tpid" ] || kill "$tpid" 2>/dev/null || :; rm -rf "$dir"' EXIT
tck=$(getconf CLK_TCK)

# measure MODE: prints "LISTED STARTED INTERVALS CPU_S"
measure() {
	rm -f "$dir/ready" "$dir/lives" "$dir/$1.db"
	"$demo" -c "$rate" -s "$seconds" -m 100 -i 0 -w -r "$dir/ready" -T "$dir/lives" >/dev/null 2>&1 &
	pid=$!
	while [ ! -s "$dir/ready" ]; do sleep 0.05; done
	"$tdctl" attach "$pid" -q -I 100 --tracker="$1" -d "$dir/$1.db" >/dev/null 2>"$dir/$1.err" &
	tpid=$!
	until [ "$(sqlite3 "$dir/$1.db" "select count(*) from intervals" 2>/dev/null || echo 0)" -gt 0 ]; do sleep 0.05; done
	kill -USR1 "$pid"
	# tdctl's CPU time, last read while it still runs (it ends when td-demo does)
	ticks=0
	while t=$(awk '{ sub(/^.*\) /, ""); print $12 + $13 }' "/proc/$tpid/stat" 2>/dev/null) && [ -n "$t" ]; do
		ticks=$t
		sleep 0.02
	done
	wait "$tpid" || :
	tpid=
	wait "$pid" 2>/dev/null || :
	pid=
	awk '{ print $1 }' "$dir/lives" | sort -u >"$dir/started"
	sqlite3 "$dir/$1.db" "select tid from threads where tid > 0" | sort -u >"$dir/listed"
	echo "$(comm -12 "$dir/started" "$dir/listed" | wc -l) $(wc -l <"$dir/started") \
$(sqlite3 "$dir/$1.db" "select count(*) from intervals") $(awk -v t="$ticks" -v h="$tck" 'BEGIN { printf "%.3f", t / h }')"
}

echo "bench_tracker: td-demo -c $rate for $seconds s (threads living 10-100 ms), tdctl attach -I 100"
set -- $(measure proc)
p_listed=$1 p_started=$2 p_int=$3 p_cpu=$4
echo "  proc: $p_listed of $p_started threads listed ($(awk -v a="$p_listed" -v b="$p_started" 'BEGIN { printf "%.1f", 100 * a / b }') %), $p_int intervals, tdctl CPU $p_cpu s"
if ! "$tdctl" run -q --tracker=bpf -d "$dir/probe.db" -- true 2>"$dir/probe.err"; then
	echo "  bpf:  not measured: $(cat "$dir/probe.err")"
	exit 0
fi
set -- $(measure bpf)
b_listed=$1 b_started=$2 b_int=$3 b_cpu=$4
echo "  bpf:  $b_listed of $b_started threads listed ($(awk -v a="$b_listed" -v b="$b_started" 'BEGIN { printf "%.1f", 100 * a / b }') %), $b_int intervals, tdctl CPU $b_cpu s"
awk -v pl="$p_listed" -v ps="$p_started" -v bl="$b_listed" -v bs="$b_started" -v pc="$p_cpu" -v bc="$b_cpu" 'BEGIN {
	printf "  ratio bpf/proc: share of threads listed %.2f, tdctl CPU %s\n", (bl / bs) / (pl / ps),
		(pc > 0) ? sprintf("%.2f", bc / pc) : "n/a (proc used no measurable CPU)"
}'
