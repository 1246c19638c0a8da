// SPDX-License-Identifier: GPL-2.0-only
/* counting.bpf.c: the BPF half of the BPF-aggregated counting mode
 * (counting_bpf.c is the user-space half), after bperf. User space opens
 * one counter per CPU per event and puts it in `counters`; at a context
 * switch from or to a thread of a followed process this program reads the
 * counters of the CPU once — each group's leader with its enabled and
 * running times (bpf_perf_event_read_value), its members' values alone
 * (bpf_perf_event_read: the group's times are its leader's), and a group of
 * software events by value alone (`value_only`) — and adds what they
 * counted since the followed thread switched in to its sums, the times per
 * group: a thread's counts scale by its own groups' times, as per-thread
 * groups would. The kernel multiplexes the groups beyond the CPU's
 * counters (perf_rotate_context); a switch between
 * threads nobody follows reads nothing. The thread's time on the CPU and
 * its switches (voluntary or not) are summed too. Before each interval's
 * read user space runs `flush` on each CPU, which does the same for the
 * thread running there, so a thread that never switches is counted up to
 * the read. The owner looked up for the thread switched in is kept in the
 * CPU's state for its switch out while `followed_gen` stays; a bit per tgid
 * (`followed_bits`) says which processes need a lookup of `followed` at all,
 * and each CPU keeps the owners and slots it looked up last (a small cache
 * by tgid and tid), so that a switch between threads that ran there lately
 * does no hash lookup.
 *
 * A thread's sums are a slot of `slots`, an array user space maps and
 * reads in place (no copy, no system call: counting_event.h has the
 * seqlock that keeps a read whole); `slot_of` gives a thread's slot. A
 * thread gets one the first time it is accounted, from `free_slots` (the
 * slots user space gave back) or else the next never used, and keeps it
 * to its last switch (out of do_task_dead(), prev_state TASK_DEAD), which
 * marks it exited: final, for user space to give back once read. Slots
 * and the CPU's last reading are written only at a switch and in `flush`,
 * both with interrupts off, one at a time on a CPU (a sched_process_exit
 * program could be preempted, or interrupted by the flush, in the middle
 * of them). A
 * process's sums (`proc_sums`, per CPU) take what its threads without a
 * slot ran (none free); user space adds the slots up for the rest. A
 * followed cgroup's sums (`cgroup_sums`, record --cgroup) take, with
 * atomic adds from every CPU, whatever ran in it or in a cgroup below it
 * (the thread's ancestor at the cgroup's level, as perf's cgroup events
 * count), followed process or not. The last thread
 * of a process (signal->live 0 at its last switch) takes the process out
 * of `followed`.
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
/* cgroup sums wanted (user space, at load): without them the cgroup code is
 * dead for the verifier, which then takes half the time to load the program */
const volatile bool sum_cgroups = false;
const volatile __u32 nevents = 0;
const volatile __u32 ngroups = 0;
/* The layout of the events (set by user space): event k's group, and a bit
 * each for the events that lead a group (the first of its events). Known
 * to the verifier (read-only data): it walks the plan's events, no more. */
const volatile __u8 group_of[TD_BPF_COUNT_MAX] = { 0 };
const volatile __u64 leaders = 0;
/* groups read without their enabled and running times, a bit each (set by
 * user space: software groups, never multiplexed): those are the time
 * between readings, bpf_ktime_get_ns's */
const volatile __u32 value_only = 0;
/* events of those groups the program counts itself instead of reading, a bit
 * each (set by user space, like value_only): a CPU's TASK_CLOCK (`clocks`),
 * which counts the time it is on, and in a group never multiplexed that is
 * the time between two readings; and a CPU's CONTEXT_SWITCHES (`switches`),
 * which the kernel counts at each switch there just after this program runs
 * (perf_event_task_sched_out() from prepare_task_switch(), after
 * trace_sched_switch(): kernel/sched/core.c:5161, 5310, 6749-6752 in 6.12),
 * as the program counts them in cpu_state.switches. A bpf_perf_event_read()
 * less each, at every switch read. */
const volatile __u64 clocks = 0;
const volatile __u64 switches = 0;
const volatile __u32 nslots = 0; /* the size of slots, slot_of and free_slots (set by user space) */

/* switches out of followed threads that had no slot (none free), and the
 * CPU time they ran: counted by the counters and in their process's sums,
 * given to no thread */
__u64 lost_switches = 0;
__u64 lost_oncpu_ns = 0;
/* counter reads that failed (an event not counting on that CPU) */
__u64 read_errors = 0;
/* a slot found odd when its writer began, or even when it ended (two
 * writers at once: never) */
