/* evaluator: counts -> one evaluation's values (see evaluator.h). */
#include "evaluator.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct td_evaluator {
	const struct td_model *m;
	struct td_metrics *mx;
};

int td_evaluation_init(struct td_evaluation *e, const struct td_model *m)
{
	size_t nn = (size_t)m->nnodes + 1, ni = (size_t)m->ninfos + 1, nc = (size_t)m->ncpis + 1;

	memset(e, 0, sizeof(*e));
	e->bottleneck = -1;
	e->node = malloc(nn * sizeof(double));
	e->conf = malloc(nn * sizeof(double));
	e->spans = calloc(nn, sizeof(bool));
	e->flagged = calloc(nn, sizeof(bool));
	e->info = malloc(ni * sizeof(double));
	e->info_conf = malloc(ni * sizeof(double));
	e->info_spans = calloc(ni, sizeof(bool));
	e->cpi_comp = malloc(nc * sizeof(double));
	e->cpi_conf = malloc(nc * sizeof(double));
	e->cpi_spans = calloc(nc, sizeof(bool));
	if (!e->node || !e->conf || !e->spans || !e->flagged || !e->info || !e->info_conf || !e->info_spans ||
	    !e->cpi_comp || !e->cpi_conf || !e->cpi_spans)
		return -1;
	for (size_t i = 0; i < nn; i++)
		e->node[i] = e->conf[i] = NAN;
	for (size_t i = 0; i < ni; i++)
		e->info[i] = e->info_conf[i] = NAN;
	for (size_t i = 0; i < nc; i++)
		e->cpi_comp[i] = e->cpi_conf[i] = NAN;
	e->seconds = e->cpi = e->other = NAN;
	return 0;
}

void td_evaluation_free(struct td_evaluation *e)
{
	free(e->node);
	free(e->conf);
	free(e->spans);
	free(e->flagged);
	free(e->info);
	free(e->info_conf);
	free(e->info_spans);
	free(e->cpi_comp);
	free(e->cpi_conf);
	free(e->cpi_spans);
	memset(e, 0, sizeof(*e));
	e->bottleneck = -1;
}

struct td_evaluator *td_evaluator_new(const struct td_model *m, int smt, int num_cpus)
{
	struct td_evaluator *ev = calloc(1, sizeof(*ev));
	td_err ignored;

	if (!ev || !(ev->mx = td_metrics_new(m))) {
		free(ev);
		return NULL;
	}
	ev->m = m;
	if (smt >= 0)
		td_metrics_set(ev->mx, "SMT_on", smt, &ignored); /* files without SMT_on have nothing to set */
	td_metrics_set(ev->mx, "NUM_CPUS", num_cpus > 0 ? num_cpus : NAN, &ignored);
	return ev;
}

void td_evaluator_free(struct td_evaluator *ev)
{
	if (!ev)
		return;
	td_metrics_free(ev->mx);
	free(ev);
}

const struct td_model *td_evaluator_model(const struct td_evaluator *ev)
{
	return ev->m;
}

int td_evaluate(struct td_evaluator *ev, const struct td_group_counts *c, double seconds, struct td_evaluation *out)
{
	const struct td_model *m = ev->m;
	const struct td_metrics *mx = ev->mx;
	td_err ignored;

	assert(c->n == m->cat->nevents);
	td_metrics_set(ev->mx, "DURATION", seconds > 0 ? seconds : NAN, &ignored);
	if (td_metrics_eval_groups(ev->mx, c->val, c->cov, c->ngroups))
		return -1;
	out->seconds = seconds;
	out->nvalid = 0;
	for (int i = 0; i < m->nnodes; i++) {
		int slot = m->nodes[i].f.slot;
		out->node[i] = mx->node[i];
		out->flagged[i] = mx->flagged[i];
		out->conf[i] = mx->conf[slot];
		out->spans[i] = mx->spans[slot];
		out->nvalid += !isnan(out->node[i]);
	}
	out->bottleneck = mx->bottleneck;
	for (int i = 0; i < m->ninfos; i++) {
		int slot = m->infos[i].f.slot;
		out->info[i] = mx->info[i];
		out->info_conf[i] = mx->conf[slot];
		out->info_spans[i] = mx->spans[slot];
	}
	out->cpi_valid = mx->cpi.valid;
	out->cpi = mx->cpi.valid ? mx->cpi.cpi : NAN;
	out->other = mx->cpi.valid ? mx->cpi.other : NAN;
	for (int i = 0; i < m->ncpis; i++) {
		int slot = m->cpis[i].f.slot;
		out->cpi_comp[i] = mx->cpi.valid ? mx->cpi.comp[i] : NAN;
		out->cpi_conf[i] = isnan(out->cpi_comp[i]) ? NAN : mx->conf[slot];
		out->cpi_spans[i] = mx->spans[slot];
	}
	return 0;
}
