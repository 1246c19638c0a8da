/* report_data: a session read back and evaluated for reports (see
 * report_data.h). */
#include "report_data.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eval/group_counts.h"
#include "eval/metrics.h"

/* ---- header ------------------------------------------------------------------ */

int td_report_header_read(struct td_store *s, int64_t session, struct td_session_header *h, td_err *err)
{
	struct td_session_meta meta;

	if (td_store_session_header(s, session, h) == 0)
		return 0;
	if (td_store_session_meta(s, session, &meta) == 0)
		td_err_set(err, "cannot read session %lld: %s", (long long)session, td_store_errmsg(s));
	else
		td_err_set(err, "no session %lld in the database: see 'tdctl sessions'", (long long)session);
	return -1;
}

/* ---- accumulation --------------------------------------------------------------- */

struct acc {
	struct td_group_counts c; /* summed scaled counts per group (NA sticky), least coverage */
	double secs;
	uint64_t start_ns, end_ns;
	bool used;
};

struct tgt {
	int64_t id;
	char label[160];
	bool selected;
	struct acc total;
};

struct evmap {
	int64_t id;
	int alias;               /* -1: not read by the model */
	int group;               /* perf group (dense; imports: 0) */
	int count;               /* index into d->counts */
};

struct load {
	struct td_report_data *d;
	const struct td_report_filter *f;
	struct td_metrics *mx;
	int n;                   /* aliases */
	int ngroups;
	struct evmap *evs;
	int nevs;
	struct tgt *tg;
	int ntg;
	struct td_group_counts cur; /* current (interval, target) */
	struct acc iv, whole;
	struct acc col;          /* the chart column being summed (per_col > 1) */
	int col_n, col_seq;
	uint64_t col_start;
	int64_t interval, target;
	int seq;
	uint64_t start_ns, end_ns;
	bool failed;
};

static int acc_init(struct acc *a, int n, int ngroups)
{
	memset(a, 0, sizeof(*a));
	if (td_group_counts_init(&a->c, n, ngroups))
		return -1;
	td_group_counts_zero(&a->c);
	return 0;
}

static void acc_free(struct acc *a)
{
	td_group_counts_free(&a->c);
}

static void acc_reset(struct acc *a)
{
	td_group_counts_zero(&a->c);
	a->secs = 0;
	a->used = false;
}

static void acc_add(struct acc *a, const struct td_group_counts *part, double secs)
{
	td_group_counts_add(&a->c, part);
	a->secs += secs;
	a->used = true;
}

/* ---- evaluation ------------------------------------------------------------------ */

static int eval_alloc(struct td_report_eval *e, const struct td_model *m)
{
	size_t nn = (size_t)m->nnodes + 1, ni = (size_t)m->ninfos + 1, nc = (size_t)m->ncpis + 1;

	e->node = calloc(nn, sizeof(double));
	e->conf = calloc(nn, sizeof(double));
	e->spans = calloc(nn, sizeof(bool));
	e->flagged = calloc(nn, sizeof(bool));
	e->info = calloc(ni, sizeof(double));
	e->cpi_comp = calloc(nc, sizeof(double));
	e->bottleneck = -1;
	return e->node && e->conf && e->spans && e->flagged && e->info && e->cpi_comp ? 0 : -1;
}

static void eval_free(struct td_report_eval *e)
{
	free(e->node);
	free(e->conf);
	free(e->spans);
	free(e->flagged);
	free(e->info);
	free(e->cpi_comp);
}

