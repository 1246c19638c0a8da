/* counting_bpf: the user-space half of the BPF counting mode (counting.h).
 * An instance loads counting.bpf.c's half of the collector's BPF object
 * (bpf_object.h), with the tracker's half too when the session will track
 * by BPF (TD_BPF_WITH_TRACKER: the object then offered to its tracker) —
 * the tp_btf programs, else the raw_tp ones —
 * opens each group of the plan as one perf group per CPU into the
 * program's PERF_EVENT_ARRAY, and maps the program's array of thread
 * slots. The process's instances are shared: each collector gets a view
 * of the one loaded for its events, children rule and map size, puts its
 * followed processes in the program's map under its owner number, and at
 * each read (after running the flush program on each CPU, so that the
 * threads on a CPU at that moment are counted up to it) copies the slots
 * of its threads that changed since its last read: a thread that did not
 * run costs a comparison, not a copy or a system call. */
#include "base/tid_map.h"
#include "bpf_common.h"
#include "bpf_object.h"
#include "kernel_types.h"
#include "counting.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

/* One loaded program and its counters: what the views with the same
 * events, children rule and map size share (the sessions of one daemon).
 * Everything here runs on one thread. */
struct instance {
	struct td_bpf_object *obj; /* a count of it */
	const char *flavour;
	int ncpus; /* possible CPUs */
	int nevents;
	int ngroups;					/* the perf groups they are in, each opened on every CPU */
	struct perf_event_attr attrs[TD_BPF_COUNT_MAX]; /* as given: with leads, what and map_entries, */
	bool leads[TD_BPF_COUNT_MAX];			/* what a view must ask for to share */
	unsigned what;					/* TD_BPF_FOLLOW_CHILDREN, TD_BPF_SUM_CGROUPS */
	int *fds;					/* ncpus * nevents counters, -1 for an offline CPU */
	/* events the program counts itself, not opened (counting.bpf.c's clocks and
	 * switches; self_counted()), a bit each */
	__u64 clocks, switches;
	bool *online;			  /* CPUs whose counters opened: the flush runs there */
	int map_entries;		  /* slots */
	struct td_bpf_thread_sums *slots; /* the program's array, mapped (map_len bytes: its first slots) */
	size_t map_len;
	struct td_bpf_cpu_based *based; /* the program's array of CPUs with a base taken, mapped (based_len) */
	size_t based_len;
	struct td_bpf_counting *views; /* the views on it (linked by next) */
	__u32 last_owner;	       /* owners are never reused: a late entry of a freed view is nobody's */
	/* the batch (td_bpf_counting_batch) whose first read brought every view
	 * up to date, 0 none; the cgroups' sums it read (ncgroups of them, -1:
	 * not read, each view looks its own up) */
	uint64_t batch;
	__u64 *cgroup_ids;
	struct td_bpf_thread_sums *cgroups;
	int ncgroups;
	struct instance *next; /* the process's instances */
};

/* A collector's view: the processes it follows, marked with its owner in
 * the program's maps, and its copy of the slots as of its last read (its
 * threads' sums; of the other slots only their seq, to see that they
 * changed), with an index of its threads by tid. */
struct td_bpf_counting {
	struct instance *in;
	__u32 owner;
	bool shared;			 /* it joined an instance that had a view already */
	struct td_bpf_thread_sums *copy; /* ncopy slots */
	int ncopy;
	struct td_tid_map index;	    /* its threads' slots + 1, by tid */
	uint64_t totals[TD_BPF_COUNT_MAX];  /* its processes' counts: its slots, retired and proc_sums */
	uint64_t slotted[TD_BPF_COUNT_MAX]; /* its threads' slots in copy, summed (kept as they change) */
	uint64_t retired[TD_BPF_COUNT_MAX]; /* the final counts of its slots given back */
	uint64_t procs[TD_BPF_COUNT_MAX];   /* its processes' proc_sums as of its last read */
	uint64_t batch;			    /* the batch whose read brought it up to date (instance's batch) */
	struct td_bpf_counting *next;
};

static struct instance *instances;

/* Open, size and load one flavour (attached once the counters are in
 * place: td_bpf_counting_new), with the tracker's half of flavour
 * tracker_btf when `what` asks. NULL with why and *err (-errno). */
static struct td_bpf_object *load(bool btf, bool tracker_btf, const struct instance *in, __u32 value_only, td_err *why,
				  int *err)
{
	unsigned what = in->what;
	int nevents = in->nevents, ncpus = in->ncpus, map_entries = in->map_entries;
	unsigned halves = TD_BPF_HALF_COUNTING | (what & TD_BPF_WITH_TRACKER ? TD_BPF_HALF_TRACKER : 0);
	struct td_bpf_object *o;
	struct collect_bpf *skel;
	int rc;

	td_bpf_warning_clear();
	if (!(o = td_bpf_object_open(halves, tracker_btf, btf, why, err)))
		return NULL;
	skel = o->skel;
	skel->rodata->track_children = skel->rodata->follow_children = (what & TD_BPF_FOLLOW_CHILDREN) != 0;
	skel->rodata->sum_cgroups = (what & TD_BPF_SUM_CGROUPS) != 0;
	skel->rodata->nevents = (__u32)nevents;
	skel->rodata->ngroups = (__u32)in->ngroups;
	skel->rodata->leaders = 0;
	for (int k = 0, g = -1; k < nevents; k++) {
		g += in->leads[k];
		skel->rodata->group_of[k] = (__u8)g;
		if (in->leads[k])
			skel->rodata->leaders |= 1ull << k;
	}
	skel->rodata->value_only = value_only;
	skel->rodata->clocks = in->clocks;
	skel->rodata->switches = in->switches;
	skel->rodata->nslots = (__u32)map_entries;
	/* proc_sums not preallocated (counting.bpf.c) where the kernel allocates a map's
	 * elements from caches of its own, refilled outside the program (bpf_mem_alloc,
	 * 6.1): before, an element made at a switch was a kmalloc under the run queue's
	 * lock, which may wake kswapd (that lock again) */
	if (td_bpf_kernel_at_least(6, 1))
		bpf_map__set_map_flags(skel->maps.proc_sums,
				       bpf_map__map_flags(skel->maps.proc_sums) | BPF_F_NO_PREALLOC);
	if ((rc = bpf_map__set_max_entries(skel->maps.counters, (__u32)(ncpus * TD_BPF_COUNT_MAX))) == 0 &&
	    (rc = bpf_map__set_max_entries(skel->maps.slots, (__u32)map_entries)) == 0 &&
	    (rc = bpf_map__set_max_entries(skel->maps.slot_of, (__u32)map_entries)) == 0 &&
	    (rc = bpf_map__set_max_entries(skel->maps.free_slots, (__u32)map_entries)) == 0 &&
	    (rc = bpf_map__set_max_entries(skel->maps.based, (__u32)ncpus)) == 0 && (rc = td_bpf_object_load(o)) == 0)
		return o;
	*err = rc;
	td_bpf_step_failed(why, btf, "load", rc);
	td_bpf_object_put(o);
	return NULL;
}

