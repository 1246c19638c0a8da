/* session_counts: a session's rows bound to an events file and walked as
 * scaled counts (see session_counts.h). */
#include "session_counts.h"

#include <assert.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "model/event_identity.h"

struct bind {
	struct td_session_counts *sc;
	const char *file;
	bool import;
	struct td_event_identity *identity;
};

static int bind_row(const struct td_event_info *e, void *ctx)
{
	struct bind *b = ctx;
	struct td_session_counts *sc = b->sc;
	struct td_session_event *ev;
	/* a live event feeds the file that planned it (two files may count one event);
	 * group -1 rows are /proc's counts (no perf event, no encoding: type 0 config 0
	 * would pass for cycles) */
	bool mine = (!e->file || !strcmp(e->file, b->file)) && (b->import || e->group >= 0);

	if (!(ev = td_array_push(&sc->evs, &sc->nevs, sizeof(*sc->evs))))
		return -1;
	ev->id = e->id;
	ev->alias = mine && b->identity ? td_event_identity_find(b->identity, e->type, e->config, e->config1) : -1;
	ev->group = b->import ? 0 : e->group; /* imports: group numbers only tell repeated events apart */
	ev->failed = e->status && !strcmp(e->status, "failed");
	ev->name = strdup(e->name ? e->name : "");
	ev->stored_alias = e->alias ? strdup(e->alias) : NULL;
	if (!ev->name || (e->alias && !ev->stored_alias))
		return -1;
	sc->bound += ev->alias >= 0;
	return 0;
}

/* The bound rows' perf group numbers -> 0..n-1. */
static int dense_groups(struct td_session_counts *sc)
{
	int *g = malloc(((size_t)sc->nevs + 1) * sizeof(int)), n = 0;

	if (!g)
		return -1;
	for (int i = 0; i < sc->nevs; i++)
		if (sc->evs[i].alias >= 0)
			g[n++] = sc->evs[i].group;
	sc->ngroups = td_group_numbers_dense(g, n);
	for (int i = 0, j = 0; sc->ngroups > 0 && i < sc->nevs; i++)
		sc->evs[i].group = sc->evs[i].alias >= 0 ? g[j++] : 0;
	free(g);
	return sc->ngroups > 0 ? 0 : -1;
}

int td_session_counts_bind(struct td_session_counts *sc, struct td_store *s, int64_t session,
			   const struct td_catalog *cat, const char *file, const char *pmu_model, td_err *err)
{
	struct td_session_meta meta;
	struct bind b = { sc, file, false, NULL };
	int rc = -1;

	memset(sc, 0, sizeof(*sc));
	sc->cat = cat;
	if (td_store_session_meta(s, session, &meta)) {
		td_err_set(err, "no session %lld in the database: see 'tdctl sessions'", (long long)session);
		return -1;
	}
	b.import = !strcmp(meta.kind, "import");
	if (cat && td_event_identity_new(cat, pmu_model, &b.identity, err))
		return -1;
	if (td_store_events(s, session, bind_row, &b) || dense_groups(sc))
		td_err_set(err, "cannot read the events of session %lld: %s", (long long)session, td_store_errmsg(s));
	else
		rc = 0;
	td_event_identity_free(b.identity);
	if (rc)
		td_session_counts_free(sc);
	return rc;
}

void td_session_counts_free(struct td_session_counts *sc)
{
	for (int i = 0; i < sc->nevs; i++) {
		free(sc->evs[i].name);
		free(sc->evs[i].stored_alias);
	}
	free(sc->evs);
	memset(sc, 0, sizeof(*sc));
}

const struct td_session_event *td_session_event_of(const struct td_session_counts *sc, int64_t id)
{
	return td_find_by_id(sc->evs, (size_t)sc->nevs, sizeof(*sc->evs), id); /* rows come in id order */
}

struct walk {
	const struct td_session_counts *sc;
	const struct td_count_walk *w;
	void *ctx;
	struct td_group_counts cur;   /* the current (interval, target) */
	struct td_count_row last;     /* a row of the current interval */
	int64_t interval, target;     /* 0: none yet */
	bool bound;		      /* the current target has a row this file reads */
	bool any_bound;		      /* some target of the current interval has */
	struct td_count_row *unbound; /* the interval's targets without such a row (a row of each) */
	int nunbound;
	bool skip; /* the current interval is not kept */
};

static int end_target(struct walk *k)
{
	int rc = 0;

	/* a target with no row this file reads (another file's, /proc's, the unlisted
	 * remainder's software group) is not this file's to evaluate: left out, not NA —
	 * unless no target of the interval has one (then each is handed over, empty:
	 * the interval still happened) */
	if (k->target && k->bound) {
		rc = k->w->target(k->ctx, &k->last, k->target, &k->cur);
		k->any_bound = true;
	} else if (k->target) {
		struct td_count_row *u = td_array_push(&k->unbound, &k->nunbound, sizeof(*u));
		if (!u)
			return -1;
		*u = k->last;
	}
	td_group_counts_clear(&k->cur);
	k->target = 0;
	k->bound = false;
	return rc;
}

