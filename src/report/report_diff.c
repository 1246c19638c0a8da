/* report_diff: two sessions' trees side by side — each node's value in A
 * and B (session aggregates, report_data) and the change in percentage
 * points, biggest absolute change first; nodes NA on one side come last
 * (n/a, never 0), nodes NA on both are left out. Text or an HTML table (sortable, same assets as the
 * report). */
#include "report.h"
#include "eval/what_if.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report_assets.h"

struct drow {
	const char *path;
	int order;	    /* A's tree order, then B's extra nodes */
	double a, b, delta; /* fractions; delta NaN when either is NA */
	bool bott_a, bott_b;
};

static int by_change(const void *x, const void *y)
{
	const struct drow *p = x, *q = y;
	bool pn = isnan(p->delta), qn = isnan(q->delta);

	if (pn != qn)
		return pn ? 1 : -1;
	if (!pn && fabs(p->delta) != fabs(q->delta))
		return fabs(p->delta) > fabs(q->delta) ? -1 : 1;
	return p->order - q->order;
}

static double value_of(const struct td_report_data *d, const char *path, bool *bott)
{
	int i = td_model_node(d->model, path);

	*bott = i >= 0 && i == d->whole.v.bottleneck;
	return i >= 0 ? d->whole.v.node[i] : NAN;
}

/* Rows for every node of A (tree order), then B's nodes A does not have. */
static struct drow *build_rows(const struct td_report_data *a, const struct td_report_data *b, int *n)
{
	int na = a->model->nnodes, nb = b->model->nnodes;
	struct drow *r = calloc((size_t)(na + nb) + 1, sizeof(*r));
	int *order = calloc((size_t)(na > nb ? na : nb) + 1, sizeof(int));

	*n = 0;
	if (!r || !order) {
		free(r);
		free(order);
		return NULL;
	}
	td_report_tree_order(a->model, order);
	for (int k = 0; k < na; k++) {
		struct drow *x = &r[(*n)++];
		x->path = a->model->nodes[order[k]].path;
		x->order = k;
		x->a = value_of(a, x->path, &x->bott_a);
		x->b = value_of(b, x->path, &x->bott_b);
	}
	td_report_tree_order(b->model, order);
	for (int k = 0; k < nb; k++) {
		const char *path = b->model->nodes[order[k]].path;
		if (td_model_node(a->model, path) >= 0)
			continue;
		struct drow *x = &r[(*n)++];
		x->path = path;
		x->order = na + k;
		x->a = NAN;
		x->b = value_of(b, path, &x->bott_b);
	}
	int kept = 0;
	for (int k = 0; k < *n; k++) {
		r[k].delta = r[k].b - r[k].a;
		if (!isnan(r[k].a) || !isnan(r[k].b))
			r[kept++] = r[k]; /* NA on both sides: nothing to compare */
	}
	*n = kept;
	qsort(r, (size_t)*n, sizeof(*r), by_change);
	free(order);
	return r;
}

static void text_val(FILE *out, double v)
{
	if (isnan(v))
		fprintf(out, " %9s", "n/a");
	else
		fprintf(out, " %9.1f", 100 * v);
}

/* The rows under the column heads A, B (each at most 7 characters) and
 * their difference's. */
static void text_rows(FILE *out, const char *ha, const char *hb, const char *hd, const struct drow *r, int n)
{
	char ca[16], cb[16];

	snprintf(ca, sizeof(ca), "%s %%", ha);
	snprintf(cb, sizeof(cb), "%s %%", hb);
	fprintf(out, "%-64s %9s %9s %9s\n", "Node (biggest change first)", ca, cb, hd);
	for (int k = 0; k < n; k++) {
		fprintf(out, "%-64s", r[k].path);
		text_val(out, r[k].a);
		text_val(out, r[k].b);
		if (isnan(r[k].delta))
			fprintf(out, " %9s", "n/a");
		else
			fprintf(out, " %+9.1f", 100 * r[k].delta);
		fprintf(out, "%s%s%s%s\n", r[k].bott_a ? "  <== " : "", r[k].bott_a ? ha : "",
			r[k].bott_b ? "  <== " : "", r[k].bott_b ? hb : "");
	}
}