/* The groups the program reads without their times (a bit each): those
 * made of software events only, which the kernel never multiplexes
 * (a software PMU's event always goes on: perf_swevent_add(),
 * task_clock_event_add() never fail, kernel/events/core.c), so that their
 * enabled and running times are the time between two readings, which the
 * program takes from its own clock. Reading a counter's times costs two
 * clock reads in the kernel (perf_event_read_local(): calc_timer_values()). */
static __u32 value_only_groups(const struct instance *b)
{
	__u32 mask = 0;

	for (int k = 0, g = 0; k < b->nevents; g++) {
		bool soft = b->attrs[k].type == PERF_TYPE_SOFTWARE;
		for (k++; k < b->nevents && !b->leads[k]; k++) /* k moves on whatever soft is */
			soft = soft && b->attrs[k].type == PERF_TYPE_SOFTWARE;
		if (soft)
			mask |= 1u << g;
	}
	return mask;
}

/* The events of the groups read by value alone (value_only) that the
 * program counts itself (counting.bpf.c): a CPU's clock (TASK_CLOCK, opened
 * per CPU as CPU_CLOCK: per_cpu_attr(), or CPU_CLOCK) is the time between two
 * readings there, and a CPU's CONTEXT_SWITCHES the switches there, which the
 * program sees all of: a counter less to open on each CPU and to read at
 * each switch. The kernel counts a CPU's CONTEXT_SWITCHES on every switch
 * for as long as one is open (perf_sw_event(), behind a static key while
 * none is: include/linux/perf_event.h:1549-1550 in 6.12). */
static void self_counted(struct instance *b, __u32 value_only)
{
	b->clocks = b->switches = 0;
	for (int k = 0, g = -1; k < b->nevents; k++) {
		const struct perf_event_attr *a = &b->attrs[k];
		g += b->leads[k];
		if (!(value_only & (1u << g)) || a->type != PERF_TYPE_SOFTWARE)
			continue;
		if (a->config == PERF_COUNT_SW_TASK_CLOCK || a->config == PERF_COUNT_SW_CPU_CLOCK)
			b->clocks |= 1ull << k;
		else if (a->config == PERF_COUNT_SW_CONTEXT_SWITCHES)
			b->switches |= 1ull << k;
	}
	/* one counter a CPU opened at the least: its open tells an offline CPU (ENODEV) */
	if (b->nevents > 0 && (b->clocks | b->switches) == (b->nevents < 64 ? 1ull << b->nevents : 0) - 1) {
		b->clocks &= ~1ull;
		b->switches &= ~1ull;
	}
}

/* Both flavours, the tracker's half (when asked) in the flavour its
 * tracker would try first; when neither loads with it, without it (the
 * tracker then loads its own). */
static int load_either(struct instance *b, td_err *why)
{
	td_err why_btf = { "" }, why_raw = { "" }, ignored;
	int err_btf = 0, err_raw = 0;
	__u32 value_only = getenv("TD_COUNTING_BPF_TIMES") ? 0 : value_only_groups(b);
	/* TD_COUNTING_BPF_READ=all: every event read, none counted by the program (tests) */
	const char *read = getenv("TD_COUNTING_BPF_READ");

	self_counted(b, read && !strcmp(read, "all") ? 0 : value_only);
	/* TD_COUNTING_BPF_TYPE=raw_tp, TD_TRACKER_BPF_TYPE=raw_tp: the second choice
	 * only (tests run it where tp_btf loads) */
	bool btf = !td_bpf_raw_tp_only("TD_COUNTING_BPF_TYPE", &why_btf);
	bool tracker_btf = !td_bpf_raw_tp_only("TD_TRACKER_BPF_TYPE", &ignored);

	td_bpf_quiet();
	for (int with = (b->what & TD_BPF_WITH_TRACKER) != 0; with >= 0; with--) {
		if (!with)
			b->what &= ~TD_BPF_WITH_TRACKER;
		/* this boot's kernel types file taken (kernel_types.h): both halves raw_tp
		 * first, relocated against it, the kernel's BTF never parsed */
		if (td_kernel_types_path()) {
			b->flavour = "raw_tp";
			b->obj = load(false, false, b, value_only, &why_raw, &err_raw);
			if (b->obj)
				return 0;
		}
		b->flavour = "tp_btf";
		if (btf)
			b->obj = load(true, tracker_btf && with, b, value_only, &why_btf, &err_btf);
		if (!b->obj) {
			b->flavour = "raw_tp";
			/* the tracker's tp_btf still first where only the counting's was not tried */
			b->obj = load(false, tracker_btf && with && !btf, b, value_only, &why_raw, &err_raw);
		}
		if (b->obj)
			return 0;
	}
	td_bpf_neither(why, err_btf, &why_btf, err_raw, &why_raw);
	return -1;
}

/* The attribute a per-CPU counter of event a is opened with. A per-CPU
 * TASK_CLOCK is the CPU's clock: CPU_CLOCK says so (between a thread's
 * switch in and out, either is the thread's CPU time). */
static struct perf_event_attr per_cpu_attr(const struct perf_event_attr *a)
{
	struct perf_event_attr c = *a;

