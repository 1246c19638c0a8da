#!/bin/sh
# bench_exporter: what scraping topdownd costs and whether it disturbs
# sampling. The daemon follows a process at -I 100 and runs a system
# profile; ROUNDS rounds of 100 concurrent GET /metrics (curl) are made.
# Prints the scrape latency seen by curl (median, 99th percentile), the
# render time the daemon reports (topdown_scrape_duration_seconds), and the
# intervals of the followed session longer than two periods (missed). Never
# fails. Run as root.
# Usage: bench/bench_exporter.sh BUILDDIR [ROUNDS]  (`make bench` runs it)
set -u
build=${1:?usage: bench_exporter.sh BUILDDIR [ROUNDS]}
rounds=${2:-5}
tdctl="$build/src/tdctl/tdctl"
daemon="$build/src/topdownd/topdownd"
dir=$(mktemp -d "${TMPDIR:-/tmp}/td-bench-exporter.XXXXXX")
dpid= wpid=
trap 'kill $wpid $dpid 2>/dev/null || :; rm -rf "$dir"' EXIT
if [ "$(id -u)" != 0 ] || ! command -v curl >/dev/null; then
	echo "bench_exporter: run as root with curl installed"
	exit 0
fi
printf '[exporter]\nlisten = 127.0.0.1:0\n[schedule sys]\nevery = 2s\nduration = 1s\ninterval = 500ms\n' >"$dir/c.conf"
"$daemon" -f -c "$dir/c.conf" --socket "$dir/sock" --database "$dir/d.db" 2>"$dir/log" &
dpid=$!
i=0
while ! grep -q "serving metrics" "$dir/log" && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
port=$(sed -n 's/.*(port \([0-9]*\)).*/\1/p' "$dir/log")
sleep 60 &
wpid=$!
s=$("$tdctl" attach "$wpid" --socket "$dir/sock" -I 100 2>/dev/null)
sleep 1
r=0
while [ $r -lt "$rounds" ]; do
	i=0
	while [ $i -lt 100 ]; do
		curl -s -o /dev/null -w '%{time_total}\n' "http://127.0.0.1:$port/metrics" >>"$dir/times" &
		i=$((i + 1))
	done
	wait_n=0
	while [ "$(wc -l <"$dir/times")" -lt $(((r + 1) * 100)) ] && [ $wait_n -lt 600 ]; do sleep 0.05; wait_n=$((wait_n + 1)); done
	r=$((r + 1))
done
render=$(curl -s "http://127.0.0.1:$port/metrics" | awk '$1 == "topdown_scrape_duration_seconds" { print $2 }')
"$tdctl" detach "$s" --socket "$dir/sock" >/dev/null 2>&1
sleep 0.5
missed=$(sqlite3 "$dir/d.db" "select count(*) from intervals where session_id = $s and end_ns - start_ns > 200000000")
n=$(sqlite3 "$dir/d.db" "select count(*) from intervals where session_id = $s")
echo "bench_exporter: $rounds rounds of 100 concurrent scrapes while following a process at -I 100"
sort -n "$dir/times" | awk '{ t[NR] = $1 } END { printf "  scrape latency (curl): median %.2f ms, p99 %.2f ms, max %.2f ms over %d scrapes\n", t[int(NR / 2) + 1] * 1000, t[int(NR * 0.99)] * 1000, t[NR] * 1000, NR }'
awk -v r="$render" 'BEGIN { printf "  render time (topdown_scrape_duration_seconds): %.3f ms\n", r * 1000 }'
echo "  intervals of the followed session over 200 ms (missed): $missed of $n"
