#!/bin/sh
# The cost to the target the summary and report state (issue 37): "cost to
# the target: ~X ms of CPU (N context switches x Y ns, measured at start)",
# N being the target's context switches as the database holds them (the
# CONTEXT_SWITCHES counts of its threads and unlisted remainder, summed here
# by sqlite3 from the rows) and Y the per-switch cost stored with the session
# (sessions.switch_cost_ns, measured at the start by collect/switch_cost on
# this host: whatever it measured, the line must be N x Y). Where the host's
# noise hid it the line says it is not measured and prints no figure. The
# report reads the same: a cost written into the row is multiplied the same
# way, and a NULL one prints no figure.
. "$(dirname "$0")/lib.sh"

# switches_of DB: the session's context switches, from the stored counts
switches_of() { sql "$1" "select coalesce(sum(c.value), 0) from counts c join events e on e.id = c.event_id
	join targets t on t.id = c.thread_id where e.session_id = 1 and e.name = 'CONTEXT_SWITCHES' and t.kind = 'thread'"; }
# agrees FILE N COST_NS: FILE has the line "cost to the target: ~X ms of CPU (N context switches
# x Y ns, measured at start)" with N the given switches, Y the cost rounded, and X = N x COST_NS
# to the 0.01 ms it is printed to (half a unit either way: C and this awk may round a last 5
# differently)
agrees() {
	sed -n 's/.*cost to the target: ~\([0-9.]*\) ms of CPU (\([0-9]*\) context switches x \([0-9]*\) ns, measured at start).*/\1 \2 \3/p' "$1" |
		head -n 1 | awk -v n="$2" -v c="$3" '
		{ found = 1; ms = $1 - n * c / 1e6; ok = $2 == n && $3 == sprintf("%.0f", c) && ms <= 0.0051 && ms >= -0.0051 }
		END { exit !(found && ok) }'
}
for mode in per-thread bpf; do
	DB="$WORK/$mode.db"
	"$TDCTL" run --counting=$mode -I 50 -d "$DB" -- "$DEMO" -t 2 -l 0 -e 0 -s 1 >/dev/null 2>"$WORK/$mode.err"
	rc=$?
	if [ $mode = bpf ] && [ $rc != 0 ] && grep -q "BPF" "$WORK/$mode.err"; then
		skip "bpf: the summary's cost to the target" "the BPF counting program does not load here: $(head -n 1 "$WORK/$mode.err")"
		continue
	fi
	check_eq "$mode: a run exits 0" 0 "$rc"
	n=$(switches_of "$DB")
	check "$mode: the target switched ($n context switches stored)" test "$n" -gt 0
	cost=$(sql "$DB" "select switch_cost_ns from sessions where id = 1")
	if [ -n "$cost" ]; then
		check "$mode: the cost stored is positive ($cost ns)" awk -v c="$cost" 'BEGIN { exit !(c > 0) }'
		check "$mode: the summary states the stored switches ($n) x the stored cost ($cost ns)" agrees "$WORK/$mode.err" "$n" "$cost"
	else
		check_match "$mode: not measured, the run says why" "context switches is not measured: " "$(cat "$WORK/$mode.err")"
		check_match "$mode: ... and the summary prints no figure" "its cost to the target not measured" \
			"$(cat "$WORK/$mode.err")"
	fi
done

# A second run into the same database on this boot, counted the same way, reuses the first
# one's measure (copied whole: the same figure stored) and its summary names that session.
DB="$WORK/per-thread.db"
first=$(sql "$DB" "select switch_cost_ns from sessions where id = 1")
if [ -n "$first" ]; then
	"$TDCTL" run --counting=per-thread -I 50 -d "$DB" -- "$DEMO" -t 2 -l 0 -e 0 -s 1 >/dev/null 2>"$WORK/again.err"
	check_eq "a second run exits 0" 0 "$?"
	check_eq "... stores the first session's switch cost, not a measure of its own" "$first" \
		"$(sql "$DB" "select switch_cost_ns from sessions where id = 2")"
	check_match "... and its summary says where the figure was measured" \
		"ns, measured at session 1's start, on this boot, counted as this one)" "$(cat "$WORK/again.err")"
	sql "$DB" "update sessions set writer_boot = 'another boot' where id in (1, 2)"
	"$TDCTL" run --counting=per-thread -I 50 -d "$DB" -- "$DEMO" -t 2 -l 0 -e 0 -s 1 >/dev/null 2>"$WORK/third.err"
	check_eq "a third run exits 0" 0 "$?"
	check "... measures anew where the earlier sessions' boot was another (a figure of its own or none)" \
		sh -c "! grep -q 'measured at session' '$WORK/third.err'"
	if [ -n "$(sql "$DB" "select switch_cost_ns from sessions where id = 3")" ]; then
		"$TDCTL" run --counting=bpf -I 50 -d "$DB" -- "$DEMO" -t 2 -l 0 -e 0 -s 1 >/dev/null 2>"$WORK/fourth.err" &&
			check "a run counted another way (BPF) takes no per-thread session's figure" \
				sh -c "! grep -q 'measured at session' '$WORK/fourth.err'"
		"$TDCTL" run --counting=per-thread --unlisted=off -I 50 -d "$DB" -- "$DEMO" -t 2 -l 0 -e 0 -s 1 \
			>/dev/null 2>"$WORK/fifth.err" &&
			check "a per-thread run with --unlisted=off (6 events a task fewer) takes no figure measured with the copy" \
				sh -c "! grep -q 'measured at session' '$WORK/fifth.err'"
	fi
else
	skip "a second run reuses the first's switch cost" "the first run's was not measured (the host's noise hid it)"
fi
# BPF: a second run into the same database reuses the first's figure only under the same switch
# program (its tag in the counting note); a session noted with another program's tag gives none
DB="$WORK/bpf.db"
if [ -n "$(sql "$DB" "select switch_cost_ns from sessions where id = 1" 2>/dev/null)" ]; then
	check "bpf: the counting note names the switch program's tag" test -n \
		"$(sql "$DB" "select 1 from sessions where id = 1 and counting_note glob '*the switch program''s tag [0-9a-f][0-9a-f]*)'")"
	"$TDCTL" run --counting=bpf -I 50 -d "$DB" -- "$DEMO" -t 2 -l 0 -e 0 -s 1 >/dev/null 2>"$WORK/bpf-again.err"
	check_match "bpf: a second run into the same database takes the first's figure (the same program)" \
		"ns, measured at session 1's start, on this boot, counted as this one)" "$(cat "$WORK/bpf-again.err")"
	sql "$DB" "update sessions set counting_note = substr(counting_note, 1,
		instr(counting_note, 'the switch program''s tag ') + length('the switch program''s tag ') - 1)
		|| '0123456789abcdef)' where id in (1, 2)"
	"$TDCTL" run --counting=bpf -I 50 -d "$DB" -- "$DEMO" -t 2 -l 0 -e 0 -s 1 >/dev/null 2>"$WORK/bpf-third.err"
	check "bpf: ... but not a figure noted under another program's tag" \
		sh -c "! grep -q 'measured at session' '$WORK/bpf-third.err'"
