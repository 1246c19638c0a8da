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

int td_metric_writer_write(struct td_metric_writer *w, int64_t interval, int64_t target, const struct td_metrics *mx,
			   int *spans)
{
	const struct td_model *m = w->m;
	int rc = 0, nspan = 0;

	for (int i = 0; i < m->nnodes && !rc; i++) {
		int slot = m->nodes[i].f.slot;
		nspan += mx->spans[slot];
		rc = td_store_metric_add(w->s, interval, target, w->node_ids[i], mx->node[i], mx->conf[slot],
					 mx->flagged[i], mx->bottleneck == i, mx->spans[slot]);
	}
	for (int i = 0; i < m->ninfos && !rc; i++) {
		int slot = m->infos[i].f.slot;
		nspan += mx->spans[slot];
		rc = td_store_metric_add(w->s, interval, target, w->info_ids[i], mx->info[i], mx->conf[slot], false,
					 false, mx->spans[slot]);
	}
	for (int i = 0; m->has_cpi && i < m->ncpis && !rc; i++) {
		int slot = m->cpis[i].f.slot;
		double v = mx->cpi.valid ? mx->cpi.comp[i] : NAN;
		nspan += mx->spans[slot];
		rc = td_store_metric_add(w->s, interval, target, w->cpi_ids[i], v, isnan(v) ? NAN : mx->conf[slot], false,
					 false, mx->spans[slot]);
	}
	if (m->has_cpi && !rc)
		rc = td_store_metric_add(w->s, interval, target, w->cpi_ids[m->ncpis], mx->cpi.valid ? mx->cpi.other : NAN,
					 NAN, false, false, false);
	if (m->has_cpi && !rc)
		rc = td_store_metric_add(w->s, interval, target, w->cpi_ids[m->ncpis + 1], mx->cpi.valid ? mx->cpi.cpi : NAN,
					 NAN, false, false, false);
	if (spans)
		*spans = nspan;
	return rc;
}