static int evaluate(struct load *L, const struct acc *a, struct td_report_eval *e)
{
	const struct td_model *m = L->d->model;
	td_err ignored;

	if (eval_alloc(e, m))
		return -1;
	e->seconds = a->secs;
	td_metrics_set(L->mx, "DURATION", a->secs > 0 ? a->secs : NAN, &ignored);
	if (td_group_counts_eval(L->mx, &a->c))
		return -1;
	for (int i = 0; i < m->nnodes; i++) {
		e->node[i] = L->mx->node[i];
		e->flagged[i] = L->mx->flagged[i];
		e->conf[i] = L->mx->conf[m->nodes[i].f.slot];
		e->spans[i] = L->mx->spans[m->nodes[i].f.slot];
		e->nvalid += !isnan(e->node[i]);
	}
	e->bottleneck = L->mx->bottleneck;
	for (int i = 0; i < m->ninfos; i++)
		e->info[i] = L->mx->info[i];
	e->cpi_valid = L->mx->cpi.valid;
	e->cpi = L->mx->cpi.cpi;
	e->other = L->mx->cpi.other;
	for (int i = 0; i < m->ncpis; i++)
		e->cpi_comp[i] = L->mx->cpi.comp[i];
	return 0;
}

/* ---- reading counts ----------------------------------------------------------------- */

/* Targets and events are read in id order (td_store_targets/_events):
 * binary search, so a session of many threads stays linear in its counts. */
static struct tgt *find_tgt(struct load *L, int64_t id)
{
	return td_find_by_id(L->tg, (size_t)L->ntg, sizeof(*L->tg), id);
}

static const struct evmap *find_ev(const struct load *L, int64_t id)
{
	return td_find_by_id(L->evs, (size_t)L->nevs, sizeof(*L->evs), id);
}

static double iv_secs(const struct load *L)
{
	return L->end_ns > L->start_ns ? (double)(L->end_ns - L->start_ns) / 1e9 : 0;
}

static void flush_target(struct load *L)
{
	struct tgt *t = L->target ? find_tgt(L, L->target) : NULL;

	if (t && t->selected) {
		acc_add(&L->iv, &L->cur, 0);
		acc_add(&t->total, &L->cur, iv_secs(L));
	}
	td_group_counts_clear(&L->cur);
	L->target = 0;
}

/* The current chart column, evaluated; its label names its intervals. */
static int flush_col(struct load *L)
{
	struct td_report_data *d = L->d;
	struct td_report_eval *n, *e;

	if (L->col_n == 0)
		return 0;
	if (!(n = realloc(d->cols, (size_t)(d->ncols + 1) * sizeof(*n))))
		return -1;
	d->cols = n;
	e = &d->cols[d->ncols++];
	memset(e, 0, sizeof(*e));
	e->seq = L->col_seq;
	e->start_ns = L->col_start;
	e->end_ns = L->end_ns;
	snprintf(e->label, sizeof(e->label), "%d-%d", L->col_seq, L->seq);
	if (evaluate(L, &L->col, e))
		return -1;
	acc_reset(&L->col);
	L->col_n = 0;
	return 0;
}

static int add_to_col(struct load *L)
{
	if (L->col_n == 0) {
		L->col_seq = L->seq;
		L->col_start = L->start_ns;
	}
	acc_add(&L->col, &L->iv.c, L->iv.secs);
	return ++L->col_n == L->d->per_col ? flush_col(L) : 0;
}

static int flush_interval(struct load *L)
{
	struct td_report_data *d = L->d;

	flush_target(L);
	if (!L->interval)
		return 0;
	L->iv.secs = iv_secs(L);
	if (L->iv.used) {
		struct td_report_eval *n = realloc(d->ivs, (size_t)(d->nivs + 1) * sizeof(*n));
		if (!n)
			return -1;
		d->ivs = n;
		struct td_report_eval *e = &d->ivs[d->nivs++];
		memset(e, 0, sizeof(*e));
		e->seq = L->seq;
		e->start_ns = L->start_ns;
		e->end_ns = L->end_ns;
		snprintf(e->label, sizeof(e->label), "%d", L->seq);
		if (d->model && evaluate(L, &L->iv, e))
			return -1;
		if (!d->model)
			e->seconds = L->iv.secs;
		acc_add(&L->whole, &L->iv.c, L->iv.secs);
		if (d->per_col > 1 && d->model && add_to_col(L))
			return -1;
	}
	acc_reset(&L->iv);
	L->interval = 0;
	return 0;
}