static void text(FILE *out, const struct td_report_data *a, const struct td_report_data *b, const struct drow *r, int n)
{
	fprintf(out, "A: session %lld  %s\nB: session %lld  %s\n\n", (long long)a->h.id, a->h.command,
		(long long)b->h.id, b->h.command);
	text_rows(out, "A", "B", "B-A pts", r, n);
}

static void esc(FILE *out, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '<')
			fputs("&lt;", out);
		else if (*s == '>')
			fputs("&gt;", out);
		else if (*s == '&')
			fputs("&amp;", out);
		else if (*s == '"')
			fputs("&quot;", out);
		else
			fputc(*s, out);
	}
}

static void html_val(FILE *out, double v, bool sign)
{
	if (isnan(v))
		fputs("<td data-v=\"\">n/a</td>", out);
	else
		fprintf(out, sign ? "<td data-v=\"%.6g\">%+.1f</td>" : "<td data-v=\"%.6g\">%.1f</td>", 100 * v,
			100 * v);
}

static void html(FILE *out, const struct td_report_data *a, const struct td_report_data *b, const struct drow *r, int n)
{
	fprintf(out,
		"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
		"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		"<title>topdown diff %lld %lld</title>\n<style>\n%s</style></head>\n<body>\n<h1>Session %lld vs "
		"%lld</h1>\n"
		"<pre class=\"hdr\">A: ",
		(long long)a->h.id, (long long)b->h.id, td_asset_report_css, (long long)a->h.id, (long long)b->h.id);
	esc(out, a->h.command);
	fputs("\nB: ", out);
	esc(out, b->h.command);
	fputs("</pre>\n<div class=\"scroll\"><table class=\"sortable\" id=\"diff\"><thead><tr><th>Node</th><th>A %</th>"
	      "<th>B %</th><th>B-A pts</th><th>Bottleneck</th></tr></thead><tbody>\n",
	      out);
	for (int k = 0; k < n; k++) {
		fputs("<tr><td>", out);
		esc(out, r[k].path);
		fputs("</td>", out);
		html_val(out, r[k].a, false);
		html_val(out, r[k].b, false);
		html_val(out, r[k].delta, true);
		fprintf(out, "<td>%s%s</td></tr>\n", r[k].bott_a ? "A " : "", r[k].bott_b ? "B" : "");
	}
	fprintf(out, "</tbody></table></div>\n<script>\n%s</script>\n</body></html>\n", td_asset_report_js);
}

static int load(struct td_store *s, int64_t id, const struct td_report_filter *f, const char *events_dir,
		struct td_report_data *d, td_err *err)
{
	char why[600];

	if (td_report_data_load(s, id, f, events_dir, d, err))
		return -1;
	if (f->kind != TD_RF_ALL && d->selected_targets == 0) {
		td_report_no_such_target(d, id, f, err);
		td_report_data_free(d);
		return -1;
	}
	if (!td_report_has_tree(d)) {
		td_report_why_no_tree(d, why, sizeof(why));
		td_err_set(err, "session %lld has no top-down tree to compare: %s", (long long)id, why);
		td_report_data_free(d);
		return -1;
	}
	return 0;
}

