#!/bin/sh
# tdctl record --system: one group set per online CPU; rows per CPU with core
# and socket from sysfs, counts for every CPU, per-CPU, per-core and
# per-socket metric values. Needs root or perf_event_paranoid <= 0: without
# them the test checks the one-line refusal and skips the rest, with the reason.
. "$(dirname "$0")/lib.sh"

DB="$WORK/s.db"
ncpu=$(nproc --all 2>/dev/null)
# the online CPUs, one per line, from sysfs ranges like 0-3,5
cpus=$(awk -F, '{ for (i = 1; i <= NF; i++) { n = split($i, r, "-"); for (c = r[1]; c <= (n == 2 ? r[2] : r[1]); c++) print c } }' \
	/sys/devices/system/cpu/online)
online=$(echo "$cpus" | wc -l | tr -d ' ')
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)
if [ "$(id -u)" -ne 0 ] && [ "$paranoid" -gt 0 ]; then
	"$TDCTL" record --system --duration 1 -d "$DB" 2>"$WORK/err"
	check_eq "not root, paranoid $paranoid: refused with exit 1" 1 "$?"
	check_match "one line saying what to do" "^tdctl: system-wide counting needs root" "$(cat "$WORK/err")"
	check_eq "exactly one line" 1 "$(wc -l <"$WORK/err" | tr -d ' ')"
	skip "record --system counts every online CPU" "needs root or perf_event_paranoid <= 0 (is $paranoid)"
	finish
	exit $?
fi

"$DEMO" -t 2 -l 0 -e 0 -s 4 >/dev/null 2>&1 &
CLEANUP_PIDS=$!
"$TDCTL" record --system --duration 3 -I 500 --thread-metrics -d "$DB" 2>"$WORK/err"
check_eq "record --system --duration 3 exits 0" 0 "$?"
check_eq "session kind system, completed" "system|completed" "$(sql "$DB" "select kind||'|'||status from sessions")"
check_eq "one CPU row per online CPU ($online; nproc --all $ncpu)" "$online" \
	"$(sql "$DB" "select count(*) from targets where kind='cpu' and cpu is not null")"
check_eq "CPU numbers are those of /sys/devices/system/cpu/online" "$(echo $cpus)" \
	"$(sql "$DB" "select cpu from targets where kind='cpu' and cpu is not null order by cpu" | tr '\n' ' ' | sed 's/ $//')"
check_eq "core and socket of every CPU as sysfs says" 0 "$(
	for c in $(sql "$DB" "select cpu from targets where kind='cpu' and cpu is not null"); do
		want="$(cat /sys/devices/system/cpu/cpu$c/topology/core_id)|$(cat /sys/devices/system/cpu/cpu$c/topology/physical_package_id)"
		got=$(sql "$DB" "select core||'|'||socket from targets where kind='cpu' and cpu=$c")
		[ "$want" = "$got" ] || echo "cpu$c: want $want got $got"
	done | wc -l | tr -d ' ')"
check_eq "every CPU has TASK_CLOCK counts with time enabled" "$online" \
	"$(sql "$DB" "select count(distinct t.cpu) from counts c join targets t on t.id=c.thread_id
		join events e on e.id=c.event_id where e.name='TASK_CLOCK' and c.enabled > 0 and t.cpu is not null")"
check "the busy demo made CPU time on the CPUs (sum of TASK_CLOCK > 1 s over 3 s)" test \
	"$(sql "$DB" "select sum(c.value) / 1000000 from counts c join events e on e.id=c.event_id where e.name='TASK_CLOCK'")" -gt 1000
check_eq "per-CPU CPU_Time (--thread-metrics) equals TASK_CLOCK / 1e9 (all rows)" "1|0" \
	"$(sql "$DB" "select count(*) > 0, sum(abs(m.value - c.value * 1.0 * c.enabled / c.running / 1e9) > 1e-12)
		from counts c join events e on e.id=c.event_id and e.name='TASK_CLOCK'
		join metric_values m on m.interval_id=c.interval_id and m.target_id=c.thread_id and m.name='CPU_Time'
		where c.running > 0")"
sockets=$(cat /sys/devices/system/cpu/cpu*/topology/physical_package_id | sort -u | wc -l)
check_eq "one per-socket aggregate per socket ($sockets)" "$sockets" \
	"$(sql "$DB" "select count(*) from targets where kind='cpu' and cpu is null and core is null")"
