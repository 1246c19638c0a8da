/* counting_perf: the per-thread counting backend (counting_backend.h). Each
 * listed thread gets one perf_event group per spec, read with read(2) at
 * every sample and a last time at its exit; the roots' spec 0 is opened
 * again with inherit (the total the unlisted remainder comes from); a
 * thread's context switches are /proc's, read at its birth, in turn by the
 * scans and at the end. Owns the descriptors and their budget. */
#include "counting_backend.h"
#include "credentials.h"
#include "group_probe.h"
#include "machine/host.h"
#include "machine/procfs.h"

#include <assert.h>
#include <errno.h>
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

/* A thread's state (td_thread.counting). */
struct perf_thread {
	struct td_switch_pair sw; /* /proc's, read again by the scans */
	bool live;		  /* opened, not exited or closed: counted in perf_counting.live */
	struct perf_spec {
		struct td_perf_group pg;
		bool open, have_last;
		struct td_reading prev, last; /* baseline (last commit) and latest reading */
	} g[];				      /* one per spec: a thread costs what its specs need, not TD_MAX_SPECS */
};

struct perf_counting {
	struct td_counting base;
	int fd_budget; /* descriptors the groups may use, below RLIMIT_NOFILE */
	int live;      /* threads with their groups open */
	struct root_total *roots;
	int nroots;
	bool probed; /* the hardware groups were run on a thread of ours (group_probe.h) */
};

/* Descriptors kept free for the database, timers, /proc reads and the rest. */
#define TD_FD_RESERVE 64

static struct perf_thread *state(const struct td_thread *t)
{
	return t->counting;
}

size_t td_counting_perf_bytes(int nspecs)
{
	return sizeof(struct perf_thread) + (size_t)nspecs * sizeof(struct perf_spec);
}

static size_t perf_thread_size(const struct td_counting *b)
{
	return td_counting_perf_bytes(b->plan->nspecs);
}

static void close_groups(struct td_counting *b, struct td_thread *t)
{
	struct perf_counting *p = (struct perf_counting *)b;
	struct perf_thread *s = state(t);

	for (int g = 0; g < b->plan->nspecs; g++)
		if (s->g[g].open) {
			b->plan->stats->fds_open -= td_perf_group_fd_count(&s->g[g].pg);
			td_perf_group_close(&s->g[g].pg);
			s->g[g].open = false;
		}
	/* every descriptor counted in fds_open is a group still open */
	assert(b->plan->stats->fds_open >= 0);
	if (s->live) {
		s->live = false;
		p->live--;
	}
	assert(p->live >= 0);
}

/* What running out of descriptors means for this target, in numbers. */
static void describe_fd_shortage(const struct perf_counting *p, char *buf, size_t len)
{
	const struct td_counting_plan *plan = p->base.plan;
	const struct td_collector_stats *st = plan->stats;
	struct rlimit rl;
	int per_thread = 0, threads = p->live + st->open_failures + 1;

	for (int g = 0; g < plan->nspecs; g++)
		if (!plan->disabled[g][0])
			per_thread += plan->specs[g].n;
	getrlimit(RLIMIT_NOFILE, &rl);
	snprintf(buf, len,
		 "out of file descriptors: %d threads so far x %d events need %d descriptors plus %d for tdctl, the "
		 "limit is %llu (hard limit %llu); raise the hard limit (ulimit -Hn, LimitNOFILE=) or count "
		 "fewer events",
		 threads, per_thread, threads * per_thread,
		 rl.rlim_cur < (rlim_t)INT32_MAX && (int)rl.rlim_cur > p->fd_budget ? (int)rl.rlim_cur - p->fd_budget
										    : TD_FD_RESERVE,
		 (unsigned long long)rl.rlim_cur, (unsigned long long)rl.rlim_max);
}

/* td_perf_group_open, with the open_as credentials when set, within the
 * descriptor budget (-EMFILE beyond: the rest of tdctl needs descriptors
 * too). A failure to take the credentials is -EPERM with why filled; the
 * caller says it as any refusal. */
static int group_open(struct perf_counting *p, struct td_perf_group *pg, int spec, pid_t tid, unsigned flags,
		      int *failed, char *why, size_t whylen)
{
	const struct td_counting_plan *plan = p->base.plan;
	td_err err;
	int rc;

	if (plan->stats->fds_open + plan->specs[spec].n > p->fd_budget)
		return -EMFILE;
	if (plan->open_as && td_creds_enter(plan->as_uid, plan->as_gid, &err)) {
		snprintf(why, whylen, "%.290s", err.msg); /* td_creds_enter says less than that */
		return -EPERM;
	}
	rc = td_perf_group_open(pg, &plan->specs[spec], tid, -1, flags, failed);
	if (plan->open_as)
		td_creds_leave();
	if (rc == 0)
		plan->stats->fds_open += td_perf_group_fd_count(pg);
	return rc;
}