/* --what-if: A's projection against what B measured (did the change deliver?). */
static void projection_vs_b(FILE *out, const struct td_report_data *a, const struct td_report_data *b,
			    const struct td_what_if *wi, int nwi, const struct td_what_if_result *wr)
{
	td_report_what_if(out, a->model, wi, nwi, wr);
	if (!b->whole.v.cpi_valid) {
		fputs("  B: no CPI to compare with (cycles or instructions not counted)\n", out);
		return;
	}
	fprintf(out, "  %-32s %9.3f: %+.1f %% from the projection (%.3f); A measured %.3f\n", "B measured CPI",
		b->whole.v.cpi, 100 * (b->whole.v.cpi / wr->projected - 1), wr->projected, wr->cpi);
	for (int i = 0; i < nwi; i++) {
		int c = wi[i].comp;
		double av = c == TD_WHAT_IF_OTHER ? a->whole.v.other : a->whole.v.cpi_comp[c];
		/* B's component of the same name, when B's file has it */
		double bv = NAN;
		if (c == TD_WHAT_IF_OTHER)
			bv = b->whole.v.other;
		for (int k = 0; c != TD_WHAT_IF_OTHER && b->model->has_cpi && k < b->model->ncpis; k++)
			if (!strcmp(b->model->cpis[k].name, a->model->cpis[c].name))
				bv = b->whole.v.cpi_comp[k];
		if (isnan(bv))
			fprintf(out, "  %-32s A %.3f, projected %.3f, B n/a\n", td_what_if_name(a->model, c), av,
				av * wi[i].factor);
		else
			fprintf(out, "  %-32s A %.3f, projected %.3f, B %.3f\n", td_what_if_name(a->model, c), av,
				av * wi[i].factor, bv);
	}
}

int td_report_diff(struct td_store *s, int64_t ida, int64_t idb, const struct td_report_filter *f,
		   enum td_report_format fmt, const char *events_dir, const char *what_if, FILE *out, td_err *err)
{
	struct td_report_data a, b;
	struct drow *rows;
	struct td_what_if *wi = NULL;
	struct td_what_if_result wr;
	int n, nwi = 0, rc = 0;

	if (load(s, ida, f, events_dir, &a, err))
		return -1;
	if (load(s, idb, f, events_dir, &b, err)) {
		td_report_data_free(&a);
		return -1;
	}
	/* --what-if: A's projection, checked before anything is printed */
	if (what_if && (td_what_if_parse(a.model, what_if, &wi, &nwi, err) ||
			td_what_if_project(a.model, &a.whole.v, wi, nwi, &wr, err))) {
		free(wi);
		td_report_data_free(&a);
		td_report_data_free(&b);
		return -1;
	}
	if (!(rows = build_rows(&a, &b, &n))) {
		td_err_set(err, "out of memory");
		rc = -1;
	} else if (fmt == TD_REPORT_HTML) {
		html(out, &a, &b, rows, n);
	} else {
		text(out, &a, &b, rows, n);
		if (what_if)
			projection_vs_b(out, &a, &b, wi, nwi, &wr);
	}
	free(rows);
	free(wi);
	td_report_data_free(&a);
	td_report_data_free(&b);
	return rc;
}

int td_report_change_trees(struct td_store *s, int64_t session, const int seqs[4], const char *events_dir, FILE *out,
			   td_err *err)
{
	struct td_report_filter fa, fb;
	struct td_report_data a, b;
	struct drow *rows;
	int n, na, nb, rc = 0;

	if (td_report_seq_window(s, session, seqs[0], seqs[1], &fa, &na, err) ||
	    td_report_seq_window(s, session, seqs[2], seqs[3], &fb, &nb, err))
		return -1;
	if (load(s, session, &fa, events_dir, &a, err))
		return -1;
	if (load(s, session, &fb, events_dir, &b, err)) {
		td_report_data_free(&a);
		return -1;
	}
	if (!(rows = build_rows(&a, &b, &n))) {
		td_err_set(err, "out of memory");
		rc = -1;
	} else {
		fprintf(out,
			"watch session %lld: its baseline (intervals %d to %d, %d stored) against its latest window "
			"(intervals %d to %d, %d stored), counts summed over each:\n",
			(long long)session, seqs[0], seqs[1], na, seqs[2], seqs[3], nb);
		text_rows(out, "before", "after", "pts", rows, n);
	}
	free(rows);
	td_report_data_free(&a);
	td_report_data_free(&b);
	return rc;
}
