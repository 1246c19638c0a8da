/* metric_writer: one model evaluation -> metric rows of the store. */
#include "metric_writer.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct td_metric_writer {
	struct td_store *s;
	const struct td_model *m;
	int64_t *node_ids, *info_ids, *cpi_ids; /* cpi: ncpis components, then Other, then CPI */
	struct td_store_metric *rows;		/* an evaluation's rows, written at once */
};

static int resolve(struct td_store *s, int64_t *ids, int n, const char *(*name)(const struct td_model *, int),
		   const struct td_model *m, const char *kind, const char *prefix)
{
	for (int i = 0; i < n; i++) {
		size_t len = strlen(prefix) + strlen(name(m, i)) + 1;
		char *full = malloc(len);
		if (!full)
			return -1;
		snprintf(full, len, "%s%s", prefix, name(m, i));
		ids[i] = td_store_metric_id(s, full, kind);
		free(full);
		if (ids[i] < 0)
			return -1;
	}
	return 0;
}

static const char *node_name(const struct td_model *m, int i)
{
	return m->nodes[i].path;
}
static const char *info_name(const struct td_model *m, int i)
{
	return m->infos[i].name;
}
static const char *cpi_name(const struct td_model *m, int i)
{
	return i < m->ncpis ? m->cpis[i].name : i == m->ncpis ? "Other" : "CPI";
}

int td_metric_writer_new(struct td_store *s, const struct td_model *m, struct td_metric_writer **out, td_err *err)
{
	return td_metric_writer_new_prefixed(s, m, "", out, err);
}

int td_metric_writer_new_prefixed(struct td_store *s, const struct td_model *m, const char *prefix,
				  struct td_metric_writer **out, td_err *err)
{
	struct td_metric_writer *w = calloc(1, sizeof(*w));
	int ncpi = m->has_cpi ? m->ncpis + 2 : 0;

	if (!w || !(w->node_ids = calloc((size_t)m->nnodes + 1, sizeof(int64_t))) ||
	    !(w->info_ids = calloc((size_t)m->ninfos + 1, sizeof(int64_t))) ||
	    !(w->cpi_ids = calloc((size_t)ncpi + 1, sizeof(int64_t))) ||
	    !(w->rows = calloc((size_t)(m->nnodes + m->ninfos + ncpi) + 1, sizeof(*w->rows)))) {
		td_metric_writer_free(w);
		td_err_set(err, "out of memory");
		return -1;
	}
	w->s = s;
	w->m = m;
	if (resolve(s, w->node_ids, m->nnodes, node_name, m, "node", prefix) ||
	    resolve(s, w->info_ids, m->ninfos, info_name, m, "info", prefix) ||
	    resolve(s, w->cpi_ids, ncpi, cpi_name, m, "cpi", prefix)) {
		td_store_describe_write_error(s, "write metric names to", err);
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
	free(w->rows);
	free(w);
}

int td_metric_writer_write(struct td_metric_writer *w, int64_t interval, int64_t target, const struct td_evaluation *e,
			   int *spans)
{
	const struct td_model *m = w->m;
	struct td_store_metric *r = w->rows;
	int n = 0, nspan = 0;

	for (int i = 0; i < m->nnodes; i++) {
		nspan += e->spans[i];
		r[n++] = (struct td_store_metric){ w->node_ids[i], e->node[i],	       e->conf[i],
						   e->flagged[i],  e->bottleneck == i, e->spans[i] };
	}
	for (int i = 0; i < m->ninfos; i++) {
		nspan += e->info_spans[i];
		r[n++] = (struct td_store_metric){ w->info_ids[i], e->info[i], e->info_conf[i],
						   false,	   false,      e->info_spans[i] };
	}
	for (int i = 0; m->has_cpi && i < m->ncpis; i++) {
		nspan += e->cpi_spans[i];
		r[n++] = (struct td_store_metric){ w->cpi_ids[i], e->cpi_comp[i], e->cpi_conf[i],
						   false,	  false,	  e->cpi_spans[i] };
	}
	if (m->has_cpi) {
		r[n++] = (struct td_store_metric){ w->cpi_ids[m->ncpis], e->other, NAN, false, false, false };
		r[n++] = (struct td_store_metric){ w->cpi_ids[m->ncpis + 1], e->cpi, NAN, false, false, false };
	}
	if (spans)
		*spans = nspan;
	return td_store_metrics_add(w->s, interval, target, r, n);
}
