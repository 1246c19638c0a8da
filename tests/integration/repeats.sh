#!/bin/sh
# Repeats you can sign (issue 19): `tdctl run -r N --warmup K` stores K + N
# sessions of one group; `report --repeats` gives per metric min, median,
# mean, trimmed mean, stddev and the median's confidence interval (checked
# here against awk's own arithmetic on the stored counts), and flags a node
# whose spread is larger than its distance to its threshold; `diff
# --repeats` says which changes are significant (Mann–Whitney). Groups of
# known values are made from the SKL level-1 oracle counts, imported with
# RETIRE_SLOTS scaled (Retiring = RETIRE_SLOTS / SLOTS, Bad_Speculation
# falls as it rises; Frontend_Bound and Backend_Bound do not read it) and
# grouped in SQL, so that what is noisy and what is significant is known.
. "$(dirname "$0")/lib.sh"

EV="$WORK/events"
mkdir -p "$EV"
cp "$TD_SRCDIR"/events/*.td "$TD_SRCDIR/tests/data/live/soft-tree.td" "$EV/"
L1="$TD_SRCDIR/tests/data/oracle/toplev/inputs/skl-l1.perf.csv"

# ---- live: run -r 3 --warmup 1 ---------------------------------------------------------
DB="$WORK/live.db"
"$TDCTL" run -q -r 3 --warmup 1 -I 200 --events-dir "$EV" --pmu td_soft_tree -d "$DB" -- \
	"$DEMO" -t 2 -l 0 -e 0 -s 1 >/dev/null 2>"$WORK/live.err"
check_eq "run -r 3 --warmup 1: exit 0" 0 "$?"
check_eq "four sessions of one group (the first's id), the warm-up indexed -1" "1 -1|2 0|3 1|4 2" \
	"$(sql "$DB" "select repeat_group || ' ' || repeat_index from sessions order by id" | awk '{ printf "%s%d %s", sep, NR, $2; sep = "|" }')"
check_eq "every session names the group" 1 "$(sql "$DB" "select count(distinct repeat_group) from sessions")"
check_grep "the statistics follow the runs" "Repeats: 3 measured sessions (2, 3, 4), 1 warm-up left out" "$WORK/live.err"
# CPU_Time per measured session from the stored counts; min, median, mean, max by awk
want=$(sql "$DB" "select sum(c.value) / 1e9 from counts c join events e on e.id = c.event_id join intervals i on i.id = c.interval_id
	join targets t on t.id = c.thread_id where e.name = 'TASK_CLOCK' and t.kind = 'thread' and i.session_id > 1 group by i.session_id" |
	sort -g | awk '{ v[NR] = $1; s += $1 } END { printf "%.4g %.4g %.4g %.4g", v[1], v[2], s / NR, v[3] }')
"$TDCTL" report --repeats -d "$DB" --events-dir "$EV" >"$WORK/rep.txt" 2>&1
check_eq "report --repeats: exit 0" 0 "$?"
check_eq "CPU_Time: min, median, mean and max of the three runs' stored task-clock" "$want" \
	"$(awk '$1 == "CPU_Time" { print $3, $4, $5, $8 }' "$WORK/rep.txt")"
check_grep "three values give [min, max] with its exact coverage, 75 %" "75.0 %" "$WORK/rep.txt"
check_grep "the tree's nodes have statistics too" "Switching" "$WORK/rep.txt"

# (below, a node's unit "% Slots" is two words: its columns come one later)
# ---- known values: a noisy node and a quiet one ----------------------------------------
# imp DB FACTOR...: one import of the L1 counts per factor, RETIRE_SLOTS times it; the group in SQL
imp() {
	db=$1
	shift
	for f in "$@"; do
		awk -F';' -v f="$f" 'BEGIN { OFS = ";" } $3 ~ /event=0xc2,umask=0x2/ { $1 = sprintf("%.0f", $1 * f) } { print }' \
			"$L1" >"$WORK/l1-$f.csv"
		"$TDCTL" import -q --pmu skl --smt off -d "$db" "$WORK/l1-$f.csv" >/dev/null 2>&1 || echo "import failed"
	done
}
group() { # DB FIRST LAST: sessions FIRST..LAST become one group of measured runs
	sql "$1" "update sessions set repeat_group = $2, repeat_index = id - $2 where id between $2 and $3"
}
DB="$WORK/known.db"
imp "$DB" 0.8 0.9 1.0 1.05 1.1
group "$DB" 1 5
"$TDCTL" report --repeats 3 -d "$DB" >"$WORK/known.txt" 2>&1
check_eq "known: report --repeats exit 0" 0 "$?"
# Bad_Speculation = (UOPS_ISSUED - RETIRE_SLOTS + W * RECOVERY) / SLOTS = (1.8e9 - 1.6e9 f + 4 * 5e7) / 4e9:
# from 18 % (f = 0.8) to 6 % (f = 1.1), median 10 % (f = 1): a spread of 12 points, more than its 5 points
# to the 15 % threshold
check_eq "Bad_Speculation: median, min and max by hand, and flagged noisy" "10 6 18 noisy" \
	"$(awk '$1 == "Bad_Speculation" { print $5, $4, $9, ($0 ~ /noisy: spread/ ? "noisy" : "quiet") }' "$WORK/known.txt")"
check_eq "Frontend_Bound (reads no RETIRE_SLOTS): 20 % every run, not flagged" "20 20 quiet" \
	"$(awk '$1 == "Frontend_Bound" { print $4, $9, ($0 ~ /noisy/ ? "noisy" : "quiet") }' "$WORK/known.txt")"
err=$("$TDCTL" report --repeats -d "$WORK/live.db" 1 --format csv 2>&1)
check_eq "report --repeats with another format: exit 2, one line" "2 1" "$? $(printf '%s\n' "$err" | wc -l | tr -d ' ')"
"$TDCTL" import -q --pmu skl --smt off -d "$DB" "$L1" >/dev/null 2>&1
err=$("$TDCTL" report --repeats -d "$DB" 2>&1)
check_eq "report --repeats of a session in no group: exit 1, says how to make one" "1 1" \
	"$? $(printf '%s' "$err" | grep -c "is not one of a repeat group: record one with 'tdctl run -r N")"

# ---- diff --repeats: a real change, and none ---------------------------------------------
DB="$WORK/diff.db"
imp "$DB" 0.99 1.0 1.01 0.995 1.005
imp "$DB" 1.19 1.2 1.21 1.195 1.205
group "$DB" 1 5
group "$DB" 6 10
"$TDCTL" diff --repeats 1 6 -d "$DB" >"$WORK/diff.txt" 2>&1
check_eq "diff --repeats: exit 0" 0 "$?"
check_eq "Retiring 20 % more in every run of B: U = 0, p = 2 / 252, significant" "0.0 0.0079 significant" \
	"$(awk '$1 == "Retiring" { print $7, $8, $9 }' "$WORK/diff.txt")"
check_eq "Frontend_Bound the same in all ten: p = 1, not significant" "1.0000" \
	"$(awk '$1 == "Frontend_Bound" { print $8 }' "$WORK/diff.txt")"
# false positives: 20 trials of two groups of 7 from one distribution (RETIRE_SLOTS times 1 + 2 % noise,
# fixed seeds: the same trials every run); a node significant at p < 0.01 in at most 1 of them.
# TD_REPEATS_TRIALS (tests/check-all.sh's ASan build: 6): the first of those trials only, 14 imports each
trials=${TD_REPEATS_TRIALS:-20}
fp=0
for t in $(seq 1 "$trials"); do
	DB="$WORK/fp$t.db"
	# shellcheck disable=SC2046
	imp "$DB" $(awk -v seed="$t" 'BEGIN { srand(seed); for (i = 0; i < 14; i++) {
		# Box–Muller: a normal deviate from two uniforms
		z = sqrt(-2 * log(1 - rand())) * cos(6.283185307 * rand()); printf "%.4f ", 1 + 0.02 * z } }')
	group "$DB" 1 7
	group "$DB" 8 14
	"$TDCTL" diff --repeats 1 8 -d "$DB" >"$WORK/fp.txt" 2>&1 || echo "trial $t: diff failed" >>"$WORK/fp.err"
	fp=$((fp + $(awk '$NF == "0.01)" && ($1 == "Frontend_Bound" || $1 == "Bad_Speculation" || $1 == "Backend_Bound" ||
		$1 == "Retiring") { n = 1 } END { print n + 0 }' "$WORK/fp.txt")))
done
check_eq "no diff failed in the $trials trials" "" "$(cat "$WORK/fp.err" 2>/dev/null)"
check "same distribution: a significant node in at most 1 of $trials trials ($fp)" test "$fp" -le 1
finish
