#!/bin/sh
# tdctl run/attach --hotspots (issue 34): time-based sampling (cpu-clock)
# beside the counting, symbols and lines through libdwfl, samples_hot.
#  1. td-demo's threads: each worker's top function is its kind's
#     (compute_chunk, memory_chunk, branchy_chunk, sleepy_chunk), and its
#     samples agree with its CPU time as the kernel counted it
#     (/proc/self/task/TID/schedstat, which td-demo -R writes itself):
#     samples ~ runtime / period.
#  2. A fixture built here: a PIE executable stripped of its symbols with a
#     separate debug file (.gnu_debuglink), a shared library, and JIT code
#     named in a perf map: each thread's samples name its function.
#  3. attach --hotspots to a running process (every thread it has).
#  4. The reports (text, CSV, JSON, folded, HTML, diff) agree with the samples stored, and the
#     errors a user can cause say what to do.
. "$(dirname "$0")/lib.sh"

CC=${TD_CC:-cc}
HZ=1000 # a sample every 1 ms of a thread's CPU time
PERIOD=1000000

# ---- 1. td-demo under run --hotspots
DB="$WORK/d.db"
"$TDCTL" run -I 250 -d "$DB" --hotspots --hotspots-hz $HZ -- "$DEMO" -t 4 -l 0 -e 0 -s 1 -R "$WORK/rt" \
	>/dev/null 2>"$WORK/run.err"
check_eq "run --hotspots exits 0" 0 "$?"
check_grep "the session says its hotspots are time-based" "time-based hotspots:" "$WORK/run.err"
check_eq "the sampling row: cpu-clock every $PERIOD ns, no node" "cpu-clock|$PERIOD|1" \
	"$(sql "$DB" "select event || '|' || period || '|' || (node is null) from sampling")"
lost=$(sql "$DB" "select lost from sampling")
check_eq "no sample lost at $HZ Hz" 0 "$lost"
check_eq "every sample taken is stored" "$(sql "$DB" "select samples from sampling")" \
	"$(sql "$DB" "select sum(count) from samples_hot")"
# an interval longer than the rings hold at that rate (a few hundred deep-stack samples a CPU): the
# rings are drained more often than the interval (drained once an interval, 2,735 of 6,000 samples
# were lost at -I 1000)
"$TDCTL" run -I 2000 -d "$WORK/long.db" --hotspots --hotspots-hz $HZ -- "$DEMO" -t 4 -l 0 -e 0 -s 2 \
	>/dev/null 2>"$WORK/long.err"
check_eq "run --hotspots -I 2000 exits 0" 0 "$?"
check_eq "... loses no sample at $HZ Hz" 0 "$(sql "$WORK/long.db" "select lost from sampling")"
check_eq "... and took them: at least one a ms of the half of its threads' CPU time (TASK_CLOCK)" 1 \
	"$(sql "$WORK/long.db" "select s.samples > 100 and s.samples * 1e6 >= 0.5 * (select sum(c.value) from counts c
		join events e on e.id = c.event_id where e.name = 'TASK_CLOCK') from sampling s")"

"$TDCTL" report -d "$DB" --hotspots --thread 0 --format csv >"$WORK/hot.csv"
check_eq "report --hotspots --format csv exits 0" 0 "$?"
# each worker: its top function (the first row of its tid: rows are by samples) and its samples
nthreads=0
while read -r tid runtime _switches; do
	comm=$(sql "$DB" "select comm from threads where tid = $tid order by id desc limit 1")
	kind=${comm%%-*}
	case $kind in compute | memory | branchy | sleepy) ;; *) continue ;; esac
	expect=$((runtime / PERIOD))
	[ "$expect" -ge 10 ] || continue # too little CPU on a loaded host to say which function led
	nthreads=$((nthreads + 1))
	top=$(awk -F, -v t="$tid" '$3 == t { print $5; exit }' "$WORK/hot.csv")
	check_eq "thread $tid ($comm, ${expect} samples of CPU time): top function is ${kind}_chunk" "${kind}_chunk" "$top"
	n=$(sql "$DB" "select sum(count) from samples_hot where tid = $tid")
	# the kernel's runtime / period, to a quarter and 3 samples (the last period of a
	# thread, its time before the session's first read and after its own report)
	check "thread $tid: $n samples for $runtime ns of CPU time (expected $expect)" \
		test $((4 * n)) -ge $((3 * expect - 12)) -a $((4 * n)) -le $((5 * expect + 12))
