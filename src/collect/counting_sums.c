/* counting_sums: the BPF counting backend (counting_backend.h). No group is
 * opened per thread: the program of counting_bpf.c reads one counter per CPU
 * per event at every context switch and sums them per thread; each sample
 * reads every followed thread's sums at once (td_bpf_counting_read), and a
 * thread's readings and switches are its sums, counted from its birth (or
 * from when its process was followed). The roots' total is the program's
 * per-process sums; record --cgroup's cgroup sums are read here too. */
#include "counting_backend.h"

#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A thread's state (td_thread.counting). */
struct sums_thread {
	struct td_switch_pair sw;
	/* its slot's seq + 2 (1: no slot, 0: never read) as of the readings in
	 * last, and as of those committed (prev): the same as the slot's now, nothing new */
	uint64_t seq_read, seq_committed;
	bool quiet; /* ... so the last sample passed it by: its commit has nothing to copy */
	/* the readings in last were read since the commit and their rows
	 * delivered (cleared when they were not kept: sums_thread_forget) */
	bool delivered;
	struct sums_spec {
		bool have_last;
		/* a row of this group was delivered (since the last commit: giving)
		 * and committed (given); after the first, rows of intervals the
		 * thread did not run in are left out */
		bool giving, given;
		struct td_reading prev, last;
	} g[];
};

struct sums_counting {
	struct td_counting base;
	struct td_bpf_counting *bpf;
	int base_event[TD_MAX_SPECS]; /* spec g's first event in the program's list */
	int group[TD_MAX_SPECS];      /* spec g's group there (its times in the sums) */
	int events;		      /* events in that list */
	/* what the program was loaded with: a measuring pair's view joins it */
	struct perf_event_attr attrs[TD_BPF_COUNT_MAX];
	bool leads[TD_BPF_COUNT_MAX];
	unsigned what;
	int map_entries;
	int stats_fd; /* the kernel's BPF run-time statistics, on while the switch cost is measured (-1: off) */
	uint64_t now; /* the sample's time and how (TD_SAMPLE_*) */
	unsigned how;
	/* record --cgroup: the cgroup summed, and its sums as of the last sample
	 * committed (prev) and the last sample (pending, committed with it) */
	uint64_t cgroup_id;
	struct td_bpf_thread_sums cgroup_prev, cgroup_pending;
	char note[600]; /* the mode, for the user */
};

static struct sums_thread *state(const struct td_thread *t)
{
	return t->counting;
}

static size_t sums_thread_size(const struct td_counting *b)
{
	return sizeof(struct sums_thread) + (size_t)b->plan->nspecs * sizeof(struct sums_spec);
}

/* The mode, for the user: which program, its counters and map, and whether
 * it is shared with other sessions of this process. */
static void note(struct sums_counting *s)
{
	struct td_bpf_counting_stats st;
	int n = s->events;

	char self[96] = "", tag[24], named[64] = "";
	int k = td_bpf_counting_self_counted(s->bpf);

	td_bpf_counting_stats(s->bpf, &st);
	/* "counted by the program itself": store.h's TD_COUNTING_SELF_NOTE */
	if (k)
		snprintf(self, sizeof(self), ", %d of them (a CPU's clock, its switches) counted by the program itself",
			 k);
	/* store.h's TD_COUNTING_TAG_NOTE: the switch cost of another program is not taken for its */
	if (td_bpf_counting_switch_tag(s->bpf, tag, sizeof(tag)) == 0)
		snprintf(named, sizeof(named), "; the switch program's tag %s", tag);
	snprintf(s->note, sizeof(s->note),
		 "counted by BPF at each context switch (%s sched_switch%s, "
		 "%d event%s per CPU%s; sums map of %d threads, %.1f MiB in the kernel, mapped by tdctl, which copies "
		 "%zu bytes a thread%s%s)",
		 td_bpf_counting_flavour(s->bpf),
		 td_bpf_counting_own_types(s->bpf) ? ", relocated against this boot's kernel types file" : "", n,
		 n == 1 ? "" : "s", self, st.map_entries, (double)st.kernel_bytes / (1024.0 * 1024.0),
		 sizeof(struct td_bpf_thread_sums),
		 td_bpf_counting_joined(s->bpf) ? "; program, counters and map shared with the other sessions of this "
						  "process that count the same events"
						: "",
		 named);
}

