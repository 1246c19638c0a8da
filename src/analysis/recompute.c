/* recompute: raw counts of a session -> metric values (see recompute.h). */
#include "recompute.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/catalog.h"
#include "model/model_spec.h"
#include "machine/pmu.h"
#include "eval/group_counts.h"
#include "session_counts.h"
#include "store/metric_writer.h"
#include "eval/evaluator.h"
#include "model/model.h"

/* A target whose counts are summed into others: thread -> its process,
 * CPU -> its core and socket (aggregates stored by live collection), or
 * every target -> `whole` when the session has no such aggregates. */
struct tgt {
	int64_t id;
	int agg[2]; /* indices into aggs, -1 none */
};

struct agg {
	int64_t id; /* 0: `whole` not stored yet (created on first use) */
	bool whole; /* written only when it sums several targets */
	struct td_group_counts c;
	int parts; /* targets summed into it this interval */
};

struct pass {
	struct td_store *s;
	struct td_recompute_result *res;
	int64_t session;
	const struct td_catalog *cat;
	struct td_session_counts sc;
	struct td_evaluator *ev;
	struct td_evaluation out;
	struct td_metric_writer *w;
	struct tgt *tg;
	int ntg;
	struct agg *aggs;
	int naggs;
	bool each_target; /* write every target, not only those no stored aggregate covers */
};

/* ---- events ---------------------------------------------------------------------- */

/* Say in each bound row which alias its counts fed. */
static int store_aliases(struct pass *p)
{
	for (int i = 0; i < p->sc.nevs; i++)
		if (p->sc.evs[i].alias >= 0 &&
		    td_store_event_set_alias(p->s, p->sc.evs[i].id, p->cat->events[p->sc.evs[i].alias].alias))
			return -1;
	return 0;
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
	struct target *n = td_array_push(&l->t, &l->n, sizeof(*l->t));

	if (!n)
		return -1;
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
	struct agg *n = td_array_push(&p->aggs, &p->naggs, sizeof(*p->aggs));

	if (!n)
		return -2;
	n->id = id;
	n->whole = whole;
	if (td_group_counts_init(&n->c, p->cat->nevents, ngroups))
		return -2;
	td_group_counts_zero(&n->c);
	return p->naggs - 1;
}

/* The aggregate target of kind k (0 process, 1 core, 2 socket) of target
 * i, as an index into aggs (added on first use); -1 when the session has
 * none, -2 when out of memory. */
