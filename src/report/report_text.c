/* report_text: the terminal report — header, the top-down tree in toplev's
 * vocabulary (value, `% Slots`, `<` below threshold, `<==` on the
 * bottleneck, `[conf N%]` under 100 %, `[spans groups]` on a value that
 * read events of several perf groups), the CPI stack as a table summing to
 * CPI with Other, and the info metrics. Bars and colour only with o->color.
 * Anything not available prints `n/a`, never 0. */
#include "report.h"
#include "eval/what_if.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NAME_W 44
#define BAR_W 20
#define RED "\033[1;31m"
#define DIM "\033[2m"
#define OFF "\033[0m"

static bool on_path(const struct td_model *m, int bottleneck, int i)
{
	for (int n = bottleneck; n >= 0; n = m->nodes[n].parent)
		if (n == i)
			return true;
	return false;
}

static void bar(FILE *out, double v)
{
	int cells = isnan(v) ? 0 : (int)lround(fmax(0, fmin(1, v)) * BAR_W);

	fputs("  |", out);
	for (int i = 0; i < BAR_W; i++)
		fputc(i < cells ? '#' : ' ', out);
	fputc('|', out);
}

static void node_line(FILE *out, const struct td_report_data *d, const struct td_report_eval *e, int i,
		      const struct td_report_opts *o)
{
	const struct td_node *n = &d->model->nodes[i];
	char unit[24];
	double v = e->v.node[i];
	bool path = on_path(d->model, e->v.bottleneck, i);
	int indent = 2 * (n->level - 1);

	td_report_unit(n, unit, sizeof(unit));
	if (o->color)
		fputs(path ? RED : !e->v.flagged[i] ? DIM : "", out);
	fprintf(out, "  %*s%-*s", indent, "", NAME_W - indent, n->name);
	if (isnan(v))
		fprintf(out, " %7s %-12s  ", "n/a", unit);
	else
		fprintf(out, " %7.1f %-12s%s", 100 * v, unit, e->v.flagged[i] ? "  " : " <");
	if (o->color)
		bar(out, v);
	if (i == e->v.bottleneck)
		fputs(" <==", out);
	if (!isnan(v) && !isnan(e->v.conf[i]) && e->v.conf[i] < 0.995)
		fprintf(out, " [conf %.0f%%]", 100 * e->v.conf[i]);
	if (!isnan(v) && e->v.spans && e->v.spans[i])
		fputs(" [spans groups]", out);
	fputs(o->color ? OFF "\n" : "\n", out);
}

static void tree(FILE *out, const struct td_report_data *d, const struct td_report_eval *e,
		 const struct td_report_opts *o)
{
	int *order = calloc((size_t)d->model->nnodes + 1, sizeof(int));

	if (!order)
		return;
	td_report_tree_order(d->model, order);
	for (int k = 0; k < d->model->nnodes; k++)
		if (td_report_node_shown(d->model, order[k], o))
			node_line(out, d, e, order[k], o);
	free(order);
	if (e->v.bottleneck >= 0)
		fprintf(out, "  Bottleneck: %s <==\n", d->model->nodes[e->v.bottleneck].path);
	else
		fputs("  Bottleneck: none (no level-1 node passes its threshold)\n", out);
}

static void cpi_row(FILE *out, const char *name, const char *tag, double v, double cpi)
{
	if (isnan(v))
		fprintf(out, "  %-32s %-10s %9s %9s\n", name, tag, "n/a", "n/a");
	else
		fprintf(out, "  %-32s %-10s %9.3f %9.1f\n", name, tag, v, 100 * v / cpi);
}

static void cpi_stack(FILE *out, const struct td_model *m, const struct td_report_eval *e)
{
	if (!m->has_cpi)
		return;
	fputs("\nCPI stack (cycles per instruction; components + Other = CPI)\n", out);
	fprintf(out, "  %-32s %-10s %9s %9s\n", "Component", "Tag", "CPI", "% cycles");
	if (!e->v.cpi_valid) {
		fputs("  n/a: cycles or instructions were not counted\n", out);
		return;
	}
	for (int i = 0; i < m->ncpis; i++)
		cpi_row(out, m->cpis[i].name, td_cpi_tag_name(m->cpis[i].tag), e->v.cpi_comp[i], e->v.cpi);
	cpi_row(out, "Other", "derived", e->v.other, e->v.cpi);
	cpi_row(out, "CPI", "measured", e->v.cpi, e->v.cpi);
}