static const char *sums_describe(const struct td_counting *b)
{
	return ((const struct sums_counting *)b)->note;
}

static int sums_add_process(struct td_counting *b, pid_t pid, bool first, td_err *err)
{
	struct sums_counting *s = (struct sums_counting *)b;
	int rc = td_bpf_counting_follow(s->bpf, pid);

	if (rc == -EEXIST && first) {
		/* another session of this process follows it with the program this one
		 * shares: its threads' sums would be that session's. A program of its own */
		td_err why;
		if (td_bpf_counting_unshare(s->bpf, &why)) {
			td_err_set(err,
				   "cannot follow PID %d: another session counts it with BPF, and a second BPF "
				   "program does not load: %.400s; use --counting=per-thread",
				   (int)pid, why.msg);
			return -1;
		}
		note(s);
		rc = td_bpf_counting_follow(s->bpf, pid);
	}
	if (rc == -EEXIST)
		td_err_set(err,
			   "cannot follow PID %d: another session of this process counts it with BPF; attach it "
			   "in a session of its own",
			   (int)pid);
	else if (rc < 0)
		td_err_set(err, "cannot follow PID %d (BPF map): %s", (int)pid, strerror(-rc));
	return rc < 0 ? -1 : 0;
}

/* Nothing to open per thread: counted by the program from its birth. A
 * child process (the first time) that another session of this process
 * follows with the program this one shares has its sums there: not listed
 * here (zeros would pass for counts), and said. */
static int sums_thread_open(struct td_counting *b, struct td_thread *t, unsigned flags, pid_t adding, td_err *err)
{
	struct sums_counting *s = (struct sums_counting *)b;
	struct td_collector_stats *st = b->plan->stats;

	(void)flags, (void)err;
	state(t)->sw.ns = state(t)->sw.prev_ns = t->sampled_ns; /* its switches' span starts there too */
	if (t->pid != adding && td_bpf_counting_follow(s->bpf, t->pid) == -EEXIST) {
		st->open_failures++;
		snprintf(st->last_failure, sizeof(st->last_failure),
			 "process %d (thread %d) is counted by another "
			 "session of this process with the same BPF program; attach it in a session of its own",
			 (int)t->pid, (int)t->tid);
		return TD_THREAD_FAILED;
	}
	return TD_THREAD_OPENED;
}

static void sums_thread_nothing(struct td_counting *b, struct td_thread *t)
{
	(void)b, (void)t; /* its sums stay in the map until it is forgotten (sums_commit) */
}

static void sums_exit_usage(struct td_counting *b, struct td_thread *t, const struct td_task_usage *u)
{
	/* never listed gone at once: sums_thread_open does not fail for an exited thread */
	(void)b, (void)t, (void)u;
	assert(0);
}

static void sums_thread_reread(struct td_counting *b, struct td_thread *t, uint64_t now)
{
	(void)b, (void)t, (void)now; /* the program counts its switches: sums_thread_read */
}

static int sums_root_add(struct td_counting *b, const struct td_thread *t, unsigned flags, td_err *err)
{
	(void)b, (void)t, (void)flags, (void)err;
	return 0; /* the total is the program's per-process sums: sums_roots_read */
}

static int sums_read(struct td_counting *b, uint64_t now, unsigned how)
{
	struct sums_counting *s = (struct sums_counting *)b;
	int rc = td_bpf_counting_read(s->bpf);

	s->now = now;
	s->how = how;
	return rc < 0 ? -1 : 0;
}