__u64 seq_errors = 0;
/* switches the program did not see, and the time of followed threads they
 * hid: who ran that time is not known, and it (with its counts) goes to no
 * thread and no process. Seen on our Firecracker guests: the kernel gives
 * no sched_switch event (to perf either) when the guest agent's threads
 * (PID 1) switch out, ~4 a second. Found two ways (step()): a reading of a
 * CPU's counters finds another thread running than the one the last switch
 * there switched to, while a base was taken: the time since that base; or
 * a followed thread switches out (or is flushed) where the program did not
 * see it switch in, after a switch to a thread nobody follows (which took
 * no base, no clock read): its time since its unseen switch in, as the
 * kernel accounted it (unseen_stint()). unseen_untimed: of the latter,
 * those whose time the kernel keeps no record of (a thread outside the
 * fair class): not in unseen_ns. */
__u64 unseen_switches = 0;
__u64 unseen_ns = 0;
__u64 unseen_untimed = 0;
/* the levels below the root of the followed cgroups, a bit each: set by
 * user space; 0, no cgroup followed and none looked up */
__u32 cgroup_levels = 0;
/* slots handed out from the array's start: the most in use at once (free
 * ones are taken first) */
__u32 next_slot = 0;
/* set once the program has made an entry of proc_sums (never cleared):
 * until then user space's read does not walk that map (a walk of an empty
 * hash map still looks at each of its 4,096 buckets: ~20 us an interval) */
__u32 proc_sums_made = 0;

/* moved on after every change of `followed` (by user space, at a fork, at a
 * process's end): an owner looked up under another value is looked up again */
__u64 followed_gen = 0;

/* A filter before every lookup of `followed` (at each switch, for the
 * thread switched to): a bit per tgid modulo TD_BPF_FOLLOWED_BITS, set
 * before a process is followed (by user space, or at the fork that makes a
 * followed child) and never cleared while the program is loaded. A clear
 * bit means not followed; a set one means look it up. The lookup, a hash of
 * the tgid and a walk of its bucket, was ~40 ns of a switch nobody follows
 * on the Zen 4 guest of stop 47 (102 -> 63 ns a run with the lookup
 * skipped, the empty program 48); a bit of a process followed once, or of
 * one whose tgid shares it, costs that lookup again at its switches until
 * the program is reloaded. 32 KiB of .bss. */
__u64 followed_bits[TD_BPF_FOLLOWED_BITS / 64] = { 0 };

static __always_inline bool maybe_followed(__u32 tgid)
{
	return followed_bits[TD_BPF_FOLLOWED_WORD(tgid)] & TD_BPF_FOLLOWED_BIT(tgid);
}

/* an empty entry, copied into proc_sums for a new process */
const struct td_bpf_thread_sums zero_sums = { 0 };

#define TD_TASK_DEAD 0x00000080 /* prev_state of a thread's last switch (include/linux/sched.h) */

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

/* max_entries of the next three: nslots (--bpf-map-entries), set by user space */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 8192);
	__type(key, __u32);
	__type(value, struct td_bpf_thread_sums);
} slots SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 8192);
	__type(key, __u32);   /* tid */
	__type(value, __u32); /* its slot */
} slot_of SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_QUEUE);
	__uint(max_entries, 8192);
	__type(value, __u32); /* a slot user space gave back */
} free_slots SEC(".maps");

/* The followed cgroups (cgroup v2 ids) and their sums, both set up by user
 * space; the owner is in the sums. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, TD_BPF_COUNT_CGROUPS);
	__type(key, __u64);
	__type(value, struct td_bpf_thread_sums);
} cgroup_sums SEC(".maps");

/* Every followed process's sums (all its threads, listed or not, with a
 * slot or not): the collector's total, of which the threads it lists are a
 * part (the rest is its unlisted remainder). Deleted by user space.
 * User space makes it BPF_F_NO_PREALLOC where the kernel allows it at a
 * switch (counting_bpf.c's load()): an entry is made only for a process
 * one of whose threads found no slot (account(): a lookup, and an update
 * once per such process, never at a switch of a thread with a slot), while
 * preallocated its 4,096 entries of ~1 KiB on every possible CPU are
 * allocated and cleared at each load (6 ms of a session's start on a 2-CPU
 * guest). An entry the kernel cannot allocate is as one beyond a full map:
 * that process's counts miss from its sums (its threads' time is in
 * lost_oncpu_ns either way). */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, TD_BPF_COUNT_PROCS);
	__type(key, __u32); /* tgid */
	__type(value, struct td_bpf_thread_sums);
} proc_sums SEC(".maps");

#define TD_CPU_CACHE 16 /* owners and slots each CPU keeps (cpu_state): a power of two */

/* Each CPU's counters as last read, and when, and who the last switch there
 * switched to. */
