#!/bin/sh
# A default --hotspots on a host with a PMU (issue 34): time-based (cpu-clock)
# until an interval's evaluation names the bottleneck, then the locate event of
# the deepest node on the bottleneck's path that has a locate line. Run on the
# emulated PMU (tests/tools/pmu_sim.so) with the rates of toplev's cases
# (tests/data/oracle/toplev-deep): the node expected is derived from toplev's
# own bottleneck (its "<==" row) and the events file's locate lines, and the
# event's perfmon name is checked against toplev's sample events for it.
#  1. icl (bottleneck Frontend_Bound.Fetch_Latency.ICache_Misses, a locate
#     line of its own): the session chooses it (after its ancestors', when an
#     interval did not count the deeper nodes); the emulator cannot sample
#     (its descriptors are not the kernel's: their ring buffers do not map),
#     so the session says so and stays time-based.
#  2. the same with that locate line's event replaced by a software event the
#     real kernel samples: the switch itself — the sampling row names the node
#     and event, every sample of the session is stored, none at the node before
#     the interval after the choice.
#  3. the HTML report of (2) in headless Chromium: the node's function table,
#     hidden when a click closes the node and shown when another opens it, its
#     rows those of the database (read with sqlite3); no console message.
#  4. skl (bottleneck path Backend_Bound.Core_Bound.Ports_Utilization: no node
#     on it has a locate line, toplev samples none): it stays time-based, said.
. "$(dirname "$0")/lib.sh"

SIM="$TD_BUILDDIR/tests/tools/pmu_sim.so"
ORACLE="$TD_SRCDIR/tests/data/oracle/toplev-deep"
[ -f "$SIM" ] || skip_all "tests/tools/pmu_sim.so is not built"
[ -r /sys/devices/system/cpu/online ] || skip_all "no /sys/devices/system/cpu/online to sample on"
ASAN_PRELOAD="${ASAN_OPTIONS:-}:verify_asan_link_order=0"

# host TREE: a copy of the host tree whose online CPUs are this machine's (sampling opens a ring buffer
# on each online CPU of the host tree; the real kernel refuses a CPU this machine lacks)
host() {
	rm -rf "$WORK/host"
	cp -r "$TD_SRCDIR/tests/data/hosts/$1" "$WORK/host"
	cp /sys/devices/system/cpu/online "$WORK/host/sys/devices/system/cpu/online"
}

# run CASE MODEL DB [EVENTS_DIR]: tdctl run -l 3 --hotspots on the emulated host, stderr in $WORK/err
run() {
	env TD_SYSROOT="$WORK/host" TD_PFM_MODEL="$2" LIBPFM_FORCE_PMU="$2" TD_PMU_SIM_HOST="$WORK/host" \
		TD_PMU_SIM_TRACE="$ORACLE/inputs/$1.perf.csv" TD_PMU_SIM_EVENTS="$TD_SRCDIR/tests/data/pmu_sim/$2.events" \
		TD_PMU_SIM_FREQ=1e14 LD_PRELOAD="$SIM" ASAN_OPTIONS="$ASAN_PRELOAD" \
		"$TDCTL" run -l 3 -I 100 --hotspots --counting=per-thread --events-dir "${4:-$TD_SRCDIR/events}" \
		-d "$3" -- sh -c 'i=0; while [ $i -lt 200000 ]; do i=$((i + 1)); done' >/dev/null 2>"$WORK/err"
}

# expected CASE FILE: "NODE EVENT DESC" of the deepest node on toplev's bottleneck path with a locate line
# in FILE (events/), "none" when none has one
expected() {
	b=$(awk -F, '$8 == "<==" { print $1 }' "$ORACLE/expected/$1.csv")
	while [ -n "$b" ]; do
		l=$(awk -v n="$b" '$1 == "locate" && $2 == n { sub(/.*\| */, ""); print n, $0 }' "$TD_SRCDIR/events/$2")
		if [ -n "$l" ]; then
			echo "$b $(awk -v n="$b" '$1 == "locate" && $2 == n { print $3 }' "$TD_SRCDIR/events/$2") ${l#* }"
			return
		fi
		case $b in *.*) b=${b%.*} ;; *) b= ;; esac
	done
	echo none
}

# ---- 1. icl: the bottleneck's own locate event, which the emulator cannot sample -----------------
set -- $(expected icl-l3-pm-fe-icache intel-icl.td)
check_eq "icl: toplev's bottleneck has a locate line (derived: node, event)" \
	"Frontend_Bound.Fetch_Latency.ICache_Misses FRONTEND_RETIRED:L2_MISS" "$1 $2"
