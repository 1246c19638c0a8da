# lib_watch.sh: what the tests of topdownd's watch mode share (after lib.sh):
# a cgroup v2 root of the test's own with its groups, removed at the end, and
# the daemon's directory with the events files and the test tree.

TOPDOWND="$TD_BUILDDIR/src/topdownd/topdownd"

# watch_cgroups NAME [GROUP...]: the cgroup NAME at the top of the cgroup v2
# mount ($root; $rel inside the mount) and its GROUPs, made here; at the exit
# the processes in CLEANUP_PIDS are killed, the groups emptied and removed.
# A SKIP of the whole test where there is no cgroup v2 mount or no right to
# write to it.
watch_cgroups() {
	mnt=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
	[ -n "$mnt" ] || skip_all "no cgroup v2 hierarchy in /proc/mounts (mount one: mount -t cgroup2 none /sys/fs/cgroup)"
	root="$mnt/$1"
	rel="${root#"$mnt"}"
	shift
	WATCH_GROUPS="$*"
	if ! mkdir "$root" 2>"$WORK/mkdir.err" || { [ $# -gt 0 ] && ! (cd "$root" && mkdir "$@" 2>"$WORK/mkdir.err"); }; then
		watch_rmdirs
		skip_all "cannot create cgroups under $mnt (run the tests as root, with write access to it): $(cat "$WORK/mkdir.err")"
	fi
	trap 'watch_cleanup; finish_cleanup' EXIT
}

watch_rmdirs() {
	for g in $WATCH_GROUPS; do
		rmdir "$root/$g" 2>/dev/null
	done
	rmdir "$root" 2>/dev/null
}

watch_cleanup() {
	[ -n "${CLEANUP_PIDS:-}" ] && kill -9 $CLEANUP_PIDS 2>/dev/null
	for g in $WATCH_GROUPS; do
		# the daemon and the workloads killed: the kernel empties the groups
		wait_for 5 sh -c "! grep -q . '$root/$g/cgroup.procs'"
	done
	watch_rmdirs
}

# watch_dir: $D for the daemon, with the events files and the test tree over software events
# (tests/data/live/soft-tree.td) in $D/events; its socket $SOCK, its database $DB
watch_dir() {
	D="$WORK/d"
	mkdir "$D" "$D/events"
	cp "$TD_SRCDIR"/events/*.td "$TD_SRCDIR/tests/data/live/soft-tree.td" "$D/events/"
	SOCK="$D/sock"
	DB="$D/td.db"
}