struct cpu_state {
	__u64 since_ns;
	__u32 valid;	/* last[] was read: the next read gives deltas */
	__u32 known;	/* running is set */
	__u32 running;	/* tid of the thread switched to (0: idle) */
	__u32 owner;	/* its process's owner when it switched in (0: not followed), as of gen */
	__u64 gen;	/* followed_gen then */
	__u64 switches; /* the switches here the program has seen: the `switches` events' reading */
	/* each event's value and each group's times as last read, and what they
	 * moved since the reading before (account()'s) */
	__u64 last[TD_BPF_COUNT_MAX];
	__u64 last_enabled[TD_BPF_GROUP_MAX];
	__u64 last_running[TD_BPF_GROUP_MAX];
	__u64 delta[TD_BPF_COUNT_MAX];
	__u64 delta_enabled[TD_BPF_GROUP_MAX];
	__u64 delta_running[TD_BPF_GROUP_MAX];
	/* owners and slots looked up on this CPU before, at tgid and tid modulo
	 * TD_CPU_CACHE (owner_cached(), slot_cached()): a switch between threads
	 * that ran here lately looks neither up again (a hash lookup ~40 ns each
	 * on the Zen 4 guest) */
	struct {
		__u32 tgid, owner;
		__u64 gen; /* followed_gen when looked up: another, and it is looked up again */
	} owners[TD_CPU_CACHE];
	struct {
		__u32 tid, slot;
	} slot_at[TD_CPU_CACHE];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct cpu_state);
} cpu_states SEC(".maps");

/* Each CPU's "a base is taken here" (cpu_state.valid: a followed thread, or
 * with cgroups summed any, runs there since a reading of its switch in),
 * where user space can see it: it maps the array and runs the flush only
 * on the CPUs that have it, so that a CPU running nothing followed is not
 * interrupted at each interval (an IPI each, a VM exit each in a guest).
 * A cache line a CPU, written by that CPU only and only when it changes.
 * max_entries: possible CPUs, set by user space. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct td_bpf_cpu_based);
} based SEC(".maps");

/* The owner of process tgid, 0 when it is not followed. */
static __always_inline __u32 owner_of(__u32 tgid)
{
	if (!maybe_followed(tgid))
		return 0;
	__u32 *o = bpf_map_lookup_elem(&followed, &tgid);

	return o ? *o : 0;
}

/* owner_of(tgid) through this CPU's cache, looked up as of gen (read
 * before any lookup: a change of `followed` after it moves followed_gen on,
 * and the entry is looked up again). With interrupts off, one at a time on
 * a CPU (a switch, the flush). */
static __always_inline __u32 owner_cached(struct cpu_state *cs, __u32 tgid, __u64 gen)
{
	__u32 i = tgid % TD_CPU_CACHE, owner, *o;

	if (!maybe_followed(tgid))
		return 0;
	if (cs->owners[i].tgid == tgid && cs->owners[i].gen == gen)
		return cs->owners[i].owner;
	o = bpf_map_lookup_elem(&followed, &tgid);
	owner = o ? *o : 0;
	cs->owners[i].tgid = tgid;
	cs->owners[i].owner = owner;
	cs->owners[i].gen = gen;
	return owner;
}

/* The seqlock of a slot (counting_event.h): odd while it is written. The
 * atomic adds with their results used are fully ordered (BPF_FETCH). */
static __always_inline void write_begin(struct td_bpf_thread_sums *s)
{
	if (__sync_fetch_and_add(&s->seq, 1) & 1)
		__sync_fetch_and_add(&seq_errors, 1);
}

static __always_inline void write_end(struct td_bpf_thread_sums *s)
{
	if (!(__sync_fetch_and_add(&s->seq, 1) & 1))
		__sync_fetch_and_add(&seq_errors, 1);
}

/* The slot of thread tid, NULL when it has none. */
static __always_inline struct td_bpf_thread_sums *slot_of_tid(__u32 tid)
{
	__u32 *at = bpf_map_lookup_elem(&slot_of, &tid);

	return at ? bpf_map_lookup_elem(&slots, at) : NULL;
}

/* The slot of thread tid as this CPU's cache has it, NULL when it has
 * another tid there or the slot is no longer tid's: user space gives a
 * slot back with its tid 0 (counting_bpf.c's slot_give_back()), after its
 * thread's last switch marked it exited; a slot handed out again names
 * its new thread. So a slot found here is the one slot_of gives tid. */
static __always_inline struct td_bpf_thread_sums *slot_cached(const struct cpu_state *cs, __u32 tid)
{
	__u32 i = tid % TD_CPU_CACHE, at = cs->slot_at[i].slot;
	struct td_bpf_thread_sums *s;

	if (cs->slot_at[i].tid != tid || !(s = bpf_map_lookup_elem(&slots, &at)))
		return NULL;
	return s->tid == tid && !(s->flags & TD_BPF_SUMS_EXITED) ? s : NULL;
}

/* Keep slot in this CPU's cache as thread tid's. */
static __always_inline void slot_remember(struct cpu_state *cs, __u32 tid, __u32 slot)
{
	cs->slot_at[tid % TD_CPU_CACHE].tid = tid;
	cs->slot_at[tid % TD_CPU_CACHE].slot = slot;
}

/* The slot of followed thread tid, a new one the first time, or NULL
 * (*full: none free); this CPU's cache (cs) first, and kept there. */
