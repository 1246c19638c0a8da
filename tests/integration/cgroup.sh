#!/bin/sh
# tdctl record --cgroup PATH: summed by the BPF counting program where it
# loads, else (--counting=per-thread) perf's cgroup mode on every CPU.
# Creates two cgroup v2 groups, runs td-demo in one; the busy cgroup's
# TASK_CLOCK is the demo's CPU time, the empty one's is 0. Then in both
# modes, a demo that runs its whole life inside the session, in a cgroup
# below the one recorded: its CPU time is the cgroup's TASK_CLOCK within
# 2 % (plus what the hypervisor stole meanwhile, which TASK_CLOCK counts
# and the process's CPU time does not, and what BPF gave to nobody after
# switches it did not see). Skipped, with the reason, where no cgroup v2
# hierarchy is mounted or no cgroup can be created (a container without
# write access to /sys/fs/cgroup, a non-root user).
. "$(dirname "$0")/lib.sh"

mnt=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
if [ -z "$mnt" ]; then
	skip_all "no cgroup v2 hierarchy in /proc/mounts (mount one: mount -t cgroup2 none /sys/fs/cgroup)"
fi
busy="$mnt/td-test-busy-$$"
idle="$mnt/td-test-idle-$$"
if ! mkdir "$busy" "$idle" 2>"$WORK/mkdir.err"; then
	skip_all "cannot create cgroups under $mnt (run the tests as root, with write access to it): $(cat "$WORK/mkdir.err")"
fi
cleanup_cgroups() { rmdir "$busy"/sub-* "$busy" "$idle" 2>/dev/null; }
trap 'cleanup_cgroups; finish_cleanup' EXIT

DB="$WORK/g.db"
sh -c "echo \$\$ >'$busy/cgroup.procs' && exec '$DEMO' -t 2 -l 0 -e 0 -s 3" >/dev/null 2>&1 &
DPID=$!
CLEANUP_PIDS=$DPID
wait_for 20 grep -qx "$DPID" "$busy/cgroup.procs" || not_ok "the demo moved into $busy"
usage_us() { awk '$1 == "usage_usec" { print $2 }' "$busy/cpu.stat" 2>/dev/null; }
u0=$(usage_us)
"$TDCTL" record --cgroup "$busy" --hotspots --duration 2 -I 500 -d "$DB" 2>"$WORK/err"
check_eq "record --cgroup --hotspots exits 0" 0 "$?"
u1=$(usage_us)
"$TDCTL" record --cgroup "${idle#$mnt/}" --duration 1 -I 500 -d "$DB" 2>"$WORK/err2"
check_eq "record --cgroup with a path inside the cgroup mount exits 0" 0 "$?"
wait "$DPID"
check_eq "two cgroup sessions" "cgroup|completed cgroup|completed" \
	"$(sql "$DB" "select group_concat(kind||'|'||status, ' ') from (select * from sessions order by id)")"
check_eq "one cgroup target per session, with its path" "$busy $idle" \
	"$(sql "$DB" "select group_concat(cgroup, ' ') from (select cgroup from targets where kind='cgroup' order by id)")"
