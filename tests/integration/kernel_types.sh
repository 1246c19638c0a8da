#!/bin/sh
# This boot's kernel types file (collect/kernel_types.h), taken whatever the
# machine does meanwhile (TD_KERNEL_TYPES_TAKE=always: when it pays is
# test_kernel_types'; an open-ended session, by default, takes none: shown
# below): a session that finds none makes it with bpftool and says what that cost; the next one
# takes it (its programs the raw_tp ones, relocated against it: the note
# says so) and makes nothing; the file is BPF type information holding the
# kernel's task_struct (read by bpftool, not by tdctl), named by this boot
# and readable by all, writable by its owner only. A file one cannot trust
# (writable by others) is not taken but made again; one that does not load
# is left for the kernel's BTF (tp_btf programs), removed, and made again by
# the next start; a bpftool that fails is said in one note, the session
# counting as without the file; no bpftool says nothing. tdctl doctor says
# which. Skipped where BPF counting does not load or bpftool is missing.
. "$(dirname "$0")/lib.sh"
BPFTOOL=${TD_BPFTOOL:-/usr/sbin/bpftool}
export TD_TRACKER=bpf

if ! "$TDCTL" run -I 100 -d "$WORK/probe.db" --counting=bpf -- true >/dev/null 2>"$WORK/probe.err"; then
	skip_all "BPF counting does not load here: $(tail -n 1 "$WORK/probe.err")"
fi
[ -x "$BPFTOOL" ] || skip_all "bpftool is missing ($BPFTOOL)"
DIR="$WORK/types"
mkdir -p "$DIR"
boot=$(cut -d- -f1 /proc/sys/kernel/random/boot_id)

# run NAME [ENV...]: tdctl run of a short workload with the file kept in $DIR; stderr in $WORK/NAME.err
run() {
	name=$1
	shift
	env TD_KERNEL_TYPES_CACHE="$DIR" TD_KERNEL_TYPES_TAKE=always "$@" "$TDCTL" run -I 100 -d "$WORK/$name.db" \
		--counting=bpf -- \
		"$DEMO" -t 2 -l 0 -e 0 -s 1 >/dev/null 2>"$WORK/$name.err"
}
RELOCATED="note: counted by BPF at each context switch (raw_tp sched_switch, relocated against this boot's kernel types file,"

# ---- none: made, said, taken ---------------------------------------------------
run first
check_eq "the first run exits 0" 0 "$?"
file=$(ls "$DIR"/topdown-kernel-types-*.btf 2>/dev/null)
check_match "one file, named by this boot and a 64-bit hash of the object" \
	"^$DIR/topdown-kernel-types-$boot-[0-9a-f]{16}\\.btf\$" "$file"
check_eq "readable by all, writable by its owner only" "644 $(id -u)" "$(stat -c '%a %u' "$file" 2>/dev/null)"
check "bpftool reads it as BTF holding the kernel's struct task_struct" \
	sh -c "'$BPFTOOL' btf dump file '$file' | grep -q \"STRUCT 'task_struct'\""
check_grep "the summary says what making it cost" "ms of its start in bpftool, making this boot's kernel types file" \
	"$WORK/first.err"
check_grep "the first run's programs are relocated against it" "$RELOCATED" "$WORK/first.err"
check_grep "so are the tracker's (loaded with the counting program)" \
	"note: threads tracked by BPF (raw_tp sched_process_fork/exec/exit, task_rename; loaded with the counting program)" \
	"$WORK/first.err"
ls -i "$file" >"$WORK/inode.1"

# ---- there: taken, nothing made ----------------------------------------------
run second
check_eq "the second run exits 0" 0 "$?"
check_grep "the second run's programs are relocated against it" "$RELOCATED" "$WORK/second.err"
check "the second run makes nothing (no bpftool in its summary)" \
	sh -c "! grep -q 'in bpftool' '$WORK/second.err'"
check_eq "the file is the same file" "$(cat "$WORK/inode.1")" "$(ls -i "$file")"
check_eq "still one file" 1 "$(ls "$DIR" | grep -c '^topdown-kernel-types-')"
TD_KERNEL_TYPES_CACHE="$DIR" "$TDCTL" doctor >"$WORK/doctor.out" 2>&1
check_grep "tdctl doctor names it" "BPF start:      this boot's kernel types file $file:" "$WORK/doctor.out"

# ---- open-ended, by default: not taken (its switches' extra cost has no bound) --
env TD_KERNEL_TYPES_CACHE="$DIR" "$TDCTL" run -I 100 -d "$WORK/open-ended.db" --counting=bpf -- \
	"$DEMO" -t 2 -l 0 -e 0 -s 1 >/dev/null 2>"$WORK/open-ended.err"
check_eq "an open-ended run exits 0" 0 "$?"
check_grep "... and loads the tp_btf programs, the file there" \
	"note: counted by BPF at each context switch (tp_btf sched_switch," "$WORK/open-ended.err"

# ---- writable by others: not taken, made again ------------------------------------
chmod 666 "$file"
run open
check_eq "with the file writable by all, the run exits 0" 0 "$?"
check_grep "a file writable by others is made again (bpftool in the summary)" "in bpftool, making" "$WORK/open.err"
check_eq "... readable by all, writable by its owner only again" "644" "$(stat -c '%a' "$file" 2>/dev/null)"

# ---- one that does not load: the kernel's BTF, removed, made again ------------
printf 'not BTF\n' >"$file"
run bad
check_eq "with a file that is not BTF, the run exits 0" 0 "$?"
check_grep "... its programs are the tp_btf ones (the kernel's BTF)" \
	"note: counted by BPF at each context switch (tp_btf sched_switch," "$WORK/bad.err"
check "... and the file is removed" test ! -e "$file"
check_eq "... its counts are there (TASK_CLOCK of both workers stored)" 2 \
	"$(sql "$WORK/bad.db" "select count(distinct t.tid) from counts c join events e on e.id = c.event_id
		join threads t on t.id = c.thread_id where e.name = 'TASK_CLOCK' and t.tid != t.pid and c.value > 0")"
run again
check_grep "the next run makes it again and takes it" "$RELOCATED" "$WORK/again.err"
check_grep "... saying what that cost" "in bpftool, making" "$WORK/again.err"

# ---- a bpftool that fails: one note; none: nothing said --------------------------
rm -f "$DIR"/*
run failing TD_BPFTOOL=/bin/false
check_eq "with a bpftool that fails, the run exits 0" 0 "$?"
check_grep "one note says the file was not made, why, and what it costs" \
	"note: this boot's kernel types file was not made (/bin/false exited with 1): each start parses the kernel's BTF (see 'tdctl doctor')" \
	"$WORK/failing.err"
check_grep "... its programs are the tp_btf ones" "(tp_btf sched_switch," "$WORK/failing.err"
check_eq "... and no file is left" 0 "$(ls "$DIR" | wc -l)"
run missing TD_BPFTOOL="$WORK/no-bpftool"
check_eq "with no bpftool, the run exits 0" 0 "$?"
check "... and says nothing of the file" sh -c "! grep -q 'kernel types' '$WORK/missing.err'"
TD_KERNEL_TYPES_CACHE="$DIR" TD_BPFTOOL="$WORK/no-bpftool" "$TDCTL" doctor >"$WORK/doctor2.out" 2>&1
check_grep "tdctl doctor says bpftool is missing" "BPF start:      $WORK/no-bpftool missing (apt-get install bpftool)" \
	"$WORK/doctor2.out"
finish
