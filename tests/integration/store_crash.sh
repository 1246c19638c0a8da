#!/bin/sh
# Crash safety of the store: tdctl import of a large -I file is killed with
# SIGKILL at a random moment, 100 times into the same database. After every
# kill the file passes PRAGMA integrity_check; at the end every interval kept
# is complete (all its counts: one transaction per interval), tdctl sessions
# marks the killed imports interrupted, and the database still takes a new
# import. The seed is printed so a failure can be replayed (TD_CRASH_SEED).
. "$(dirname "$0")/lib.sh"

DB="$WORK/crash.db"
BIG="$WORK/big.csv"
awk 'BEGIN { for (i = 1; i <= 3000; i++) { printf "%d.000000000;%d;;cycles;1000000000;100.00;;\n", i, 1000 + i;
	printf "%d.000000000;%d;;instructions;1000000000;100.00;;\n", i, 2000 + i } }' >"$BIG"
SEED=${TD_CRASH_SEED:-$(date +%s)}
echo "# seed $SEED"
awk -v s="$SEED" 'BEGIN { srand(s); for (i = 0; i < 100; i++) printf "%.3f\n", rand() * 0.2 }' >"$WORK/delays"

bad=0 n=0 killed=0
while read -r delay; do
	"$TDCTL" import -q --pmu skl -d "$DB" "$BIG" >/dev/null 2>&1 &
	pid=$!
	CLEANUP_PIDS="$pid"
	sleep "$delay"
	kill -9 "$pid" 2>/dev/null && killed=$((killed + 1))
	wait "$pid" 2>/dev/null
	CLEANUP_PIDS=
	n=$((n + 1))
	if [ -e "$DB" ]; then
		r=$(sql "$DB" "pragma integrity_check" 2>&1)
		if [ "$r" != ok ]; then
			bad=$((bad + 1))
			echo "# kill $n after ${delay}s: $r"
		fi
	fi
done <"$WORK/delays"
check_eq "100 kills at random moments, integrity_check ok after every one" "100 0" "$n $bad"
check "most kills hit a running import ($killed)" test "$killed" -ge 50
check_eq "every interval kept is complete (2 counts each)" 0 \
	"$(sql "$DB" "select count(*) from intervals i where (select count(*) from counts c where c.interval_id = i.id) != 2")"
"$TDCTL" sessions -d "$DB" >/dev/null
check_eq "after tdctl sessions no import is left 'running'" 0 "$(sql "$DB" "select count(*) from sessions where status = 'running'")"
check "the killed ones are 'interrupted'" test "$(sql "$DB" "select count(*) from sessions where status = 'interrupted'")" -ge 1
"$TDCTL" import -q --pmu skl -d "$DB" "$TD_SRCDIR/tests/data/import/per-cpu.csv"
check_eq "the database still takes a new import" 0 "$?"
check_eq "integrity_check at the end" ok "$(sql "$DB" "pragma integrity_check")"
finish
