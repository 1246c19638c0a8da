/* session_sink: what a session's collector reads goes into SQLite — thread
 * and CPU targets, raw counts, the event plan, metric values evaluated live
 * (live_metrics), a group of intervals per transaction, retention while running —
 * and the --rotate / TD_DEBUG_RAW set-up of the collector. */
#include <assert.h>
#include <math.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/catalog.h"
#include "machine/procfs.h"
#include "session_impl.h"
#include "collect/read_cost.h"

#define SPEC_SOFTWARE 0 /* software.td's first group, with TASK_CLOCK: every thread counts it */

static const char *const proc_event_names[2] = { "VOLUNTARY_SWITCHES", "INVOLUNTARY_SWITCHES" };
static const char *const proc_event_specs[2] = { "proc:voluntary_ctxt_switches", "proc:nonvoluntary_ctxt_switches" };

static int ensure_thread_row(struct td_session *rs, struct td_thread *t)
{
	if (t->store_id > 0)
		return 0;
	t->store_id = td_store_thread_add(rs->store, rs->session, t->pid, t->tid, t->comm, t->first_seen_ns);
	return t->store_id > 0 ? 0 : -1;
}

/* One target's values of one group: the store keeps them as one row. n is
 * at most TD_GROUP_MAX (a perf group's size; /proc's 2). c: what the
 * collector read, since the open group of intervals began (a switch pair:
 * since its last row already, counting_backend.h); d: the row, what to
 * evaluate (session_written.c); *none: no row (nothing moved since the
 * group's last row of it). */
static int write_counts(struct td_session *rs, int64_t target, const int64_t *events, const struct td_count *c, int n,
			struct td_count *d, bool *none)
{
	bool since_row = events == rs->proc_event_ids;

	struct td_store_count v[TD_GROUP_MAX];

	_Static_assert(TD_GROUP_MAX >= 2, "the /proc pair fits");
	*none = false;
	if (n > TD_GROUP_MAX)
		return -1;
	if (rs->group_max > 1 && !since_row) {
		if (td_written_row(&rs->written, target, events[0], c, n, d, none))
			return -1;
		if (*none)
			return 0;
	} else {
		memcpy(d, c, (size_t)n * sizeof(*c));
	}
	for (int i = 0; i < n; i++)
		v[i] = (struct td_store_count){ events[i], d[i].value, d[i].enabled, d[i].running };
	return td_store_counts_add(rs->store, rs->interval_id, target, v, n);
}

/* Is it this thread's turn to have its row's name and last sighting
 * written? Every thread once in about a second of intervals (each
 * interval at -I 1000 and above), spread over them by blocks of
 * SEEN_BLOCK consecutive row ids: the rows of a block share a page or
 * two of the targets table, and an interval that updates them writes
 * those pages alone. Spread one row id each (as it was), every interval
 * updated rows on every page of the table: at 13 threads one page more
 * in each interval's commit, at 1,000 threads all ~15 of them. */
#define SEEN_BLOCK 64
static bool seen_due(const struct td_session *rs, const struct td_thread *t)
{
	int every = rs->o.interval_ms >= 1000 ? 1 : 1000 / rs->o.interval_ms;

	return (t->store_id / SEEN_BLOCK + rs->seq) % every == 0;
}

static int sink_counts(void *ctx, struct td_thread *t, int spec, const struct td_count *c, int n)
{
	struct td_session *rs = ctx;

	struct td_count d[TD_GROUP_MAX];
	bool none;

	if (ensure_thread_row(rs, t))
		return -1;
	if (write_counts(rs, t->store_id, spec == TD_SPEC_PROC ? rs->proc_event_ids : rs->event_ids[spec], c, n, d,
			 &none))
		return -1;
	for (int i = 0; i < n && !none; i++) {
		if (spec != TD_SPEC_PROC && rs->live && rs->spec_live[spec] >= 0 &&
		    td_live_count(rs->live, rs->spec_live[spec], t->store_id, t->pid, t->tid, t->comm,
				  rs->spec_alias[spec][i], rs->live_group[spec][i], &d[i]))
			return -1;
	}
	/* the row's name (the collector keeps it current: tracker events, /proc in turn) and
	 * last sighting: written about once a second, in turn, and for every thread at the
	 * end, never for all threads every interval */
	if (spec == SPEC_SOFTWARE && !t->gone && (rs->final_write || seen_due(rs, t)))
		return td_store_thread_seen(rs->store, t->store_id, t->comm, t->last_seen_ns, false);
	return 0;
}