static void info_value(FILE *out, double v)
{
	if (isnan(v) || isinf(v))
		fprintf(out, " %14s", "n/a");
	else if (fabs(v) >= 1e5)
		fprintf(out, " %14.0f", v);
	else
		fprintf(out, " %14.3f", v);
}

static void infos(FILE *out, const struct td_model *m, const struct td_report_eval *e)
{
	if (m->ninfos == 0)
		return;
	fputs("\nInfo metrics\n", out);
	for (int i = 0; i < m->ninfos; i++) {
		fprintf(out, "  %-20s", m->infos[i].name);
		info_value(out, e->v.info[i]);
		fprintf(out, "  %-8s %s\n", m->infos[i].unit, m->infos[i].desc ? m->infos[i].desc : "");
	}
}

/* --intervals: the level-1 nodes and the bottleneck of every interval. */
static void interval_table(FILE *out, const struct td_report_data *d)
{
	const struct td_model *m = d->model;

	fputs("\nPer interval (level 1, % of domain)\n  seq", out);
	for (int i = 0; i < m->nnodes; i++)
		if (m->nodes[i].level == 1)
			fprintf(out, " %16.16s", m->nodes[i].name);
	fputs("  bottleneck\n", out);
	for (int k = 0; k < d->nivs; k++) {
		const struct td_report_eval *e = &d->ivs[k];
		fprintf(out, "  %3d", e->seq);
		for (int i = 0; i < m->nnodes; i++) {
			if (m->nodes[i].level != 1)
				continue;
			if (isnan(e->v.node[i]))
				fprintf(out, " %16s", "n/a");
			else
				fprintf(out, " %16.1f", 100 * e->v.node[i]);
		}
		fprintf(out, "  %s\n", e->v.bottleneck >= 0 ? m->nodes[e->v.bottleneck].path : "none");
	}
}

void td_report_what_if(FILE *out, const struct td_model *m, const struct td_what_if *w, int n,
		       const struct td_what_if_result *r)
{
	fputs("\nWhat if (projected from the CPI stack of the session)\n", out);
	for (int i = 0; i < n; i++)
		fprintf(out, "  %-32s x %g\n", td_what_if_name(m, w[i].comp), w[i].factor);
	fprintf(out, "  %-32s %9.3f -> %.3f\n", "CPI", r->cpi, r->projected);
	fprintf(out, "  %-32s x %.3f (%+.1f %%) for the same instructions\n", "cycles", r->cycles_ratio,
		100 * (r->cycles_ratio - 1));
	fprintf(out, "  %-32s %.3f x\n", "speed-up", r->speedup);
	fputs("  assumes the components independent (shrinking one grows no other) and their overlap already\n"
	      "  resolved by the stack (each cycle charged once): a first-order projection, not a prediction\n",
	      out);
}

void td_report_text(FILE *out, const struct td_report_data *d, const struct td_report_opts *o)
{
	char why[600];

	td_report_header_text(out, d, "");
	if (!td_report_has_tree(d)) {
		td_report_why_no_tree(d, why, sizeof(why));
		fprintf(out, "\nTop-down: unavailable: %s.\nSoftware metrics per process and thread follow.\n", why);
		return;
	}
	fprintf(out, "\nTop-down (%s; counts of %d target%s summed over the %s, then evaluated)\n", d->cat->name,
		d->selected_targets, d->selected_targets == 1 ? "" : "s", d->window.window ? "window" : "session");
	tree(out, d, &d->whole, o);
	cpi_stack(out, d->model, &d->whole);
	infos(out, d->model, &d->whole);
	if (o->intervals)
		interval_table(out, d);
}
