/* counting_event: what the BPF counting program (counting.bpf.c) and its
 * user-space half (counting_bpf.c) share: the per-thread sums it keeps in
 * a hash map and the layout of its counter array. Included by the BPF
 * program (after vmlinux.h) and by C code (after <linux/types.h>): only
 * fixed-size kernel types. */
#ifndef TD_COUNTING_EVENT_H
#define TD_COUNTING_EVENT_H

/* Events one BPF counting session holds (all groups together: a planned
 * top-down level, 12 to 40-odd events), and the perf groups they are in
 * (one per spec of the plan: collector.h's TD_MAX_SPECS). The counter
 * array has TD_BPF_COUNT_MAX slots per CPU: slot cpu * TD_BPF_COUNT_MAX + k. */
#define TD_BPF_COUNT_MAX 64
#define TD_BPF_GROUP_MAX 24
/* Processes the program follows at once (children included), for every
 * view of it together (counting_bpf.c: sessions of one process share it). */
#define TD_BPF_COUNT_PROCS 4096
/* The bits of the program's filter before its `followed` lookup
 * (counting.bpf.c's followed_bits): a process's bit is its tgid modulo
 * this, set before it is followed and never cleared while the program
 * stays loaded. A power of two. */
#define TD_BPF_FOLLOWED_BITS (1u << 18)
/* process tgid's word of that filter, and its bit in the word (both halves) */
#define TD_BPF_FOLLOWED_WORD(tgid) (((tgid) / 64) % (TD_BPF_FOLLOWED_BITS / 64))
#define TD_BPF_FOLLOWED_BIT(tgid) (1ull << ((tgid) % 64))

/* Cgroups (v2) the program sums at once, every view's, and the deepest
 * level below the root one may be at. */
#define TD_BPF_COUNT_CGROUPS 64
#define TD_BPF_CGROUP_LEVELS 8

/* flags */
#define TD_BPF_SUMS_EXITED \
	1u		       /* the thread exited (its last switch out): its sums are final, and user
			       * space may give its slot back once it has read them */
#define TD_BPF_SUMS_RUNTIME 2u /* runtime_seen is set (the program's, for itself) */

/* What one thread of a followed process ran, summed over its times on a
 * CPU since it was first seen: per event the counter's deltas, and per
 * group its leader's enabled and running deltas (bpf_perf_event_read_value;
 * a group's members are scheduled with it and share its times, as
 * read(2) of a group reports them once: perf_read_group). One
 * slot of the program's `slots` array, which user space maps and reads in
 * place: the program makes seq odd while it writes the slot and even
 * again after (a seqlock: one writer, the CPU the thread runs on), and
 * user space adds 2 when it gives the slot back, so that a slot's
 * (tid, seq) never repeats and an unchanged seq means nothing new. The
 * sums of a process (proc_sums) have the same layout, seq unused. */
/* A CPU's entry of the program's `based` array (counting.bpf.c): nonzero
 * while a base is taken there, so that the flush has something to do. A
 * cache line each. */
struct td_bpf_cpu_based {
	__u32 based;
	__u32 pad[15];
};

struct td_bpf_thread_sums {
	__u32 pid; /* its process (tgid) */
	__u32 flags;
	__u32 owner; /* the view whose process it is (the value of `followed`: 1, 2, ...) */
	__u32 tid;   /* the thread (0: a free slot) */
	__u64 seq;
	__u64 oncpu_ns;			 /* time on a CPU (bpf_ktime_get_ns between its switch in and out) */
	__u64 voluntary;		 /* switches out while blocking (as /proc's voluntary_ctxt_switches) */
	__u64 involuntary;		 /* ... while still runnable: preempted (nonvoluntary_ctxt_switches) */
	__u64 value[TD_BPF_COUNT_MAX];	 /* by event, in the order given */
	__u64 enabled[TD_BPF_GROUP_MAX]; /* by group, 0 the first event's */
	__u64 running[TD_BPF_GROUP_MAX];
	/* the program's own: the thread's CPU time as the kernel accounted it
	 * (se.sum_exec_runtime) at its last switch out the program saw, when
	 * flags has TD_BPF_SUMS_RUNTIME (counting.bpf.c's unseen_stint()) */
	__u64 runtime_seen;
};

#endif
