#!/bin/sh
# A drill-down's hotspots (issue 35: "hotspots where available"), and who
# names their addresses: the real daemon in watch mode on a cgroup of the
# test's own (as watch.sh), level 1 of the test tree over software events.
# In the group a loop of 0.5 ms sleeps (perl); at the shift, copies of
# td-demo start in it: two as user nobody (setpriv) — one readable by
# anyone, one whose file is execute-only (0711: nobody may run it, not read
# it) — and one as root, and a perl loop as nobody. The change opens a drill-down session that samples the group
# (cpu-clock: the test tree locates nothing; by cgroup, per CPU) and hands each
# user-space address to a symbolizer process of its process's owner. Shown:
# while the drill-down runs, a symbolizer runs as nobody and one as root,
# each with no capability, no_new_privs and a seccomp filter (the kernel's
# /proc/PID/status, not the daemon's word); the readable td-demo's samples
# are named by functions its own symbol table has (nm, not our reader),
# the execute-only one's by none — its owner cannot read it, and root, who
# could, does not parse it; root's copy's by its own symbols too (a
# symbolizer without capabilities may not read a capable process's
# /proc/PID/maps: the daemon opens it and hands it over); once the
# drill-down ends no symbolizer is left.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_watch.sh"

[ "$(id -u)" = 0 ] || skip_all "the daemon counts cgroups and becomes other users as root here (as CI runs); not root"
command -v perl >/dev/null || skip_all "perl (the workload's loop) is not installed"
command -v setpriv >/dev/null || skip_all "setpriv (util-linux) is not installed: the workload runs as nobody"
command -v nm >/dev/null || skip_all "nm (binutils) is not installed: td-demo's own symbol table is read with it"
watch_cgroups "td-whot-$$.slice" phase
watch_dir
printf '%s\n' "[daemon]" "events_dir = $D/events" "" "[watch]" "enable = yes" "root = $root" "depth = 1" \
	"interval = 250ms" "baseline = 12" "window = 4" "p_value = 0.01" "min_shift = 10" "drill_level = 2" \
	"drill_duration = 4s" "workload_every = 1m" >"$D/topdownd.conf"

# td-demo where nobody may reach it: a readable copy and an execute-only one
BIN=$(mktemp -d /tmp/td-whot.XXXXXX)
chmod 755 "$BIN"
cp "$TD_BUILDDIR/src/demo/td-demo" "$BIN/td-demo"
cp "$TD_BUILDDIR/src/demo/td-demo" "$BIN/td-demo-x"
cp "$TD_BUILDDIR/src/demo/td-demo" "$BIN/td-demo-r"
chmod 755 "$BIN/td-demo"
chmod 711 "$BIN/td-demo-x"
trap 'watch_cleanup; rm -rf "$BIN"; finish_cleanup' EXIT
check "nobody may run the execute-only copy, and not read it" sh -c \
	"setpriv --reuid=65534 --regid=65534 --clear-groups '$BIN/td-demo-x' -t 1 -l 0 -e 0 -s 1 >/dev/null 2>&1 &&
	 ! setpriv --reuid=65534 --regid=65534 --clear-groups cat '$BIN/td-demo-x' >/dev/null 2>&1"

sh -c "echo \$\$ >'$root/phase/cgroup.procs' && exec perl -e 'select(undef, undef, undef, 0.0005) while 1'" &
LOOP=$!
CLEANUP_PIDS="$LOOP"
check "the loop runs in the group" wait_for 10 grep -qx "$LOOP" "$root/phase/cgroup.procs"

# DEBUGINFOD_URLS as a desktop's profile sets it: no symbolizer may connect (its filter would kill it)
DEBUGINFOD_URLS=http://127.0.0.1:9 TD_PFM_MODEL=td_soft_tree "$TOPDOWND" -f -c "$D/topdownd.conf" --socket "$SOCK" --database "$DB" >"$D/log" 2>&1 &
DAEMON=$!
CLEANUP_PIDS="$CLEANUP_PIDS $DAEMON"
check "the daemon starts and answers" wait_for 10 "$TDCTL" status --socket "$SOCK"
SP() { sql "$DB" "select id from sessions where schedule = 'watch:$rel/phase'"; }
filled() { [ -n "$(SP)" ] && [ "$(sql "$DB" "select count(*) from intervals where session_id = $(SP)")" -ge 17 ]; }
check "the group's watch session has its baseline and a window" wait_for 30 filled

# the shift: the copies in the group, computing, two as nobody and one as root
for b in td-demo td-demo-x td-demo-r; do
	as="setpriv --reuid=65534 --regid=65534 --clear-groups"
	[ "$b" = td-demo-r ] && as=
	sh -c "echo \$\$ >'$root/phase/cgroup.procs' && exec $as '$BIN/$b' -t 2 -l 0 -e 0 -s 60" >/dev/null 2>&1 &
	CLEANUP_PIDS="$CLEANUP_PIDS $!"
done
DEMO=$(echo "$CLEANUP_PIDS" | awk '{ print $(NF - 2) }')
DEMOX=$(echo "$CLEANUP_PIDS" | awk '{ print $(NF - 1) }')
DEMOR=$(echo "$CLEANUP_PIDS" | awk '{ print $NF }')
# and an interpreter filling a hash, as nobody: libperl's functions, a library without debug
# information (where libdwfl looks for a debug file, and would start a debuginfod client)
sh -c "echo \$\$ >'$root/phase/cgroup.procs' && exec setpriv --reuid=65534 --regid=65534 --clear-groups \
	perl -e 'my %h; while (1) { \$h{sprintf(\"%x\", rand(1e9))} = [split //, rand()]; %h = () if keys %h > 1e5 }'" \
	>/dev/null 2>&1 &
