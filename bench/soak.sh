#!/bin/sh
# soak: does a long session stay flat? Follows td-demo churning threads
# (-c 1000: a thousand thread births and deaths a second, each thread living
# 10 to 490 ms) at -I 100 for MINUTES, and every SAMPLE seconds (60) prints
# the collector's RSS (VmRSS, and its anonymous part RssAnon: the heap and
# stacks, without the mapped files), its open descriptors (/proc/PID/fd) and
# the database's size (the file and its -wal). At the end: the least-squares slope
# of each over the last two thirds of the run (the first third is warm-up:
# SQLite's page cache and the thread table grow to their working size), the
# RSS growth over the last 20 minutes (or the last two thirds, when shorter)
# against issue 18's 1 MB ceiling, and the threads missed: every thread the
# workload says lived >= 2 intervals (its own CLOCK_REALTIME record, -T)
# that is not in the database (churn.sh's technique).
#   VARIANT=run     tdctl attach PID -d DB (the collector is tdctl; default)
#   VARIANT=daemon  topdownd on a temporary socket and database, and
#                   tdctl attach PID --socket (the collector is topdownd)
# Never fails on the figures (a bench reports, the tests check); exits 1 only
# when it cannot run. Run it nice'd on a shared machine; run the daemon
# variant as root.
# Usage: bench/soak.sh BUILDDIR MINUTES
set -eu
build=${1:?usage: soak.sh BUILDDIR MINUTES}
minutes=${2:?usage: soak.sh BUILDDIR MINUTES}
variant=${VARIANT:-run}
sample=${SAMPLE:-60}
tdctl="$build/src/tdctl/tdctl"
daemon="$build/src/topdownd/topdownd"
demo="$build/src/demo/td-demo"
dir=$(mktemp -d "${TMPDIR:-/tmp}/td-soak.XXXXXX")
wpid=
cpid=
dpid=
# under set -e a failing command ends a trap: the kill of processes already gone must not skip the rm
trap 'kill $wpid $cpid $dpid 2>/dev/null || true; rm -rf "$dir"' EXIT
seconds=$((minutes * 60))
if [ "$seconds" -gt 3540 ] || [ "$seconds" -lt 60 ]; then
	echo "soak: MINUTES must be 1 to 59 (td-demo works at most an hour)" >&2
	exit 1
fi

wait_until() { # wait_until SECONDS COMMAND...
	limit=$(($1 * 20))
	shift
	i=0
	while ! "$@" 2>/dev/null; do
		[ $i -lt $limit ] || return 1
		sleep 0.05
		i=$((i + 1))
	done
}

# churning 10 s beyond the last sample, so that every sample sees the churn
"$demo" -c 1000 -s "$((seconds + 10))" -m 490 -i 1000 -w -r "$dir/ready" -T "$dir/lifetimes" >"$dir/demo.out" 2>&1 &
wpid=$!
wait_until 20 test -s "$dir/ready" || { echo "soak: td-demo did not start" >&2; exit 1; }
if [ "$variant" = daemon ]; then
	[ "$(id -u)" = 0 ] || { echo "soak: the daemon variant runs as root" >&2; exit 1; }
	db="$dir/d.db"
	"$daemon" -f --socket "$dir/sock" --database "$db" 2>"$dir/daemon.log" &
	dpid=$!
	wait_until 10 "$tdctl" status --socket "$dir/sock" >/dev/null || { echo "soak: topdownd did not start" >&2; exit 1; }
	session=$("$tdctl" attach "$wpid" --socket "$dir/sock" -I 100 2>"$dir/attach.err") ||
		{ echo "soak: attach failed: $(cat "$dir/attach.err")" >&2; exit 1; }
	collector=$dpid
else
	db="$dir/c.db"
	"$tdctl" attach "$wpid" -d "$db" -I 100 -q 2>"$dir/attach.err" &
	cpid=$!
	session=1
	wait_until 20 sh -c "[ \"\$(sqlite3 '$db' \"select count(*) from sessions where status='running'\")\" = 1 ]" ||
		{ echo "soak: the session did not start: $(cat "$dir/attach.err")" >&2; exit 1; }
	collector=$cpid
