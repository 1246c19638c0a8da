/* report_html: one self-contained HTML file (no network, no external
 * scripts or fonts): the header; the level-1 nodes over the intervals as an
 * inline SVG stacked series; the drill-down tree as nested <details> with
 * bars, the bottleneck path open, formula and description as the summary's
 * title; the CPI stack as a stacked SVG bar and, per interval, a stacked
 * series; a per-target table with a column per shown node, sortable by
 * any column; the raw counts with enabled/running. Styles and script come
 * from reports/ (report_assets.h). Not available values print `n/a`. */
#include "report.h"
#include "report_hotspots.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report_assets.h"

#define SVG_W 600
#define SVG_H 200

static const char *const palette[] = { "#4f7fbf", "#e0a030", "#c62828", "#43a047",
				       "#8e24aa", "#00897b", "#6d4c41", "#546e7a" };
#define NPAL (sizeof(palette) / sizeof(palette[0]))

/* CPI component i's colour; Other (i == ncpis) is grey. */
static const char *cpi_color(const struct td_model *m, int i)
{
	return i < m->ncpis ? palette[i % NPAL] : "#9e9e9e";
}

static void pct_cell(FILE *out, double v)
{
	if (isnan(v) || isinf(v))
		fputs("<td data-v=\"\">n/a</td>", out);
	else
		fprintf(out, "<td data-v=\"%.6g\">%.1f</td>", 100 * v, 100 * v);
}

static void num_cell(FILE *out, double v)
{
	if (isnan(v) || isinf(v))
		fputs("<td data-v=\"\">n/a</td>", out);
	else
		fprintf(out, "<td data-v=\"%.9g\">%.3f</td>", v, v);
}

/* ---- header ------------------------------------------------------------------------- */

static void header(FILE *out, const struct td_report_data *d)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);

	fprintf(out, "<h1>topdown session %lld</h1>\n<pre class=\"hdr\">", (long long)d->h.id);
	if (mem) {
		td_report_header_text(mem, d, "");
		fclose(mem);
		td_report_html_escape(out, buf);
		free(buf);
	}
	fputs("</pre>\n", out);
}

/* ---- level-1 series ----------------------------------------------------------------- */

static void legend(FILE *out, const struct td_model *m)
{
	int c = 0;

	fputs("<div class=\"legend\">", out);
	for (int i = 0; i < m->nnodes; i++)
		if (m->nodes[i].level == 1) {
			fprintf(out, "<span><i style=\"background:%s\"></i>", palette[c++ % NPAL]);
			td_report_html_escape(out, m->nodes[i].name);
			fputs("</span>", out);
		}
	fputs("</div>\n", out);
}

/* "interval 7" or, for a column of several, "intervals 0-11". */
static const char *col_word(const struct td_report_data *d)
{
	return d->per_col > 1 ? "intervals" : "interval";
}

/* Under the charts: what a column is when it sums several intervals. */
static void col_note(FILE *out, const struct td_report_data *d)
{
	if (d->per_col > 1)
		fprintf(out, "<p class=\"note\">%d intervals, %d to a column (counts summed, then evaluated).</p>\n",
			d->nivs, d->per_col);
}

static void series_column(FILE *out, const struct td_report_data *d, const struct td_report_eval *e, double x, double w)
{
	const struct td_model *m = d->model;
	double cum = 0;
	int c = 0;

	for (int i = 0; i < m->nnodes; i++) {
		if (m->nodes[i].level != 1)
			continue;
		const char *color = palette[c++ % NPAL];
		double v = e->v.node[i];
		if (isnan(v) || v <= 0)
			continue;
		v = fmin(v, 1 - cum);
		fprintf(out, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\"><title>", x,
			SVG_H * (1 - cum - v), w, SVG_H * v, color);
		fprintf(out, "%s %s: ", col_word(d), e->label);
		td_report_html_escape(out, m->nodes[i].name);
		fprintf(out, " %.1f%%</title></rect>", 100 * e->v.node[i]);
		cum += v;
	}
}

static void series(FILE *out, const struct td_report_data *d)
{
	fputs("<h2>Level 1 over time</h2>\n", out);
	if (d->ncols == 0) {
		fputs("<p>n/a: no interval recorded</p>\n", out);
		return;
	}
	fprintf(out, "<svg id=\"series\" viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"level-1 nodes per interval\">",
		SVG_W, SVG_H);
	double w = (double)SVG_W / d->ncols;
	for (int k = 0; k < d->ncols; k++)
		series_column(out, d, &d->cols[k], k * w, w > 2 ? w - 1 : w);
	fputs("</svg>\n", out);
	legend(out, d->model);
	col_note(out, d);
}

/* ---- tree --------------------------------------------------------------------------- */