static __always_inline struct td_bpf_thread_sums *slot_for(struct cpu_state *cs, __u32 tid, __u32 tgid, __u32 owner,
							   bool *full)
{
	struct td_bpf_thread_sums *s = slot_cached(cs, tid);
	__u32 *at, slot;

	if (s)
		return s;
	if ((at = bpf_map_lookup_elem(&slot_of, &tid))) {
		slot = *at;
		if ((s = bpf_map_lookup_elem(&slots, &slot)))
			slot_remember(cs, tid, slot);
		return s;
	}
	if (bpf_map_pop_elem(&free_slots, &slot)) {
		if (next_slot >= nslots) {
			*full = true;
			return NULL;
		}
		slot = __sync_fetch_and_add(&next_slot, 1);
	}
	if (slot >= nslots || !(s = bpf_map_lookup_elem(&slots, &slot))) {
		*full = true;
		return NULL;
	}
	write_begin(s);
	s->tid = tid;
	s->pid = tgid;
	s->owner = owner;
	s->flags = 0;
	write_end(s);
	if (bpf_map_update_elem(&slot_of, &tid, &slot, BPF_NOEXIST)) {
		/* slot_of full: the slot goes back */
		write_begin(s);
		s->tid = 0;
		write_end(s);
		bpf_map_push_elem(&free_slots, &slot, 0);
		*full = true;
		return NULL;
	}
	slot_remember(cs, tid, slot);
	return s;
}

enum {
	SW_NONE,
	SW_VOLUNTARY,
	SW_INVOLUNTARY
};

/* Add this CPU's deltas to sums t that only this CPU writes now. */
static __always_inline void add_deltas(struct td_bpf_thread_sums *t, const struct cpu_state *cs)
{
	for (__u32 k = 0; k < TD_BPF_COUNT_MAX; k++) {
		if (k >= nevents)
			break;
		t->value[k] += cs->delta[k];
	}
	for (__u32 g = 0; g < TD_BPF_GROUP_MAX; g++) {
		if (g >= ngroups)
			break;
		t->enabled[g] += cs->delta_enabled[g];
		t->running[g] += cs->delta_running[g];
	}
}

/* Add this CPU's deltas (cs->delta, ran ns on it) to a cgroup's sums, which
 * several CPUs add to at once. */
static __always_inline void add_shared(struct td_bpf_thread_sums *t, const struct cpu_state *cs, __u64 ran)
{
	for (__u32 k = 0; k < TD_BPF_COUNT_MAX; k++) {
		if (k >= nevents)
			break;
		__sync_fetch_and_add(&t->value[k], cs->delta[k]);
	}
	for (__u32 g = 0; g < TD_BPF_GROUP_MAX; g++) {
		if (g >= ngroups)
			break;
		__sync_fetch_and_add(&t->enabled[g], cs->delta_enabled[g]);
		__sync_fetch_and_add(&t->running[g], cs->delta_running[g]);
	}
	__sync_fetch_and_add(&t->oncpu_ns, ran);
}

/* Add this CPU's deltas to this CPU's copy of a process's sums (proc_sums
 * is per CPU: no atomic add, user space sums the copies). */
static __always_inline void add_local(struct td_bpf_thread_sums *t, const struct cpu_state *cs, __u64 ran, __u32 tgid,
				      __u32 owner)
{
	add_deltas(t, cs);
	t->oncpu_ns += ran;
	t->pid = tgid;
	if (owner)
		t->owner = owner; /* each CPU's copy names it (user space takes any that does) */
}

/* bpf_perf_event_value's layout (include/uapi/linux/bpf.h: a user-space
 * ABI, fixed), declared here rather than taken from vmlinux.h, whose types
 * are relocatable: a relocation against a type makes libbpf look for it
 * among the kernel's ~127,000 types at each load (~1 ms). */
struct perf_value {
	__u64 counter;
	__u64 enabled;
	__u64 running;
};

/* Read this CPU's counters once: cs->delta* is what they counted since
 * cs->last* when `have` (else zero), and cs->last* the new reading. A
 * group's leader is read with its times (a software group's are the clock:
 * value_only), its members by value alone, one call each: the kernel reads
 * a group member as it reads any event (perf_event_read_local(), pmu->read). */
__noinline int read_counters(struct cpu_state *cs, __u32 cpu, __u32 have, __u64 now)
{
	if (!cs) /* a global function's pointer argument may be NULL to the verifier */
		return 0;
	for (__u32 k = 0; k < TD_BPF_COUNT_MAX; k++) {
		struct perf_value v;
		__u32 g;
		__u64 c;
		if (k >= nevents)
			break;
		g = group_of[k];
		if (g >= TD_BPF_GROUP_MAX)
			break; /* never (user space): for the verifier */
		cs->delta[k] = 0;
		if ((leaders & (1ull << k)) && !(value_only & (1u << g))) {
			cs->delta_enabled[g] = cs->delta_running[g] = 0;
			if (bpf_perf_event_read_value(&counters, cpu * TD_BPF_COUNT_MAX + k, (void *)&v, sizeof(v))) {
				__sync_fetch_and_add(&read_errors, 1);
				continue; /* the next reading's delta covers this one's */
			}
			if (have) {
				cs->delta_enabled[g] = v.enabled - cs->last_enabled[g];
				cs->delta_running[g] = v.running - cs->last_running[g];
			}
			cs->last_enabled[g] = v.enabled;
			cs->last_running[g] = v.running;
			c = v.counter;
		} else {
			if (leaders & (1ull << k)) {
				/* its times are the time between two readings (counting_bpf.c's
				 * value_only_groups()): one clock read less or two */
				cs->delta_enabled[g] = cs->delta_running[g] = have ? now - cs->last_enabled[g] : 0;
				cs->last_enabled[g] = cs->last_running[g] = now;
			}
			if (clocks & (1ull << k)) {
				c = now;
			} else if (switches & (1ull << k)) {
				c = cs->switches;
			} else {
				c = bpf_perf_event_read(&counters, cpu * TD_BPF_COUNT_MAX + k);
				if (c >= (__u64)-4095) { /* -errno */
					__sync_fetch_and_add(&read_errors, 1);
					continue;
				}
			}
		}
		if (have)
			cs->delta[k] = c - cs->last[k];
		cs->last[k] = c;
	}
	return 0;
}

