/* store_read: reading sessions back — per-thread totals and failed events
 * for summaries, session rows, the event plan, targets, raw counts and
 * metric values of a session, and arbitrary read-only queries. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "store_impl.h"

/* Prepare sql with ?1 = session, or NULL. */
static sqlite3_stmt *prepare_session(struct td_store *s, const char *sql, int64_t session)
{
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK)
		return NULL;
	sqlite3_bind_int64(st, 1, session);
	return st;
}

/* The values of a samples row, parsed from its JSON array of integers
 * into v (grown as needed). The number of values, or -1 if the text is not
 * such an array (a damaged or hand-edited file). */
struct unpacked {
	int64_t *v;
	int n, cap;
};

static int unpack(const unsigned char *text, struct unpacked *u)
{
	const char *p = (const char *)text;
	char *end;

	u->n = 0;
	if (!p || *p++ != '[')
		return -1;
	if (*p == ']')
		return 0;
	for (;;) {
		long long x;
		errno = 0;
		x = strtoll(p, &end, 10);
		if (end == p || errno)
			return -1;
		if (u->n == u->cap) {
			int cap = u->cap ? 2 * u->cap : 16;
			int64_t *nv = realloc(u->v, (size_t)cap * sizeof(*nv));
			if (!nv)
				return -1;
			u->v = nv;
			u->cap = cap;
		}
		u->v[u->n++] = x;
		p = end;
		if (*p == ']')
			return p[1] ? -1 : u->n;
		if (*p++ != ',')
			return -1;
	}
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* Index of id in the sorted ids[0..n), or -1. */
static int find_id(const int64_t *ids, int n, int64_t id)
{
	const int64_t *hit = bsearch(&id, ids, (size_t)n, sizeof(*ids), cmp_i64);

	return hit ? (int)(hit - ids) : -1;
}

/* A thread's totals for one event, summed in C from the packed samples. */
struct thread_sum {
	uint64_t value, enabled, running;
	double scaled;
	int scaled_n, intervals, not_counted;
};

struct thread_totals {
	struct td_thread_total *threads; /* in pid, tid, id order (the output order) */
	int64_t *thread_ids;		 /* sorted, with thread_pos: where each is in threads */
	int *thread_pos;
	int nthreads;
	int64_t *event_ids; /* sorted */
	char **event_names;
	int nevents;
	struct thread_sum *sum; /* [thread position][event index] */
};

static void thread_totals_free(struct thread_totals *t)
{
	for (int i = 0; i < t->nevents; i++)
		free(t->event_names[i]);
	free(t->threads);
	free(t->thread_ids);
	free(t->thread_pos);
	free(t->event_ids);
	free(t->event_names);
	free(t->sum);
}

static int load_threads(struct td_store *s, int64_t session, struct thread_totals *t)
{
	sqlite3_stmt *st = prepare_session(s,
					   "SELECT id, pid, tid, comm, first_seen_ns, last_seen_ns FROM threads"
					   " WHERE session_id=?1 ORDER BY pid, tid = 0, tid, id",
					   session);
	int step;

	if (!st)
		return -1;
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		struct td_thread_total *x = td_array_push(&t->threads, &t->nthreads, sizeof(*x));
		if (!x)
			break;
		memset(x, 0, sizeof(*x));
		x->thread = sqlite3_column_int64(st, 0);
		x->pid = sqlite3_column_int(st, 1);
		x->tid = sqlite3_column_int(st, 2);
		snprintf(x->comm, sizeof(x->comm), "%s", td_store_col_text(st, 3));
		x->first_seen_ns = (uint64_t)sqlite3_column_int64(st, 4);
		x->last_seen_ns = (uint64_t)sqlite3_column_int64(st, 5);
	}
	sqlite3_finalize(st);
	if (step != SQLITE_DONE)
		return -1;
	t->thread_ids = malloc(((size_t)t->nthreads + 1) * sizeof(*t->thread_ids));
	t->thread_pos = malloc(((size_t)t->nthreads + 1) * sizeof(*t->thread_pos));
	if (!t->thread_ids || !t->thread_pos)
		return -1;
	for (int i = 0; i < t->nthreads; i++)
		t->thread_ids[i] = t->threads[i].thread;
	qsort(t->thread_ids, (size_t)t->nthreads, sizeof(*t->thread_ids), cmp_i64);
	for (int i = 0; i < t->nthreads; i++)
		t->thread_pos[find_id(t->thread_ids, t->nthreads, t->threads[i].thread)] = i;
	return 0;
}

