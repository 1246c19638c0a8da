#!/bin/sh
# topdownd's /metrics scraped by Debian's real Prometheus (issue 17). The
# daemon runs a schedule (a system profile of 2 s every 3 s at 1 s) and the
# exporter on a free port; Prometheus scrapes it every second into a
# temporary store. Shown: both exposition formats (promtool accepts the
# Prometheus one; the OpenMetrics one has HELP and TYPE on every family and
# ends in # EOF), 404/405 for anything but GET /metrics, Prometheus's series
# with their labels, and every value it holds for one interval equal to
# `tdctl report --format json --intervals` of the same session and interval
# (within 1e-9), top-down nodes among them: the daemon is given the test
# tree over software events (tests/data/live/soft-tree.td, its model forced
# with TD_PFM_MODEL), so that nodes are counted for real on any host, a PMU
# or none; the exporter serves every tree alike. 100 scrapes at once while a session samples at 100 ms: all
# answered, no interval missed. The Grafana dashboard's queries name only
# metrics the exporter serves.
. "$(dirname "$0")/lib.sh"

TOPDOWND="$TD_BUILDDIR/src/topdownd/topdownd"
CLIENT="$TD_BUILDDIR/tests/tools/ctl_client"
DASH="$TD_SRCDIR/reports/grafana-topdown.json"
[ "$(id -u)" = 0 ] || skip_all "the daemon is started as root here (as CI runs); not root"
command -v curl >/dev/null || skip_all "curl is not installed (apt-get install curl)"

# a TCP port nobody listens on
free_port() {
	p=$1
	while [ "$p" -lt $(($1 + 500)) ]; do
		if ! ss -Htln "sport = :$p" 2>/dev/null | grep -q .; then echo "$p"; return; fi
		p=$((p + 1))
	done
}

D="$WORK/d"
mkdir "$D" "$D/events"
cp "$TD_SRCDIR"/events/*.td "$TD_SRCDIR/tests/data/live/soft-tree.td" "$D/events/"
cat >"$D/topdownd.conf" <<EOF
[daemon]
events_dir = $D/events

[exporter]
listen = 127.0.0.1:0

[schedule sys]
every = 3s
duration = 2s
interval = 1s
level = 2
EOF
TD_PFM_MODEL=td_soft_tree "$TOPDOWND" -f -c "$D/topdownd.conf" --socket "$D/sock" --database "$D/td.db" >"$D/log" 2>&1 &
DAEMON=$!
CLEANUP_PIDS=$DAEMON
serving() { grep -q "serving metrics on 127.0.0.1:0 (port [0-9]*)" "$D/log"; }
check "the daemon serves metrics on a free port" wait_for 10 serving
PORT=$(sed -n 's/.*serving metrics on 127.0.0.1:0 (port \([0-9]*\)).*/\1/p' "$D/log")
URL="http://127.0.0.1:$PORT/metrics"
has_run() { curl -s "$URL" | grep -q '^topdown_interval_seq{target="schedule:sys"}'; }
check "a completed interval of the schedule is exported" wait_for 15 has_run

# ---- the two formats ---------------------------------------------------------
curl -s -D "$D/h1" "$URL" >"$D/prom.txt"
check_match "Prometheus text 0.0.4 by default" "^Content-Type: text/plain; version=0.0.4" "$(grep -i '^content-type' "$D/h1" | tr -d '\r')"
if command -v promtool >/dev/null; then
	promtool check metrics <"$D/prom.txt" >"$D/promtool" 2>&1
	check_eq "promtool check metrics accepts a scrape" "0:" "$?:$(cat "$D/promtool")"
else
	skip "promtool check metrics accepts a scrape" "promtool is not installed (apt-get install prometheus)"
fi
curl -s -D "$D/h2" -H 'Accept: application/openmetrics-text; version=1.0.0' "$URL" >"$D/om.txt"
check_match "OpenMetrics when the scraper accepts it" "^Content-Type: application/openmetrics-text; version=1.0.0" \
	"$(grep -i '^content-type' "$D/h2" | tr -d '\r')"