/* The message for a counter refused on thread tid: under open_as, the
 * kernel's answer for the client (why already filled when the ids could
 * not be taken); out of descriptors, the numbers. */
static void refusal(const struct perf_counting *p, int rc, int spec, int failed, pid_t pid, pid_t tid, char *why,
		    size_t len)
{
	const struct td_counting_plan *plan = p->base.plan;

	if (rc == -EMFILE || rc == -ENFILE)
		describe_fd_shortage(p, why, len);
	else if (why[0])
		return;
	else if (plan->open_as && (rc == -EACCES || rc == -EPERM))
		snprintf(why, len,
			 "uid %u may not count thread %d of process %d (the kernel refuses: it runs as "
			 "another user now, after a setuid exec, or is not dumpable)",
			 (unsigned)plan->as_uid, (int)tid, (int)pid);
	else
		td_perf_strerror(-rc, plan->specs[spec].names[failed], plan->paranoid, why, len);
}

static void read_proc_switches(struct td_thread *t, uint64_t now)
{
	struct perf_thread *s = state(t);
	uint64_t vol, invol;

	if (td_proc_ctxt_switches(t->pid, t->tid, &vol, &invol) == 0) {
		s->sw.last[0] = vol;
		s->sw.last[1] = invol;
		s->sw.ns = now;
		s->sw.have = true;
	}
}

struct try_ctx {
	struct perf_counting *p;
	pid_t tid;
};

/* td_group_try_fn: members [first, first + n) of a spec as one group on the
 * thread, opened disabled (nothing counts) and closed again. */
static int try_part(void *ctx, const struct td_perf_group_spec *s, int first, int n, int *failed)
{
	const struct try_ctx *c = ctx;
	const struct td_counting_plan *plan = c->p->base.plan;
	td_err err;
	int rc;

	if (plan->open_as && td_creds_enter(plan->as_uid, plan->as_gid, &err))
		return -EPERM;
	rc = td_perf_group_try_part(s, first, n, c->tid, -1, 0, failed);
	if (plan->open_as)
		td_creds_leave();
	return rc;
}

/* The first thread's open of spec g was refused as not schedulable (rc,
 * at member failed): divide the spec into groups the kernel takes (perf
 * stat's weak group, perf_group.h) and say so in plan->split. 0, or the
 * errno of a part that does not open even alone (*failed its member). */
static int split_spec(struct perf_counting *p, int g, pid_t tid, int rc, int *failed)
{
	struct td_counting_plan *plan = p->base.plan;
	struct try_ctx c = { p, tid };
	int at = *failed, parts;

	if ((parts = td_perf_group_split(&plan->specs[g], try_part, &c, failed)) < 0)
		return parts;
	td_perf_group_split_why(&plan->specs[g], -rc, at, plan->split[g], sizeof(plan->split[g]));
	return 0;
}

/* Before the first thread's groups are opened: run the hardware ones on a
 * thread of ours (group_probe.h); a spec one part of which the kernel never
 * ran is opened, on every thread, in the parts the probe found. A spec the
 * probe cannot open is left to the first open (refused there as it was
 * here, or split: perf_thread_open); a probe that cannot run at all
 * changes nothing. TD_GROUP_PROBE=0 leaves it out (the suite shows what it
 * prevents). */
static void probe_groups(struct perf_counting *p)
{
	struct td_counting_plan *plan = p->base.plan;
	bool probe[TD_MAX_SPECS] = { false }, any = false;
	char(*why)[TD_GROUP_PROBE_WHY];
	const char *env = getenv("TD_GROUP_PROBE");
	int split = 0;

	p->probed = true;
	for (int g = 0; g < plan->nspecs; g++)
		any |= probe[g] = !plan->decided[g] && !plan->disabled[g][0] && td_group_probe_wanted(&plan->specs[g]);
	if (!any || (env && !strcmp(env, "0")) || !(why = calloc(TD_MAX_SPECS, sizeof(*why))))
		return;
	if (td_group_probe(plan->specs, plan->nspecs, probe, td_host_mux_interval_ms(), why, &split) == 0)
		for (int g = 0; g < plan->nspecs && split > 0; g++)
			if (why[g][0])
				snprintf(plan->split[g], sizeof(plan->split[g]), "%s", why[g]);
	free(why);
}

