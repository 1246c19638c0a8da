/* hotspots_data: samples_hot rows grouped into nodes, threads, functions
 * and lines (hotspots_data.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hotspots_data.h"
#include "report_data.h"

struct loader {
	struct td_hotspots *h;
	bool per_thread;
	long tid;
	bool oom;
};

static bool same(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static char *dup_or_null(const char *v, bool *oom)
{
	char *d;

	if (!v)
		return NULL;
	if (!(d = strdup(v)))
		*oom = true;
	return d;
}

static struct td_hot_group *group_of(struct loader *l, const struct td_hot_row *r)
{
	struct td_hotspots *h = l->h;
	struct td_hot_group *g;

	for (int i = 0; i < h->ngroups; i++) {
		g = &h->groups[i];
		if (same(g->node, r->node) && (!l->per_thread || g->tid == r->tid))
			return g;
	}
	if (!(g = td_array_push(&h->groups, &h->ngroups, sizeof(*g))))
		return NULL;
	g->node = dup_or_null(r->node, &l->oom);
	if (l->per_thread) {
		g->pid = r->pid;
		g->tid = r->tid;
		snprintf(g->comm, sizeof(g->comm), "%s", r->comm);
	}
	return g;
}

static struct td_hot_function *function_of(struct loader *l, struct td_hot_group *g, const struct td_hot_row *r)
{
	struct td_hot_function *f;

	for (int i = 0; i < g->nfns; i++)
		if (!strcmp(g->fns[i].function, r->function) && !strcmp(g->fns[i].module, r->module))
			return &g->fns[i];
	if (!(f = td_array_push(&g->fns, &g->nfns, sizeof(*f))))
		return NULL;
	f->function = dup_or_null(r->function, &l->oom);
	f->module = dup_or_null(r->module, &l->oom);
	return f;
}

static int add_row(const struct td_hot_row *r, void *ctx)
{
	struct loader *l = ctx;
	struct td_hot_group *g;
	struct td_hot_function *f;
	struct td_hot_line *ln = NULL;

	if (l->tid > 0 && r->tid != l->tid)
		return 0;
	if (!(g = group_of(l, r)) || !(f = function_of(l, g, r))) {
		l->oom = true;
		return 1;
	}
	for (int i = 0; i < f->nlines; i++)
		if (same(f->lines[i].file, r->file) && f->lines[i].line == r->line)
			ln = &f->lines[i];
	if (!ln) {
		if (!(ln = td_array_push(&f->lines, &f->nlines, sizeof(*ln)))) {
			l->oom = true;
			return 1;
		}
		ln->file = dup_or_null(r->file, &l->oom);
		ln->line = r->line;
	}
	ln->samples += r->count;
	f->samples += r->count;
	g->samples += r->count;
	l->h->stored += r->count;
	return l->oom;
}

static int by_line(const void *a, const void *b)
{
	const struct td_hot_line *x = a, *y = b;
	return x->samples != y->samples ? (x->samples < y->samples ? 1 : -1) : (x->line - y->line);
}

static int by_function(const void *a, const void *b)
{
	const struct td_hot_function *x = a, *y = b;
	return x->samples != y->samples ? (x->samples < y->samples ? 1 : -1) : strcmp(x->function, y->function);
}

/* time-based first, then nodes by name; threads by samples, most first */
static int by_group(const void *a, const void *b)
{
	const struct td_hot_group *x = a, *y = b;

	if (!same(x->node, y->node))
		return !x->node ? -1 : !y->node ? 1 : strcmp(x->node, y->node);
	if (x->samples != y->samples)
		return x->samples < y->samples ? 1 : -1;
	return x->tid - y->tid;
}

int td_hotspots_load(struct td_store *st, int64_t session, bool per_thread, long tid, struct td_hotspots *h,
		     td_err *err)
{
	return td_hotspots_load_range(st, session, per_thread, tid, 0, -1, h, err);
}

struct window {
	const struct td_report_filter *f;
	uint64_t first_ns;
	int first, last, n;
};

static int keep_seq(int seq, uint64_t start_ns, uint64_t end_ns, void *ctx)
{
	struct window *w = ctx;

	if (!td_report_filter_keeps_interval(w->f, w->first_ns, start_ns, end_ns))
		return 0;
	if (w->n++ == 0)
		w->first = seq;
	w->last = seq;
	return 0;
}