check_eq "... ending with # EOF" "# EOF" "$(tail -1 "$D/om.txt")"
# every sample's family has HELP and TYPE before it (the family: the name without _total/_info)
bad=$(awk '/^# HELP /{ help[$3] = 1; next } /^# TYPE /{ type[$3] = 1; next } /^#/{ next }
	{ n = $0; sub(/[{ ].*/, "", n); f = n; sub(/_total$|_info$/, "", f)
	  if (!(help[f] && type[f])) print n }' "$D/om.txt")
check_eq "... every family with HELP and TYPE" "" "$bad"
check_eq "GET /other is 404" 404 "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/other")"
check_eq "POST /metrics is 405" 405 "$(curl -s -o /dev/null -w '%{http_code}' -d x "$URL")"

# ---- the dashboard names only what is served ----------------------------------------
check_eq "the Grafana dashboard is valid JSON" 1 "$(sql :memory: "select json_valid(readfile('$DASH'))")"
sql :memory: "select value from json_tree(readfile('$DASH')) where key in ('expr', 'query')" |
	grep -o 'topdown_[a-z_]*' | sort -u >"$D/dash-metrics"
check "the dashboard's queries name metrics ($(wc -l <"$D/dash-metrics"))" test "$(wc -l <"$D/dash-metrics")" -ge 8
missing=
while read -r m; do
	grep -q "^# TYPE $m " "$D/prom.txt" || missing="$missing $m"
done <"$D/dash-metrics"
check_eq "... and every one is a family the exporter serves" "" "$missing"

# ---- 100 scrapes at once while a session samples at 100 ms ----------------------------
sleep 30 &
W=$!
CLEANUP_PIDS="$CLEANUP_PIDS $W"
S=$("$TDCTL" attach "$W" --socket "$D/sock" -I 100 2>/dev/null)
iv() { sql "$D/td.db" "select count(*) from intervals where session_id = ${S:-0}"; }
five() { test "$(iv)" -ge 5; }
check "an attached session samples" wait_for 10 five
check_eq "100 concurrent scrapes are all answered 200" 100 "$("$CLIENT" - http "$PORT" 100)"
sleep 0.5
"$TDCTL" detach "$S" --socket "$D/sock" >/dev/null 2>&1
ended() { test "$(sql "$D/td.db" "select status from sessions where id = ${S:-0}")" = completed; }
wait_for 10 ended
gaps=$(sql "$D/td.db" "select count(*) from intervals where session_id = ${S:-0} and end_ns - start_ns > 200000000")
check_eq "no interval of the session was missed meanwhile (none over 200 ms)" 0 "$gaps"
check_match "the exporter reports its scrape time" '^topdown_scrape_duration_seconds [0-9.e-]+$' \
	"$(curl -s "$URL" | grep '^topdown_scrape_duration_seconds')"

# ---- attach --children: the process and what it started, summed ------------------------
sh -c "sleep 0.3; '$DEMO' -t 1 -l 0 -e 0 -s 3 >/dev/null 2>&1" &
SH=$!
CLEANUP_PIDS="$CLEANUP_PIDS $SH"
S2=$("$TDCTL" attach "$SH" --children --socket "$D/sock" -I 200 2>/dev/null)
later() { curl -s "$URL" | grep -q "^topdown_interval_seq{target=\"pid:$SH\"} \([5-9]\|[1-9][0-9]\)"; }
check "attach --children is exported" wait_for 15 later
curl -s "$URL" >"$D/tree.txt"
seq=$(sed -n "s/^topdown_interval_seq{target=\"pid:$SH\"} //p" "$D/tree.txt")
exported=$(sed -n "s/^topdown_metric{target=\"pid:$SH\",metric=\"CPU_Time\",[^}]*} //p" "$D/tree.txt")
per_process="from metrics m join intervals i on i.id = m.interval_id join targets t on t.id = m.target_id
	join metric_names n on n.id = m.metric_id
	where i.session_id = ${S2:-0} and i.seq = ${seq:-0} and t.kind = 'process' and n.name = 'CPU_Time'"
summed=$(sql "$D/td.db" "select sum(m.value) $per_process")
nproc=$(sql "$D/td.db" "select count(*) $per_process")
check "... its interval $seq stored $nproc processes' CPU_Time (the shell, sleep, td-demo: 2 or more)" test "${nproc:-0}" -ge 2
check "... and the exported CPU_Time ($exported s) is their sum ($summed s), to 1e-9" \
	awk -v a="${exported:-0}" -v b="${summed:-0}" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d <= 1e-9 * b) }'
