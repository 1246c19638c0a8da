/* recompute: raw counts of a session -> metric values (see recompute.h). */
#include "recompute.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/catalog.h"
#include "model/event_identity.h"
#include "eval/group_counts.h"
#include "store/metric_writer.h"
#include "eval/metrics.h"
#include "model/model.h"

/* One events row as this pass reads it. */
struct ev_row {
	int64_t id;
	int alias;                /* -1: not read by this pass's file */
	int group;                /* perf group (dense index; imports: 0) */
};

/* A target whose counts are summed into others: thread -> its process,
 * CPU -> its core and socket (aggregates stored by live collection), or
 * every target -> `whole` when the session has no such aggregates. */
struct tgt {
	int64_t id;
	int agg[2];               /* indices into aggs, -1 none */
};

struct agg {
	int64_t id;               /* 0: `whole` not stored yet (created on first use) */
	bool whole;               /* written only when it sums several targets */
	struct td_group_counts c;
	int parts;                /* targets summed into it this interval */
};

struct pass {
	struct td_store *s;
	struct td_recompute_result *res;
	const struct td_session_meta *meta;
	int64_t session;
	const char *file;         /* the events file of this pass */
	bool filter_file;         /* rows say which file planned them: read only this file's */
	const struct td_catalog *cat;
	struct td_event_identity *match;
	struct td_metrics *mx;
	struct td_metric_writer *w;
	struct ev_row *evs;
	int nevs;
	struct td_group_counts cur; /* current (interval, target) */
	struct tgt *tg;
	int ntg;
	struct agg *aggs;
	int naggs;
	int64_t interval, target;
	uint64_t start_ns, end_ns;
};

/* ---- events ---------------------------------------------------------------------- */

static int add_event(const struct td_event_info *e, void *ctx)
{
	struct pass *p = ctx;
	struct ev_row *n = realloc(p->evs, (size_t)(p->nevs + 1) * sizeof(*n));
	bool mine = !p->filter_file || (e->file && !strcmp(e->file, p->file));

	if (!n)
		return -1;
	p->evs = n;
	n[p->nevs].id = e->id;
	n[p->nevs].alias = mine ? td_event_identity_find(p->match, e->type, e->config, e->config1) : -1;
	/* imports: group numbers only tell repeated events apart */
	n[p->nevs].group = strcmp(p->meta->kind, "import") ? e->group : 0;
	p->res->events_matched += n[p->nevs].alias >= 0;
	p->nevs++;
	return 0;
}

/* Say in each matched row which alias its counts fed. */
static int store_aliases(struct pass *p)
{
	for (int i = 0; i < p->nevs; i++)
		if (p->evs[i].alias >= 0 && td_store_event_set_alias(p->s, p->evs[i].id, p->cat->events[p->evs[i].alias].alias))
			return -1;
	return 0;
}

static const struct ev_row *event_of(const struct pass *p, int64_t event)
{
	return td_find_by_id(p->evs, (size_t)p->nevs, sizeof(*p->evs), event); /* rows come in id order */
}

/* The matched rows' perf group numbers -> 0..n-1; returns n, or -1. */
static int dense_groups(struct pass *p)
{
	int *g = malloc(((size_t)p->nevs + 1) * sizeof(int)), n = 0, k;

	if (!g)
		return -1;
	for (int i = 0; i < p->nevs; i++)
		if (p->evs[i].alias >= 0)
			g[n++] = p->evs[i].group;
	k = td_group_numbers_dense(g, n);
	for (int i = 0, j = 0; k > 0 && i < p->nevs; i++)
		if (p->evs[i].alias >= 0)
			p->evs[i].group = g[j++];
	free(g);
	return k;
}

/* ---- targets and their aggregates ------------------------------------------------ */

struct target {
	int64_t id;
	char kind[16];
	pid_t pid;
	int cpu, core, socket;
};

struct target_list {
	struct target *t;
	int n;
};

static int list_target(const struct td_target_info *t, void *ctx)
{
	struct target_list *l = ctx;
	struct target *n = realloc(l->t, (size_t)(l->n + 1) * sizeof(*n));

	if (!n)
		return -1;
	l->t = n;
	n = &l->t[l->n++];
	n->id = t->id;
	snprintf(n->kind, sizeof(n->kind), "%s", t->kind);
	n->pid = t->pid;
	n->cpu = t->cpu;
	n->core = t->core;
	n->socket = t->socket;
	return 0;
}