busy_ms=$(sql "$DB" "select sum(c.value) / 1000000 from counts c join events e on e.id=c.event_id
	join targets t on t.id=c.thread_id where e.name='TASK_CLOCK' and t.cgroup='$busy'")
# The kernel's own account of the cgroup's CPU time (cpu.stat) around the record: what was counted
# is some of it (the record's 2 s, without tdctl's start and end, which a loaded host stretches) and
# never more
if [ -n "$u0" ] && [ -n "$u1" ]; then
	used_ms=$(((u1 - u0) / 1000))
	check "the busy cgroup's TASK_CLOCK (${busy_ms} ms) is at most the $used_ms ms cpu.stat gives while it was recorded, and at least a fifth of it" \
		awk -v b="${busy_ms:-0}" -v u="$used_ms" 'BEGIN { exit !(b > 0 && b <= u + 5 && b >= u / 5) }'
else
	check "the busy cgroup's TASK_CLOCK is the demo's CPU time (${busy_ms} ms in 2 s, > 0; no cpu.stat here)" test "${busy_ms:-0}" -gt 0
fi
# --hotspots on a cgroup: its tasks sampled on every CPU (PERF_FLAG_PID_CGROUP), named by td-demo's
# own symbol table (nm, not our reader)
if command -v nm >/dev/null; then
	nm "$DEMO" | awk '$2 == "t" || $2 == "T" { print $3 }' >"$WORK/nm"
	TOP=$(sql "$DB" "select function from samples_hot where session_id = 1 and pid = $DPID and module = 'td-demo'
		group by function order by sum(count) desc limit 1")
	check "record --cgroup --hotspots: the demo's most sampled function is one of its symbols ($TOP)" \
		grep -qxF "$TOP" "$WORK/nm"
else
	skip "record --cgroup --hotspots names the demo's functions" "nm (binutils) is not installed"
fi
check_eq "... and the session without --hotspots sampled nothing" "0" \
	"$(sql "$DB" "select count(*) from samples_hot where session_id = 2")"
check_eq "the empty cgroup counted no CPU time" 0 \
	"$(sql "$DB" "select sum(c.value) from counts c join events e on e.id=c.event_id
		join targets t on t.id=c.thread_id where e.name='TASK_CLOCK' and t.cgroup='$idle'")"
check_eq "cgroup CPU_Time = TASK_CLOCK / 1e9 every interval (stored by default: nothing aggregates a cgroup)" "1|0" \
	"$(sql "$DB" "select count(*) > 0, sum(abs(m.value - c.value * 1.0 * c.enabled / c.running / 1e9) > 1e-12)
		from counts c join events e on e.id=c.event_id and e.name='TASK_CLOCK'
		join metric_values m on m.interval_id=c.interval_id and m.target_id=c.thread_id and m.name='CPU_Time'
		where c.running > 0")"

# ---- a whole workload's life inside the session, in a cgroup below the one recorded ----
USER_HZ=$(getconf CLK_TCK)
steal_ns() { awk -v hz="$USER_HZ" '$1 == "cpu" { printf "%.0f", $9 * 1e9 / hz }' /proc/stat; }
# counting_started DB: its session has written an interval (it counts)
counting_started() { [ "$(sql "$1" "select count(*) from intervals" 2>/dev/null || echo 0)" -ge 1 ]; }
bpf_loads=1
"$TDCTL" run -q --counting=bpf -d "$WORK/probe.db" -- true >/dev/null 2>"$WORK/probe.err" || bpf_loads=0
for mode in bpf per-thread; do
	if [ $mode = bpf ] && [ $bpf_loads = 0 ]; then
		skip "bpf: the BPF counting program does not load here: $(tail -1 "$WORK/probe.err")"
		continue
	fi
	sub="$busy/sub-$mode"
	mkdir "$sub"
	MDB="$WORK/$mode.db"
	s0=$(steal_ns)
	"$TDCTL" record --cgroup "$busy" --counting=$mode --duration 4 -I 200 -d "$MDB" 2>"$WORK/$mode.err" &
	RPID=$!
	CLEANUP_PIDS="$RPID"
	wait_for 20 counting_started "$MDB" || not_ok "$mode: the session counts"
	sh -c "echo \$\$ >'$sub/cgroup.procs' && exec '$DEMO' -t 2 -l 0 -e 0 -s 1 -R '$WORK/$mode.cpu'" >/dev/null 2>&1
	wait "$RPID"
	check_eq "$mode: record --cgroup exits 0" 0 "$?"
	stolen=$(( $(steal_ns) - s0 + 1000000000 / USER_HZ ))
	case $mode in
	bpf) check_eq "bpf: the session says the BPF program summed it" "bpf|cgroup $busy (summed by BPF on all CPUs)" \
		"$(sql "$MDB" "select counting || '|' || command from sessions")" ;;
	*) check_eq "per-thread: perf's cgroup events on every CPU (no counting mode recorded)" "|cgroup $busy (" \
		"$(sql "$MDB" "select coalesce(counting, '') || '|' || substr(command, 1, length('cgroup $busy ('))
			from sessions")" ;;
	esac
	unseen=$(sed -n 's/.* the \([0-9.]*\) ms of followed time they hid went to no thread.*/\1/p' "$WORK/$mode.err")
	# -R: each thread's CPU time (TID NS SWITCHES), as it measured it just before it ended
	cpu=$(awk 'NF == 3 && $1 != "CPU_NS" { s += $2 } END { if (NR) printf "%.0f", s }' "$WORK/$mode.cpu")
	tc=$(sql "$MDB" "select sum(c.value) from counts c join events e on e.id = c.event_id where e.name = 'TASK_CLOCK'")
	check_eq "$mode: the cgroup's TASK_CLOCK (${tc:-none} ns) is the demo's CPU time below it ($cpu ns) within 2 % (+ ${stolen} ns stolen, ${unseen:-0} ms to nobody)" 1 \
		"$(awk -v a="${tc:-0}" -v b="${cpu:-0}" -v s="$stolen" -v u="${unseen:-0}" \
			'BEGIN { d = a - b; print (b > 0 && d <= b * 0.02 + s && -d <= b * 0.02 + u * 1e6) ? 1 : 0 }')"
	rmdir "$sub"
done

"$TDCTL" record --cgroup "no-such-cgroup-$$" -d "$DB" 2>"$WORK/bad"
check_eq "an unknown cgroup: exit 1" 1 "$?"
check_match "one line naming it and what to give" "^tdctl: no cgroup 'no-such-cgroup-$$'.*give a directory under" "$(cat "$WORK/bad")"
# a directory that is no cgroup (here: the test's own, on another file system)
"$TDCTL" record --cgroup "$WORK" -d "$DB" 2>"$WORK/bad2"
check_eq "a directory that is no cgroup: exit 1" 1 "$?"
check_eq "... one line" 1 "$(wc -l <"$WORK/bad2")"
# (the mount named is the first cgroup v2 or v1 perf_event one in /proc/mounts: a host's order)
check_match "... saying so, and where the hierarchy is" "^tdctl: '$WORK' is not a cgroup: give a directory under /" "$(cat "$WORK/bad2")"
finish