done <"$WORK/rt"
[ "$nthreads" -ge 1 ] || skip "workers' top functions" "no worker had 10 ms of CPU time in 1 s (a starved host)"
check_eq "compute_chunk's lines are in td-demo.c" "td-demo.c" \
	"$(awk -F, '$5 == "compute_chunk" { n = split($9, p, "/"); print p[n]; exit }' "$WORK/hot.csv")"

# the reports agree with the store, whatever the format
"$TDCTL" report -d "$DB" --hotspots --format json >"$WORK/hot.json"
check_eq "JSON: samples of the groups = samples_hot's" "$(sql "$DB" "select sum(count) from samples_hot")" \
	"$(sql ":memory:" "select sum(json_extract(g.value, '\$.samples')) from json_each(json_extract(readfile('$WORK/hot.json'), '\$.groups')) g")"
check_eq "CSV: line samples sum to samples_hot's" "$(sql "$DB" "select sum(count) from samples_hot")" \
	"$(awk -F, 'NR > 1 { s += $11 } END { print s }' "$WORK/hot.csv")"
"$TDCTL" report -d "$DB" --hotspots >"$WORK/hot.txt"
check_grep "text report: the time-based group" "time-based (every node" "$WORK/hot.txt"
check_grep "text report names compute_chunk with its file" "compute_chunk (td-demo)  td-demo.c:" "$WORK/hot.txt"

# --from/--to: the samples of the intervals whose midpoint lies in the window, counted here in SQL
mid="((i.start_ns - (SELECT min(start_ns) FROM intervals WHERE session_id = 1)) + (i.end_ns - i.start_ns) / 2.0) / 1e9 BETWEEN 0.3 AND 0.8"
win=$(sql "$DB" "SELECT coalesce(sum(h.count), 0) FROM samples_hot h JOIN intervals i ON i.id = h.interval_id WHERE h.session_id = 1 AND $mid")
check "--from/--to: the window (0.3 to 0.8 s) holds samples, fewer than the session's ($win)" \
	test "$win" -gt 0 -a "$win" -lt "$(sql "$DB" "select sum(count) from samples_hot")"
"$TDCTL" report -d "$DB" --hotspots --from 0.3 --to 0.8 --format json >"$WORK/win.json"
check_eq "--from/--to JSON: exits 0" 0 "$?"
check_eq "--from/--to JSON: the window's samples, and its groups', are the intervals' in it" "$win $win" \
	"$(sql ":memory:" "select json_extract(readfile('$WORK/win.json'), '\$.window.samples')") $(sql ":memory:" "select sum(json_extract(g.value, '\$.samples')) from json_each(json_extract(readfile('$WORK/win.json'), '\$.groups')) g")"
"$TDCTL" report -d "$DB" --hotspots --from 0.3 --to 0.8 --thread 0 --format csv >"$WORK/win.csv"
check_eq "--from/--to CSV: line samples sum to the window's" "$win" "$(awk -F, 'NR > 1 { s += $11 } END { print s + 0 }' "$WORK/win.csv")"
"$TDCTL" report -d "$DB" --hotspots --from 0.3 --to 0.8 --format folded >"$WORK/win.folded"
check_eq "--from/--to folded: stacks sum to samples_stack's in the window" \
	"$(sql "$DB" "SELECT coalesce(sum(h.count), 0) FROM samples_stack h JOIN intervals i ON i.id = h.interval_id WHERE h.session_id = 1 AND $mid")" \
	"$(awk '{ s += $NF } END { print s + 0 }' "$WORK/win.folded")"
"$TDCTL" report -d "$DB" --hotspots --from 0.3 --to 0.8 >"$WORK/win.txt"
check_grep "--from/--to text: the window said" "Window: 0.300 s to 0.800 s (--from/--to): intervals " "$WORK/win.txt"
"$TDCTL" report -d "$DB" --hotspots --from 100 >/dev/null 2>"$WORK/win.err"
check_eq "--from past the end: exits 1" 1 "$?"
check_grep "--from past the end: says the intervals' span" "report: session 1 has no interval between 100.000 s and the end: its intervals cover 0 to" "$WORK/win.err"