static int end_interval(struct walk *k)
{
	int rc = 0;

	if (!k->interval || k->skip)
		return 0;
	if (end_target(k))
		return -1;
	for (int i = 0; rc == 0 && !k->any_bound && i < k->nunbound; i++)
		rc = k->w->target(k->ctx, &k->unbound[i], k->unbound[i].target, &k->cur);
	k->nunbound = 0;
	k->any_bound = false;
	if (rc)
		return -1;
	return k->w->interval_end ? k->w->interval_end(k->ctx, &k->last) : 0;
}

static int walk_row(const struct td_count_row *r, void *ctx)
{
	struct walk *k = ctx;
	const struct td_session_event *e;

	if (r->interval != k->interval) {
		if (end_interval(k))
			return -1;
		k->interval = r->interval;
		k->skip = k->w->keep_interval && !k->w->keep_interval(k->ctx, r->start_ns, r->end_ns);
	}
	if (k->skip)
		return 0; /* rows come interval by interval: a whole interval is skipped */
	if (r->target != k->target && end_target(k))
		return -1;
	k->target = r->target;
	k->last = *r;
	e = td_session_event_of(k->sc, r->event);
	if (k->w->row && k->w->row(k->ctx, r, e))
		return -1;
	assert(!e || e->alias < 0 || e->group < k->sc->ngroups);
	if (e && e->alias >= 0) {
		td_group_counts_add_row(&k->cur, e->group, e->alias, r->value, r->enabled, r->running);
		k->bound = true;
	}
	return 0;
}

int td_session_counts_walk(const struct td_session_counts *sc, struct td_store *s, int64_t session,
			   const struct td_count_walk *w, void *ctx)
{
	return td_session_counts_walk_n(&sc, 1, s, session, &w, &ctx);
}

struct walks {
	struct walk *k;
	int n;
};

static int walk_rows(const struct td_count_row *r, void *ctx)
{
	struct walks *ks = ctx;

	for (int i = 0; i < ks->n; i++)
		if (walk_row(r, &ks->k[i]))
			return -1;
	return 0;
}

static int walk_n(const struct td_session_counts *const *sc, int n, struct td_store *s, int64_t session, int first_seq,
		  int last_seq, const struct td_count_walk *const *w, void *const *ctx)
{
	struct walks ks = { .k = calloc((size_t)n + 1, sizeof(*ks.k)), .n = n };
	int rc = ks.k ? 0 : -1;

	for (int i = 0; rc == 0 && i < n; i++) {
		ks.k[i] = (struct walk){ .sc = sc[i], .w = w[i], .ctx = ctx[i] };
		rc = td_group_counts_init(&ks.k[i].cur, sc[i]->cat ? sc[i]->cat->nevents : 0, sc[i]->ngroups);
	}
	if (rc == 0 && td_store_counts_range(s, session, first_seq, last_seq, walk_rows, &ks))
		rc = -1;
	for (int i = 0; rc == 0 && i < n; i++)
		rc = end_interval(&ks.k[i]);
	for (int i = 0; ks.k && i < n; i++) {
		td_group_counts_free(&ks.k[i].cur);
		free(ks.k[i].unbound);
	}
	free(ks.k);
	return rc;
}

int td_session_counts_walk_n(const struct td_session_counts *const *sc, int n, struct td_store *s, int64_t session,
			     const struct td_count_walk *const *w, void *const *ctx)
{
	return walk_n(sc, n, s, session, INT_MIN, INT_MAX, w, ctx);
}

int td_session_counts_walk_range(const struct td_session_counts *sc, struct td_store *s, int64_t session, int first_seq,
				 int last_seq, const struct td_count_walk *w, void *ctx)
{
	return walk_n(&sc, 1, s, session, first_seq, last_seq, &w, &ctx);
}

struct td_count_walker {
	struct walk k;
};

struct td_count_walker *td_count_walker_new(const struct td_session_counts *sc, const struct td_count_walk *w,
					    void *ctx)
{
	struct td_count_walker *k = calloc(1, sizeof(*k));

	if (!k)
		return NULL;
	k->k = (struct walk){ .sc = sc, .w = w, .ctx = ctx };
	if (td_group_counts_init(&k->k.cur, sc->cat ? sc->cat->nevents : 0, sc->ngroups)) {
		free(k);
		return NULL;
	}
	return k;
}

int td_count_walker_row(struct td_count_walker *k, const struct td_count_row *r)
{
	return walk_row(r, &k->k);
}

int td_count_walker_end(struct td_count_walker *k)
{
	int rc = end_interval(&k->k);

	k->k.interval = 0; /* the next row begins an interval */
	k->k.target = 0;
	return rc;
}

void td_count_walker_free(struct td_count_walker *k)
{
	if (!k)
		return;
	td_group_counts_free(&k->k.cur);
	free(k->k.unbound);
	free(k);
}
