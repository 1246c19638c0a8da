/* metrics: runs a model's formulas in dependency order over one slot
 * array, then derives thresholds, the bottleneck path and the CPI stack. */
#include "metrics.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct td_metrics *td_metrics_new(const struct td_model *m)
{
	struct td_metrics *mx = calloc(1, sizeof(*mx));
	size_t nn = (size_t)(m->nnodes ? m->nnodes : 1);

	if (!mx)
		return NULL;
	mx->model = m;
	mx->slots = malloc((size_t)m->nslots * sizeof(double));
	mx->conf = malloc((size_t)m->nslots * sizeof(double));
	mx->spans = calloc((size_t)m->nslots, sizeof(bool));
	mx->node = calloc(nn, sizeof(double));
	mx->flagged = calloc(nn, sizeof(bool));
	mx->info = calloc((size_t)(m->ninfos ? m->ninfos : 1), sizeof(double));
	mx->cpi.comp = calloc((size_t)(m->ncpis ? m->ncpis : 1), sizeof(double));
	if (!mx->slots || !mx->conf || !mx->spans || !mx->node || !mx->flagged || !mx->info || !mx->cpi.comp) {
		td_metrics_free(mx);
		return NULL;
	}
	memcpy(mx->slots, m->defaults, (size_t)m->nslots * sizeof(double));
	for (int i = 0; i < m->nslots; i++)
		mx->conf[i] = NAN;
	mx->bottleneck = -1;
	return mx;
}

void td_metrics_free(struct td_metrics *mx)
{
	if (!mx)
		return;
	free(mx->slots);
	free(mx->conf);
	free(mx->spans);
	free(mx->gslots);
	free(mx->node);
	free(mx->flagged);
	free(mx->info);
	free(mx->cpi.comp);
	free(mx);
}

int td_metrics_set(struct td_metrics *mx, const char *name, double value, td_err *err)
{
	int slot = td_model_slot(mx->model, name);

	if (slot < 0 || !td_model_is_param(mx->model, slot)) {
		bool is_const =
			slot >= mx->model->first_const && slot < mx->model->first_const + mx->model->cat->nconsts;
		td_err_set(err, "'%s' is not a param of %s or a built-in (DURATION, NUM_CPUS)%s", name,
			   mx->model->cat->name, is_const ? "; a const cannot be overridden" : "");
		return -1;
	}
	mx->slots[slot] = value;
	return 0;
}

double td_metrics_value(const struct td_metrics *mx, const char *name)
{
	int slot = td_model_slot(mx->model, name);

	return slot < 0 ? TD_NA : mx->slots[slot];
}

static void eval_flags(struct td_metrics *mx)
{
	const struct td_model *m = mx->model;

	/* parents are declared (and so indexed) before their children */
	for (int i = 0; i < m->nnodes; i++) {
		const struct td_node *n = &m->nodes[i];
		double v = mx->slots[n->f.slot];
		double t = n->thr && !td_is_na(v) ? td_expr_eval(n->thr, mx->slots) : TD_NA;
		mx->node[i] = v;
		mx->flagged[i] = !td_is_na(t) && t != 0 && (n->parent < 0 || mx->flagged[n->parent]);
	}
}

/* The flagged child of parent (-1: a level-1 node) with the largest value;
 * -1 when there is none, or when a sibling is not available: a value not
 * measured might be the largest, so no child can be named. */
static int heaviest_flagged_child(const struct td_metrics *mx, int parent)
{
	const struct td_model *m = mx->model;
	int best = -1;

	for (int i = 0; i < m->nnodes; i++) {
		if (m->nodes[i].parent != parent)
			continue;
		if (td_is_na(mx->node[i]))
			return -1;
		if (mx->flagged[i] && (best < 0 || mx->node[i] > mx->node[best]))
			best = i;
	}
	return best;
}

static int find_bottleneck(const struct td_metrics *mx)
{
	int cur = -1;

	for (int next; (next = heaviest_flagged_child(mx, cur)) >= 0;)
		cur = next;
	return cur;
}

