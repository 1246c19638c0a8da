/* report_table: CSV and JSON, one row per shown node and scope (the session
 * aggregate, then each interval with --intervals); CSV also a row per info
 * metric and CPI component of each scope. Columns: report.h. A hybrid CPU's
 * session: every core PMU's tree (the E-core tree's names prefixed, as
 * recompute stores them), then level 1 over all core types. */
#include "report.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "eval/combine.h"

static const char *threshold_word(const struct td_report_eval *e, int i)
{
	return isnan(e->v.node[i]) ? NULL : e->v.flagged[i] ? "above" : "below";
}

static int spans(const struct td_report_eval *e, int i)
{
	return !isnan(e->v.node[i]) && e->v.spans && e->v.spans[i];
}

/* What the values cover: the filter's target ("all", "thread 4001", ...). */
static void target_label(const struct td_report_opts *o, char *buf, size_t len)
{
	static const char *const kinds[] = {
		[TD_RF_THREAD] = "thread", [TD_RF_PROCESS] = "process", [TD_RF_CPU] = "cpu"
	};

	if (o->filter.kind == TD_RF_ALL)
		snprintf(buf, len, "all");
	else
		snprintf(buf, len, "%s %ld", kinds[o->filter.kind], o->filter.id);
}

/* A name as this tree's rows give it: its prefix (a hybrid session's E-core tree), then the name.
 * malloc'd; NULL when out of memory. */
static char *row_name(const struct td_report_data *d, const char *name)
{
	const char *prefix = d->name_prefix ? d->name_prefix : "";
	size_t len = strlen(prefix) + strlen(name) + 1;
	char *s = malloc(len);

	if (s)
		snprintf(s, len, "%s%s", prefix, name);
	return s;
}

/* A CSV field or JSON member holding row_name(d, name); "" when out of memory. */
static void csv_name(FILE *out, const struct td_report_data *d, const char *name)
{
	char *s = row_name(d, name);

	td_csv_field(out, s ? s : "");
	free(s);
}

static void json_kname(struct td_json *j, const char *key, const struct td_report_data *d, const char *name)
{
	char *s = row_name(d, name);

	td_json_kstring(j, key, s ? s : "");
	free(s);
}

/* The columns appended after spans: kind,start_ns,end_ns,seconds,target
 * (times empty when not recorded). */
static void csv_tail(FILE *out, const char *kind, const struct td_report_eval *e, const char *target)
{
	/* a span that was not recorded (an import without times) is empty, not 0 */
	if (e->end_ns > e->start_ns)
		fprintf(out, ",%s,%" PRIu64 ",%" PRIu64 ",", kind, e->start_ns, e->end_ns);
	else
		fprintf(out, ",%s,,,", kind);
	if (e->v.seconds > 0)
		fprintf(out, "%.6f", e->v.seconds);
	fputc(',', out);
	td_csv_field(out, target);
	fputc('\n', out);
}

/* A value row that is not a node: an info metric or a CPI component. */
static void csv_value_row(FILE *out, const struct td_report_data *d, const struct td_report_eval *e, const char *kind,
			  const char *name, const char *unit, double v, double conf, const char *target)
{
	td_csv_field(out, e->label);
	fputc(',', out);
	csv_name(out, d, name);
	fputs(",,", out);
	if (!isnan(v) && !isinf(v))
		fprintf(out, "%.6g", v);
	fputc(',', out);
	td_csv_field(out, unit);
	fputs(",,0,", out);
	if (!isnan(conf))
		fprintf(out, "%.1f", 100 * conf);
	fputs(",0", out);
	csv_tail(out, kind, e, target);
}

static void csv_values(FILE *out, const struct td_report_data *d, const struct td_report_eval *e, const char *target)
{
	const struct td_model *m = d->model;

	for (int i = 0; i < m->ninfos; i++)
		csv_value_row(out, d, e, "info", m->infos[i].name, m->infos[i].unit, e->v.info[i],
			      e->v.info_conf ? e->v.info_conf[i] : NAN, target);
	for (int i = 0; m->has_cpi && i < m->ncpis; i++)
		csv_value_row(out, d, e, "cpi", m->cpis[i].name, "CPI", e->v.cpi_valid ? e->v.cpi_comp[i] : NAN, NAN,
			      target);
	if (m->has_cpi) {
		csv_value_row(out, d, e, "cpi", "Other", "CPI", e->v.cpi_valid ? e->v.other : NAN, NAN, target);
		csv_value_row(out, d, e, "cpi", "CPI", "CPI", e->v.cpi_valid ? e->v.cpi : NAN, NAN, target);
	}
}

