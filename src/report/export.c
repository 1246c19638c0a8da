/* export: a session's counts and metrics as CSV or JSON (see export.h). */
#include "export.h"

#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/session_rows.h"
#include "base/json.h"

struct ex {
	enum td_export_format fmt;
	FILE *out;
	struct td_json j;
};

/* ---- CSV ---------------------------------------------------------------------------- */

static void csv_real(FILE *f, double v)
{
	if (!isnan(v))
		fprintf(f, "%.17g", v);
}

static void csv_prefix(FILE *f, const char *record, int seq, uint64_t start, uint64_t end, const char *target,
		       const char *name)
{
	fprintf(f, "%s,%d,%" PRIu64 ",%" PRIu64 ",", record, seq, start, end);
	td_csv_field(f, target);
	fputc(',', f);
	td_csv_field(f, name);
	fputc(',', f);
}

/* ---- rows ----------------------------------------------------------------------------- */

/* Open a JSON row: interval, times and target. */
static void json_prefix(struct td_json *j, int seq, uint64_t start, uint64_t end, const char *target)
{
	td_json_object(j);
	td_json_kint(j, "interval", seq);
	td_json_kuint(j, "start_ns", start);
	td_json_kuint(j, "end_ns", end);
	td_json_kstring(j, "target", target);
}

static int put_count(const struct td_labelled_count *c, void *ctx)
{
	struct ex *x = ctx;

	if (x->fmt == TD_EXPORT_CSV) {
		csv_prefix(x->out, "count", c->seq, c->start_ns, c->end_ns, c->target, c->name);
		td_csv_field(x->out, c->alias ? c->alias : "");
		fprintf(x->out, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",,,,\n", c->value, c->enabled, c->running);
		return 0;
	}
	json_prefix(&x->j, c->seq, c->start_ns, c->end_ns, c->target);
	td_json_kstring(&x->j, "name", c->name);
	td_json_kstring(&x->j, "alias", c->alias);
	td_json_kuint(&x->j, "value", c->value);
	td_json_kuint(&x->j, "enabled", c->enabled);
	td_json_kuint(&x->j, "running", c->running);
	td_json_close(&x->j);
	return 0;
}

static int put_metric(const struct td_labelled_metric *m, void *ctx)
{
	struct ex *x = ctx;

	if (x->fmt == TD_EXPORT_CSV) {
		csv_prefix(x->out, m->kind, m->seq, m->start_ns, m->end_ns, m->target, m->name);
		fputc(',', x->out);
		csv_real(x->out, m->value);
		fputs(",,,", x->out);
		csv_real(x->out, m->confidence);
		fprintf(x->out, ",%d,%d,%d\n", m->flagged, m->bottleneck, m->spans);
		return 0;
	}
	json_prefix(&x->j, m->seq, m->start_ns, m->end_ns, m->target);
	td_json_kstring(&x->j, "kind", m->kind);
	td_json_kstring(&x->j, "name", m->name);
	td_json_kdouble(&x->j, "value", m->value);
	td_json_kdouble(&x->j, "confidence", m->confidence);
	td_json_kbool(&x->j, "flagged", m->flagged);
	td_json_kbool(&x->j, "bottleneck", m->bottleneck);
	td_json_kbool(&x->j, "spans", m->spans);
	td_json_close(&x->j);
	return 0;
}

int td_export(struct td_store *s, int64_t session, enum td_export_format fmt, FILE *out, td_err *err)
{
	struct ex x = { .fmt = fmt, .out = out };
	struct td_session_rows *r;
	int rc;

	if (td_session_rows_open(s, session, &r, err))
		return -1;
	if (fmt == TD_EXPORT_CSV) {
		fputs("record,interval,start_ns,end_ns,target,name,alias,value,enabled,running,confidence,flagged,"
		      "bottleneck,spans\n",
		      out);
		rc = td_session_rows_counts(r, put_count, &x, err) || td_session_rows_metrics(r, put_metric, &x, err);
	} else {
		td_json_init(&x.j, out, 2);
		td_json_object(&x.j);
		td_json_kint(&x.j, "session", session);
		td_json_key(&x.j, "counts");
		td_json_array(&x.j);
		rc = td_session_rows_counts(r, put_count, &x, err);
		td_json_close(&x.j);
		td_json_key(&x.j, "metrics");
		td_json_array(&x.j);
		rc = rc || td_session_rows_metrics(r, put_metric, &x, err);
		td_json_finish(&x.j);
	}
	td_session_rows_close(r);
	return rc ? -1 : 0;
}
