/* recompute: raw counts of a session -> metric values (see recompute.h). */
#include "recompute.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "evmatch.h"
#include "metric_writer.h"
#include "metrics.h"
#include "model.h"

struct ev_alias {
	int64_t id;
	int alias;                /* -1: not read by the events file */
};

struct state {
	struct td_store *s;
	struct td_recompute_result *res;
	const struct td_catalog *cat;
	struct td_evmatch *match;
	struct td_metrics *mx;
	struct td_metric_writer *w;
	struct ev_alias *evs;
	int nevs, cap;
	int n;                    /* aliases */
	double *sum, *cov;        /* current (interval, target): sum of scaled values, least coverage */
	int *nsum;                /* counted rows per alias */
	double *agg, *agg_cov;    /* current interval, over targets */
	int agg_targets;
	int64_t interval, target, whole, session;
	uint64_t start_ns, end_ns;
	int failed;
};

/* ---- the events: alias of each row ------------------------------------------- */

static int add_event(const struct td_event_info *e, void *ctx)
{
	struct state *st = ctx;
	struct ev_alias *ea;
	int a = td_evmatch_find(st->match, e->type, e->config, e->config1);

	if (st->nevs == st->cap) {
		int ncap = st->cap ? st->cap * 2 : 64;
		struct ev_alias *n = realloc(st->evs, (size_t)ncap * sizeof(*n));
		if (!n)
			return -1;
		st->evs = n;
		st->cap = ncap;
	}
	ea = &st->evs[st->nevs++];
	ea->id = e->id;
	ea->alias = a;
	if (a >= 0) {
		st->res->events_matched++;
	} else {
		size_t len = strlen(st->res->unmatched);
		st->res->events_unmatched++;
		if (len + strlen(e->name) + 2 < sizeof(st->res->unmatched))
			snprintf(st->res->unmatched + len, sizeof(st->res->unmatched) - len, "%s%s", len ? " " : "", e->name);
	}
	return 0;
}