	c.size = sizeof(c);
	if (c.type == PERF_TYPE_SOFTWARE && c.config == PERF_COUNT_SW_TASK_CLOCK)
		c.config = PERF_COUNT_SW_CPU_CLOCK;
	c.disabled = 0;
	c.inherit = 0;
	c.enable_on_exec = 0;
	c.read_format = 0;
	c.sample_period = 0;
	return c;
}

static int open_counters(struct instance *b, const struct perf_event_attr *attrs, const bool *leads, td_err *why)
{
	int map = bpf_map__fd(b->obj->skel->maps.counters), opened = 0;
	__u64 mine = b->clocks | b->switches;

	for (int cpu = 0; cpu < b->ncpus; cpu++) {
		int leader = -1;
		bool first = true; /* no counter of the CPU opened yet (the offline test) */
		for (int k = 0; k < b->nevents; k++) {
			if (leads[k])
				leader = -1;
			if (mine & (1ull << k))
				continue; /* counted by the program: its group's next leads */
			struct perf_event_attr a = per_cpu_attr(&attrs[k]);
			/* a member joining a group that counts already would never be scheduled in
			 * (the CPU's context is not rescheduled): leaders start disabled, and are
			 * enabled, whole, once their members are in */
			a.disabled = leader < 0;
			__u32 slot = (__u32)(cpu * TD_BPF_COUNT_MAX + k);
			int fd = (int)syscall(SYS_perf_event_open, &a, -1, cpu, leader, PERF_FLAG_FD_CLOEXEC);
			if (fd < 0 && errno == ENODEV && first)
				break; /* an offline CPU */
			if (fd < 0) {
				td_err_set(why, "cannot open event %d on CPU %d: %s", k, cpu, strerror(errno));
				return -1;
			}
			first = false;
			if (leader < 0)
				leader = fd;
			b->fds[cpu * b->nevents + k] = fd;
			if (bpf_map_update_elem(map, &slot, &fd, BPF_ANY)) {
				td_err_set(why, "cannot put a counter in the BPF array: %s", strerror(errno));
				return -1;
			}
		}
		b->online[cpu] = !first;
		/* each group's leader: its first counter opened */
		for (int k = 0, lead = 1; b->online[cpu] && k < b->nevents; k++) {
			int fd = b->fds[cpu * b->nevents + k];
			lead |= leads[k];
			if (fd < 0)
				continue;
			if (lead && ioctl(fd, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP)) {
				td_err_set(why, "cannot enable event %d on CPU %d: %s", k, cpu, strerror(errno));
				return -1;
			}
			lead = 0;
		}
		opened += b->online[cpu];
	}
	if (!opened) {
		td_err_set(why, "no CPU's counters opened");
		return -1;
	}
	return 0;
}

static void instance_free(struct instance *in)
{
	if (!in)
		return;
	if (in->obj) {
		td_bpf_object_detach(in->obj, TD_BPF_HALF_COUNTING);
		td_bpf_object_put(in->obj);
	}
	for (int i = 0; in->fds && i < in->ncpus * in->nevents; i++)
		if (in->fds[i] >= 0)
			close(in->fds[i]);
	free(in->fds);
	free(in->online);
	free(in->cgroup_ids);
	free(in->cgroups);
	if (in->slots)
		munmap(in->slots, in->map_len);
	if (in->based)
		munmap(in->based, in->based_len);
	free(in);
}

/* Map the program's array of thread slots [0, n) at least (read in place),
 * growing the mapping as slots are handed out: the kernel maps an array's
 * pages when it is mapped (kernel/bpf/arraymap.c's array_map_mmap,
 * remap_vmalloc_range), so all map_entries slots mapped at once were
 * resident in tdctl (7.4 MiB at 8,192 slots of 64 events) whatever the
 * threads followed. Its length may be any whole number of pages up to the
 * array's. 0, or -errno. */
static int map_slots_to(struct instance *b, int n)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t all = ((size_t)b->map_entries * sizeof(struct td_bpf_thread_sums) + page - 1) / page * page;
	size_t want = ((size_t)n * sizeof(struct td_bpf_thread_sums) + page - 1) / page * page;
	void *m;

	if (want <= b->map_len && b->slots)
		return 0;
	if (want < 2 * b->map_len)
		want = 2 * b->map_len; /* doubling: few remaps as threads come */
	if (want < page)
		want = page;
	if (want > all)
		want = all;
	m = mmap(NULL, want, PROT_READ | PROT_WRITE, MAP_SHARED, bpf_map__fd(b->obj->skel->maps.slots), 0);
	if (m == MAP_FAILED)
		return -errno;
	if (b->slots)
		munmap(b->slots, b->map_len);
	b->slots = m;
	b->map_len = want;
	return 0;
}

static int map_slots(struct instance *b, td_err *why)
{
	int rc = map_slots_to(b, 1);

	if (rc < 0)
		td_err_set(why, "cannot map the BPF array of %d thread slots: %s", b->map_entries, strerror(-rc));
	return rc < 0 ? -1 : 0;
}

/* Map the program's array of CPUs with a base taken (read before each
 * flush); without it every CPU is flushed. */
static void map_based(struct instance *b)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t len = ((size_t)b->ncpus * sizeof(struct td_bpf_cpu_based) + page - 1) / page * page;
	void *m = mmap(NULL, len, PROT_READ, MAP_SHARED, bpf_map__fd(b->obj->skel->maps.based), 0);

	if (m != MAP_FAILED) {
		b->based = m;
		b->based_len = len;
	}
}

/* Load the program and open the counters. NULL with why. */
static struct instance *instance_new(const struct perf_event_attr *attrs, const bool *leads, int n, unsigned what,
				     int map_entries, int ncpus, td_err *why)
{
	struct instance *b = calloc(1, sizeof(*b));
	int rc;

	if (!b) {
		td_err_set(why, "out of memory");
		return NULL;
	}
	b->ncpus = ncpus;
	b->nevents = n;
	memcpy(b->attrs, attrs, (size_t)n * sizeof(*attrs));
	memcpy(b->leads, leads, (size_t)n * sizeof(*leads));
	for (int k = 0; k < n; k++)
		b->ngroups += leads[k];
	b->what = what;
	b->map_entries = map_entries;
	b->fds = malloc((size_t)(ncpus * n) * sizeof(*b->fds));
	b->online = calloc((size_t)ncpus, sizeof(*b->online));
	if (!b->fds || !b->online) {
		td_err_set(why, "out of memory");
		instance_free(b);
		return NULL;
	}
	for (int i = 0; i < ncpus * n; i++)
		b->fds[i] = -1;
	if (load_either(b, why) || map_slots(b, why) || open_counters(b, attrs, leads, why)) {
		instance_free(b);
		return NULL;
	}
	map_based(b);
	/* attached last: a switch before every counter is in the array would fail its reads */
	if ((rc = td_bpf_object_attach(b->obj, TD_BPF_HALF_COUNTING))) {
		td_err_set(why, "%s programs did not attach: %s", b->flavour, strerror(-rc));
		instance_free(b);
		return NULL;
	}
	if (b->what & TD_BPF_WITH_TRACKER)
		td_bpf_object_offer_tracker(b->obj);
	return b;
}