static int load_events(struct td_store *s, int64_t session, struct thread_totals *t)
{
	sqlite3_stmt *st = prepare_session(s, "SELECT id, name FROM events WHERE session_id=?1 ORDER BY id", session);
	int step, n = 0;

	if (!st)
		return -1;
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		char *name = strdup(td_store_col_text(st, 1));
		int64_t *id = name ? td_array_push(&t->event_ids, &n, sizeof(*id)) : NULL;
		char **slot = id ? td_array_push(&t->event_names, &t->nevents, sizeof(*slot)) : NULL;
		if (!slot) {
			free(name);
			break;
		}
		*id = sqlite3_column_int64(st, 0);
		*slot = name;
	}
	sqlite3_finalize(st);
	return step == SQLITE_DONE ? 0 : -1;
}

/* Add one samples row (target, first event, enabled, running, vals) of a thread. */
static int add_thread_sample(struct thread_totals *t, sqlite3_stmt *st, struct unpacked *u)
{
	int th = find_id(t->thread_ids, t->nthreads, sqlite3_column_int64(st, 0));
	int64_t event = sqlite3_column_int64(st, 1);
	uint64_t enabled = (uint64_t)sqlite3_column_int64(st, 2), running = (uint64_t)sqlite3_column_int64(st, 3);

	if (th < 0)
		return 0; /* a CPU, process or other target */
	if (unpack(sqlite3_column_text(st, 4), u) < 0)
		return -1;
	for (int k = 0; k < u->n; k++) {
		int e = find_id(t->event_ids, t->nevents, event + k);
		struct thread_sum *x;
		uint64_t value = (uint64_t)u->v[k];
		if (e < 0)
			return -1;
		x = &t->sum[(size_t)t->thread_pos[th] * (size_t)t->nevents + (size_t)e];
		x->value += value;
		x->enabled += enabled;
		x->running += running;
		x->intervals++;
		/* not counted: enabled but never running (multiplexed out). enabled = 0 too is a
		 * thread that did not run in the interval: counted, and zero. */
		if (running == 0 && enabled > 0) {
			x->not_counted++;
			continue;
		}
		x->scaled += running >= enabled ? (double)value : (double)value * (double)enabled / (double)running;
		x->scaled_n++;
	}
	return 0;
}

int td_store_thread_totals(struct td_store *s, int64_t session, td_thread_total_fn fn, void *ctx)
{
	struct thread_totals t = { 0 };
	struct unpacked u = { 0 };
	sqlite3_stmt *st = NULL;
	int rc = -1, step = SQLITE_DONE;

	if (load_threads(s, session, &t) || load_events(s, session, &t))
		goto out;
	if (!(t.sum = calloc((size_t)t.nthreads * (size_t)t.nevents + 1, sizeof(*t.sum))))
		goto out;
	if (!(st = prepare_session(s,
				   "SELECT c.target_id, c.event_id, c.enabled, c.running, c.vals FROM intervals i"
				   " JOIN samples c ON c.interval_id = i.id WHERE i.session_id=?1",
				   session)))
		goto out;
	while ((step = sqlite3_step(st)) == SQLITE_ROW)
		if (add_thread_sample(&t, st, &u))
			goto out;
	if (step != SQLITE_DONE)
		goto out;
	rc = 0;
	for (int i = 0; rc == 0 && i < t.nthreads; i++)
		for (int e = 0; rc == 0 && e < t.nevents; e++) {
			const struct thread_sum *x = &t.sum[(size_t)i * (size_t)t.nevents + (size_t)e];
			struct td_thread_total r = t.threads[i];
			if (!x->intervals)
				continue;
			r.event = t.event_names[e];
			r.value = x->value;
			r.enabled = x->enabled;
			r.running = x->running;
			r.scaled = x->scaled_n ? x->scaled : NAN;
			r.intervals = x->intervals;
			r.not_counted = x->not_counted;
			rc = fn(&r, ctx);
		}
out:
	sqlite3_finalize(st);
	thread_totals_free(&t);
	free(u.v);
	return rc;
}