/* Give cs->delta (what the counters counted while thread tid ran, ran ns) to
 * the thread and its process when the process is followed (owner), and
 * count its switch sw. Its last switch (dead) marks its sums final, even when
 * its process has just been taken out of `followed` by another thread's last
 * switch. Returns true when the thread had no slot (none free). Run with
 * interrupts off, one at a time on a CPU.
 *
 * read_counters(), account(), count_unseen_stint() and step() are
 * global functions (not static, not inlined): the verifier checks each once,
 * on its own, with its arguments unknown (pointers as memory of their type's
 * size that may be NULL: btf_prepare_func_args(), kernel/bpf/btf.c:7751-7771
 * in 6.12), instead of once on every path of its caller that reaches it.
 * Inlined, the switch program (tp_btf, 6 events) took 21,074 instructions
 * processed and 34 ms of the session's start to verify on this 6.18 guest;
 * with the first three global, 4,485 and 4-10 ms (step(): below). A global
 * function takes five arguments at most: account()'s and step()'s come in
 * a struct. */
struct account_args {
	__u64 ran;
	__u32 tid, tgid, owner;
	__s32 sw;
	__u32 dead, have;
	/* a switch out of a followed thread: keep in its slot its CPU time as the
	 * kernel accounted it (runtime, read by the caller from prev: the
	 * tp_btf flavour by a load, no helper call; runtime_seen, unseen_stint()'s
	 * start for a stint the program does not see begin), in the same write as
	 * its sums */
	__u32 seen;
	__u64 runtime;
};

__noinline int account(struct cpu_state *cs, const struct account_args *a)
{
	struct td_bpf_thread_sums *s = NULL, *p = NULL;
	bool full = false;

	if (!cs || !a)
		return 0;
	__u32 tid = a->tid, tgid = a->tgid, owner = a->owner;
	int sw = a->sw;
	bool dead = a->dead, have = a->have;
	__u64 ran = a->ran;

	/* a thread with a slot counts there only: user space adds its process's
	 * slots up (counting_bpf.c's read); proc_sums takes what has no slot */
	if (tid && owner) {
		s = slot_for(cs, tid, tgid, owner, &full);
		if (!s && (p = bpf_map_lookup_elem(&proc_sums, &tgid)) == NULL) {
			/* from a global: the stack has no room for it beside the rest */
			bpf_map_update_elem(&proc_sums, &tgid, &zero_sums, BPF_NOEXIST);
			p = bpf_map_lookup_elem(&proc_sums, &tgid);
			/* after the entry; seen late by user space, it delays a read by an interval */
			if (p && !proc_sums_made)
				*(volatile __u32 *)&proc_sums_made = 1;
		}
	} else if (tid && dead) {
		if (!(s = slot_of_tid(tid)))
			p = bpf_map_lookup_elem(&proc_sums, &tgid);
	}
	if (s && !(s->flags & TD_BPF_SUMS_EXITED)) { /* exited: final (never: a thread has one last switch) */
		write_begin(s);
		if (have) {
			add_deltas(s, cs);
			s->oncpu_ns += ran;
		}
		if (sw == SW_VOLUNTARY)
			s->voluntary++;
		else if (sw == SW_INVOLUNTARY)
			s->involuntary++;
		if (dead) {
			s->flags |= TD_BPF_SUMS_EXITED;
		} else if (a->seen) {
			s->runtime_seen = a->runtime;
			s->flags |= TD_BPF_SUMS_RUNTIME;
		}
		write_end(s);
	} else if (full) {
		__sync_fetch_and_add(&lost_oncpu_ns, ran);
	}
	if (p && have)
		add_local(p, cs, ran, tgid, owner);
	/* the followed cgroups the running thread is in (current is the task: a switch runs
	 * before the context does, the flush on the CPU): its ancestor at each level followed */
	if (sum_cgroups && cgroup_levels && have) {
		for (int l = 0; l < TD_BPF_CGROUP_LEVELS; l++) {
			struct td_bpf_thread_sums *c;
			__u64 id;
			if (!(cgroup_levels & (1u << l)) || !(id = bpf_get_current_ancestor_cgroup_id(l)) ||
			    !(c = bpf_map_lookup_elem(&cgroup_sums, &id)))
				continue;
			add_shared(c, cs, ran);
		}
	}
	return full;
}

