#!/bin/sh
# The two thread trackers against the workload's own record of its threads
# (tests/tools/thread_lives: TID, name, start and end of each, written by
# the threads themselves): with --tracker=proc every thread that lived at
# least two scan periods is listed under its name; with --tracker=bpf every
# thread is, the short ones (well under a scan period) too, with the name it
# gave itself and a lifetime that contains the one it recorded. Each session
# says which tracker it used; the BPF checks run with the tp_btf programs
# and again with the raw_tp ones. The BPF half is skipped where BPF does not load.
. "$(dirname "$0")/lib.sh"

LIVES="$TD_BUILDDIR/tests/tools/thread_lives"
SCAN_MS=20
NLONG=20      # long threads, one every 50 ms, each living LONG_MS
LONG_MS=300   # 15 scan periods: the /proc rescan sees them even on a busy machine
NSHORT=$((NLONG * 10))

# run_lives MODE [NAME]: tdctl run of the workload with that tracker; its
# database, record and stderr in $WORK/NAME.db, .lives, .err (NAME: MODE)
run_lives() {
	name=${2:-$1}
	"$TDCTL" run --tracker="$1" --scan-ms $SCAN_MS -I 200 -d "$WORK/$name.db" -- \
		"$LIVES" "$WORK/$name.lives" $NLONG $LONG_MS >"$WORK/$name.out" 2>"$WORK/$name.err"
}

# not_listed NAME FILTER: the workload's threads matching the awk FILTER
# (on its record's fields) that are not in MODE's database under their TID and name
not_listed() {
	if [ ! -s "$WORK/$1.lives" ]; then
		echo "(the workload left no record)"
		return
	fi
	awk "$2 { print \$1, \$2 }" "$WORK/$1.lives" | sort >"$WORK/$1.want"
	sql "$WORK/$1.db" "select tid || ' ' || comm from threads where tid > 0" | sort >"$WORK/$1.have"
	comm -23 "$WORK/$1.want" "$WORK/$1.have"
}

# ---- proc: threads living >= 2 scan periods are listed, named as they named themselves
run_lives proc
check_eq "run --tracker=proc exits 0" 0 "$?"
check_eq "the workload recorded all its threads" $((NLONG + NSHORT)) "$(wc -l <"$WORK/proc.lives" | tr -d ' ')"
check "the session says it rescans /proc, as asked" grep -q "note: threads tracked by rescanning /proc (--tracker=proc)" "$WORK/proc.err"
two_scans="\$4 - \$3 >= $((2 * SCAN_MS)) * 1000000"
long_lived=$(awk "$two_scans" "$WORK/proc.lives" | wc -l | tr -d ' ')
check "at least the $NLONG long threads lived two scan periods (found $long_lived)" test "$long_lived" -ge $NLONG
missing=$(not_listed proc "$two_scans")
check_eq "proc: every thread that lived >= 2 scan periods is listed under its name" "" "$missing"

# ---- bpf: every thread is listed, the short ones too
if ! "$TDCTL" run -q --tracker=bpf -d "$WORK/probe.db" -- true 2>"$WORK/probe.err"; then
	skip "bpf: every thread listed" "the BPF tracker does not load here: $(cat "$WORK/probe.err")"
	finish
	exit
fi
run_lives bpf
check_eq "run --tracker=bpf exits 0" 0 "$?"
check "the session says it tracks threads by BPF" grep -Eq "note: threads tracked by BPF \((tp_btf|raw_tp) " "$WORK/bpf.err"
short=$(awk '$4 - $3 < '$SCAN_MS' * 1000000 && $2 ~ /^s-/' "$WORK/bpf.lives" | wc -l | tr -d ' ')
check "most short threads lived less than a scan period ($short of $NSHORT)" test "$short" -ge $((NSHORT / 2))
missing=$(not_listed bpf 1)
check_eq "bpf: every thread is listed under the name it gave itself" "" "$missing"
check_eq "bpf: nothing else is listed but the main thread and the unlisted remainder" \
	"$((NLONG + NSHORT + 2))|1" \
	"$(sql "$WORK/bpf.db" "select count(*) || '|' || sum(tid = (select min(tid) from threads where tid > 0)) from threads")"
