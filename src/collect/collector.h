/* collector: the perf_event groups of every monitored thread. It opens the
 * same group specs on each thread the tracker reports (existing threads,
 * threads born later, children), reads them every interval into deltas,
 * gives exited threads one last read and closes their descriptors. What the
 * deltas become (SQLite rows, a summary) is the sink's business.
 *
 * Threads the tracker lists are counted from when their groups open (up to
 * one scan period after their birth); threads shorter than that are never
 * listed. So that nothing goes uncounted, the threads a process has when it
 * is added (the roots) also get spec 0 — the software group with
 * TASK_CLOCK — opened a second time with inherit: the kernel then counts
 * every thread and process they create from its first instruction into
 * that group. The listed threads' own counts are a part of it; the rest
 * (threads never listed, and listed ones before they were) is delivered
 * each interval as the counts of an "unlisted" pseudo-thread of the first
 * process (tid 0), so that listed threads plus it add up to everything the
 * target ran, and no count appears twice. Only spec 0 is inherited: hardware
 * groups would take the PMU's counters twice on every listed thread.
 *
 * With BPF counting (td_collector_set_counting, counting.h) no group is
 * opened per thread: each thread's readings and switches are its sums in
 * the BPF program's map, counted from its birth (or from when its process
 * was added), read for all threads at once each sample. Each mode is a
 * counting backend (counting_backend.h: counting_perf.c, counting_sums.c);
 * the collector keeps the threads, the remainder and the sample/commit
 * protocol, and calls the backend only through its ops. */
#ifndef TD_COLLECTOR_H
#define TD_COLLECTOR_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "perf_group.h"
#include "interval.h"
#include "switch_cost.h"
#include "counting.h"
#include "tracker.h"
#include "base/util.h"

#define TD_MAX_SPECS 24

/* A thread the collector lists. Its life: listed (born, or found when its
 * process is added) -> gone (exited: last reading taken, counted no more)
 * -> forgotten (by the commit after the sample that delivered its end);
 * short_lived ones are listed gone. */
struct td_thread {
	pid_t pid, tid;
	pid_t parent; /* the thread that created it (from the BPF tracker's event), 0 unknown */
	char comm[32];
	bool comm_tracked; /* comm is kept current from the tracker's events: no /proc read needed */
	int64_t store_id;  /* the sink's handle (e.g. the threads row) */
	uint64_t first_seen_ns, last_seen_ns;
	uint64_t sampled_ns; /* end of the last interval delivered */
	int comm_checks;     /* scans that re-read comm (threads name themselves early) */
	bool gone;	     /* exited: final reading taken, descriptors closed */
	bool short_lived;    /* born and gone between two scans (BPF tracker): listed, never opened */
	bool exit_seen;	     /* short_lived: its exit event (name, end, counts) has come */
	int held;	     /* short_lived: samples it was kept back waiting for that event */
	bool kept_back;	     /* ... by the last sample: not delivered, not to be forgotten */
	bool settling;	     /* gone, its last switch not counted yet (thread_settled): delivered, not forgotten */
	/* the counting backend's own state of this thread (counting_backend.h:
	 * its groups and readings, its switches): none of it the collector's */
	void *counting;
};

/* Where the collector's results go. Callbacks return 0, or -1 to stop. */
struct td_sink {
	void *ctx;
	int (*thread_born)(void *ctx, struct td_thread *t);
	int (*thread_gone)(void *ctx, struct td_thread *t);
	/* counts of group `spec` (one td_count per member) for one interval;
	 * spec == TD_SPEC_PROC is the /proc pseudo-group (voluntary, involuntary).
	 * t is the collector's; the sink may set its store_id. */
	int (*counts)(void *ctx, struct td_thread *t, int spec, const struct td_count *c, int n);
};

#define TD_SPEC_PROC (-1)
/* tid of the pseudo-thread that carries the unlisted remainder (see top). */
#define TD_TID_UNLISTED 0

struct td_collector;

struct td_collector_stats {
	int threads_seen; /* threads ever monitored */
	int threads_live;
	int open_failures;	/* threads whose groups could not be opened (other than exited first) */
	char last_failure[300]; /* as the collector words it: at most 299 bytes */
	int fds_open;
	int threads_short;	/* listed from the tracker's events although gone before their groups opened */
	uint64_t tracker_lost;	/* thread events the BPF tracker lost (ring buffer or map full) */
	bool unlisted_counted;	/* the inherited totals count: the unlisted remainder is delivered */
	char unlisted_why[300]; /* when not: why ("" before a process was added) */
};

/* specs: the groups every thread gets (copied). */
struct td_collector *td_collector_new(const struct td_perf_group_spec *specs, int nspecs, bool follow_children,
				      int paranoid);
void td_collector_free(struct td_collector *c);