/* The owner of the process of thread tid (tgid) about to be accounted on
 * this CPU: the one looked up when it switched in, while nothing changed
 * `followed` since, else looked up now. */
static __always_inline __u32 owner_now(struct cpu_state *cs, __u32 tid, __u32 tgid, __u64 gen)
{
	if (!tid)
		return 0;
	if (cs->known && cs->running == tid && cs->gen == gen)
		return cs->owner;
	return owner_cached(cs, tgid, gen);
}

struct sched_ext_entity___td {
	__u32 flags;
} __attribute__((preserve_access_index));

/* task_struct's scx, where the kernel has sched_ext (the build host's may not) */
struct task_struct___td {
	struct sched_ext_entity___td scx;
} __attribute__((preserve_access_index));

/* The CPU time of followed thread t (running, or switching out; its slot
 * s, or NULL) since its last switch out the program saw, when it was then
 * switched in unseen, as the kernel accounted it; false when the kernel
 * keeps no such figure. The thread's se.sum_exec_runtime is up to date at a
 * switch out (update_curr() by the dequeue of try_to_block_task() or by
 * put_prev_entity(), kernel/sched/fair.c:5703 in 6.12, in
 * pick_next_task(), core.c:6701-6705, before trace_sched_switch() at
 * core.c:6749, all on the rq clock of core.c:6681; the real-time, deadline
 * and ext classes' update_curr_common()/update_curr_scx() too), and the
 * program keeps it in the slot at each switch out it sees (runtime_seen):
 * the difference is every stint since, however many. In the flush it lags
 * by what ran since the last tick. Without that record (the slot's first
 * switch), the time since the thread was last picked: a fair-class task's
 * entity gets prev_sum_exec_runtime = sum_exec_runtime when it is set as
 * the next to run (set_next_entity(), fair.c:5658), which the program does
 * not see: on this 6.18 guest that figure was found short of the unseen
 * stint (a thread short by 0.3 ms of its TASK_CLOCK while 5 us were said
 * unseen), so it is the fallback only -- exact for a thread's first stint
 * (sum_exec_runtime from 0, sched_fork()). The real-time and deadline classes
 * (prio below MAX_RT_PRIO, include/linux/sched/prio.h, a boost included)
 * and sched_ext (scx.flags' state SCX_TASK_ENABLED: in that class,
 * include/linux/sched/ext.h) do not set prev_sum_exec_runtime. */
static __always_inline bool unseen_stint(struct task_struct *t, const struct td_bpf_thread_sums *s, __u64 *ns)
{
	struct task_struct___td *x = (void *)t;
	__u64 sum, at;

	if (s && (s->flags & TD_BPF_SUMS_RUNTIME)) {
		sum = BPF_CORE_READ(t, se.sum_exec_runtime);
		at = s->runtime_seen;
		*ns = sum > at ? sum - at : 0;
		return true;
	}
	if (BPF_CORE_READ(t, prio) < 100)
		return false;
	if (bpf_core_field_exists(x->scx) && ((BPF_CORE_READ(x, scx.flags) >> 8) & 3) == 3)
		return false;
	sum = BPF_CORE_READ(t, se.sum_exec_runtime);
	at = BPF_CORE_READ(t, se.prev_sum_exec_runtime);
	*ns = sum > at ? sum - at : 0;
	return true;
}

/* The task of thread tid, which is the current one both where step() runs
 * (trace_sched_switch() runs before context_switch(): kernel/sched/core.c:6749
 * and 6752 in 6.12; the flush reads the current task), as a pointer to read
 * with BPF_CORE_READ; NULL if it is not (never). The global functions below
 * take it so: a global function's arguments are scalars or memory, and a
 * tp_btf program's task is neither. */
static __always_inline struct task_struct *current_as(__u32 tid)
{
	struct task_struct *t = (struct task_struct *)bpf_get_current_task();

	return t && (__u32)BPF_CORE_READ(t, pid) == tid ? t : NULL;
}

/* A switch out of followed thread tid (current) that the program did not see
 * switch in: counted, with its unseen time as the kernel accounted it. */
__noinline int count_unseen_stint(__u32 tid)
{
	struct task_struct *t = current_as(tid);
	__u64 stint;

	__sync_fetch_and_add(&unseen_switches, 1);
	if (t && unseen_stint(t, slot_of_tid(tid), &stint))
		__sync_fetch_and_add(&unseen_ns, stint);
	else
		__sync_fetch_and_add(&unseen_untimed, 1);
	return 0;
}