static void eval_cpi(struct td_metrics *mx)
{
	const struct td_model *m = mx->model;
	struct td_cpi_stack *s = &mx->cpi;
	double sum = 0, total = 0;

	s->scaled = false;
	s->scale = 1;
	s->cycles = m->has_cpi ? mx->slots[m->cpi_cycles.slot] : TD_NA;
	s->instructions = m->has_cpi ? mx->slots[m->cpi_instructions.slot] : TD_NA;
	s->cpi = s->instructions == 0 ? TD_NA : s->cycles / s->instructions;
	s->valid = !td_is_na(s->cpi);
	for (int i = 0; i < m->ncpis; i++) {
		double f = mx->slots[m->cpis[i].f.slot];
		if (!td_is_na(f))
			sum += f;
	}
	if (sum > 1) {
		s->scaled = true;
		s->scale = 1 / sum;
	}
	for (int i = 0; i < m->ncpis; i++) {
		s->comp[i] = s->valid ? mx->slots[m->cpis[i].f.slot] * s->scale * s->cpi : TD_NA;
		if (!td_is_na(s->comp[i]))
			total += s->comp[i];
	}
	s->other = s->valid ? s->cpi - total : TD_NA;
}

/* Results that follow from the formulas' values: flags, infos, bottleneck, CPI. */
static void derive(struct td_metrics *mx)
{
	const struct td_model *m = mx->model;

	eval_flags(mx);
	for (int i = 0; i < m->ninfos; i++)
		mx->info[i] = mx->slots[m->infos[i].f.slot];
	mx->bottleneck = find_bottleneck(mx);
	eval_cpi(mx);
}

static void run_formulas(const struct td_model *m, double *slots)
{
	for (int i = 0; i < m->norder; i++)
		slots[m->order[i]->slot] = td_expr_eval(m->order[i]->expr, slots);
}

void td_metrics_eval(struct td_metrics *mx, const double *counts)
{
	const struct td_model *m = mx->model;

	memcpy(mx->slots, counts, (size_t)m->cat->nevents * sizeof(double));
	run_formulas(m, mx->slots);
	for (int i = 0; i < m->nslots; i++) {
		mx->conf[i] = NAN;
		mx->spans[i] = false;
	}
	derive(mx);
}

/* Least coverage, in one group, of the counted events formula f reads. */
static double least_coverage(const struct td_formula *f, const double *counts, const double *cov)
{
	double c = NAN;

	for (int i = 0; i < f->nevents; i++) {
		int e = f->events[i];
		if (!isnan(counts[e]) && !isnan(cov[e]) && (isnan(c) || cov[e] < c))
			c = cov[e];
	}
	return c < 0 ? 0 : c > 1 ? 1 : c;
}

/* The group that counted event e longest, or -1. */
static int best_group(const double *counts, const double *cov, int n, int ngroups, int e)
{
	int best = -1;

	for (int g = 0; g < ngroups; g++)
		if (!isnan(counts[g * n + e]) && (best < 0 || cov[g * n + e] > cov[best * n + e]))
			best = g;
	return best;
}

/* Confidence of a formula read across groups: the product over the groups
 * its events are taken from of the least coverage there. */
static double spanning_confidence(const struct td_formula *f, const double *counts, const double *cov, int n,
				  int ngroups)
{
	double c = 1;
	bool any = false;

	for (int i = 0; i < f->nevents; i++) {
		int g = best_group(counts, cov, n, ngroups, f->events[i]);
		bool seen = false;
		double least = NAN;
		if (g < 0)
			continue;
		for (int k = 0; k < i && !seen; k++)
			seen = best_group(counts, cov, n, ngroups, f->events[k]) == g;
		if (seen)
			continue;
		for (int k = i; k < f->nevents; k++) {
			double v = cov[g * n + f->events[k]];
			if (best_group(counts, cov, n, ngroups, f->events[k]) == g && !isnan(v) &&
			    (isnan(least) || v < least))
				least = v;
		}
		if (!isnan(least)) {
			c *= least;
			any = true;
		}
	}
	return !any ? NAN : c < 0 ? 0 : c > 1 ? 1 : c;
}

/* Does group g hold every event of f that any group counted? Then f's
 * value belongs to g's window, even when it is not available there. */
static bool holds_counted_events(const struct td_formula *f, const double *counts, int n, int ngroups, int g)
{
	for (int i = 0; i < f->nevents; i++) {
		int e = f->events[i];
		if (!isnan(counts[g * n + e]))
			continue;
		for (int k = 0; k < ngroups; k++)
			if (!isnan(counts[k * n + e]))
				return false;
	}
	return true;
}