/* Is the interval [start, end] in the filter's time window? */
static bool in_window(const struct load *L, uint64_t start, uint64_t end)
{
	double mid;

	if (!L->f->window)
		return true;
	mid = ((double)(start - L->d->h.first_ns) + (double)(end - start) / 2) / 1e9;
	return mid >= L->f->from && mid <= L->f->to;
}

/* Intervals of the session in the window: what the chart columns divide. */
struct window_count {
	const struct load *L;
	int n;
};

static int count_in_window(uint64_t start_ns, uint64_t end_ns, void *ctx)
{
	struct window_count *w = ctx;

	w->n += in_window(w->L, start_ns, end_ns);
	return 0;
}

static int window_intervals(struct td_store *s, int64_t session, const struct load *L)
{
	struct window_count w = { L, 0 };

	return td_store_intervals(s, session, count_in_window, &w) ? -1 : w.n;
}

static int add_count(const struct td_count_row *c, void *ctx)
{
	struct load *L = ctx;
	const struct evmap *ev = find_ev(L, c->event);
	struct tgt *t;

	if (!in_window(L, c->start_ns, c->end_ns))
		return 0; /* rows come interval by interval: a whole interval is skipped */
	if (c->interval != L->interval) {
		if (flush_interval(L))
			return -1;
		L->interval = c->interval;
		L->seq = c->seq;
		L->start_ns = c->start_ns;
		L->end_ns = c->end_ns;
	}
	if (c->target != L->target) {
		flush_target(L);
		L->target = c->target;
	}
	if (!(t = find_tgt(L, c->target)) || !t->selected || !ev)
		return 0;
	struct td_report_count *rc = &L->d->counts[ev->count];
	rc->value += c->value;
	rc->enabled += c->enabled;
	rc->running += c->running;
	if (ev->alias < 0)
		return 0;
	td_group_counts_add_row(&L->cur, ev->group, ev->alias, c->value, c->enabled, c->running);
	return 0;
}

static int add_event(const struct td_event_info *e, void *ctx)
{
	struct load *L = ctx;
	struct td_report_data *d = L->d;
	const char *alias = e->alias ? e->alias : e->name;
	/* a live event feeds the file that planned it (two files may count one event) */
	bool mine = !e->file || !strcmp(e->file, d->model_file);
	const struct td_cat_event *ce = d->cat && mine ? td_catalog_event(d->cat, alias) : NULL;
	struct evmap *ne = realloc(L->evs, (size_t)(L->nevs + 1) * sizeof(*ne));
	struct td_report_count *nc = realloc(d->counts, (size_t)(d->ncounts + 1) * sizeof(*nc));

	if (ne)
		L->evs = ne;
	if (nc)
		d->counts = nc;
	if (!ne || !nc)
		return -1;
	L->evs[L->nevs++] = (struct evmap){ e->id, ce ? (int)(ce - d->cat->events) : -1, e->group, d->ncounts };
	memset(&d->counts[d->ncounts], 0, sizeof(d->counts[0]));
	snprintf(d->counts[d->ncounts].name, sizeof(d->counts[0].name), "%s", e->name);
	snprintf(d->counts[d->ncounts].alias, sizeof(d->counts[0].alias), "%s", e->alias ? e->alias : "");
	d->counts[d->ncounts].failed = e->status && !strcmp(e->status, "failed");
	d->ncounts++;
	return 0;
}

/* Live sessions: the events' perf groups -> 0..n-1 (imports: one group,
 * their group numbers only tell repeated events apart). Returns n or -1. */
