/* eval_same DB SESSION [EVENTS_DIR]: prints TAP lines saying whether the
 * metric values of one stored session are the same bit for bit whoever
 * evaluates its counts (issue 12: one evaluator):
 *   1. the values stored now (by live collection, or by import's recompute)
 *      against the values `tdctl recompute` writes in their place — every
 *      (interval, target, metric): value, confidence, flagged, bottleneck,
 *      spans;
 *   2. report data's evaluation of each interval (counts of every target
 *      summed, then evaluated) against the stored values of the target that
 *      sums them all: the process (a live run of one process), else `whole`
 *      (an import of several targets), else the only target;
 *   3. for a session of one interval, report data's evaluation of each
 *      target against that target's stored values.
 * Used by tests/integration/eval_same.sh; the database is changed (recompute). */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/recompute.h"
#include "analysis/report_data.h"
#include "store/store.h"

struct value {
	int64_t interval, target;
	int seq;
	char *name, *kind;
	double value, confidence;
	bool flagged, bottleneck, spans;
};

struct values {
	struct value *v;
	int n, cap;
};

static int tap_n, tap_failed;

static void tap(bool ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void tap(bool ok, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d - ", ok ? "" : "not ", ++tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	tap_failed += !ok;
}

static int keep_value(const struct td_metric_row *m, void *ctx)
{
	struct values *vs = ctx;

	if (vs->n == vs->cap) {
		vs->cap = vs->cap ? 2 * vs->cap : 256;
		if (!(vs->v = realloc(vs->v, (size_t)vs->cap * sizeof(*vs->v))))
			abort();
	}
	vs->v[vs->n++] = (struct value){ m->interval, m->target,     m->seq,	 strdup(m->name), strdup(m->kind),
					 m->value,    m->confidence, m->flagged, m->bottleneck,	  m->spans };
	return 0;
}

static void values_free(struct values *vs)
{
	for (int i = 0; i < vs->n; i++) {
		free(vs->v[i].name);
		free(vs->v[i].kind);
	}
	free(vs->v);
	memset(vs, 0, sizeof(*vs));
}

/* Bit for bit: NaN (not available, stored NULL) equals only NaN. */
static bool same(double a, double b)
{
	return (isnan(a) && isnan(b)) || memcmp(&a, &b, sizeof(a)) == 0;
}

static const struct value *find(const struct values *vs, int64_t target, int seq, const char *kind, const char *name)
{
	for (int i = 0; i < vs->n; i++)
		if (vs->v[i].target == target && (seq < 0 || vs->v[i].seq == seq) && !strcmp(vs->v[i].kind, kind) &&
		    !strcmp(vs->v[i].name, name))
			return &vs->v[i];
	return NULL;
}

/* The first few values of one side that the other lacks (by interval,
 * target, kind and name), so that a count that differs says where. */
static void say_missing(const struct values *from, const struct values *in, const char *what)
{
	int said = 0;

	for (int i = 0; i < from->n && said < 5; i++) {
		const struct value *x = &from->v[i];
		if (!find(in, x->target, x->seq, x->kind, x->name)) {
			fprintf(stderr, "%s: interval %d target %" PRId64 " %s %s = %.17g\n", what, x->seq, x->target,
				x->kind, x->name, x->value);
			said++;
		}
	}
}

/* 1: stored values against recomputed ones. */
static void compare_stored(const struct values *a, const struct values *b)
{
	int diff = a->n == b->n ? 0 : -1;

	if (diff < 0) {
		say_missing(a, b, "stored, not recomputed");
		say_missing(b, a, "recomputed, not stored");
	}

	for (int i = 0; diff >= 0 && i < a->n; i++) {
		const struct value *x = &a->v[i], *y = &b->v[i];
		bool eq = x->interval == y->interval && x->target == y->target && !strcmp(x->name, y->name) &&
			  !strcmp(x->kind, y->kind) && same(x->value, y->value) && same(x->confidence, y->confidence) &&
			  x->flagged == y->flagged && x->bottleneck == y->bottleneck && x->spans == y->spans;
		if (!eq) {
			if (diff++ < 5)
				fprintf(stderr,
					"differs: interval %d target %" PRId64
					" %s %s: %.17g conf %.17g vs %.17g conf %.17g\n",
					x->seq, x->target, x->kind, x->name, x->value, x->confidence, y->value,
					y->confidence);
		}
	}
	tap(diff == 0 && a->n > 0,
	    "the %d stored values equal the recomputed ones bit for bit (%d differ; %d recomputed)", a->n, diff, b->n);
}

/* The values of e against the stored values of target (seq -1: any interval). */
static int compare_eval(const struct td_model *m, const struct td_report_eval *e, const struct values *vs,
			int64_t target, int seq, int *compared)
{
	int diff = 0;

	for (int i = 0; i < m->nnodes; i++) {
		const struct value *x = find(vs, target, seq, "node", m->nodes[i].path);
		(*compared)++;
		if (!x || !same(x->value, e->v.node[i]) || !same(x->confidence, e->v.conf[i]) ||
		    x->flagged != e->v.flagged[i] || x->bottleneck != (e->v.bottleneck == i) ||
		    x->spans != e->v.spans[i]) {
			if (diff++ < 5)
				fprintf(stderr, "%s %s: report %.17g, stored %.17g\n", e->label, m->nodes[i].path,
					e->v.node[i], x ? x->value : NAN);
		}
	}
	for (int i = 0; i < m->ninfos; i++) {
		const struct value *x = find(vs, target, seq, "info", m->infos[i].name);
		(*compared)++;
		if (!x || !same(x->value, e->v.info[i])) {
			if (diff++ < 5)
				fprintf(stderr, "%s %s: report %.17g, stored %.17g\n", e->label, m->infos[i].name,
					e->v.info[i], x ? x->value : NAN);
		}
	}
	for (int i = 0; m->has_cpi && i <= m->ncpis + 1; i++) {
		const char *name = i < m->ncpis ? m->cpis[i].name : i == m->ncpis ? "Other" : "CPI";
		double v = i < m->ncpis ? e->v.cpi_comp[i] : i == m->ncpis ? e->v.other : e->v.cpi;
		const struct value *x = find(vs, target, seq, "cpi", name);
		(*compared)++;
		if (!x || !same(x->value, e->v.cpi_valid ? v : NAN))
			diff++;
	}
	return diff;
}

struct pick {
	int64_t process, whole, only;
	int nprocess, n;
	char plabel[160];
};

static int pick_target(const struct td_target_info *t, void *ctx)
{
	struct pick *p = ctx;

	if (!strcmp(t->kind, "process")) {
		p->process = t->id;
		p->nprocess++;
		td_target_label(t, p->plabel, sizeof(p->plabel));
	} else if (!strcmp(t->kind, "whole")) {
		p->whole = t->id;
	}
	p->only = t->id;
	p->n++;
	return 0;
}

/* The target whose stored values sum every target of an interval. */
static int64_t all_targets(struct td_store *s, int64_t session, char *label, size_t len)
{
	struct pick p = { 0 };

	if (td_store_targets(s, session, pick_target, &p))
		return -1;
	if (p.nprocess == 1) {
		snprintf(label, len, "%s", p.plabel);
		return p.process;
	}
	snprintf(label, len, p.whole ? "whole" : "the only target");
	return p.whole ? p.whole : p.n == 1 ? p.only : -1;
}

/* Label -> target id. */
struct by_label {
	const char *label;
	int64_t id;
};

static int label_target(const struct td_target_info *t, void *ctx)
{
	struct by_label *b = ctx;
	char label[160];

	td_target_label(t, label, sizeof(label));
	if (!strcmp(label, b->label))
		b->id = t->id;
	return 0;
}

/* Did live collection store leaf targets' values (--thread-metrics)? Then
 * recompute must too, to be compared with them. */
static int leaf_rows(int ncols, const char *const *names, const char *const *values, void *ctx)
{
	(void)ncols;
	(void)names;
	*(bool *)ctx = values[0] && strcmp(values[0], "0") != 0;
	return 0;
}

int main(int argc, char **argv)
{
	struct td_store *s;
	struct values before = { 0 }, after = { 0 };
	struct td_recompute_result res;
	struct td_report_data d;
	struct td_report_filter all = { .kind = TD_RF_ALL };
	const char *dir = argc > 3 ? argv[3] : NULL;
	int64_t session, target;
	char label[160];
	td_err err;

	if (argc < 3) {
		fprintf(stderr, "usage: eval_same DB SESSION [EVENTS_DIR]\n");
		return 2;
	}
	session = strtoll(argv[2], NULL, 10);
	if (td_store_open(argv[1], TD_STORE_WRITE, &s, &err)) {
		printf("Bail out! %s\n", err.msg);
		return 1;
	}
	bool each_target = false;
	if (td_store_query(s,
			   "SELECT count(*) FROM metrics m JOIN targets t ON t.id = m.target_id WHERE t.kind = 'thread'"
			   " OR (t.kind = 'cpu' AND t.cpu IS NOT NULL)",
			   leaf_rows, &each_target, &err)) {
		printf("Bail out! %s\n", err.msg);
		return 1;
	}
	if (td_store_metrics(s, session, keep_value, &before) ||
	    td_recompute(s, session, dir, each_target, &res, &err) ||
	    td_store_metrics(s, session, keep_value, &after)) {
		printf("Bail out! cannot recompute session %" PRId64 ": %s\n", session, err.msg);
		return 1;
	}
	td_recompute_result_free(&res);
	compare_stored(&before, &after);

	if (td_report_data_load(s, session, &all, dir, &d, &err) || !d.model) {
		printf("Bail out! no report data for session %" PRId64 ": %s %s\n", session, err.msg, d.why_no_model);
		return 1;
	}
	target = all_targets(s, session, label, sizeof(label));
	{
		int diff = 0, compared = 0;
		for (int k = 0; k < d.nivs; k++)
			diff += compare_eval(d.model, &d.ivs[k], &after, target, d.ivs[k].seq, &compared);
		tap(d.nivs > 0 && diff == 0,
		    "report's %d intervals equal the stored values of %s bit for bit (%d values, %d differ)", d.nivs,
		    label, compared, diff);
	}
	if (d.nivs == 1) {
		int diff = 0, compared = 0;
		for (int k = 0; k < d.ntargets; k++) {
			struct by_label b = { d.targets[k].label, -1 };
			td_store_targets(s, session, label_target, &b);
			diff += compare_eval(d.model, &d.targets[k], &after, b.id, -1, &compared);
		}
		tap(d.ntargets > 0 && diff == 0,
		    "report's %d targets equal their stored values bit for bit (%d values, %d differ)", d.ntargets,
		    compared, diff);
	}
	td_report_data_free(&d);
	values_free(&before);
	values_free(&after);
	td_store_close(s);
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}