/* The process's instance a view of these may share, NULL none. */
static struct instance *instance_like(const struct perf_event_attr *attrs, const bool *leads, int n, unsigned what,
				      int map_entries)
{
	for (struct instance *in = instances; in; in = in->next)
		if (in->nevents == n && (in->what | TD_BPF_WITH_TRACKER) == (what | TD_BPF_WITH_TRACKER) &&
		    in->map_entries == map_entries && !memcmp(in->attrs, attrs, (size_t)n * sizeof(*attrs)) &&
		    !memcmp(in->leads, leads, (size_t)n * sizeof(*leads)))
			return in;
	return NULL;
}

/* A slot of b's copy in or out of b's slotted sums: a thread of b's counts there. */
static void slotted_add(struct td_bpf_counting *b, const struct td_bpf_thread_sums *c, bool in)
{
	if (!c->tid || c->owner != b->owner)
		return;
	for (int k = 0; k < b->in->nevents; k++)
		b->slotted[k] = in ? b->slotted[k] + c->value[k] : b->slotted[k] - c->value[k];
}

/* b's view on in, the first or the next (b->in NULL before). */
static void view_attach(struct td_bpf_counting *b, struct instance *in)
{
	b->in = in;
	b->owner = ++in->last_owner;
	/* its slots of an instance before (unshared), as sum_totals takes them: those of its new owner's number */
	memset(b->slotted, 0, sizeof(b->slotted));
	for (int i = 0; i < b->ncopy; i++)
		slotted_add(b, &b->copy[i], true);
	b->shared = in->views != NULL;
	b->next = in->views;
	in->views = b;
}

/* Run the flush program on each CPU whose counters are open. It runs in
 * an interrupt there: a program running on that CPU has ended first. For
 * an interval's read (all false) only on the CPUs where a base is taken
 * (the program's `based`): elsewhere it would find nothing followed running. A base taken just after its flag was
 * read here is read at that thread's switch out, in a later interval, as
 * any switch in after the flush. Following or leaving a process flushes
 * every CPU (all): a thread of it may run where no base was taken. */
static void flush_cpus(struct instance *b, bool all)
{
	int prog = bpf_program__fd(b->obj->skel->progs.flush);

	for (int cpu = 0; cpu < b->ncpus; cpu++) {
		LIBBPF_OPTS(bpf_test_run_opts, opts, .cpu = (__u32)cpu, .flags = BPF_F_TEST_RUN_ON_CPU);
		if (!b->online[cpu])
			continue; /* a CPU gone offline: its threads switch elsewhere */
		if (!all && b->based && !__atomic_load_n(&b->based[cpu].based, __ATOMIC_ACQUIRE))
			continue;
		bpf_prog_test_run_opts(prog, &opts);
	}
}

static void load_words(__u64 *to, const __u64 *from, size_t n)
{
	for (size_t w = 0; w < n; w++)
		to[w] = __atomic_load_n(&from[w], __ATOMIC_RELAXED);
}

/* A copy of slot s's parts in use (counting_event.h's seqlock), false when
 * its writer kept it (a program writes a slot in a microsecond: never seen). */
static bool snapshot(const struct instance *in, const struct td_bpf_thread_sums *s, struct td_bpf_thread_sums *out)
{
	const size_t head = offsetof(struct td_bpf_thread_sums, value) / sizeof(__u64);

	_Static_assert(offsetof(struct td_bpf_thread_sums, value) % sizeof(__u64) == 0, "whole words");
	for (int tries = 0; tries < 100000; tries++) {
		uint64_t seq = __atomic_load_n(&s->seq, __ATOMIC_ACQUIRE);
		if (seq & 1)
			continue;
		/* the parts in use: the header, the instance's events and groups, and
		 * the runtime (a slot is ~1 KB, the few events of a plan a tenth of it) */
		load_words((__u64 *)out, (const __u64 *)s, head);
		load_words(out->value, s->value, (size_t)in->nevents);
		load_words(out->enabled, s->enabled, (size_t)in->ngroups);
		load_words(out->running, s->running, (size_t)in->ngroups);
		out->runtime_seen = __atomic_load_n(&s->runtime_seen, __ATOMIC_RELAXED);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (__atomic_load_n(&s->seq, __ATOMIC_RELAXED) == seq) {
			out->seq = seq;
			return true;
		}
	}
	return false;
}

/* The parts of a slot in use (snapshot's) from one copy to another. */
static void copy_used(const struct instance *in, struct td_bpf_thread_sums *to, const struct td_bpf_thread_sums *from)
{
	memcpy(to, from, offsetof(struct td_bpf_thread_sums, value));
	memcpy(to->value, from->value, (size_t)in->nevents * sizeof(*to->value));
	memcpy(to->enabled, from->enabled, (size_t)in->ngroups * sizeof(*to->enabled));
	memcpy(to->running, from->running, (size_t)in->ngroups * sizeof(*to->running));
	to->runtime_seen = from->runtime_seen;
}

/* Give slot i (its thread tid gone, or its view) back to the program:
 * out of slot_of, emptied, its seq moved on, in free_slots. Nothing
 * writes it meanwhile: its thread has switched out a last time, or
 * nothing follows it any more. */