fi
kill -USR1 "$wpid"
start=$(date +%s)

rss() { awk '/^VmRSS/ { print $2 }' "/proc/$collector/status"; }
anon() { awk '/^RssAnon/ { print $2 }' "/proc/$collector/status"; }
fds() { ls "/proc/$collector/fd" | wc -l | tr -d ' '; }
# the descriptors other than perf events (those follow the live thread count)
other_fds() { find "/proc/$collector/fd" ! -lname 'anon_inode:*perf_event*' -type l 2>/dev/null | wc -l | tr -d ' '; }
dbsize() { cat "$db" "$db-wal" 2>/dev/null | wc -c | tr -d ' '; }
echo "soak ($variant): td-demo churning 1,000 threads/s for $minutes min, -I 100, collector PID $collector"
printf '%8s %10s %6s %12s %8s %10s %10s\n' minute rss_kb fds db_bytes threads other_fds anon_kb
: >"$dir/samples"
n=0
while [ $n -lt $((seconds / sample)) ]; do
	n=$((n + 1))
	now=$(date +%s)
	[ $((start + n * sample)) -le "$now" ] || sleep $((start + n * sample - now))
	kill -0 "$collector" 2>/dev/null || { echo "soak: the collector (PID $collector) is gone" >&2; break; }
	t=$(awk -v s="$n" -v p="$sample" 'BEGIN { printf "%.2f", s * p / 60 }')
	line="$t $(rss) $(fds) $(dbsize) $(ls "/proc/$wpid/task" 2>/dev/null | wc -l | tr -d ' ') $(other_fds) $(anon)"
	echo "$line" >>"$dir/samples"
	printf '%8s %10s %6s %12s %8s %10s %10s\n' $line
done

# the least-squares slope of column COL against minutes, over the samples of
# the last two thirds of the run; and RSS growth over the last 20 minutes
awk -v total="$minutes" '
	{ t[NR] = $1; v[2, NR] = $2; v[3, NR] = $3; v[4, NR] = $4; v[6, NR] = $6; v[7, NR] = $7 }
	END {
		from = total / 3
		for (c = 2; c <= 7; c++) {
			n = sx = sy = sxx = sxy = 0
			for (i = 1; i <= NR; i++) if (t[i] > from) {
				n++; sx += t[i]; sy += v[c, i]; sxx += t[i] * t[i]; sxy += t[i] * v[c, i]
			}
			slope[c] = n > 1 && n * sxx - sx * sx > 0 ? (n * sxy - sx * sy) / (n * sxx - sx * sx) : 0
		}
		span = total - from < 20 ? total - from : 20
		printf "slopes over minutes %.1f-%d (%d samples): RSS %+.1f kB/min (anonymous %+.1f), fds %+.3f /min " \
			"(other than perf events: %+.3f /min), DB %+.0f bytes/min\n", from, total, n, slope[2], slope[7],
			slope[3], slope[6], slope[4]
		printf "RSS growth over the last %.1f min (slope x span): %+.0f kB (issue 18: < 1024 kB over 20 min)\n",
			span, slope[2] * span
	}' "$dir/samples"

# let the session end (the workload idles 1 s after its churn, then exits)
wait "$wpid" 2>/dev/null || true
if [ "$variant" = daemon ]; then
	wait_until 30 sh -c "[ \"\$(sqlite3 '$db' \"select status from sessions where id=$session\")\" != running ]" || true
else
	wait "$cpid" 2>/dev/null || echo "soak: tdctl attach exited with status $?: $(tail -1 "$dir/attach.err")"
fi
awk '$3 - $2 >= 200000000 { print $1 }' "$dir/lifetimes" | sort -u >"$dir/long"
sqlite3 "$db" "select tid from threads where session_id = $session" | sort -u >"$dir/recorded"
echo "threads started: $(wc -l <"$dir/lifetimes" | tr -d ' '), lived >= 2 intervals: $(wc -l <"$dir/long" | tr -d ' '), missed: $(comm -23 "$dir/long" "$dir/recorded" | wc -l | tr -d ' ')"
echo "session: $(sqlite3 "$db" "select status || ' ' || coalesce(message, '') from sessions where id = $session")"