/* Open every enabled group on a new thread; a group that fails on the
 * first thread because the machine cannot count it (ENOENT, EOPNOTSUPP,
 * EINVAL) is disabled for all threads; one the kernel refuses as not
 * schedulable is split (split_spec) and opened in parts on every thread. */
static int perf_thread_open(struct td_counting *b, struct td_thread *t, unsigned flags, pid_t adding, td_err *err)
{
	struct perf_counting *p = (struct perf_counting *)b;
	struct td_counting_plan *plan = b->plan;
	struct perf_thread *s = state(t);
	int rc;

	(void)adding;
	if (!p->probed)
		probe_groups(p);
	for (int g = 0; g < plan->nspecs; g++) {
		int failed = 0;
		char why[300] = "";

		if (plan->disabled[g][0])
			continue;
		rc = group_open(p, &s->g[g].pg, g, t->tid,
				plan->rotated[g] && g != plan->current ? TD_OPEN_DISABLED : flags, &failed, why,
				sizeof(why));
		if (rc != 0 && !plan->decided[g] && td_perf_group_unschedulable(-rc, failed) &&
		    (rc = split_spec(p, g, t->tid, rc, &failed)) == 0)
			rc = group_open(p, &s->g[g].pg, g, t->tid,
					plan->rotated[g] && g != plan->current ? TD_OPEN_DISABLED : flags, &failed, why,
					sizeof(why));
		if (rc == 0) {
			s->g[g].open = true;
			plan->decided[g] = true;
			continue;
		}
		/* ESRCH: the thread is gone; ENODEV on a group that opened before: it is exiting */
		if (rc == -ESRCH || (rc == -ENODEV && plan->decided[g])) {
			close_groups(b, t);
			return TD_THREAD_EXITED;
		}
		refusal(p, rc, g, failed, t->pid, t->tid, why, sizeof(why));
		if (!plan->decided[g] && td_counting_cannot_count(-rc) && g > 0) {
			/* an optional group (hardware events) this machine cannot count */
			snprintf(plan->disabled[g], sizeof(plan->disabled[g]), "%s", why);
			plan->decided[g] = true;
			continue;
		}
		close_groups(b, t);
		if (!plan->decided[g]) {
			td_err_set(err, "%s", why);
			return -1;
		}
		/* worked before, fails now (descriptors exhausted, ...): keep going */
		plan->stats->open_failures++;
		snprintf(plan->stats->last_failure, sizeof(plan->stats->last_failure), "%s", why);
		return TD_THREAD_FAILED;
	}
	s->live = true;
	p->live++;
	/* its switches from now on: read at its birth */
	read_proc_switches(t, t->sampled_ns);
	s->sw.prev[0] = s->sw.last[0];
	s->sw.prev[1] = s->sw.last[1];
	s->sw.prev_ns = s->sw.ns;
	return TD_THREAD_OPENED;
}

static void perf_thread_exit(struct td_counting *b, struct td_thread *t)
{
	struct perf_thread *s = state(t);

	for (int g = 0; g < b->plan->nspecs; g++)
		if (s->g[g].open && td_perf_group_read(&s->g[g].pg, &s->g[g].last) == 0)
			s->g[g].have_last = true;
	close_groups(b, t);
}

/* What the kernel accounted to a thread over its life becomes its spec-0
 * counts when every event of spec 0 is one the kernel keeps per task
 * (software.td's are); otherwise what it ran stays in the remainder. */
static void perf_exit_usage(struct td_counting *b, struct td_thread *t, const struct td_task_usage *u)
{
	const struct td_perf_group_spec *sp = &b->plan->specs[0];
	struct perf_thread *s = state(t);
	struct td_reading r = { 0 };
	uint64_t life = t->last_seen_ns > t->first_seen_ns ? t->last_seen_ns - t->first_seen_ns : 0;

	/* listed gone at once: it never had a group open */
	assert(t->gone && t->short_lived && !s->g[0].open);
	if (b->plan->nspecs == 0 || b->plan->disabled[0][0] || sp->n == 0 || s->g[0].have_last)
		return;
	for (int k = 0; k < sp->n; k++) {
		if (sp->attrs[k].type != PERF_TYPE_SOFTWARE)
			return;
		switch (sp->attrs[k].config) {
		case PERF_COUNT_SW_TASK_CLOCK:
		case PERF_COUNT_SW_CPU_CLOCK:
			r.value[k] = u->runtime_ns;
			break;
		case PERF_COUNT_SW_CONTEXT_SWITCHES:
			r.value[k] = u->voluntary + u->involuntary;
			break;
		case PERF_COUNT_SW_CPU_MIGRATIONS:
			r.value[k] = u->migrations;
			break;
		case PERF_COUNT_SW_PAGE_FAULTS:
			r.value[k] = u->minor_faults + u->major_faults;
			break;
		case PERF_COUNT_SW_PAGE_FAULTS_MIN:
			r.value[k] = u->minor_faults;
			break;
		case PERF_COUNT_SW_PAGE_FAULTS_MAJ:
			r.value[k] = u->major_faults;
			break;
		default:
			return;
		}
	}
	/* counted for the whole of its life (never less than it ran: two clocks) */
	r.enabled = r.running = life > u->runtime_ns ? life : u->runtime_ns;
	s->g[0].prev = (struct td_reading){ 0 };
	s->g[0].last = r;
	s->g[0].have_last = true;
}