static int list_threads(struct td_store *s, int64_t session, bool counted, td_thread_total_fn fn, void *ctx)
{
	sqlite3_stmt *st =
		prepare_session(s,
				counted ? "SELECT id, pid, tid, comm, first_seen_ns, last_seen_ns FROM threads"
					  " WHERE session_id=?1 AND id IN (SELECT c.target_id FROM intervals i"
					  " JOIN samples c ON c.interval_id = i.id WHERE i.session_id=?1)"
					  " ORDER BY pid, tid = 0, tid, id"
					: "SELECT id, pid, tid, comm, first_seen_ns, last_seen_ns FROM threads"
					  " WHERE session_id=?1 ORDER BY pid, tid = 0, tid, id",
				session);
	int rc = 0, step = SQLITE_DONE;

	if (!st)
		return -1;
	while (rc == 0 && (step = sqlite3_step(st)) == SQLITE_ROW) {
		struct td_thread_total x = {
			.thread = sqlite3_column_int64(st, 0),
			.pid = sqlite3_column_int(st, 1),
			.tid = sqlite3_column_int(st, 2),
			.first_seen_ns = (uint64_t)sqlite3_column_int64(st, 4),
			.last_seen_ns = (uint64_t)sqlite3_column_int64(st, 5),
		};
		snprintf(x.comm, sizeof(x.comm), "%s", td_store_col_text(st, 3));
		rc = fn(&x, ctx);
	}
	if (rc == 0 && step != SQLITE_DONE)
		rc = -1;
	sqlite3_finalize(st);
	return rc;
}

int td_store_counted_threads(struct td_store *s, int64_t session, td_thread_total_fn fn, void *ctx)
{
	return list_threads(s, session, true, fn, ctx);
}

int td_store_session_threads(struct td_store *s, int64_t session, td_thread_total_fn fn, void *ctx)
{
	return list_threads(s, session, false, fn, ctx);
}

