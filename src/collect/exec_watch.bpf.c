// SPDX-License-Identifier: GPL-2.0-only
/* exec_watch.bpf.c: the BPF half of the exec watcher (exec_watch_bpf.c is
 * the user-space half): every exec on the system, with the process, its
 * parent, its new name and the file executed, goes to user space through a
 * ring buffer. topdownd matches them against its auto-attach rules. A
 * tp_btf program (typed arguments) and a raw_tp one for kernels that refuse
 * tp_btf; user space loads one. */
#include <vmlinux.h> /* generated at build time from the build host's BTF */
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "exec_record.h"

/* execs the ring buffer had no room for */
__u64 lost_execs = 0;

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, TD_EXEC_RINGBUF_BYTES);
} execs SEC(".maps");

static __always_inline int on_exec(struct task_struct *task, struct linux_binprm *bprm)
{
	struct td_exec_record *r = bpf_ringbuf_reserve(&execs, sizeof(*r), 0);
	const char *filename;
	long n;

	if (!r) {
		__sync_fetch_and_add(&lost_execs, 1);
		return 0;
	}
	r->time_ns = bpf_ktime_get_ns();
	r->pid = BPF_CORE_READ(task, tgid);
	r->ppid = BPF_CORE_READ(task, real_parent, tgid);
	r->pad = 0;
	BPF_CORE_READ_STR_INTO(&r->comm, task, comm);
	filename = BPF_CORE_READ(bprm, filename);
	n = bpf_probe_read_kernel_str(r->path, sizeof(r->path), filename);
	/* n counts the NUL: a full buffer may have cut the path */
	r->path_truncated = n < 0 || n >= (long)sizeof(r->path);
	bpf_ringbuf_submit(r, 0);
	return 0;
}

SEC("tp_btf/sched_process_exec")
int BPF_PROG(exec_btf, struct task_struct *task, pid_t old_pid, struct linux_binprm *bprm)
{
	return on_exec(task, bprm);
}

SEC("raw_tp/sched_process_exec")
int BPF_PROG(exec_raw, struct task_struct *task, pid_t old_pid, struct linux_binprm *bprm)
{
	return on_exec(task, bprm);
}

char LICENSE[] SEC("license") = "GPL";