static void slot_give_back(struct instance *in, __u32 i, __u32 tid)
{
	struct td_bpf_thread_sums *s = &in->slots[i];
	uint64_t seq = __atomic_load_n(&s->seq, __ATOMIC_ACQUIRE);
	__u32 at;

	if (bpf_map_lookup_elem(bpf_map__fd(in->obj->skel->maps.slot_of), &tid, &at) == 0 && at == i)
		bpf_map_delete_elem(bpf_map__fd(in->obj->skel->maps.slot_of), &tid);
	memset((char *)s + offsetof(struct td_bpf_thread_sums, oncpu_ns), 0,
	       sizeof(*s) - offsetof(struct td_bpf_thread_sums, oncpu_ns));
	s->pid = s->flags = s->owner = s->tid = 0;
	__atomic_store_n(&s->seq, (seq | 1) + 1, __ATOMIC_RELEASE);
	bpf_map_update_elem(bpf_map__fd(in->obj->skel->maps.free_slots), NULL, &i, BPF_ANY);
}

/* The slots handed out so far: the most in use at once. */
static int slots_used(const struct instance *in)
{
	__u32 n = __atomic_load_n(&in->obj->skel->bss->next_slot, __ATOMIC_ACQUIRE);

	return n < (__u32)in->map_entries ? (int)n : in->map_entries;
}

/* Process key's sums (proc_sums holds one copy per possible CPU, which
 * the program adds to without atomics): their sum, named by the owner any
 * copy names. 0, or -errno (-ENOENT: no such process). */
static int proc_sums_get(const struct instance *in, __u32 key, struct td_bpf_thread_sums *out)
{
	struct td_bpf_thread_sums *per = calloc((size_t)in->ncpus, sizeof(*per));
	int rc = 0;

	if (!per)
		return -ENOMEM;
	memset(out, 0, sizeof(*out));
	if (bpf_map_lookup_elem(bpf_map__fd(in->obj->skel->maps.proc_sums), &key, per)) {
		rc = -errno;
	} else {
		for (int c = 0; c < in->ncpus; c++) {
			if (per[c].owner)
				out->owner = per[c].owner;
			if (per[c].pid)
				out->pid = per[c].pid;
			out->oncpu_ns += per[c].oncpu_ns;
			for (int k = 0; k < in->nevents; k++)
				out->value[k] += per[c].value[k];
			for (int g = 0; g < in->ngroups; g++) {
				out->enabled[g] += per[c].enabled[g];
				out->running[g] += per[c].running[g];
			}
		}
	}
	free(per);
	return rc;
}

/* `followed` changed: the program looks its owners up again. */
static void followed_changed(struct instance *in)
{
	__atomic_add_fetch(&in->obj->skel->bss->followed_gen, 1, __ATOMIC_RELEASE);
}

/* Take b off its instance, and everything of its owner off the maps; the
 * instance goes with its last view. */
static void view_detach(struct td_bpf_counting *b)
{
	struct instance *in = b->in;
	struct td_bpf_counting **p;

	if (!in)
		return;
	for (p = &in->views; *p && *p != b; p = &(*p)->next)
		;
	if (*p)
		*p = b->next;
	b->in = NULL;
	if (in->views) {
		/* the others go on: this view's processes stop being followed, and its sums go */
		int maps[2] = { bpf_map__fd(in->obj->skel->maps.followed), bpf_map__fd(in->obj->skel->maps.proc_sums) };
		for (int m = 0; m < 2; m++) {
			__u32 key, next;
			bool first = true;
			/* deleting the key just read: the walk goes on from the key before it */
			while (bpf_map_get_next_key(maps[m], first ? NULL : &key, &next) == 0) {
				struct td_bpf_thread_sums v;
				__u32 owner = 0;
				int got = m == 0 ? bpf_map_lookup_elem(maps[m], &next, &owner)
						 : proc_sums_get(in, next, &v);
				if (m > 0)
					owner = v.owner;
				if (got == 0 && owner == b->owner && bpf_map_delete_elem(maps[m], &next) == 0)
					continue; /* the same key again: first stays as it was */
				first = false;
				key = next;
			}
			if (m == 0) {
				followed_changed(in);
				flush_cpus(in, true); /* a program that found one of them followed has ended */
			}
		}
		/* the slots beyond the mapping (when it cannot grow) were never read by this view */
		int used = slots_used(in);
		if (map_slots_to(in, used) < 0)
			used = (int)(in->map_len / sizeof(struct td_bpf_thread_sums));
		for (int i = 0, n = used; i < n; i++) {
			struct td_bpf_thread_sums v;
			if (snapshot(in, &in->slots[i], &v) && v.tid && v.owner == b->owner)
				slot_give_back(in, (__u32)i, v.tid);
		}
		/* its cgroups (their level bits stay: a lookup more at a switch, no more) */
		int cg = bpf_map__fd(in->obj->skel->maps.cgroup_sums);
		__u64 key, next;
		bool first = true;
		while (bpf_map_get_next_key(cg, first ? NULL : &key, &next) == 0) {
			struct td_bpf_thread_sums v;
			if (bpf_map_lookup_elem(cg, &next, &v) == 0 && v.owner == b->owner &&
			    bpf_map_delete_elem(cg, &next) == 0)
				continue;
			first = false;
			key = next;
		}
		flush_cpus(in, true); /* a program adding to one of them has ended before its entry is reused */
		return;
	}
	for (struct instance **q = &instances; *q; q = &(*q)->next)
		if (*q == in) {
			*q = in->next;
			break;
		}
	instance_free(in);
}