static int sink_gone(void *ctx, struct td_thread *t)
{
	struct td_session *rs = ctx;

	if (ensure_thread_row(rs, t))
		return -1;
	return td_store_thread_seen(rs->store, t->store_id, t->comm, t->last_seen_ns, true);
}

/* Target of a core or socket aggregate (created on first use, however many
 * cores and sockets there are); 0 if the socket is unknown, -1 on error. */
static int64_t cpu_aggregate(struct td_session *rs, int core, int socket)
{
	struct cpu_aggregate *a;

	if (socket < 0)
		return 0;
	for (int i = 0; i < rs->naggs; i++)
		if (rs->aggs[i].core == core && rs->aggs[i].socket == socket)
			return rs->aggs[i].id;
	if (!(a = td_array_push(&rs->aggs, &rs->naggs, sizeof(*rs->aggs))))
		return -1;
	a->core = core;
	a->socket = socket;
	return a->id = td_store_cpu_add(rs->store, rs->session, -1, core, socket);
}

static int sink_cpu(void *ctx, struct td_cpu_slot *cpu, int spec, const struct td_count *c, int n)
{
	struct td_session *rs = ctx;
	struct td_count d[TD_GROUP_MAX];
	int64_t agg[2];
	bool none;

	if (cpu->store_id <= 0 &&
	    (cpu->store_id = td_store_cpu_add(rs->store, rs->session, cpu->cpu, cpu->core, cpu->socket)) < 0)
		return -1;
	agg[0] = cpu->core >= 0 ? cpu_aggregate(rs, cpu->core, cpu->socket) : 0;
	agg[1] = cpu_aggregate(rs, -1, cpu->socket);
	if (agg[0] < 0 || agg[1] < 0)
		return -1;
	if (write_counts(rs, cpu->store_id, rs->event_ids[spec], c, n, d, &none))
		return -1;
	for (int i = 0; i < n && !none; i++) {
		if (rs->live && rs->spec_live[spec] >= 0 &&
		    td_live_count_agg(rs->live, rs->spec_live[spec], cpu->store_id, cpu->cpu, agg,
				      rs->spec_alias[spec][i], rs->live_group[spec][i], &d[i]))
			return -1;
	}
	return 0;
}

/* record --cgroup: the cgroup's counts on each CPU, summed over the CPUs. */
static int sink_cgroup_cpu(void *ctx, struct td_cpu_slot *cpu, int spec, const struct td_count *c, int n)
{
	struct td_session *rs = ctx;

	(void)cpu;
	for (int i = 0; i < n; i++) {
		rs->cg_sum[spec][i].value += c[i].value;
		rs->cg_sum[spec][i].enabled += c[i].enabled;
		rs->cg_sum[spec][i].running += c[i].running;
	}
	rs->cg_have[spec] = true;
	return 0;
}

/* record --cgroup summed by BPF: the cgroup's counts of group spec `spec`. */
static int sink_cgroup_bpf(void *ctx, int spec, const struct td_count *c, int n)
{
	return sink_cgroup_cpu(ctx, NULL, spec, c, n);
}