/* Track threads with this backend instead of the /proc rescan a new
 * collector has (TD_TRACKER_AUTO: BPF where it loads). Call before the
 * first td_collector_add_process. -1 with err set only when BPF was
 * demanded and does not load. td_collector_tracker says which backend is
 * used and why, in one line for the user. With BPF, threads born and gone
 * between two scans are still listed (gone at once; their spec-0 counts
 * are what the kernel accounted to them at exit when spec 0 holds only
 * per-task software events, else what they ran stays in the unlisted
 * remainder), and names and parents come from the kernel's events. */
int td_collector_set_tracker(struct td_collector *c, enum td_tracker_mode mode, td_err *err);
const char *td_collector_tracker(const struct td_collector *c);
/* Threads are tracked by the BPF backend (not the /proc rescan). */
bool td_collector_tracker_bpf(const struct td_collector *c);

/* Open every counter from now on with uid and gid as this thread's
 * credentials (credentials.h), so that the kernel's own rules decide what
 * that user may count: topdownd does this for a client's session. A thread
 * the kernel then refuses (EACCES/EPERM: it runs as another user, after a
 * setuid exec say) is not counted and said in the stats; one gone before it
 * could be opened is listed only while its process still belongs to uid. */
void td_collector_open_as(struct td_collector *c, uid_t uid, gid_t gid);
/* Count with BPF (counting.h) instead of per-thread groups: TD_COUNTING_AUTO
 * takes it where it loads, else stays per thread. Call before the first
 * td_collector_add_process (and before td_collector_set_tracker: see
 * td_collector_plan_tracker).
 * map_entries: threads the sums map holds. -1 with err set only when BPF
 * was demanded and does not load. In BPF mode the threads' spec readings
 * and their switches (TD_SPEC_PROC) come from the program's sums, counted
 * from when the process was followed or the thread born; the roots'
 * inherited spec 0 (the unlisted remainder) is opened as in per-thread mode. */
/* --unlisted=off: open no root's inherited spec 0, so that each thread
 * carries its own groups only (per-thread mode: the events perf stat -p
 * switches, not twice as many; docs/performance.md). What threads too
 * short to be listed ran is then not counted at all: the session says so
 * (its counting note), never a remainder of 0. Call before the first
 * td_collector_add_process. */
void td_collector_unlisted_off(struct td_collector *c);
int td_collector_set_counting(struct td_collector *c, enum td_counting_mode mode, int map_entries, td_err *err);
/* record --cgroup: the BPF program td_collector_set_counting loads is to
 * sum cgroups too (td_collector_follow_cgroup); call before it. A program
 * loaded without them leaves that code out and loads twice as fast. */
void td_collector_sum_cgroups(struct td_collector *c);
/* The tracker td_collector_set_tracker is to set after
 * td_collector_set_counting (call before both): with TD_TRACKER_BPF or
 * AUTO, a BPF counting program loads the tracker's programs in its object,
 * which the tracker then takes — one read and parse of the kernel's BTF for
 * both (bpf_object.h) instead of one each. */
void td_collector_plan_tracker(struct td_collector *c, enum td_tracker_mode mode);
bool td_collector_counting_bpf(const struct td_collector *c);
/* What counting adds to each context switch of a counted thread, measured
 * now with the session's counting mode and events (switch_cost.h): 0 with
 * out filled (measured or why not), -1 out of memory. */
int td_collector_switch_cost(struct td_collector *c, struct td_switch_cost *out);
/* One line: the counting mode and why. */
const char *td_collector_counting(const struct td_collector *c);
/* The tag of the counting program that runs at every context switch (BPF
 * counting: 16 hex digits into buf, len >= 17): 0; -1 when there is none
 * (per-thread groups) or it cannot be read. */
int td_collector_counting_tag(const struct td_collector *c, char *buf, size_t len);
/* record --cgroup with BPF counting (after td_collector_set_counting
 * loaded it): the program sums what runs in cgroup v2 `id` (its
 * directory's inode number) and below it, `level` its depth below the
 * root. 0, or -1 with err. */
int td_collector_follow_cgroup(struct td_collector *c, uint64_t id, int level, td_err *err);
/* Its counts since the last sample committed (td_collector_commit; the
 * first: since it was followed), to fn for each counted group spec; after
 * td_collector_sample, whose read brought the running threads' sums up to
 * now. 0, or -1 when the sums cannot be read or fn failed (the sample
 * fails: nothing is committed). */
typedef int (*td_cgroup_counts_fn)(void *ctx, int spec, const struct td_count *c, int n);
int td_collector_cgroup_sample(struct td_collector *c, td_cgroup_counts_fn fn, void *ctx);

/* 1 with a warning line in buf when BPF counting lost counts (map full,
 * failed reads), else 0. */
