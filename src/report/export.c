/* export: a session's counts and metrics as CSV or JSON (see export.h). */
#include "export.h"

#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"

struct label {
	int64_t id;
	char text[160];
	char alias[64];
	bool has_alias;
};

struct labels {
	struct label *l;
	int n, cap;
};

struct ex {
	enum td_export_format fmt;
	FILE *out;
	struct labels targets, events;
	bool first;
};

static struct label *new_label(struct labels *ls, int64_t id)
{
	if (ls->n == ls->cap) {
		int ncap = ls->cap ? ls->cap * 2 : 64;
		struct label *n = realloc(ls->l, (size_t)ncap * sizeof(*n));
		if (!n)
			return NULL;
		ls->l = n;
		ls->cap = ncap;
	}
	memset(&ls->l[ls->n], 0, sizeof(ls->l[0]));
	ls->l[ls->n].id = id;
	return &ls->l[ls->n++];
}

/* Labels are read in id order: binary search. */
static const struct label *find_label(const struct labels *ls, int64_t id)
{
	return td_find_by_id(ls->l, (size_t)ls->n, sizeof(ls->l[0]), id);
}

static int add_target(const struct td_target_info *t, void *ctx)
{
	struct label *l = new_label(&((struct ex *)ctx)->targets, t->id);

	if (!l)
		return -1;
	td_target_label(t, l->text, sizeof(l->text));
	return 0;
}

static int add_event(const struct td_event_info *e, void *ctx)
{
	struct label *l = new_label(&((struct ex *)ctx)->events, e->id);

	if (!l)
		return -1;
	snprintf(l->text, sizeof(l->text), "%s", e->name);
	l->has_alias = e->alias != NULL;
	snprintf(l->alias, sizeof(l->alias), "%s", e->alias ? e->alias : "");
	return 0;
}

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

static const char *target_text(const struct ex *x, int64_t id)
{
	const struct label *l = find_label(&x->targets, id);

	return l ? l->text : "?";
}

/* Open a JSON row: separator, interval, times and target. */
static void json_prefix(struct ex *x, int seq, uint64_t start, uint64_t end, int64_t target)
{
	fputs(x->first ? "\n    " : ",\n    ", x->out);
	x->first = false;
	fprintf(x->out, "{\"interval\":%d,\"start_ns\":%" PRIu64 ",\"end_ns\":%" PRIu64 ",\"target\":", seq, start, end);
	td_json_str(x->out, target_text(x, target));
}

static int put_count(const struct td_count_row *c, void *ctx)
{
	struct ex *x = ctx;
	const struct label *ev = find_label(&x->events, c->event);
	const char *name = ev ? ev->text : "?", *alias = ev ? ev->alias : "";

	if (x->fmt == TD_EXPORT_CSV) {
		csv_prefix(x->out, "count", c->seq, c->start_ns, c->end_ns, target_text(x, c->target), name);
		td_csv_field(x->out, alias);
		fprintf(x->out, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",,,,\n", c->value, c->enabled, c->running);
		return 0;
	}
	json_prefix(x, c->seq, c->start_ns, c->end_ns, c->target);
	fputs(",\"name\":", x->out);
	td_json_str(x->out, name);
	fputs(",\"alias\":", x->out);
	td_json_str(x->out, ev && ev->has_alias ? alias : NULL);
	fprintf(x->out, ",\"value\":%" PRIu64 ",\"enabled\":%" PRIu64 ",\"running\":%" PRIu64 "}", c->value, c->enabled,
		c->running);
	return 0;
}

static int put_metric(const struct td_metric_row *m, void *ctx)
{
	struct ex *x = ctx;

	if (x->fmt == TD_EXPORT_CSV) {
		csv_prefix(x->out, m->kind, m->seq, m->start_ns, m->end_ns, target_text(x, m->target), m->name);
		fputc(',', x->out);
		csv_real(x->out, m->value);
		fputs(",,,", x->out);
		csv_real(x->out, m->confidence);
		fprintf(x->out, ",%d,%d,%d\n", m->flagged, m->bottleneck, m->spans);
		return 0;
	}
	json_prefix(x, m->seq, m->start_ns, m->end_ns, m->target);
	fputs(",\"kind\":", x->out);
	td_json_str(x->out, m->kind);
	fputs(",\"name\":", x->out);
	td_json_str(x->out, m->name);
	fputs(",\"value\":", x->out);
	td_json_num(x->out, m->value);
	fputs(",\"confidence\":", x->out);
	td_json_num(x->out, m->confidence);
	fprintf(x->out, ",\"flagged\":%s,\"bottleneck\":%s,\"spans\":%s}", m->flagged ? "true" : "false",
		m->bottleneck ? "true" : "false", m->spans ? "true" : "false");
	return 0;
}

static int write_all(struct td_store *s, int64_t session, struct ex *x)
{
	if (x->fmt == TD_EXPORT_CSV) {
		fputs("record,interval,start_ns,end_ns,target,name,alias,value,enabled,running,confidence,flagged,"
		      "bottleneck,spans\n", x->out);
		return td_store_counts(s, session, put_count, x) || td_store_metrics(s, session, put_metric, x) ? -1 : 0;
	}
	fprintf(x->out, "{\n  \"session\": %lld,\n  \"counts\": [", (long long)session);
	x->first = true;
	if (td_store_counts(s, session, put_count, x))
		return -1;
	fputs("\n  ],\n  \"metrics\": [", x->out);
	x->first = true;
	if (td_store_metrics(s, session, put_metric, x))
		return -1;
	fputs("\n  ]\n}\n", x->out);
	return 0;
}

int td_export(struct td_store *s, int64_t session, enum td_export_format fmt, FILE *out, td_err *err)
{
	struct ex x = { .fmt = fmt, .out = out };
	struct td_session_row row;
	int rc = -1;

	if (td_store_session(s, session, &row)) {
		td_err_set(err, "no session %lld in the database: see 'tdctl sessions'", (long long)session);
		return -1;
	}
	if (td_store_targets(s, session, add_target, &x) || td_store_events(s, session, add_event, &x) ||
	    write_all(s, session, &x))
		td_err_set(err, "cannot read session %lld: %s", (long long)session, td_store_errmsg(s));
	else
		rc = 0;
	free(x.targets.l);
	free(x.events.l);
	return rc;
}