int td_store_failed_events(struct td_store *s, int64_t session, td_failed_events_fn fn, void *ctx)
{
	sqlite3_stmt *st;
	int rc = 0;

	if (sqlite3_prepare_v2(
		    s->db,
		    "SELECT group_concat(name, ' '), error FROM (SELECT name, error, min(id) AS first FROM events"
		    " WHERE session_id=? AND status='failed' GROUP BY error, name ORDER BY first)"
		    " GROUP BY error ORDER BY min(first)",
		    -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(st, 1, session);
	while (rc == 0 && sqlite3_step(st) == SQLITE_ROW)
		rc = fn((const char *)sqlite3_column_text(st, 0),
			sqlite3_column_text(st, 1) ? (const char *)sqlite3_column_text(st, 1) : "", ctx);
	sqlite3_finalize(st);
	return rc;
}

int td_store_read_cost(struct td_store *s, int64_t session, struct td_read_cost_row *out)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(s->db,
			       "SELECT e.name, e.read_cost, count(*), sum(c.value) FROM events e"
			       " JOIN counts c ON c.event_id = e.id"
			       " WHERE e.session_id = ?1 AND e.read_cost IS NOT NULL GROUP BY e.id"
			       " ORDER BY count(*) * e.read_cost / max(sum(c.value), 1) DESC LIMIT 1",
			       -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(st, 1, session);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		snprintf(out->event, sizeof(out->event), "%s",
			 sqlite3_column_text(st, 0) ? (const char *)sqlite3_column_text(st, 0) : "");
		out->per_read = sqlite3_column_double(st, 1);
		out->reads = sqlite3_column_int64(st, 2);
		out->counted = sqlite3_column_double(st, 3);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

static const char session_cols[] =
	"SELECT s.id, s.kind, s.status, s.command, s.host, s.rung, s.message, s.target_pid, s.started_ns,"
	" s.ended_ns, s.interval_ms, s.exit_code,"
	" (SELECT count(*) FROM threads t WHERE t.session_id = s.id AND t.tid != 0),"
	" (SELECT count(*) FROM intervals i WHERE i.session_id = s.id), s.kernel_counted,"
	" (SELECT count(*) FROM targets t WHERE t.session_id = s.id AND t.kind = 'cpu' AND t.cpu IS NOT NULL),"
	" (SELECT sum(collector_ns) FROM intervals i WHERE i.session_id = s.id),"
	" (SELECT count(collector_ns) FROM intervals i WHERE i.session_id = s.id),"
	" (SELECT sum(counter_reads) FROM intervals i WHERE i.session_id = s.id),"
	/* an interval's syscalls are those since the previous interval that has them (read at most
	 * once a second: session_sink.c), so their sum covers the intervals up to the last that has
	 * them (every one, in a session written before that) */
	" (SELECT sum(syscalls) FROM intervals i WHERE i.session_id = s.id), s.owner_uid, s.schedule,"
	" (SELECT count(collector_ns) FROM intervals i WHERE i.session_id = s.id AND i.seq <="
	"  (SELECT max(seq) FROM intervals j WHERE j.session_id = s.id AND j.syscalls IS NOT NULL))"
	" FROM sessions s";

static void fill_session(sqlite3_stmt *st, struct td_session_row *r)
{
#define TXT(i) (sqlite3_column_text(st, i) ? (const char *)sqlite3_column_text(st, i) : "")
	memset(r, 0, sizeof(*r));
	r->id = sqlite3_column_int64(st, 0);
	snprintf(r->kind, sizeof(r->kind), "%s", TXT(1));
	snprintf(r->status, sizeof(r->status), "%s", TXT(2));
	snprintf(r->command, sizeof(r->command), "%s", TXT(3));
	snprintf(r->host, sizeof(r->host), "%s", TXT(4));
	snprintf(r->rung, sizeof(r->rung), "%s", TXT(5));
	snprintf(r->message, sizeof(r->message), "%s", TXT(6));
#undef TXT
	r->target_pid = sqlite3_column_int(st, 7);
	r->started_ns = (uint64_t)sqlite3_column_int64(st, 8);
	r->ended_ns = (uint64_t)sqlite3_column_int64(st, 9);
	r->interval_ms = sqlite3_column_int(st, 10);
	r->has_exit_code = sqlite3_column_type(st, 11) != SQLITE_NULL;
	r->exit_code = sqlite3_column_int(st, 11);
	r->nthreads = sqlite3_column_int(st, 12);
	r->nintervals = sqlite3_column_int(st, 13);
	r->kernel_counted = sqlite3_column_int(st, 14) != 0;
	r->ncpus = sqlite3_column_int(st, 15);
	r->cost_intervals = sqlite3_column_int(st, 17);
	r->collector_ns = r->cost_intervals ? sqlite3_column_int64(st, 16) : -1;
	r->counter_reads = sqlite3_column_int64(st, 18);
	r->syscall_intervals = sqlite3_column_int(st, 22);
	r->syscalls = sqlite3_column_type(st, 19) == SQLITE_NULL || r->syscall_intervals <= 0
			      ? -1
			      : sqlite3_column_int64(st, 19);
	r->owner_uid = sqlite3_column_type(st, 20) == SQLITE_NULL ? -1 : sqlite3_column_int64(st, 20);
	if (sqlite3_column_text(st, 21))
		snprintf(r->schedule, sizeof(r->schedule), "%s", (const char *)sqlite3_column_text(st, 21));
}

int td_store_sessions(struct td_store *s, td_session_fn fn, void *ctx)
{
	char sql[sizeof(session_cols) + 32];
	sqlite3_stmt *st;
	int rc = 0;

	snprintf(sql, sizeof(sql), "%s ORDER BY s.id", session_cols);
	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	int step = SQLITE_DONE;
	while (rc == 0 && (step = sqlite3_step(st)) == SQLITE_ROW) {
		struct td_session_row r;
		fill_session(st, &r);
		rc = fn(&r, ctx);
	}
	sqlite3_finalize(st);
	if (rc == 0 && step != SQLITE_ROW && step != SQLITE_DONE)
		return -1; /* a damaged page, an I/O error: not the end of the list */
	return rc;
}

int td_store_session(struct td_store *s, int64_t id, struct td_session_row *row)
{
	char sql[sizeof(session_cols) + 32];
	sqlite3_stmt *st;
	int rc = -1;

	snprintf(sql, sizeof(sql), "%s WHERE s.id = ?", session_cols);
	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(st, 1, id);
	if (sqlite3_step(st) == SQLITE_ROW) {
		fill_session(st, row);
		rc = 0;
	}
	sqlite3_finalize(st);
	return rc;
}

int td_store_session_meta(struct td_store *s, int64_t id, struct td_session_meta *m)
{
	sqlite3_stmt *st;
	int rc = -1;

	memset(m, 0, sizeof(*m));
	if (sqlite3_prepare_v2(s->db,
			       "SELECT kind, pmu_model, events_file, source, coalesce(smt, -1),"
			       " coalesce(num_cpus, 0), counting, switch_cost_ns,"
			       " (SELECT min(o.id) FROM sessions o WHERE o.switch_cost_ns = s.switch_cost_ns"
			       " AND o.writer_boot IS s.writer_boot), instr(coalesce(counting_note, ''), ?2) > 0"
			       " FROM sessions s WHERE id=?1",
			       -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_text(st, 2, TD_UNLISTED_OFF_NOTE, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW) {
		snprintf(m->kind, sizeof(m->kind), "%s", td_store_col_text(st, 0));
		snprintf(m->pmu_model, sizeof(m->pmu_model), "%s", td_store_col_text(st, 1));
		snprintf(m->events_file, sizeof(m->events_file), "%s", td_store_col_text(st, 2));
		snprintf(m->source, sizeof(m->source), "%s", td_store_col_text(st, 3));
		m->smt = sqlite3_column_int(st, 4);
		m->num_cpus = sqlite3_column_int(st, 5);
		snprintf(m->counting, sizeof(m->counting), "%s", td_store_col_text(st, 6));
		m->switch_cost_ns = sqlite3_column_type(st, 7) == SQLITE_NULL ? NAN : sqlite3_column_double(st, 7);
		m->switch_cost_from = sqlite3_column_type(st, 8) == SQLITE_NULL ? id : sqlite3_column_int64(st, 8);
		m->unlisted_off = sqlite3_column_int(st, 9) != 0;
		rc = 0;
	}
	sqlite3_finalize(st);
	return rc;
}

static void col_copy(sqlite3_stmt *st, int i, char *out, size_t len)
{
	snprintf(out, len, "%s", td_store_col_text(st, i));
}

int td_store_session_header(struct td_store *s, int64_t id, struct td_session_header *h)
{
	static const char sql[] =
		"SELECT kind, coalesce(command,''), coalesce(host,''), coalesce(kernel,''), coalesce(cpu_name,''),"
		" coalesce(uarch,''), coalesce(pmu_model,''), coalesce(rung,''), coalesce(rung_reason,''),"
		" coalesce(events_file,''), coalesce(status,''), coalesce(interval_ms,0), coalesce(smt,-1),"
		" coalesce(num_cpus,0), coalesce(started_ns,0), coalesce(ended_ns,0),"
		" (SELECT coalesce(min(start_ns),0) FROM intervals WHERE session_id = sessions.id),"
		" (SELECT coalesce(max(end_ns),0) FROM intervals WHERE session_id = sessions.id),"
		" (SELECT count(merged) FROM intervals WHERE session_id = sessions.id),"
		" (SELECT coalesce(sum(merged),0) FROM intervals WHERE session_id = sessions.id)"
		" FROM sessions WHERE id = ?";
	sqlite3_stmt *st;
	int rc;

	memset(h, 0, sizeof(*h));
	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(st, 1, id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		h->id = id;
		col_copy(st, 0, h->kind, sizeof(h->kind));
		col_copy(st, 1, h->command, sizeof(h->command));
		col_copy(st, 2, h->host, sizeof(h->host));
		col_copy(st, 3, h->kernel, sizeof(h->kernel));
		col_copy(st, 4, h->cpu_name, sizeof(h->cpu_name));
		col_copy(st, 5, h->uarch, sizeof(h->uarch));
		col_copy(st, 6, h->pmu_model, sizeof(h->pmu_model));
		col_copy(st, 7, h->rung, sizeof(h->rung));
		col_copy(st, 8, h->rung_reason, sizeof(h->rung_reason));
		col_copy(st, 9, h->events_file, sizeof(h->events_file));
		col_copy(st, 10, h->status, sizeof(h->status));
		h->interval_ms = sqlite3_column_int(st, 11);
		h->smt = sqlite3_column_int(st, 12);
		h->num_cpus = sqlite3_column_int(st, 13);
		h->started_ns = (uint64_t)sqlite3_column_int64(st, 14);
		h->ended_ns = (uint64_t)sqlite3_column_int64(st, 15);
		h->first_ns = (uint64_t)sqlite3_column_int64(st, 16);
		h->last_ns = (uint64_t)sqlite3_column_int64(st, 17);
		h->merged = sqlite3_column_int(st, 18);
		h->merged_from = sqlite3_column_int(st, 19);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : -1;
}

/* Asked once (a writer's prepared statement, else one made for the call);
 * then what this handle committed since: the ids any of its transactions
 * inserts are above both (rowids are the largest + 1), whatever other
 * writers of the file insert meanwhile. */
int64_t td_store_max_target_id(struct td_store *s)
{
	sqlite3_stmt *st = s->stmt[ST_MAX_TARGET];
	int64_t id = -1;

	if (s->target_id_committed >= 0)
		return s->target_id_committed;
	if (!st && sqlite3_prepare_v2(s->db, "SELECT coalesce(max(id), 0) FROM targets", -1, &st, NULL) != SQLITE_OK)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW)
		id = sqlite3_column_int64(st, 0);
	if (st == s->stmt[ST_MAX_TARGET])
		sqlite3_reset(st);
	else
		sqlite3_finalize(st);
	if (id >= 0 && sqlite3_get_autocommit(s->db))
		s->target_id_committed = s->target_id_pending = id;
	return id;
}

int td_store_intervals(struct td_store *s, int64_t session, td_interval_fn fn, void *ctx)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(s->db, "SELECT start_ns, end_ns FROM intervals WHERE session_id = ? ORDER BY start_ns",
			       -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(st, 1, session);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if (fn((uint64_t)sqlite3_column_int64(st, 0), (uint64_t)sqlite3_column_int64(st, 1), ctx)) {
			rc = SQLITE_ABORT;
			break;
		}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

int td_store_interval_seqs(struct td_store *s, int64_t session, td_interval_seq_fn fn, void *ctx)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(s->db,
			       "SELECT seq, start_ns, end_ns FROM intervals WHERE session_id = ? ORDER BY start_ns", -1,
			       &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(st, 1, session);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if (fn(sqlite3_column_int(st, 0), (uint64_t)sqlite3_column_int64(st, 1),
		       (uint64_t)sqlite3_column_int64(st, 2), ctx)) {
			rc = SQLITE_ABORT;
			break;
		}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* The caller's callback, whichever kind of row it takes. */
union row_fn {
	td_event_fn event;
	td_target_fn target;
	td_metric_fn metric;
	td_confidence_fn confidence;
};

/* Step through st, calling row(st, fn, ctx) for each row until one fails. */
static int each_row(sqlite3_stmt *st, int (*row)(sqlite3_stmt *, const union row_fn *, void *), union row_fn fn,
		    void *ctx)
{
	int rc = 0, step;

	if (!st)
		return -1;
	while (rc == 0 && (step = sqlite3_step(st)) == SQLITE_ROW)
		rc = row(st, &fn, ctx);
	if (rc == 0 && step != SQLITE_DONE)
		rc = -1;
	sqlite3_finalize(st);
	return rc;
}

static int event_row(sqlite3_stmt *st, const union row_fn *fn, void *ctx)
{
	struct td_event_info e = {
		.id = sqlite3_column_int64(st, 0),
		.name = td_store_col_text(st, 1),
		.spec = td_store_col_text(st, 2),
		.group = sqlite3_column_int(st, 3),
		.type = (uint32_t)sqlite3_column_int64(st, 4),
		.config = (uint64_t)sqlite3_column_int64(st, 5),
		.config1 = (uint64_t)sqlite3_column_int64(st, 6),
		.status = td_store_col_text(st, 7),
		.alias = sqlite3_column_type(st, 8) == SQLITE_NULL ? NULL : td_store_col_text(st, 8),
		.file = sqlite3_column_type(st, 9) == SQLITE_NULL ? NULL : td_store_col_text(st, 9),
		.error = sqlite3_column_type(st, 10) == SQLITE_NULL ? NULL : td_store_col_text(st, 10),
	};
	return fn->event(&e, ctx);
}

int td_store_events(struct td_store *s, int64_t session, td_event_fn fn, void *ctx)
{
	return each_row(prepare_session(s,
					"SELECT id, name, spec, group_idx, type, config, config1, status, alias,"
					" file, error FROM events WHERE session_id=?1 ORDER BY id",
					session),
			event_row, (union row_fn){ .event = fn }, ctx);
}

static int opt_int(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? -1 : sqlite3_column_int(st, i);
}

static int target_row(sqlite3_stmt *st, const union row_fn *fn, void *ctx)
{
	struct td_target_info t = {
		.id = sqlite3_column_int64(st, 0),
		.kind = td_store_col_text(st, 1),
		.pid = opt_int(st, 2),
		.tid = opt_int(st, 3),
		.comm = td_store_col_text(st, 4),
		.cpu = opt_int(st, 5),
		.core = opt_int(st, 6),
		.socket = opt_int(st, 7),
		.cgroup = td_store_col_text(st, 8),
	};
	return fn->target(&t, ctx);
}

int td_store_targets(struct td_store *s, int64_t session, td_target_fn fn, void *ctx)
{
	return each_row(prepare_session(s,
					"SELECT id, kind, pid, tid, comm, cpu, core, socket, cgroup FROM targets"
					" WHERE session_id=?1 ORDER BY id",
					session),
			target_row, (union row_fn){ .target = fn }, ctx);
}

void td_target_label(const struct td_target_info *t, char *out, size_t len)
{
	if (!strcmp(t->kind, "thread"))
		snprintf(out, len, "thread:%s-%d", t->comm, (int)t->tid);
	else if (!strcmp(t->kind, "process"))
		snprintf(out, len, "process:%s-%d", t->comm, (int)t->pid);
	else if (!strcmp(t->kind, "cpu"))
		snprintf(out, len, "cpu:%d", t->cpu);
	else if (!strcmp(t->kind, "cgroup"))
		snprintf(out, len, "cgroup:%s", t->cgroup);
	else
		snprintf(out, len, "%s", t->kind);
}

/* td_store_counts' rows: one samples row, unpacked into one callback per value. */
struct count_walk {
	td_count_fn fn;
	void *ctx;
	struct unpacked u;
};

int td_store_counts(struct td_store *s, int64_t session, td_count_fn fn, void *ctx)
{
	return td_store_counts_range(s, session, INT_MIN, INT_MAX, fn, ctx);
}

int td_store_counts_range(struct td_store *s, int64_t session, int first_seq, int last_seq, td_count_fn fn, void *ctx)
{
	sqlite3_stmt *st = prepare_session(s,
					   "SELECT i.id, i.seq, i.start_ns, i.end_ns, c.target_id, c.event_id,"
					   " c.vals, c.enabled, c.running FROM intervals i"
					   " JOIN samples c ON c.interval_id = i.id WHERE i.session_id=?1"
					   " AND i.seq BETWEEN ?2 AND ?3 ORDER BY i.seq, c.target_id, c.event_id",
					   session);
	struct unpacked u = { 0 };
	int rc = 0, step = SQLITE_DONE;

	if (!st)
		return -1;
	sqlite3_bind_int(st, 2, first_seq);
	sqlite3_bind_int(st, 3, last_seq);
	while (rc == 0 && (step = sqlite3_step(st)) == SQLITE_ROW) {
		struct td_count_row c = {
			.interval = sqlite3_column_int64(st, 0),
			.seq = sqlite3_column_int(st, 1),
			.start_ns = (uint64_t)sqlite3_column_int64(st, 2),
			.end_ns = (uint64_t)sqlite3_column_int64(st, 3),
			.target = sqlite3_column_int64(st, 4),
			.enabled = (uint64_t)sqlite3_column_int64(st, 7),
			.running = (uint64_t)sqlite3_column_int64(st, 8),
		};
		int64_t first = sqlite3_column_int64(st, 5);
		if (unpack(sqlite3_column_text(st, 6), &u) < 0) {
			rc = -1;
			break;
		}
		for (int k = 0; rc == 0 && k < u.n; k++) {
			c.event = first + k;
			c.value = (uint64_t)u.v[k];
			rc = fn(&c, ctx);
		}
	}
	if (rc == 0 && step != SQLITE_DONE)
		rc = -1;
	sqlite3_finalize(st);
	free(u.v);
	return rc;
}

static double opt_real(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? NAN : sqlite3_column_double(st, i);
}

static int metric_row(sqlite3_stmt *st, const union row_fn *fn, void *ctx)
{
	struct td_metric_row m = {
		.interval = sqlite3_column_int64(st, 0),
		.seq = sqlite3_column_int(st, 1),
		.start_ns = (uint64_t)sqlite3_column_int64(st, 2),
		.end_ns = (uint64_t)sqlite3_column_int64(st, 3),
		.target = sqlite3_column_int64(st, 4),
		.name = td_store_col_text(st, 5),
		.kind = td_store_col_text(st, 6),
		.value = opt_real(st, 7),
		.confidence = opt_real(st, 8),
		.flagged = sqlite3_column_int(st, 9) != 0,
		.bottleneck = sqlite3_column_int(st, 10) != 0,
		.spans = sqlite3_column_int(st, 11) != 0,
	};
	return fn->metric(&m, ctx);
}

int td_store_metrics(struct td_store *s, int64_t session, td_metric_fn fn, void *ctx)
{
	return each_row(
		prepare_session(s,
				"SELECT i.id, i.seq, i.start_ns, i.end_ns, m.target_id, n.name, n.kind,"
				" m.value, m.confidence, m.flagged, m.bottleneck, m.spans FROM intervals i"
				" JOIN metrics m ON m.interval_id = i.id JOIN metric_names n ON n.id = m.metric_id"
				" WHERE i.session_id=?1 ORDER BY i.seq, m.target_id, m.metric_id",
				session),
		metric_row, (union row_fn){ .metric = fn }, ctx);
}

static int confidence_row(sqlite3_stmt *st, const union row_fn *fn, void *ctx)
{
	const struct td_metric_confidence c = {
		.name = (const char *)sqlite3_column_text(st, 0),
		.total = sqlite3_column_int64(st, 1),
		.low = sqlite3_column_int64(st, 2),
		.least = opt_real(st, 3),
	};
	return fn->confidence(&c, ctx);
}

int td_store_metric_confidence(struct td_store *s, int64_t session, td_confidence_fn fn, void *ctx)
{
	return each_row(prepare_session(s,
					"SELECT n.name, count(m.confidence), coalesce(sum(m.confidence < 1), 0),"
					" min(m.confidence) FROM intervals i JOIN metrics m ON m.interval_id = i.id"
					" JOIN metric_names n ON n.id = m.metric_id WHERE i.session_id=?1"
					" GROUP BY m.metric_id ORDER BY m.metric_id",
					session),
			confidence_row, (union row_fn){ .confidence = fn }, ctx);
}

int td_store_query(struct td_store *s, const char *sql, td_row_fn fn, void *ctx, td_err *err)
{
	sqlite3_stmt *st;
	const char *tail;
	int rc = 0, step, n;

	if (sqlite3_prepare_v2(s->db, sql, -1, &st, &tail) != SQLITE_OK || !st) {
		td_err_set(err, "%s",
			   st			    ? sqlite3_errmsg(s->db)
			   : *sqlite3_errmsg(s->db) ? sqlite3_errmsg(s->db)
						    : "empty statement");
		if (!st && sqlite3_errcode(s->db) == SQLITE_OK)
			td_err_set(err, "no SQL statement given");
		sqlite3_finalize(st);
		return -1;
	}
	while (*tail == ' ' || *tail == '\t' || *tail == '\n' || *tail == ';')
		tail++;
	if (*tail) {
		td_err_set(err, "more than one statement: give one SQL statement at a time");
		sqlite3_finalize(st);
		return -1;
	}
	if (!sqlite3_stmt_readonly(st)) {
		td_err_set(err,
			   "the statement would change the database; tdctl query only reads (use sqlite3 to modify)");
		sqlite3_finalize(st);
		return -1;
	}
	n = sqlite3_column_count(st);
	{
		const char *names[n ? n : 1], *vals[n ? n : 1];
		for (int i = 0; i < n; i++)
			names[i] = sqlite3_column_name(st, i);
		while (rc == 0 && (step = sqlite3_step(st)) == SQLITE_ROW) {
			for (int i = 0; i < n; i++)
				vals[i] = (const char *)sqlite3_column_text(st, i);
			rc = fn(n, names, vals, ctx);
		}
		if (rc == 0 && step != SQLITE_DONE) {
			td_err_set(err, "%s", sqlite3_errmsg(s->db));
			rc = -1;
		}
	}
	sqlite3_finalize(st);
	return rc;
}

int td_store_repeat_group(struct td_store *s, int64_t session, int64_t **ids, int *warmups)
{
	sqlite3_stmt *st = prepare_session(s,
					   "SELECT id, repeat_index FROM sessions WHERE repeat_group ="
					   " (SELECT repeat_group FROM sessions WHERE id = ?1) ORDER BY repeat_index",
					   session);
	int n = 0, step;

	*ids = NULL;
	*warmups = 0;
	if (!st)
		return -1;
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t *slot;
		if (sqlite3_column_int(st, 1) < 0) {
			(*warmups)++;
			continue;
		}
		if (!(slot = td_array_push(ids, &n, sizeof(**ids))))
			break;
		*slot = sqlite3_column_int64(st, 0);
	}
	sqlite3_finalize(st);
	if (step != SQLITE_DONE) {
		free(*ids);
		*ids = NULL;
		return -1;
	}
	return n;
}
