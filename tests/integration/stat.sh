#!/bin/sh
# tdctl stat: perf stat's options on a topdown session (issue 13) — -I MS
# prints each interval's values while the target runs, -x SEP machine-
# readable, --per-thread and -A per thread and per CPU, -p PID[,PID], -a,
# -C CPUS, -e EVENTS; -t, which does not map, is refused with what to use.
# Printed values are checked against the counts stored for the same
# interval (CPU_Time = TASK_CLOCK / 1e9).
. "$(dirname "$0")/lib.sh"

# cpu_by_interval DB SESSION: "SEQ SECONDS" of TASK_CLOCK summed over every target, per interval
cpu_by_interval() {
	sql "$1" "select i.seq, printf('%.4g', sum(c.value) / 1e9) from counts c join events e on e.id = c.event_id
		join intervals i on i.id = c.interval_id join targets t on t.id = c.thread_id
		where e.name = 'TASK_CLOCK' and i.session_id = $2 and t.kind = 'thread' group by i.seq order by i.seq" |
		tr '|' ' '
}

# ---- -I while running, -x -----------------------------------------------------------
DB="$WORK/s.db"
"$TDCTL" stat -I 200 -x ';' -d "$DB" -- "$DEMO" -t 2 -l 0 -e 0 -s 3 >"$WORK/out" 2>"$WORK/err" &
SPID=$!
CLEANUP_PIDS=$SPID
lines_while_running() { [ "$(grep -c ';CPU_Time;' "$WORK/out")" -ge 3 ] && kill -0 "$SPID"; }
check "-I 200: interval lines appear while the command still runs" wait_for 10 lines_while_running
wait "$SPID"
check_eq "stat exits with the command's status (0)" 0 "$?"
CLEANUP_PIDS=
# (the command's own output shares stdout, as with perf: td-demo's one line is left out)
check_eq "-x: every line has 5 fields TIME;TARGET;NAME;VALUE;UNIT" 0 \
	"$(awk -F';' '!/^td-demo: / && (NF != 5 || $1 !~ /^[0-9]+\.[0-9]+$/)' "$WORK/out" | wc -l | tr -d ' ')"
check_eq "one CPU_Time line per stored interval" "$(sql "$DB" "select count(*) from intervals")" \
	"$(grep -c ';CPU_Time;' "$WORK/out")"
check_eq "each printed CPU_Time is that interval's stored TASK_CLOCK / 1e9" "$(cpu_by_interval "$DB" 1)" \
	"$(awk -F';' '$3 == "CPU_Time" { printf "%d %s\n", n++, $4 }' "$WORK/out")"
check_eq "printed times increase" 0 \
	"$(awk -F';' '$3 == "CPU_Time" { if (NR > 1 && $1 <= last) bad++; last = $1 } END { print bad + 0 }' "$WORK/out")"
check_grep "the summary follows on stderr" "topdown session 1 (run) completed" "$WORK/err"

# ---- --per-thread ---------------------------------------------------------------------
"$TDCTL" stat -q -I 200 -x ';' --per-thread -d "$DB" -- "$DEMO" -t 2 -l 0 -e 0 -s 1 >"$WORK/pt" 2>/dev/null
check_eq "--per-thread: exits 0" 0 "$?"
check_eq "--per-thread: each interval's thread CPU_Time lines add up to the process's" 0 \
	"$(awk -F';' '$3 == "CPU_Time" { if ($2 ~ /^process/) p[$1] = $4; else s[$1] += $4 }
		END { for (t in p) { d = p[t] - s[t]; if (d < 0) d = -d; if (d > 1e-3 * (p[t] + 1e-3)) bad++ } print bad + 0 }' "$WORK/pt")"
check "--per-thread: thread lines name the thread" grep -q ';thread [0-9]* (' "$WORK/pt"

# ---- -p PID,PID ----------------------------------------------------------------------
"$DEMO" -t 1 -l 0 -e 0 -s 4 >/dev/null &
A=$!
"$DEMO" -t 1 -l 0 -e 0 -s 4 >/dev/null &
B=$!
CLEANUP_PIDS="$A $B"
DB2="$WORK/p.db"
"$TDCTL" stat -p "$A,$B" -I 250 --duration 1 -d "$DB2" >"$WORK/p.out" 2>"$WORK/p.err"
check_eq "-p A,B: exits 0" 0 "$?"
check_eq "-p A,B: one attach session per PID" "attach $A|attach $B" \
	"$(sql "$DB2" "select kind || ' ' || target_pid from sessions order by id" | tr '\n' '|' | sed 's/|$//')"
