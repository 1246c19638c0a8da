/* counting_backend: the interface between the collector (collector.c: the
 * thread table, the unlisted remainder, the sample/commit protocol and the
 * delivery to the sink) and a way of counting threads:
 * - counting_perf.c: one perf_event group per thread per spec, read with
 *   read(2), the roots' inherited spec 0, /proc switch counts;
 * - counting_sums.c: the BPF program's per-thread sums (counting_bpf.c).
 * The collector calls a backend only through its ops, and a backend calls
 * no function of collector.c: it reads (and writes where said) the plan
 * the collector shares with it, and is given the rest as arguments. Each
 * backend keeps its own state of a thread in the slot td_thread.counting
 * (ops->thread_size bytes, zeroed, allocated with the thread): nothing of
 * it is the collector's, nothing of the thread but that slot the backend's.
 * Internal to collect/. */
#ifndef TD_COUNTING_BACKEND_H
#define TD_COUNTING_BACKEND_H

#include "collector.h"

/* What the collector shares with its backend: the collector's, read by the
 * backend, which writes decided, disabled, split (and the spec's sub: the
 * parts a spec the kernel refused whole is opened in) and stats' fds_open,
 * open_failures and last_failure. */
struct td_counting_plan {
	struct td_perf_group_spec specs[TD_MAX_SPECS];
	int nspecs;
	int paranoid;
	bool follow_children;
	bool sum_cgroups;	    /* a BPF program is to sum cgroups too (record --cgroup) */
	bool track_bpf;		    /* the tracker set next tracks by BPF: its programs load with BPF counting's */
	bool decided[TD_MAX_SPECS]; /* first open attempted: counting or disabled */
	char disabled[TD_MAX_SPECS][300]; /* why spec g is not counted ("": it is) */
	char split[TD_MAX_SPECS][300];	  /* why spec g is counted in parts ("": it is one group) */
	bool open_as;			  /* counters opened with as_uid/as_gid (td_collector_open_as) */
	uid_t as_uid;
	gid_t as_gid;
	bool rotated[TD_MAX_SPECS]; /* td_collector_set_rotation: opened disabled unless current */
	int current;		    /* the rotated spec enabled now, -1 none */
	bool unlisted_off;	    /* td_collector_unlisted_off: no root's inherited spec 0 */
	struct td_collector_stats *stats;
};

/* A rotation (td_collector_set_rotation): the specs rotated (ref_spec, the
 * always-on reference, never), the first of them current. */
void td_counting_plan_set_rotation(struct td_counting_plan *p, int ref_spec, const bool *rotated);
/* The rotated spec after `from` that counts (cyclic), or -1. */
int td_counting_plan_next_rotated(const struct td_counting_plan *p, int from);

/* thread_open's answers (or -1 with err: fatal). */
enum {
	TD_THREAD_OPENED = 0,
	TD_THREAD_EXITED = 1,
	TD_THREAD_FAILED = 2
};
/* thread_read's: new readings; nothing new since the last commit (no row
 * to deliver, nothing to commit); or readings the same as the last
 * sample's since that commit, whose rows it delivered (a session that
 * commits several samples at once): no row, but its delta of spec 0 is
 * still part of what the listed threads counted (thread_delta). */
enum {
	TD_READ_NEW = 0,
	TD_READ_QUIET = 1,
	TD_READ_SAME = 2
};
/* thread_delta's: no reading of the spec; a delta to deliver; a delta the
 * backend leaves out (nothing counted, a row of it delivered before). */
enum {
	TD_DELTA_NONE = 0,
	TD_DELTA_ROW = 1,
	TD_DELTA_LEFT_OUT = 2
};
/* read's `how`: the last sample (every row delivered); a raw dump wants
 * every reading (no thread passed by as quiet). */
#define TD_SAMPLE_FINAL 1u
#define TD_SAMPLE_EVERY 2u

struct td_counting;

