/* report_table: CSV and JSON, one row per shown node and scope (the session
 * aggregate, then each interval with --intervals). Columns: report.h. */
#include "report.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"

static const char *threshold_word(const struct td_report_eval *e, int i)
{
	return isnan(e->v.node[i]) ? NULL : e->v.flagged[i] ? "above" : "below";
}


static int spans(const struct td_report_eval *e, int i)
{
	return !isnan(e->v.node[i]) && e->v.spans && e->v.spans[i];
}

static void csv_row(FILE *out, const struct td_report_data *d, const struct td_report_eval *e, int i)
{
	const struct td_node *n = &d->model->nodes[i];
	const char *thr = threshold_word(e, i);
	char unit[24];

	td_report_unit(n, unit, sizeof(unit));
	td_csv_field(out, e->label);
	fputc(',', out);
	td_csv_field(out, n->path);
	fprintf(out, ",%d,", n->level);
	if (!isnan(e->v.node[i]))
		fprintf(out, "%.4f", 100 * e->v.node[i]);
	fprintf(out, ",%s,%s,%d,", unit, thr ? thr : "", i == e->v.bottleneck);
	if (!isnan(e->v.conf[i]))
		fprintf(out, "%.1f", 100 * e->v.conf[i]);
	fprintf(out, ",%d\n", spans(e, i));
}

static void json_row(struct td_json *j, const struct td_report_data *d, const struct td_report_eval *e, int i)
{
	const struct td_node *n = &d->model->nodes[i];
	char unit[24];

	td_report_unit(n, unit, sizeof(unit));
	td_json_object(j);
	td_json_kstring(j, "scope", e->label);
	td_json_kstring(j, "node", n->path);
	td_json_kint(j, "level", n->level);
	td_json_key(j, "value");
	td_json_double_fmt(j, "%.4f", 100 * e->v.node[i]);
	td_json_kstring(j, "unit", unit);
	td_json_kstring(j, "threshold", threshold_word(e, i));
	td_json_kbool(j, "bottleneck", i == e->v.bottleneck);
	td_json_key(j, "confidence");
	td_json_double_fmt(j, "%.1f", 100 * e->v.conf[i]);
	td_json_kbool(j, "spans", spans(e, i));
	td_json_close(j);
}

static void rows(FILE *out, struct td_json *j, const struct td_report_data *d, const struct td_report_eval *e,
		 const struct td_report_opts *o, const int *order)
{
	for (int k = 0; k < d->model->nnodes; k++) {
		int i = order[k];
		if (!td_report_node_shown(d->model, i, o))
			continue;
		if (o->format == TD_REPORT_CSV)
			csv_row(out, d, e, i);
		else
			json_row(j, d, e, i);
	}
}

/* One scope's whole evaluation beside its node rows: when it covers, its
 * bottleneck, every info metric and the CPI stack (null where not available). */
static void json_scope(struct td_json *j, const struct td_report_data *d, const struct td_report_eval *e)
{
	const struct td_model *m = d->model;

	td_json_object(j);
	td_json_kstring(j, "scope", e->label);
	td_json_kuint(j, "start_ns", e->start_ns);
	td_json_kuint(j, "end_ns", e->end_ns);
	td_json_kdouble(j, "seconds", e->v.seconds);
	td_json_kstring(j, "bottleneck", e->v.bottleneck >= 0 ? m->nodes[e->v.bottleneck].path : NULL);
	td_json_key(j, "info");
	td_json_object(j);
	for (int i = 0; i < m->ninfos; i++)
		td_json_kdouble(j, m->infos[i].name, e->v.info[i]);
	td_json_close(j);
	td_json_key(j, "cpi");
	td_json_object(j);
	for (int i = 0; m->has_cpi && i < m->ncpis; i++)
		td_json_kdouble(j, m->cpis[i].name, e->v.cpi_valid ? e->v.cpi_comp[i] : NAN);
	if (m->has_cpi) {
		td_json_kdouble(j, "Other", e->v.cpi_valid ? e->v.other : NAN);
		td_json_kdouble(j, "CPI", e->v.cpi_valid ? e->v.cpi : NAN);
	}
	td_json_close(j);
	td_json_close(j);
}

void td_report_table(FILE *out, const struct td_report_data *d, const struct td_report_opts *o)
{
	bool tree = td_report_has_tree(d);
	struct td_json j;
	char why[600];

	td_json_init(&j, out, 2);
	if (o->format == TD_REPORT_CSV) {
		fputs("scope,node,level,value,unit,threshold,bottleneck,confidence,spans\n", out);
	} else {
		td_json_object(&j);
		td_json_kint(&j, "session", d->h.id);
		td_json_key(&j, "nodes");
		td_json_array(&j);
	}
	int *order = tree ? calloc((size_t)d->model->nnodes + 1, sizeof(int)) : NULL;
	if (order) {
		td_report_tree_order(d->model, order);
		rows(out, &j, d, &d->whole, o, order);
		for (int k = 0; o->intervals && k < d->nivs; k++)
			rows(out, &j, d, &d->ivs[k], o, order);
		free(order);
	}
	if (o->format == TD_REPORT_JSON) {
		td_json_close(&j);
		if (tree) {
			td_json_key(&j, "scopes");
			td_json_array(&j);
			json_scope(&j, d, &d->whole);
			for (int k = 0; o->intervals && k < d->nivs; k++)
				json_scope(&j, d, &d->ivs[k]);
			td_json_close(&j);
		}
		if (!tree) {
			td_report_why_no_tree(d, why, sizeof(why));
			td_json_kstring(&j, "unavailable", why);
		}
		td_json_finish(&j);
	}
}
