#!/bin/sh
# Crash safety of the store: tdctl import of a large -I file is killed with
# SIGKILL at a random moment, 100 times into the same database
# (TD_CRASH_KILLS: tests/check-all.sh gives the ASan build 40, which looks
# for memory errors on the same paths; the sweep's reach is the plain build's). The kill
# delays spread uniformly over 1.1 x the time one uninterrupted import takes
# (measured here), so kills land in every phase of an import: before its
# session row exists, while the counts are written (one transaction per
# interval), while the metric values are computed and written (one
# transaction for the session), and after the session was ended. Chance
# does not decide that each phase is hit: then imports are stepped (run a
# few ms, stopped with SIGSTOP, their phase read from the file while they
# cannot move, let go again) and killed in the phase aimed at, until every
# phase has its share. After every kill the file passes PRAGMA
# integrity_check; at the end every interval kept is complete (all its
# counts), a session has all its metric values or none, tdctl sessions marks
# the killed imports interrupted, and the database still takes a new import.
# The seed is printed so a failure can be replayed (TD_CRASH_SEED).
. "$(dirname "$0")/lib.sh"

DB="$WORK/crash.db"
BIG="$WORK/big.csv"
N=500 # intervals of 2 counts: ~0.2 s of import when the VM is idle
awk -v n=$N 'BEGIN { for (i = 1; i <= n; i++) { printf "%d.000000000;%d;;cycles;1000000000;100.00;;\n", i, 1000 + i;
	printf "%d.000000000;%d;;instructions;1000000000;100.00;;\n", i, 2000 + i } }' >"$BIG"
now_ms() { echo $(($(date +%s%N) / 1000000)); }

# How long the import takes uninterrupted, timed from the start of the
# process to its exit as the kills below are: the median of three runs, since
# on a shared machine one run can be an outlier either way (too short: no kill
# after the end; too long: few kills inside the import).
for k in 1 2 3; do
	t0=$(now_ms)
	"$TDCTL" import -q --pmu skl -d "$WORK/timed$k.db" "$BIG" >/dev/null 2>&1
	echo "$? $(($(now_ms) - t0))"
done >"$WORK/times"
dur=$(sort -k2,2n "$WORK/times" | sed -n '2s/.* //p')
echo "# one import of $N intervals takes $dur ms ($(cut -d' ' -f2 "$WORK/times" | tr '\n' ' ')ms)"
check_eq "the timed imports exit 0" "0 0 0" "$(cut -d' ' -f1 "$WORK/times" | tr '\n' ' ' | sed 's/ $//')"
check_eq "a timed import completes with all its intervals and counts" "completed|$N|$((2 * N))" \
	"$(sql "$WORK/timed1.db" "select status, (select count(*) from intervals), (select count(*) from counts) from sessions")"
# M: metric values of a whole session; each interval gets the same ones
M=$(sql "$WORK/timed1.db" "select count(*) from metrics")
check_eq "each of the $N intervals has the same metric values ($M in all)" "1|$N" \
	"$(sql "$WORK/timed1.db" "select count(distinct c), count(*) from (select count(m.metric_id) c from intervals i left join metrics m on m.interval_id = i.id group by i.id having c > 0)")"

# K (100) delays uniform over [0, 1.1 x dur]: one in each Kth of the range
# (stratified, so every phase gets its share), in a random order so that the
# database's growth does not follow the delay.
K=${TD_CRASH_KILLS:-100}
SEED=${TD_CRASH_SEED:-$(date +%s)}
echo "# seed $SEED"
awk -v s="$SEED" -v d="$dur" -v k="$K" 'BEGIN { srand(s); for (i = 0; i < k; i++) printf "%.9f %.3f\n", rand(), (i + rand()) / k * 1.1 * d / 1000 }' |
	sort -n | cut -d' ' -f2 >"$WORK/delays"

# One kill: the import started, killed after DELAY seconds, integrity
# checked; then where it landed, from what its session kept: no new session
# row (before the session began), some intervals (writing counts: "counts"),
# all intervals and no metric value (computing and writing metric values:
# "metrics"), metric values but not ended (between their commit and the end:
# "ending"), or completed ("after"). Each kill appends "DELAY PHASE" to KILLS.
KILLS="$WORK/kills"
: >"$KILLS"
bad=0 n=0 rows=0
# the phase of the newest import: of the session after the ROWS sessions
# the file had before it ("before" while it has none; "busy" when a lock
# the stopped import holds, e.g. while it sets up the file, keeps it from
# being read: the reader does not wait then)
phase_sql() {
	echo "select case when s.status = 'completed' then 'after'
		when (select count(*) from intervals i where i.session_id = s.id) < $N then 'counts'
		when (select count(*) from metrics m join intervals i on i.id = m.interval_id where i.session_id = s.id) = 0
		then 'metrics' else 'ending' end from sessions s where s.id > $rows order by s.id desc limit 1"
}
phase_now() {
	p=$(sqlite3 -batch -noheader "$DB" "$(phase_sql)" 2>/dev/null) || p=busy
	echo "${p:-before}"
}
# after the kill (or the end) of the import PID: integrity, and its phase
landed() {
	wait "$pid" 2>/dev/null
	CLEANUP_PIDS=
	n=$((n + 1))
	[ -e "$DB" ] || { echo "$1 before" >>"$KILLS"; return; }
	r=$(sql "$DB" "pragma integrity_check" 2>&1)
	if [ "$r" != ok ]; then
		bad=$((bad + 1))
		echo "# kill $n after ${1}: $r"
	fi
	last=$(sql "$DB" "select count(*) from sessions")
	if [ "$last" = "$rows" ]; then
		echo "$1 before" >>"$KILLS"
		return
	fi
	echo "$1 $(sql "$DB" "$(phase_sql)")" >>"$KILLS"
	rows=$last
}
start_import() {
	"$TDCTL" import -q --pmu skl -d "$DB" "$BIG" >/dev/null 2>&1 &
	pid=$!
	CLEANUP_PIDS="$pid"
}
kill_once() {
	start_import
	sleep "$1" # the kill's moment: the delay is what this test varies
	kill -9 "$pid" 2>/dev/null
	landed "$1"
}
while read -r delay; do
	kill_once "$delay"