struct td_counting_ops {
	enum td_counting_mode mode; /* PER_THREAD or BPF */
	bool from_birth;	    /* counts a thread from its birth, not from when it is opened */
	size_t (*thread_size)(const struct td_counting *b);
	void (*free)(struct td_counting *b);
	/* Before the tracker follows pid: 0, or -1 with err. `first`: nothing
	 * followed yet. NULL: nothing to do (per-thread groups). */
	int (*add_process)(struct td_counting *b, pid_t pid, bool first, td_err *err);
	/* A thread the tracker listed (its pid, tid, sampled_ns set): count it
	 * from now on. adding: the pid being added (0 none), whose threads the
	 * backend follows already. TD_THREAD_OPENED, TD_THREAD_EXITED (gone first: nothing
	 * held), TD_THREAD_FAILED (said in the stats, nothing held), or -1 with
	 * err when the plan cannot be counted at all. */
	int (*thread_open)(struct td_counting *b, struct td_thread *t, unsigned flags, pid_t adding, td_err *err);
	/* It exited: take its last reading, give back what it holds. */
	void (*thread_exit)(struct td_counting *b, struct td_thread *t);
	/* Optional: false while the readings of gone thread t, as of the last
	 * read, still lack what it runs until its last switch (the tracker
	 * hears of an exit before the thread's files and task work are done:
	 * linux 6.12 kernel/exit.c:945, trace_sched_process_exit(), against
	 * do_task_dead() at 997). NULL: a gone thread's reading is its last. */
	bool (*thread_settled)(struct td_counting *b, const struct td_thread *t);
	/* Give back what it holds (it is not to be counted). */
	void (*thread_close)(struct td_counting *b, struct td_thread *t);
	/* A thread listed gone at once (TD_THREAD_EXITED) and what the kernel
	 * accounted to it over its life (the BPF tracker's exit event). */
	void (*exit_usage)(struct td_counting *b, struct td_thread *t, const struct td_task_usage *u);
	/* A scan's turn of a live thread, and the final one: its switches again. */
	void (*thread_reread)(struct td_counting *b, struct td_thread *t, uint64_t now);
	/* Count everything thread t (a root) and what it creates run, into the
	 * total roots_read gives: 0; 1: it is gone, nothing to count; -1 with
	 * err (one line for the stats) when it cannot. */
	int (*root_add)(struct td_counting *b, const struct td_thread *t, unsigned flags, td_err *err);
	/* A sample begins (TD_SAMPLE_* in how): 0, or -1 when the readings cannot
	 * be taken (the sample fails: nothing is committed, the next delivers). */
	int (*read)(struct td_counting *b, uint64_t now, unsigned how);
	/* Add the roots' total of spec 0's events to total: false when there is
	 * none yet. Read before the threads (the unlisted remainder). */
	bool (*roots_read)(struct td_counting *b, uint64_t *total);
	/* The thread's readings as of this sample: TD_READ_NEW, TD_READ_QUIET or TD_READ_SAME. */
	int (*thread_read)(struct td_counting *b, struct td_thread *t);
	/* Its delta of spec g since the last commit into d (one per event). */
	int (*thread_delta)(struct td_counting *b, struct td_thread *t, int g, struct td_count *d);
	/* Its voluntary and involuntary switches since the last commit into
	 * d: true when they are to be delivered. */
	bool (*thread_switches)(struct td_counting *b, struct td_thread *t, struct td_count *d);
	/* The sink kept the sample: its readings become the thread's baselines. */
	void (*thread_commit)(struct td_counting *b, struct td_thread *t);
	/* The rows delivered for t since the commit were not kept (the sink's
	 * write failed): what it delivers next runs from the commit again. */
	void (*thread_forget)(struct td_counting *b, struct td_thread *t);
	/* ... after the gone threads were forgotten: listed(ctx, tid) says
	 * which threads are still listed. */
	void (*commit)(struct td_counting *b, bool (*listed)(void *ctx, pid_t tid), void *ctx);
	/* Rotation: enable or disable spec g on a live thread. */
	void (*enable)(struct td_counting *b, struct td_thread *t, int g, bool on);
	/* Optional (NULL: not this backend's) */
	const char *(*describe)(const struct td_counting *b);
	int (*lost)(const struct td_counting *b, char *buf, size_t len);
	int (*unseen)(const struct td_counting *b, char *buf, size_t len);
	int (*cgroup_follow)(struct td_counting *b, uint64_t id, int level, td_err *err);
	int (*cgroup_sample)(struct td_counting *b, td_cgroup_counts_fn fn, void *ctx);
	/* Count processes pids (switch_cost's measuring pair) as a target is
	 * counted: 0 with *probe, or -1 with err; then stop (probe_detach). */
	int (*probe_attach)(struct td_counting *b, const pid_t pids[2], void **probe, td_err *err);
	void (*probe_detach)(struct td_counting *b, void *probe);
	/* Optional: what the backend runs at a switch of threads it does not
	 * count (switch_cost.h's td_switch_idle_fn), NULL: nothing. */
	int (*probe_idle)(struct td_counting *b, enum td_switch_idle what, uint64_t *ns, uint64_t *runs);
	/* The tag of the program that runs at every switch (16 hex digits into
	 * buf): 0, -1 when there is none or it cannot be read. NULL: none. */
	int (*program_tag)(const struct td_counting *b, char *buf, size_t len);
};

/* Every backend's state begins with this. */
struct td_counting {
	const struct td_counting_ops *ops;
	struct td_counting_plan *plan;
};

/* Per-thread perf groups: NULL only out of memory. */
struct td_counting *td_counting_perf_new(struct td_counting_plan *plan);
/* bench_collector: spec g's group of a thread counted per thread, NULL when not open. */
const struct td_perf_group *td_counting_perf_group(const struct td_thread *t, int g);
/* ... and the bytes of a thread's state in it with nspecs specs. */
size_t td_counting_perf_bytes(int nspecs);
/* The BPF program's sums (counting.h): NULL with err when it does not load. */
struct td_counting *td_counting_sums_new(struct td_counting_plan *plan, int map_entries, td_err *err);

/* ---- shared by the backends (counting_backend.c) ---- */

/* A thread's voluntary and involuntary context switches: the pair as of the
 * last commit (prev, read at prev_ns) and the latest (last, read at ns). */
struct td_switch_pair {
	uint64_t prev[2], last[2], sent[2];
	uint64_t prev_ns, ns, sent_ns;
	bool have;
	bool sent_valid; /* a row was delivered since the commit, up to sent */
};
/* The switches since the last row delivered (td_switch_pair_sent) since
 * the commit, else since prev, counted over the time between the two
 * reads: true with d when there is a newer read. */
bool td_switch_pair_delta(const struct td_switch_pair *p, struct td_count *d);
/* The row td_switch_pair_delta gave was delivered. */
void td_switch_pair_sent(struct td_switch_pair *p);
/* What was delivered becomes the baseline (what was not, a pair held back
 * or read after the last row, is in the next row). */
void td_switch_pair_commit(struct td_switch_pair *p);
/* The rows delivered since the commit were not kept: the next spans them. */
void td_switch_pair_forget(struct td_switch_pair *p);
/* perf_event_open's errno for an event this machine cannot count. */
bool td_counting_cannot_count(int err);
/* What counting with b adds to a context switch, measured now on a pair of
 * tdctl's processes through b's probe ops (switch_cost.h); a backend
 * without them says why in out->why (0 either way, -1 as the measure). */
int td_counting_switch_cost(struct td_counting *b, struct td_switch_cost *out);

#endif