struct td_bpf_counting *td_bpf_counting_new(const struct perf_event_attr *attrs, const bool *leads, int n,
					    unsigned what, int map_entries, td_err *err)
{
	struct td_bpf_counting *b;
	struct instance *in;
	int ncpus = libbpf_num_possible_cpus();

	if (td_bpf_no_btf(err))
		return NULL;
	if (n < 1 || n > TD_BPF_COUNT_MAX) {
		td_err_set(err, "%d events: the BPF counting mode holds 1 to %d", n, TD_BPF_COUNT_MAX);
		return NULL;
	}
	if (!leads[0]) {
		td_err_set(err, "the first event leads no group");
		return NULL;
	}
	int groups = 0;
	for (int k = 0; k < n; k++)
		groups += leads[k];
	if (groups > TD_BPF_GROUP_MAX) {
		td_err_set(err, "%d groups: the BPF counting mode holds 1 to %d", groups, TD_BPF_GROUP_MAX);
		return NULL;
	}
	if (map_entries < 1 || map_entries > TD_BPF_MAP_ENTRIES_MAX) {
		td_err_set(err, "a BPF map of %d threads: give 1 to %d", map_entries, TD_BPF_MAP_ENTRIES_MAX);
		return NULL;
	}
	if (ncpus < 1) {
		td_err_set(err, "cannot count the possible CPUs: %s", strerror(-ncpus));
		return NULL;
	}
	if (!(b = calloc(1, sizeof(*b)))) {
		td_err_set(err, "out of memory");
		return NULL;
	}
	if (!(in = instance_like(attrs, leads, n, what, map_entries))) {
		if (!(in = instance_new(attrs, leads, n, what, map_entries, ncpus, err))) {
			free(b);
			return NULL;
		}
		in->next = instances;
		instances = in;
	}
	view_attach(b, in);
	return b;
}

void td_bpf_counting_free(struct td_bpf_counting *b)
{
	if (!b)
		return;
	view_detach(b);
	free(b->copy);
	td_tid_map_free(&b->index);
	free(b);
}

const char *td_bpf_counting_flavour(const struct td_bpf_counting *b)
{
	return b->in->flavour;
}

bool td_bpf_counting_own_types(const struct td_bpf_counting *b)
{
	return b->in->obj->own_types;
}

int td_bpf_counting_self_counted(const struct td_bpf_counting *b)
{
	return __builtin_popcountll(b->in->clocks | b->in->switches);
}

int td_bpf_counting_sharers(const struct td_bpf_counting *b)
{
	int n = 0;

	for (const struct td_bpf_counting *v = b->in->views; v; v = v->next)
		n += v != b;
	return n;
}

bool td_bpf_counting_joined(const struct td_bpf_counting *b)
{
	return b->shared;
}

int td_bpf_counting_follow(struct td_bpf_counting *b, pid_t pid)
{
	int fd = bpf_map__fd(b->in->obj->skel->maps.followed);
	__u32 key = (__u32)pid, owner = 0;

	if (bpf_map_lookup_elem(fd, &key, &owner) == 0)
		return owner == b->owner ? 0 : -EEXIST; /* followed already (a thread of it listed before), or another
							 * view's: its sums are that view's */
	/* its bit in the program's filter first (never cleared: counting.bpf.c) */
	__atomic_or_fetch(&b->in->obj->skel->bss->followed_bits[TD_BPF_FOLLOWED_WORD(key)], TD_BPF_FOLLOWED_BIT(key),
			  __ATOMIC_RELEASE);
	if (bpf_map_update_elem(fd, &key, &b->owner, BPF_ANY))
		return -errno;
	followed_changed(b->in);
	/* a thread of it on a CPU now is counted from here: the flush takes its base
	 * (the program takes one at a switch in, and this one's was before) */
	flush_cpus(b->in, true);
	return 0;
}

int td_bpf_counting_follow_cgroup(struct td_bpf_counting *b, uint64_t id, int level)
{
	int fd = bpf_map__fd(b->in->obj->skel->maps.cgroup_sums);
	struct td_bpf_thread_sums v = { .owner = b->owner };
	__u64 key = id;

	if (!(b->in->what & TD_BPF_SUM_CGROUPS))
		return -EOPNOTSUPP;
	if (level < 0 || level >= TD_BPF_CGROUP_LEVELS)
		return -E2BIG;
	if (bpf_map_lookup_elem(fd, &key, &v) == 0)
		return v.owner == b->owner ? 0 : -EEXIST;
	if (bpf_map_update_elem(fd, &key, &v, BPF_NOEXIST))
		return errno == E2BIG ? -E2BIG : -errno;
	__atomic_or_fetch(&b->in->obj->skel->bss->cgroup_levels, 1u << level, __ATOMIC_RELEASE);
	return 0;
}

int td_bpf_counting_cgroup(const struct td_bpf_counting *b, uint64_t id, struct td_bpf_thread_sums *out)
{
	const struct instance *in = b->in;
	uint64_t batch = td_bpf_counting_batch();
	__u64 key = id;

	if (batch && b->batch == batch && in->batch == batch && in->ncgroups >= 0) {
		for (int i = 0; i < in->ncgroups; i++)
			if (in->cgroup_ids[i] == key) {
				*out = in->cgroups[i];
				return out->owner == b->owner ? 0 : -ENOENT;
			}
		return -ENOENT;
	}
	if (bpf_map_lookup_elem(bpf_map__fd(b->in->obj->skel->maps.cgroup_sums), &key, out))
		return -errno;
	return out->owner == b->owner ? 0 : -ENOENT;
}

int td_bpf_counting_unshare(struct td_bpf_counting *b, td_err *err)
{
	struct instance *was = b->in, *in;

	if (!b->shared && td_bpf_counting_sharers(b) == 0)
		return 0;
	if (!(in = instance_new(was->attrs, was->leads, was->nevents, was->what, was->map_entries, was->ncpus, err)))
		return -1;
	view_detach(b);
	in->next = instances;
	instances = in;
	view_attach(b, in);
	return 0;
}

/* The view of in whose owner is `owner`, NULL none. */
static struct td_bpf_counting *view_of(const struct instance *in, __u32 owner)
{
	for (struct td_bpf_counting *v = in->views; v; v = v->next)
		if (v->owner == owner)
			return v;
	return NULL;
}

/* Sum what the program put in proc_sums (threads that had no slot; a few
 * processes: one lookup each) into the procs of the view owning each
 * process: only's, or every view's of in (only NULL). */