static bool on_path(const struct td_model *m, int bottleneck, int i)
{
	for (int n = bottleneck; n >= 0; n = m->nodes[n].parent)
		if (n == i)
			return true;
	return false;
}

static void summary(FILE *out, const struct td_report_data *d, const struct td_report_eval *e, int i)
{
	const struct td_node *n = &d->model->nodes[i];
	char unit[24];
	double v = e->v.node[i];

	td_report_unit(n, unit, sizeof(unit));
	fputs("<summary title=\"", out);
	td_report_html_escape(out, n->path);
	fputs(" = ", out);
	td_report_html_escape(out, n->f.text);
	if (n->threshold) {
		fputs("&#10;threshold: ", out);
		td_report_html_escape(out, n->threshold);
	}
	if (n->desc) {
		fputs("&#10;", out);
		td_report_html_escape(out, n->desc);
	}
	fputs("\"><span class=\"name\">", out);
	td_report_html_escape(out, n->name);
	if (isnan(v))
		fprintf(out, "</span><span class=\"val\">n/a %s</span>", unit);
	else
		fprintf(out,
			"</span><span class=\"val\">%.1f %s%s</span><span class=\"bar\"><i "
			"style=\"width:%.1f%%\"></i></span>",
			100 * v, unit, e->v.flagged[i] ? "" : " &lt;", 100 * fmax(0, fmin(1, v)));
	if (i == e->v.bottleneck)
		fputs("<span class=\"mark\">&lt;==</span>", out);
	if (!isnan(v) && !isnan(e->v.conf[i]) && e->v.conf[i] < 0.995)
		fprintf(out, "<span class=\"conf\">[conf %.0f%%]</span>", 100 * e->v.conf[i]);
	if (!isnan(v) && e->v.spans && e->v.spans[i])
		fputs("<span class=\"conf\" title=\"the formula read events counted in different perf groups, whose "
		      "time windows differ\">[spans groups]</span>",
		      out);
	fputs("</summary>", out);
}

static bool has_children(const struct td_model *m, int i)
{
	for (int k = 0; k < m->nnodes; k++)
		if (m->nodes[k].parent == i)
			return true;
	return false;
}

static void subtree(FILE *out, const struct td_report_data *d, const struct td_report_opts *o, int parent)
{
	const struct td_model *m = d->model;
	const struct td_report_eval *e = &d->whole;

	for (int i = 0; i < m->nnodes; i++) {
		if (m->nodes[i].parent != parent)
			continue;
		if (!td_report_node_shown(m, i, o)) {
			subtree(out, d, o, i);
			continue;
		}
		bool path = on_path(m, e->v.bottleneck, i);
		fprintf(out, "<details class=\"l%d%s%s%s\" data-node=\"", m->nodes[i].level, path ? " path" : "",
			!isnan(e->v.node[i]) && !e->v.flagged[i] ? " below" : "", has_children(m, i) ? "" : " leaf");
		td_report_html_escape(out, m->nodes[i].path);
		fprintf(out, "\"%s>", path ? " open" : "");
		summary(out, d, e, i);
		td_report_html_hot_node(out, d->hot, m->nodes[i].path);
		subtree(out, d, o, i);
		fputs("</details>\n", out);
	}
}

/* ---- CPI stack ---------------------------------------------------------------------- */

static void cpi_part(FILE *out, const char *name, double v, double cpi, double *x, const char *color)
{
	if (isnan(v) || v <= 0)
		return;
	double w = SVG_W * v / cpi;
	fprintf(out, "<rect x=\"%.2f\" y=\"0\" width=\"%.2f\" height=\"40\" fill=\"%s\"><title>", *x, w, color);
	td_report_html_escape(out, name);
	fprintf(out, ": CPI %.3f (%.1f%% of cycles)</title></rect>", v, 100 * v / cpi);
	*x += w;
}

static void cpi_legend_row(FILE *out, const char *name, const char *tag, double v, double cpi, const char *color)
{
	fprintf(out, "<tr><td><i class=\"swatch\" style=\"background:%s\"></i>", color);
	td_report_html_escape(out, name);
	fprintf(out, "</td><td>%s</td>", tag);
	num_cell(out, v);
	pct_cell(out, v / cpi);
	fputs("</tr>\n", out);
}