static int write_cgroup_counts(struct td_session *rs)
{
	static const int64_t none[2] = { 0, 0 };

	if (rs->cg_target <= 0 &&
	    (rs->cg_target = td_store_target_add(rs->store, rs->session, "cgroup", 0, NULL, rs->cg_path)) < 0)
		return -1;
	for (int g = 0; g < rs->nspecs; g++) {
		struct td_count d[TD_GROUP_MAX];
		bool same;
		if (!rs->cg_have[g])
			continue;
		if (write_counts(rs, rs->cg_target, rs->event_ids[g], rs->cg_sum[g], rs->specs[g].n, d, &same))
			return -1;
		for (int i = 0; i < rs->specs[g].n && !same; i++) {
			const struct td_count *c = &d[i];
			if (rs->live && rs->spec_live[g] >= 0 &&
			    td_live_count_agg(rs->live, rs->spec_live[g], rs->cg_target, -1, none, rs->spec_alias[g][i],
					      rs->live_group[g][i], c))
				return -1;
		}
	}
	memset(rs->cg_sum, 0, sizeof(rs->cg_sum));
	memset(rs->cg_have, 0, sizeof(rs->cg_have));
	return 0;
}

void session_sink_init(struct td_session *rs)
{
	rs->sink.ctx = rs;
	rs->sink.thread_born = NULL; /* rows are written with the interval that first counts them */
	rs->sink.thread_gone = sink_gone;
	rs->sink.counts = sink_counts;
}

/* Keep the database within the run's retention limits: at the start and
 * after each commit, short steps (td_store_retain_step: small
 * transactions, no VACUUM) while something is due, for at most a fifth of
 * the intervals committed, so that sampling never waits for retention. */
static void enforce_retention(struct td_session *rs, int intervals)
{
	uint64_t deadline = td_now_ns() + (uint64_t)intervals * (uint64_t)rs->o.interval_ms * 1000000ull / 5;
	struct td_prune_result pr;
	td_err err;
	int rc;

	if (!rs->o.max_age_ns && !rs->o.max_bytes)
		return;
	do
		rc = td_store_retain_step(rs->store, rs->o.max_age_ns, rs->o.max_bytes, &pr, &err);
	while (rc > 0 && td_now_ns() < deadline);
	if (rc < 0)
		session_say(rs, TD_SAY_WARNING, "retention: %s", err.msg);
}

void session_enforce_retention(struct td_session *rs)
{
	enforce_retention(rs, 1);
}

/* The interval's transaction, or its group's, failed: forget what was made
 * and summed in it (the readings stay, so the next interval delivers these
 * counts again). */
static void forget_interval(struct td_session *rs, int64_t above)
{
	int kept = 0;

	td_collector_forget_ids(rs->col, above);
	if (rs->sys)
		td_syswide_forget_ids(rs->sys, above);
	if (rs->live)
		td_live_rollback(rs->live, above);
	for (int i = 0; i < rs->naggs; i++)
		if (rs->aggs[i].id <= above)
			rs->aggs[kept++] = rs->aggs[i];
	rs->naggs = kept;
	if (rs->cg_target > above)
		rs->cg_target = 0;
	memset(rs->cg_sum, 0, sizeof(rs->cg_sum));
	memset(rs->cg_have, 0, sizeof(rs->cg_have));
}

/* The interval's rows are written (committed, or in its group's open
 * transaction): the next interval's row begins here. */
static void row_written(struct td_session *rs, uint64_t now, uint64_t cpu, uint64_t reads, bool have_calls,
			uint64_t calls)
{
	if (have_calls) {
		rs->cost_syscalls = calls;
		rs->syscalls_read_ns = now;
	}
	rs->cost_cpu_ns = cpu;
	rs->cost_reads = reads;
	rs->seq++;
	rs->interval_start = now;
}

/* The interval, or the group of intervals from `first`, committed: the
 * readings become the next interval's base. */
static void committed(struct td_session *rs, int first)
{
	td_collector_commit(rs->col);
	session_hotspots_commit(rs);
	if (rs->sys)
		td_syswide_commit(rs->sys);
	if (rs->live)
		td_live_committed(rs->live);
	if (rs->write_failed)
		session_say(rs, TD_SAY_NOTE,
			    "interval %d written: it holds the counts of the %d attempt%s that failed before "
			    "it",
			    first, rs->failed_streak, rs->failed_streak == 1 ? "" : "s");
	rs->write_failed = false;
	rs->failed_streak = 0;
	td_written_reset(&rs->written);
	if (!rs->final_write && !rs->o.store)
		enforce_retention(rs, rs->seq - first);
	rs->group_n = 0;
}