static bool sums_roots_read(struct td_counting *b, uint64_t *total)
{
	struct sums_counting *s = (struct sums_counting *)b;
	/* read by td_bpf_counting_read before the threads' sums, as groups would be */
	const uint64_t *all = td_bpf_counting_totals(s->bpf);

	for (int k = 0; k < b->plan->specs[0].n; k++)
		total[k] += all[s->base_event[0] + k];
	return true;
}

/* The seq of tid's slot + 2, 1 when it has none (sums_thread's seq_*). */
static uint64_t slot_seq(const struct sums_counting *s, pid_t tid, const struct td_bpf_thread_sums **sums)
{
	*sums = td_bpf_counting_find(s->bpf, tid);
	return *sums ? (*sums)->seq + 2 : 1;
}

/* A thread with nothing new since the interval last committed: its slot
 * (seq: slot_seq's now) unchanged since the readings committed (so last is prev, and every delta
 * 0), a row of each group delivered already, not the last sample. Its turn
 * costs nothing: there would be no row (the program saw it not run), and
 * its commit would copy last onto itself. */
static bool quiet(const struct sums_counting *s, const struct td_thread *t, uint64_t seq)
{
	const struct td_counting_plan *plan = s->base.plan;
	const struct sums_thread *st = state(t);

	if ((s->how & (TD_SAMPLE_FINAL | TD_SAMPLE_EVERY)) || t->gone || t->short_lived || !st->seq_committed ||
	    seq != st->seq_committed)
		return false;
	for (int g = 0; g < plan->nspecs; g++)
		if (!plan->disabled[g][0] && plan->specs[g].n > 0 && !st->g[g].given)
			return false;
	return true;
}

/* The thread's sums as of the last read become its readings: spec g's
 * events are the program's base_event[g]...; a group's enabled and running
 * are its leader's. A thread without sums has not run since it was
 * followed: zero, never enabled. */
static int sums_thread_read(struct td_counting *b, struct td_thread *t)
{
	struct sums_counting *s = (struct sums_counting *)b;
	const struct td_counting_plan *plan = b->plan;
	struct sums_thread *st = state(t);
	const struct td_bpf_thread_sums *sums;
	uint64_t seq;

	seq = slot_seq(s, t->tid, &sums);
	if ((st->quiet = quiet(s, t, seq)))
		return TD_READ_QUIET;
	/* Another sample before the commit (a session that commits a group of
	 * intervals at once) and the slot unchanged since the last: the
	 * readings are those, and their rows are delivered (a new copy would
	 * make the same deltas, and the sink finds nothing new in them) */
	if (st->delivered && !(s->how & (TD_SAMPLE_FINAL | TD_SAMPLE_EVERY)) && !t->gone && seq == st->seq_read)
		return TD_READ_SAME;
	st->seq_read = seq;
	st->delivered = true; /* the collector delivers them next, or the sample fails and they are forgotten */
	for (int g = 0; g < plan->nspecs; g++) {
		struct td_reading r = { 0 };
		int base = s->base_event[g];
		if (plan->disabled[g][0] || plan->specs[g].n == 0)
			continue;
		if (sums) {
			for (int k = 0; k < plan->specs[g].n; k++)
				r.value[k] = sums->value[base + k];
			r.enabled = sums->enabled[s->group[g]];
			r.running = sums->running[s->group[g]];
		}
		st->g[g].last = r;
		st->g[g].have_last = true;
	}
	st->sw.last[0] = sums ? sums->voluntary : 0;
	st->sw.last[1] = sums ? sums->involuntary : 0;
	st->sw.ns = s->now; /* counted by the program up to this read (or the thread's exit) */
	st->sw.have = true;
	return TD_READ_NEW;
}

static bool nothing_counted(const struct td_count *d, int n)
{
	for (int k = 0; k < n; k++)
		if (d[k].value || d[k].enabled || d[k].running)
			return false;
	return true;
}

