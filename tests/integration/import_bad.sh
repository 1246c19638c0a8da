#!/bin/sh
# tdctl import of malformed files (tests/data/import): truncated lines, wrong
# column counts, unknown events, binary garbage, empty and useless files,
# inconsistent timestamps — line-numbered messages, good lines kept, a file
# with no usable line refused with exit 1 and no session; bad options.
. "$(dirname "$0")/lib.sh"

D="$TD_SRCDIR/tests/data/import"

# imp NAME: import D/NAME into its own database; sets rc, err (stderr), out
imp() {
	db="$WORK/$1.db"
	out=$("$TDCTL" import --pmu skl -d "$db" "$D/$1" 2>"$WORK/err")
	rc=$?
	err=$(cat "$WORK/err")
}

imp truncated.csv
check_eq "truncated: imported (exit 0) from its good lines" 0 "$rc"
check_match "truncated: line 3 cut inside a raw event" "truncated.csv:3: malformed raw event 'cpu/event=0xc2,um'.*line skipped" "$err"
check_match "truncated: line 4 has one field" "truncated.csv:4: expected VALUE;UNIT;EVENT\[;RUN-TIME;PERCENT\], found 1 field" "$err"
check_match "truncated: line 5 lost its percentage" "truncated.csv:5: run time without a percentage" "$err"
check_eq "truncated: the 2 good lines are stored" 2 "$(sql "$db" "select count(*) from counts")"
check_match "truncated: the summary counts what was skipped" "2 of 5 lines used, 3 skipped" "$out"

imp wrong-columns.csv
check_eq "wrong columns: exit 0 with one good line" "0 1" "$rc $(sql "$db" "select count(*) from counts")"
for want in "2: expected VALUE;UNIT;EVENT" "3: 'abc' is neither a value" "4: more than 16 fields" \
	"5: percentage '150.00' is not between 0 and 100" "6: run time '-5' is not a number of ns"; do
	check_match "wrong columns: line $want" "wrong-columns.csv:$want" "$err"
done

# counts the store cannot hold (SQLite integers stop below 2^63 = 9223372036854775808)
imp huge-counts.csv
check_eq "huge counts: exit 0 with the one count below 2^63" "0 1" "$rc $(sql "$db" "select count(*) from counts")"
check_eq "huge counts: 9e18 stored exactly" 9000000000000000000 "$(sql "$db" "select value from counts")"
for want in "2: value '9223372036854775808' is 2\\^63 or more" "3: value '18446744073709551615' is 2\\^63 or more" \
	"4: value '10000000000000' msec is 2\\^63 or more" "5: run time '9000000000000000000' at 0.01 % makes an enabled time of 2\\^63"; do
	check_match "huge counts: line $want" "huge-counts.csv:$want" "$err"
done

imp unknown-events.csv
check_eq "unknown events: exit 0, the known one kept" "0 1" "$rc $(sql "$db" "select count(*) from counts")"
check_match "unknown events: a name nobody knows" "unknown-events.csv:2: unknown event 'no_such_event'" "$err"
check_match "unknown events: a term the PMU lacks" "unknown-events.csv:3: unknown term 'bogus' for PMU 'cpu'" "$err"
check_match "unknown events: a PMU that does not exist" "unknown-events.csv:4: unknown PMU 'nopmu'" "$err"
check_match "unknown events: an unclosed raw form" "unknown-events.csv:5: malformed raw event 'cpu/event=0x3c'" "$err"

imp mixed-timestamps.csv
check_match "mixed timestamps: the line without one is named" "mixed-timestamps.csv:2: no timestamp, unlike the lines before" "$err"

for f in binary.bin empty.csv no-usable.csv; do
	imp $f
	check_eq "$f: refused with exit 1" 1 "$rc"
	check_eq "$f: no session was created" 0 "$(sql "$db" "select count(*) from sessions")"
done
imp binary.bin
check_match "binary: lines reported as not text" "binary.bin:1: not text \(binary data\)" "$err"
check_match "binary: one closing line says what to give" "no usable line of [0-9]+ .*give the output of perf stat -x" \
	"$(printf '%s\n' "$err" | tail -1)"
check "binary: at most 20 line messages and the closing one" test "$(printf '%s\n' "$err" | wc -l)" -le 21
imp empty.csv
check_eq "empty: one line" "tdctl: import: '$D/empty.csv' is empty: give the output of perf stat -x, (or -x;)" "$err"

err=$("$TDCTL" import --pmu nosuchcpu -d "$WORK/x.db" "$D/per-cpu.csv" 2>&1)
check_eq "unknown PMU model: exit 1" 1 "$?"
check_match "unknown PMU model: says to check --pmu" "^tdctl: import: no events file in .* serves PMU model 'nosuchcpu': check --pmu" "$err"
err=$("$TDCTL" import --pmu skl -d "$WORK/x.db" "$WORK/missing.csv" 2>&1)
check_eq "missing file: exit 1, one line" "1 1" "$? $(printf '%s\n' "$err" | wc -l)"
err=$("$TDCTL" import --pmu skl --smt maybe -d "$WORK/x.db" "$D/per-cpu.csv" 2>&1)
check_eq "bad --smt: exit 2" 2 "$?"
check_match "bad --smt: says on or off" "give on or off" "$err"
"$TDCTL" import --pmu skl -d "$WORK/x.db" 2>/dev/null
check_eq "no FILE: exit 2" 2 "$?"
finish
