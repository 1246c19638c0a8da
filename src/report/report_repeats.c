/* report_repeats: a repeat group's statistics (tdctl report --repeats) and
 * two groups compared metric by metric with the Mann–Whitney test (tdctl
 * diff --repeats), as text. The values come from analysis/repeats. */
#include "report.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/repeats.h"
#include "base/stats.h"

/* A value in the metric's display unit: nodes in percent. */
static double shown(const struct td_repeat_metric *m, double v)
{
	return !strcmp(m->kind, "node") ? 100 * v : v;
}

static void cell(FILE *out, const struct td_repeat_metric *m, double v)
{
	if (isnan(v) || isinf(v))
		fprintf(out, " %10s", "n/a");
	else
		fprintf(out, " %10.4g", shown(m, v));
}

int td_report_repeats(struct td_store *s, int64_t session, const char *events_dir, FILE *out, td_err *err)
{
	struct td_repeats r;

	if (td_repeats_load(s, session, events_dir, &r, err))
		return -1;
	fprintf(out, "Repeats: %d measured session%s (", r.nsessions, r.nsessions == 1 ? "" : "s");
	for (int k = 0; k < r.nsessions; k++)
		fprintf(out, "%s%lld", k ? ", " : "", (long long)r.sessions[k]);
	fprintf(out, "), %d warm-up%s left out\n\n", r.warmups, r.warmups == 1 ? "" : "s");
	fprintf(out, "  %-36s %-10s %10s %10s %10s %10s %10s %10s  %-25s\n", "metric", "unit", "min", "median", "mean",
		"trimmed", "stddev", "max", "median's CI");
	for (int i = 0; i < r.nm; i++) {
		const struct td_repeat_metric *m = &r.m[i];
		if (m->st.n == 0)
			continue;
		fprintf(out, "  %-36s %-10s", m->name, m->unit);
		cell(out, m, m->st.min);
		cell(out, m, m->st.median);
		cell(out, m, m->st.mean);
		cell(out, m, m->st.trimmed_mean);
		cell(out, m, m->st.stddev);
		cell(out, m, m->st.max);
		fprintf(out, "  [%.4g, %.4g] %.1f %%", shown(m, m->st.ci_low), shown(m, m->st.ci_high),
			100 * m->st.ci_level);
		if (m->noisy)
			fprintf(out, "  noisy: spread %.3g > %.3g from its threshold", shown(m, m->st.max - m->st.min),
				shown(m, fabs(m->st.median - m->threshold)));
		fputc('\n', out);
	}
	fputs("\n  trimmed: the mean without the lowest and highest 20 %; median's CI: between two order statistics,\n"
	      "  with its exact coverage (at least 95 % where the repeats allow); noisy: whether the node passes its\n"
	      "  threshold could be chance\n",
	      out);
	td_repeats_free(&r);
	return 0;
}

int td_report_diff_repeats(struct td_store *s, int64_t a, int64_t b, const char *events_dir, FILE *out, td_err *err)
{
	struct td_repeats ra, rb;
	int significant = 0;

	if (td_repeats_load(s, a, events_dir, &ra, err))
		return -1;
	if (td_repeats_load(s, b, events_dir, &rb, err)) {
		td_repeats_free(&ra);
		return -1;
	}
	fprintf(out,
		"Repeat groups: A %d session%s (from %lld), B %d session%s (from %lld); Mann-Whitney U, two-sided\n\n",
		ra.nsessions, ra.nsessions == 1 ? "" : "s", (long long)ra.sessions[0], rb.nsessions,
		rb.nsessions == 1 ? "" : "s", (long long)rb.sessions[0]);
	fprintf(out, "  %-36s %-10s %10s %10s %10s %8s %9s\n", "metric", "unit", "median A", "median B", "B-A", "U",
		"p");
	for (int i = 0; i < ra.nm; i++) {
		const struct td_repeat_metric *x = &ra.m[i], *y = td_repeats_find(&rb, x->kind, x->name);
		double u, p;
		if (!y || x->st.n == 0 || y->st.n == 0 ||
		    td_mann_whitney(x->values, ra.nsessions, y->values, rb.nsessions, &u, &p))
			continue;
		fprintf(out, "  %-36s %-10s", x->name, x->unit);
		cell(out, x, x->st.median);
		cell(out, x, y->st.median);
		cell(out, x, y->st.median - x->st.median);
		fprintf(out, " %8.1f %9.4f%s\n", u, p, p < 0.01 ? "  significant (p < 0.01)" : "");
		significant += p < 0.01;
	}
	fprintf(out, "\n  %d metric%s differ%s significantly at p < 0.01\n", significant, significant == 1 ? "" : "s",
		significant == 1 ? "s" : "");
	td_repeats_free(&ra);
	td_repeats_free(&rb);
	return 0;
}