/* The interval's transaction, or its group's, failed (why): what was made
 * in it forgotten, its readings kept for the next interval, which begins
 * where the group did. */
static void not_written(struct td_session *rs, const char *why, const char *advice)
{
	forget_interval(rs, rs->group_at.above < 0 ? INT64_MAX : rs->group_at.above);
	rs->seq = rs->group_at.seq;
	rs->interval_start = rs->group_at.start;
	rs->cost_cpu_ns = rs->group_at.cpu;
	rs->cost_reads = rs->group_at.reads;
	rs->cost_syscalls = rs->group_at.calls;
	rs->syscalls_read_ns = rs->group_at.calls_ns;
	rs->group_n = 0;
	td_written_reset(&rs->written);
	if (!rs->write_failed)
		session_say(rs, TD_SAY_WARNING,
			    "cannot write interval %d to the database: %s; its counts are kept and "
			    "go into the next interval written",
			    rs->seq, why);
	snprintf(rs->write_error, sizeof(rs->write_error), "%s", why);
	rs->write_advice = advice;
	rs->write_failed = true;
	rs->failed_streak++;
	rs->failed_writes++;
}

/* The process's costs so far (CPU time, counter reads, system calls:
 * false when those are not known or not wanted), read once for a batch of
 * sessions written in one wake-up. */
static struct {
	bool on, read, calls_read, have_calls;
	uint64_t cpu, reads, calls;
} costs;

/* The read and write system calls (/proc/self/io: a read costs ~21 us on a
 * 2-vCPU guest after an interval asleep, 5 % of a 13-thread interval at
 * -I 100) are read for an interval at most once a second, and for the
 * last: an interval's `syscalls` counts those since the previous interval
 * that has them (NULL between), so their sum up to one is every call. */
#define SYSCALLS_EVERY_NS 1000000000ull

void session_costs_batch(bool on)
{
	costs.on = on;
	costs.read = false;
}

static bool costs_now(bool want_calls, uint64_t *cpu, uint64_t *reads, uint64_t *calls)
{
	if (!costs.on || !costs.read) {
		costs.cpu = td_process_cpu_ns();
		costs.reads = td_perf_group_reads() + td_bpf_counting_reads();
		costs.calls_read = costs.have_calls = false;
		costs.read = costs.on;
	}
	if (want_calls && !costs.calls_read) {
		costs.calls = 0;
		costs.have_calls = td_self_syscalls(&costs.calls) == 0;
		costs.calls_read = true;
	}
	*cpu = costs.cpu;
	*reads = costs.reads;
	*calls = costs.calls;
	return want_calls && costs.have_calls;
}

/* How long a group of intervals is: up to GROUP_NS of them. Each interval
 * its own transaction, a 13-thread session at -I 100 spent a third of its
 * sampling time beginning and committing them (BEGIN's locks and WAL index
 * reads, COMMIT's frames: ~8 WAL frames an interval). Half a second's
 * group, five of them: also the longest another writer of the same
 * database waits for its lock (BUSY_MS in store.c gives it 5 s). */
#define GROUP_NS 500000000ull

void session_group_init(struct td_session *rs, bool alone)
{
	uint64_t every = (uint64_t)rs->o.interval_ms * 1000000ull;

	/* Only a session alone in its process and database: beside others (topdownd's, tdctl
	 * stat's several processes) each would hold the database's write lock half a second
	 * while the others, sampled by the same loop, wait for it. And not with hotspot rows,
	 * which an interval writes as they stand, with --rotate, whose rows' enabled time (the
	 * reference's, or the group's running time where larger: collector.c's rebase) does not
	 * add up over differences, or TD_DEBUG_RAW, which records what each sample read. */
	rs->group_max = !alone || rs->o.store || rs->hot || rs->o.rotate_ms > 0 || rs->raw_dump || every >= GROUP_NS
				? 1
				: (int)(GROUP_NS / every);
	rs->group_n = 0;
}