/* Events of formula f counted in more than one group between them. */
static bool reads_several_groups(const struct td_formula *f, const double *counts, int n, int ngroups)
{
	int first = -1;

	for (int i = 0; i < f->nevents; i++)
		for (int g = 0; g < ngroups; g++) {
			if (isnan(counts[g * n + f->events[i]]))
				continue;
			if (first < 0)
				first = g;
			else if (g != first)
				return true;
		}
	return false;
}

int td_metrics_eval_groups(struct td_metrics *mx, const double *counts, const double *coverage, int ngroups)
{
	const struct td_model *m = mx->model;
	const int n = m->cat->nevents, ns = m->nslots;
	double *slots = mx->slots;

	assert(ngroups >= 1 && counts);
	if (ngroups <= 1) { /* one window: evaluate in place, confidence from its coverage */
		memcpy(slots, counts, (size_t)n * sizeof(double));
		run_formulas(m, slots);
		for (int i = 0; i < m->norder; i++) {
			const struct td_formula *f = m->order[i];
			mx->spans[f->slot] = false;
			mx->conf[f->slot] =
				coverage && !td_is_na(slots[f->slot]) ? least_coverage(f, counts, coverage) : NAN;
		}
		derive(mx);
		return 0;
	}
	if (ngroups > mx->gcap) {
		double *g = realloc(mx->gslots, (size_t)ngroups * (size_t)ns * sizeof(double));
		if (!g)
			return -1;
		mx->gslots = g;
		mx->gcap = ngroups;
	}
	/* each group alone, params and built-ins as set */
	for (int g = 0; g < ngroups; g++) {
		double *gs = mx->gslots + (size_t)g * (size_t)ns;
		memcpy(gs, slots, (size_t)ns * sizeof(double));
		memcpy(gs, counts + (size_t)g * (size_t)n, (size_t)n * sizeof(double));
		run_formulas(m, gs);
	}
	/* the events themselves: their mean over the groups that counted them */
	for (int e = 0; e < n; e++) {
		double sum = 0;
		int k = 0;
		for (int g = 0; g < ngroups; g++)
			if (!isnan(counts[g * n + e])) {
				sum += counts[g * n + e];
				k++;
			}
		slots[e] = k ? sum / k : NAN;
	}
	for (int i = 0; i < m->norder; i++) {
		const struct td_formula *f = m->order[i];
		int best = -1;
		double best_cov = NAN;
		for (int g = 0; g < ngroups; g++) {
			double c;
			if (isnan(mx->gslots[(size_t)g * (size_t)ns + (size_t)f->slot]))
				continue;
			c = coverage ? least_coverage(f, counts + g * n, coverage + g * n) : NAN;
			if (best < 0 || (!isnan(c) && (isnan(best_cov) || c > best_cov))) {
				best = g;
				best_cov = c;
			}
		}
		mx->spans[f->slot] = false;
		if (best >= 0) {
			slots[f->slot] = mx->gslots[(size_t)best * (size_t)ns + (size_t)f->slot];
			mx->conf[f->slot] = best_cov;
			continue;
		}
		bool held = false;
		for (int g = 0; g < ngroups && !held; g++)
			held = holds_counted_events(f, counts, n, ngroups, g);
		if (held) { /* not available in its own window (a zero denominator): not made up from others */
			slots[f->slot] = TD_NA;
			mx->conf[f->slot] = NAN;
			continue;
		}
		slots[f->slot] = td_expr_eval(f->expr, slots);
		mx->conf[f->slot] = NAN;
		if (td_is_na(slots[f->slot]))
			continue;
		mx->spans[f->slot] = reads_several_groups(f, counts, n, ngroups);
		if (coverage)
			mx->conf[f->slot] = spanning_confidence(f, counts, coverage, n, ngroups);
	}
	derive(mx);
	return 0;
}

void td_counts_zero(double *sum, int n)
{
	for (int i = 0; i < n; i++)
		sum[i] = 0;
}

void td_counts_add(double *sum, const double *counts, int n)
{
	for (int i = 0; i < n; i++)
		sum[i] += counts[i]; /* NaN + x is NaN: an NA addend makes the total NA */
}