static bool is_aggregate(const struct target *t)
{
	return !strcmp(t->kind, "process") || !strcmp(t->kind, "whole") || (!strcmp(t->kind, "cpu") && t->cpu < 0);
}

/* Index of a new aggregate, or -2 when out of memory. */
static int agg_add(struct pass *p, int64_t id, bool whole, int ngroups)
{
	struct agg *n = realloc(p->aggs, (size_t)(p->naggs + 1) * sizeof(*n));

	if (!n)
		return -2;
	p->aggs = n;
	n[p->naggs].id = id;
	n[p->naggs].whole = whole;
	n[p->naggs].parts = 0;
	if (td_group_counts_init(&n[p->naggs].c, p->cat->nevents, ngroups))
		return -2;
	td_group_counts_zero(&n[p->naggs].c);
	return p->naggs++;
}

/* The aggregate target of kind k (0 process, 1 core, 2 socket) of target
 * i, as an index into aggs (added on first use); -1 when the session has
 * none, -2 when out of memory. */
static int agg_for(struct pass *p, const struct target_list *l, int i, int k, int ngroups)
{
	const struct target *t = &l->t[i];

	for (int j = 0; j < l->n; j++) {
		const struct target *a = &l->t[j];
		bool match = k == 0 ? !strcmp(t->kind, "thread") && !strcmp(a->kind, "process") && a->pid == t->pid
			: k == 1 ? !strcmp(t->kind, "cpu") && t->cpu >= 0 && !strcmp(a->kind, "cpu") && a->cpu < 0 &&
				   a->core >= 0 && a->core == t->core && a->socket == t->socket
			: !strcmp(t->kind, "cpu") && t->cpu >= 0 && !strcmp(a->kind, "cpu") && a->cpu < 0 &&
				   a->core < 0 && a->socket == t->socket;
		if (!match)
			continue;
		for (int x = 0; x < p->naggs; x++)
			if (p->aggs[x].id == a->id)
				return x;
		return agg_add(p, a->id, false, ngroups);
	}
	return -1;
}

static int map_targets(struct pass *p, int ngroups)
{
	struct target_list l = { 0 };
	int64_t whole = 0;
	bool has_aggregates = false;
	int rc = 0, w = -1;

	if (td_store_targets(p->s, p->session, list_target, &l)) {
		rc = -1;
		goto out;
	}
	for (int i = 0; i < l.n; i++) {
		if (!strcmp(l.t[i].kind, "whole"))
			whole = l.t[i].id;
		else if (is_aggregate(&l.t[i]))
			has_aggregates = true;
	}
	if (!(p->tg = calloc((size_t)l.n + 1, sizeof(*p->tg)))) {
		rc = -1;
		goto out;
	}
	for (int i = 0; i < l.n && !rc; i++) {
		struct tgt *t = &p->tg[p->ntg++];
		t->id = l.t[i].id;
		t->agg[0] = t->agg[1] = -1;
		if (has_aggregates) {
			for (int k = 0, n = 0; k < 3 && n < 2 && !rc; k++) {
				int a = agg_for(p, &l, i, k, ngroups);
				if (a >= 0)
					t->agg[n++] = a;
				rc = a == -2 ? -1 : 0;
			}
		} else if (l.t[i].id != whole) {
			if (w < 0 && (w = agg_add(p, whole, true, ngroups)) < 0)
				rc = -1;
			t->agg[0] = w;
		}
	}
out:
	free(l.t);
	return rc;
}

static const struct tgt *target_of(const struct pass *p, int64_t id)
{
	return td_find_by_id(p->tg, (size_t)p->ntg, sizeof(*p->tg), id); /* targets come in id order */
}

/* ---- evaluation ------------------------------------------------------------------ */

static int evaluate(struct pass *p, int64_t target, const struct td_group_counts *c)
{
	double secs = p->end_ns > p->start_ns ? (double)(p->end_ns - p->start_ns) / 1e9 : NAN;
	td_err ignored;

	td_metrics_set(p->mx, "DURATION", secs, &ignored);
	if (td_group_counts_eval(p->mx, c))
		return -1;
	p->res->evaluations++;
	return td_metric_writer_write(p->w, p->interval, target, p->mx, NULL);
}

