/* report_data: a session read back and evaluated for reports (see
 * report_data.h). */
#include "report_data.h"
#include "model/model_spec.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eval/evaluator.h"
#include "session_counts.h"

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
	/* summed scaled counts per group (NA sticky), least coverage; a target's total (tgt.total) sums
	 * its intervals over time: an interval in which the kernel ran an event's group not at all is a
	 * gap the rest is extrapolated over (td_group_counts_add_time), not a hole making the
	 * session's value n/a — with many groups multiplexed and short intervals (the first, or a
	 * thread that runs little) most groups have such intervals */
	struct td_group_counts c;
	double secs;
	bool used;
	bool any; /* a row of the file in some interval (td_group_counts_any): else no part of the totals */
};

struct tgt {
	int64_t id;
	char label[160];
	bool selected;
	struct acc total;
};

struct load {
	struct td_report_data *d;
	const struct td_report_filter *f;
	struct td_session_counts sc;
	struct td_evaluator *ev; /* NULL: no model */
	int n;			 /* aliases */
	struct tgt *tg;
	int ntg;
	struct acc iv, whole;
	struct acc col; /* the chart column being summed (per_col > 1) */
	int col_n, col_seq;
	uint64_t col_start;
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

/* A new evaluation of a (its values NA without a model). */
static int evaluate(struct load *L, const struct acc *a, struct td_report_eval *e)
{
	if (!L->ev) {
		e->v.seconds = a->secs;
		return 0;
	}
	if (td_evaluation_init(&e->v, L->d->model))
		return -1;
	return td_evaluate(L->ev, &a->c, a->secs, &e->v);
}

/* A new element at the end of *arr (of *n), zeroed, or NULL. */
static struct td_report_eval *eval_push(struct td_report_eval **arr, int *n)
{
	struct td_report_eval *e = td_array_push(arr, n, sizeof(**arr));