NODE=$1 EV=$2 PERFMON=$(echo "${3%%:*}" | tr 'A-Z' 'a-z')
check "icl: its perfmon name ($PERFMON) is among toplev's sample events for the node" \
	sh -c "awk -F, -v n='$NODE' '\$1 == n { print \$5 }' '$ORACLE/expected/icl-l3-pm-fe-icache.csv' | tr ' ' '\n' | grep -qx '$PERFMON'"
host icl-perfmetrics-smtoff
run icl-l3-pm-fe-icache icl "$WORK/icl.db"
check_eq "icl: run exits 0" 0 "$?"
check_grep "icl: at first time-based, said" "hotspots: time-based (cpu-clock, 99 samples a second per busy CPU) until an interval names the bottleneck" "$WORK/err"
check_grep "icl: the bottleneck's locate event chosen, its failure said" \
	"bottleneck is located by $EV ($NODE's locate line), which could not be sampled: cannot map a ring buffer" "$WORK/err"
# an interval whose deeper groups did not run stops the bottleneck higher (metrics.h): a later one deepens
# the choice, never turns to another branch
check_eq "icl: each node chosen is on the bottleneck's path, each below the one before" "" \
	"$(sed -n "s/.*bottleneck is located by [^ ]* (\([^ ]*\)'s locate line).*/\1/p" "$WORK/err" |
		awk -v n="$NODE" '{ if (index(n ".", $0 ".") != 1 || (p != "" && index($0, p ".") != 1)) print "off path: " $0; p = $0 }')"
check_eq "icl: the sampling row stays cpu-clock without a node" "cpu-clock|" \
	"$(sql "$WORK/icl.db" "SELECT event, coalesce(node, '') FROM sampling")"
check_eq "icl: no sample stored at a node" 0 "$(sql "$WORK/icl.db" "SELECT count(*) FROM samples_hot WHERE node IS NOT NULL")"

# ---- 2. the switch, with a software event in the node's locate line ---------------------------------
SW=perf::PERF_COUNT_SW_TASK_CLOCK
mkdir -p "$WORK/events"
for f in "$TD_SRCDIR"/events/*.td; do ln -s "$f" "$WORK/events/"; done
rm "$WORK/events/intel-icl.td"
sed "s/^locate $NODE  *$EV /locate $NODE $SW /" "$TD_SRCDIR/events/intel-icl.td" >"$WORK/events/intel-icl.td"
check_eq "switch: the copy's locate line names $SW" 1 "$(grep -c "^locate $NODE $SW " "$WORK/events/intel-icl.td")"
run icl-l3-pm-fe-icache icl "$WORK/sw.db" "$WORK/events"
check_eq "switch: run exits 0" 0 "$?"
seq=$(sed -n "s/.*hotspots: interval \([0-9]*\)'s bottleneck leads to $NODE: sampling its locate event $SW from interval.*/\1/p" "$WORK/err")
check_match "switch: said, with the interval that chose it" '^[0-9][0-9]*$' "$seq"
sed "s/^/# /" "$WORK/err" | grep hotspots
check_eq "switch: the sampling row names the event and the node" "$SW|$NODE|0" \
	"$(sql "$WORK/sw.db" "SELECT event, node, period FROM sampling")"
check_eq "switch: every sample taken is stored (samples_hot sums to sampling.samples, none lost)" \
	"$(sql "$WORK/sw.db" "SELECT samples FROM sampling WHERE lost = 0")" \
	"$(sql "$WORK/sw.db" "SELECT sum(count) FROM samples_hot")"
check_eq "switch: no sample at the node before the interval after the choice" 0 \
	"$(sql "$WORK/sw.db" "SELECT count(*) FROM samples_hot h JOIN intervals i ON i.id = h.interval_id WHERE h.node IS NOT NULL AND i.seq <= ${seq:-0}")"
check "switch: samples at the node after it" test "$(sql "$WORK/sw.db" "SELECT coalesce(sum(count), 0) FROM samples_hot WHERE node = '$NODE'")" -gt 0
check_eq "switch: no time-based sample after the interval after the choice (the last cpu-clock ones go with it)" 0 \
	"$(sql "$WORK/sw.db" "SELECT count(*) FROM samples_hot h JOIN intervals i ON i.id = h.interval_id WHERE h.node IS NULL AND i.seq > ${seq:-0} + 1")"