static int flush_target(struct pass *p)
{
	const struct tgt *t = target_of(p, p->target);

	if (p->target == 0)
		return 0;
	for (int k = 0; t && k < 2; k++)
		if (t->agg[k] >= 0) {
			td_group_counts_add(&p->aggs[t->agg[k]].c, &p->cur);
			p->aggs[t->agg[k]].parts++;
		}
	if (evaluate(p, p->target, &p->cur))
		return -1;
	td_group_counts_clear(&p->cur);
	p->target = 0;
	return 0;
}

/* An aggregate is written when it summed targets; `whole` only when it
 * summed more than one (with one it would repeat that target). */
static int flush_interval(struct pass *p)
{
	if (flush_target(p))
		return -1;
	for (int i = 0; i < p->naggs; i++) {
		struct agg *a = &p->aggs[i];
		if (a->parts > (a->whole ? 1 : 0)) {
			if (a->id == 0 && (a->id = td_store_target_add(p->s, p->session, "whole", 0, NULL, NULL)) < 0)
				return -1;
			if (evaluate(p, a->id, &a->c))
				return -1;
		}
		td_group_counts_zero(&a->c);
		a->parts = 0;
	}
	return 0;
}

static int add_count(const struct td_count_row *c, void *ctx)
{
	struct pass *p = ctx;
	const struct ev_row *ev;

	if (c->interval != p->interval) {
		if (flush_interval(p))
			return -1;
		p->interval = c->interval;
		p->start_ns = c->start_ns;
		p->end_ns = c->end_ns;
	}
	if (c->target != p->target) {
		if (flush_target(p))
			return -1;
		p->target = c->target;
	}
	if ((ev = event_of(p, c->event)) && ev->alias >= 0)
		td_group_counts_add_row(&p->cur, ev->group, ev->alias, c->value, c->enabled, c->running);
	return 0;
}

/* ---- one events file ---------------------------------------------------------------- */

static void pass_free(struct pass *p)
{
	td_group_counts_free(&p->cur);
	for (int i = 0; i < p->naggs; i++)
		td_group_counts_free(&p->aggs[i].c);
	free(p->aggs);
	free(p->tg);
	free(p->evs);
	td_metric_writer_free(p->w);
	td_metrics_free(p->mx);
	td_event_identity_free(p->match);
}

/* Evaluate file over the session's counts (inside the caller's transaction). */
static int run_file(struct td_store *s, int64_t session, const struct td_session_meta *meta, const char *dir,
		    const char *file, bool filter_file, const char *model, struct td_recompute_result *res, td_err *err)
{
	char path[1024];
	struct td_catalog *cat;
	struct td_model *m = NULL;
	struct pass p;
	td_err ignored;
	int rc = -1, ngroups;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	if (td_catalog_load(path, &cat, err))
		return -1;
	if (td_model_compile(cat, &m, err)) {
		td_catalog_free(cat);
		return -1;
	}
	memset(&p, 0, sizeof(p));
	p.s = s;
	p.res = res;
	p.meta = meta;
	p.session = session;
	p.file = file;
	p.filter_file = filter_file;
	p.cat = cat;
	if (td_event_identity_new(cat, model, &p.match, err) || !(p.mx = td_metrics_new(m)))
		goto out;
	if (meta->smt >= 0)
		td_metrics_set(p.mx, "SMT_on", meta->smt, &ignored); /* files without SMT_on ignore it */
	td_metrics_set(p.mx, "NUM_CPUS", meta->num_cpus > 0 ? meta->num_cpus : NAN, &ignored);
	if (td_store_events(s, session, add_event, &p) || store_aliases(&p) || (ngroups = dense_groups(&p)) < 0 ||
	    td_group_counts_init(&p.cur, cat->nevents, ngroups) || map_targets(&p, ngroups) ||
	    td_metric_writer_new(s, m, &p.w, err) || td_store_counts(s, session, add_count, &p) || flush_interval(&p))
		goto out;
	rc = 0;
out:
	if (rc && !err->msg[0])
		td_err_set(err, "cannot recompute session %lld with %s: %s", (long long)session, file, td_store_errmsg(s));
	pass_free(&p);
	td_model_free(m);
	td_catalog_free(cat);
	return rc;
}

/* ---- the session ---------------------------------------------------------------- */