/* Thread tid leaves the CPU (or, from the flush, is read where it runs):
 * read the counters when it or the thread after it is followed (or when
 * cgroups are summed: whatever runs counts), never otherwise; give it
 * what it counted since its base. Leaves the CPU's state as the thread
 * after it (ntid, nowner) starts: a base taken when that one is followed.
 * Returns true when the thread had no slot (none free).
 *
 * The switch programs call it as a global function (step(), as
 * read_counters() and account() above); inlined there, the verifier walked
 * it once for every path of on_switch() that reached it (the owner looked
 * up or cached, a thread switched to or idle, its last switch or not): of
 * the raw_tp switch program's 5,510 instructions processed at load on the
 * Zen 4 guest of stop 50, ~4,000 were this function's (5.5 to 8 ms of a
 * session's start; global: 3,713 and 3.1 to 4.3 ms, no more run time per
 * switch measured). The flush inlines it (step_inline()): its constants
 * (no switch, the same thread before and after) leave one path. The caller
 * reads prev's CPU time (s->runtime) when the switch keeps it: a global
 * function's arguments are scalars or memory, and a tp_btf program's task
 * is neither. */
struct step_args {
	__u32 tid, tgid, owner;
	__s32 sw;
	__u32 dead;
	__u32 ntid, nowner;
	__u64 gen;
	__u64 runtime; /* prev's se.sum_exec_runtime, when sw != SW_NONE && owner && tid */
};

static __always_inline int step_inline(struct cpu_state *cs, const struct step_args *s)
{
	bool all = sum_cgroups && cgroup_levels, mine, have = false, need_next, full = false;
	__u64 now = 0, ran = 0;

	if (!cs || !s)
		return 0;
	__u32 tid = s->tid, owner = s->owner, ntid = s->ntid, nowner = s->nowner;
	bool dead = s->dead;

	need_next = nowner || all;
	mine = cs->known && cs->running == tid;
	if (!mine && cs->known && cs->valid && cs->since_ns && (owner || all || cs->owner)) {
		/* a switch the program did not see since a base was taken (for a followed
		 * thread switched in, or for any with cgroups summed), whoever switches out
		 * now: who ran since is not known */
		now = bpf_ktime_get_ns();
		__sync_fetch_and_add(&unseen_switches, 1);
		__sync_fetch_and_add(&unseen_ns, now - cs->since_ns);
	} else if (!mine && cs->known && owner && tid) {
		/* switched in unseen after a thread nobody follows (no base): what it ran
		 * since is nobody's, its counts unknown; its time, the kernel's */
		count_unseen_stint(tid);
	}
	if (owner || all || (dead && tid)) {
		have = mine && cs->valid;
		if (have || need_next) {
			now = now ? now : bpf_ktime_get_ns();
			read_counters(cs, bpf_get_smp_processor_id(), have, now);
			if (have)
				ran = now - cs->since_ns;
		}
		struct account_args a = { .ran = ran,
					  .tid = tid,
					  .tgid = s->tgid,
					  .owner = owner,
					  .sw = s->sw,
					  .dead = dead,
					  .have = have,
					  .seen = s->sw != SW_NONE && owner && tid,
					  .runtime = s->runtime };
		full = account(cs, &a);
	} else if (need_next) {
		now = now ? now : bpf_ktime_get_ns();
		read_counters(cs, bpf_get_smp_processor_id(), false, now);
	}
	if (cs->valid != need_next) {
		__u32 cpu = bpf_get_smp_processor_id();
		struct td_bpf_cpu_based *b = bpf_map_lookup_elem(&based, &cpu);
		if (b)
			b->based = need_next;
	}
	cs->valid = need_next;
	cs->since_ns = need_next ? now : 0;
	cs->running = ntid;
	cs->known = 1;
	cs->owner = nowner;
	cs->gen = s->gen;
	return full;
}

__noinline int step(struct cpu_state *cs, const struct step_args *s)
{
	return step_inline(cs, s);
}

/* A switch from thread tid of process tgid to thread ntid of ntgid; last:
 * prev's process has no live thread left (read only for its last switch). */