int td_hotspots_window(struct td_store *st, int64_t session, const struct td_report_filter *f, int *first, int *last,
		       td_err *err)
{
	struct td_session_header hd;
	struct window w = { .f = f };

	*first = 0;
	*last = -1;
	if (!f || !f->window)
		return 0;
	if (td_store_session_header(st, session, &hd)) {
		td_err_set(err, "cannot read session %lld: %s", (long long)session, td_store_errmsg(st));
		return -1;
	}
	if (hd.last_ns <= hd.first_ns) {
		td_err_set(err, "session %lld recorded no interval times: --from/--to need them", (long long)session);
		return 1;
	}
	w.first_ns = hd.first_ns;
	if (td_store_interval_seqs(st, session, keep_seq, &w)) {
		td_err_set(err, "cannot read the intervals of session %lld: %s", (long long)session,
			   td_store_errmsg(st));
		return -1;
	}
	if (w.n == 0) {
		char to[32];
		if (isinf(f->to))
			snprintf(to, sizeof(to), "the end");
		else
			snprintf(to, sizeof(to), "%.3f s", f->to);
		td_err_set(err, "session %lld has no interval between %.3f s and %s: its intervals cover 0 to %.3f s",
			   (long long)session, f->from, to, (double)(hd.last_ns - hd.first_ns) / 1e9);
		return 1;
	}
	*first = w.first;
	*last = w.last;
	return 0;
}

int td_hotspots_load_range(struct td_store *st, int64_t session, bool per_thread, long tid, int first, int last,
			   struct td_hotspots *h, td_err *err)
{
	struct loader l = { .h = h, .per_thread = per_thread, .tid = tid };
	int rc;

	memset(h, 0, sizeof(*h));
	h->first_seq = first;
	h->last_seq = last;
	rc = td_store_sampling(st, session, &h->s);
	if (rc < 0) {
		td_err_set(err, "cannot read the hotspots of session %lld: %s", (long long)session,
			   td_store_errmsg(st));
		return -1;
	}
	if (rc == 0)
		return 0;
	h->sampled = true;
	rc = td_store_hot_rows(st, session, first, last, add_row, &l);
	if (rc < 0 || l.oom) {
		td_err_set(err, "cannot read the hotspots of session %lld: %s", (long long)session,
			   l.oom ? "out of memory" : td_store_errmsg(st));
		td_hotspots_free(h);
		return -1;
	}
	for (int i = 0; i < h->ngroups; i++) {
		struct td_hot_group *g = &h->groups[i];
		for (int k = 0; k < g->nfns; k++)
			qsort(g->fns[k].lines, (size_t)g->fns[k].nlines, sizeof(*g->fns[k].lines), by_line);
		qsort(g->fns, (size_t)g->nfns, sizeof(*g->fns), by_function);
	}
	qsort(h->groups, (size_t)h->ngroups, sizeof(*h->groups), by_group);
	return 0;
}

static int add_stack(const char *node, pid_t tid, const char *comm, const char *stack, uint64_t count, void *ctx)
{
	struct td_hotspots *h = ctx;
	struct td_hot_stack *s = td_array_push(&h->stacks, &h->nstacks, sizeof(*s));
	bool oom = false;

	(void)tid;
	(void)comm;
	if (!s)
		return 1;
	s->node = dup_or_null(node, &oom);
	s->stack = dup_or_null(stack, &oom);
	s->samples = count;
	return oom;
}

int td_hotspots_load_stacks(struct td_store *st, int64_t session, struct td_hotspots *h, td_err *err)
{
	if (td_store_hot_stacks(st, session, h->first_seq, h->last_seq, false, add_stack, h)) {
		td_err_set(err, "cannot read the call stacks of session %lld: %s", (long long)session,
			   td_store_errmsg(st));
		return -1;
	}
	return 0;
}

void td_hotspots_free(struct td_hotspots *h)
{
	for (int i = 0; i < h->nstacks; i++) {
		free(h->stacks[i].node);
		free(h->stacks[i].stack);
	}
	free(h->stacks);
	for (int i = 0; i < h->ngroups; i++) {
		struct td_hot_group *g = &h->groups[i];
		for (int k = 0; k < g->nfns; k++) {
			for (int j = 0; j < g->fns[k].nlines; j++)
				free(g->fns[k].lines[j].file);
			free(g->fns[k].lines);
			free(g->fns[k].function);
			free(g->fns[k].module);
		}
		free(g->fns);
		free(g->node);
	}
	free(h->groups);
	memset(h, 0, sizeof(*h));
}