wait "$SH"

# ---- Debian's Prometheus scrapes it -------------------------------------------------
if ! command -v prometheus >/dev/null; then
	skip "Prometheus scrapes the exporter" "prometheus is not installed (apt-get install prometheus)"
	kill "$DAEMON"
	wait "$DAEMON"
	CLEANUP_PIDS=
	finish
	exit $?
fi
PPORT=$(free_port 19090)
cat >"$D/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: topdown
    static_configs:
      - targets: ['127.0.0.1:$PORT']
EOF
prometheus --config.file="$D/prometheus.yml" --storage.tsdb.path="$D/prom" \
	--web.listen-address="127.0.0.1:$PPORT" >"$D/prom.log" 2>&1 &
PROM=$!
CLEANUP_PIDS="$CLEANUP_PIDS $PROM"
API="http://127.0.0.1:$PPORT/api/v1"
# query EXPR [TIME]: Prometheus's JSON answer
query() { curl -s --get "$API/query" --data-urlencode "query=$1" ${2:+--data-urlencode "time=$2"}; }
# first_value EXPR: the value of its first series, now
first_value() { query "$1" >"$D/q.tmp" && sql :memory: "select json_extract(readfile('$D/q.tmp'), '\$.data.result[0].value[1]')"; }
scrapes() { first_value 'count_over_time(up{job="topdown"}[5m])'; }
two_scrapes() { test "$(scrapes 2>/dev/null || echo 0)" -ge 2 2>/dev/null; }
check "Prometheus scraped the exporter twice" wait_for 60 two_scrapes
check_eq "... and the target is up" 1 "$(first_value 'up{job="topdown"}')"

# one instant of Prometheus's data: the session and interval, and every value
T=$(date +%s.%N)
json_field() { sql :memory: "select json_extract(readfile('$1'), '$2')"; }
query 'topdown_session_id{target="schedule:sys"}' "$T" >"$D/q.session"
query 'topdown_interval_seq{target="schedule:sys"}' "$T" >"$D/q.seq"
query 'topdown_metric{target="schedule:sys"}' "$T" >"$D/q.metric"
query 'topdown_node_ratio{target="schedule:sys"}' "$T" >"$D/q.node"
SID=$(json_field "$D/q.session" '$.data.result[0].value[1]')
SEQ=$(json_field "$D/q.seq" '$.data.result[0].value[1]')
check_match "Prometheus holds the session and interval of the values" '^[0-9]+\|[0-9]+$' "$SID|$SEQ"
check_match "topdown_metric series carry target, metric, unit and file" \
	'"metric":\{"__name__":"topdown_metric","file":"software.td","instance":"127.0.0.1:[0-9]+","job":"topdown","metric":"[A-Za-z_]+","target":"schedule:sys","unit":' \
	"$(cat "$D/q.metric")"
