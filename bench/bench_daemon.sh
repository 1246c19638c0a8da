#!/bin/sh
# bench_daemon: what topdownd costs while it follows THREADS busy threads
# (issue 15: RSS <= 32 MB at 1,000 threads). Starts the daemon on a
# temporary socket and database, td-demo with THREADS threads, attaches
# through the daemon at -I 100 for SECONDS, and reads the daemon's VmRSS
# and utime + stime from /proc every 100 ms (the kernel's accounting, read
# from outside). Prints the largest RSS against the 32 MB ceiling, the
# daemon's CPU time per interval, the intervals stored of those due and the
# threads listed. Never fails. Run as root.
# Usage: bench/bench_daemon.sh BUILDDIR [SECONDS] [THREADS]  (`make bench` runs it)
set -eu
build=${1:?usage: bench_daemon.sh BUILDDIR [SECONDS] [THREADS]}
seconds=${2:-10}
threads=${3:-1000}
tdctl="$build/src/tdctl/tdctl"
daemon="$build/src/topdownd/topdownd"
demo="$build/src/demo/td-demo"
dir=$(mktemp -d "${TMPDIR:-/tmp}/td-bench-daemon.XXXXXX")
dpid=
wpid=
trap 'kill $wpid $dpid 2>/dev/null || :; rm -rf "$dir"' EXIT
tck=$(getconf CLK_TCK)
if [ "$(id -u)" != 0 ]; then
	echo "bench_daemon: run as root (the daemon is a root service)"
	exit 0
fi

"$daemon" -f --socket "$dir/sock" --database "$dir/d.db" 2>"$dir/log" &
dpid=$!
i=0
while ! "$tdctl" status --socket "$dir/sock" >/dev/null 2>&1 && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
# the target outlives the session by far: on saturated CPUs its threads and
# the attach command take seconds to start, and a target that exits first
# ends the session short ("target exited")
"$demo" -t "$threads" -l 0 -e 0 -s $((seconds * 3 + 30)) >/dev/null 2>&1 &
wpid=$!
sleep 0.5
rss0=$(awk '/^VmRSS/ { print $2 }' "/proc/$dpid/status")
cpu0=$(awk '{ print $14 + $15 }' "/proc/$dpid/stat")
s=$("$tdctl" attach "$wpid" --socket "$dir/sock" -I 100 --duration "$seconds" 2>/dev/null)
max=0
while [ "$(sqlite3 "$dir/d.db" "select status from sessions where id = $s" 2>/dev/null)" = running ]; do
	r=$(awk '/^VmRSS/ { print $2 }' "/proc/$dpid/status")
	[ "$r" -gt "$max" ] && max=$r
	sleep 0.1
done
cpu1=$(awk '{ print $14 + $15 }' "/proc/$dpid/stat")
n=$(sqlite3 "$dir/d.db" "select count(*) from intervals where session_id = $s")
listed=$(sqlite3 "$dir/d.db" "select count(*) from threads where session_id = $s and tid != 0")
echo "bench_daemon: $threads busy threads on $(nproc) CPUs, -I 100 for $seconds s through topdownd"
awk -v m="$max" -v r0="$rss0" 'BEGIN { printf "  RSS: %.1f MB at most while sampling (%.1f MB before): %.2f of the 32 MB ceiling\n", m / 1024, r0 / 1024, m / 1024 / 32 }'
awk -v c0="$cpu0" -v c1="$cpu1" -v t="$tck" -v n="$n" 'BEGIN { printf "  CPU: %.0f ms in all, %.2f ms per interval\n", (c1 - c0) * 1000 / t, n ? (c1 - c0) * 1000 / t / n : 0 }'
echo "  intervals stored: $n of $((seconds * 10)) due; threads listed: $listed of $threads"
sqlite3 "$dir/d.db" "select message, counting from sessions where id = $s" | sed "s/^/  session: /"