static int walk_procs(struct instance *in, struct td_bpf_counting *only)
{
	int fd = bpf_map__fd(in->obj->skel->maps.proc_sums);
	__u32 key, next;
	struct td_bpf_thread_sums v;
	bool first = true;

	for (struct td_bpf_counting *w = in->views; w; w = w->next)
		if (!only || w == only)
			memset(w->procs, 0, sizeof(w->procs));
	/* no entry made yet: nothing to walk (one made after this load is read next time:
	 * the sums only grow, and the next read's totals hold it) */
	if (!__atomic_load_n(&in->obj->skel->bss->proc_sums_made, __ATOMIC_ACQUIRE))
		return 0;
	while (bpf_map_get_next_key(fd, first ? NULL : &key, &next) == 0) {
		first = false;
		key = next;
		int rc = proc_sums_get(in, key, &v);
		if (rc == -ENOMEM)
			return rc;
		struct td_bpf_counting *w = rc ? NULL : view_of(in, v.owner);
		if (!w || (only && w != only))
			continue; /* deleted meanwhile (another view's, going), or another view's */
		for (int k = 0; k < in->nevents; k++)
			w->procs[k] += v.value[k];
	}
	return errno == ENOENT ? 0 : -errno;
}

/* Room for slots [0, n) in the view's copy (the new ones empty). */
static int copy_reserve(struct td_bpf_counting *b, int n)
{
	struct td_bpf_thread_sums *c;

	if (n <= b->ncopy)
		return 0;
	if (!(c = realloc(b->copy, (size_t)n * sizeof(*c))))
		return -ENOMEM;
	memset(c + b->ncopy, 0, (size_t)(n - b->ncopy) * sizeof(*c));
	b->copy = c;
	b->ncopy = n;
	return 0;
}

/* Slot i's copy v (just snapshot) into b's copy: indexed when it is one of
 * b's threads', else only its seq kept (to see that it changed). */
static int take_slot(struct td_bpf_counting *b, int i, const struct td_bpf_thread_sums *v)
{
	struct td_bpf_thread_sums *mine = &b->copy[i];
	bool ours = v->tid && v->owner == b->owner;
	int rc;

	if (mine->tid && (!ours || mine->tid != v->tid))
		td_tid_map_del(&b->index, mine->tid);
	if (ours && mine->tid != v->tid && (rc = td_tid_map_put(&b->index, v->tid, (uintptr_t)i + 1)) < 0)
		return rc;
	slotted_add(b, mine, false);
	if (ours) {
		copy_used(b->in, mine, v);
		slotted_add(b, mine, true);
	} else if (mine->tid)
		*mine = (struct td_bpf_thread_sums){ .seq = v->seq };
	else
		mine->seq = v->seq; /* another view's: nothing but its seq was kept (a batch's pass meets every view) */
	return 0;
}

/* b's totals: its processes' counts as of its last read (the totals hold
 * the threads' counts as read: never less than their part of it, the
 * per-process sums read first). */
static void sum_totals(struct td_bpf_counting *b)
{
	for (int k = 0; k < b->in->nevents; k++)
		b->totals[k] = b->retired[k] + b->procs[k] + b->slotted[k];
}

/* The cgroups' sums, for the batch: all of them in one call (a hash map's
 * batch lookup, kernel 5.6); ncgroups -1 where that fails (each view then
 * looks its own up). */
static void read_cgroups(struct instance *in)
{
	int fd = bpf_map__fd(in->obj->skel->maps.cgroup_sums);
	__u32 count = TD_BPF_COUNT_CGROUPS, out = 0;
	int rc;

	in->ncgroups = -1;
	if (!(in->what & TD_BPF_SUM_CGROUPS))
		return;
	if (!in->cgroups && (!(in->cgroup_ids = calloc(TD_BPF_COUNT_CGROUPS, sizeof(*in->cgroup_ids))) ||
			     !(in->cgroups = calloc(TD_BPF_COUNT_CGROUPS, sizeof(*in->cgroups))))) {
		free(in->cgroup_ids);
		in->cgroup_ids = NULL;
		return;
	}
	/* room for every entry the map holds: one call reads them all, and says it reached the end */
	rc = bpf_map_lookup_batch(fd, NULL, &out, in->cgroup_ids, in->cgroups, &count, NULL);
	if (rc == 0 || (rc < 0 && errno == ENOENT))
		in->ncgroups = (int)count;
	if (rc == 0 && count == TD_BPF_COUNT_CGROUPS) {
		/* full, the end not said yet: nothing more (the map holds no more) */
		__u32 more = 1;
		__u64 k;
		struct td_bpf_thread_sums v;
		if (bpf_map_lookup_batch(fd, &out, &out, &k, &v, &more, NULL) == 0 && more)
			in->ncgroups = -1;
	}
}

/* The batch's read of in: every view of it brought up to now at once. */
static int read_all(struct instance *in, uint64_t batch)
{
	int n, rc;

	td_bpf_counting_note_read();
	flush_cpus(in, false);
	if ((rc = walk_procs(in, NULL)) < 0)
		return rc;
	n = slots_used(in);
	if ((rc = map_slots_to(in, n)) < 0)
		return rc;
	for (struct td_bpf_counting *w = in->views; w; w = w->next)
		if ((rc = copy_reserve(w, n)) < 0)
			return rc;
	for (int i = 0; i < n; i++) {
		const struct td_bpf_thread_sums *s = &in->slots[i];
		uint64_t seq = __atomic_load_n(&s->seq, __ATOMIC_ACQUIRE);
		struct td_bpf_thread_sums v;
		bool have = false;
		for (struct td_bpf_counting *w = in->views; w; w = w->next) {
			if (w->copy[i].seq == seq)
				continue; /* nothing new for this view */
			if (!have && !(have = snapshot(in, s, &v)))
				break; /* a writer in it: the next read */
			if ((rc = take_slot(w, i, &v)) < 0)
				return rc;
		}
	}
	read_cgroups(in);
	for (struct td_bpf_counting *w = in->views; w; w = w->next)
		w->batch = batch;
	in->batch = batch;
	return 0;
}

int td_bpf_counting_read(struct td_bpf_counting *b)
{
	struct instance *in = b->in;
	uint64_t batch = td_bpf_counting_batch();
	int n, rc;

	if (batch && in->batch != batch && (rc = read_all(in, batch)) < 0) {
		in->batch = 0;
		return rc;
	}
	if (batch && b->batch == batch) {
		sum_totals(b);
		return (int)b->index.n;
	}
	/* a read of its own (no batch; a view made after the batch's read) */
	b->batch = 0;
	td_bpf_counting_note_read();
	flush_cpus(in, false);
	if ((rc = walk_procs(in, b)) < 0)
		return rc;
	n = slots_used(in);
	if ((rc = map_slots_to(in, n)) < 0 || (rc = copy_reserve(b, n)) < 0)
		return rc;
	for (int i = 0; i < n; i++) {
		const struct td_bpf_thread_sums *s = &in->slots[i];
		struct td_bpf_thread_sums v;
		if (__atomic_load_n(&s->seq, __ATOMIC_ACQUIRE) == b->copy[i].seq || !snapshot(in, s, &v))
			continue; /* nothing new (or a writer in it: the next read) */
		if ((rc = take_slot(b, i, &v)) < 0)
			return rc;
	}
	sum_totals(b);
	return (int)b->index.n;
}