PERL=$!
CLEANUP_PIDS="$CLEANUP_PIDS $PERL"
uid_of() { awk '/^Uid:/ { print $2 }' "/proc/$1/status" 2>/dev/null; }
running() {
	for p in $DEMO $DEMOX $DEMOR $PERL; do grep -qx "$p" "$root/phase/cgroup.procs" || return 1; done
	[ "$(uid_of "$DEMO") $(uid_of "$DEMOX") $(uid_of "$DEMOR")" = "65534 65534 0" ]
}
check "the copies run in the group, two as nobody and one as root" wait_for 10 running

drill() { sql "$DB" "select drill_session_id from changes where drill_session_id is not null limit 1"; }
check "a change opens a drill-down session" wait_for 30 sh -c "[ -n \"\$(sqlite3 '$DB' 'select drill_session_id from changes where drill_session_id is not null')\" ]"
DRILL=$(drill)

check_eq "... which samples cpu-clock (time-based: the test tree has no locate line)" "cpu-clock" \
	"$(sql "$DB" "select event from sampling where session_id = $DRILL")"

# the daemon's children that symbolize, as the kernel sees them
symbolizers() {
	for p in $(pgrep -P "$DAEMON"); do
		tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null | grep -q -- '--privsep-symbolizer' || continue
		awk -v pid="$p" '/^Uid:/ { u = $2 " " $3 " " $4 " " $5 } /^Gid:/ { g = $2 " " $3 " " $4 " " $5 }
			/^CapEff:/ { c = $2 } /^CapPrm:/ { pr = $2 } /^NoNewPrivs:/ { n = $2 } /^Seccomp:/ { s = $2 }
			END { print "uid " u " gid " g " cap " c " " pr " nnp " n " seccomp " s }' "/proc/$p/status"
	done | sort
}
both_run() { symbolizers >"$D/symbolizers"; [ "$(wc -l <"$D/symbolizers")" -ge 2 ]; }
check "while the drill-down runs, two symbolizers run" wait_for 10 both_run
check "... one as nobody: every uid and gid, no capability, no_new_privs, seccomp filter" grep -qxF \
	"uid 65534 65534 65534 65534 gid 65534 65534 65534 65534 cap 0000000000000000 0000000000000000 nnp 1 seccomp 2" \
	"$D/symbolizers"
check "... one as root, the owner of a copy: no capability either" grep -qxF \
	"uid 0 0 0 0 gid 0 0 0 0 cap 0000000000000000 0000000000000000 nnp 1 seccomp 2" "$D/symbolizers"

done_drill() { [ "$(sql "$DB" "select status from sessions where id = $DRILL")" = completed ]; }
check "the drill-down session completes" wait_for 20 done_drill
check_eq "... and no symbolizer is left" "" "$(symbolizers)"

# a process's user-space samples (its kernel ones are named from /proc/kallsyms, by the daemon)
hot() { sql "$DB" "select function || '|' || module from samples_hot where session_id = $DRILL and pid = $1 \
	and module <> '[kernel]' group by function, module order by sum(count) desc"; }
check "the drill-down sampled the readable copy" test -n "$(hot "$DEMO")"
nm "$BIN/td-demo" | awk '$2 == "t" || $2 == "T" { print $3 "|td-demo" }' | sort >"$D/nm"
TOP=$(hot "$DEMO" | head -n 1)
check "... its most sampled function one of td-demo's own symbols ($TOP)" grep -qxF "$TOP" "$D/nm"
check "... and the execute-only copy sampled too" test -n "$(hot "$DEMOX")"
check_eq "... none of whose samples is named (its owner cannot read it)" "" \
	"$(hot "$DEMOX" | grep -v '^\[unknown\]|')"
check "the drill-down sampled root's copy" test -n "$(hot "$DEMOR")"
TOPR=$(hot "$DEMOR" | head -n 1)
check "... its most sampled function one of td-demo's own symbols ($TOPR)" grep -qxF "${TOPR%|*}|td-demo" "$D/nm"
check_eq "... in its module" "td-demo-r" "${TOPR#*|}"
check "the drill-down sampled the interpreter" test -n "$(hot "$PERL")"
sed -n 's|.* /\([^ ]*/\)*\([^ /]*\)$|\2|p' "/proc/$PERL/maps" | sort -u >"$D/perl-modules"
TOPP=$(hot "$PERL" | grep -v '^\[unknown\]|' | head -n 1)
check "... named ($TOPP)" test -n "$TOPP"
check "... in a module its maps list" grep -qxF "${TOPP#*|}" "$D/perl-modules"
check_eq "no symbolizer was given up" "" "$(grep 'its addresses are \[unknown\]' "$D/log")"
check "the daemon says whom it started a symbolizer for" grep -q \
	"session $DRILL: hotspots: symbolizer process [0-9]* started for uid 65534 gid 65534\$" "$D/log"
"$TDCTL" report --change 1 -d "$DB" --events-dir "$D/events" >"$D/rc.txt" 2>&1
check_eq "tdctl report --change 1 exits 0" 0 "$?"
check "... its drill-down's hotspots after the drill-down's tree" grep -qx "drill-down session $DRILL's hotspots:" "$D/rc.txt"
check "... naming the readable copy's most sampled function" grep -q "${TOP%|*}" "$D/rc.txt"
finish