/* Read everything and write one interval. Intervals are committed a group
 * at a time: up to group_max of them (session_group_init: about half a
 * second's) in one transaction (td_store_group_begin: no savepoints), the
 * last, the final interval or a failure ending the group. When a write
 * fails (disk full, I/O error, a lock), nothing is lost: the group's
 * readings stay uncommitted (the collector is committed only with the
 * group; its rows hold differences: session_written.c) and the next
 * interval written covers all of them, from the start of the group's first
 * (its row spans them). A kill loses the open group's intervals, never
 * one committed. In a shared store's outer transaction (group_max 1), the
 * interval is committed with it: td_session_settle. */
int session_write_interval(struct td_session *rs, bool final)
{
	uint64_t now = td_wall_ns();
	char why[sizeof(rs->write_error)];
	const char *advice;
	td_err err;

	assert(!rs->settle_pending);
	rs->final_write = final;
	if (rs->group_n == 0) {
		/* a group begins: what it goes back to when it fails */
		rs->group_at.seq = rs->seq;
		rs->group_at.start = rs->interval_start;
		rs->group_at.cpu = rs->cost_cpu_ns;
		rs->group_at.reads = rs->cost_reads;
		rs->group_at.calls = rs->cost_syscalls;
		rs->group_at.calls_ns = rs->syscalls_read_ns;
		if ((rs->group_at.above = td_store_max_target_id(rs->store)) < 0)
			goto fail;
		if (rs->group_max > 1)
			td_store_group_begin(rs->store);
	}
	if (td_store_begin(rs->store))
		goto fail_group;
	td_store_batch_begin(rs->store); /* thousands of samples rows an interval: 16 to an INSERT */
	rs->interval_id = td_store_interval_add(rs->store, rs->session, rs->seq, rs->interval_start, now);
	if (rs->interval_id < 0)
		goto fail_tx;
	if ((final ? td_collector_finish(rs->col, now, &rs->sink) : td_collector_sample(rs->col, now, &rs->sink)))
		goto fail_tx;
	if (rs->sys && td_syswide_sample(rs->sys, rs->cg_fd >= 0 ? sink_cgroup_cpu : sink_cpu, rs))
		goto fail_tx;
	if (rs->sys && rs->cg_fd >= 0 && write_cgroup_counts(rs))
		goto fail_tx;
	if (rs->cg_bpf && (td_collector_cgroup_sample(rs->col, sink_cgroup_bpf, rs) || write_cgroup_counts(rs)))
		goto fail_tx;
	if (rs->live && td_live_flush(rs->live, rs->interval_id, rs->seq, (double)(now - rs->interval_start) / 1e9))
		goto fail_tx;
	if (td_store_batch_end(rs->store) || session_hotspots_write(rs))
		goto fail_tx;
	/* what this interval cost tdctl: its CPU time and reads since the last interval (all its
	 * sessions: one process samples them all; in a batch, as of the batch's first interval) */
	uint64_t cpu, reads, calls;
	bool have_calls = costs_now(final || now - rs->syscalls_read_ns >= SYSCALLS_EVERY_NS, &cpu, &reads, &calls);
	if (td_store_interval_cost(rs->store, rs->interval_id, cpu - rs->cost_cpu_ns, reads - rs->cost_reads,
				   have_calls ? (int64_t)(calls - rs->cost_syscalls) : -1))
		goto fail_tx;
	if (td_store_commit(rs->store))
		goto fail_tx;
	if (rs->group_max > 1) {
		int first = rs->group_at.seq;
		row_written(rs, now, cpu, reads, have_calls, calls);
		if (++rs->group_n < rs->group_max && !final)
			return 0;
		if (td_store_outer_end(rs->store, &err)) {
			snprintf(why, sizeof(why), "%s", err.msg);
			advice = td_store_disk_advice(rs->store);
			goto said;
		}
		committed(rs, first);
		return 0;
	}
	if (td_store_outer_open(rs->store)) {
		rs->settle_pending = true;
		rs->settle_now = now;
		rs->settle_cpu = cpu;
		rs->settle_reads = reads;
		rs->settle_calls = calls;
		rs->settle_have_calls = have_calls;
		return 0;
	}
	row_written(rs, now, cpu, reads, have_calls, calls);
	committed(rs, rs->seq - 1);
	return 0;
fail_tx:
	snprintf(why, sizeof(why), "%s", td_store_errmsg(rs->store)); /* what failed, not what the rollback says */
	advice = td_store_disk_advice(rs->store);
	td_store_rollback(rs->store);
	if (rs->group_max > 1)
		td_store_outer_abort(rs->store); /* the group's other intervals with it */
	goto said;
fail_group:
	if (rs->group_max > 1) {
		snprintf(why, sizeof(why), "%s", td_store_errmsg(rs->store));
		advice = td_store_disk_advice(rs->store);
		td_store_outer_abort(rs->store);
		goto said;
	}
fail:
	snprintf(why, sizeof(why), "%s", td_store_errmsg(rs->store));
	advice = td_store_disk_advice(rs->store);
said:
	not_written(rs, why, advice);
	return -1;
}