check_eq "per-socket CPU_Time = sum of its CPUs' CPU_Time, every interval" "1|0" \
	"$(sql "$DB" "select count(*) > 0, sum(coalesce(abs(s.value - (select sum(m.value) from metric_values m
			join targets t on t.id=m.target_id where m.interval_id=s.interval_id and t.cpu is not null
			and t.socket=st.socket and m.name='CPU_Time')) > 1e-9, 1))
		from metric_values s join targets st on st.id=s.target_id
		where st.kind='cpu' and st.cpu is null and st.core is null and s.name='CPU_Time'")"
check "per-core aggregates exist" test \
	"$(sql "$DB" "select count(*) from metric_values m join targets t on t.id=m.target_id
		where t.kind='cpu' and t.cpu is null and t.core is not null and m.name='CPU_Time'")" -gt 0
"$TDCTL" record -d "$DB" 2>"$WORK/bad"
check_eq "record without --system: exit 2" 2 "$?"
check_match "says to give --system" "give --system" "$(cat "$WORK/bad")"
# ---- no dishonest zeros: context switches and page faults are counted --------------
# Members added to a CPU-wide group that already counted were never scheduled in: they
# read 0 with running = enabled for the whole session while perf stat -a counted
# hundreds. A workload that switches and faults all the time runs meanwhile; the
# reference is perf stat -a over the same seconds, when perf is installed.
DB2="$WORK/s2.db"
sh -c 'end=$(($(date +%s) + 4)); while [ $(date +%s) -lt $end ]; do sleep 0.01; head -c 200000 /dev/zero | wc -c >/dev/null; done' &
load=$!
CLEANUP_PIDS="$CLEANUP_PIDS $load"
if command -v perf >/dev/null; then
	perf stat -a -x, -e context-switches,page-faults -o "$WORK/perf.csv" -- sleep 2 2>/dev/null &
	perfpid=$!
fi
"$TDCTL" record --system -q --duration 2 -I 500 -d "$DB2" 2>/dev/null
check_eq "record --system (switches and faults) exits 0" 0 "$?"
[ -n "${perfpid:-}" ] && wait "$perfpid"
kill "$load" 2>/dev/null
sum2() { sql "$DB2" "select coalesce(sum(c.value), 0) from counts c join events e on e.id = c.event_id join targets t
	on t.id = c.thread_id where t.kind = 'cpu' and t.cpu is not null and e.name = '$1'"; }
cs=$(sum2 CONTEXT_SWITCHES) pf=$(sum2 PAGE_FAULTS)
check "context switches are counted, not 0 ($cs)" test "$cs" -gt 50
check "page faults are counted, not 0 ($pf)" test "$pf" -gt 50
if [ -s "$WORK/perf.csv" ]; then
	pcs=$(awk -F, '$3 == "context-switches" { print $1 }' "$WORK/perf.csv")
	ppf=$(awk -F, '$3 == "page-faults" { print $1 }' "$WORK/perf.csv")
	check "switches within 35 % of perf stat -a's over the same 2 s ($cs against ${pcs:-?})" \
		awk -v a="$cs" -v b="${pcs:-0}" 'BEGIN { exit !(b > 0 && a >= 0.65 * b && a <= 1.35 * b) }'
	check "faults within 35 % of perf stat -a's over the same 2 s ($pf against ${ppf:-?})" \
		awk -v a="$pf" -v b="${ppf:-0}" 'BEGIN { exit !(b > 0 && a >= 0.65 * b && a <= 1.35 * b) }'
else
	skip "switches and faults against perf stat -a" "perf is not installed"
	skip "faults against perf stat -a" "perf is not installed"
fi
# the report of a system-wide session without a tree shows the CPUs (it said "no thread
# was counted"): a row per CPU, and the total's switches per second are the counts over
# the session's wall time
"$TDCTL" report -d "$DB2" >"$WORK/sysrep.txt" 2>&1
check_grep "report: a group of every CPU" "system-wide, $online CPU" "$WORK/sysrep.txt"
check_eq "report: a row per CPU" "$online" "$(grep -cE '^ +cpu[0-9]+ ' "$WORK/sysrep.txt")"
want=$(sql "$DB2" "select printf('%.1f', $cs / ((ended_ns - started_ns) / 1e9)) from sessions")
check_eq "report: switches per second of all CPUs = the counts over the session's time" "$want" \
	"$(awk '/^system-wide/ { s = 1 } s && $1 == "all" { print $4; exit }' "$WORK/sysrep.txt")"
finish
