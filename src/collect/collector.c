/* collector: per-thread perf_event groups, opened as threads appear, read
 * each interval into deltas, read a last time and closed when threads go. */
#include "collector.h"
#include "base/tid_map.h"
#include "credentials.h"
#include "counting.h"
#include "machine/procfs.h"
#include "tracker.h"

#include <assert.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

/* One root's inherited spec-0 group (see collector.h). Kept open after the
 * root thread exits: what it created may still run and count into it. */
struct root_total {
	struct td_perf_group pg;
	struct td_reading last;
	bool have_last;
};

/* Everything the roots' inherited groups counted, and how much of it the
 * listed threads and the unlisted pseudo-thread have been given. */
struct family {
	struct root_total *roots;
	int nroots;
	bool broken;                   /* a root's group could not be opened or read: no remainder */
	uint64_t listed[TD_GROUP_MAX];  /* spec 0 delivered to listed threads, committed */
	uint64_t pending[TD_GROUP_MAX]; /* ... in the sample not yet committed */
	uint64_t given[TD_GROUP_MAX];   /* delivered to the unlisted pseudo-thread, committed */
	uint64_t giving[TD_GROUP_MAX];  /* ... in the sample not yet committed */
	uint64_t sampled_ns;           /* end of the last committed sample */
	uint64_t roots_read_ns;        /* when the roots' groups were last read */
	struct td_thread *unlisted;    /* the pseudo-thread (tid TD_TID_UNLISTED), NULL before a root */
};

struct td_collector {
	struct td_perf_group_spec specs[TD_MAX_SPECS];
	int nspecs;
	bool decided[TD_MAX_SPECS];   /* first open attempted: counting or disabled */
	char disabled[TD_MAX_SPECS][300];
	int paranoid;
	struct td_tracker *tracker;
	bool follow_children;
	bool sum_cgroups;              /* the BPF program is loaded to sum cgroups (record --cgroup) */
	struct td_thread **threads;
	int nthreads, cap;
	struct td_tid_map by_tid;      /* the newest thread listed with each tid (gone or not) */
	/* record --cgroup with BPF counting: the cgroup summed, and its sums as of the
	 * last sample committed (prev) and the last sample (pending, committed with it) */
	uint64_t cgroup_id;
	struct td_bpf_thread_sums cgroup_prev, cgroup_pending;
	unsigned pending_flags;        /* for the next thread opened */
	int fd_budget;                 /* descriptors the groups may use, below RLIMIT_NOFILE */
	struct td_collector_stats stats;
	int ref_spec;                  /* always-on reference of a rotation, -1 none */
	bool rotated[TD_MAX_SPECS];
	int current;                   /* rotated spec enabled now, -1 none */
	FILE *raw_dump;
	bool adding;                   /* td_collector_add_process in progress: the threads it lists are roots */
	pid_t adding_pid;              /* ... of this process, followed by the BPF program just before */
	struct family family;
	bool open_as;                  /* counters opened with as_uid/as_gid (td_collector_open_as) */
	uid_t as_uid;
	gid_t as_gid;
	int switch_cursor;             /* the next thread whose /proc switch counts a scan reads */
	bool young_comms;              /* some thread's comm is still re-read by scans (refresh_young_comms) */
	bool finishing;                /* td_collector_finish's sample: nothing waits */
	/* BPF counting mode (td_collector_set_counting): NULL counts per thread */
	struct td_bpf_counting *bpf;
	int bpf_base[TD_MAX_SPECS];    /* spec g's first event in the BPF program's list */
	int bpf_events;                /* events in that list */
	char counting[600];            /* the mode and why, for the user */
};

/* Descriptors kept free for the database, timers, /proc reads and the rest. */
#define TD_FD_RESERVE 64

struct td_collector *td_collector_new(const struct td_perf_group_spec *specs, int nspecs, bool follow_children,
				      int paranoid)
{
	struct td_collector *c;

	if (nspecs > TD_MAX_SPECS || !(c = calloc(1, sizeof(*c))))
		return NULL;
	memcpy(c->specs, specs, (size_t)nspecs * sizeof(*specs));
	c->nspecs = nspecs;
	c->paranoid = paranoid;
	c->ref_spec = c->current = -1;
	{
		struct rlimit rl;
		/* under a small limit (ulimit -n 64) a fixed reserve would leave
		 * nothing to count with: keep half the limit for tdctl then */
		c->fd_budget = getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < (rlim_t)INT32_MAX
				       ? (int)rl.rlim_cur - (rl.rlim_cur < 4 * TD_FD_RESERVE ? (int)rl.rlim_cur / 2
										: TD_FD_RESERVE)
				       : INT32_MAX;
		if (c->fd_budget < 8)
			c->fd_budget = 8;
	}
	c->follow_children = follow_children;
	if (!(c->tracker = td_tracker_new(follow_children, TD_TRACKER_PROC, NULL))) {
		free(c);
		return NULL;
	}
	return c;
}

static void close_thread(struct td_collector *c, struct td_thread *t)
{
	for (int g = 0; g < c->nspecs; g++)
		if (t->g[g].open) {
			c->stats.fds_open -= td_perf_group_fd_count(&t->g[g].pg);
			td_perf_group_close(&t->g[g].pg);
			t->g[g].open = false;
		}
}

void td_collector_free(struct td_collector *c)
{
	if (!c)
		return;
	for (int i = 0; i < c->nthreads; i++) {
		close_thread(c, c->threads[i]);
		free(c->threads[i]);
	}
	free(c->threads);
	td_tid_map_free(&c->by_tid);
	for (int i = 0; i < c->family.nroots; i++)
		td_perf_group_close(&c->family.roots[i].pg);
	free(c->family.roots);
	free(c->family.unlisted);
	td_bpf_counting_free(c->bpf);
	td_tracker_free(c->tracker);
	free(c);
}