"$TDCTL" report -d "$WORK/sw.db" --hotspots >"$WORK/sw.txt"
check "switch: report --hotspots shows the node's samples" grep -q "^$NODE: [0-9]* samples" "$WORK/sw.txt"

# ---- 3. the HTML report in headless Chromium: the node's function table, opened by a click -----------
"$TDCTL" report -d "$WORK/sw.db" --format html -o "$WORK/sw.html"
check_eq "html: written" 0 "$?"
if command -v chromium >/dev/null; then
	# a script run after the report's own: name the deepest node of the bottleneck's path, close the node's
	# <details> with a click on its summary, open it again, and list the rows of its function table that
	# are visible (function|module|samples)
	cat >"$WORK/click.js" <<EOF
<script>
var d = document.querySelector('details[data-node="$NODE"]'), s = d.querySelector(':scope > summary');
function rows() {
  return Array.prototype.map.call(d.querySelectorAll(':scope > div.hotnode table.hot tr'), function (r) {
    return r.checkVisibility() && r.cells[0].tagName == 'TD' ? r.cells[0].textContent + '|' + r.cells[1].textContent + '|' + r.cells[3].textContent : '';
  }).filter(function (x) { return x; });
}
var deepest = Array.prototype.map.call(document.querySelectorAll('details.path'), function (e) { return e.dataset.node; }).pop();
var out = ['bottleneck ' + deepest, 'open at first ' + d.open];
s.click();
out.push('closed: open ' + d.open + ', rows shown ' + rows().length);
s.click();
out.push('opened: open ' + d.open);
out = out.concat(rows());
var p = document.createElement('pre'); p.id = 'clicked'; p.textContent = out.join('\n'); document.body.appendChild(p);
</script>
</body></html>
EOF
	sed 's|</body></html>||' "$WORK/sw.html" >"$WORK/click.html"
	cat "$WORK/click.js" >>"$WORK/click.html"
	ud=$(mktemp -d "$WORK/chromium.XXXXXX")
	timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
		--disable-component-update --disable-sync --no-first-run --user-data-dir="$ud" --enable-logging=stderr \
		--v=0 --dump-dom "file://$WORK/click.html" >"$WORK/click-dom.html" 2>"$WORK/chromium.err"
	sed -n '/<pre id="clicked">/,/<\/pre>/p' "$WORK/click-dom.html" | sed 's/<[^>]*>//g' >"$WORK/clicked"
	sed 's/^/# /' "$WORK/clicked"
	check_eq "html: no console message (no script error)" 0 "$(grep -c ':CONSOLE' "$WORK/chromium.err")"
	check_eq "html: the report's bottleneck is the node sampled (toplev's)" "bottleneck $NODE" "$(sed -n 1p "$WORK/clicked")"
	check_eq "html: the node is open at first (the bottleneck's path)" "open at first true" "$(sed -n 2p "$WORK/clicked")"
	check_eq "html: a click closes it and hides its function table" "closed: open false, rows shown 0" "$(sed -n 3p "$WORK/clicked")"
	check_eq "html: another click opens it" "opened: open true" "$(sed -n 4p "$WORK/clicked")"
	sql -separator '|' "$WORK/sw.db" "SELECT function, module, sum(count) FROM samples_hot WHERE node = '$NODE'
		GROUP BY function, module" | sort >"$WORK/fns.db"
	sed -n '5,$p' "$WORK/clicked" | sort >"$WORK/fns.html"
	check "html: the table shows rows once opened" test -s "$WORK/fns.html"
	check_eq "html: its rows are the node's functions, modules and samples in the database (sqlite3)" \
		"$(cat "$WORK/fns.db")" "$(cat "$WORK/fns.html")"
else
	skip "html in headless Chromium" "chromium is not installed (tests/install-deps.sh installs it)"
fi

# ---- 4. skl: no node of the bottleneck's path has a locate line -------------------------------------
check_eq "skl: no node on toplev's bottleneck path has a locate line (derived)" none \
	"$(expected skl-l4-core-ports intel-skl.td)"
host skl-bare-smtoff
run skl-l4-core-ports skl "$WORK/skl.db"
check_eq "skl: run exits 0" 0 "$?"
check_grep "skl: it stays time-based, said" "no interval named a bottleneck with a locate line on its path: the samples are time-based (cpu-clock)" "$WORK/err"
check_eq "skl: the sampling row is cpu-clock without a node" "cpu-clock|" \
	"$(sql "$WORK/skl.db" "SELECT event, coalesce(node, '') FROM sampling")"
finish