int td_collector_counting_lost(const struct td_collector *c, char *buf, size_t len);
/* 1 with a clause in buf (for the counting note) when the BPF program
 * found context switches it did not see (the followed time they hid, and
 * its counts, are nobody's), else 0. */
int td_collector_counting_unseen(const struct td_collector *c, char *buf, size_t len);

/* Follow a process and open its current threads now. flags apply to the
 * first thread opened (TD_OPEN_ENABLE_ON_EXEC for a command about to exec).
 * A group that fails on the first thread because the machine cannot count
 * it (ENOENT, EOPNOTSUPP, EINVAL) is disabled for all threads and reported
 * by td_collector_disabled(); any other failure of the first group is an
 * error with a one-line message. */
int td_collector_add_process(struct td_collector *c, pid_t pid, unsigned flags, const struct td_sink *sink,
			     td_err *err);
/* The same, following also the descendants the process has now (attach
 * --children): their threads are roots too. */
int td_collector_add_process_tree(struct td_collector *c, pid_t pid, const struct td_sink *sink, td_err *err);
/* Threads whose /proc switch counts (and, without the BPF tracker, name)
 * each scan reads again, in turn: the work of a scan stays bounded however
 * many threads there are (1,000 threads at 20 ms scans: each every 1.25 s). */
#define TD_SWITCH_READS_PER_SCAN 16
/* Pick up threads born and gone since the last scan; read a few threads'
 * /proc switch counts and names again (TD_SWITCH_READS_PER_SCAN). */
int td_collector_scan(struct td_collector *c, uint64_t now_ns, const struct td_sink *sink);
/* Read every thread's groups and deliver the deltas since the last commit,
 * with the /proc switch counts of the threads read again since (their span
 * is the time between their two reads: no /proc read here). Nothing
 * is forgotten until td_collector_commit: when the sink could not keep this
 * interval (a failed transaction), td_collector_forget_ids and the next
 * sample deliver its counts again, with the next interval's — no count is
 * lost to a failed write. */
int td_collector_sample(struct td_collector *c, uint64_t now_ns, const struct td_sink *sink);
/* Final read of everything (the target ended or collection stops); commit as after a sample. */
int td_collector_finish(struct td_collector *c, uint64_t now_ns, const struct td_sink *sink);
/* The sink kept what the last sample delivered: the readings become the
 * baselines of the next deltas, and gone threads are forgotten. */
void td_collector_commit(struct td_collector *c);
/* The sink could not keep it: every thread's store_id above `above` (handles
 * the sink made in the failed interval) goes back to 0. Baselines stay.
 * Sampled again before a commit, the deltas run from the same baselines
 * (a sink that keeps several samples before a commit writes their
 * differences: session_written.c); the unlisted remainder's never shrinks
 * until a commit or this. */
void td_collector_forget_ids(struct td_collector *c, int64_t above);

/* User-space rotation (`--rotate`): the specs marked in `rotated` take turns,
 * one enabled at a time in spec order (round-robin, deterministic); every
 * other spec — ref_spec, the always-on reference, among them — stays
 * enabled. Call before td_collector_add_process: threads are opened with
 * only the current rotated group enabled. A rotated group is read like any
 * other, but a group we disabled accumulates no enabled time, so its
 * delivered counts carry: value and running = the kernel's deltas of that
 * group; enabled = the thread's enabled time in ref_spec over the same
 * interval (never less than running: the two groups are read a few
 * microseconds apart). value * enabled / running then estimates the whole
 * interval and running / enabled is the group's share (its confidence).
 * Fewer than two rotated groups counting: no rotation happens. */
void td_collector_set_rotation(struct td_collector *c, int ref_spec, const bool *rotated);
/* Switch to the next rotated group on every live thread. Returns the spec
 * now enabled, or -1 when there is nothing to rotate. */
int td_collector_rotate(struct td_collector *c);
/* Debugging and tests: write every delivered group delta as the kernel
 * reported it, one line "END_NS TID SPEC VALUE0 ENABLED RUNNING REF_ENABLED"
 * (END_NS: the sample's time; REF_ENABLED: -1 without a reference). */
void td_collector_dump_raw(struct td_collector *c, FILE *f);

/* Why spec i is disabled, or NULL when it is counting. */
const char *td_collector_disabled(const struct td_collector *c, int spec);
/* Why spec i is counted in parts (the kernel refused it as one group:
 * perf_group.h, td_perf_group_split), or NULL when it is one group; *sub:
 * the part of each member (all 0 for one group). Decided by the first
 * thread opened. */
const char *td_collector_split(const struct td_collector *c, int spec, const uint8_t **sub);
int td_collector_process_count(const struct td_collector *c);
void td_collector_stats(const struct td_collector *c, struct td_collector_stats *st);
/* stats.open_failures alone, without walking the threads (read at every scan). */
int td_collector_open_failures(const struct td_collector *c);

#endif