check_eq "-p A,B: interval lines for both" "1 1" \
	"$(grep -c "process $A (" "$WORK/p.out" | awk '{ print ($1 >= 3) }') $(grep -c "process $B (" "$WORK/p.out" | awk '{ print ($1 >= 3) }')"
kill "$A" "$B" 2>/dev/null

# A process whose one thread never runs: every interval's line names it by its own name (from
# /proc), though all an interval may deliver is the remainder of its unlisted threads
sleep 30 &
S=$!
CLEANUP_PIDS="$CLEANUP_PIDS $S"
"$TDCTL" stat -p "$S" -I 200 --duration 1 -d "$WORK/s.db" >"$WORK/s.out" 2>"$WORK/s.err"
check_eq "-p of a sleeping process: its lines, each naming it '$(cat /proc/$S/comm)'" "1 0" \
	"$(grep -c "process $S ($(cat /proc/$S/comm))" "$WORK/s.out" | awk '{ print ($1 >= 4) }') $(grep -vc "process $S ($(cat /proc/$S/comm))" "$WORK/s.out")"
# --duration a multiple of -I: the tick that ends it is the last read, no interval of a few
# microseconds after it (it printed a second line at 1.000); an interval is at least half of -I
# (a late tick only makes one longer)
check_eq "-p, --duration 1 at -I 200: no interval of its session shorter than 100 ms, the last printed once" "0 1" \
	"$(sql "$WORK/s.db" "select count(*) from intervals where session_id = (select max(id) from sessions) and end_ns - start_ns < 100000000") $(awk '$1 == "1.000"' "$WORK/s.out" | wc -l | awk '{ print ($1 <= 1) }')"
kill "$S" 2>/dev/null
wait "$A" "$B" 2>/dev/null
CLEANUP_PIDS=

# ---- -a -A ---------------------------------------------------------------------------
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)
if [ "$(id -u)" -eq 0 ] || [ "$paranoid" -le 0 ]; then
	"$TDCTL" stat -a -A -I 250 -x ';' --duration 1 -d "$WORK/a.db" >"$WORK/a.out" 2>/dev/null
	check_eq "-a -A: exits 0" 0 "$?"
	online=$(getconf _NPROCESSORS_ONLN)
	check_eq "-a -A: a line per online CPU and one for all of them, in the first interval" "$((online + 1))" \
		"$(awk -F';' 'NR == 1 { first = $1 } $3 == "CPU_Time" && $1 == first { n++ } END { print n + 0 }' "$WORK/a.out")"
	check_eq "-a -A: 'all counted CPUs' is the sum of the CPUs, every interval" 0 \
		"$(awk -F';' '$3 == "CPU_Time" { if ($2 == "all counted CPUs") a[$1] = $4; else s[$1] += $4 }
			END { for (t in a) { d = a[t] - s[t]; if (d < 0) d = -d; if (d > 1e-3 * (a[t] + 1e-3)) { bad++; why = why " at " t ": " a[t] " vs " s[t] } }
				print bad + 0 why }' "$WORK/a.out")"
	last=$((online - 1))
	"$TDCTL" stat -a -C "$last" -A -I 250 -x ';' --duration 0.6 -d "$WORK/c.db" >"$WORK/c.out" 2>/dev/null
	check_eq "-a -C $last: exits 0" 0 "$?"
	check_eq "-a -C $last: only that CPU is counted and printed" "cpu $last|1" \
		"$(awk -F';' '$3 == "CPU_Time" && $2 ~ /^cpu / { print $2 }' "$WORK/c.out" | sort -u)|$(sql "$WORK/c.db" "select count(*) from targets where kind = 'cpu' and cpu is not null")"
	err=$("$TDCTL" record --system --cpus "$online" --duration 1 -d "$WORK/c.db" 2>&1)
	check_eq "record --cpus with a CPU that is not online: exit 1, one line" "1 1" "$? $(printf '%s\n' "$err" | wc -l | tr -d ' ')"
	check_match "... says which CPUs are online" "CPU $online is not online" "$err"
else
	skip "-a -A" "needs root or perf_event_paranoid <= 0 (is $paranoid)"
fi

# ---- -e: extra events, counted and printed beside the files' -----------------------
"$TDCTL" stat -q -I 250 -x ';' -e page-faults,context-switches,cycles -d "$WORK/e.db" -- \
	"$DEMO" -t 2 -l 0 -e 0 -s 1 >"$WORK/e.out" 2>"$WORK/e.err"
check_eq "-e: exits 0" 0 "$?"
check_eq "-e: each event stored under its spelling, from file -e; cycles refused here or counted" \
	"page-faults|counting context-switches|counting" \
	"$(sql "$WORK/e.db" "select group_concat(name || '|' || status, ' ') from (select * from events where file = '-e'
		and name != 'cycles' order by id)")"
# each printed line is matched to its interval by the time it prints (the interval's end since
# the first one's start): an interval in which none of the demo's threads ran (a saturated
# machine can leave them off the CPU for 250 ms) has no rows and prints nothing or
# <not counted> (perf's word for an event enabled that never ran), never 0, and the
# lines after it still say their own interval's time
sql "$WORK/e.db" "select printf('%.3f', (i.end_ns - (select min(start_ns) from intervals)) / 1e9),
	coalesce(sum(c.value), '<not counted>')
	from intervals i left join (counts c join events e on e.id = c.event_id and e.name = 'page-faults')
	on c.interval_id = i.id group by i.id order by i.seq" | tr '|' ' ' >"$WORK/e.stored"
awk -F';' '$3 == "page_faults" { printf "%.3f %s\n", $1, $4 }' "$WORK/e.out" >"$WORK/e.printed"
check_eq "-e: each printed page_faults is its interval's stored -e count, at its interval's time (time count)" "" \
	"$(grep -vxFf "$WORK/e.stored" "$WORK/e.printed" | tr '\n' ' ')"
check "-e: some page_faults printed ($(wc -l <"$WORK/e.printed") lines)" test -s "$WORK/e.printed"
check_eq "-e page-faults counts what software.td's PAGE_FAULTS counts on the same threads (within 2 %)" 1 \
	"$(sql "$WORK/e.db" "select abs(a - b) <= 0.02 * b + 2 from
		(select sum(case when e.name = 'page-faults' then c.value end) a,
			sum(case when e.name = 'PAGE_FAULTS' then c.value end) b
		from counts c join events e on e.id = c.event_id join threads t on t.id = c.thread_id where t.tid != 0)")"
if [ "$(sql "$WORK/e.db" "select status from events where name = 'cycles'")" = failed ]; then
	check_eq "-e cycles on a host without a PMU: printed as <not counted>, never 0" 0 \
		"$(awk -F';' '$3 == "cycles" && $4 != "<not counted>"' "$WORK/e.out" | wc -l | tr -d ' ')"
	check_grep "-e cycles: the summary says why it was not counted" "not counted: cycles: " "$WORK/e.err"
else
	skip "-e cycles: <not counted>" "this host counts cycles"
	skip "-e cycles: the summary says why" "this host counts cycles"
fi
err=$("$TDCTL" stat -e no_such_event -d "$WORK/e.db" -- true 2>&1)
check_eq "-e no_such_event: exit 1 with one line naming it" "1 1 1" \
	"$? $(printf '%s\n' "$err" | wc -l | tr -d ' ') $(printf '%s' "$err" | grep -c 'no_such_event')"

# ---- what does not map --------------------------------------------------------------
for bad in "-t 1" "-p" "-A -- true" "-p 1 -a" "-C 0 -- true" ""; do
	# shellcheck disable=SC2086
	err=$("$TDCTL" stat $bad -d "$WORK/e.db" 2>&1 >/dev/null)
	check_eq "stat $bad: exit 2 with one line" "2 1" "$? $(printf '%s\n' "$err" | wc -l | tr -d ' ')"
done
err=$("$TDCTL" stat -t 1 2>&1)
check_match "-t: points to -p and report --thread" "give -p PID .*report --thread TID" "$err"
finish
