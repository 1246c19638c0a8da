// SPDX-License-Identifier: GPL-2.0-only
/* tracker.bpf.c: the BPF half of the lifecycle tracker (tracker_bpf.c is
 * the user-space half). Births, execs, renames and deaths of the threads of
 * followed processes go to user space through a ring buffer, as they
 * happen, so threads shorter than a scan period are seen too. The followed
 * processes are the keys of `tracked`: user space adds the processes it is
 * asked to follow, and with track_children set a fork by a followed
 * process adds the child here, in the kernel, before it runs, so that its
 * own threads and children are followed from their birth.
 *
 * Each tracepoint has a tp_btf program (typed arguments: the first choice)
 * and a raw_tp one (for kernels that refuse tp_btf); user space loads one
 * set. Only BPF_CORE_READ reaches into kernel structures, so both sets
 * share the handlers below and relocate on any kernel with BTF. */
#include <vmlinux.h> /* generated at build time from the build host's BTF */
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "tracker_event.h"

/* named apart from counting.bpf.c's globals (follow_children, followed,
 * fork_*): both are linked into one object, collect.bpf.o */
const volatile bool track_children = false;

/* events the ring buffer had no room for, and children the map had no room for */
__u64 lost_events = 0;
__u64 unfollowed_children = 0;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, TD_BPF_MAX_FOLLOWED);
	__type(key, __u32);  /* tgid */
	__type(value, __u8); /* unused */
} tracked SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, TD_BPF_RINGBUF_BYTES);
} events SEC(".maps");

static __always_inline bool is_followed(__u32 tgid)
{
	return bpf_map_lookup_elem(&tracked, &tgid) != NULL;
}

static __always_inline struct td_bpf_event *reserve(__u32 kind, struct task_struct *task)
{
	struct td_bpf_event *e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);

	if (!e) {
		__sync_fetch_and_add(&lost_events, 1);
		return NULL;
	}
	e->time_ns = bpf_ktime_get_ns();
	e->kind = kind;
	e->flags = 0;
	e->tid = BPF_CORE_READ(task, pid);
	e->pid = BPF_CORE_READ(task, tgid);
	e->parent_tid = e->parent_pid = 0;
	e->runtime_ns = e->nvcsw = e->nivcsw = e->min_flt = e->maj_flt = e->migrations = 0;
	BPF_CORE_READ_STR_INTO(&e->comm, task, comm);
	return e;
}

static __always_inline int on_fork(struct task_struct *parent, struct task_struct *child)
{
	__u32 ptgid = BPF_CORE_READ(parent, tgid);
	__u32 tgid = BPF_CORE_READ(child, tgid);
	__u32 flags = 0;
	struct td_bpf_event *e;
	__u8 one = 1;

	if (!is_followed(ptgid))
		return 0;
	if (tgid != ptgid) { /* a new process, not a thread */
		if (!track_children)
			return 0;
		flags = TD_BPF_NEW_PROCESS;
		if (bpf_map_update_elem(&tracked, &tgid, &one, BPF_ANY)) {
			__sync_fetch_and_add(&unfollowed_children, 1);
			flags |= TD_BPF_NOT_FOLLOWED;
		}
	}
	if (!(e = reserve(TD_BPF_BORN, child)))
		return 0;
	e->flags = flags;
	e->parent_tid = BPF_CORE_READ(parent, pid);
	e->parent_pid = ptgid;
	bpf_ringbuf_submit(e, 0);
	return 0;
}

static __always_inline int on_exec(struct task_struct *task, __u32 old_tid)
{
	struct td_bpf_event *e;

	if (!is_followed(BPF_CORE_READ(task, tgid)) || !(e = reserve(TD_BPF_EXEC, task)))
		return 0;
	e->parent_tid = old_tid;
	bpf_ringbuf_submit(e, 0);
	return 0;
}

/* The tracepoint fires before the new name is copied: it is in `comm`. */
static __always_inline int on_rename(struct task_struct *task, const char *comm)
{
	struct td_bpf_event *e;

	if (!is_followed(BPF_CORE_READ(task, tgid)) || !(e = reserve(TD_BPF_RENAME, task)))
		return 0;
	bpf_probe_read_kernel_str(e->comm, sizeof(e->comm), comm);
	bpf_ringbuf_submit(e, 0);
	return 0;
}

/* sched_process_exit runs in the exiting thread after do_exit() counted it
 * out of signal->live: 0 there means the process's last thread (read here
 * rather than the tracepoint's group_dead, which older kernels lack). What
 * the kernel accounted to the thread goes with it: for a thread too short
 * to have had counters of its own, these are its counts. */
static __always_inline int on_thread_exit(struct task_struct *task)
{
	__u32 tgid = BPF_CORE_READ(task, tgid);
	struct td_bpf_event *e;
	bool last;

	if (!is_followed(tgid))
		return 0;
	last = BPF_CORE_READ(task, signal, live.counter) == 0;
	if (last)
		bpf_map_delete_elem(&tracked, &tgid);
	if (!(e = reserve(TD_BPF_GONE, task)))
		return 0;
	e->flags = last ? TD_BPF_LAST_THREAD : 0;
	e->runtime_ns = BPF_CORE_READ(task, se.sum_exec_runtime);
	e->nvcsw = BPF_CORE_READ(task, nvcsw);
	e->nivcsw = BPF_CORE_READ(task, nivcsw);
	e->min_flt = BPF_CORE_READ(task, min_flt);
	e->maj_flt = BPF_CORE_READ(task, maj_flt);
	e->migrations = BPF_CORE_READ(task, se.nr_migrations);
	bpf_ringbuf_submit(e, 0);
	return 0;
}

SEC("tp_btf/sched_process_fork")
int BPF_PROG(track_fork_btf, struct task_struct *parent, struct task_struct *child)
{
	return on_fork(parent, child);
}

SEC("tp_btf/sched_process_exec")
int BPF_PROG(track_exec_btf, struct task_struct *task, pid_t old_pid)
{
	return on_exec(task, (__u32)old_pid);
}

SEC("tp_btf/task_rename")
int BPF_PROG(track_rename_btf, struct task_struct *task, const char *comm)
{
	return on_rename(task, comm);
}

SEC("tp_btf/sched_process_exit")
int BPF_PROG(track_exit_btf, struct task_struct *task)
{
	return on_thread_exit(task);
}

SEC("raw_tp/sched_process_fork")
int BPF_PROG(track_fork_raw, struct task_struct *parent, struct task_struct *child)
{
	return on_fork(parent, child);
}

SEC("raw_tp/sched_process_exec")
int BPF_PROG(track_exec_raw, struct task_struct *task, pid_t old_pid)
{
	return on_exec(task, (__u32)old_pid);
}

SEC("raw_tp/task_rename")
int BPF_PROG(track_rename_raw, struct task_struct *task, const char *comm)
{
	return on_rename(task, comm);
}

SEC("raw_tp/sched_process_exit")
int BPF_PROG(track_exit_raw, struct task_struct *task)
{
	return on_thread_exit(task);
}

/* the license of the linked object is counting.bpf.c's (one global LICENSE) */
static char tracker_license[] SEC("license") = "GPL";