"$TDCTL" report "${SID:-0}" -d "$D/td.db" --events-dir "$D/events" --format json --intervals >"$D/report.json" 2>"$D/report.err"
check_eq "tdctl report --format json --intervals of session $SID" 0 "$?"
# software.td's info metrics computed here from the raw counts of that interval,
# summed over the CPUs (scaled by enabled/running), with software.td's formulas
sql "$D/td.db" "
	with iv as (select id, (end_ns - start_ns) / 1e9 as dur from intervals where session_id = ${SID:-0} and seq = ${SEQ:-0}),
	     c as (select e.name, sum(case when c.running = c.enabled then c.value * 1.0
	                                  when c.running > 0 then c.value * 1.0 * c.enabled / c.running end) as v
	           from counts c join events e on e.id = c.event_id join targets t on t.id = c.thread_id
	           where c.interval_id = (select id from iv) and t.kind = 'cpu' and t.cpu is not null
	           group by e.name),
	     x(name, v) as (
	       select 'CPU_Time', (select v from c where name = 'TASK_CLOCK') / 1e9 union all
	       select 'CPU_Utilization', (select v from c where name = 'TASK_CLOCK') / 1e9 / (select dur from iv) union all
	       select 'Switches_per_s', (select v from c where name = 'CONTEXT_SWITCHES') / (select dur from iv) union all
	       select 'Migrations_per_s', (select v from c where name = 'CPU_MIGRATIONS') / (select dur from iv) union all
	       select 'Faults_per_s', (select v from c where name = 'PAGE_FAULTS') / (select dur from iv) union all
	       select 'Major_Faults_per_s', (select v from c where name = 'MAJOR_FAULTS') / (select dur from iv))
	select name || '|' || v from x" >"$D/expected"
sql :memory: "select json_extract(value, '\$.metric.metric') || '|' || json_extract(value, '\$.value[1]')
	from json_each(readfile('$D/q.metric'), '\$.data.result') where json_extract(value, '\$.metric.file') = 'software.td'" |
	sort >"$D/prom-values"
join -t'|' "$D/prom-values" "$(sort "$D/expected" >"$D/expected.s" && echo "$D/expected.s")" >"$D/pairs"
check_eq "Prometheus holds software.td's 6 info metrics for that interval" 6 "$(wc -l <"$D/pairs")"
far=$(awk -F'|' '{ d = $2 - $3; if (d < 0) d = -d; s = $3 < 0 ? -$3 : $3; if (d > 1e-9 * (s > 1 ? s : 1)) print }' "$D/pairs")
check_eq "... each equal within 1e-9 to the raw counts by software.td's formulas: $(tr '\n' ' ' <"$D/pairs")" "" "$far"
# soft-tree.td at level 2: Running and Switching, then Running's two children
check_eq "Prometheus holds the test tree's 4 nodes to level 2 (topdown_node_ratio)" "Running|1| Switching|1| Running.Faulting|2|Running Running.Major|2|Running" \
	"$(sql :memory: "select group_concat(n, ' ') from (select json_extract(value, '\$.metric.node') || '|' ||
		json_extract(value, '\$.metric.level') || '|' || coalesce(json_extract(value, '\$.metric.parent'), '') as n
		from json_each(readfile('$D/q.node'), '\$.data.result') order by json_extract(value, '\$.metric.level'),
		json_extract(value, '\$.metric.node') like 'S%', n)")"
# (Prometheus keeps no empty label: level 1's parent="" is not in its answer)
check_match "... with their domain" '"domain":"Slots","instance":"127.0.0.1:[0-9]+","job":"topdown","level":"2","node":"Running.Faulting","parent":"Running"' \
	"$(cat "$D/q.node")"
sql :memory: "
	with p as (select json_extract(value, '\$.metric.node') as node, json_extract(value, '\$.value[1]') as v
	           from json_each(readfile('$D/q.node'), '\$.data.result')),
	     r as (select json_extract(value, '\$.node') as node, json_extract(value, '\$.value') as v
	           from json_each(readfile('$D/report.json'), '\$.nodes') where json_extract(value, '\$.scope') = '${SEQ:-0}')
	select p.node || '|' || p.v || '|' || coalesce(r.v / 100.0, 'null') from p left join r on r.node = p.node" >"$D/nodes"
far=$(awk -F'|' '{ d = $2 - $3; if (d < 0) d = -d; if (d > 1e-9) print }' "$D/nodes")
check_eq "each node in Prometheus equals the report's interval $SEQ within 1e-9: $(tr '\n' ' ' <"$D/nodes")" "" "$far"
kill "$PROM" "$W" 2>/dev/null
kill "$DAEMON"
wait "$DAEMON"
check_eq "the daemon stops cleanly with its exporter" 0 "$?"
CLEANUP_PIDS=
finish