/* The program adds to a thread's sums at each of its switches and at every
 * read, so a delta with nothing counted and no time enabled is a thread
 * that did not run in the interval (exactly 0). Most of 1,000 threads do
 * not run in a given 100 ms: after its first row, a thread has rows only
 * in the intervals it ran in (docs/schema.md), and in the last: the final
 * write is every thread's last sighting (its row's last_seen_ns, its time
 * alive). */
static int sums_thread_delta(struct td_counting *b, struct td_thread *t, int g, struct td_count *d)
{
	struct sums_counting *s = (struct sums_counting *)b;
	struct sums_spec *sg = &state(t)->g[g];
	int n = b->plan->specs[g].n;

	if (!sg->have_last)
		return TD_DELTA_NONE;
	td_reading_delta(&sg->prev, &sg->last, n, d);
	sg->giving = !(sg->given && !(s->how & TD_SAMPLE_FINAL) && nothing_counted(d, n));
	return sg->giving ? TD_DELTA_ROW : TD_DELTA_LEFT_OUT;
}

/* Every thread's switches are read every interval, and most of 1,000
 * threads did not switch in one: such a thread's pair waits, as a /proc
 * pair waits for its next read, and the row delivered next spans the time
 * since the last one (never past its end: the last sample and its exit
 * deliver). */
static bool sums_thread_switches(struct td_counting *b, struct td_thread *t, struct td_count *d)
{
	struct sums_counting *s = (struct sums_counting *)b;
	struct sums_thread *st = state(t);

	if (!td_switch_pair_delta(&st->sw, d))
		return false;
	/* no switch since its last row: held, the next row spans from there; a
	 * thread gone has one last row, and no other after it (a sink that
	 * samples several times before a commit keeps it until then) */
	if (!d[0].value && !d[1].value && (t->gone ? st->sw.sent_valid : !(s->how & TD_SAMPLE_FINAL)))
		return false;
	td_switch_pair_sent(&st->sw);
	return true;
}

/* Its last switch marks its sums final (counting.bpf.c's account()): as
 * of the last read. A thread without sums never ran counted. */
static bool sums_thread_settled(struct td_counting *b, const struct td_thread *t)
{
	const struct td_bpf_thread_sums *sums = td_bpf_counting_find(((struct sums_counting *)b)->bpf, t->tid);

	return !sums || (sums->flags & TD_BPF_SUMS_EXITED);
}

static void sums_thread_forget(struct td_counting *b, struct td_thread *t)
{
	(void)b;
	state(t)->delivered = false;
	td_switch_pair_forget(&state(t)->sw);
}

static void sums_thread_commit(struct td_counting *b, struct td_thread *t)
{
	struct sums_thread *st = state(t);

	if (st->quiet) {
		/* passed by: its readings are those committed already */
		assert(st->seq_read == st->seq_committed);
	} else {
		for (int g = 0; g < b->plan->nspecs; g++) {
			if (st->g[g].have_last)
				st->g[g].prev = st->g[g].last;
			st->g[g].given |= st->g[g].giving;
		}
	}
	td_switch_pair_commit(&st->sw);
	st->seq_committed = st->seq_read;
	st->delivered = false; /* the readings are the baselines: quiet() from here */
}

static void sums_commit(struct td_counting *b, bool (*listed)(void *ctx, pid_t tid), void *ctx)
{
	struct sums_counting *s = (struct sums_counting *)b;

	td_bpf_counting_drop_exited(s->bpf, listed, ctx);
	if (s->cgroup_id)
		s->cgroup_prev = s->cgroup_pending;
}

static void sums_enable(struct td_counting *b, struct td_thread *t, int g, bool on)
{
	(void)b, (void)t, (void)g, (void)on; /* the program counts every spec on every CPU */
}