# ---- 2. PIE + separate debug file, shared library, JIT perf map
F="$WORK/fx"
mkdir -p "$F"
if ! "$CC" -g -O1 -fno-omit-frame-pointer -fPIC -shared -o "$F/libhot.so" "$TD_SRCDIR/tests/tools/hot_lib.c" 2>"$WORK/cc.err" ||
	! "$CC" -g -O1 -fno-omit-frame-pointer -fPIE -pie -o "$F/hot.full" "$TD_SRCDIR/tests/tools/hot_fixture.c" -L"$F" -lhot \
		-Wl,-rpath,"$F" -pthread 2>>"$WORK/cc.err" ||
	! objcopy --only-keep-debug "$F/hot.full" "$F/hot.debug" 2>>"$WORK/cc.err" ||
	! objcopy --strip-all --add-gnu-debuglink="$F/hot.debug" "$F/hot.full" "$F/hot" 2>>"$WORK/cc.err"; then
	skip "fixture: PIE with a separate debug file, shared library, JIT" \
		"cannot build it with $CC and objcopy: $(head -c 200 "$WORK/cc.err" | tr '\n' ' ')"
else
	check_eq "the fixture is PIE (ELF type DYN)" "DYN" "$(readelf -h "$F/hot" | awk '/Type:/ { print $2 }')"
	check_eq "the stripped fixture has no symbol pie_spin of its own" 0 "$(readelf -s "$F/hot" | grep -c pie_spin)"
	FDB="$DB" # session 2, after td-demo's: diff compares them below
	TD_PERF_MAP_DIR="$F" "$TDCTL" run -q -d "$FDB" --hotspots --hotspots-hz 1000 -- "$F/hot" 1 "$F" \
		>"$WORK/fx.out" 2>"$WORK/fx.err"
	check_eq "run --hotspots on the fixture exits 0" 0 "$?"
	"$TDCTL" report -d "$FDB" --hotspots --thread 0 --format csv >"$WORK/fx.csv"
	topof() { awk -F, -v c="$1" '$4 == c { print $5 "|" $6; exit }' "$WORK/fx.csv"; }
	check_eq "stripped PIE: pie_spin named from the separate debug file" "pie_spin|hot" "$(topof pie)"
	check_eq "pie_spin's line is in hot_fixture.c" "hot_fixture.c" \
		"$(awk -F, '$5 == "pie_spin" { n = split($9, p, "/"); print p[n]; exit }' "$WORK/fx.csv")"
	check_eq "shared library: hot_lib_spin in libhot.so" "hot_lib_spin|libhot.so" "$(topof lib)"
	# call stacks (frame pointers: the fixture is built with them): folded, outermost first
	"$TDCTL" report -d "$FDB" --hotspots --thread 0 --format folded >"$WORK/fx.folded"
	check_eq "report --format folded exits 0" 0 "$?"
	check_eq "folded: the pie thread's commonest stack ends in its caller, then pie_spin" "pie_thread;pie_spin" \
		"$(awk '$1 ~ /^pie-/ { n = split($1, f, ";"); print f[n - 1] ";" f[n]; exit }' "$WORK/fx.folded")"
	check_eq "folded: its counts sum to samples_stack's" "$(sql "$FDB" "select sum(count) from samples_stack where session_id = 2")" \
		"$(awk '{ s += $NF } END { print s }' "$WORK/fx.folded")"
	# the HTML report: the section, its table and the flame graph, each frame titled with its samples
	"$TDCTL" report -d "$FDB" --format html -o "$WORK/fx.html"
	check_eq "report --format html of a sampled session exits 0" 0 "$?"
	check_grep "HTML: the hotspots section" '<section id="hotspots">' "$WORK/fx.html"
	check_grep "HTML: pie_spin's row in the function table" "<tr><td>pie_spin</td><td>hot</td>" "$WORK/fx.html"
	pie=$(sql "$FDB" "select sum(count) from samples_stack where session_id = 2 and stack like '%pie_thread;pie_spin%'")
	check_grep "HTML: the flame graph's pie_spin frame under pie_thread has its $pie samples" \
		"title=\"pie_spin: $pie samples" "$WORK/fx.html"
	# diff --hotspots: td-demo's session against the fixture's, which runs no memory_chunk
	"$TDCTL" diff 1 2 -d "$DB" --hotspots >"$WORK/diff.txt"
	check_eq "diff --hotspots exits 0" 0 "$?"
	total=$(sql "$DB" "select sum(count) from samples_hot where session_id = 1")
	mem=$(sql "$DB" "select sum(count) from samples_hot where session_id = 1 and function = 'memory_chunk'")
	want=$(awk -v m="$mem" -v t="$total" 'BEGIN { printf "%.1f%% 0.0%% -%.1f", 100 * m / t, 100 * m / t }')
	check_eq "diff: memory_chunk's share in A (samples_hot's), 0 in B, and the change" "$want" \
		"$(awk '$NF == "(td-demo)" && $(NF - 1) == "memory_chunk" { print $1, $2, $3 }' "$WORK/diff.txt")"
	# diff --hotspots --from/--to: A's shares are those of the intervals in the window (SQL above), B's too
	"$TDCTL" diff 1 2 -d "$DB" --hotspots --from 0.3 --to 0.8 >"$WORK/diffw.txt"
	check_eq "diff --hotspots --from/--to exits 0" 0 "$?"
	memw=$(sql "$DB" "SELECT coalesce(sum(h.count), 0) FROM samples_hot h JOIN intervals i ON i.id = h.interval_id WHERE h.session_id = 1 AND h.function = 'memory_chunk' AND $mid")
	# (on a starved host memory_chunk may have no sample in the window: then, 0 on both sides,
	# the diff has no row for it)
	want=$(awk -v m="$memw" -v t="$win" 'BEGIN { if (m > 0) printf "%.1f%% 0.0%% -%.1f", 100 * m / t, 100 * m / t }')
	check_eq "diff --from/--to: memory_chunk's share of A's window ($memw of $win samples), 0 in B, and the change" "$want" \
		"$(awk '$NF == "(td-demo)" && $(NF - 1) == "memory_chunk" { print $1, $2, $3 }' "$WORK/diffw.txt")"
	check_grep "diff --from/--to: the window said" "Window: 0.300 s to 0.800 s of each (--from/--to): A's intervals " "$WORK/diffw.txt"
	if grep -q "no jit" "$WORK/fx.out"; then
		skip "JIT perf map" "the fixture's JIT code is x86-64 only"
	else
		check_eq "JIT: jit_spin named from perf-PID.map" "jit_spin|[jit]" "$(topof jit)"
	fi