static void csv_row(FILE *out, const struct td_report_data *d, const struct td_report_eval *e, int i,
		    const char *target)
{
	const struct td_node *n = &d->model->nodes[i];
	const char *thr = threshold_word(e, i);
	char unit[24];

	td_report_unit(n, unit, sizeof(unit));
	td_csv_field(out, e->label);
	fputc(',', out);
	csv_name(out, d, n->path);
	fprintf(out, ",%d,", n->level);
	if (!isnan(e->v.node[i]))
		fprintf(out, "%.4f", 100 * e->v.node[i]);
	fprintf(out, ",%s,%s,%d,", unit, thr ? thr : "", i == e->v.bottleneck);
	if (!isnan(e->v.conf[i]))
		fprintf(out, "%.1f", 100 * e->v.conf[i]);
	fprintf(out, ",%d", spans(e, i));
	csv_tail(out, "node", e, target);
}

static void json_row(struct td_json *j, const struct td_report_data *d, const struct td_report_eval *e, int i)
{
	const struct td_node *n = &d->model->nodes[i];
	char unit[24];

	td_report_unit(n, unit, sizeof(unit));
	td_json_object(j);
	td_json_kstring(j, "scope", e->label);
	json_kname(j, "node", d, n->path);
	td_json_kint(j, "level", n->level);
	td_json_key(j, "value");
	td_json_double(j, 100 * e->v.node[i]);
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
	char target[64];

	target_label(o, target, sizeof(target));
	for (int k = 0; k < d->model->nnodes; k++) {
		int i = order[k];
		if (!td_report_node_shown(d->model, i, o))
			continue;
		if (o->format == TD_REPORT_CSV)
			csv_row(out, d, e, i, target);
		else
			json_row(j, d, e, i);
	}
	if (o->format == TD_REPORT_CSV && !o->node)
		csv_values(out, d, e, target);
}

/* One scope's whole evaluation beside its node rows: when it covers, its
 * bottleneck, every info metric and the CPI stack (null where not available). */
static void json_scope(struct td_json *j, const struct td_report_data *d, const struct td_report_eval *e,
		       const char *target)
{
	const struct td_model *m = d->model;

	td_json_object(j);
	td_json_kstring(j, "scope", e->label);
	td_json_kuint(j, "start_ns", e->start_ns);
	td_json_kuint(j, "end_ns", e->end_ns);
	td_json_kdouble(j, "seconds", e->v.seconds);
	td_json_kstring(j, "target", target);
	if (d->name_prefix) { /* a hybrid session: whose tree this scope is, the prefix without its ':' */
		char *tree = strdup(d->name_prefix);
		if (tree)
			tree[strcspn(tree, ":")] = '\0';
		td_json_kstring(j, "tree", tree ? tree : "");
		free(tree);
	}
	if (e->v.bottleneck >= 0)
		json_kname(j, "bottleneck", d, m->nodes[e->v.bottleneck].path);
	else
		td_json_kstring(j, "bottleneck", NULL);
	td_json_key(j, "info");
	td_json_object(j);
	for (int i = 0; i < m->ninfos; i++) {
		char *name = row_name(d, m->infos[i].name);
		td_json_kdouble(j, name ? name : "", e->v.info[i]);
		free(name);
	}
	td_json_close(j);
	td_json_key(j, "cpi");
	td_json_object(j);
	for (int i = 0; m->has_cpi && i < m->ncpis; i++) {
		char *name = row_name(d, m->cpis[i].name);
		td_json_kdouble(j, name ? name : "", e->v.cpi_valid ? e->v.cpi_comp[i] : NAN);
		free(name);
	}
	if (m->has_cpi) {
		char *other = row_name(d, "Other"), *cpi = row_name(d, "CPI");
		td_json_kdouble(j, other ? other : "", e->v.cpi_valid ? e->v.other : NAN);
		td_json_kdouble(j, cpi ? cpi : "", e->v.cpi_valid ? e->v.cpi : NAN);
		free(other);
		free(cpi);
	}
	td_json_close(j);
	td_json_close(j);
}