const uint64_t *td_bpf_counting_totals(const struct td_bpf_counting *b)
{
	return b->totals;
}

const struct td_bpf_thread_sums *td_bpf_counting_find(const struct td_bpf_counting *b, pid_t tid)
{
	uintptr_t at = tid > 0 ? td_tid_map_get(&b->index, (__u32)tid) : 0;

	return at ? &b->copy[at - 1] : NULL;
}

int td_bpf_counting_drop_exited(struct td_bpf_counting *b, bool (*keep)(void *ctx, pid_t tid), void *ctx)
{
	int dropped = 0;

	for (int i = 0; i < b->ncopy; i++) {
		struct td_bpf_thread_sums *mine = &b->copy[i];
		__u32 tid = mine->tid;
		if (!tid || !(mine->flags & TD_BPF_SUMS_EXITED) || keep(ctx, (pid_t)tid))
			continue;
		/* final since its exit (counting.bpf.c), and read: the totals keep it */
		for (int k = 0; k < b->in->nevents; k++)
			b->retired[k] += mine->value[k];
		slotted_add(b, mine, false);
		slot_give_back(b->in, (__u32)i, tid);
		td_tid_map_del(&b->index, tid);
		memset(mine, 0, sizeof(*mine));
		mine->seq = __atomic_load_n(&b->in->slots[i].seq, __ATOMIC_ACQUIRE);
		dropped++;
	}
	return dropped;
}

/* The map's memory as the kernel accounts it (fdinfo's memlock), 0 unknown. */
static uint64_t map_memlock(int fd)
{
	char path[64], line[128];
	uint64_t bytes = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	if (!(f = fopen(path, "r")))
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "memlock: %" SCNu64, &bytes) == 1)
			break;
	fclose(f);
	return bytes;
}

/* The kernel memory of the thread slots: the array, its index and its free list. */
static uint64_t slots_memlock(const struct instance *in)
{
	return map_memlock(bpf_map__fd(in->obj->skel->maps.slots)) +
	       map_memlock(bpf_map__fd(in->obj->skel->maps.slot_of)) +
	       map_memlock(bpf_map__fd(in->obj->skel->maps.free_slots));
}

void td_bpf_counting_stats(const struct td_bpf_counting *b, struct td_bpf_counting_stats *st)
{
	const struct instance *in = b->in;

	*st = (struct td_bpf_counting_stats){
		.lost_switches = in->obj->skel->bss->lost_switches,
		.lost_oncpu_ns = in->obj->skel->bss->lost_oncpu_ns,
		.read_errors = in->obj->skel->bss->read_errors,
		.seq_errors = in->obj->skel->bss->seq_errors,
		.unseen_switches = in->obj->skel->bss->unseen_switches,
		.unseen_ns = in->obj->skel->bss->unseen_ns,
		.unseen_untimed = in->obj->skel->bss->unseen_untimed,
		.map_entries = in->map_entries,
		.peak_entries = slots_used(in),
		.kernel_bytes = slots_memlock(in),
		.user_bytes = (uint64_t)b->ncopy * sizeof(*b->copy) + td_tid_map_bytes(&b->index),
	};
}

/* The kernel's information on the switch program attached: 0, or -errno. */
static int switch_info(const struct td_bpf_counting *b, struct bpf_prog_info *info)
{
	struct collect_bpf *s = b->in->obj->skel;
	__u32 len = sizeof(*info);

	memset(info, 0, sizeof(*info));
	/* the flavour attached (load_either): its link is set */
	if (bpf_obj_get_info_by_fd(bpf_program__fd(s->links.switch_btf ? s->progs.switch_btf : s->progs.switch_raw),
				   info, &len))
		return -errno;
	return 0;
}

int td_bpf_counting_switch_runs(const struct td_bpf_counting *b, uint64_t *ns, uint64_t *runs)
{
	struct bpf_prog_info info;
	int rc = switch_info(b, &info);

	if (rc)
		return rc;
	*ns = info.run_time_ns;
	*runs = info.run_cnt;
	return 0;
}

int td_bpf_counting_switch_tag(const struct td_bpf_counting *b, char *out, size_t len)
{
	struct bpf_prog_info info;
	int rc;

	if (len < 2 * sizeof(info.tag) + 1)
		return -ENOSPC;
	if ((rc = switch_info(b, &info)))
		return rc;
	for (size_t i = 0; i < sizeof(info.tag); i++)
		snprintf(out + 2 * i, 3, "%02x", info.tag[i]);
	return 0;
}

int td_bpf_run_stats(void)
{
	int fd = bpf_enable_stats(BPF_STATS_RUN_TIME);

	return fd < 0 ? -errno : fd;
}

int td_bpf_counting_probe(td_err *err)
{
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_TASK_CLOCK };
	const bool leads[1] = { true };
	struct instance *in;
	int ncpus = libbpf_num_possible_cpus();

	/* a program of its own, whatever the process has loaded */
	if (td_bpf_no_btf(err))
		return -1;
	if (ncpus < 1) {
		td_err_set(err, "cannot count the possible CPUs: %s", strerror(-ncpus));
		return -1;
	}
	if (!(in = instance_new(&a, leads, 1, 0, TD_BPF_MAP_ENTRIES_DEFAULT, ncpus, err))) {
		return -1;
	}
	td_err_set(err,
		   "%s sched_switch loads, one counter per CPU per event read at each switch; its sums map of "
		   "%d threads takes %.1f MiB of kernel memory",
		   in->flavour, in->map_entries, (double)slots_memlock(in) / (1024.0 * 1024.0));
	instance_free(in);
	return 0;
}