	if (e)
		e->v.bottleneck = -1;
	return e;
}

/* ---- reading counts ----------------------------------------------------------------- */

/* Targets are read in id order (td_store_targets): binary search, so a
 * session of many threads stays linear in its counts. */
static struct tgt *find_tgt(struct load *L, int64_t id)
{
	return td_find_by_id(L->tg, (size_t)L->ntg, sizeof(*L->tg), id);
}

static double iv_secs(const struct td_count_row *r)
{
	return r->end_ns > r->start_ns ? (double)(r->end_ns - r->start_ns) / 1e9 : 0;
}

/* Is the interval [start, end] in the filter's time window? */
struct seq_walk {
	int first, last, n;
	uint64_t first_ns, from_ns, to_ns; /* first_ns: the session's first interval's start (0: none yet) */
	bool any;
};

static int on_seq(int seq, uint64_t start_ns, uint64_t end_ns, void *ctx)
{
	struct seq_walk *w = ctx;

	if (!w->any) /* time order: the session's first */
		w->first_ns = start_ns;
	w->any = true;
	if (seq < w->first || seq > w->last)
		return 0;
	if (w->n++ == 0)
		w->from_ns = start_ns;
	w->to_ns = end_ns;
	return 0;
}

int td_report_seq_window(struct td_store *s, int64_t session, int first, int last, struct td_report_filter *f, int *n,
			 td_err *err)
{
	struct seq_walk w = { .first = first, .last = last };

	if (td_store_interval_seqs(s, session, on_seq, &w)) {
		td_store_describe_error(s, err);
		return -1;
	}
	*n = w.n;
	if (w.n == 0) {
		td_err_set(err,
			   "the intervals %d to %d of session %lld are no longer in the database (retention removed "
			   "them, or tdctl prune)",
			   first, last, (long long)session);
		return -1;
	}
	*f = (struct td_report_filter){ .kind = TD_RF_ALL,
					.window = true,
					.from = (double)(w.from_ns - w.first_ns) / 1e9,
					.to = (double)(w.to_ns - w.first_ns) / 1e9 };
	return 0;
}

bool td_report_filter_keeps_interval(const struct td_report_filter *f, uint64_t first_ns, uint64_t start_ns,
				     uint64_t end_ns)
{
	double mid;

	if (!f->window)
		return true;
	mid = ((double)(start_ns - first_ns) + (double)(end_ns - start_ns) / 2) / 1e9;
	return mid >= f->from && mid <= f->to;
}

static bool in_window(const struct load *L, uint64_t start, uint64_t end)
{
	return td_report_filter_keeps_interval(L->f, L->d->h.first_ns, start, end);
}

static bool keep_interval(void *ctx, uint64_t start_ns, uint64_t end_ns)
{
	return in_window(ctx, start_ns, end_ns);
}

/* Raw totals of every event over the selected targets. */
static int on_row(void *ctx, const struct td_count_row *r, const struct td_session_event *e)
{
	struct load *L = ctx;
	const struct tgt *t = find_tgt(L, r->target);
	struct td_report_count *rc;

	if (!t || !t->selected || !e)
		return 0;
	rc = &L->d->counts[e - L->sc.evs];
	rc->value += r->value;
	rc->enabled += r->enabled;
	rc->running += r->running;
	return 0;
}

static int on_target(void *ctx, const struct td_count_row *r, int64_t target, const struct td_group_counts *c)
{
	struct load *L = ctx;
	struct tgt *t = find_tgt(L, target);

	if (t && t->selected) {
		acc_add(&L->iv, c, 0);
		td_group_counts_add_time(&t->total.c, c);
		t->total.secs += iv_secs(r);
		t->total.used = true;
		t->total.any |= td_group_counts_any(c);
	}
	return 0;
}

/* The current chart column, evaluated; its label names its intervals. */
static int flush_col(struct load *L, int last_seq, uint64_t end_ns)
{
	struct td_report_data *d = L->d;
	struct td_report_eval *e;

	if (L->col_n == 0)
		return 0;
	if (!(e = eval_push(&d->cols, &d->ncols)))
		return -1;
	e->seq = L->col_seq;
	e->start_ns = L->col_start;
	e->end_ns = end_ns;
	snprintf(e->label, sizeof(e->label), "%d-%d", L->col_seq, last_seq);
	if (evaluate(L, &L->col, e))
		return -1;
	acc_reset(&L->col);
	L->col_n = 0;
	return 0;
}

static int add_to_col(struct load *L, const struct td_count_row *r)
{
	if (L->col_n == 0) {
		L->col_seq = r->seq;
		L->col_start = r->start_ns;
	}
	acc_add(&L->col, &L->iv.c, L->iv.secs);
	return ++L->col_n == L->d->per_col ? flush_col(L, r->seq, r->end_ns) : 0;
}

static int on_interval_end(void *ctx, const struct td_count_row *r)
{
	struct load *L = ctx;
	struct td_report_data *d = L->d;
	struct td_report_eval *e;

	L->iv.secs = iv_secs(r);
	if (L->iv.used) {
		if (!(e = eval_push(&d->ivs, &d->nivs)))
			return -1;
		e->seq = r->seq;
		e->start_ns = r->start_ns;
		e->end_ns = r->end_ns;
		snprintf(e->label, sizeof(e->label), "%d", r->seq);
		if (evaluate(L, &L->iv, e))
			return -1;
		L->whole.secs += L->iv.secs; /* its counts: the targets' totals (finish_targets) */
		L->whole.used = true;
		if (d->per_col > 1 && d->model && add_to_col(L, r))
			return -1;
	}
	acc_reset(&L->iv);
	return 0;
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

/* The raw totals' rows: one per events row, in its order. */
static int init_counts(struct load *L)
{
	struct td_report_data *d = L->d;

	if (!(d->counts = calloc((size_t)L->sc.nevs + 1, sizeof(*d->counts))))
		return -1;
	for (int i = 0; i < L->sc.nevs; i++) {
		const struct td_session_event *e = &L->sc.evs[i];
		struct td_report_count *rc = &d->counts[d->ncounts++];
		snprintf(rc->name, sizeof(rc->name), "%s", e->name);
		snprintf(rc->alias, sizeof(rc->alias), "%s", e->stored_alias ? e->stored_alias : "");
		rc->failed = e->failed;
	}
	return 0;
}

bool td_report_filter_keeps(const struct td_report_filter *f, const struct td_target_info *t)
{
	switch (f->kind) {
	case TD_RF_ALL:
		return true; /* `whole` dropped later unless it is the only target */
	case TD_RF_THREAD:
		return !strcmp(t->kind, "thread") && t->tid == f->id;
	case TD_RF_PROCESS:
		return (!strcmp(t->kind, "thread") || !strcmp(t->kind, "process")) && t->pid == f->id;
	case TD_RF_CPU:
		return !strcmp(t->kind, "cpu") && t->cpu == f->id;
	}
	return false;
}

/* What the filter's kind could have named in this session (for the error
 * when it names nothing): thread TIDs (not the unlisted remainder's 0),
 * PIDs, CPU numbers. */
static int add_candidate(struct td_report_data *d, const struct td_report_filter *f, const struct td_target_info *t)
{
	long id = -1, *slot;

	if (f->kind == TD_RF_THREAD && !strcmp(t->kind, "thread") && t->tid > 0)
		id = t->tid;
	else if (f->kind == TD_RF_PROCESS && (!strcmp(t->kind, "thread") || !strcmp(t->kind, "process")) && t->pid > 0)
		id = t->pid;
	else if (f->kind == TD_RF_CPU && !strcmp(t->kind, "cpu") && t->cpu >= 0)
		id = t->cpu;
	if (id < 0)
		return 0;
	for (int i = 0; i < d->ncandidates; i++)
		if (d->candidates[i] == id)
			return 0;
	if (!(slot = td_array_push(&d->candidates, &d->ncandidates, sizeof(*slot))))
		return -1;
	*slot = id;
	for (int i = d->ncandidates - 1; i > 0 && d->candidates[i - 1] > d->candidates[i]; i--) {
		long x = d->candidates[i];
		d->candidates[i] = d->candidates[i - 1];
		d->candidates[i - 1] = x;
	}
	return 0;
}

static int add_target(const struct td_target_info *t, void *ctx)
{
	struct load *L = ctx;
	struct tgt *n = td_array_push(&L->tg, &L->ntg, sizeof(*L->tg));

	if (!n)
		return -1;
	n->id = t->id;
	n->selected = td_report_filter_keeps(L->f, t);
	td_target_label(t, n->label, sizeof(n->label));
	if (acc_init(&n->total, L->n, L->sc.ngroups))
		return -1;
	L->d->selected_targets += n->selected;
	return add_candidate(L->d, L->f, t);
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

	if (td_model_spec_hybrid(d->h.pmu_model)) {
		snprintf(d->why_no_model, sizeof(d->why_no_model),
			 "a hybrid CPU's session has a tree per core PMU (%s): "
			 "the text report of 'tdctl report' shows them",
			 d->h.pmu_model);
		return;
	}
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

	int summed = 0;

	if (!(d->targets = calloc((size_t)L->ntg + 1, sizeof(*d->targets))))
		return -1;
	for (int i = 0; i < L->ntg; i++) {
		struct tgt *t = &L->tg[i];
		if (!t->selected || !t->total.used || !t->total.any)
			continue;
		td_group_counts_extrapolate(&t->total.c);
		td_group_counts_add(&L->whole.c, &t->total.c); /* across targets: NA sticky */
		summed++;
		struct td_report_eval *e = &d->targets[d->ntargets++];
		e->v.bottleneck = -1;
		snprintf(e->label, sizeof(e->label), "%s", t->label);
		e->seq = -1;
		if (evaluate(L, &t->total, e))
			return -1;
	}
	if (summed == 0) /* no target counted any of the file's events: not counted, never 0 */
		td_group_counts_clear(&L->whole.c);
	return 0;
}

static int run(struct load *L, struct td_store *s, int64_t session, td_err *err)
{
	static const struct td_count_walk walk = {
		.keep_interval = keep_interval, .row = on_row, .target = on_target, .interval_end = on_interval_end
	};
	struct td_report_data *d = L->d;
	int nw;

	if (td_session_counts_bind(&L->sc, s, session, d->cat, d->model_file, d->h.pmu_model, err))
		return -1;
	if (d->model && !(L->ev = td_evaluator_new(d->model, d->h.smt, d->h.num_cpus)))
		return -1;
	L->n = d->cat ? d->cat->nevents : 0;
	if (init_counts(L) || acc_init(&L->iv, L->n, L->sc.ngroups) || acc_init(&L->whole, L->n, L->sc.ngroups) ||
	    td_store_targets(s, session, add_target, L))
		return -1;
	drop_whole(L);
	if ((nw = window_intervals(s, session, L)) < 0 || acc_init(&L->col, L->n, L->sc.ngroups))
		return -1;
	d->per_col = nw > TD_REPORT_MAX_COLS ? (nw + TD_REPORT_MAX_COLS - 1) / TD_REPORT_MAX_COLS : 1;
	if (td_session_counts_walk(&L->sc, s, session, &walk, L) ||
	    (d->model && d->nivs && flush_col(L, d->ivs[d->nivs - 1].seq, d->ivs[d->nivs - 1].end_ns)) ||
	    finish_targets(L))
		return -1;
	if (d->per_col == 1) {
		d->cols = d->ivs;
		d->ncols = d->nivs;
	}
	snprintf(d->whole.label, sizeof(d->whole.label), "session");
	d->whole.seq = -1;
	if (d->nivs) {
		d->whole.start_ns = d->ivs[0].start_ns;
		d->whole.end_ns = d->ivs[d->nivs - 1].end_ns;
	}
	return evaluate(L, &L->whole, &d->whole);
}

int td_report_data_load(struct td_store *s, int64_t session, const struct td_report_filter *f, const char *events_dir,
			struct td_report_data *d, td_err *err)
{
	return td_report_data_load_model(s, session, f, events_dir, NULL, d, err);
}

/* td_event_fn: a counting event's note, once. */
static int collect_note(const struct td_event_info *e, void *ctx)
{
	struct td_report_data *d = ctx;
	char **slot;

	if (!e->error || !e->error[0] || strcmp(e->status, "counting"))
		return 0;
	for (int i = 0; i < d->nnotes; i++)
		if (!strcmp(d->notes[i], e->error))
			return 0;
	if (!(slot = td_array_push(&d->notes, &d->nnotes, sizeof(*d->notes))))
		return -1;
	return (*slot = strdup(e->error)) ? 0 : -1;
}

int td_report_data_load_model(struct td_store *s, int64_t session, const struct td_report_filter *f,
			      const char *events_dir, const char *model, struct td_report_data *d, td_err *err)
{
	struct load L;
	int rc;

	memset(d, 0, sizeof(*d));
	d->whole.v.bottleneck = -1;
	if (td_report_header_read(s, session, &d->h, err))
		return -1;
	if (model) /* one core PMU's model of a hybrid session: its file reads the counts */
		snprintf(d->h.pmu_model, sizeof(d->h.pmu_model), "%s", model);
	d->window = *f;
	if (td_store_events(s, session, collect_note, d)) {
		td_err_set(err, "cannot read session %lld's events: %s", (long long)session, td_store_errmsg(s));
		td_report_data_free(d);
		return -1;
	}
	load_model(d, events_dir);
	memset(&L, 0, sizeof(L));
	L.d = d;
	L.f = f;
	err->msg[0] = '\0';
	rc = run(&L, s, session, err);
	if (rc && !err->msg[0])
		td_err_set(err, "cannot read session %lld: %s", (long long)session, td_store_errmsg(s));
	for (int i = 0; i < L.ntg; i++)
		acc_free(&L.tg[i].total);
	free(L.tg);
	acc_free(&L.iv);
	acc_free(&L.whole);
	acc_free(&L.col);
	td_evaluator_free(L.ev);
	td_session_counts_free(&L.sc);
	if (rc)
		td_report_data_free(d);
	return rc;
}

void td_report_data_free(struct td_report_data *d)
{
	td_evaluation_free(&d->whole.v);
	for (int i = 0; i < d->nivs; i++)
		td_evaluation_free(&d->ivs[i].v);
	for (int i = 0; d->cols != d->ivs && i < d->ncols; i++)
		td_evaluation_free(&d->cols[i].v);
	if (d->cols != d->ivs)
		free(d->cols);
	for (int i = 0; i < d->ntargets; i++)
		td_evaluation_free(&d->targets[i].v);
	free(d->ivs);
	free(d->targets);
	free(d->candidates);
	free(d->counts);
	for (int i = 0; i < d->nnotes; i++)
		free(d->notes[i]);
	free(d->notes);
	td_model_free(d->model);
	td_catalog_free(d->cat);
	memset(d, 0, sizeof(*d));
}

bool td_report_has_tree(const struct td_report_data *d)
{
	return d->model && d->model->nnodes > 0 && d->whole.v.nvalid > 0;
}
