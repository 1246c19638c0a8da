#!/bin/sh
# bench_bytes: what the store costs on disk (issue 14), against the raw
# payload — 8 bytes per value plus 16 per enabled/running pair (one per perf
# group, one per /proc read) — with the goal of at most 3 times that:
#   1. live: `tdctl attach -I 100` to td-demo's 50 busy threads for SECONDS
#      (software events and /proc switches, what every host counts);
#   2. synthetic: bench_bytes writes 50 threads x 600 intervals of 100 ms
#      through the store API in the groups `tdctl plan --pmu skl -l 3`
#      makes (the Skylake level-3 event set), values of a busy thread's
#      magnitudes;
#   3. an hour at 1 s intervals of the same 50 threads and software events
#      (bench_bytes's software layout is not used: the live session's counts
#      repeated 360 times, through sqlite3) and how long `tdctl report` and
#      `tdctl report --format csv` take on it, against the 1 s goal.
# Bytes are the file's pages after the writer closed (WAL checkpointed),
# including the schema, targets, events and the per-process metric values.
# Prints ratios; never fails on size or timing.
# Usage: bench/bench_bytes.sh BUILDDIR [SECONDS]  (`make bench` runs it)
set -eu
build=${1:?usage: bench_bytes.sh BUILDDIR [SECONDS]}
seconds=${2:-10}
tdctl="$build/src/tdctl/tdctl"
demo="$build/src/demo/td-demo"
src=$(cd "$(dirname "$0")/.." && pwd)
dir=$(mktemp -d "${TMPDIR:-/tmp}/td-bench-bytes.XXXXXX")
trap '[ -z "$pid" ] || kill "$pid" 2>/dev/null || :; rm -rf "$dir"' EXIT
pid=

# ---- 1. live, software events ------------------------------------------------
"$demo" -t 50 -l 0 -e 0 -s $((seconds + 3)) >/dev/null 2>&1 &
pid=$!
sleep 0.5
"$tdctl" attach "$pid" -q -I 100 --duration "$seconds" -d "$dir/live.db" >/dev/null 2>&1
kill "$pid" 2>/dev/null || :
wait "$pid" 2>/dev/null || :
pid=
sqlite3 -batch -noheader "$dir/live.db" "
	with ti as (select count(*) as n from (select distinct s.interval_id, s.target_id from samples s
			join targets t on t.id = s.target_id where t.kind = 'thread')),
	     payload as (select sum(8 * json_array_length(vals) + 16) as b from samples s
			join targets t on t.id = s.target_id where t.kind = 'thread'),
	     bytes as (select (select page_count from pragma_page_count) * (select page_size from pragma_page_size) as b),
	     secs as (select (max(end_ns) - min(start_ns)) / 1e9 as s from intervals)
	select 'live attach, 50 threads x 10 Hz, software events: ' || (select n from ti) || ' thread-intervals, ' ||
		printf('%.1f', bytes.b * 1.0 / ti.n) || ' bytes each (payload ' || printf('%.1f', payload.b * 1.0 / ti.n) ||
		'); ratio ' || printf('%.2f', bytes.b * 1.0 / payload.b) || ' (goal <= 3); ' ||
		printf('%.1f', bytes.b / secs.s * 3600 / 1e6) || ' MB per hour'
	from ti, payload, bytes, secs"

# ---- 2. synthetic, the Skylake level-3 groups ---------------------------------
sizes=$("$tdctl" plan --pmu skl -l 3 --events-dir "$src/events" | sed -n 's/^group [0-9]*: \([0-9]*\) events.*/\1/p' | tr '\n' ' ')
printf 'synthetic, skl level 3 (group sizes %s): ' "$sizes"
# shellcheck disable=SC2086
"$build/bench/bench_bytes" "$dir/skl.db" 50 600 100 $sizes

# ---- 3. an hour at 1 s, and the report's time on it ----------------------------
# the live session's 100 ms counts, re-timed as 1 s intervals and repeated to 3600
cp "$dir/live.db" "$dir/hour.db"
sqlite3 -batch "$dir/hour.db" "
	create temp table src as select * from samples;
	create temp table ivs as select * from intervals;
	delete from samples; delete from intervals; delete from metrics;
	with recursive k(n) as (select 0 union all select n + 1 from k where n < 3599)
	insert into intervals(id, session_id, seq, start_ns, end_ns)
		select n + 1, 1, n, (select min(start_ns) from ivs) + n * 1000000000,
			(select min(start_ns) from ivs) + (n + 1) * 1000000000 from k;
	insert into samples select i.id, s.target_id, s.event_id, s.enabled * 10, s.running * 10, s.vals
		from intervals i join ivs v on v.seq = i.seq % (select count(*) from ivs) join src s on s.interval_id = v.id;
	update sessions set interval_ms = 1000, ended_ns = (select max(end_ns) from intervals);"
"$tdctl" recompute 1 -d "$dir/hour.db" >/dev/null
sqlite3 -batch -noheader "$dir/hour.db" "select 'hour at 1 s: ' || count(*) || ' intervals, ' ||
	printf('%.1f', (select page_count from pragma_page_count) * (select page_size from pragma_page_size) / 1e6) ||
	' MB' from intervals"
for fmt in text csv; do
	start=$(date +%s.%N)
	"$tdctl" report 1 -d "$dir/hour.db" --format "$fmt" >/dev/null
	end=$(date +%s.%N)
	awk -v a="$start" -v b="$end" -v f="$fmt" 'BEGIN { printf "tdctl report --format %s of the hour: %.3f s; ratio to the 1 s goal: %.2f\n", f, b - a, b - a }'
done