static void table_begin(FILE *out, struct td_json *j, const struct td_report_opts *o, const struct td_report_data *d)
{
	td_json_init(j, out, 2);
	if (o->format == TD_REPORT_CSV) {
		fputs("scope,node,level,value,unit,threshold,bottleneck,confidence,spans,kind,start_ns,end_ns,seconds,"
		      "target\n",
		      out);
	} else {
		td_json_object(j);
		td_json_kint(j, "session", d->h.id);
		td_json_key(j, "notes"); /* how the counts were taken where it differs from the plan (a group split) */
		td_json_array(j);
		for (int i = 0; i < d->nnotes; i++)
			td_json_string(j, d->notes[i]);
		td_json_close(j);
		td_json_key(j, "nodes");
		td_json_array(j);
	}
}

/* d's node rows (CSV: and its info and CPI rows) of the aggregate and, with --intervals, each interval. */
static void table_nodes(FILE *out, struct td_json *j, const struct td_report_data *d, const struct td_report_opts *o)
{
	int *order = td_report_has_tree(d) ? calloc((size_t)d->model->nnodes + 1, sizeof(int)) : NULL;

	if (!order)
		return;
	td_report_tree_order(d->model, order);
	rows(out, j, d, &d->whole, o, order);
	for (int k = 0; o->intervals && k < d->nivs; k++)
		rows(out, j, d, &d->ivs[k], o, order);
	free(order);
}

static void table_scopes(struct td_json *j, const struct td_report_data *d, const struct td_report_opts *o)
{
	char target[64];

	target_label(o, target, sizeof(target));
	json_scope(j, d, &d->whole, target);
	for (int k = 0; o->intervals && k < d->nivs; k++)
		json_scope(j, d, &d->ivs[k], target);
}

void td_report_table(FILE *out, const struct td_report_data *d, const struct td_report_opts *o)
{
	bool tree = td_report_has_tree(d);
	struct td_json j;
	char why[600];

	table_begin(out, &j, o, d);
	table_nodes(out, &j, d, o);
	if (o->format == TD_REPORT_JSON) {
		td_json_close(&j);
		if (tree) {
			td_json_key(&j, "scopes");
			td_json_array(&j);
			table_scopes(&j, d, o);
			td_json_close(&j);
		} else {
			td_report_why_no_tree(d, why, sizeof(why));
			td_json_kstring(&j, "unavailable", why);
		}
		td_json_finish(&j);
	}
}

/* One combined level-1 row: scope session, node "combined:PATH", level 1, % Slots; no threshold,
 * bottleneck, confidence or spans (a weighted mean of two trees has none of its own). */
static void combined_row(FILE *out, struct td_json *j, const struct td_report_opts *o, const struct td_combined_node *c,
			 const struct td_report_eval *whole)
{
	char target[64];

	if (o->format == TD_REPORT_CSV) {
		target_label(o, target, sizeof(target));
		fputs("session,combined:", out);
		td_csv_field(out, c->path);
		fputs(",1,", out);
		if (!isnan(c->value))
			fprintf(out, "%.4f", 100 * c->value);
		fputs(",% Slots,,0,,0", out);
		csv_tail(out, "node", whole, target); /* the session's span, as its other rows */
		return;
	}
	size_t len = strlen("combined:") + strlen(c->path) + 1;
	char *name = malloc(len);
	td_json_object(j);
	td_json_kstring(j, "scope", "session");
	if (name)
		snprintf(name, len, "combined:%s", c->path);
	td_json_kstring(j, "node", name ? name : "");
	free(name);
	td_json_kint(j, "level", 1);
	td_json_key(j, "value");
	td_json_double(j, 100 * c->value);
	td_json_kstring(j, "unit", "% Slots");
	td_json_kstring(j, "threshold", NULL);
	td_json_kbool(j, "bottleneck", false);
	td_json_key(j, "confidence");
	td_json_null(j);
	td_json_kbool(j, "spans", false);
	td_json_close(j);
}

void td_report_table_hybrid(FILE *out, const struct td_report_data *d, int n, const struct td_combined_node *c, int nc,
			    const struct td_report_opts *o)
{
	struct td_json j;

	table_begin(out, &j, o, &d[0]);
	for (int k = 0; k < n; k++)
		table_nodes(out, &j, &d[k], o);
	for (int i = 0; !o->node && i < nc; i++)
		combined_row(out, &j, o, &c[i], &d[0].whole);
	if (o->format == TD_REPORT_JSON) {
		td_json_close(&j);
		td_json_key(&j, "scopes");
		td_json_array(&j);
		for (int k = 0; k < n; k++)
			if (td_report_has_tree(&d[k]))
				table_scopes(&j, &d[k], o);
		td_json_close(&j);
		td_json_finish(&j);
	}
}