int td_collector_set_tracker(struct td_collector *c, enum td_tracker_mode mode, td_err *err)
{
	struct td_tracker *t;

	assert(c->nthreads == 0 && td_tracker_process_count(c->tracker) == 0);
	if (mode == TD_TRACKER_PROC && td_tracker_mode(c->tracker) == TD_TRACKER_PROC)
		return 0;
	if (!(t = td_tracker_new(c->follow_children, mode, err)))
		return -1;
	td_tracker_free(c->tracker);
	c->tracker = t;
	return 0;
}

const char *td_collector_tracker(const struct td_collector *c)
{
	return td_tracker_describe(c->tracker);
}

const char *td_collector_disabled(const struct td_collector *c, int spec)
{
	return c->disabled[spec][0] ? c->disabled[spec] : NULL;
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
	st->unlisted_counted = (c->family.nroots > 0 || (c->bpf && c->family.unlisted)) && !c->family.broken;
	st->threads_live = 0;
	for (int i = 0; i < c->nthreads; i++)
		st->threads_live += !c->threads[i]->gone;
}

static bool machine_cannot_count(int err)
{
	return err == ENOENT || err == EOPNOTSUPP || err == EINVAL || err == ENODEV;
}

/* What running out of descriptors means for this target, in numbers. */
static void describe_fd_shortage(const struct td_collector *c, char *buf, size_t len)
{
	struct rlimit rl;
	int per_thread = 0, live = 0;

	for (int g = 0; g < c->nspecs; g++)
		if (!c->disabled[g][0])
			per_thread += c->specs[g].n;
	for (int i = 0; i < c->nthreads; i++)
		live += !c->threads[i]->gone;
	getrlimit(RLIMIT_NOFILE, &rl);
	snprintf(buf, len,
		 "out of file descriptors: %d threads so far x %d events need %d descriptors plus %d for tdctl, the "
		 "limit is %llu (hard limit %llu); raise the hard limit (ulimit -Hn, LimitNOFILE=) or count "
		 "fewer events", live + c->stats.open_failures + 1, per_thread,
		 (live + c->stats.open_failures + 1) * per_thread,
		 rl.rlim_cur < (rlim_t)INT32_MAX && (int)rl.rlim_cur > c->fd_budget ? (int)rl.rlim_cur - c->fd_budget
										     : TD_FD_RESERVE,
		 (unsigned long long)rl.rlim_cur, (unsigned long long)rl.rlim_max);
}

void td_collector_open_as(struct td_collector *c, uid_t uid, gid_t gid)
{
	c->open_as = true;
	c->as_uid = uid;
	c->as_gid = gid;
}

/* td_perf_group_open, with the open_as credentials when set. A failure to
 * take them is -EPERM with why filled; the caller says it as any refusal. */
static int group_open(struct td_collector *c, struct td_perf_group *pg, int spec, pid_t tid, unsigned flags,
		      int *failed, char *why, size_t whylen)
{
	td_err err;
	int rc;

	if (c->open_as && td_creds_enter(c->as_uid, c->as_gid, &err)) {
		snprintf(why, whylen, "%.290s", err.msg); /* td_creds_enter says less than that */
		return -EPERM;
	}
	rc = td_perf_group_open(pg, &c->specs[spec], tid, -1, flags, failed);
	if (c->open_as)
		td_creds_leave();
	return rc;
}

/* The message for a counter refused on thread tid: under open_as, the kernel's
 * answer for the client (why already filled when the ids could not be taken). */
static void refusal(const struct td_collector *c, int rc, int spec, int failed, pid_t pid, pid_t tid, char *why,
		    size_t len)
{
	if (why[0])
		return;
	if (c->open_as && (rc == -EACCES || rc == -EPERM))
		snprintf(why, len, "uid %u may not count thread %d of process %d (the kernel refuses: it runs as "
			 "another user now, after a setuid exec, or is not dumpable)", (unsigned)c->as_uid, (int)tid,
			 (int)pid);
	else
		td_perf_strerror(-rc, c->specs[spec].names[failed], c->paranoid, why, len);
}

/* Open every enabled group on a new thread. Returns 0, OPEN_EXITED when
 * the thread exited before it could be opened, OPEN_FAILED when it could
 * not be opened (counted in the stats), or -1 with err set (fatal). */
enum { OPEN_EXITED = 1, OPEN_FAILED = 2 };

static int open_groups(struct td_collector *c, struct td_thread *t, unsigned flags, td_err *err)
{
	if (c->bpf)
		return 0; /* counted by the BPF program: nothing to open per thread */
	for (int g = 0; g < c->nspecs; g++) {
		int failed = 0, rc;
		char why[300] = "";

		if (c->disabled[g][0])
			continue;
		if (c->stats.fds_open + c->specs[g].n > c->fd_budget)
			rc = -EMFILE; /* keep the reserve: the rest of tdctl needs descriptors too */
		else
			rc = group_open(c, &t->g[g].pg, g, t->tid,
					c->rotated[g] && g != c->current ? TD_OPEN_DISABLED : flags, &failed, why,
					sizeof(why));
		if (rc == 0) {
			t->g[g].open = true;
			c->decided[g] = true;
			c->stats.fds_open += td_perf_group_fd_count(&t->g[g].pg);
			continue;
		}
		/* ESRCH: the thread is gone; ENODEV on a group that opened before: it is exiting */
		if (rc == -ESRCH || (rc == -ENODEV && c->decided[g])) {
			close_thread(c, t);
			return OPEN_EXITED;
		}
		refusal(c, rc, g, failed, t->pid, t->tid, why, sizeof(why));
		if (rc == -EMFILE || rc == -ENFILE)
			describe_fd_shortage(c, why, sizeof(why));
		if (!c->decided[g] && machine_cannot_count(-rc) && g > 0) {
			/* an optional group (hardware events) this machine cannot count */
			snprintf(c->disabled[g], sizeof(c->disabled[g]), "%s", why);
			c->decided[g] = true;
			continue;
		}
		if (!c->decided[g]) {
			close_thread(c, t);
			td_err_set(err, "%s", why);
			return -1;
		}
		/* worked before, fails now (descriptors exhausted, ...): keep going */
		c->stats.open_failures++;
		snprintf(c->stats.last_failure, sizeof(c->stats.last_failure), "%s", why);
		close_thread(c, t);
		return OPEN_FAILED;
	}
	return 0;
}

