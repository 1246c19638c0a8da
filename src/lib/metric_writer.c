/* metric_writer: one model evaluation -> metric rows of the store. */
#include "metric_writer.h"

#include <math.h>
#include <stdlib.h>

struct td_metric_writer {
	struct td_store *s;
	const struct td_model *m;
	int64_t *node_ids, *info_ids, *cpi_ids; /* cpi: ncpis components, then Other, then CPI */
};

static int resolve(struct td_store *s, int64_t *ids, int n, const char *(*name)(const struct td_model *, int),
		   const struct td_model *m, const char *kind)
{
	for (int i = 0; i < n; i++)
		if ((ids[i] = td_store_metric_id(s, name(m, i), kind)) < 0)
			return -1;
	return 0;
}

static const char *node_name(const struct td_model *m, int i) { return m->nodes[i].path; }
static const char *info_name(const struct td_model *m, int i) { return m->infos[i].name; }
static const char *cpi_name(const struct td_model *m, int i)
{
	return i < m->ncpis ? m->cpis[i].name : i == m->ncpis ? "Other" : "CPI";
}

int td_metric_writer_new(struct td_store *s, const struct td_model *m, struct td_metric_writer **out, td_err *err)
{
	struct td_metric_writer *w = calloc(1, sizeof(*w));
	int ncpi = m->has_cpi ? m->ncpis + 2 : 0;

	if (!w || !(w->node_ids = calloc((size_t)m->nnodes + 1, sizeof(int64_t))) ||
	    !(w->info_ids = calloc((size_t)m->ninfos + 1, sizeof(int64_t))) ||
	    !(w->cpi_ids = calloc((size_t)ncpi + 1, sizeof(int64_t)))) {
		td_metric_writer_free(w);
		td_err_set(err, "out of memory");
		return -1;
	}
	w->s = s;
	w->m = m;
	if (resolve(s, w->node_ids, m->nnodes, node_name, m, "node") ||
	    resolve(s, w->info_ids, m->ninfos, info_name, m, "info") || resolve(s, w->cpi_ids, ncpi, cpi_name, m, "cpi")) {
		td_err_set(err, "cannot write metric names: %s", td_store_errmsg(s));
		td_metric_writer_free(w);
		return -1;
	}
	*out = w;
	return 0;
}

void td_metric_writer_free(struct td_metric_writer *w)
{
	if (!w)
		return;
	free(w->node_ids);
	free(w->info_ids);
	free(w->cpi_ids);
	free(w);
}

/* Least coverage of the formula's counted events (events not counted did
 * not contribute when the value is available); NaN if none is known. */
static double confidence(const struct td_formula *f, const double *coverage, double value)
{
	double c = NAN;

	if (!coverage || isnan(value))
		return NAN;
	for (int i = 0; i < f->nevents; i++) {
		double v = coverage[f->events[i]];
		if (!isnan(v) && (isnan(c) || v < c))
			c = v;
	}
	return c < 0 ? 0 : c > 1 ? 1 : c;
}

/* The group rule (see the header): product over the formula's groups of the
 * least coverage of its counted events in that group. */
static double group_confidence(const struct td_formula *f, const double *coverage, const int *group, double value)
{
	double c = 1.0;
	bool any = false;

	if (!group)
		return confidence(f, coverage, value);
	if (!coverage || isnan(value))
		return NAN;
	for (int i = 0; i < f->nevents; i++) {
		int g = group[f->events[i]];
		double least = NAN;
		bool first = true;
		for (int k = 0; k < i; k++)
			if (group[f->events[k]] == g)
				first = false;
		if (!first)
			continue;
		for (int k = i; k < f->nevents; k++) {
			double v = coverage[f->events[k]];
			if (group[f->events[k]] == g && !isnan(v) && (isnan(least) || v < least))
				least = v;
		}
		if (!isnan(least)) {
			c *= least;
			any = true;
		}
	}
	if (!any)
		return NAN;
	return c < 0 ? 0 : c > 1 ? 1 : c;
}

bool td_formula_spans(const struct td_formula *f, const int *group)
{
	int first = -1;

	if (!group)
		return false;
	for (int i = 0; i < f->nevents; i++) {
		int g = group[f->events[i]];
		if (g < 0)
			continue; /* not opened: the value is NA, not mixed */
		if (first < 0)
			first = g;
		else if (g != first)
			return true;
	}
	return false;
}

int td_metric_writer_write_grouped(struct td_metric_writer *w, int64_t interval, int64_t target,
				   const struct td_metrics *mx, const double *coverage, const int *group, int *spans)
{
	const struct td_model *m = w->m;
	int rc = 0, nspan = 0;

	for (int i = 0; i < m->nnodes && !rc; i++) {
		nspan += td_formula_spans(&m->nodes[i].f, group);
		rc = td_store_metric_add(w->s, interval, target, w->node_ids[i], mx->node[i],
					 group_confidence(&m->nodes[i].f, coverage, group, mx->node[i]), mx->flagged[i],
					 mx->bottleneck == i);
	}
	for (int i = 0; i < m->ninfos && !rc; i++) {
		nspan += td_formula_spans(&m->infos[i].f, group);
		rc = td_store_metric_add(w->s, interval, target, w->info_ids[i], mx->info[i],
					 group_confidence(&m->infos[i].f, coverage, group, mx->info[i]), false, false);
	}
	if (spans)
		*spans = nspan;
	if (!m->has_cpi)
		return rc;
	for (int i = 0; i < m->ncpis && !rc; i++) {
		double v = mx->cpi.valid ? mx->cpi.comp[i] : NAN;
		nspan += td_formula_spans(&m->cpis[i].f, group);
		rc = td_store_metric_add(w->s, interval, target, w->cpi_ids[i], v,
					 group_confidence(&m->cpis[i].f, coverage, group, v), false, false);
	}
	if (spans)
		*spans = nspan;
	if (!rc)
		rc = td_store_metric_add(w->s, interval, target, w->cpi_ids[m->ncpis], mx->cpi.valid ? mx->cpi.other : NAN,
					 NAN, false, false);
	if (!rc)
		rc = td_store_metric_add(w->s, interval, target, w->cpi_ids[m->ncpis + 1], mx->cpi.valid ? mx->cpi.cpi : NAN,
					 NAN, false, false);
	return rc;
}

int td_metric_writer_write(struct td_metric_writer *w, int64_t interval, int64_t target, const struct td_metrics *mx,
			   const double *coverage)
{
	return td_metric_writer_write_grouped(w, interval, target, mx, coverage, NULL, NULL);
}