static int dense_groups(struct load *L, const char *kind)
{
	int *g = malloc(((size_t)L->nevs + 1) * sizeof(int)), n = 0, k;

	if (!g)
		return -1;
	for (int i = 0; i < L->nevs; i++)
		if (L->evs[i].alias >= 0)
			g[n++] = strcmp(kind, "import") ? L->evs[i].group : 0;
	k = td_group_numbers_dense(g, n);
	for (int i = 0, j = 0; k > 0 && i < L->nevs; i++)
		L->evs[i].group = L->evs[i].alias >= 0 ? g[j++] : 0;
	free(g);
	return k;
}

static bool filter_keeps(const struct td_report_filter *f, const struct td_target_info *t)
{
	switch (f->kind) {
	case TD_RF_ALL: return true; /* `whole` dropped later unless it is the only target */
	case TD_RF_THREAD: return !strcmp(t->kind, "thread") && t->tid == f->id;
	case TD_RF_PROCESS: return (!strcmp(t->kind, "thread") || !strcmp(t->kind, "process")) && t->pid == f->id;
	case TD_RF_CPU: return !strcmp(t->kind, "cpu") && t->cpu == f->id;
	}
	return false;
}

static int add_target(const struct td_target_info *t, void *ctx)
{
	struct load *L = ctx;
	struct tgt *n = realloc(L->tg, (size_t)(L->ntg + 1) * sizeof(*n));

	if (!n)
		return -1;
	L->tg = n;
	n = &L->tg[L->ntg];
	memset(n, 0, sizeof(*n));
	n->id = t->id;
	n->selected = filter_keeps(L->f, t);
	td_target_label(t, n->label, sizeof(n->label));
	if (acc_init(&n->total, L->n, L->ngroups))
		return -1;
	L->ntg++;
	L->d->selected_targets += n->selected;
	return 0;
}

/* The `whole` target holds counts only when it is all a session measured
 * (a perf stat import without -A or --per-thread); otherwise it is the
 * recomputed aggregate and summing it too would count everything twice. */
static void drop_whole(struct load *L)
{
	bool others = false;

	for (int i = 0; i < L->ntg; i++)
		others |= L->tg[i].selected && strcmp(L->tg[i].label, "whole") != 0;
	for (int i = 0; others && i < L->ntg; i++)
		if (!strcmp(L->tg[i].label, "whole") && L->tg[i].selected) {
			L->tg[i].selected = false;
			L->d->selected_targets--;
		}
}

/* ---- setup ------------------------------------------------------------------------ */

static void load_model(struct td_report_data *d, const char *events_dir)
{
	char path[1024];
	const char *dir = td_events_dir(events_dir);
	td_err err;

	if (!d->h.pmu_model[0] || td_catalog_find(dir, d->h.pmu_model, d->model_file, sizeof(d->model_file))) {
		snprintf(d->why_no_model, sizeof(d->why_no_model), "no events file in %s serves PMU model '%s'", dir,
			 d->h.pmu_model[0] ? d->h.pmu_model : "(none recorded)");
		return;
	}
	snprintf(path, sizeof(path), "%s/%s", dir, d->model_file);
	if (td_catalog_load(path, &d->cat, &err)) {
		snprintf(d->why_no_model, sizeof(d->why_no_model), "%s", err.msg);
		return;
	}
	if (td_model_compile(d->cat, &d->model, &err)) {
		snprintf(d->why_no_model, sizeof(d->why_no_model), "%s", err.msg);
		td_catalog_free(d->cat);
		d->cat = NULL;
	}
}

static int finish_targets(struct load *L)
{
	struct td_report_data *d = L->d;

	if (!(d->targets = calloc((size_t)L->ntg + 1, sizeof(*d->targets))))
		return -1;
	for (int i = 0; i < L->ntg; i++) {
		struct tgt *t = &L->tg[i];
		if (!t->selected || !t->total.used)
			continue;
		struct td_report_eval *e = &d->targets[d->ntargets++];
		snprintf(e->label, sizeof(e->label), "%s", t->label);
		e->seq = -1;
		if (d->model && evaluate(L, &t->total, e))
			return -1;
	}
	return 0;
}