/* Open a root's inherited spec 0 (see collector.h). A failure leaves the
 * family without a remainder (said in the stats), never the session. */
static void add_root(struct td_collector *c, const struct td_thread *t, unsigned flags, uint64_t now)
{
	struct family *f = &c->family;
	struct root_total *r;
	int failed = 0, rc;
	char why[300] = "";

	if (f->broken || c->disabled[0][0] || c->specs[0].n == 0)
		return;
	if (!f->unlisted) {
		if (!(f->unlisted = calloc(1, sizeof(*f->unlisted) + (size_t)c->nspecs * sizeof(f->unlisted->g[0])))) {
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
	if (c->bpf)
		return; /* the total is the BPF program's per-process sums: read_roots */
	if (!(r = td_array_push(&f->roots, &f->nroots, sizeof(*f->roots)))) {
		f->broken = true;
		snprintf(c->stats.unlisted_why, sizeof(c->stats.unlisted_why), "out of memory");
		return;
	}
	memset(r, 0, sizeof(*r));
	if (c->stats.fds_open + c->specs[0].n > c->fd_budget)
		rc = -EMFILE;
	else
		rc = group_open(c, &r->pg, 0, t->tid, flags | TD_OPEN_INHERIT, &failed, why, sizeof(why));
	if (rc == 0) {
		c->stats.fds_open += td_perf_group_fd_count(&r->pg);
		return;
	}
	f->nroots--;
	if (rc == -ESRCH)
		return; /* the thread is gone already: nothing of it to count */
	refusal(c, rc, 0, failed, t->pid, t->tid, why, sizeof(why));
	if (rc == -EMFILE || rc == -ENFILE)
		describe_fd_shortage(c, why, sizeof(why));
	f->broken = true;
	snprintf(c->stats.unlisted_why, sizeof(c->stats.unlisted_why), "the inherited counters of thread %d could not "
		 "be opened (%.200s)", (int)t->tid, why);
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

static void read_proc_switches(const struct td_collector *c, struct td_thread *t, uint64_t now)
{
	uint64_t vol, invol;

	if (c->bpf)
		return; /* the BPF program counts them: bpf_readings */
	if (td_proc_ctxt_switches(t->pid, t->tid, &vol, &invol) == 0) {
		t->last_sw[0] = vol;
		t->last_sw[1] = invol;
		t->sw_ns = now;
		t->have_sw = true;
	}
}

/* Do the real, effective and saved uids of process pid all equal uid (the
 * kernel's ptrace-mode rule on uids)? False when it is gone. */
static bool owned_by(pid_t pid, uid_t uid)
{
	uid_t ids[3];

	if (td_proc_uids(pid, ids))
		return false;
	return ids[0] == uid && ids[1] == uid && ids[2] == uid;
}

/* A thread the tracker reported born: listed with its groups open. One
 * gone before they open is listed only when the BPF tracker saw it (its
 * name and times come from the events, its counts from its exit event or
 * else the unlisted remainder: take_exit_usage), never from /proc (a TID
 * that vanished may be anything). */
static int thread_born(struct td_collector *c, const struct td_task_event *ev, uint64_t now, const struct td_sink *sink,
		       td_err *err)
{
	bool from_events = td_tracker_mode(c->tracker) == TD_TRACKER_BPF;
	struct td_thread *t;
	int rc;

	if (find_thread(c, ev->tid))
		return 0;
	if (!(t = calloc(1, sizeof(*t) + (size_t)c->nspecs * sizeof(t->g[0])))) {
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
	t->sampled_ns = now;
	if (c->bpf) {
		t->sampled_ns = t->first_seen_ns; /* counted from its birth: nothing of it delivered yet */
		t->sw_ns = t->prev_sw_ns = t->sampled_ns; /* ... its switches too (bpf_readings): their span starts there */
	}
	if (ev->comm[0])
		snprintf(t->comm, sizeof(t->comm), "%s", ev->comm);
	else if (td_proc_comm(ev->pid, ev->tid, t->comm, sizeof(t->comm)) != 0)
		t->comm[0] = '\0';
	rc = open_groups(c, t, c->pending_flags, err);
	/* gone before it opened: under open_as, listed only from a process that is still the client's */
	if (rc == OPEN_EXITED && c->open_as && !owned_by(ev->pid, c->as_uid))
		rc = OPEN_FAILED;
	if (rc < 0 || rc == OPEN_FAILED || (rc == OPEN_EXITED && !from_events)) {
		free(t);
		return rc < 0 ? -1 : 0;
	}
	if (rc == OPEN_EXITED) {
		t->gone = t->short_lived = true; /* born and gone since the last scan: listed, nothing to read */
		t->last_seen_ns = t->first_seen_ns;
		c->stats.threads_short++;
	} else {
		/* a child process (the first time); one another session of this process
		 * follows with the program this one shares has its sums there: not
		 * listed here (zeros would pass for counts), and said */
		if (c->bpf && !(c->adding && t->pid == c->adding_pid) &&
		    td_bpf_counting_follow(c->bpf, t->pid) == -EEXIST) {
			c->stats.open_failures++;
			snprintf(c->stats.last_failure, sizeof(c->stats.last_failure), "process %d (thread %d) is counted "
				 "by another session of this process with the same BPF program; attach it in a session of its "
				 "own", (int)t->pid, (int)t->tid);
			close_thread(c, t);
			free(t);
			return 0;
		}
		if (c->adding)
			add_root(c, t, c->pending_flags, now); /* a thread the process (or tree) has as it is added */
		c->pending_flags = 0;
		read_proc_switches(c, t, now);
		t->prev_sw[0] = t->last_sw[0];
		t->prev_sw[1] = t->last_sw[1];
		t->prev_sw_ns = t->sw_ns;
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
		close_thread(c, t);
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

/* Take the last reading of a thread that exited and close its descriptors. */
static void thread_gone(struct td_collector *c, struct td_thread *t, const struct td_task_event *ev, uint64_t now)
{
	for (int g = 0; g < c->nspecs; g++)
		if (t->g[g].open && td_perf_group_read(&t->g[g].pg, &t->g[g].last) == 0)
			t->g[g].have_last = true;
	close_thread(c, t);
	t->gone = true;
	/* when it exited, if the tracker knows, but never before what was already delivered of it */
	t->last_seen_ns = ev->time_ns > t->sampled_ns && ev->time_ns < now ? ev->time_ns : now;
	/* born after the sample's time was taken (its events are read after): its exit, never before its birth */
	if (t->last_seen_ns < t->first_seen_ns)
		t->last_seen_ns = ev->time_ns > t->first_seen_ns ? ev->time_ns : t->first_seen_ns;
	if (ev->comm[0])
		snprintf(t->comm, sizeof(t->comm), "%s", ev->comm); /* its name at exit */
}

/* A thread listed gone at once has no groups of its own; what the kernel
 * accounted to it over its life (the BPF tracker's exit event) becomes its
 * spec-0 counts when every event of spec 0 is one the kernel keeps per
 * task (software.td's are). Delivered as its own, they leave the unlisted
 * remainder, as a listed thread's counts do; otherwise they stay in it.
 * Only for a thread born after the roots were last read: one that ran
 * before may be in what the remainder delivered already (never twice). */
static void take_exit_usage(struct td_collector *c, struct td_thread *t, const struct td_task_event *ev)
{
	const struct td_perf_group_spec *s = &c->specs[0];
	const struct td_task_usage *u = &ev->usage;
	struct td_reading r = { 0 };
	uint64_t life = t->last_seen_ns > t->first_seen_ns ? t->last_seen_ns - t->first_seen_ns : 0;

	if (!ev->have_usage || c->nspecs == 0 || c->disabled[0][0] || s->n == 0 || t->g[0].have_last)
		return;
	if (c->family.nroots > 0 && !c->family.broken && t->first_seen_ns <= c->family.roots_read_ns)
		return;
	for (int k = 0; k < s->n; k++) {
		if (s->attrs[k].type != PERF_TYPE_SOFTWARE)
			return;
		switch (s->attrs[k].config) {
		case PERF_COUNT_SW_TASK_CLOCK:
		case PERF_COUNT_SW_CPU_CLOCK: r.value[k] = u->runtime_ns; break;
		case PERF_COUNT_SW_CONTEXT_SWITCHES: r.value[k] = u->voluntary + u->involuntary; break;
		case PERF_COUNT_SW_CPU_MIGRATIONS: r.value[k] = u->migrations; break;
		case PERF_COUNT_SW_PAGE_FAULTS: r.value[k] = u->minor_faults + u->major_faults; break;
		case PERF_COUNT_SW_PAGE_FAULTS_MIN: r.value[k] = u->minor_faults; break;
		case PERF_COUNT_SW_PAGE_FAULTS_MAJ: r.value[k] = u->major_faults; break;
		default: return;
		}
	}
	/* counted for the whole of its life (never less than it ran: two clocks) */
	r.enabled = r.running = life > u->runtime_ns ? life : u->runtime_ns;
	t->g[0].prev = (struct td_reading){ 0 };
	t->g[0].last = r;
	t->g[0].have_last = true;
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
			   td_tracker_mode(c->tracker) == TD_TRACKER_BPF ? "BPF ring buffer" : "/proc rescan", strerror(-n));
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

static void bpf_note(struct td_collector *c);

static int add_process(struct td_collector *c, pid_t pid, unsigned flags, bool tree, const struct td_sink *sink,
		       td_err *err)
{
	int rc = c->bpf ? td_bpf_counting_follow(c->bpf, pid) : 0;

	if (rc == -EEXIST && c->nthreads == 0) {
		/* another session of this process follows it with the program this one
		 * shares: its threads' sums would be that session's. A program of its own */
		td_err why;
		if (td_bpf_counting_unshare(c->bpf, &why)) {
			td_err_set(err, "cannot follow PID %d: another session counts it with BPF, and a second BPF "
				   "program does not load: %.400s; use --counting=per-thread", (int)pid, why.msg);
			return -1;
		}
		bpf_note(c);
		rc = td_bpf_counting_follow(c->bpf, pid);
	}
	if (rc == -EEXIST) {
		td_err_set(err, "cannot follow PID %d: another session of this process counts it with BPF; attach it "
			   "in a session of its own", (int)pid);
		return -1;
	}
	if (rc == 0)
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

int td_collector_add_process(struct td_collector *c, pid_t pid, unsigned flags, const struct td_sink *sink,
			     td_err *err)
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

/* A few threads in turn: their /proc switch counts, and without the BPF
 * tracker their names (threads rename themselves: pools, workers). */
static void reread_in_turn(struct td_collector *c, uint64_t now_ns)
{
	int n = c->nthreads < TD_SWITCH_READS_PER_SCAN ? c->nthreads : TD_SWITCH_READS_PER_SCAN;

	for (int k = 0; k < n; k++) {
		struct td_thread *t = c->threads[c->switch_cursor++ % c->nthreads];
		if (t->gone || t->tid == TD_TID_UNLISTED)
			continue;
		read_proc_switches(c, t, now_ns);
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

/* Enabled time of the thread's reference group over this interval, or -1. */
static int64_t ref_enabled(const struct td_collector *c, const struct td_thread *t)
{
	int r = c->ref_spec;

	if (r < 0 || !t->g[r].have_last)
		return -1;
	return (int64_t)(t->g[r].last.enabled - t->g[r].prev.enabled);
}

/* A rotated group's delta in the reference's time base (see collector.h). */
static void rebase(struct td_count *d, int n, int64_t ref)
{
	for (int i = 0; i < n; i++)
		d[i].enabled = (uint64_t)ref > d[i].running ? (uint64_t)ref : d[i].running;
}

static bool nothing_counted(const struct td_count *d, int n)
{
	for (int k = 0; k < n; k++)
		if (d[k].value || d[k].enabled || d[k].running)
			return false;
	return true;
}

static int deliver(struct td_collector *c, struct td_thread *t, uint64_t now_ns, const struct td_sink *sink)
{
	struct td_count d[TD_GROUP_MAX];
	int64_t ref = ref_enabled(c, t);

	for (int g = 0; g < c->nspecs; g++) {
		if (!t->g[g].have_last)
			continue;
		td_reading_delta(&t->g[g].prev, &t->g[g].last, c->specs[g].n, d);
		if (c->raw_dump)
			fprintf(c->raw_dump, "%llu %d %d %llu %llu %llu %lld\n", (unsigned long long)now_ns, (int)t->tid, g,
				(unsigned long long)d[0].value, (unsigned long long)d[0].enabled,
				(unsigned long long)d[0].running, (long long)ref);
		if (g == 0)
			for (int k = 0; k < c->specs[0].n; k++)
				c->family.pending[k] += d[k].value;
		if (c->rotated[g] && ref >= 0)
			rebase(d, c->specs[g].n, ref);
		/* BPF counting: the program adds to a thread's sums at each of its
		 * switches and at every read, so a delta with nothing counted and no
		 * time enabled is a thread that did not run in the interval (exactly
		 * 0). Most of 1,000 threads do not run in a given 100 ms: after its
		 * first row, a thread has rows only in the intervals it ran in
		 * (docs/schema.md), and in the last: the final write is every
		 * thread's last sighting (its row's last_seen_ns, its time alive).
		 * Per-thread groups keep every row. */
		t->g[g].giving = false;
		if (c->bpf && t->g[g].given && !c->finishing && nothing_counted(d, c->specs[g].n))
			continue;
		t->g[g].giving = true;
		if (sink->counts && sink->counts(sink->ctx, t, g, d, c->specs[g].n))
			return -1;
	}
	/* Switch counts read again since the last commit (td_collector_scan, the final read).
	 * A thread that is gone has no /proc entry left to read: its switch counts end at its
	 * last read. Nothing is known of the time since, so nothing is delivered for it (a
	 * "not counted" row would make the thread's whole total unknown). */
	t->sw_held = false;
	if (t->have_sw && t->sw_ns > t->prev_sw_ns) {
		/* /proc counters are exact: counted for all the time between the two reads */
		uint64_t span = t->sw_ns - t->prev_sw_ns;
		for (int k = 0; k < 2; k++) {
			d[k].value = t->last_sw[k] >= t->prev_sw[k] ? t->last_sw[k] - t->prev_sw[k] : 0;
			d[k].enabled = d[k].running = span;
		}
		/* BPF counting reads every thread's switches every interval, and most of 1,000
		 * threads did not switch in one: such a thread's pair waits, as a /proc pair
		 * waits for its next read, and the row delivered next spans the time since
		 * the last one (never past its end: the last sample and its exit deliver) */
		t->sw_held = c->bpf && !d[0].value && !d[1].value && !t->gone && !c->finishing;
		if (!t->sw_held && sink->counts && sink->counts(sink->ctx, t, TD_SPEC_PROC, d, 2))
			return -1;
	}
	return 0;
}

/* Read the roots' inherited groups: everything the target ran so far, into
 * total. false when there is no remainder to deliver (or a root was never
 * read yet). Done before the threads are read (td_collector_sample). */
static bool read_roots(struct td_collector *c, uint64_t *total)
{
	struct family *f = &c->family;

	if (c->bpf && f->unlisted && !f->broken) {
		/* read by td_bpf_counting_read before the threads' sums, as groups would be */
		const uint64_t *all = td_bpf_counting_totals(c->bpf);
		for (int k = 0; k < c->specs[0].n; k++)
			total[k] += all[c->bpf_base[0] + k];
		f->roots_read_ns = td_wall_ns();
		return true;
	}
	if (!f->unlisted || f->broken || f->nroots == 0)
		return false;
	for (int i = 0; i < f->nroots; i++) {
		struct root_total *r = &f->roots[i];
		if (td_perf_group_read(&r->pg, &r->last) == 0)
			r->have_last = true;
		if (!r->have_last)
			return false; /* not read yet: next time */
		for (int k = 0; k < c->specs[0].n; k++)
			total[k] += r->last.value[k];
	}
	f->roots_read_ns = td_wall_ns();
	return true;
}

/* Deliver what the roots' inherited groups counted (total, read first)
 * beyond the listed threads (read after) since the last commit, as the
 * unlisted pseudo-thread's spec 0. The listed threads ran a little more
 * by the time they were read, so one interval's remainder can come out
 * below what was given already: then nothing is delivered until the total
 * catches up. Read in this order, given never exceeds what the kernel
 * counted beyond the listed threads, and nothing is given twice: with the
 * roots read last, what listed threads ran between the two reads (long,
 * when tdctl waits for a CPU) was given to the remainder and delivered to
 * them again the next interval. */
static int deliver_unlisted(struct td_collector *c, uint64_t now_ns, const struct td_sink *sink, const uint64_t *total)
{
	struct family *f = &c->family;
	struct td_count d[TD_GROUP_MAX];
	uint64_t span = now_ns > f->sampled_ns ? now_ns - f->sampled_ns : 0;
	int n = c->specs[0].n;

	for (int k = 0; k < n; k++) {
		uint64_t accounted = f->listed[k] + f->pending[k] + f->given[k];
		f->giving[k] = total[k] > accounted ? total[k] - accounted : 0;
		d[k] = (struct td_count){ f->giving[k], span, span };
	}
	f->unlisted->last_seen_ns = now_ns;
	return sink->counts ? sink->counts(sink->ctx, f->unlisted, 0, d, n) : 0;
}

/* ---- BPF counting mode (counting.h) ------------------------------------- */

static bool only_software(const struct td_perf_group_spec *s)
{
	for (int k = 0; k < s->n; k++)
		if (s->attrs[k].type != PERF_TYPE_SOFTWARE)
			return false;
	return true;
}

/* A group with hardware events is counted by the BPF program too (one
 * group per CPU, the kernel multiplexing them when they outnumber the
 * counters: each thread's enabled and running say so), when this machine
 * counts it: tried on this thread first. 0: it counts; 1: this machine
 * cannot count it (then it is disabled, as its first open on a thread
 * would); -1 with why when it fails otherwise. */
static int hardware_countable(struct td_collector *c, int g, char *why, size_t len)
{
	struct td_perf_group pg;
	int failed = 0, rc = td_perf_group_open(&pg, &c->specs[g], 0, -1, TD_OPEN_DISABLED, &failed);

	if (rc == 0) {
		td_perf_group_close(&pg);
		return 0;
	}
	td_perf_strerror(-rc, c->specs[g].names[failed], c->paranoid, c->disabled[g], sizeof(c->disabled[g]));
	if (g > 0 && machine_cannot_count(-rc)) {
		c->decided[g] = true;
		return 1;
	}
	snprintf(why, len, "%.400s", c->disabled[g]);
	c->disabled[g][0] = '\0';
	return -1;
}

/* The mode, for the user: which program, its counters and map, and whether
 * it is shared with other sessions of this process. */
static void bpf_note(struct td_collector *c)
{
	struct td_bpf_counting_stats st;
	int n = c->bpf_events;

	td_bpf_counting_stats(c->bpf, &st);
	snprintf(c->counting, sizeof(c->counting), "counted by BPF at each context switch (%s sched_switch, "
		 "%d event%s per CPU; sums map of %d threads, %.1f MiB in the kernel, mapped by tdctl, which copies "
		 "%zu bytes a thread%s)",
		 td_bpf_counting_flavour(c->bpf), n, n == 1 ? "" : "s", st.map_entries,
		 (double)st.kernel_bytes / (1024.0 * 1024.0), sizeof(struct td_bpf_thread_sums),
		 td_bpf_counting_joined(c->bpf) ? "; program, counters and map shared with the other sessions of this "
						  "process that count the same events" : "");
}

void td_collector_sum_cgroups(struct td_collector *c)
{
	assert(!c->bpf);
	c->sum_cgroups = true;
}

int td_collector_set_counting(struct td_collector *c, enum td_counting_mode mode, int map_entries, td_err *err)
{
	struct perf_event_attr attrs[TD_BPF_COUNT_MAX] = { { 0 } };
	bool leads[TD_BPF_COUNT_MAX] = { false };
	char why[500] = "";
	td_err load;
	int n = 0;

	assert(c->nthreads == 0 && !c->bpf);
	if (mode == TD_COUNTING_PER_THREAD) {
		snprintf(c->counting, sizeof(c->counting), "counted with perf groups per thread (--counting=per-thread)");
		return 0;
	}
	for (int g = 0; g < c->nspecs && n >= 0; g++) {
		c->bpf_base[g] = n;
		if (!only_software(&c->specs[g]) && hardware_countable(c, g, why, sizeof(why)) < 0) {
			n = -1;
			break;
		}
		if (c->disabled[g][0])
			continue;
		if (n + c->specs[g].n > TD_BPF_COUNT_MAX) {
			snprintf(why, sizeof(why), "the plan has more than %d events", TD_BPF_COUNT_MAX);
			n = -1;
			break;
		}
		memcpy(attrs + n, c->specs[g].attrs, (size_t)c->specs[g].n * sizeof(attrs[0]));
		leads[n] = true; /* each spec one group per CPU: its events are counted together */
		n += c->specs[g].n;
	}
	if (n >= 0)
		c->bpf = td_bpf_counting_new(attrs, leads, n,
					     (c->follow_children ? TD_BPF_FOLLOW_CHILDREN : 0) |
					     (c->sum_cgroups ? TD_BPF_SUM_CGROUPS : 0), map_entries, &load);
	if (n >= 0 && !c->bpf)
		snprintf(why, sizeof(why), "%.490s", load.msg);
	if (c->bpf) {
		c->bpf_events = n;
		bpf_note(c);
		return 0;
	}
	if (mode == TD_COUNTING_BPF) {
		td_err_set(err, "the BPF counting mode does not load: %s; use --counting=auto or --counting=per-thread", why);
		return -1;
	}
	snprintf(c->counting, sizeof(c->counting), "counted with perf groups per thread: BPF counting did not load (%s)",
		 why);
	return 0;
}

int td_collector_follow_cgroup(struct td_collector *c, uint64_t id, int level, td_err *err)
{
	int rc;

	assert(c->bpf && !c->cgroup_id);
	if ((rc = td_bpf_counting_follow_cgroup(c->bpf, id, level)) == 0) {
		c->cgroup_id = id;
		return 0;
	}
	if (rc == -EEXIST)
		td_err_set(err, "this cgroup is summed by another session of this process with the same BPF program; "
			   "record it there, or with --counting=per-thread (perf's cgroup events on every CPU)");
	else if (rc == -E2BIG)
		td_err_set(err, "the BPF program sums %d cgroups at most, %d levels deep at most: record this one with "
			   "--counting=per-thread (perf's cgroup events on every CPU)", TD_BPF_COUNT_CGROUPS,
			   TD_BPF_CGROUP_LEVELS - 1);
	else
		td_err_set(err, "cannot sum the cgroup in the BPF program: %s", strerror(-rc));
	return -1;
}

int td_collector_cgroup_sample(struct td_collector *c, td_cgroup_counts_fn fn, void *ctx)
{
	struct td_bpf_thread_sums now;
	struct td_count d[TD_GROUP_MAX];
	int rc;

	assert(c->bpf && c->cgroup_id);
	/* read as of now: the flush before (td_collector_sample) brought the running threads' sums up to it */
	if ((rc = td_bpf_counting_cgroup(c->bpf, c->cgroup_id, &now)) < 0)
		return rc;
	for (int g = 0; g < c->nspecs; g++) {
		int base = c->bpf_base[g];
		if (c->disabled[g][0] || c->specs[g].n == 0)
			continue;
		for (int k = 0; k < c->specs[g].n; k++)
			d[k] = (struct td_count){ .value = now.value[base + k] - c->cgroup_prev.value[base + k],
						  .enabled = now.enabled[base] - c->cgroup_prev.enabled[base],
						  .running = now.running[base] - c->cgroup_prev.running[base] };
		if (fn(ctx, g, d, c->specs[g].n))
			return -1;
	}
	c->cgroup_pending = now; /* the baseline once the interval is committed (td_collector_commit) */
	return 0;
}

bool td_collector_counting_bpf(const struct td_collector *c)
{
	return c->bpf != NULL;
}

const char *td_collector_counting(const struct td_collector *c)
{
	return c->counting[0] ? c->counting : "counted with perf groups per thread";
}

int td_collector_counting_lost(const struct td_collector *c, char *buf, size_t len)
{
	struct td_bpf_counting_stats st;

	if (!c->bpf)
		return 0;
	td_bpf_counting_stats(c->bpf, &st);
	if (!st.lost_switches && !st.read_errors)
		return 0;
	if (st.lost_switches)
		snprintf(buf, len, "BPF counting: the sums map (%d threads, at most %d used) was full for %llu context "
			 "switch%s of followed threads%s: %.3f s of their CPU time and its counts went to no thread (they "
			 "are in the unlisted remainder); raise --bpf-map-entries", st.map_entries, st.peak_entries,
			 (unsigned long long)st.lost_switches, st.lost_switches == 1 ? "" : "es",
			 td_bpf_counting_sharers(c->bpf) ? " (of every session sharing the program)" : "",
			 (double)st.lost_oncpu_ns / 1e9);
	else
		snprintf(buf, len, "BPF counting: %llu counter read%s at a context switch failed: what the counters "
			 "counted then went to the next thread switched out on that CPU", (unsigned long long)st.read_errors,
			 st.read_errors == 1 ? "" : "s");
	return 1;
}

int td_collector_counting_unseen(const struct td_collector *c, char *buf, size_t len)
{
	struct td_bpf_counting_stats st;

	if (!c->bpf)
		return 0;
	td_bpf_counting_stats(c->bpf, &st);
	if (!st.unseen_switches)
		return 0;
	snprintf(buf, len, "%llu reading%s of a CPU's counters came after a context switch the program did not see%s: "
		 "the %.3f ms counted since the switch before went to no thread or process",
		 (unsigned long long)st.unseen_switches, st.unseen_switches == 1 ? "" : "s",
		 td_bpf_counting_sharers(c->bpf) ? " (on all CPUs, for every session sharing the program)" : " (on all CPUs)",
		 (double)st.unseen_ns / 1e6);
	return 1;
}

/* The seq of tid's slot + 2, 1 when it has none (td_thread's bpf_seq_*). */
static uint64_t bpf_seq(const struct td_collector *c, pid_t tid, const struct td_bpf_thread_sums **s)
{
	*s = td_bpf_counting_find(c->bpf, tid);
	return *s ? (*s)->seq + 2 : 1;
}

/* A thread BPF counting has nothing new of since the interval last
 * committed: its slot unchanged since the readings committed (so last is
 * prev, and every delta 0), a row of each group delivered already, not
 * the last sample. Its turn costs nothing: deliver would send no row (the
 * program saw it not run) and commit would copy last onto itself. */
static bool bpf_quiet(const struct td_collector *c, const struct td_thread *t)
{
	const struct td_bpf_thread_sums *s;

	if (c->finishing || c->raw_dump || t->gone || t->short_lived || !t->bpf_seq_committed ||
	    bpf_seq(c, t->tid, &s) != t->bpf_seq_committed)
		return false;
	for (int g = 0; g < c->nspecs; g++)
		if (!c->disabled[g][0] && c->specs[g].n > 0 && !t->g[g].given)
			return false;
	return true;
}

/* The thread's sums as of the last read become its readings: spec g's
 * events are the program's bpf_base[g]...; a group's enabled and running
 * are its leader's. A thread without sums has not run since it was
 * followed: zero, never enabled. */
static void bpf_readings(struct td_collector *c, struct td_thread *t, uint64_t now)
{
	const struct td_bpf_thread_sums *s;

	t->bpf_seq_read = bpf_seq(c, t->tid, &s);
	for (int g = 0; g < c->nspecs; g++) {
		struct td_reading r = { 0 };
		int base = c->bpf_base[g];
		if (c->disabled[g][0] || c->specs[g].n == 0)
			continue;
		if (s) {
			for (int k = 0; k < c->specs[g].n; k++)
				r.value[k] = s->value[base + k];
			r.enabled = s->enabled[base];
			r.running = s->running[base];
		}
		t->g[g].last = r;
		t->g[g].have_last = true;
	}
	t->last_sw[0] = s ? s->voluntary : 0;
	t->last_sw[1] = s ? s->involuntary : 0;
	t->sw_ns = now; /* counted by the program up to this read (or the thread's exit) */
	t->have_sw = true;
}

static bool listed_live(void *ctx, pid_t tid)
{
	return find_thread(ctx, tid) != NULL;
}

int td_collector_sample(struct td_collector *c, uint64_t now_ns, const struct td_sink *sink)
{
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
	if (c->bpf && (rc = td_bpf_counting_read(c->bpf)) < 0)
		return rc;
	rc = 0;

	memset(c->family.pending, 0, sizeof(c->family.pending));
	memset(c->family.giving, 0, sizeof(c->family.giving));
	have_total = read_roots(c, total);
	for (int i = 0; i < c->nthreads && rc == 0; i++) {
		struct td_thread *t = c->threads[i];
		/* a thread found gone at its birth has its exit event on the way (it
		 * was read before the thread died): wait for it, two samples at most
		 * (an event the ring buffer lost never comes) */
		t->kept_back = t->short_lived && !t->exit_seen && t->held < 2;
		t->quiet = false;
		if (t->kept_back) {
			t->held++;
			continue;
		}
		if ((t->quiet = c->bpf && bpf_quiet(c, t))) {
			t->last_seen_ns = seen_at(t, now_ns);
			continue;
		}
		if (!t->gone) {
			for (int g = 0; g < c->nspecs; g++)
				if (t->g[g].open && td_perf_group_read(&t->g[g].pg, &t->g[g].last) == 0)
					t->g[g].have_last = true;
			t->last_seen_ns = seen_at(t, now_ns);
		}
		if (c->bpf)
			bpf_readings(c, t, now_ns);
		rc = deliver(c, t, now_ns, sink);
		if (rc == 0 && sink->thread_gone && (t->gone ? sink->thread_gone(sink->ctx, t) : 0))
			rc = -1;
	}
	return rc || !have_total ? rc : deliver_unlisted(c, now_ns, sink, total);
}

void td_collector_commit(struct td_collector *c)
{
	struct family *f = &c->family;

	for (int k = 0; k < TD_GROUP_MAX; k++) {
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
		for (int g = 0; g < c->nspecs && !t->quiet; g++) {
			if (t->g[g].have_last)
				t->g[g].prev = t->g[g].last;
			t->g[g].given |= t->g[g].giving;
		}
		if (t->have_sw && !t->sw_held) {
			memcpy(t->prev_sw, t->last_sw, sizeof(t->prev_sw));
			t->prev_sw_ns = t->sw_ns;
		}
		t->bpf_seq_committed = t->bpf_seq_read;
		t->sampled_ns = t->last_seen_ns;
	}
	/* forget the threads that are gone: their last counts are kept (not one
	 * the sample kept back: td_collector_sample) */
	for (int i = 0; i < c->nthreads;) {
		struct td_thread *t = c->threads[i];
		if (t->gone && !t->kept_back) {
			if (newest_thread(c, t->tid) == t)
				td_tid_map_del(&c->by_tid, (uint32_t)t->tid);
			free(c->threads[i]);
			c->threads[i] = c->threads[--c->nthreads];
		} else {
			i++;
		}
	}
	if (c->bpf)
		td_bpf_counting_drop_exited(c->bpf, listed_live, c);
	if (c->cgroup_id)
		c->cgroup_prev = c->cgroup_pending;
}

void td_collector_forget_ids(struct td_collector *c, int64_t above)
{
	if (c->family.unlisted && c->family.unlisted->store_id > above)
		c->family.unlisted->store_id = 0;
	for (int i = 0; i < c->nthreads; i++)
		if (c->threads[i]->store_id > above)
			c->threads[i]->store_id = 0;
}

int td_collector_finish(struct td_collector *c, uint64_t now_ns, const struct td_sink *sink)
{
	int rc;

	td_collector_scan(c, now_ns, sink);
	/* the last switch counts of every thread: once, at the end */
	for (int i = 0; i < c->nthreads; i++)
		if (!c->threads[i]->gone)
			read_proc_switches(c, c->threads[i], now_ns);
	c->finishing = true; /* every switch pair delivered, zeros too */
	rc = td_collector_sample(c, now_ns, sink);
	c->finishing = false;
	return rc;
}

void td_collector_set_rotation(struct td_collector *c, int ref_spec, const bool *rotated)
{
	c->ref_spec = ref_spec;
	c->current = -1;
	for (int g = 0; g < c->nspecs; g++) {
		c->rotated[g] = rotated[g] && g != ref_spec;
		if (c->rotated[g] && c->current < 0)
			c->current = g;
	}
}

/* The rotated spec after `from` that counts (cyclic), or -1. */
static int next_rotated(const struct td_collector *c, int from)
{
	for (int k = 1; k <= c->nspecs; k++) {
		int g = (from + k) % c->nspecs;
		if (c->rotated[g] && !c->disabled[g][0])
			return g;
	}
	return -1;
}

int td_collector_rotate(struct td_collector *c)
{
	int next;

	if (c->current < 0 || (next = next_rotated(c, c->current)) < 0 || next == c->current)
		return -1;
	for (int i = 0; i < c->nthreads; i++) {
		struct td_thread *t = c->threads[i];
		if (t->gone)
			continue;
		if (t->g[c->current].open)
			td_perf_group_enable(&t->g[c->current].pg, false);
		if (t->g[next].open)
			td_perf_group_enable(&t->g[next].pg, true);
	}
	c->current = next;
	return next;
}

void td_collector_dump_raw(struct td_collector *c, FILE *f)
{
	c->raw_dump = f;
}
