/* collector: the threads a session counts, and the protocol that turns
 * their counts into deltas: the thread table (listed from the tracker's
 * events, named, forgotten), the unlisted remainder, sample and commit,
 * and delivery to the sink. How a thread is counted (per-thread perf
 * groups, or the BPF program's sums) is its counting backend's
 * (counting_backend.h), called only through its ops. */
#include "collector.h"
#include "base/tid_map.h"
#include "counting.h"
#include "counting_backend.h"
#include "machine/procfs.h"
#include "tracker.h"

#include <assert.h>
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Everything the roots counted (their backend's total), and how much of it
 * the listed threads and the unlisted pseudo-thread have been given. */
struct family {
	bool counted;			/* a root's total counts (the backend took one) */
	bool broken;			/* a root's total could not be opened or read: no remainder */
	uint64_t listed[TD_GROUP_MAX];	/* spec 0 delivered to listed threads, committed */
	uint64_t pending[TD_GROUP_MAX]; /* ... in the sample not yet committed */
	uint64_t given[TD_GROUP_MAX];	/* delivered to the unlisted pseudo-thread, committed */
	uint64_t giving[TD_GROUP_MAX];	/* ... in the sample not yet committed */
	uint64_t sampled_ns;		/* end of the last committed sample */
	uint64_t roots_read_ns;		/* when the roots' total was last read (0: never) */
	struct td_thread *unlisted;	/* the pseudo-thread (tid TD_TID_UNLISTED), NULL before a root */
};

struct td_collector {
	struct td_counting_plan plan; /* the specs and their fate, shared with the backend */
	struct td_counting *be;	      /* the counting backend: per-thread groups until set_counting */
	struct td_tracker *tracker;
	struct td_thread **threads;
	int nthreads, cap;
	struct td_tid_map by_tid; /* the newest thread listed with each tid (gone or not) */
	unsigned pending_flags;	  /* for the next thread opened */
	struct td_collector_stats stats;
	int ref_spec; /* always-on reference of a rotation, -1 none */
	FILE *raw_dump;
	bool adding;	  /* td_collector_add_process in progress: the threads it lists are roots */
	pid_t adding_pid; /* ... of this process, followed by the backend just before */
	struct family family;
	int switch_cursor;  /* the next thread whose /proc switch counts a scan reads */
	bool young_comms;   /* some thread's comm is still re-read by scans (refresh_young_comms) */
	bool finishing;	    /* td_collector_finish's sample: nothing waits */
	bool sampled;	    /* a sample delivered since the last commit: commit may take it */
	char counting[600]; /* the mode and why, for the user (the backend's own when it has one) */
};

struct td_collector *td_collector_new(const struct td_perf_group_spec *specs, int nspecs, bool follow_children,
				      int paranoid)
{
	struct td_collector *c;

	if (nspecs > TD_MAX_SPECS || !(c = calloc(1, sizeof(*c))))
		return NULL;
	memcpy(c->plan.specs, specs, (size_t)nspecs * sizeof(*specs));
	c->plan.nspecs = nspecs;
	c->plan.paranoid = paranoid;
	c->plan.follow_children = follow_children;
	c->plan.stats = &c->stats;
	c->ref_spec = c->plan.current = -1;
	if (!(c->be = td_counting_perf_new(&c->plan)) ||
	    !(c->tracker = td_tracker_new(follow_children, TD_TRACKER_PROC, NULL))) {
		if (c->be)
			c->be->ops->free(c->be);
		free(c);
		return NULL;
	}
	return c;
}

/* A thread with its backend's slot after it (one allocation, freed with free()). */
static struct td_thread *thread_alloc(const struct td_collector *c)
{
	size_t head =
		(sizeof(struct td_thread) + _Alignof(max_align_t) - 1) / _Alignof(max_align_t) * _Alignof(max_align_t);
	struct td_thread *t = calloc(1, head + c->be->ops->thread_size(c->be));

	if (t)
		t->counting = (char *)t + head;
	return t;
}

void td_collector_free(struct td_collector *c)
{
	if (!c)
		return;
	for (int i = 0; i < c->nthreads; i++) {
		c->be->ops->thread_close(c->be, c->threads[i]);
		free(c->threads[i]);
	}
	free(c->threads);
	td_tid_map_free(&c->by_tid);
	free(c->family.unlisted);
	c->be->ops->free(c->be);
	td_tracker_free(c->tracker);
	free(c);
}

int td_collector_set_tracker(struct td_collector *c, enum td_tracker_mode mode, td_err *err)
{
	struct td_tracker *t;

	assert(c->nthreads == 0 && td_tracker_process_count(c->tracker) == 0);
	if (mode == TD_TRACKER_PROC && td_tracker_mode(c->tracker) == TD_TRACKER_PROC)
		return 0;
	if (!(t = td_tracker_new(c->plan.follow_children, mode, err)))
		return -1;
	td_tracker_free(c->tracker);
	c->tracker = t;
	return 0;
}

const char *td_collector_tracker(const struct td_collector *c)
{
	return td_tracker_describe(c->tracker);
}

bool td_collector_tracker_bpf(const struct td_collector *c)
{
	return c->tracker && td_tracker_mode(c->tracker) == TD_TRACKER_BPF;
}

const char *td_collector_disabled(const struct td_collector *c, int spec)
{
	return c->plan.disabled[spec][0] ? c->plan.disabled[spec] : NULL;
}

const char *td_collector_split(const struct td_collector *c, int spec, const uint8_t **sub)
{
	*sub = c->plan.specs[spec].sub;
	return c->plan.split[spec][0] ? c->plan.split[spec] : NULL;
}

int td_collector_process_count(const struct td_collector *c)
{
	return td_tracker_process_count(c->tracker);
}

int td_collector_open_failures(const struct td_collector *c)
{
	return c->stats.open_failures;
}

void td_collector_stats(const struct td_collector *c, struct td_collector_stats *st)
{
	struct td_tracker_stats ts;

	*st = c->stats;
	td_tracker_stats(c->tracker, &ts);
	st->tracker_lost = ts.lost_events + ts.unfollowed;
	st->unlisted_counted = c->family.counted && !c->family.broken;
	st->threads_live = 0;
	for (int i = 0; i < c->nthreads; i++)
		st->threads_live += !c->threads[i]->gone;
}

void td_collector_unlisted_off(struct td_collector *c)
{
	c->plan.unlisted_off = true;
}

void td_collector_open_as(struct td_collector *c, uid_t uid, gid_t gid)
{
	c->plan.open_as = true;
	c->plan.as_uid = uid;
	c->plan.as_gid = gid;
}

/* A root (a thread the process or tree has as it is added): the unlisted
 * pseudo-thread carries what the roots' total counts beyond the listed
 * threads (see collector.h). A failure leaves the family without a
 * remainder (said in the stats), never the session. */
static void add_root(struct td_collector *c, const struct td_thread *t, unsigned flags, uint64_t now)
{
	struct family *f = &c->family;
	td_err why;
	int rc;

	if (c->plan.unlisted_off || f->broken || c->plan.disabled[0][0] || c->plan.specs[0].n == 0)
		return;
	if (!f->unlisted) {
		if (!(f->unlisted = calloc(1, sizeof(*f->unlisted)))) {
			f->broken = true;
			snprintf(c->stats.unlisted_why, sizeof(c->stats.unlisted_why), "out of memory");
			return;
		}
		f->unlisted->pid = t->pid;
		f->unlisted->tid = TD_TID_UNLISTED;
		snprintf(f->unlisted->comm, sizeof(f->unlisted->comm), "(unlisted)");
		f->unlisted->first_seen_ns = f->unlisted->last_seen_ns = f->unlisted->sampled_ns = now;
		f->sampled_ns = now;
	}
	if ((rc = c->be->ops->root_add(c->be, t, flags, &why)) == 0)
		f->counted = true;
	else if (rc < 0) {
		f->broken = true;
		snprintf(c->stats.unlisted_why, sizeof(c->stats.unlisted_why), "%.299s", why.msg);
	}
}

/* A live thread seen by the sample of now: then, or at its birth when the
 * tracker's events (read after now was taken) say it was born later. */
static uint64_t seen_at(const struct td_thread *t, uint64_t now)
{
	return now > t->first_seen_ns ? now : t->first_seen_ns;
}

/* The newest thread listed with tid (a tid is reused only once its thread is gone). */
static struct td_thread *newest_thread(const struct td_collector *c, pid_t tid)
{
	return tid > 0 ? (struct td_thread *)td_tid_map_get(&c->by_tid, (uint32_t)tid) : NULL;
}

static struct td_thread *find_thread(struct td_collector *c, pid_t tid)
{
	struct td_thread *t = newest_thread(c, tid);

	return t && !t->gone ? t : NULL;
}

/* A thread the tracker reported born: listed, counted by the backend from
 * now on (or from its birth). One gone before it could be opened is listed
 * only when the BPF tracker saw it (its name and times come from the
 * events, its counts from its exit event or else the unlisted remainder:
 * take_exit_usage), never from /proc (a TID that vanished may be anything). */
static int thread_born(struct td_collector *c, const struct td_task_event *ev, uint64_t now, const struct td_sink *sink,
		       td_err *err)
{
	bool from_events = td_tracker_mode(c->tracker) == TD_TRACKER_BPF;
	struct td_thread *t;
	int rc;

	if (find_thread(c, ev->tid))
		return 0;
	if (!(t = thread_alloc(c))) {
		td_err_set(err, "out of memory");
		return -1;
	}
	t->pid = ev->pid;
	t->tid = ev->tid;
	t->parent = ev->parent;
	t->comm_tracked = from_events;
	c->young_comms |= !from_events;
	t->first_seen_ns = ev->time_ns ? ev->time_ns : now;
	t->last_seen_ns = seen_at(t, now);
	/* counted from its birth: nothing of it delivered yet */
	t->sampled_ns = c->be->ops->from_birth ? t->first_seen_ns : now;
	if (ev->comm[0])
		snprintf(t->comm, sizeof(t->comm), "%s", ev->comm);
	else if (td_proc_comm(ev->pid, ev->tid, t->comm, sizeof(t->comm)) != 0)
		t->comm[0] = '\0';
	rc = c->be->ops->thread_open(c->be, t, c->pending_flags, c->adding ? c->adding_pid : 0, err);
	/* gone before it opened: under open_as, listed only from a process that is still the client's */
	if (rc == TD_THREAD_EXITED && c->plan.open_as && !td_proc_owned_by(ev->pid, c->plan.as_uid))
		rc = TD_THREAD_FAILED;
	if (rc < 0 || rc == TD_THREAD_FAILED || (rc == TD_THREAD_EXITED && !from_events)) {
		free(t); /* the backend holds nothing of it */
		return rc < 0 ? -1 : 0;
	}
	if (rc == TD_THREAD_EXITED) {
		t->gone = t->short_lived = true; /* born and gone since the last scan: listed, nothing to read */
		t->last_seen_ns = t->first_seen_ns;
		c->stats.threads_short++;
	} else {
		if (c->adding)
			add_root(c, t, c->pending_flags, now); /* a thread the process (or tree) has as it is added */
		c->pending_flags = 0;
	}
	if (c->nthreads == c->cap) {
		int ncap = c->cap ? c->cap * 2 : 32;
		struct td_thread **nt = realloc(c->threads, (size_t)ncap * sizeof(*nt));
		if (nt) {
			c->threads = nt;
			c->cap = ncap;
		}
	}
	if (c->nthreads == c->cap || td_tid_map_put(&c->by_tid, (uint32_t)t->tid, (uintptr_t)t)) {
		c->be->ops->thread_close(c->be, t);
		free(t);
		td_err_set(err, "out of memory");
		return -1;
	}
	c->threads[c->nthreads++] = t;
	c->stats.threads_seen++;
	if (sink->thread_born && sink->thread_born(sink->ctx, t)) {
		td_err_set(err, "cannot record thread %d", (int)ev->tid);
		return -1;
	}
	return 0;
}

/* A thread that exited: its last reading, counted no more. */
static void thread_gone(struct td_collector *c, struct td_thread *t, const struct td_task_event *ev, uint64_t now)
{
	/* listed -> gone, once */
	assert(!t->gone);
	c->be->ops->thread_exit(c->be, t);
	t->gone = true;
	/* when it exited, if the tracker knows, but never before what was already delivered of it */
	t->last_seen_ns = ev->time_ns > t->sampled_ns && ev->time_ns < now ? ev->time_ns : now;
	/* born after the sample's time was taken (its events are read after): its exit, never before its birth */
	if (t->last_seen_ns < t->first_seen_ns)
		t->last_seen_ns = ev->time_ns > t->first_seen_ns ? ev->time_ns : t->first_seen_ns;
	if (ev->comm[0])
		snprintf(t->comm, sizeof(t->comm), "%s", ev->comm); /* its name at exit */
}

/* A thread listed gone at once has nothing counted of its own; what the
 * kernel accounted to it over its life (the BPF tracker's exit event) may
 * become its counts (the backend's exit_usage). Delivered as its own, they
 * leave the unlisted remainder, as a listed thread's counts do. Only for a
 * thread born after the roots were last read: one that ran before may be
 * in what the remainder delivered already (never twice). */
static void take_exit_usage(struct td_collector *c, struct td_thread *t, const struct td_task_event *ev)
{
	if (!ev->have_usage)
		return;
	if (c->family.counted && !c->family.broken && t->first_seen_ns <= c->family.roots_read_ns)
		return;
	c->be->ops->exit_usage(c->be, t, &ev->usage);
}

/* The thread an event names: the live one, or one listed already gone in
 * this scan (its rename and exit still tell its name and end). */
static struct td_thread *event_thread(struct td_collector *c, pid_t tid)
{
	struct td_thread *t = newest_thread(c, tid);

	return t && (!t->gone || t->short_lived) ? t : NULL;
}

static void thread_renamed(struct td_collector *c, const struct td_task_event *ev)
{
	struct td_thread *t = event_thread(c, ev->tid);

	if (t && ev->comm[0])
		snprintf(t->comm, sizeof(t->comm), "%s", ev->comm);
}

static int apply_tracker(struct td_collector *c, uint64_t now, const struct td_sink *sink, td_err *err)
{
	const struct td_task_event *ev;
	int n = td_tracker_poll(c->tracker, &ev);

	if (n < 0) {
		td_err_set(err, "cannot track threads (%s): %s",
			   td_tracker_mode(c->tracker) == TD_TRACKER_BPF ? "BPF ring buffer" : "/proc rescan",
			   strerror(-n));
		return -1;
	}
	for (int i = 0; i < n; i++) {
		struct td_thread *t;
		switch (ev[i].change) {
		case TD_TASK_BORN:
			if (thread_born(c, &ev[i], now, sink, err))
				return -1;
			break;
		case TD_TASK_RENAMED:
			thread_renamed(c, &ev[i]);
			break;
		case TD_TASK_GONE:
			if (!(t = event_thread(c, ev[i].tid)))
				break;
			if (!t->gone) {
				thread_gone(c, t, &ev[i], now);
			} else {
				if (ev[i].comm[0])
					snprintf(t->comm, sizeof(t->comm), "%s", ev[i].comm);
				if (ev[i].time_ns > t->first_seen_ns)
					t->last_seen_ns = ev[i].time_ns;
				take_exit_usage(c, t, &ev[i]);
				t->exit_seen = true;
			}
			break;
		}
	}
	return 0;
}

static int add_process(struct td_collector *c, pid_t pid, unsigned flags, bool tree, const struct td_sink *sink,
		       td_err *err)
{
	int rc;

	if (c->be->ops->add_process && c->be->ops->add_process(c->be, pid, c->nthreads == 0, err))
		return -1;
	rc = td_tracker_add_process(c->tracker, pid);
	if (rc == -ESRCH) {
		td_err_set(err, "no process with PID %d: check the PID with 'ps -p %d'", (int)pid, (int)pid);
		return -1;
	}
	if (rc < 0) {
		td_err_set(err, "cannot follow PID %d (%s): %s", (int)pid,
			   td_tracker_mode(c->tracker) == TD_TRACKER_BPF ? "BPF map" : "/proc", strerror(-rc));
		return -1;
	}
	if (tree && (rc = td_tracker_add_descendants(c->tracker, pid)) < 0) {
		td_err_set(err, "cannot list the child processes of PID %d: %s", (int)pid, strerror(-rc));
		return -1;
	}
	c->pending_flags = flags;
	c->adding = true;
	c->adding_pid = pid; /* its threads need no follow each (a bpf call each: 1,000 at 1,000 threads) */
	rc = apply_tracker(c, td_wall_ns(), sink, err);
	c->adding = false;
	return rc;
}

int td_collector_add_process(struct td_collector *c, pid_t pid, unsigned flags, const struct td_sink *sink, td_err *err)
{
	return add_process(c, pid, flags, false, sink, err);
}

int td_collector_add_process_tree(struct td_collector *c, pid_t pid, const struct td_sink *sink, td_err *err)
{
	return add_process(c, pid, 0, true, sink, err);
}

/* Threads usually name themselves right after they start: look again a few
 * times. Nothing to walk when no thread is that young (the BPF tracker
 * names every thread from its events): a scan every 20 ms over 1,000
 * threads that are not. */
static void refresh_young_comms(struct td_collector *c)
{
	bool young = false;

	if (!c->young_comms)
		return;
	for (int i = 0; i < c->nthreads; i++) {
		struct td_thread *t = c->threads[i];
		if (!t->gone && !t->comm_tracked && t->comm_checks < 3) {
			t->comm_checks++;
			td_proc_comm(t->pid, t->tid, t->comm, sizeof(t->comm));
			young |= t->comm_checks < 3;
		}
	}
	c->young_comms = young;
}

/* The tracker's news (what td_collector_sample takes first with BPF too). */
static int scan_events(struct td_collector *c, uint64_t now_ns, const struct td_sink *sink)
{
	td_err err;

	refresh_young_comms(c);
	return apply_tracker(c, now_ns, sink, &err);
}

/* A few threads in turn: their switch counts (the backend's reread: /proc),
 * and without the BPF tracker their names (threads rename themselves:
 * pools, workers). */
static void reread_in_turn(struct td_collector *c, uint64_t now_ns)
{
	int n = c->nthreads < TD_SWITCH_READS_PER_SCAN ? c->nthreads : TD_SWITCH_READS_PER_SCAN;

	for (int k = 0; k < n; k++) {
		struct td_thread *t = c->threads[c->switch_cursor++ % c->nthreads];
		if (t->gone || t->tid == TD_TID_UNLISTED)
			continue;
		c->be->ops->thread_reread(c->be, t, now_ns);
		if (!t->comm_tracked)
			td_proc_comm(t->pid, t->tid, t->comm, sizeof(t->comm));
	}
	if (c->nthreads)
		c->switch_cursor %= c->nthreads;
}

int td_collector_scan(struct td_collector *c, uint64_t now_ns, const struct td_sink *sink)
{
	int rc = scan_events(c, now_ns, sink);

	reread_in_turn(c, now_ns);
	return rc;
}

/* A rotated group's delta in the reference's time base (see collector.h). */
static void rebase(struct td_count *d, int n, int64_t ref)
{
	for (int i = 0; i < n; i++)
		d[i].enabled = (uint64_t)ref > d[i].running ? (uint64_t)ref : d[i].running;
}

/* Deliver the thread's deltas since the last commit, as its backend reads
 * them: each spec's (but those it leaves out), then its switches. */
static int deliver(struct td_collector *c, struct td_thread *t, uint64_t now_ns, const struct td_sink *sink)
{
	struct td_counting *be = c->be;
	struct td_count d[TD_GROUP_MAX];
	int64_t ref = -1; /* enabled time of the thread's reference group over this interval */

	/* a thread's interval never ends before it began */
	assert(t->last_seen_ns >= t->first_seen_ns);
	if (c->ref_spec >= 0 && c->plan.specs[c->ref_spec].n > 0 &&
	    be->ops->thread_delta(be, t, c->ref_spec, d) != TD_DELTA_NONE)
		ref = (int64_t)d[0].enabled;
	for (int g = 0; g < c->plan.nspecs; g++) {
		int n = c->plan.specs[g].n, kind = be->ops->thread_delta(be, t, g, d);
		if (kind == TD_DELTA_NONE)
			continue;
		if (c->raw_dump)
			fprintf(c->raw_dump, "%llu %d %d %llu %llu %llu %lld\n", (unsigned long long)now_ns,
				(int)t->tid, g, (unsigned long long)d[0].value, (unsigned long long)d[0].enabled,
				(unsigned long long)d[0].running, (long long)ref);
		if (g == 0)
			for (int k = 0; k < n; k++)
				c->family.pending[k] += d[k].value;
		if (c->plan.rotated[g] && ref >= 0)
			rebase(d, n, ref);
		if (kind == TD_DELTA_LEFT_OUT)
			continue;
		if (sink->counts && sink->counts(sink->ctx, t, g, d, n))
			return -1;
	}
	if (be->ops->thread_switches(be, t, d) && sink->counts && sink->counts(sink->ctx, t, TD_SPEC_PROC, d, 2))
		return -1;
	return 0;
}

/* How long a gone thread's rows may wait for its last switch to be
 * counted: an exit whose files or task work run longer gives the rest of
 * its counts to the unlisted remainder (the totals keep them). */
#define SETTLE_NS 2000000000ull

/* Is gone thread t's reading its last: its backend counted its last
 * switch, or it has waited SETTLE_NS since its exit, or the session ends?
 * Until then it is delivered as a live thread is (a row of what it ran in
 * its exit so far), and neither said gone nor forgotten: forgotten, what
 * it ran until its last switch went to the remainder, not to it. */
static bool settled(const struct td_collector *c, const struct td_thread *t, uint64_t now)
{
	return c->finishing || !c->be->ops->thread_settled || now >= t->last_seen_ns + SETTLE_NS ||
	       c->be->ops->thread_settled(c->be, t);
}

/* A thread whose readings are those the last sample delivered (the
 * session commits several samples at once): no row again, but what it
 * counted since the commit is the listed threads' still, as deliver()
 * adds it (the remainder is the total beyond them). */
static void listed_again(struct td_collector *c, struct td_thread *t)
{
	struct td_count d[TD_GROUP_MAX];
	int n = c->plan.specs[0].n;

	if (n == 0 || c->be->ops->thread_delta(c->be, t, 0, d) == TD_DELTA_NONE)
		return;
	for (int k = 0; k < n; k++)
		c->family.pending[k] += d[k].value;
}

/* Read the roots' total: everything the target ran so far, into total.
 * false when there is no remainder to deliver (or a root was never read
 * yet). Done before the threads are read (td_collector_sample). */
static bool read_roots(struct td_collector *c, uint64_t *total)
{
	struct family *f = &c->family;

	if (!f->unlisted || f->broken || !c->be->ops->roots_read(c->be, total))
		return false;
	f->roots_read_ns = td_wall_ns();
	return true;
}

/* Deliver what the roots' total counted (read first) beyond the listed
 * threads (read after) since the last commit, as the unlisted
 * pseudo-thread's spec 0. The listed threads ran a little more by the time
 * they were read, so one interval's remainder can come out below what was
 * given already: then nothing is delivered until the total catches up.
 * Read in this order, given never exceeds what the kernel counted beyond
 * the listed threads, and nothing is given twice: with the roots read
 * last, what listed threads ran between the two reads (long, when tdctl
 * waits for a CPU) was given to the remainder and delivered to them again
 * the next interval. */
static int deliver_unlisted(struct td_collector *c, uint64_t now_ns, const struct td_sink *sink, const uint64_t *total)
{
	struct family *f = &c->family;
	struct td_count d[TD_GROUP_MAX];
	uint64_t span = now_ns > f->sampled_ns ? now_ns - f->sampled_ns : 0;
	int n = c->plan.specs[0].n;

	for (int k = 0; k < n; k++) {
		uint64_t accounted = f->listed[k] + f->pending[k] + f->given[k];
		uint64_t gap = total[k] > accounted ? total[k] - accounted : 0;
		/* what the remainder is given brings what was accounted up to the
		 * total, never beyond it: no count delivered twice. Sampled again
		 * before a commit (a write that failed, an interval of a group the
		 * session commits together), it is given no less than before: a
		 * listed thread read a moment after the roots may have counted
		 * what the roots' total did not hold yet, so the gap can narrow,
		 * and what was delivered is not taken back (as across commits,
		 * where `given` keeps it) */
		if (gap > f->giving[k])
			f->giving[k] = gap;
		assert(f->giving[k] == 0 || accounted + f->giving[k] >= total[k]);
		d[k] = (struct td_count){ f->giving[k], span, span };
	}
	f->unlisted->last_seen_ns = now_ns;
	return sink->counts ? sink->counts(sink->ctx, f->unlisted, 0, d, n) : 0;
}

void td_collector_sum_cgroups(struct td_collector *c)
{
	assert(!td_collector_counting_bpf(c));
	c->plan.sum_cgroups = true;
}

void td_collector_plan_tracker(struct td_collector *c, enum td_tracker_mode mode)
{
	c->plan.track_bpf = mode != TD_TRACKER_PROC;
}

int td_collector_set_counting(struct td_collector *c, enum td_counting_mode mode, int map_entries, td_err *err)
{
	struct td_counting *b;
	td_err why;

	assert(c->nthreads == 0 && !td_collector_counting_bpf(c));
	if (mode == TD_COUNTING_PER_THREAD) {
		snprintf(c->counting, sizeof(c->counting),
			 "counted with perf groups per thread (--counting=per-thread)");
		return 0;
	}
	if ((b = td_counting_sums_new(&c->plan, map_entries, &why))) {
		c->be->ops->free(c->be); /* the per-thread backend, with nothing opened yet */
		c->be = b;
		return 0;
	}
	if (mode == TD_COUNTING_BPF) {
		td_err_set(err,
			   "the BPF counting mode does not load: %.400s; use --counting=auto or --counting=per-thread",
			   why.msg);
		return -1;
	}
	snprintf(c->counting, sizeof(c->counting),
		 "counted with perf groups per thread: BPF counting did not load (%.500s)", why.msg);
	return 0;
}

int td_collector_follow_cgroup(struct td_collector *c, uint64_t id, int level, td_err *err)
{
	assert(c->be->ops->cgroup_follow);
	return c->be->ops->cgroup_follow(c->be, id, level, err);
}

int td_collector_cgroup_sample(struct td_collector *c, td_cgroup_counts_fn fn, void *ctx)
{
	assert(c->be->ops->cgroup_sample);
	return c->be->ops->cgroup_sample(c->be, fn, ctx) ? -1 : 0;
}

bool td_collector_counting_bpf(const struct td_collector *c)
{
	return c->be->ops->mode == TD_COUNTING_BPF;
}

const char *td_collector_counting(const struct td_collector *c)
{
	if (c->be->ops->describe)
		return c->be->ops->describe(c->be);
	return c->counting[0] ? c->counting : "counted with perf groups per thread";
}

int td_collector_counting_tag(const struct td_collector *c, char *buf, size_t len)
{
	return c->be->ops->program_tag ? c->be->ops->program_tag(c->be, buf, len) : -1;
}

int td_collector_counting_lost(const struct td_collector *c, char *buf, size_t len)
{
	return c->be->ops->lost ? c->be->ops->lost(c->be, buf, len) : 0;
}

int td_collector_counting_unseen(const struct td_collector *c, char *buf, size_t len)
{
	return c->be->ops->unseen ? c->be->ops->unseen(c->be, buf, len) : 0;
}

static bool listed_live(void *ctx, pid_t tid)
{
	return find_thread(ctx, tid) != NULL;
}

int td_collector_sample(struct td_collector *c, uint64_t now_ns, const struct td_sink *sink)
{
	struct td_counting *be = c->be;
	uint64_t total[TD_GROUP_MAX] = { 0 };
	bool have_total;
	int rc = 0;

	/* With BPF, take what happened since the last scan first (a ring buffer
	 * read): a thread that ran and ended before the roots are read below
	 * then gets its exit counts in this interval (take_exit_usage), where
	 * it would otherwise have been left in the remainder. A failure is the
	 * scan's, as on the scan timer: the interval is read all the same. */
	if (td_tracker_mode(c->tracker) == TD_TRACKER_BPF)
		scan_events(c, now_ns, sink);
	c->sampled = false;
	if ((rc = be->ops->read(be, now_ns,
				(c->finishing ? TD_SAMPLE_FINAL : 0) | (c->raw_dump ? TD_SAMPLE_EVERY : 0))))
		return rc;

	memset(c->family.pending, 0, sizeof(c->family.pending));
	have_total = read_roots(c, total);
	for (int i = 0; i < c->nthreads && rc == 0; i++) {
		struct td_thread *t = c->threads[i];
		/* listed gone at once is gone; only such a thread waits for its exit event */
		assert(!t->short_lived || t->gone);
		assert(!t->exit_seen || t->short_lived);
		/* a thread found gone at its birth has its exit event on the way (it
		 * was read before the thread died): wait for it, two samples at most
		 * (an event the ring buffer lost never comes) */
		t->kept_back = t->short_lived && !t->exit_seen && t->held < 2;
		if (t->kept_back) {
			t->held++;
			continue;
		}
		int read = be->ops->thread_read(be, t);
		if (!t->gone)
			t->last_seen_ns = seen_at(t, now_ns);
		if (read == TD_READ_QUIET)
			continue; /* nothing new: no row, nothing to commit */
		if (read == TD_READ_SAME) {
			listed_again(c, t);
			continue; /* its rows are delivered: what it counted since the commit, for the remainder */
		}
		t->settling = t->gone && !settled(c, t, now_ns);
		rc = deliver(c, t, now_ns, sink);
		if (rc == 0 && sink->thread_gone && t->gone && !t->settling && sink->thread_gone(sink->ctx, t))
			rc = -1;
	}
	if (rc == 0 && have_total)
		rc = deliver_unlisted(c, now_ns, sink, total);
	c->sampled = rc == 0;
	return rc;
}

void td_collector_commit(struct td_collector *c)
{
	struct family *f = &c->family;

	/* a commit takes what the last sample delivered, once: sample, then commit */
	assert(c->sampled);
	c->sampled = false;
	for (int k = 0; k < TD_GROUP_MAX; k++) {
		/* what the listed threads and the remainder were given only grows */
		assert(f->listed[k] + f->pending[k] >= f->listed[k] && f->given[k] + f->giving[k] >= f->given[k]);
		f->listed[k] += f->pending[k];
		f->given[k] += f->giving[k];
		f->pending[k] = f->giving[k] = 0;
	}
	if (f->unlisted) {
		f->sampled_ns = f->unlisted->last_seen_ns;
		f->unlisted->sampled_ns = f->unlisted->last_seen_ns;
	}
	for (int i = 0; i < c->nthreads; i++) {
		struct td_thread *t = c->threads[i];
		if (!t->kept_back)
			c->be->ops->thread_commit(c->be, t);
		t->sampled_ns = t->last_seen_ns;
	}
	/* forget the threads that are gone: their last counts are kept (not one
	 * the sample kept back: td_collector_sample) */
	for (int i = 0; i < c->nthreads;) {
		struct td_thread *t = c->threads[i];
		if (t->gone && !t->kept_back && !t->settling) {
			if (newest_thread(c, t->tid) == t)
				td_tid_map_del(&c->by_tid, (uint32_t)t->tid);
			free(c->threads[i]); /* gone: its backend holds nothing of it any more */
			c->threads[i] = c->threads[--c->nthreads];
		} else {
			i++;
		}
	}
	c->be->ops->commit(c->be, listed_live, c);
}

void td_collector_forget_ids(struct td_collector *c, int64_t above)
{
	/* what the remainder was given went with the rows: the next sample gives it afresh */
	memset(c->family.giving, 0, sizeof(c->family.giving));
	if (c->family.unlisted && c->family.unlisted->store_id > above)
		c->family.unlisted->store_id = 0;
	for (int i = 0; i < c->nthreads; i++) {
		if (c->threads[i]->store_id > above)
			c->threads[i]->store_id = 0;
		if (c->be->ops->thread_forget)
			c->be->ops->thread_forget(c->be, c->threads[i]);
	}
}

int td_collector_finish(struct td_collector *c, uint64_t now_ns, const struct td_sink *sink)
{
	int rc;

	td_collector_scan(c, now_ns, sink);
	/* the last switch counts of every thread: once, at the end */
	for (int i = 0; i < c->nthreads; i++)
		if (!c->threads[i]->gone)
			c->be->ops->thread_reread(c->be, c->threads[i], now_ns);
	c->finishing = true; /* every switch pair delivered, zeros too */
	rc = td_collector_sample(c, now_ns, sink);
	c->finishing = false;
	return rc;
}

void td_collector_set_rotation(struct td_collector *c, int ref_spec, const bool *rotated)
{
	c->ref_spec = ref_spec;
	td_counting_plan_set_rotation(&c->plan, ref_spec, rotated);
}

int td_collector_rotate(struct td_collector *c)
{
	int next, cur = c->plan.current;

	if (cur < 0 || (next = td_counting_plan_next_rotated(&c->plan, cur)) < 0 || next == cur)
		return -1;
	for (int i = 0; i < c->nthreads; i++) {
		struct td_thread *t = c->threads[i];
		if (t->gone)
			continue;
		c->be->ops->enable(c->be, t, cur, false);
		c->be->ops->enable(c->be, t, next, true);
	}
	c->plan.current = next;
	return next;
}

void td_collector_dump_raw(struct td_collector *c, FILE *f)
{
	c->raw_dump = f;
}

int td_collector_switch_cost(struct td_collector *c, struct td_switch_cost *out)
{
	return td_counting_switch_cost(c->be, out);
}