fi

# ---- 3. attach --hotspots: every thread the process has
ADB="$WORK/a.db"
"$DEMO" -t 2 -l 0 -e 0 -s 1 -w -r "$WORK/ready" >/dev/null 2>&1 &
DPID=$!
CLEANUP_PIDS="$DPID"
if wait_for 20 test -s "$WORK/ready"; then
	"$TDCTL" attach "$DPID" -q -d "$ADB" --hotspots --hotspots-hz $HZ >/dev/null 2>"$WORK/attach.err" &
	TPID=$!
	CLEANUP_PIDS="$DPID $TPID"
	# the work starts once the sampling is open (its row is written after)
	wait_for 20 sh -c "[ \"\$(sqlite3 '$ADB' 'select count(*) from sampling' 2>/dev/null)\" = 1 ]" ||
		not_ok "sampling recorded while attached"
	kill -USR1 "$DPID"
	wait "$TPID"
	check_eq "attach --hotspots exits 0 when the process ends" 0 "$?"
	wait "$DPID"
	check_eq "attach: compute-0's top function is compute_chunk" "compute_chunk" \
		"$(sql "$ADB" "select h.function from samples_hot h join threads t on t.tid = h.tid where t.comm = 'compute-0'
			group by h.function order by sum(h.count) desc limit 1")"
	check_eq "attach: memory-1's top function is memory_chunk" "memory_chunk" \
		"$(sql "$ADB" "select h.function from samples_hot h join threads t on t.tid = h.tid where t.comm = 'memory-1'
			group by h.function order by sum(h.count) desc limit 1")"
else
	not_ok "workload started for attach"
fi

