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

static void json_num_or_null(FILE *out, double v, const char *fmt)
{
	if (isnan(v) || isinf(v))
		fputs("null", out);
	else
		fprintf(out, fmt, v);
}

static void json_row(FILE *out, const struct td_report_data *d, const struct td_report_eval *e, int i, bool *first)
{
	const struct td_node *n = &d->model->nodes[i];
	const char *thr = threshold_word(e, i);
	char unit[24];

	td_report_unit(n, unit, sizeof(unit));
	fputs(*first ? "\n    {\"scope\":" : ",\n    {\"scope\":", out);
	*first = false;
	td_json_str(out, e->label);
	fputs(",\"node\":", out);
	td_json_str(out, n->path);
	fprintf(out, ",\"level\":%d,\"value\":", n->level);
	json_num_or_null(out, 100 * e->v.node[i], "%.4f");
	fputs(",\"unit\":", out);
	td_json_str(out, unit);
	fputs(",\"threshold\":", out);
	if (thr)
		td_json_str(out, thr);
	else
		fputs("null", out);
	fprintf(out, ",\"bottleneck\":%s,\"confidence\":", i == e->v.bottleneck ? "true" : "false");
	json_num_or_null(out, 100 * e->v.conf[i], "%.1f");
	fprintf(out, ",\"spans\":%s}", spans(e, i) ? "true" : "false");
}

static void rows(FILE *out, const struct td_report_data *d, const struct td_report_eval *e,
		 const struct td_report_opts *o, const int *order, bool *first)
{
	for (int k = 0; k < d->model->nnodes; k++) {
		int i = order[k];
		if (!td_report_node_shown(d->model, i, o))
			continue;
		if (o->format == TD_REPORT_CSV)
			csv_row(out, d, e, i);
		else
			json_row(out, d, e, i, first);
	}
}

void td_report_table(FILE *out, const struct td_report_data *d, const struct td_report_opts *o)
{
	bool tree = td_report_has_tree(d), first = true;
	char why[600];

	if (o->format == TD_REPORT_CSV)
		fputs("scope,node,level,value,unit,threshold,bottleneck,confidence,spans\n", out);
	else
		fprintf(out, "{\"session\":%lld,\"nodes\":[", (long long)d->h.id);
	int *order = tree ? calloc((size_t)d->model->nnodes + 1, sizeof(int)) : NULL;
	if (order) {
		td_report_tree_order(d->model, order);
		rows(out, d, &d->whole, o, order, &first);
		for (int k = 0; o->intervals && k < d->nivs; k++)
			rows(out, d, &d->ivs[k], o, order, &first);
		free(order);
	}
	if (o->format == TD_REPORT_JSON) {
		fputs(first ? "]" : "\n  ]", out);
		if (!tree) {
			td_report_why_no_tree(d, why, sizeof(why));
			fputs(",\"unavailable\":", out);
			td_json_str(out, why);
		}
		fputs("}\n", out);
	}
}