static void cpi_stack(FILE *out, const struct td_model *m, const struct td_report_eval *e)
{
	double x = 0;

	if (!m->has_cpi)
		return;
	fputs("<h2>CPI stack</h2>\n", out);
	if (!e->v.cpi_valid) {
		fputs("<p>n/a: cycles or instructions were not counted</p>\n", out);
		return;
	}
	fprintf(out, "<svg id=\"cpi\" viewBox=\"0 0 %d 40\" role=\"img\" aria-label=\"CPI stack\">", SVG_W);
	for (int i = 0; i < m->ncpis; i++)
		cpi_part(out, m->cpis[i].name, e->v.cpi_comp[i], e->v.cpi, &x, cpi_color(m, i));
	cpi_part(out, "Other", e->v.other, e->v.cpi, &x, cpi_color(m, m->ncpis));
	fputs("</svg>\n<div class=\"scroll\"><table class=\"sortable\" id=\"cpi-table\"><thead><tr><th>Component</th>"
	      "<th>Tag</th><th>CPI</th><th>% cycles</th></tr></thead><tbody>\n",
	      out);
	for (int i = 0; i < m->ncpis; i++)
		cpi_legend_row(out, m->cpis[i].name, td_cpi_tag_name(m->cpis[i].tag), e->v.cpi_comp[i], e->v.cpi,
			       cpi_color(m, i));
	cpi_legend_row(out, "Other", "derived", e->v.other, e->v.cpi, cpi_color(m, m->ncpis));
	fprintf(out,
		"</tbody><tfoot><tr><td>CPI</td><td>measured</td><td>%.3f</td><td>100.0</td></tr></tfoot>"
		"</table></div>\n",
		e->v.cpi);
}

/* The CPI stack over the intervals: one column (<g class="col">) per
 * interval, its components and Other stacked to that interval's CPI, the
 * full height the largest CPI of the session. */
static void cpi_series_column(FILE *out, const struct td_report_data *d, const struct td_report_eval *e, double x,
			      double w, double top)
{
	const struct td_model *m = d->model;
	double cum = 0;

	fprintf(out, "<g class=\"col\" data-seq=\"%d\">", e->seq);
	if (!e->v.cpi_valid) {
		fprintf(out, "<title>%s %s: n/a</title></g>", col_word(d), e->label);
		return;
	}
	for (int i = 0; i <= m->ncpis; i++) {
		const char *name = i < m->ncpis ? m->cpis[i].name : "Other";
		double v = i < m->ncpis ? e->v.cpi_comp[i] : e->v.other;
		if (isnan(v) || v <= 0)
			continue;
		double h = fmin(v / top, 1 - cum);
		fprintf(out, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\" data-c=\"", x,
			SVG_H * (1 - cum - h), w, SVG_H * h, cpi_color(m, i));
		td_report_html_escape(out, name);
		fprintf(out, "\"><title>%s %s: ", col_word(d), e->label);
		td_report_html_escape(out, name);
		fprintf(out, " CPI %.3f of %.3f</title></rect>", v, e->v.cpi);
		cum += h;
	}
	fputs("</g>", out);
}

static void cpi_series(FILE *out, const struct td_report_data *d)
{
	const struct td_model *m = d->model;
	double top = 0;

	if (!m->has_cpi || d->ncols == 0)
		return;
	for (int k = 0; k < d->ncols; k++)
		if (d->cols[k].v.cpi_valid && d->cols[k].v.cpi > top)
			top = d->cols[k].v.cpi;
	fputs("<h3>CPI stack over time</h3>\n", out);
	if (!(top > 0) || isinf(top)) {
		fputs("<p>n/a: no interval has cycles and instructions</p>\n", out);
		return;
	}
	fprintf(out, "<svg id=\"cpi-series\" viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"CPI stack per interval\">",
		SVG_W, SVG_H);
	double w = (double)SVG_W / d->ncols;
	for (int k = 0; k < d->ncols; k++)
		cpi_series_column(out, d, &d->cols[k], k * w, w > 2 ? w - 1 : w, top);
	fprintf(out, "</svg>\n<div class=\"legend\" id=\"cpi-series-legend\">");
	for (int i = 0; i <= m->ncpis; i++) {
		fprintf(out, "<span><i style=\"background:%s\"></i>", cpi_color(m, i));
		td_report_html_escape(out, i < m->ncpis ? m->cpis[i].name : "Other");
		fputs("</span>", out);
	}
	fprintf(out, "<span>full height: CPI %.3f</span></div>\n", top);
	col_note(out, d);
}

/* ---- per target ----------------------------------------------------------------------- */

static int info_index(const struct td_model *m, const char *name)
{
	for (int i = 0; i < m->ninfos; i++)
		if (!strcmp(m->infos[i].name, name))
			return i;
	return -1;
}

/* One column per node shown (-l/--node), in tree order, each header naming
 * its node (data-node, full path as title): report.js sorts by any of them. */