static int run(struct load *L, struct td_store *s, int64_t session)
{
	struct td_report_data *d = L->d;
	td_err ignored;
	int nw;

	if (d->model) {
		if (!(L->mx = td_metrics_new(d->model)))
			return -1;
		if (d->h.smt >= 0)
			td_metrics_set(L->mx, "SMT_on", d->h.smt, &ignored);
		td_metrics_set(L->mx, "NUM_CPUS", d->h.num_cpus > 0 ? d->h.num_cpus : NAN, &ignored);
	}
	L->n = d->cat ? d->cat->nevents : 0;
	if (td_store_events(s, session, add_event, L) || (L->ngroups = dense_groups(L, d->h.kind)) < 0 ||
	    td_group_counts_init(&L->cur, L->n, L->ngroups) || acc_init(&L->iv, L->n, L->ngroups) ||
	    acc_init(&L->whole, L->n, L->ngroups) || td_store_targets(s, session, add_target, L))
		return -1;
	drop_whole(L);
	if ((nw = window_intervals(s, session, L)) < 0 || acc_init(&L->col, L->n, L->ngroups))
		return -1;
	d->per_col = nw > TD_REPORT_MAX_COLS ? (nw + TD_REPORT_MAX_COLS - 1) / TD_REPORT_MAX_COLS : 1;
	if (td_store_counts(s, session, add_count, L) || flush_interval(L) || (d->model && flush_col(L)) ||
	    finish_targets(L))
		return -1;
	if (d->per_col == 1) {
		d->cols = d->ivs;
		d->ncols = d->nivs;
	}
	snprintf(d->whole.label, sizeof(d->whole.label), "session");
	d->whole.seq = -1;
	d->whole.seconds = L->whole.secs;
	if (d->nivs) {
		d->whole.start_ns = d->ivs[0].start_ns;
		d->whole.end_ns = d->ivs[d->nivs - 1].end_ns;
	}
	return d->model ? evaluate(L, &L->whole, &d->whole) : 0;
}

int td_report_data_load(struct td_store *s, int64_t session, const struct td_report_filter *f,
			const char *events_dir, struct td_report_data *d, td_err *err)
{
	struct load L;
	int rc;

	memset(d, 0, sizeof(*d));
	d->whole.bottleneck = -1;
	if (td_report_header_read(s, session, &d->h, err))
		return -1;
	d->window = *f;
	load_model(d, events_dir);
	memset(&L, 0, sizeof(L));
	L.d = d;
	L.f = f;
	rc = run(&L, s, session);
	if (rc)
		td_err_set(err, "cannot read session %lld: %s", (long long)session, td_store_errmsg(s));
	for (int i = 0; i < L.ntg; i++)
		acc_free(&L.tg[i].total);
	free(L.tg);
	free(L.evs);
	td_group_counts_free(&L.cur);
	acc_free(&L.iv);
	acc_free(&L.whole);
	acc_free(&L.col);
	td_metrics_free(L.mx);
	if (rc)
		td_report_data_free(d);
	return rc;
}

void td_report_data_free(struct td_report_data *d)
{
	eval_free(&d->whole);
	for (int i = 0; i < d->nivs; i++)
		eval_free(&d->ivs[i]);
	for (int i = 0; d->cols != d->ivs && i < d->ncols; i++)
		eval_free(&d->cols[i]);
	if (d->cols != d->ivs)
		free(d->cols);
	for (int i = 0; i < d->ntargets; i++)
		eval_free(&d->targets[i]);
	free(d->ivs);
	free(d->targets);
	free(d->counts);
	td_model_free(d->model);
	td_catalog_free(d->cat);
	memset(d, 0, sizeof(*d));
}

bool td_report_has_tree(const struct td_report_data *d)
{
	return d->model && d->model->nnodes > 0 && d->whole.nvalid > 0;
}