struct files_seen {
	bool recorded;            /* some row names its file (schema 3 live sessions) */
	bool software, generic;   /* rows of software.td / generic.td (or, unrecorded, a live session) */
	char model[64];           /* the model file that planned the tree (schema 3 live sessions), "" if none */
};

static int note_file(const struct td_event_info *e, void *ctx)
{
	struct files_seen *f = ctx;

	if (e->file) {
		f->recorded = true;
		f->software |= !strcmp(e->file, "software.td");
		f->generic |= !strcmp(e->file, "generic.td");
		if (!f->model[0] && strcmp(e->file, "software.td") && strcmp(e->file, "generic.td") && strcmp(e->file, "proc"))
			snprintf(f->model, sizeof(f->model), "%s", e->file);
	}
	return 0;
}

/* Events rows no pass matched: their names, for the message; alias NULL. */
static int note_unmatched(const struct td_event_info *e, void *ctx)
{
	struct td_recompute_result *res = ctx;
	size_t len = strlen(res->unmatched);

	if (e->alias || (e->file && !strcmp(e->file, "proc")))
		return 0;
	res->events_unmatched++;
	if (len + strlen(e->name) + 2 < sizeof(res->unmatched))
		snprintf(res->unmatched + len, sizeof(res->unmatched) - len, "%s%s", len ? " " : "", e->name);
	return 0;
}

static void add_file_name(struct td_recompute_result *res, const char *file)
{
	size_t len = strlen(res->events_file);

	snprintf(res->events_file + len, sizeof(res->events_file) - len, "%s%s", len ? " + " : "", file);
}

int td_recompute(struct td_store *s, int64_t session, const char *events_dir, struct td_recompute_result *res,
		 td_err *err)
{
	struct td_session_meta meta;
	struct files_seen seen = { 0 };
	const char *dir = td_events_dir(events_dir);
	char model_file[64] = "";
	bool live;
	int rc = 0;

	memset(res, 0, sizeof(*res));
	err->msg[0] = '\0';
	if (td_store_session_meta(s, session, &meta)) {
		td_err_set(err, "no session %lld in the database: see 'tdctl sessions'", (long long)session);
		return -1;
	}
	live = strcmp(meta.kind, "import") != 0;
	if (td_store_events(s, session, note_file, &seen))
		goto db_error;
	if (!seen.recorded && live)
		seen.software = seen.generic = true; /* schema 2: every live session opened both */
	if (meta.pmu_model[0] && td_catalog_find(dir, meta.pmu_model, model_file, sizeof(model_file)))
		model_file[0] = '\0';
	if (!model_file[0] && (!live || seen.model[0])) {
		/* nothing is deleted: a session keeps its values until new ones can replace them */
		td_err_set(err, "no events file in %s serves PMU model '%s'%s%s%s: give --events-dir with one; nothing was "
			   "changed", dir, meta.pmu_model[0] ? meta.pmu_model : "(none recorded)",
			   seen.model[0] ? " (the session's tree was planned from " : "", seen.model,
			   seen.model[0] ? ")" : "");
		return -1;
	}
	if (td_store_begin(s))
		goto db_error;
	if (td_store_event_aliases_clear(s, session) || td_store_metrics_clear(s, session)) {
		td_store_rollback(s);
		goto db_error;
	}
	/* the model file, then (live sessions) the files every run opens */
	if (model_file[0]) {
		rc = run_file(s, session, &meta, dir, model_file, seen.recorded, meta.pmu_model, res, err);
		add_file_name(res, model_file);
	}
	if (!rc && live && seen.software) {
		rc = run_file(s, session, &meta, dir, "software.td", seen.recorded, NULL, res, err);
		add_file_name(res, "software.td");
	}
	if (!rc && live && seen.generic) {
		rc = run_file(s, session, &meta, dir, "generic.td", seen.recorded, meta.pmu_model, res, err);
		add_file_name(res, "generic.td");
	}
	if (!rc && td_store_events(s, session, note_unmatched, res))
		rc = -1;
	if (rc || td_store_commit(s)) {
		if (!err->msg[0])
			td_err_set(err, "cannot recompute session %lld: %s", (long long)session, td_store_errmsg(s));
		td_store_rollback(s);
		return -1;
	}
	return 0;
db_error:
	td_err_set(err, "cannot recompute session %lld: %s", (long long)session, td_store_errmsg(s));
	return -1;
}