static int agg_for(struct pass *p, const struct target_list *l, int i, int k, int ngroups)
{
	const struct target *t = &l->t[i];

	for (int j = 0; j < l->n; j++) {
		const struct target *a = &l->t[j];
		bool match = k == 0   ? !strcmp(t->kind, "thread") && !strcmp(a->kind, "process") && a->pid == t->pid
			     : k == 1 ? !strcmp(t->kind, "cpu") && t->cpu >= 0 && !strcmp(a->kind, "cpu") &&
						a->cpu < 0 && a->core >= 0 && a->core == t->core &&
						a->socket == t->socket
				      : !strcmp(t->kind, "cpu") && t->cpu >= 0 && !strcmp(a->kind, "cpu") &&
						a->cpu < 0 && a->core < 0 && a->socket == t->socket;
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

static double interval_seconds(const struct td_count_row *r)
{
	return r->end_ns > r->start_ns ? (double)(r->end_ns - r->start_ns) / 1e9 : 0;
}

static int evaluate(struct pass *p, const struct td_count_row *r, int64_t target, const struct td_group_counts *c)
{
	if (td_evaluate(p->ev, c, interval_seconds(r), &p->out))
		return -1;
	p->res->evaluations++;
	return td_metric_writer_write(p->w, r->interval, target, &p->out, NULL);
}

/* One target's counts of one interval: evaluated, and summed into its aggregates. */
static int on_target(void *ctx, const struct td_count_row *r, int64_t target, const struct td_group_counts *c)
{
	struct pass *p = ctx;
	const struct tgt *t = target_of(p, target);

	bool covered = false; /* by a process, core or socket (not by `whole`) */

	for (int k = 0; t && k < 2; k++)
		if (t->agg[k] >= 0) {
			td_group_counts_add(&p->aggs[t->agg[k]].c, c);
			p->aggs[t->agg[k]].parts++;
			covered |= !p->aggs[t->agg[k]].whole;
		}
	return covered && !p->each_target ? 0 : evaluate(p, r, target, c);
}

/* An aggregate is written when it summed targets; `whole` only when it
 * summed more than one (with one it would repeat that target). */
static int on_interval_end(void *ctx, const struct td_count_row *r)
{
	struct pass *p = ctx;

	for (int i = 0; i < p->naggs; i++) {
		struct agg *a = &p->aggs[i];
		if (a->parts > (a->whole ? 1 : 0)) {
			if (a->id == 0 && (a->id = td_store_target_add(p->s, p->session, "whole", 0, NULL, NULL)) < 0)
				return -1;
			if (evaluate(p, r, a->id, &a->c))
				return -1;
		}
		td_group_counts_zero(&a->c);
		a->parts = 0;
	}
	return 0;
}

/* ---- one events file ---------------------------------------------------------------- */

static void pass_free(struct pass *p)
{
	for (int i = 0; i < p->naggs; i++)
		td_group_counts_free(&p->aggs[i].c);
	free(p->aggs);
	free(p->tg);
	td_metric_writer_free(p->w);
	td_evaluation_free(&p->out);
	td_evaluator_free(p->ev);
	td_session_counts_free(&p->sc);
}

/* The intervals evaluated (by seq), and whether every target is written. */
struct seqs {
	int first, last;
	bool each_target;
};

/* Evaluate file over the session's counts (inside the caller's transaction). */
static int run_file(struct td_store *s, int64_t session, const struct td_session_meta *meta, const char *dir,
		    const char *file, const char *model, const char *prefix, const struct seqs *r,
		    struct td_recompute_result *res, td_err *err)
{
	static const struct td_count_walk walk = { .target = on_target, .interval_end = on_interval_end };
	char path[1024];
	struct td_catalog *cat;
	struct td_model *m = NULL;
	struct pass p;
	int rc = -1;

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
	p.session = session;
	p.cat = cat;
	p.each_target = r->each_target;
	if (td_session_counts_bind(&p.sc, s, session, cat, file, model, err))
		goto out;
	res->events_matched += p.sc.bound;
	if (!(p.ev = td_evaluator_new(m, meta->smt, meta->num_cpus)) || td_evaluation_init(&p.out, m) ||
	    store_aliases(&p) || map_targets(&p, p.sc.ngroups) ||
	    td_metric_writer_new_prefixed(s, m, prefix, &p.w, err) ||
	    td_session_counts_walk_range(&p.sc, s, session, r->first, r->last, &walk, &p))
		goto out;
	rc = 0;
out:
	if (rc && !err->msg[0])
		td_err_set(err, "cannot recompute session %lld with %s: %s", (long long)session, file,
			   td_store_errmsg(s));
	pass_free(&p);
	td_model_free(m);
	td_catalog_free(cat);
	return rc;
}

/* ---- the session ---------------------------------------------------------------- */

struct files_seen {
	bool recorded;		/* some row names its file (schema 3 live sessions) */
	bool software, generic; /* rows of software.td / generic.td (or, unrecorded, a live session) */
	char model[64];		/* the model file that planned the tree (schema 3 live sessions), "" if none */
};

static int note_file(const struct td_event_info *e, void *ctx)
{
	struct files_seen *f = ctx;

	if (e->file) {
		f->recorded = true;
		f->software |= !strcmp(e->file, "software.td");
		f->generic |= !strcmp(e->file, "generic.td");
		if (!f->model[0] && strcmp(e->file, "software.td") && strcmp(e->file, "generic.td") &&
		    strcmp(e->file, "proc"))
			snprintf(f->model, sizeof(f->model), "%s", e->file);
	}
	return 0;
}

/* Append word to the space- (or sep-) separated list *list, grown as needed:
 * -1 when out of memory. */
static int list_append(char **list, const char *sep, const char *word)
{
	size_t len = *list ? strlen(*list) : 0, add = (len ? strlen(sep) : 0) + strlen(word);
	char *grown = realloc(*list, len + add + 1);

	if (!grown)
		return -1;
	snprintf(grown + len, add + 1, "%s%s", len ? sep : "", word);
	*list = grown;
	return 0;
}

struct unmatched {
	struct td_recompute_result *res;
	bool out_of_memory;
};

/* Events rows no pass matched: their names, for the message; alias NULL. */
static int note_unmatched(const struct td_event_info *e, void *ctx)
{
	struct unmatched *u = ctx;

	if (e->alias || e->group < 0) /* group -1: /proc's counts, read by no events file */
		return 0;
	u->res->events_unmatched++;
	u->out_of_memory = list_append(&u->res->unmatched, " ", e->name) != 0;
	return u->out_of_memory ? -1 : 0;
}

static int add_file_name(struct td_recompute_result *res, const char *file, td_err *err)
{
	if (!list_append(&res->events_file, " + ", file))
		return 0;
	td_err_set(err, "out of memory naming the events files recomputed: free some memory and try again");
	return -1;
}

/* A hybrid spec (adl_glc+adl_grt): can each model's file be found? -1 with err if not. */
static int hybrid_files_missing(const char *dir, const char *spec, td_err *err)
{
	char models[TD_MODEL_SPEC_MAX][TD_MODEL_NAME_MAX], file[64];
	int n = td_model_spec_split(spec, models);

	if (n < 0) {
		td_err_set(
			err,
			"PMU model '%s' is neither one model nor one per core PMU joined by '+': nothing was changed",
			spec);
		return -1;
	}
	for (int i = 0; i < n; i++)
		if (td_catalog_find(dir, models[i], file, sizeof(file))) {
			td_err_set(err,
				   "no events file in %s serves PMU model '%s' (of '%s'): give --events-dir with one; "
				   "nothing was changed",
				   dir, models[i], spec);
			return -1;
		}
	return 0;
}

/* Each core PMU's tree of a hybrid session: the first (cpu_core) under the plain node names,
 * the others prefixed with their PMU ("cpu_atom:Frontend_Bound"). */
static int run_hybrid(struct td_store *s, int64_t session, const struct td_session_meta *meta, const char *dir,
		      const struct seqs *r, struct td_recompute_result *res, td_err *err)
{
	char models[TD_MODEL_SPEC_MAX][TD_MODEL_NAME_MAX], file[64], prefix[80];
	int n = td_model_spec_split(meta->pmu_model, models);

	for (int i = 0; i < n; i++) {
		const char *pmu = td_hybrid_pmu_of_model(models[i]);
		if (td_catalog_find(dir, models[i], file, sizeof(file)))
			return -1;
		snprintf(prefix, sizeof(prefix), "%s%s", i && pmu ? pmu : "", i && pmu ? ":" : "");
		if (run_file(s, session, meta, dir, file, models[i], prefix, r, res, err))
			return -1;
		if (add_file_name(res, file, err))
			return -1;
	}
	return 0;
}

/* Recompute the intervals r of session: all of them in a transaction of its
 * own (whole), else those in the caller's transaction. */
static int recompute(struct td_store *s, int64_t session, const char *events_dir, const struct seqs *r, bool whole,
		     struct td_recompute_result *res, td_err *err)
{
	struct td_session_meta meta;
	struct files_seen seen = { 0 };
	const char *dir = td_events_dir(events_dir);
	char model_file[64] = "";
	struct unmatched unmatched = { .res = res };
	bool live, hybrid;
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
	hybrid = td_model_spec_hybrid(meta.pmu_model);
	if (meta.pmu_model[0] && !hybrid && td_catalog_find(dir, meta.pmu_model, model_file, sizeof(model_file)))
		model_file[0] = '\0';
	if (hybrid && hybrid_files_missing(dir, meta.pmu_model, err))
		return -1;
	if (!hybrid && !model_file[0] && (!live || seen.model[0])) {
		/* nothing is deleted: a session keeps its values until new ones can replace them */
		td_err_set(err,
			   "no events file in %s serves PMU model '%s'%s%s%s: give --events-dir with one; nothing was "
			   "changed",
			   dir, meta.pmu_model[0] ? meta.pmu_model : "(none recorded)",
			   seen.model[0] ? " (the session's tree was planned from " : "", seen.model,
			   seen.model[0] ? ")" : "");
		return -1;
	}
	if (!whole) {
		if (td_store_metrics_clear_range(s, session, r->first, r->last))
			goto db_error;
	} else if (td_store_begin(s))
		goto db_error;
	else if (td_store_event_aliases_clear(s, session) || td_store_metrics_clear(s, session)) {
		td_store_rollback(s);
		goto db_error;
	}
	/* the model file, then (live sessions) the files every run opens */
	if (model_file[0]) {
		rc = run_file(s, session, &meta, dir, model_file, meta.pmu_model, "", r, res, err);
		if (!rc)
			rc = add_file_name(res, model_file, err);
	}
	if (hybrid)
		rc = run_hybrid(s, session, &meta, dir, r, res, err);
	if (!rc && live && seen.software) {
		rc = run_file(s, session, &meta, dir, "software.td", NULL, "", r, res, err);
		if (!rc)
			rc = add_file_name(res, "software.td", err);
	}
	if (!rc && live && seen.generic) {
		rc = run_file(s, session, &meta, dir, "generic.td", meta.pmu_model, "", r, res, err);
		if (!rc)
			rc = add_file_name(res, "generic.td", err);
	}
	if (!rc && td_store_events(s, session, note_unmatched, &unmatched)) {
		if (unmatched.out_of_memory)
			td_err_set(err, "out of memory listing the events not read: free some memory and try again");
		rc = -1;
	}
	if (!whole) {
		if (rc && !err->msg[0])
			td_err_set(err, "cannot recompute session %lld: %s", (long long)session, td_store_errmsg(s));
		return rc ? -1 : 0;
	}
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

int td_recompute(struct td_store *s, int64_t session, const char *events_dir, bool each_target,
		 struct td_recompute_result *res, td_err *err)
{
	const struct seqs all = { INT_MIN, INT_MAX, each_target };

	return recompute(s, session, events_dir, &all, true, res, err);
}

int td_recompute_range(struct td_store *s, int64_t session, const char *events_dir, int first_seq, int last_seq,
		       struct td_recompute_result *res, td_err *err)
{
	const struct seqs r = { first_seq, last_seq, false };

	return recompute(s, session, events_dir, &r, false, res, err);
}

void td_recompute_result_free(struct td_recompute_result *res)
{
	free(res->events_file);
	free(res->unmatched);
	res->events_file = res->unmatched = NULL;
}