static int sums_lost(const struct td_counting *b, char *buf, size_t len)
{
	const struct sums_counting *s = (const struct sums_counting *)b;
	struct td_bpf_counting_stats st;

	td_bpf_counting_stats(s->bpf, &st);
	if (!st.lost_switches && !st.read_errors)
		return 0;
	if (st.lost_switches)
		snprintf(buf, len,
			 "BPF counting: the sums map (%d threads, at most %d used) was full for %llu context "
			 "switch%s of followed threads%s: %.3f s of their CPU time and its counts went to no thread "
			 "(they "
			 "are in the unlisted remainder); raise --bpf-map-entries",
			 st.map_entries, st.peak_entries, (unsigned long long)st.lost_switches,
			 st.lost_switches == 1 ? "" : "es",
			 td_bpf_counting_sharers(s->bpf) ? " (of every session sharing the program)" : "",
			 (double)st.lost_oncpu_ns / 1e9);
	else
		snprintf(buf, len,
			 "BPF counting: %llu counter read%s at a context switch failed: what the counters "
			 "counted then went to the next thread switched out on that CPU",
			 (unsigned long long)st.read_errors, st.read_errors == 1 ? "" : "s");
	return 1;
}

static int sums_unseen(const struct td_counting *b, char *buf, size_t len)
{
	const struct sums_counting *s = (const struct sums_counting *)b;
	struct td_bpf_counting_stats st;
	char untimed[200] = "";

	td_bpf_counting_stats(s->bpf, &st);
	if (!st.unseen_switches)
		return 0;
	if (st.unseen_untimed)
		snprintf(untimed, sizeof(untimed),
			 "; after %llu of them a real-time or sched_ext thread ran for a time the kernel keeps no "
			 "record of, not in that figure",
			 (unsigned long long)st.unseen_untimed);
	snprintf(buf, len,
		 "%llu context switch%s the program did not see%s: the %.3f ms of followed time they hid went "
		 "to no thread, process or cgroup, with its counts%s",
		 (unsigned long long)st.unseen_switches, st.unseen_switches == 1 ? "" : "es",
		 td_bpf_counting_sharers(s->bpf) ? " (on all CPUs, for every session sharing the program)"
						 : " (on all CPUs)",
		 (double)st.unseen_ns / 1e6, untimed);
	return 1;
}

static int sums_cgroup_follow(struct td_counting *b, uint64_t id, int level, td_err *err)
{
	struct sums_counting *s = (struct sums_counting *)b;
	int rc;

	assert(!s->cgroup_id);
	if ((rc = td_bpf_counting_follow_cgroup(s->bpf, id, level)) == 0) {
		s->cgroup_id = id;
		return 0;
	}
	if (rc == -EEXIST)
		td_err_set(err, "this cgroup is summed by another session of this process with the same BPF program; "
				"record it there, or with --counting=per-thread (perf's cgroup events on every CPU)");
	else if (rc == -E2BIG)
		td_err_set(err,
			   "the BPF program sums %d cgroups at most, %d levels deep at most: record this one with "
			   "--counting=per-thread (perf's cgroup events on every CPU)",
			   TD_BPF_COUNT_CGROUPS, TD_BPF_CGROUP_LEVELS - 1);
	else
		td_err_set(err, "cannot sum the cgroup in the BPF program: %s", strerror(-rc));
	return -1;
}