bool td_session_settle(struct td_session *s, const char *why)
{
	if (!s->settle_pending)
		return false;
	s->settle_pending = false;
	if (why) {
		not_written(s, why, NULL);
	} else {
		row_written(s, s->settle_now, s->settle_cpu, s->settle_reads, s->settle_have_calls, s->settle_calls);
		committed(s, s->seq - 1);
	}
	return true;
}

void td_session_retain(struct td_session *s)
{
	session_enforce_retention(s);
}

int session_register_events(struct td_session *rs)
{
	for (int g = 0; g < rs->nspecs; g++) {
		const char *why = session_spec_disabled(rs, g);
		for (int i = 0; i < rs->specs[g].n; i++) {
			rs->event_ids[g][i] =
				td_store_event_add(rs->store, rs->session, rs->specs[g].names[i], rs->spec_events[g][i],
						   rs->event_group[g][i], rs->specs[g].attrs[i].type,
						   rs->specs[g].attrs[i].config, why ? "failed" : "counting",
						   why			  ? why
						   : rs->split_note[g][0] ? rs->split_note[g]
									  : NULL,
						   rs->spec_files[g]);
			if (rs->event_ids[g][i] < 0)
				return -1;
		}
	}
	for (int k = 0; k < 2; k++)
		if ((rs->proc_event_ids[k] =
			     td_store_event_add(rs->store, rs->session, proc_event_names[k], proc_event_specs[k], -1, 0,
						0, "counting", NULL, "proc")) < 0)
			return -1;
	return 0;
}

void session_record_read_cost(struct td_session *rs)
{
	for (int g = 0; g < rs->nspecs; g++) {
		struct td_read_cost rc;
		bool any = false;
		if (session_spec_disabled(rs, g))
			continue;
		for (int i = 0; i < rs->specs[g].n; i++)
			any |= td_read_cost_affects(&rs->specs[g], i);
		if (!any || td_read_cost_measure(&rs->specs[g], &rc))
			continue;
		if (!rc.measured) {
			session_say(rs, TD_SAY_NOTE, "what topdown's reads add to the counts is not measured: %s",
				    rc.why);
			continue;
		}
		for (int i = 0; i < rs->specs[g].n; i++)
			if (!isnan(rc.per_read[i]) && rs->event_ids[g][i] > 0)
				td_store_event_set_read_cost(rs->store, rs->event_ids[g][i], rc.per_read[i]);
	}
}

/* The last switch cost this process measured, for a mode and a number of
 * events counted per thread: topdownd starts its sessions in the loop every
 * session samples in, and the ~0.1 s the measure takes (more on a loaded
 * host) would hold up every running session's intervals each time one
 * starts. Measured again after TD_SWITCH_COST_KEEP_NS. Else the figure of
 * the database's latest session of this boot counted the same way (mode
 * and events counting: td_store_switch_cost_this_boot), copied whole, so
 * that the summary can name the session it was measured at; else, where
 * the options name one (tdctl), the figure a file keeps for this boot, kernel,
 * mode and events (session_cost_cache.c: a run into a new database), said as
 * such and not stored; else measured now (tens of ms of CPU, most of a short
 * run's start) and kept in that file. */