static void perf_thread_reread(struct td_counting *b, struct td_thread *t, uint64_t now)
{
	(void)b;
	read_proc_switches(t, now);
}

/* Open a root's inherited spec 0. */
static int perf_root_add(struct td_counting *b, const struct td_thread *t, unsigned flags, td_err *err)
{
	struct perf_counting *p = (struct perf_counting *)b;
	struct root_total *r;
	int failed = 0, rc;
	char why[300] = "";

	if (!(r = td_array_push(&p->roots, &p->nroots, sizeof(*p->roots)))) {
		td_err_set(err, "out of memory");
		return -1;
	}
	memset(r, 0, sizeof(*r));
	if ((rc = group_open(p, &r->pg, 0, t->tid, flags | TD_OPEN_INHERIT, &failed, why, sizeof(why))) == 0)
		return 0;
	p->nroots--;
	if (rc == -ESRCH)
		return 1; /* the thread is gone already: nothing of it to count */
	refusal(p, rc, 0, failed, t->pid, t->tid, why, sizeof(why));
	td_err_set(err, "the inherited counters of thread %d could not be opened (%.200s)", (int)t->tid, why);
	return -1;
}

static int perf_read(struct td_counting *b, uint64_t now, unsigned how)
{
	(void)b, (void)now, (void)how;
	return 0;
}

static bool perf_roots_read(struct td_counting *b, uint64_t *total)
{
	struct perf_counting *p = (struct perf_counting *)b;

	if (p->nroots == 0)
		return false;
	for (int i = 0; i < p->nroots; i++) {
		struct root_total *r = &p->roots[i];
		if (td_perf_group_read(&r->pg, &r->last) == 0)
			r->have_last = true;
		if (!r->have_last)
			return false; /* not read yet: next time */
		for (int k = 0; k < b->plan->specs[0].n; k++)
			total[k] += r->last.value[k];
	}
	return true;
}

static int perf_thread_read(struct td_counting *b, struct td_thread *t)
{
	struct perf_thread *s = state(t);

	for (int g = 0; g < b->plan->nspecs; g++) {
		/* a thread's groups are open from its listing to its exit, never after */
		assert(!(t->gone && s->g[g].open));
		if (s->g[g].open && td_perf_group_read(&s->g[g].pg, &s->g[g].last) == 0)
			s->g[g].have_last = true;
	}
	return TD_READ_NEW;
}

static int perf_thread_delta(struct td_counting *b, struct td_thread *t, int g, struct td_count *d)
{
	struct perf_spec *sg = &state(t)->g[g];

	if (!sg->have_last)
		return TD_DELTA_NONE;
	td_reading_delta(&sg->prev, &sg->last, b->plan->specs[g].n, d);
	return TD_DELTA_ROW; /* per-thread groups keep every row */
}

/* Switch counts read again since the last commit (a scan, the final read).
 * A thread that is gone has no /proc entry left to read: its switch counts
 * end at its last read. Nothing is known of the time since, so nothing is
 * delivered for it (a "not counted" row would make the thread's whole
 * total unknown). */
static bool perf_thread_switches(struct td_counting *b, struct td_thread *t, struct td_count *d)
{
	(void)b;
	if (!td_switch_pair_delta(&state(t)->sw, d))
		return false;
	td_switch_pair_sent(&state(t)->sw);
	return true;
}

static void perf_thread_forget(struct td_counting *b, struct td_thread *t)
{
	(void)b;
	td_switch_pair_forget(&state(t)->sw);
}

static void perf_thread_commit(struct td_counting *b, struct td_thread *t)
{
	struct perf_thread *s = state(t);

	for (int g = 0; g < b->plan->nspecs; g++)
		if (s->g[g].have_last)
			s->g[g].prev = s->g[g].last;
	td_switch_pair_commit(&s->sw);
}

static void perf_commit(struct td_counting *b, bool (*listed)(void *ctx, pid_t tid), void *ctx)
{
	(void)b, (void)listed, (void)ctx;
}