static int sums_cgroup_sample(struct td_counting *b, td_cgroup_counts_fn fn, void *ctx)
{
	struct sums_counting *s = (struct sums_counting *)b;
	const struct td_counting_plan *plan = b->plan;
	struct td_bpf_thread_sums now;
	struct td_count d[TD_GROUP_MAX];
	int rc;

	assert(s->cgroup_id);
	/* read as of now: the flush before (td_collector_sample) brought the running threads' sums up to it */
	if ((rc = td_bpf_counting_cgroup(s->bpf, s->cgroup_id, &now)) < 0)
		return rc;
	for (int g = 0; g < plan->nspecs; g++) {
		int base = s->base_event[g], grp = s->group[g];
		if (plan->disabled[g][0] || plan->specs[g].n == 0)
			continue;
		for (int k = 0; k < plan->specs[g].n; k++)
			d[k] = (struct td_count){ .value = now.value[base + k] - s->cgroup_prev.value[base + k],
						  .enabled = now.enabled[grp] - s->cgroup_prev.enabled[grp],
						  .running = now.running[grp] - s->cgroup_prev.running[grp] };
		if (fn(ctx, g, d, plan->specs[g].n))
			return -1;
	}
	s->cgroup_pending = now; /* the baseline once the interval is committed (sums_commit) */
	return 0;
}

static void sums_free(struct td_counting *b)
{
	struct sums_counting *s = (struct sums_counting *)b;

	td_bpf_counting_free(s->bpf);
	free(s);
}

/* switch_cost's measuring pair: followed by a view of its own on the
 * same program (its sums apart from the session's, gone with the view). */
static int sums_probe_attach(struct td_counting *b, const pid_t pids[2], void **probe, td_err *err)
{
	struct sums_counting *s = (struct sums_counting *)b;
	struct td_bpf_counting *v = td_bpf_counting_new(s->attrs, s->leads, s->events, s->what, s->map_entries, err);

	if (!v)
		return -1;
	for (int p = 0; p < 2; p++) {
		int rc = td_bpf_counting_follow(v, pids[p]);
		if (rc) {
			td_err_set(err, "process %d could not be followed: %s", (int)pids[p], strerror(-rc));
			td_bpf_counting_free(v);
			return -1;
		}
	}
	*probe = v;
	return 0;
}

static void sums_probe_detach(struct td_counting *b, void *probe)
{
	(void)b;
	td_bpf_counting_free(probe);
}

/* The program runs at every switch on every CPU, the pair's alone too: what
 * it ran there (a lookup or two for threads nobody follows, ~120 ns a run
 * on a 2-CPU 6.18 guest), from the kernel's run-time statistics, on for
 * the measure only: they cost every BPF program of the host two clock
 * reads a run meanwhile, and count the program's own time, not the call
 * around it (__bpf_prog_run(), include/linux/filter.h:688-700 in 6.12;
 * __bpf_trace_run(), kernel/trace/bpf_trace.c:2312-2333), nor the
 * counters' work at a switch: those stay out of the figure. The runs are
 * every CPU's, a switch of another process followed (a daemon's other
 * sessions) among them. The pair's measured difference holds the rest:
 * what the program runs at a followed switch. */
static int sums_probe_idle(struct td_counting *b, enum td_switch_idle what, uint64_t *ns, uint64_t *runs)
{
	struct sums_counting *s = (struct sums_counting *)b;

	if (what == TD_SWITCH_IDLE_START) {
		s->stats_fd = td_bpf_run_stats();
		if (s->stats_fd < 0)
			return -1;
	} else if (what == TD_SWITCH_IDLE_STOP) {
		if (s->stats_fd >= 0)
			close(s->stats_fd);
		s->stats_fd = -1;
		return 0;
	}
	return td_bpf_counting_switch_runs(s->bpf, ns, runs) ? -1 : 0;
}

static int sums_program_tag(const struct td_counting *b, char *buf, size_t len)
{
	const struct sums_counting *s = (const struct sums_counting *)b;

	return td_bpf_counting_switch_tag(s->bpf, buf, len) ? -1 : 0;
}