done <"$WORK/delays"
check_eq "$K kills at random moments, integrity_check ok after every one" "$K 0" "$n $bad"

# An aimed kill: the import runs STEP seconds at a time and is stopped
# (SIGSTOP) between steps; while it is stopped its phase is read from the
# file (what it committed cannot change then), and it is killed there if
# that is PHASE ("counts" only with an interval stored). An import that
# passed PHASE within one step runs on to its end and is counted where it
# landed. Phases in time order: before counts metrics ending after.
order() { case $1 in busy | before) echo 0 ;; counts) echo 1 ;; metrics) echo 2 ;; ending) echo 3 ;; *) echo 4 ;; esac; }
STEP=$(awk -v d="$dur" 'BEGIN { s = d / 1000 / 100; printf "%.4f", s < 0.001 ? 0.001 : s }')
kill_in() {
	start_import
	kill -STOP "$pid" 2>/dev/null
	while kill -CONT "$pid" 2>/dev/null; do
		sleep "$STEP"
		kill -STOP "$pid" 2>/dev/null || break
		p=$(phase_now)
		if [ "$p" = "$1" ] && { [ "$1" != counts ] ||
			[ "$(sql "$DB" "select count(*) from intervals where session_id > $rows")" -gt 0 ]; }; then
			kill -9 "$pid" 2>/dev/null
			break
		fi
		[ "$(order "$p")" -gt "$(order "$1")" ] && break
	done
	kill -CONT "$pid" 2>/dev/null
	landed "aimed-$1"
}
count() { awk -v p="$1" '$2 == p { k++ } END { print k + 0 }' "$KILLS"; }
extra=0
for want in counts metrics after; do
	tries=0
	while [ "$(count "$want")" -lt 5 ] && [ "$tries" -lt 20 ]; do
		kill_in "$want"
		tries=$((tries + 1)) extra=$((extra + 1))
	done
done
echo "# $extra aimed kills added (steps of ${STEP}s) so that every phase has its share"
check_eq "every added kill also left an intact file" "$((K + extra)) 0" "$n $bad"
check_eq "every interval kept is complete (2 counts each)" 0 \
	"$(sql "$DB" "select count(*) from intervals i where (select count(*) from counts c where c.interval_id = i.id) != 2")"
"$TDCTL" sessions -d "$DB" >/dev/null
check_eq "after tdctl sessions no import is left 'running'" 0 "$(sql "$DB" "select count(*) from sessions where status = 'running'")"

PH="$WORK/phases"
sql "$DB" "select status, (select count(*) from intervals i where i.session_id = s.id),
	(select count(*) from metrics m join intervals i on i.id = m.interval_id where i.session_id = s.id)
	from sessions s" >"$PH"
phase() { awk -F'|' "$1 { k++ } END { print k + 0 }" "$PH"; }
sessions=$(wc -l <"$PH")
counts=$(phase "\$1 != \"completed\" && \$2 < $N")
metrics=$(phase "\$1 != \"completed\" && \$2 == $N && \$3 == 0")
ending=$(phase "\$1 != \"completed\" && \$3 > 0")
completed=$(phase "\$1 == \"completed\"")
echo "# kills: $((n - sessions)) before the session, $counts in counts, $metrics in metric values, $ending before the end, $completed after it"
check_eq "every session row is in one of those phases" "$sessions" "$((counts + metrics + ending + completed))"
check_eq "a session has all its metric values ($M) or none" 0 "$(phase "\$3 != 0 && \$3 != $M")"
check_eq "the killed ones are 'interrupted', the others 'completed'" "$((counts + metrics + ending))|$completed" \
	"$(sql "$DB" "select count(*) filter (where status = 'interrupted'), count(*) filter (where status = 'completed') from sessions")"
# Kills landed in every phase (aimed ones where chance gave too few). The
# metric values are one transaction and the session's end follows their
# commit after SQLite's WAL checkpoint, so few kills land in between (0 to 8
# seen): they are counted with the completed ones.
check "kills landed while counts were written ($counts)" test "$counts" -ge 5
check "kills landed while metric values were written: all counts, no metric value ($metrics)" test "$metrics" -ge 5
check "kills landed after the metric values were committed: $ending not ended, $completed completed" \
	test "$((ending + completed))" -ge 5 -a "$completed" -ge 1

"$TDCTL" import -q --pmu skl -d "$DB" "$TD_SRCDIR/tests/data/import/per-cpu.csv"
check_eq "the database still takes a new import" 0 "$?"
check_eq "integrity_check at the end" ok "$(sql "$DB" "pragma integrity_check")"
finish