# ---- a node's samples: a Skylake level-3 import (toplev's oracle input) given, by SQL, samples
# of DRAM_Bound's locate event (what --hotspots=Backend_Bound.Memory_Bound.DRAM_Bound stores on a PMU)
KDB="$WORK/k.db"
(cd "$TD_SRCDIR/tests/data/oracle/toplev/inputs" && "$TDCTL" import -q --pmu skl --smt off -d "$KDB" skl-l3.perf.csv)
check_eq "skl-l3 import exits 0" 0 "$?"
N=Backend_Bound.Memory_Bound.DRAM_Bound
sql "$KDB" "insert into sampling(session_id, event, node, period, note, samples) values(1, 'MEM_LOAD_RETIRED:L3_MISS', '$N', 0, 'test', 40);
	insert into samples_hot select 1, min(id), 7, 7, '$N', 'chase_list', 'app', 'list.c', 12, 30 from intervals where session_id = 1;
	insert into samples_hot select 1, min(id), 7, 7, '$N', 'main', 'app', 'main.c', 5, 10 from intervals where session_id = 1;"
"$TDCTL" report -d "$KDB" --hotspots >"$WORK/k.txt"
check_grep "text: the node's group" "$N: 40 samples" "$WORK/k.txt"
"$TDCTL" report -d "$KDB" --format html -o "$WORK/k.html"
check_eq "HTML report of the node's samples exits 0" 0 "$?"
# the node's <details>, up to the next node's: its function table, shown when the node is opened
awk -v n="data-node=\"$N\">" 'index($0, n) { f = 1; print; next } f && /<details/ { exit } f' "$WORK/k.html" >"$WORK/k.node"
check_grep "HTML: the table is inside the node's details" "data-hot=\"$N\"" "$WORK/k.node"
check_grep "HTML: chase_list with 75 % of the node's samples" \
	"<tr><td>chase_list</td><td>app</td><td>75.0 %</td><td>30</td>" "$WORK/k.node"

# ---- 4. what a user can get wrong
"$TDCTL" run -q -d "$WORK/n.db" -- true 2>/dev/null
"$TDCTL" report -d "$WORK/n.db" --hotspots >/dev/null 2>"$WORK/none.err"
check_eq "report --hotspots of a session without samples exits 1" 1 "$?"
check_grep "... and says how to record one" "record one with 'tdctl run --hotspots'" "$WORK/none.err"
"$TDCTL" run -d "$WORK/n.db" --hotspots-hz 50 -- true 2>"$WORK/hz.err"
check_eq "--hotspots-hz without --hotspots is refused" 2 "$?"
check_grep "... saying to give --hotspots" "give --hotspots too" "$WORK/hz.err"
# --hotspots=NODE samples the node's locate line's event (events/intel-skl.td): a hardware
# event, which a host without a PMU cannot sample; a node without a locate line is refused
"$TDCTL" doctor --json >"$WORK/doctor.json"
rung=$(sql ":memory:" "select json_extract(readfile('$WORK/doctor.json'), '\$.rung')")
if [ "$rung" = software-only ]; then
	"$TDCTL" run -q -d "$WORK/n.db" --pmu skl --hotspots=Backend_Bound.Memory_Bound.DRAM_Bound -- true 2>"$WORK/node.err"
	check_eq "--hotspots=NODE without a PMU exits 1" 1 "$?"
	check_grep "... naming the node's locate event and what to do" \
		"samples MEM_LOAD_RETIRED:L3_MISS, a hardware event, and this host has no PMU to sample it" "$WORK/node.err"
	"$TDCTL" run -q -d "$WORK/n.db" --hotspots=cycles -- true 2>"$WORK/cycles.err"
	check_eq "--hotspots=cycles without a PMU exits 1" 1 "$?"
	check_grep "... saying so and what to do" "this machine has no PMU that samples the event; give --hotspots alone" \
		"$WORK/cycles.err"
else
	skip "--hotspots=NODE and =cycles refused without a PMU" "this host has a PMU (rung $rung)"
fi
"$TDCTL" run -q -d "$WORK/n.db" --pmu skl --hotspots=Bad_Speculation -- true 2>"$WORK/node2.err"
check_eq "--hotspots=NODE of a node without a locate line exits 1" 1 "$?"
check_grep "... and says so" "names no event that locates this node" "$WORK/node2.err"
"$TDCTL" report -d "$DB" --hotspots --format html -o "$WORK/x.html" 2>"$WORK/html.err"
check_eq "report --hotspots --format html is refused (not written yet)" 2 "$?"

finish