static const struct td_counting_ops sums_ops = {
	.mode = TD_COUNTING_BPF,
	.from_birth = true,
	.thread_size = sums_thread_size,
	.free = sums_free,
	.add_process = sums_add_process,
	.thread_open = sums_thread_open,
	.thread_exit = sums_thread_nothing,
	.thread_close = sums_thread_nothing,
	.exit_usage = sums_exit_usage,
	.thread_reread = sums_thread_reread,
	.root_add = sums_root_add,
	.read = sums_read,
	.roots_read = sums_roots_read,
	.thread_read = sums_thread_read,
	.thread_delta = sums_thread_delta,
	.thread_switches = sums_thread_switches,
	.thread_commit = sums_thread_commit,
	.thread_forget = sums_thread_forget,
	.thread_settled = sums_thread_settled,
	.commit = sums_commit,
	.enable = sums_enable,
	.describe = sums_describe,
	.lost = sums_lost,
	.unseen = sums_unseen,
	.cgroup_follow = sums_cgroup_follow,
	.cgroup_sample = sums_cgroup_sample,
	.probe_attach = sums_probe_attach,
	.probe_detach = sums_probe_detach,
	.probe_idle = sums_probe_idle,
	.program_tag = sums_program_tag,
};

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
 * would); -1 with err when it fails otherwise. */
static int hardware_countable(struct td_counting_plan *plan, int g, td_err *err)
{
	struct td_perf_group pg;
	int failed = 0, rc = td_perf_group_open(&pg, &plan->specs[g], 0, -1, TD_OPEN_DISABLED, &failed);

	if (rc == 0) {
		td_perf_group_close(&pg);
		return 0;
	}
	td_perf_strerror(-rc, plan->specs[g].names[failed], plan->paranoid, plan->disabled[g],
			 sizeof(plan->disabled[g]));
	if (g > 0 && td_counting_cannot_count(-rc)) {
		plan->decided[g] = true;
		return 1;
	}
	td_err_set(err, "%.400s", plan->disabled[g]);
	plan->disabled[g][0] = '\0';
	return -1;
}

struct td_counting *td_counting_sums_new(struct td_counting_plan *plan, int map_entries, td_err *err)
{
	struct perf_event_attr attrs[TD_BPF_COUNT_MAX] = { { 0 } };
	bool leads[TD_BPF_COUNT_MAX] = { false };
	struct sums_counting *s = calloc(1, sizeof(*s));
	int n = 0, groups = 0;

	static_assert(TD_MAX_SPECS <= TD_BPF_GROUP_MAX, "a group of the program's per spec");

	if (!s) {
		td_err_set(err, "out of memory");
		return NULL;
	}
	for (int g = 0; g < plan->nspecs; g++) {
		s->base_event[g] = n;
		s->group[g] = groups;
		if (!only_software(&plan->specs[g]) && hardware_countable(plan, g, err) < 0)
			goto fail;
		if (plan->disabled[g][0] || plan->specs[g].n == 0)
			continue;
		if (n + plan->specs[g].n > TD_BPF_COUNT_MAX) {
			td_err_set(err,
				   "the plan has more than %d events, the most the BPF counting program holds: "
				   "count it with --counting=per-thread",
				   TD_BPF_COUNT_MAX);
			goto fail;
		}
		memcpy(attrs + n, plan->specs[g].attrs, (size_t)plan->specs[g].n * sizeof(attrs[0]));
		leads[n] = true; /* each spec one group per CPU: its events are counted together */
		n += plan->specs[g].n;
		groups++;
	}
	s->what = (plan->follow_children ? TD_BPF_FOLLOW_CHILDREN : 0) | (plan->sum_cgroups ? TD_BPF_SUM_CGROUPS : 0) |
		  (plan->track_bpf ? TD_BPF_WITH_TRACKER : 0);
	s->map_entries = map_entries;
	s->stats_fd = -1;
	memcpy(s->attrs, attrs, sizeof(attrs));
	memcpy(s->leads, leads, sizeof(leads));
	if (!(s->bpf = td_bpf_counting_new(attrs, leads, n, s->what, map_entries, err)))
		goto fail;
	s->base.ops = &sums_ops;
	s->base.plan = plan;
	s->events = n;
	note(s);
	return &s->base;
fail:
	free(s);
	return NULL;
}