static int alias_of(const struct state *st, int64_t event)
{
	int lo = 0, hi = st->nevs - 1; /* rows come in id order */

	while (lo <= hi) {
		int mid = (lo + hi) / 2;
		if (st->evs[mid].id == event)
			return st->evs[mid].alias;
		if (st->evs[mid].id < event)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

static int store_aliases(struct state *st)
{
	for (int i = 0; i < st->nevs; i++)
		if (td_store_event_set_alias(st->s, st->evs[i].id,
					     st->evs[i].alias >= 0 ? st->cat->events[st->evs[i].alias].alias : NULL))
			return -1;
	return 0;
}

/* ---- evaluation ---------------------------------------------------------------- */

static void reset_target(struct state *st)
{
	for (int i = 0; i < st->n; i++) {
		st->sum[i] = 0;
		st->nsum[i] = 0;
		st->cov[i] = NAN;
	}
}

static void reset_interval(struct state *st)
{
	td_counts_zero(st->agg, st->n);
	for (int i = 0; i < st->n; i++)
		st->agg_cov[i] = NAN;
	st->agg_targets = 0;
}

static int evaluate(struct state *st, int64_t target, const double *values, const double *cov)
{
	double secs = st->end_ns > st->start_ns ? (double)(st->end_ns - st->start_ns) / 1e9 : NAN;

	td_err ignored;

	td_metrics_set(st->mx, "DURATION", secs, &ignored);
	td_metrics_eval(st->mx, values);
	st->res->evaluations++;
	return td_metric_writer_write(st->w, st->interval, target, st->mx, cov);
}

static int flush_target(struct state *st)
{
	double *values = st->sum; /* turned into means in place */

	if (st->target == 0)
		return 0;
	for (int i = 0; i < st->n; i++) {
		values[i] = st->nsum[i] ? st->sum[i] / st->nsum[i] : NAN;
		if (!isnan(st->cov[i]))
			st->agg_cov[i] = isnan(st->agg_cov[i]) ? st->cov[i] : fmin(st->agg_cov[i], st->cov[i]);
	}
	td_counts_add(st->agg, values, st->n);
	st->agg_targets++;
	if (evaluate(st, st->target, values, st->cov))
		return -1;
	reset_target(st);
	st->target = 0;
	return 0;
}

static int flush_interval(struct state *st)
{
	if (flush_target(st))
		return -1;
	if (st->agg_targets > 1) {
		if (st->whole == 0 &&
		    (st->whole = td_store_target_add(st->s, st->session, "whole", 0, NULL, NULL)) < 0)
			return -1;
		if (evaluate(st, st->whole, st->agg, st->agg_cov))
			return -1;
	}
	reset_interval(st);
	return 0;
}

static int add_count(const struct td_count_row *c, void *ctx)
{
	struct state *st = ctx;
	int a;

	if (c->interval != st->interval) {
		if (flush_interval(st))
			return -1;
		st->interval = c->interval;
		st->start_ns = c->start_ns;
		st->end_ns = c->end_ns;
	}
	if (c->target != st->target) {
		if (flush_target(st))
			return -1;
		st->target = c->target;
	}
	if ((a = alias_of(st, c->event)) < 0 || c->running == 0)
		return 0; /* not read by the model, or not counted */
	double ratio = c->running >= c->enabled ? 1.0 : (double)c->running / (double)c->enabled;
	st->sum[a] += (double)c->value / ratio;
	st->nsum[a]++;
	st->cov[a] = isnan(st->cov[a]) ? ratio : fmin(st->cov[a], ratio);
	return 0;
}

static int find_whole(const struct td_target_info *t, void *ctx)
{
	struct state *st = ctx;

	if (!strcmp(t->kind, "whole"))
		st->whole = t->id;
	return 0;
}

/* ---- setup ----------------------------------------------------------------------- */

static int load(const char *dir, const struct td_session_meta *meta, struct td_recompute_result *res,
		struct td_catalog **cat, struct td_model **model, td_err *err)
{
	char path[1024];

	if (td_catalog_find(dir, meta->pmu_model, res->events_file, sizeof(res->events_file))) {
		td_err_set(err, "no events file in %s serves PMU model '%s': give --events-dir with one", dir,
			   meta->pmu_model[0] ? meta->pmu_model : "(none recorded)");
		return -1;
	}
	snprintf(path, sizeof(path), "%s/%s", dir, res->events_file);
	if (td_catalog_load(path, cat, err))
		return -1;
	if (td_model_compile(*cat, model, err)) {
		td_catalog_free(*cat);
		return -1;
	}
	return 0;
}

static int alloc_arrays(struct state *st)
{
	size_t n = (size_t)(st->n ? st->n : 1);

	st->sum = calloc(n, sizeof(double));
	st->cov = calloc(n, sizeof(double));
	st->nsum = calloc(n, sizeof(int));
	st->agg = calloc(n, sizeof(double));
	st->agg_cov = calloc(n, sizeof(double));
	return st->sum && st->cov && st->nsum && st->agg && st->agg_cov ? 0 : -1;
}

static void free_state(struct state *st)
{
	free(st->sum);
	free(st->cov);
	free(st->nsum);
	free(st->agg);
	free(st->agg_cov);
	free(st->evs);
	td_metric_writer_free(st->w);
	td_metrics_free(st->mx);
	td_evmatch_free(st->match);
}

static int run(struct state *st, const struct td_session_meta *meta, td_err *err)
{
	td_err ignored;

	if (meta->smt >= 0)
		td_metrics_set(st->mx, "SMT_on", meta->smt, &ignored); /* files without SMT_on ignore it */
	td_metrics_set(st->mx, "NUM_CPUS", meta->num_cpus > 0 ? meta->num_cpus : NAN, &ignored);
	reset_target(st);
	reset_interval(st);
	if (td_store_begin(st->s)) {
		td_err_set(err, "cannot write to the database: %s", td_store_errmsg(st->s));
		return -1;
	}
	if (td_store_events(st->s, st->session, add_event, st) || store_aliases(st) ||
	    td_store_targets(st->s, st->session, find_whole, st) || td_store_metrics_clear(st->s, st->session) ||
	    td_metric_writer_new(st->s, st->mx->model, &st->w, err) ||
	    td_store_counts(st->s, st->session, add_count, st) || flush_interval(st) || td_store_commit(st->s)) {
		if (!err->msg[0])
			td_err_set(err, "cannot recompute session %lld: %s", (long long)st->session,
				   td_store_errmsg(st->s));
		td_store_rollback(st->s);
		return -1;
	}
	return 0;
}

int td_recompute(struct td_store *s, int64_t session, const char *events_dir, struct td_recompute_result *res,
		 td_err *err)
{
	struct td_session_meta meta;
	struct td_catalog *cat;
	struct td_model *model;
	struct state st;
	int rc = -1;

	memset(res, 0, sizeof(*res));
	err->msg[0] = '\0';
	if (td_store_session_meta(s, session, &meta)) {
		td_err_set(err, "no session %lld in the database: see 'tdctl sessions'", (long long)session);
		return -1;
	}
	if (load(td_events_dir(events_dir), &meta, res, &cat, &model, err))
		return -1;
	memset(&st, 0, sizeof(st));
	st.s = s;
	st.res = res;
	st.cat = cat;
	st.session = session;
	st.n = cat->nevents;
	if (td_evmatch_new(cat, meta.pmu_model, &st.match, err) || !(st.mx = td_metrics_new(model)) ||
	    alloc_arrays(&st)) {
		if (!err->msg[0])
			td_err_set(err, "out of memory");
	} else {
		rc = run(&st, &meta, err);
	}
	free_state(&st);
	td_model_free(model);
	td_catalog_free(cat);
	return rc;
}
