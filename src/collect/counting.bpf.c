// SPDX-License-Identifier: GPL-2.0-only
/* counting.bpf.c: the BPF half of the BPF-aggregated counting mode
 * (counting_bpf.c is the user-space half), after bperf. User space opens
 * one counter per CPU per event and puts it in `counters`; at every
 * context switch this program reads the counters of the CPU
 * (bpf_perf_event_read_value) and adds what they counted since the last
 * switch on that CPU to the sums of the thread switched out, when that
 * thread belongs to a followed process. The thread's time on the CPU and
 * its switches (voluntary or not) are summed too. User space reads every
 * thread's sums with one batch lookup per interval; before that it runs
 * `flush` on each CPU, which does the same for the thread running there,
 * so a thread that never switches is counted up to the read.
 *
 * Followed processes are the keys of `followed`, each with its owner: the
 * view of user space (one collector; the sessions of one daemon share the
 * program and its counters) that follows it, copied into the sums of its
 * threads and its own. With follow_children set, a fork by a followed
 * process adds the child, for the same owner, before it runs. Each
 * tracepoint has a tp_btf program and a raw_tp one; user space loads one
 * set (BPF_CORE_READ only, so both relocate on any kernel with BTF). */
#include <vmlinux.h> /* generated at build time from the build host's BTF */
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "counting_event.h"

const volatile bool follow_children = false;
const volatile __u32 nevents = 0;

/* switches out of followed threads whose sums had no room in `sums` (map
 * full), and the CPU time they ran: counted by the counters, given to no thread */
__u64 lost_switches = 0;
__u64 lost_oncpu_ns = 0;
/* counter reads that failed (an event not counting on that CPU) */
__u64 read_errors = 0;

/* an empty entry, copied into a map for a new thread or process */
const struct td_bpf_thread_sums zero_sums = { 0 };

struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
	/* max_entries: possible CPUs * TD_BPF_COUNT_MAX, set by user space */
} counters SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, TD_BPF_COUNT_PROCS);
	__type(key, __u32);   /* tgid */
	__type(value, __u32); /* its owner (never 0) */
} followed SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 8192); /* set by user space (--bpf-map-entries) */
	__type(key, __u32);        /* tid */
	__type(value, struct td_bpf_thread_sums);
} sums SEC(".maps");

/* Every followed process's sums (all its threads, listed or not, with room
 * in `sums` or not): the collector's total, of which the threads it lists
 * are a part (the rest is its unlisted remainder). Never deleted. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, TD_BPF_COUNT_PROCS);
	__type(key, __u32); /* tgid */
	__type(value, struct td_bpf_thread_sums);
} proc_sums SEC(".maps");

/* Each CPU's counters as last read, and when. */
struct cpu_state {
	__u64 since_ns;
	__u32 valid; /* last[] was read: the next read gives deltas */
	__u32 pad;
	struct bpf_perf_event_value last[TD_BPF_COUNT_MAX];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct cpu_state);
} cpu_states SEC(".maps");

/* The owner of process tgid, 0 when it is not followed. */
static __always_inline __u32 owner_of(__u32 tgid)
{
	__u32 *o = bpf_map_lookup_elem(&followed, &tgid);

	return o ? *o : 0;
}

/* The entry of key in map (created on first use), or NULL when full. */
static __always_inline struct td_bpf_thread_sums *sums_of(void *map, __u32 key, __u32 tgid, __u32 owner)
{
	struct td_bpf_thread_sums *s = bpf_map_lookup_elem(map, &key);

	if (s)
		return s;
	/* from a global, not the stack: two of these would not fit in 512 bytes */
	bpf_map_update_elem(map, &key, &zero_sums, BPF_NOEXIST); /* E2BIG when full; EEXIST: created meanwhile */
	if ((s = bpf_map_lookup_elem(map, &key))) {
		s->pid = tgid;
		s->owner = owner;
	}
	return s;
}

/* The sums of a followed thread and of its process, or NULL (*full: the thread's had no room). */
static __always_inline struct td_bpf_thread_sums *thread_sums(struct task_struct *task, bool *full,
							      struct td_bpf_thread_sums **proc)
{
	__u32 tgid = BPF_CORE_READ(task, tgid), tid = BPF_CORE_READ(task, pid), owner;
	struct td_bpf_thread_sums *s;

	*full = false;
	*proc = NULL;
	if (!tid || !(owner = owner_of(tgid)))
		return NULL;
	*proc = sums_of(&proc_sums, tgid, tgid, owner);
	if (!(s = sums_of(&sums, tid, tgid, owner)))
		*full = true;
	return s;
}