#define TD_SWITCH_COST_KEEP_NS (600 * 1000000000ull)
static struct {
	bool have;
	char mode[64];
	int events;
	uint64_t at_ns;
	struct td_switch_cost sc;
} last_switch_cost;

void session_record_switch_cost(struct td_session *rs)
{
	struct td_switch_cost sc;
	bool bpf = td_collector_counting_bpf(rs->col);
	const char *how = td_collector_counting(rs->col);
	/* the kind of figure: per-task groups, the tp_btf program or the raw_tp one (session_cost_cache.c) */
	bool raw = how && strstr(how, TD_COUNTING_RAW_TP_NOTE), self = how && strstr(how, TD_COUNTING_SELF_NOTE);
	const char *kind = !bpf		 ? "per-task"
			   : raw && self ? "bpf-all-raw_tp-self"
			   : raw	 ? "bpf-all-raw_tp"
			   : self	 ? "bpf-all-self"
					 : "bpf-all";
	char mode[64], tag[24];
	int events = 0;
	uint64_t now = td_now_ns();

	/* with BPF, the program's tag too (session_cost_cache.c): a figure kept by another
	 * program, of an earlier build on this boot, is not taken for this one's */
	if (bpf && td_collector_counting_tag(rs->col, tag, sizeof(tag)) == 0)
		snprintf(mode, sizeof(mode), "%s@%s", kind, tag);
	else
		snprintf(mode, sizeof(mode), "%s", kind);
	for (int g = 0; g < rs->nspecs; g++)
		if (!session_spec_disabled(rs, g))
			events += rs->specs[g].n;
	/* per thread, each task also carries its root's inherited spec 0 (the unlisted remainder)
	 * unless --unlisted=off: the events the kernel switches with it, the cost's key */
	if (!bpf && !rs->o.unlisted_off && rs->nspecs > 0 && !session_spec_disabled(rs, 0))
		events += rs->specs[0].n;
	if (last_switch_cost.have && !strcmp(last_switch_cost.mode, mode) && last_switch_cost.events == events &&
	    now - last_switch_cost.at_ns < TD_SWITCH_COST_KEEP_NS) {
		sc = last_switch_cost.sc;
	} else if (td_store_switch_cost_this_boot(rs->store, rs->session, &sc.ns) == 1) {
		sc.measured = true;
	} else if (rs->o.switch_cost_cache &&
		   session_cost_cache_get(rs->o.switch_cost_cache, mode, events, &rs->res.switch_cost_kept_ns,
					  rs->res.switch_cost_kept, sizeof(rs->res.switch_cost_kept)) == 1) {
		/* not this session's measure: said at the end (the summary), not stored with it */
		session_say(rs, TD_SAY_NOTE,
			    "what counting adds to the target's context switches: %.0f ns, this boot's figure %s; not "
			    "measured again",
			    rs->res.switch_cost_kept_ns, rs->res.switch_cost_kept);
		return;
	} else {
		if (td_collector_switch_cost(rs->col, &sc))
			return;
		rs->helper_cpu_ns += sc.cpu_ns;
		last_switch_cost.have = true;
		snprintf(last_switch_cost.mode, sizeof(last_switch_cost.mode), "%s", mode);
		last_switch_cost.events = events;
		last_switch_cost.at_ns = now;
		last_switch_cost.sc = sc;
		/* kept as "bpf-all" (session_cost_cache.c): not a figure that left the idle switches out */
		if (sc.measured && rs->o.switch_cost_cache && !sc.idle_unknown)
			session_cost_cache_put(rs->o.switch_cost_cache, mode, events, sc.ns);
	}
	if (!sc.measured) {
		session_say(rs, TD_SAY_NOTE, "what counting adds to the target's context switches is not measured: %s",
			    sc.why);
		return;
	}
	if (sc.idle_unknown)
		session_say(
			rs, TD_SAY_NOTE,
			"what counting adds to the target's context switches leaves out what the BPF program runs at "
			"the switches of threads nobody follows: its run-time statistics did not turn on "
			"(BPF_ENABLE_STATS needs CAP_SYS_ADMIN and Linux 5.8)");
	td_store_session_switch_cost(rs->store, rs->session, sc.ns);
}