static void targets(FILE *out, const struct td_report_data *d, const struct td_report_opts *o)
{
	const struct td_model *m = d->model;
	int ipc = info_index(m, "IPC"), *order = calloc((size_t)m->nnodes + 1, sizeof(int)), n = 0;

	if (!order)
		return;
	td_report_tree_order(m, order);
	for (int k = 0; k < m->nnodes; k++)
		if (td_report_node_shown(m, order[k], o))
			order[n++] = order[k];
	fputs("<h2>Per target</h2>\n<p>Click a column to sort by it (again to reverse).</p>\n<div class=\"scroll\">"
	      "<table class=\"sortable\" id=\"targets\"><thead><tr><th>Target</th>",
	      out);
	for (int k = 0; k < n; k++) {
		char unit[24];
		td_report_unit(&m->nodes[order[k]], unit, sizeof(unit));
		fputs("<th data-node=\"", out);
		td_report_html_escape(out, m->nodes[order[k]].path);
		fputs("\" title=\"", out);
		td_report_html_escape(out, m->nodes[order[k]].path);
		fprintf(out, " (%s)\">", unit);
		td_report_html_escape(out, m->nodes[order[k]].name);
		fputs(" %</th>", out);
	}
	fputs(ipc >= 0 ? "<th>IPC</th><th>Bottleneck</th></tr></thead><tbody>\n"
		       : "<th>Bottleneck</th></tr></thead><tbody>\n",
	      out);
	for (int t = 0; t < d->ntargets; t++) {
		const struct td_report_eval *e = &d->targets[t];
		fputs("<tr><td>", out);
		td_report_html_escape(out, e->label);
		fputs("</td>", out);
		for (int k = 0; k < n; k++)
			pct_cell(out, e->v.node[order[k]]);
		if (ipc >= 0)
			num_cell(out, e->v.info[ipc]);
		fputs("<td>", out);
		td_report_html_escape(out, e->v.bottleneck >= 0 ? m->nodes[e->v.bottleneck].path : "none");
		fputs("</td></tr>\n", out);
	}
	fputs("</tbody></table></div>\n", out);
	free(order);
}

/* ---- raw counts --------------------------------------------------------------------- */

static void counts(FILE *out, const struct td_report_data *d)
{
	fputs("<h2>Appendix: raw counts</h2>\n<p>Summed over the selected targets and intervals; a count is scaled "
	      "by enabled/running.</p>\n<div class=\"scroll\"><table class=\"sortable\" id=\"counts\"><thead><tr>"
	      "<th>Event</th><th>Alias</th><th>Value</th><th>Enabled ns</th><th>Running ns</th><th>Running %</th>"
	      "</tr></thead><tbody>\n",
	      out);
	for (int i = 0; i < d->ncounts; i++) {
		const struct td_report_count *c = &d->counts[i];
		fputs("<tr><td>", out);
		td_report_html_escape(out, c->name);
		fputs("</td><td>", out);
		td_report_html_escape(out, c->alias[0] ? c->alias : "-");
		if (c->failed || (c->running == 0 && c->enabled > 0)) {
			/* never a 0 for what was not measured */
			fprintf(out,
				"</td><td data-v=\"\">%s</td><td data-v=\"%" PRIu64 "\">%" PRIu64
				"</td><td data-v=\"%" PRIu64 "\">%" PRIu64 "</td>",
				c->failed ? "not supported" : "not counted", c->enabled, c->enabled, c->running,
				c->running);
			pct_cell(out, c->failed ? NAN : 0.0);
		} else {
			fprintf(out,
				"</td><td data-v=\"%" PRIu64 "\">%" PRIu64 "</td><td data-v=\"%" PRIu64 "\">%" PRIu64
				"</td><td data-v=\"%" PRIu64 "\">%" PRIu64 "</td>",
				c->value, c->value, c->enabled, c->enabled, c->running, c->running);
			pct_cell(out, c->enabled ? (double)c->running / (double)c->enabled : NAN);
		}
		fputs("</tr>\n", out);
	}
	fputs("</tbody></table></div>\n", out);
}

void td_report_html(FILE *out, const struct td_report_data *d, const struct td_report_opts *o)
{
	char why[600];

	fprintf(out,
		"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
		"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		"<title>topdown session %lld</title>\n<style>\n%s</style></head>\n<body>\n",
		(long long)d->h.id, td_asset_report_css);
	header(out, d);
	if (td_report_has_tree(d)) {
		series(out, d);
		fputs("<h2>Top-down tree</h2>\n<div id=\"tree\">\n", out);
		subtree(out, d, o, -1);
		fprintf(out, "</div>\n<p>Bottleneck: <span id=\"bottleneck\">%s</span></p>\n",
			d->whole.v.bottleneck >= 0 ? d->model->nodes[d->whole.v.bottleneck].path : "none");
		cpi_stack(out, d->model, &d->whole);
		cpi_series(out, d);
		targets(out, d, o);
	} else {
		td_report_why_no_tree(d, why, sizeof(why));
		fputs("<p class=\"unavailable\" id=\"unavailable\">Top-down unavailable: ", out);
		td_report_html_escape(out, why);
		fputs("</p>\n", out);
	}
	td_report_html_hotspots(out, d->hot);
	counts(out, d);
	fprintf(out, "<script>\n%s</script>\n</body></html>\n", td_asset_report_js);
}
