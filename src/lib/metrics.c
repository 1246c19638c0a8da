/* metrics: runs a model's formulas in dependency order over one slot
 * array, then derives thresholds, the bottleneck path and the CPI stack. */
#include "metrics.h"

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
	mx->node = calloc(nn, sizeof(double));
	mx->flagged = calloc(nn, sizeof(bool));
	mx->info = calloc((size_t)(m->ninfos ? m->ninfos : 1), sizeof(double));
	mx->cpi.comp = calloc((size_t)(m->ncpis ? m->ncpis : 1), sizeof(double));
	if (!mx->slots || !mx->node || !mx->flagged || !mx->info || !mx->cpi.comp) {
		td_metrics_free(mx);
		return NULL;
	}
	memcpy(mx->slots, m->defaults, (size_t)m->nslots * sizeof(double));
	mx->bottleneck = -1;
	return mx;
}

void td_metrics_free(struct td_metrics *mx)
{
	if (!mx)
		return;
	free(mx->slots);
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
		bool is_const = slot >= mx->model->first_const && slot < mx->model->first_const + mx->model->cat->nconsts;
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

/* The flagged child of parent (-1: a level-1 node) with the largest value. */
static int heaviest_flagged_child(const struct td_metrics *mx, int parent)
{
	const struct td_model *m = mx->model;
	int best = -1;

	for (int i = 0; i < m->nnodes; i++)
		if (m->nodes[i].parent == parent && mx->flagged[i] && (best < 0 || mx->node[i] > mx->node[best]))
			best = i;
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

void td_metrics_eval(struct td_metrics *mx, const double *counts)
{
	const struct td_model *m = mx->model;
	double *slots = mx->slots;

	memcpy(slots, counts, (size_t)m->cat->nevents * sizeof(double));
	for (int i = 0; i < m->norder; i++)
		slots[m->order[i]->slot] = td_expr_eval(m->order[i]->expr, slots);
	eval_flags(mx);
	for (int i = 0; i < m->ninfos; i++)
		mx->info[i] = slots[m->infos[i].f.slot];
	mx->bottleneck = find_bottleneck(mx);
	eval_cpi(mx);
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