static void perf_enable(struct td_counting *b, struct td_thread *t, int g, bool on)
{
	struct perf_thread *s = state(t);

	(void)b;
	if (s->g[g].open)
		td_perf_group_enable(&s->g[g].pg, on);
}

static void perf_free(struct td_counting *b)
{
	struct perf_counting *p = (struct perf_counting *)b;

	for (int i = 0; i < p->nroots; i++) {
		b->plan->stats->fds_open -= td_perf_group_fd_count(&p->roots[i].pg);
		td_perf_group_close(&p->roots[i].pg);
	}
	free(p->roots);
	free(p);
}

const struct td_perf_group *td_counting_perf_group(const struct td_thread *t, int g)
{
	const struct perf_thread *s = state(t);

	return s && s->g[g].open ? &s->g[g].pg : NULL;
}

/* switch_cost's measuring pair, counted as a run's threads are: each
 * process a group per spec, and spec 0 again inherited (every thread of a
 * run carries a copy of its root's), unless --unlisted=off. */
struct perf_probe {
	struct td_perf_group pg[2][TD_MAX_SPECS + 1];
	bool open[2][TD_MAX_SPECS + 1];
};

static void perf_probe_detach(struct td_counting *b, void *probe)
{
	struct perf_probe *pr = probe;

	(void)b;
	for (int p = 0; p < 2; p++)
		for (int g = 0; g <= TD_MAX_SPECS; g++)
			if (pr->open[p][g])
				td_perf_group_close(&pr->pg[p][g]);
	free(pr);
}

static int perf_probe_attach(struct td_counting *b, const pid_t pids[2], void **probe, td_err *err)
{
	const struct td_counting_plan *plan = b->plan;
	struct perf_probe *pr = calloc(1, sizeof(*pr));
	bool opened = false;

	if (!pr) {
		td_err_set(err, "out of memory");
		return -1;
	}
	for (int p = 0; p < 2; p++)
		for (int g = 0; g <= plan->nspecs; g++) {
			int spec = g < plan->nspecs ? g : 0, failed = 0, rc;
			if (plan->disabled[spec][0] || plan->specs[spec].n == 0 ||
			    (g == plan->nspecs && plan->unlisted_off))
				continue;
			rc = td_perf_group_open(&pr->pg[p][g], &plan->specs[spec], pids[p], -1,
						g < plan->nspecs ? 0 : TD_OPEN_INHERIT, &failed);
			if (rc) {
				td_err_set(err, "%s: %s", plan->specs[spec].names[failed], strerror(-rc));
				perf_probe_detach(b, pr);
				return -1;
			}
			pr->open[p][g] = true;
			opened = true;
		}
	if (!opened) { /* nothing counts: a difference would be noise alone */
		td_err_set(err, "no group of the plan counts");
		perf_probe_detach(b, pr);
		return -1;
	}
	*probe = pr;
	return 0;
}

static const struct td_counting_ops perf_ops = {
	.mode = TD_COUNTING_PER_THREAD,
	.thread_size = perf_thread_size,
	.free = perf_free,
	.add_process = NULL,
	.thread_open = perf_thread_open,
	.thread_exit = perf_thread_exit,
	.thread_close = close_groups,
	.exit_usage = perf_exit_usage,
	.thread_reread = perf_thread_reread,
	.root_add = perf_root_add,
	.read = perf_read,
	.roots_read = perf_roots_read,
	.thread_read = perf_thread_read,
	.thread_delta = perf_thread_delta,
	.thread_switches = perf_thread_switches,
	.thread_commit = perf_thread_commit,
	.thread_forget = perf_thread_forget,
	.commit = perf_commit,
	.enable = perf_enable,
	.probe_attach = perf_probe_attach,
	.probe_detach = perf_probe_detach,
};

struct td_counting *td_counting_perf_new(struct td_counting_plan *plan)
{
	struct perf_counting *p = calloc(1, sizeof(*p));
	struct rlimit rl;

	if (!p)
		return NULL;
	p->base.ops = &perf_ops;
	p->base.plan = plan;
	/* under a small limit (ulimit -n 64) a fixed reserve would leave
	 * nothing to count with: keep half the limit for tdctl then */
	p->fd_budget =
		getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < (rlim_t)INT32_MAX
			? (int)rl.rlim_cur - (rl.rlim_cur < 4 * TD_FD_RESERVE ? (int)rl.rlim_cur / 2 : TD_FD_RESERVE)
			: INT32_MAX;
	if (p->fd_budget < 8)
		p->fd_budget = 8;
	return &p->base;
}