static __always_inline int on_switch(bool preempt, unsigned int prev_state, __u32 tid, __u32 tgid, __u32 ntid,
				     __u32 ntgid, struct task_struct *prev, bool btf)
{
	bool dead = !preempt && (prev_state & TD_TASK_DEAD);
	__u32 zero = 0;
	struct cpu_state *cs = bpf_map_lookup_elem(&cpu_states, &zero);
	__u64 gen = followed_gen; /* before any lookup of followed: a change after it moves it on */
	int live;

	if (!cs)
		return 0;
	struct step_args a = { .tid = tid,
			       .tgid = tgid,
			       .owner = owner_now(cs, tid, tgid, gen),
			       .sw = !preempt && prev_state ? SW_VOLUNTARY : SW_INVOLUNTARY,
			       .dead = dead,
			       .ntid = ntid,
			       .nowner = ntid ? owner_cached(cs, ntgid, gen) : 0,
			       .gen = gen };
	/* prev's CPU time, kept at a switch out of a followed thread (account()):
	 * btf is a constant where this is inlined: a direct load in the tp_btf
	 * program, one helper call in the raw_tp one */
	if (a.owner && tid)
		a.runtime = btf ? prev->se.sum_exec_runtime : BPF_CORE_READ(prev, se.sum_exec_runtime);
	if (!a.owner && !a.nowner && !cs->valid && !(sum_cgroups && cgroup_levels) && !(dead && tid)) {
		/* between threads nobody follows, no base taken: what step() would do
		 * then (nothing read, nothing given), without the call */
		cs->since_ns = 0;
		cs->running = ntid;
		cs->known = 1;
		cs->owner = 0;
		cs->gen = gen;
	} else if (step(cs, &a)) {
		__sync_fetch_and_add(&lost_switches, 1);
	}
	cs->switches++; /* after the reading, as the kernel's count (`switches`) */
	if (!dead)
		return 0;
	/* the process's last thread gone: its room in followed is free (its sums stay) */
	/* read by helper in both flavours (only at a thread's last switch): in a
	 * tp_btf program, loading the pointer prev->signal has the verifier look
	 * task_struct's "__safe_*" variants up by name among the kernel's types,
	 * a walk of them each (check_ptr_to_btf_access(), kernel/bpf/verifier.c:
	 * 7017-7031 in 6.12; btf_nested_type_is_trusted()): ~2.5 ms a load here */
	live = BPF_CORE_READ(prev, signal, live.counter);
	if (live == 0 && owner_of(tgid)) {
		bpf_map_delete_elem(&followed, &tgid);
		__sync_fetch_and_add(&followed_gen, 1);
	}
	return 0;
}

static __always_inline int on_fork(struct task_struct *parent, struct task_struct *child)
{
	__u32 ptgid = BPF_CORE_READ(parent, tgid), tgid = BPF_CORE_READ(child, tgid), owner;

	if (follow_children && tgid != ptgid && (owner = owner_of(ptgid))) {
		/* the bit before the entry: the child runs after this (wake_up_new_task()) */
		__sync_fetch_and_or(&followed_bits[TD_BPF_FOLLOWED_WORD(tgid)], TD_BPF_FOLLOWED_BIT(tgid));
		if (bpf_map_update_elem(&followed, &tgid, &owner, BPF_ANY) == 0)
			__sync_fetch_and_add(&followed_gen, 1);
	}
	return 0;
}

/* tp_btf: prev and next read directly (BTF pointers), no helper call */
SEC("tp_btf/sched_switch")
int BPF_PROG(switch_btf, bool preempt, struct task_struct *prev, struct task_struct *next, unsigned int prev_state)
{
	return on_switch(preempt, prev_state, prev->pid, prev->tgid, next->pid, next->tgid, prev, true);
}

SEC("tp_btf/sched_process_fork")
int BPF_PROG(fork_btf, struct task_struct *parent, struct task_struct *child)
{
	return on_fork(parent, child);
}

/* raw_tp: two helper calls where four reads would be: prev is the current
 * task (trace_sched_switch() runs before context_switch(): core.c:6749 and
 * 6752 in 6.12), its pid and tgid bpf_get_current_pid_tgid()'s; next's pid
 * and tgid in one read where tgid follows pid in task_struct (as in every
 * kernel since 2.6: the offsets are relocated, the test done at load) */
SEC("raw_tp/sched_switch")
int BPF_PROG(switch_raw, bool preempt, struct task_struct *prev, struct task_struct *next, unsigned int prev_state)
{
	__u64 me = bpf_get_current_pid_tgid();
	__u32 ids[2] = { 0, 0 };

	if (bpf_core_field_offset(next->tgid) == bpf_core_field_offset(next->pid) + sizeof(ids[0])) {
		bpf_probe_read_kernel(ids, sizeof(ids), (const char *)next + bpf_core_field_offset(next->pid));
	} else {
		ids[0] = BPF_CORE_READ(next, pid);
		ids[1] = BPF_CORE_READ(next, tgid);
	}
	return on_switch(preempt, prev_state, (__u32)me, (__u32)(me >> 32), ids[0], ids[1], prev, false);
}

SEC("raw_tp/sched_process_fork")
int BPF_PROG(fork_raw, struct task_struct *parent, struct task_struct *child)
{
	return on_fork(parent, child);
}

/* Run by user space on each CPU (BPF_F_TEST_RUN_ON_CPU) before it reads the
 * sums: the thread running there gets what it counted so far. Not attached. */
SEC("raw_tp")
int flush(void *ctx)
{
	struct task_struct *t = (struct task_struct *)bpf_get_current_task();
	__u32 zero = 0, tid = BPF_CORE_READ(t, pid), tgid = BPF_CORE_READ(t, tgid), owner;
	struct cpu_state *cs = bpf_map_lookup_elem(&cpu_states, &zero);
	__u64 gen = followed_gen;

	if (!cs)
		return 0;
	owner = owner_now(cs, tid, tgid, gen);
	struct step_args a = {
		.tid = tid, .tgid = tgid, .owner = owner, .sw = SW_NONE, .ntid = tid, .nowner = owner, .gen = gen
	};
	step_inline(cs, &a);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