else
	skip "bpf: a second run reuses the first's figure under the same program" \
		"the first BPF run's was not measured, or BPF does not load here"
fi

# A run into a new database finds the figure an earlier run of this boot kept in tdctl's file
# (TD_SWITCH_COST_CACHE), counted the same way: said as such, not measured, not stored.
CACHE="$WORK/switch-cost"
TD_SWITCH_COST_CACHE="$CACHE" "$TDCTL" run --counting=per-thread -I 50 -d "$WORK/c1.db" -- "$DEMO" -t 2 -l 0 -e 0 -s 1 \
	>/dev/null 2>"$WORK/c1.err"
check_eq "kept: a run with the file named exits 0" 0 "$?"
kept=$(sql "$WORK/c1.db" "select switch_cost_ns from sessions where id = 1")
if [ -n "$kept" ]; then
	check "... keeps its measure in the file, mode 600, under this boot's id" \
		sh -c "grep -q \"^$(cat /proc/sys/kernel/random/boot_id) $(uname -r) per-task \" '$CACHE' && [ \"\$(stat -c %a '$CACHE')\" = 600 ]"
	TD_SWITCH_COST_CACHE="$CACHE" "$TDCTL" run --counting=per-thread -I 50 -d "$WORK/c2.db" -- "$DEMO" -t 2 -l 0 -e 0 -s 1 \
		>/dev/null 2>"$WORK/c2.err"
	check_eq "kept: a second run into a new database exits 0" 0 "$?"
	check "... measures nothing (no measuring pair in its start)" \
		sh -c "! grep -q 'processes that measured the switch cost' '$WORK/c2.err'"
	check_eq "... stores no figure of its own" "" "$(sql "$WORK/c2.db" "select switch_cost_ns from sessions where id = 1")"
	check_match "... and its summary says the figure is the first run's, kept in the file" \
		"context switches x $(printf %.0f "$kept") ns, measured at [0-9:]* UTC on this boot by process [0-9]*, counted as this one \\(kept in $CACHE\\)\\)" \
		"$(cat "$WORK/c2.err")"
	# --unlisted=off: each task carries 6 events fewer (no inherited copy of spec 0), so the kept
	# figure, measured with the copy, is not its figure: it measures its own and keeps it apart
	TD_SWITCH_COST_CACHE="$CACHE" "$TDCTL" run --counting=per-thread --unlisted=off -I 50 -d "$WORK/c4.db" -- \
		"$DEMO" -t 2 -l 0 -e 0 -s 1 >/dev/null 2>"$WORK/c4.err"
	check_eq "kept: --unlisted=off exits 0" 0 "$?"
	check "... does not take the figure measured with the inherited copy" sh -c "! grep -q 'kept in' '$WORK/c4.err'"
	if [ -n "$(sql "$WORK/c4.db" "select switch_cost_ns from sessions where id = 1")" ]; then
		check_eq "... and keeps its own under its own key (events a task carries: two per-thread lines)" 2 \
			"$(grep -c "^$(cat /proc/sys/kernel/random/boot_id) $(uname -r) per-task " "$CACHE")"
	else
		skip "... and keeps its own under its own key" "its measure was not made (the host's noise hid it)"
	fi
	# BPF: the tp_btf program's figure and the raw_tp one's (helper calls where the other loads) are
	# kept apart, neither taken for the other
	if "$TDCTL" run --counting=bpf -I 50 -d "$WORK/probe-bpf.db" -- true >/dev/null 2>&1; then
		TD_SWITCH_COST_CACHE="$CACHE" "$TDCTL" run --counting=bpf -I 50 -d "$WORK/b1.db" -- \
			"$DEMO" -t 2 -l 0 -e 0 -s 1 >/dev/null 2>"$WORK/b1.err"
		TD_SWITCH_COST_CACHE="$CACHE" TD_COUNTING_BPF_TYPE=raw_tp "$TDCTL" run --counting=bpf -I 50 \
			-d "$WORK/b2.db" -- "$DEMO" -t 2 -l 0 -e 0 -s 1 >/dev/null 2>"$WORK/b2.err"
		check "kept: two BPF runs, one with each program" \
			sh -c "grep -q '(tp_btf sched_switch' '$WORK/b1.err' && grep -q '(raw_tp sched_switch' '$WORK/b2.err'"
		if [ -n "$(sql "$WORK/b1.db" "select switch_cost_ns from sessions where id = 1")" ]; then
			check "... the raw_tp run does not take the tp_btf run's figure" sh -c "! grep -q 'kept in' '$WORK/b2.err'"
			# software events: the program counts a CPU's clock and switches itself ("-self")
			[ -n "$(sql "$WORK/b2.db" "select switch_cost_ns from sessions where id = 1")" ] &&
				check "... and each is kept under its own key (bpf-all-self, bpf-all-raw_tp-self, each with its program's tag)" sh -c \
					"grep -Eq ' bpf-all-self@[0-9a-f]{16} [0-9]+ ' '$CACHE' && grep -Eq ' bpf-all-raw_tp-self@[0-9a-f]{16} [0-9]+ ' '$CACHE'"
			# another program's figure (an earlier build's, on this boot): the tp_btf line again
			# under another tag, alone in the file, is not taken (with or without "-self": a plan
			# with hardware groups reads every counter)
			if grep -Eq ' bpf-all(-self)?@[0-9a-f]{16} ' "$CACHE"; then
				grep -E ' bpf-all(-self)?@[0-9a-f]{16} ' "$CACHE" | head -n 1 |
					sed -E 's/ (bpf-all(-self)?)@[0-9a-f]{16} / \1@0123456789abcdef /' >"$WORK/other-tag"
				cp "$CACHE" "$WORK/cache.saved"
				cat "$WORK/other-tag" >"$CACHE"
				TD_SWITCH_COST_CACHE="$CACHE" "$TDCTL" run --counting=bpf -I 50 -d "$WORK/b4.db" -- \
					"$DEMO" -t 2 -l 0 -e 0 -s 1 >/dev/null 2>"$WORK/b4.err"
				check "... a figure kept under another program's tag is not taken (measured anew)" \
					sh -c "grep -q '(tp_btf sched_switch' '$WORK/b4.err' && ! grep -q 'kept in' '$WORK/b4.err'"
				cp "$WORK/cache.saved" "$CACHE"
			else
				skip "... a figure kept under another program's tag is not taken" "the tp_btf run kept no figure"
			fi
			# a program that reads every counter (as an older tdctl's did) costs a switch more:
			# the figures of one that counted two itself are not its figures
			TD_SWITCH_COST_CACHE="$CACHE" TD_COUNTING_BPF_READ=all "$TDCTL" run --counting=bpf -I 50 \
				-d "$WORK/b3.db" -- "$DEMO" -t 2 -l 0 -e 0 -s 1 >/dev/null 2>"$WORK/b3.err"
			check "... a run reading every counter says so in its note" \
				sh -c "grep -q '(tp_btf sched_switch' '$WORK/b3.err' && ! grep -q 'counted by the program itself' '$WORK/b3.err'"
			check "... and does not take the figure of a program that counted two itself" \
				sh -c "! grep -q 'kept in' '$WORK/b3.err'"
		else
			skip "... the raw_tp run does not take the tp_btf run's figure" "the first run's was not measured"
		fi
	else
		skip "kept: BPF figures of each program apart" "BPF counting does not load here"
	fi
	chmod 666 "$CACHE"
	TD_SWITCH_COST_CACHE="$CACHE" "$TDCTL" run --counting=per-thread -I 50 -d "$WORK/c3.db" -- "$DEMO" -t 2 -l 0 -e 0 -s 1 \
		>/dev/null 2>"$WORK/c3.err"
	check "a file others may write is not trusted: the run measures anew" sh -c "! grep -q 'kept in' '$WORK/c3.err'"
else
	skip "a run into a new database finds the kept switch cost" "the first run's was not measured (the host's noise hid it)"
fi
sql "$DB" "update sessions set switch_cost_ns = 2500 where id = 1"
"$TDCTL" report 1 -d "$DB" >"$WORK/report" 2>&1
n=$(switches_of "$DB")
check "the report states the stored switches ($n) x a cost written into the row (2500 ns)" agrees "$WORK/report" "$n" 2500
sql "$DB" "update sessions set switch_cost_ns = null where id = 1"
"$TDCTL" report 1 -d "$DB" >"$WORK/report" 2>&1
check "a session without a measured cost: the report prints no figure" \
	sh -c "! grep -q 'cost to the target:' '$WORK/report' && grep -q 'its cost to the target not measured' '$WORK/report'"
finish