/* Read this CPU's counters and give what they counted since the last
 * read to `task` (the thread that ran meanwhile) when it is followed. */
static __always_inline struct td_bpf_thread_sums *account(struct task_struct *task)
{
	__u32 zero = 0, cpu = bpf_get_smp_processor_id();
	struct cpu_state *cs = bpf_map_lookup_elem(&cpu_states, &zero);
	struct td_bpf_thread_sums *s, *p;
	__u64 now = bpf_ktime_get_ns();
	bool full;

	if (!cs)
		return NULL;
	s = thread_sums(task, &full, &p);
	for (__u32 k = 0; k < TD_BPF_COUNT_MAX; k++) {
		struct bpf_perf_event_value v;
		if (k >= nevents)
			break;
		if (bpf_perf_event_read_value(&counters, cpu * TD_BPF_COUNT_MAX + k, &v, sizeof(v))) {
			__sync_fetch_and_add(&read_errors, 1);
			continue;
		}
		if (s && cs->valid) {
			s->value[k] += v.counter - cs->last[k].counter;
			s->enabled[k] += v.enabled - cs->last[k].enabled;
			s->running[k] += v.running - cs->last[k].running;
		}
		if (p && cs->valid) {
			p->value[k] += v.counter - cs->last[k].counter;
			p->enabled[k] += v.enabled - cs->last[k].enabled;
			p->running[k] += v.running - cs->last[k].running;
		}
		cs->last[k] = v;
	}
	if (p && cs->since_ns)
		p->oncpu_ns += now - cs->since_ns;
	if (s && cs->since_ns)
		s->oncpu_ns += now - cs->since_ns;
	else if (full && cs->since_ns)
		__sync_fetch_and_add(&lost_oncpu_ns, now - cs->since_ns);
	cs->since_ns = now;
	cs->valid = 1;
	return full ? (struct td_bpf_thread_sums *)-1 : s;
}

static __always_inline int on_switch(bool preempt, struct task_struct *prev, unsigned int prev_state)
{
	struct td_bpf_thread_sums *s = account(prev);

	if (s == (struct td_bpf_thread_sums *)-1)
		__sync_fetch_and_add(&lost_switches, 1);
	else if (s && !preempt && prev_state)
		s->voluntary++;
	else if (s)
		s->involuntary++;
	return 0;
}

static __always_inline int on_fork(struct task_struct *parent, struct task_struct *child)
{
	__u32 ptgid = BPF_CORE_READ(parent, tgid), tgid = BPF_CORE_READ(child, tgid), owner;

	if (follow_children && tgid != ptgid && (owner = owner_of(ptgid)))
		bpf_map_update_elem(&followed, &tgid, &owner, BPF_ANY);
	return 0;
}

/* Mark the thread's sums: user space deletes them once it has read them. */
static __always_inline int on_exit(struct task_struct *task)
{
	__u32 tid = BPF_CORE_READ(task, pid), tgid = BPF_CORE_READ(task, tgid);
	struct td_bpf_thread_sums *s = bpf_map_lookup_elem(&sums, &tid);

	if (s)
		s->flags |= TD_BPF_SUMS_EXITED;
	if (owner_of(tgid) && BPF_CORE_READ(task, signal, live.counter) == 0)
		bpf_map_delete_elem(&followed, &tgid);
	return 0;
}

SEC("tp_btf/sched_switch")
int BPF_PROG(switch_btf, bool preempt, struct task_struct *prev, struct task_struct *next, unsigned int prev_state)
{
	return on_switch(preempt, prev, prev_state);
}

SEC("tp_btf/sched_process_fork")
int BPF_PROG(fork_btf, struct task_struct *parent, struct task_struct *child)
{
	return on_fork(parent, child);
}

SEC("tp_btf/sched_process_exit")
int BPF_PROG(exit_btf, struct task_struct *task)
{
	return on_exit(task);
}

SEC("raw_tp/sched_switch")
int BPF_PROG(switch_raw, bool preempt, struct task_struct *prev, struct task_struct *next, unsigned int prev_state)
{
	return on_switch(preempt, prev, prev_state);
}

SEC("raw_tp/sched_process_fork")
int BPF_PROG(fork_raw, struct task_struct *parent, struct task_struct *child)
{
	return on_fork(parent, child);
}

SEC("raw_tp/sched_process_exit")
int BPF_PROG(exit_raw, struct task_struct *task)
{
	return on_exit(task);
}

/* Run by user space on each CPU (BPF_F_TEST_RUN_ON_CPU) before it reads the
 * sums: the thread running there gets what it counted so far. Not attached. */
SEC("raw_tp")
int flush(void *ctx)
{
	account((struct task_struct *)bpf_get_current_task());
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