# the lifetime listed contains the one each thread recorded of itself (the
# kernel's fork comes before the thread's first instruction, its exit after the
# last), give or take 100 us: the events' monotonic times are put on the wall
# clock the thread read with one offset (tracker_bpf.c: mono_to_wall)
awk '{ print $1, $3, $4 }' "$WORK/bpf.lives" | sort >"$WORK/bpf.times"
sql "$WORK/bpf.db" "select tid, first_seen_ns, last_seen_ns from threads where tid > 0" | tr '|' ' ' | sort >"$WORK/bpf.seen"
join "$WORK/bpf.times" "$WORK/bpf.seen" | awk '$4 > $2 + 100000 || $5 < $3 - 100000' >"$WORK/bpf.outside"
outside=$(wc -l <"$WORK/bpf.outside" | tr -d ' ')
# the first one outside, if any: TID, its start and end, first and last seen (ns), and by how much
first=$(awk 'NR == 1 { printf "thread %s: started %s, ended %s, seen %s to %s (first seen %+d ns after its start, last %+d ns after its end)",
	$1, $2, $3, $4, $5, $4 - $2, $5 - $3 }' "$WORK/bpf.outside")
check_eq "bpf: each thread's first and last seen bracket its own start and end${first:+; $first}" 0 "$outside"
check_eq "bpf: the short threads are listed as exited" "$NSHORT" \
	"$(sql "$WORK/bpf.db" "select count(*) from threads where comm like 's-%' and exited = 1")"

# ---- bpf with the raw_tp programs (the second choice, where tp_btf does not load)
TD_TRACKER_BPF_TYPE=raw_tp run_lives bpf bpf_raw
check_eq "raw_tp: run exits 0" 0 "$?"
check "raw_tp: the session says it tracks threads by BPF's raw_tp programs" \
	grep -q "note: threads tracked by BPF (raw_tp " "$WORK/bpf_raw.err"
check_eq "raw_tp: every thread is listed under the name it gave itself" "" "$(not_listed bpf_raw 1)"

# ---- bpf: nothing is counted twice or lost when short threads are listed
# td-demo -b 100: 4 long threads and two bursts of 100 threads of 5 ms CPU
# each; it writes its own CPU time (every thread's) when work starts and ends
# TASK_CLOCK counts the time the hypervisor stole from the threads, which the scheduler's runtime
# (CLOCK_PROCESS_CPUTIME_ID) leaves out (PARAVIRT_TIME_ACCOUNTING): what the CPUs had stolen meanwhile
# (/proc/stat's steal, every CPU's, whoever ran: at most what the threads lost) is allowed above
USER_HZ=$(getconf CLK_TCK)
steal_s() { awk -v hz="$USER_HZ" '$1 == "cpu" { printf "%.6f", $9 / hz }' /proc/stat; }
s0=$(steal_s)
"$TDCTL" run --tracker=bpf -I 200 -d "$WORK/burst.db" -- "$DEMO" -t 4 -b 100 -s 2 -R "$WORK/burst.cpu" \
	>/dev/null 2>"$WORK/burst.err"
check_eq "bpf: run of td-demo -b 100 exits 0" 0 "$?"
check_eq "bpf: every thread of td-demo -b 100 is listed (main, 4 long, 2 x 100 bursts)" 205 \
	"$(sql "$WORK/burst.db" "select count(*) from threads where tid > 0")"
cpu=$(awk '$1 == "CPU_NS" { printf "%.6f", $3 / 1e9 }' "$WORK/burst.cpu")
task_clock() { sql "$WORK/burst.db" "select coalesce(sum(c.value), 0) / 1e9 from counts c join events e on e.id = c.event_id
	join threads t on t.id = c.thread_id where e.name = 'TASK_CLOCK' and $1"; }
all=$(task_clock 1)
listed=$(task_clock "t.tid > 0")
stolen=$(awk -v a="$(steal_s)" -v b="$s0" -v hz="$USER_HZ" 'BEGIN { printf "%.6f", a - b + 1 / hz }')
check_eq "bpf: TASK_CLOCK of all targets ($all s) within 2 % of the process's own CPU time ($cpu s), above it by at most the $stolen s stolen meanwhile" 1 \
	"$(awk -v a="$all" -v b="$cpu" -v s="$stolen" 'BEGIN { print (a >= b * 0.98 && a <= b * 1.02 + s) ? 1 : 0 }')"
check_eq "bpf: listed threads hold no more than everything ($listed of $cpu s, $stolen s stolen: none counted twice)" 1 \
	"$(awk -v a="$listed" -v b="$cpu" -v s="$stolen" 'BEGIN { print (a <= b * 1.02 + s) ? 1 : 0 }')"
finish
