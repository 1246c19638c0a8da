/* session_rows: a session's rows with their labels (see session_rows.h). */
#include "session_rows.h"

#include <stdlib.h>
#include <string.h>

struct label {
	int64_t id; /* first member: td_find_by_id */
	char *text;
	char *alias; /* events: NULL if none */
};

struct td_session_rows {
	struct td_store *s;
	int64_t session;
	struct label *targets, *events;
	int ntargets, nevents;
	/* the callback being served */
	td_labelled_count_fn count_fn;
	td_labelled_metric_fn metric_fn;
	void *ctx;
};

static int add_target(const struct td_target_info *t, void *ctx)
{
	struct td_session_rows *r = ctx;
	struct label *l = td_array_push(&r->targets, &r->ntargets, sizeof(*r->targets));
	char text[4200]; /* cgroup:PATH, PATH up to PATH_MAX */

	if (!l)
		return -1;
	l->id = t->id;
	td_target_label(t, text, sizeof(text));
	return (l->text = strdup(text)) ? 0 : -1;
}

static int add_event(const struct td_event_info *e, void *ctx)
{
	struct td_session_rows *r = ctx;
	struct label *l = td_array_push(&r->events, &r->nevents, sizeof(*r->events));

	if (!l)
		return -1;
	l->id = e->id;
	l->text = strdup(e->name);
	l->alias = e->alias ? strdup(e->alias) : NULL;
	return l->text && (l->alias || !e->alias) ? 0 : -1;
}

int td_session_rows_open(struct td_store *s, int64_t session, struct td_session_rows **out, td_err *err)
{
	struct td_session_row row;
	struct td_session_rows *r;

	if (td_store_session(s, session, &row)) {
		td_err_set(err, "no session %lld in the database: see 'tdctl sessions'", (long long)session);
		return -1;
	}
	if (!(r = calloc(1, sizeof(*r)))) {
		td_err_set(err, "out of memory");
		return -1;
	}
	r->s = s;
	r->session = session;
	if (td_store_targets(s, session, add_target, r) || td_store_events(s, session, add_event, r)) {
		td_err_set(err, "cannot read session %lld: %s", (long long)session, td_store_errmsg(s));
		td_session_rows_close(r);
		return -1;
	}
	*out = r;
	return 0;
}

static void free_labels(struct label *l, int n)
{
	for (int i = 0; i < n; i++) {
		free(l[i].text);
		free(l[i].alias);
	}
	free(l);
}

void td_session_rows_close(struct td_session_rows *r)
{
	if (!r)
		return;
	free_labels(r->targets, r->ntargets);
	free_labels(r->events, r->nevents);
	free(r);
}

/* Labels are read in id order: binary search. */
static const char *target_text(const struct td_session_rows *r, int64_t id)
{
	const struct label *l = td_find_by_id(r->targets, (size_t)r->ntargets, sizeof(*r->targets), id);

	return l ? l->text : "?";
}

static int one_count(const struct td_count_row *c, void *ctx)
{
	struct td_session_rows *r = ctx;
	const struct label *ev = td_find_by_id(r->events, (size_t)r->nevents, sizeof(*r->events), c->event);
	struct td_labelled_count lc = {
		c->seq,	  c->start_ns, c->end_ns, target_text(r, c->target), ev ? ev->text : "?", ev ? ev->alias : NULL,
		c->value, c->enabled,  c->running
	};

	return r->count_fn(&lc, r->ctx);
}

static int one_metric(const struct td_metric_row *m, void *ctx)
{
	struct td_session_rows *r = ctx;
	struct td_labelled_metric lm = { m->seq,     m->start_ns,   m->end_ns, target_text(r, m->target),
					 m->kind,    m->name,	    m->value,  m->confidence,
					 m->flagged, m->bottleneck, m->spans };

	return r->metric_fn(&lm, r->ctx);
}

int td_session_rows_counts(struct td_session_rows *r, td_labelled_count_fn fn, void *ctx, td_err *err)
{
	r->count_fn = fn;
	r->ctx = ctx;
	if (td_store_counts(r->s, r->session, one_count, r) == 0)
		return 0;
	td_err_set(err, "cannot read session %lld: %s", (long long)r->session, td_store_errmsg(r->s));
	return -1;
}

int td_session_rows_metrics(struct td_session_rows *r, td_labelled_metric_fn fn, void *ctx, td_err *err)
{
	r->metric_fn = fn;
	r->ctx = ctx;
	if (td_store_metrics(r->s, r->session, one_metric, r) == 0)
		return 0;
	td_err_set(err, "cannot read session %lld: %s", (long long)r->session, td_store_errmsg(r->s));
	return -1;
}