/* The models evaluated every interval: each events file with a group that
 * counts (software.td always; hardware files only where their groups open). */
int session_setup_live(struct td_session *rs, td_err *err)
{
	if (!(rs->live = td_live_new(rs->store, rs->session, rs->caps.smt_on, (int)sysconf(_SC_NPROCESSORS_ONLN),
				     rs->o.thread_metrics))) {
		td_err_set(err, "out of memory");
		return -1;
	}
	if (rs->o.print_fn)
		td_live_set_printer(rs->live, rs->o.print_fn, rs->o.print_ctx, rs->o.print_leaves);
	if (rs->o.print_fn && rs->o.print_tree)
		td_live_print_tree(rs->live);
	for (int g = 0; g < rs->nspecs; g++) {
		rs->spec_live[g] = -1;
		if (session_spec_disabled(rs, g))
			continue;
		for (int k = 0; k < g && rs->spec_live[g] < 0; k++)
			if (!strcmp(rs->spec_files[k], rs->spec_files[g]))
				rs->spec_live[g] = rs->spec_live[k];
		if (rs->spec_live[g] < 0) {
			char path[1024];
			int ngroups = rs->file_groups[g]; /* its specs and the parts of those split */
			snprintf(path, sizeof(path), "%s/%s", td_events_dir(rs->o.events_dir), rs->spec_files[g]);
			if (!strcmp(rs->spec_files[g], "-e")) {
				/* the parser writes into the text: give it a copy */
				char *text = strdup(rs->extra_td);
				rs->spec_live[g] = text ? td_live_add_text(rs->live, "-e", text, ngroups, err) : -1;
				free(text);
			} else {
				const char *prefix = rs->hybrid_file[0] && !strcmp(rs->spec_files[g], rs->hybrid_file)
							     ? rs->hybrid_prefix
							     : "";
				struct plan_file *k = NULL;
				for (int i = 0; i < rs->nplan_files && !k; i++)
					if (rs->plan_files[i].cat && !strcmp(rs->plan_files[i].name, rs->spec_files[g]))
						k = &rs->plan_files[i];
				if (k) { /* as the plan read it: taken over */
					rs->spec_live[g] =
						td_live_add_catalog(rs->live, k->cat, k->model, prefix, ngroups, err);
					k->cat = NULL;
					k->model = NULL;
				} else {
					rs->spec_live[g] =
						td_live_add_file_prefixed(rs->live, path, prefix, ngroups, err);
				}
			}
			if (rs->spec_live[g] < 0)
				return -1;
		}
		for (int i = 0; i < rs->specs[g].n; i++) {
			char e_alias[16]; /* -e: the text names its event E<index + 1> (session_plan.c) */
			snprintf(e_alias, sizeof(e_alias), "E%d", rs->spec_group[g] + 1);
			rs->spec_alias[g][i] =
				td_live_alias(rs->live, rs->spec_live[g],
					      strcmp(rs->spec_files[g], "-e") ? rs->specs[g].names[i] : e_alias);
		}
	}
	return 0;
}

/* --rotate: every group but the first (software.td's group with TASK_CLOCK,
 * the always-on reference) takes turns. TD_DEBUG_RAW=FILE dumps what the
 * kernel reported for every delivered group (tests compare it with the DB). */
int session_setup_rotation(struct td_session *rs, td_err *err)
{
	const char *dump = getenv("TD_DEBUG_RAW");

	if (dump && *dump) {
		if (!(rs->raw_dump = fopen(dump, "we"))) {
			td_err_set(err, "cannot write TD_DEBUG_RAW file '%s': %s", dump, strerror(errno));
			return -1;
		}
		td_collector_dump_raw(rs->col, rs->raw_dump);
	}
	if (rs->o.rotate_ms > 0) {
		bool rotated[TD_MAX_SPECS] = { false };
		for (int g = 1; g < rs->nspecs; g++)
			rotated[g] = true;
		td_collector_set_rotation(rs->col, 0, rotated);
	}
	return 0;
}
