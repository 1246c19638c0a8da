/* live_metrics: per-interval metric values while collecting (see live_metrics.h). */
#include "live_metrics.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h> /* malloc_trim */
#endif

#include "model/catalog.h"
#include "eval/group_counts.h"
#include "store/metric_writer.h"
#include "eval/evaluator.h"
#include "model/model.h"

#define LIVE_MAX_FILES 5 /* software.td, generic.td or a model file, -e events; a spare */

/* One target's scaled counts and coverages in the current interval. */
struct tgt {
	int64_t id;
	pid_t pid;	/* thread: its process (aggregate); 0 otherwise */
	pid_t tid;	/* thread */
	int cpu;	/* CPU target: its number; -1 otherwise */
	int64_t agg[2]; /* aggregate targets (CPU: core, socket), 0 none */
	char comm[32];
	struct td_group_counts c; /* per group and alias; NaN: not delivered / not counted */
	bool ready;		  /* c allocated */
};

struct live_file {
	struct td_catalog *cat;
	struct td_model *model;
	struct td_evaluator *ev;
	struct td_evaluation out;
	struct td_metric_writer *w;
	int n;	     /* aliases */
	int ngroups; /* the file's perf groups */
	struct tgt *t;
	int nt, cap;
	int *slot;		    /* the interval's targets by id: index + 1 in t, 0 empty (open addressing) */
	int nslots;		    /* a power of two, at least twice nt; 0 before the first target */
	struct td_group_counts sum; /* aggregate scratch */
};

struct proc_target {
	pid_t pid;
	int64_t id;
	char comm[32]; /* a thread's of its own, once one delivered ("(unlisted)" until then) */
	bool named;
};

struct td_live {
	struct td_store *s;
	int64_t session;
	int smt, num_cpus;
	struct live_file f[LIVE_MAX_FILES];
	int nf;
	struct proc_target *procs;
	int nprocs;
	int spanning;
	bool each_target;	/* write leaf targets (threads, CPUs) too */
	td_live_print_fn print; /* NULL: nothing printed */
	void *print_ctx;
	bool print_leaves;
	td_live_print_fn watch; /* every process's values (td_live_set_watch); NULL: none */
	void *watch_ctx;
	bool print_tree; /* hand over every process summed too */
	int seq;	 /* the interval being flushed */
	double seconds;
	double elapsed;	  /* every interval's length summed, this one's included (printed or not) */
	double committed; /* elapsed as of the last commit (td_live_committed) */
};

struct td_live *td_live_new(struct td_store *s, int64_t session, int smt, int num_cpus, bool each_target)
{
	struct td_live *l = calloc(1, sizeof(*l));

	if (!l)
		return NULL;
	l->s = s;
	l->session = session;
	l->smt = smt;
	l->num_cpus = num_cpus;
	l->each_target = each_target;
	return l;
}

static void file_free(struct live_file *f)
{
	for (int i = 0; i < f->cap; i++)
		if (f->t[i].ready)
			td_group_counts_free(&f->t[i].c);
	free(f->t);
	free(f->slot);
	td_group_counts_free(&f->sum);
	td_metric_writer_free(f->w);
	td_evaluation_free(&f->out);
	td_evaluator_free(f->ev);
	td_model_free(f->model);
	td_catalog_free(f->cat);
}

void td_live_free(struct td_live *l)
{
	if (!l)
		return;
	for (int i = 0; i < l->nf; i++)
		file_free(&l->f[i]);
	free(l->procs);
	free(l);
}

void td_live_set_printer(struct td_live *l, td_live_print_fn fn, void *ctx, bool leaves)
{
	l->print = fn;
	l->print_ctx = ctx;
	l->print_leaves = leaves;
}

void td_live_set_watch(struct td_live *l, td_live_print_fn fn, void *ctx)
{
	l->watch = fn;
	l->watch_ctx = ctx;
}

void td_live_print_tree(struct td_live *l)
{
	l->print_tree = true;
}

/* cat not NULL: that catalog, and model (NULL: compiled here), both taken over; else text
 * NULL: the file at path; else that text, named path. Metric names get prefix. */
static int add_file(struct td_live *l, const char *path, char *text, struct td_catalog *cat, struct td_model *model,
		    const char *prefix, int ngroups, td_err *err)
{
	struct live_file *f = &l->f[l->nf];

	if (l->nf == LIVE_MAX_FILES) {
		td_err_set(err, "more than %d events files", LIVE_MAX_FILES);
		td_model_free(model);
		td_catalog_free(cat);
		return -1;
	}
	memset(f, 0, sizeof(*f));
	f->cat = cat;
	f->model = model;
	if ((!cat && (text ? td_catalog_parse_text(path, text, &f->cat, err) : td_catalog_load(path, &f->cat, err))) ||
	    (!model && td_model_compile(f->cat, &f->model, err)))
		goto fail;
	f->n = f->cat->nevents;
	f->ngroups = ngroups > 0 ? ngroups : 1;
	if (!(f->ev = td_evaluator_new(f->model, l->smt, l->num_cpus)) || td_evaluation_init(&f->out, f->model) ||
	    td_group_counts_init(&f->sum, f->n, f->ngroups)) {
		td_err_set(err, "out of memory");
		goto fail;
	}
	if (td_metric_writer_new_prefixed(l->s, f->model, prefix, &f->w, err))
		goto fail;
	return l->nf++;
fail:
	file_free(f);
	memset(f, 0, sizeof(*f));
	return -1;
}

int td_live_add_file(struct td_live *l, const char *path, int ngroups, td_err *err)
{
	return add_file(l, path, NULL, NULL, NULL, "", ngroups, err);
}

int td_live_add_file_prefixed(struct td_live *l, const char *path, const char *prefix, int ngroups, td_err *err)
{
	return add_file(l, path, NULL, NULL, NULL, prefix, ngroups, err);
}

int td_live_add_catalog(struct td_live *l, struct td_catalog *cat, struct td_model *model, const char *prefix,
			int ngroups, td_err *err)
{
	return add_file(l, cat->path, NULL, cat, model, prefix, ngroups, err);
}

int td_live_add_text(struct td_live *l, const char *name, char *text, int ngroups, td_err *err)
{
	return add_file(l, name, text, NULL, NULL, "", ngroups, err);
}

int td_live_alias(const struct td_live *l, int file, const char *name)
{
	const struct live_file *f = &l->f[file];

	for (int i = 0; i < f->n; i++)
		if (!strcmp(f->cat->events[i].alias, name))
			return i;
	return -1;
}

static unsigned slot_of(const struct live_file *f, int64_t id)
{
	return (unsigned)(((uint64_t)id * 0x9e3779b97f4a7c15ull) >> 32) & (unsigned)(f->nslots - 1);
}

/* Where target id's index is (or goes) in f->slot. */
static int *find_slot(const struct live_file *f, int64_t id)
{
	unsigned i = slot_of(f, id);

	while (f->slot[i] && f->t[f->slot[i] - 1].id != id)
		i = (i + 1) & (unsigned)(f->nslots - 1);
	return &f->slot[i];
}

/* Room in the index for one more target: at most half full. */
static int index_reserve(struct live_file *f)
{
	if (2 * (f->nt + 1) <= f->nslots)
		return 0;
	int n = f->nslots ? 2 * f->nslots : 64;
	int *slot = calloc((size_t)n, sizeof(*slot));
	if (!slot)
		return -1;
	free(f->slot);
	f->slot = slot;
	f->nslots = n;
	for (int i = 0; i < f->nt; i++)
		*find_slot(f, f->t[i].id) = i + 1;
	return 0;
}

/* The interval's targets are forgotten (written, or rolled back). */
static void targets_clear(struct live_file *f)
{
	f->nt = 0;
	if (f->slot)
		memset(f->slot, 0, (size_t)f->nslots * sizeof(*f->slot));
}

/* The current interval's entry of a target (created on first use): a
 * lookup by id, as thousands of threads deliver their counts every interval. */
static struct tgt *target_of(struct live_file *f, int64_t id, pid_t pid, pid_t tid, int cpu, const char *comm)
{
	struct tgt *t;
	int *slot;

	if (f->nt > 0 && f->t[f->nt - 1].id == id)
		return &f->t[f->nt - 1];
	if (index_reserve(f))
		return NULL;
	if (*(slot = find_slot(f, id)))
		return &f->t[*slot - 1];
	if (f->nt == f->cap) {
		int ncap = f->cap ? f->cap * 2 : 16;
		struct tgt *n = realloc(f->t, (size_t)ncap * sizeof(*n));
		if (!n)
			return NULL;
		memset(n + f->cap, 0, (size_t)(ncap - f->cap) * sizeof(*n));
		f->t = n;
		f->cap = ncap;
	}
	t = &f->t[f->nt];
	if (!t->ready && td_group_counts_init(&t->c, f->n, f->ngroups))
		return NULL;
	t->ready = true;
	td_group_counts_clear(&t->c);
	t->id = id;
	t->pid = pid;
	t->tid = tid;
	t->cpu = cpu;
	t->agg[0] = t->agg[1] = 0;
	size_t len =
		comm ? strnlen(comm, sizeof(t->comm) - 1) : 0; /* as snprintf would cut it, at a fraction of its cost */
	memcpy(t->comm, comm ? comm : "", len);
	t->comm[len] = '\0';
	*slot = ++f->nt;
	return t;
}

int td_live_count(struct td_live *l, int file, int64_t thread, pid_t pid, pid_t tid, const char *comm, int alias,
		  int group, const struct td_count *c)
{
	struct live_file *f = &l->f[file];
	struct tgt *t;

	if (alias < 0 || alias >= f->n)
		return 0;
	if (!(t = target_of(f, thread, pid, tid, -1, comm)))
		return -1;
	td_group_counts_add_row(&t->c, group, alias, c->value, c->enabled, c->running);
	return 0;
}

int td_live_count_agg(struct td_live *l, int file, int64_t target, int cpu, const int64_t agg[2], int alias, int group,
		      const struct td_count *c)
{
	struct live_file *f = &l->f[file];
	struct tgt *t;

	if (alias < 0 || alias >= f->n)
		return 0;
	if (!(t = target_of(f, target, 0, 0, cpu, NULL)))
		return -1;
	t->agg[0] = agg[0];
	t->agg[1] = agg[1];
	td_group_counts_add_row(&t->c, group, alias, c->value, c->enabled, c->running);
	return 0;
}

/* The process target of pid, added to the store when first seen; named by
 * t, or by a thread of its own when t is its unlisted remainder (tid 0). */
static struct proc_target *process_target(struct td_live *l, pid_t pid, const struct tgt *t)
{
	struct proc_target *p = NULL;

	for (int i = 0; i < l->nprocs && !p; i++)
		if (l->procs[i].pid == pid)
			p = &l->procs[i];
	if (!p) {
		if (!(p = td_array_push(&l->procs, &l->nprocs, sizeof(*l->procs))))
			return NULL;
		p->pid = pid;
		snprintf(p->comm, sizeof(p->comm), "%s", t->comm);
		p->named = t->tid != 0;
		if ((p->id = td_store_target_add(l->s, l->session, "process", pid, p->comm, NULL)) < 0) {
			l->nprocs--;
			return NULL;
		}
	} else if (!p->named && t->tid != 0) {
		snprintf(p->comm, sizeof(p->comm), "%s", t->comm);
		p->named = true;
	}
	return p;
}

/* Evaluate c; write it for target (unless 0) and print it as kind (unless NULL). */
static int write_one(struct td_live *l, struct live_file *f, int64_t interval, int64_t target,
		     const struct td_group_counts *c, double seconds, const char *kind, const struct tgt *who)
{
	int spans = 0;

	if (td_evaluate(f->ev, c, seconds, &f->out))
		return -1;
	if (target && td_metric_writer_write(f->w, interval, target, &f->out, &spans))
		return -1;
	if (spans > l->spanning)
		l->spanning = spans;
	if (kind && (l->print || (l->watch && !strcmp(kind, "process")))) {
		const char *slash = strrchr(f->cat->path, '/');
		struct td_live_value v = {
			.seq = l->seq,
			.seconds = seconds,
			.elapsed = l->elapsed,
			.file = slash ? slash + 1 : f->cat->path,
			.model = f->model,
			.ev = &f->out,
			.kind = kind,
			.pid = who ? who->pid : 0,
			.tid = who ? who->tid : 0,
			.cpu = who ? who->cpu : -1,
			.comm = who ? who->comm : "",
		};
		if (l->print)
			l->print(l->print_ctx, &v);
		if (l->watch && !strcmp(kind, "process"))
			l->watch(l->watch_ctx, &v);
	}
	return 0;
}

/* Aggregation key of target t for slot k: 0 process (by pid), 1 and 2 agg[0], agg[1]. */
static int64_t key_of(const struct tgt *t, int k)
{
	return k == 0 ? (int64_t)t->pid : t->agg[k - 1];
}

/* Sum the targets sharing target i's key (i the first of them), then
 * evaluate once; coverage is the least over them. */
static int write_aggregate(struct td_live *l, struct live_file *f, int64_t interval, double seconds, int i, int k)
{
	int64_t key = key_of(&f->t[i], k);

	if (key == 0)
		return 0;
	for (int j = 0; j < i; j++)
		if (key_of(&f->t[j], k) == key)
			return 0; /* done with the first target of this key */
	td_group_counts_zero(&f->sum);
	for (int j = i; j < f->nt; j++)
		if (key_of(&f->t[j], k) == key)
			td_group_counts_add(&f->sum, &f->t[j].c);
	if (k != 0)
		return write_one(l, f, interval, key, &f->sum, seconds, NULL, &f->t[i]);
	/* a process is named by a thread of its own, not by the remainder of its unlisted threads
	 * (tid 0, "(unlisted)"), which may be all an interval delivered */
	int named = i;
	for (int j = i; j < f->nt && f->t[named].tid == 0; j++)
		if (key_of(&f->t[j], k) == key && f->t[j].tid != 0)
			named = j;
	struct proc_target *p = process_target(l, (pid_t)key, &f->t[named]);
	if (!p)
		return -1;
	struct tgt who = { .pid = p->pid, .tid = 0, .cpu = -1 };
	memcpy(who.comm, p->comm, sizeof(who.comm));
	return write_one(l, f, interval, p->id, &f->sum, seconds, "process", &who);
}

/* A target no aggregate covers (a cgroup; a CPU of unknown socket): its
 * own values are the only ones, always written. */
static bool is_whole(const struct tgt *t)
{
	return t->pid == 0 && t->agg[0] == 0 && t->agg[1] == 0;
}

static int cmp_target(const void *a, const void *b)
{
	int64_t x = ((const struct tgt *)a)->id, y = ((const struct tgt *)b)->id;

	return (x > y) - (x < y);
}

/* Printing only: every CPU target summed (a system session's "all CPUs"). */
static int print_all_cpus(struct td_live *l, struct live_file *f, double seconds)
{
	int n = 0;

	td_group_counts_zero(&f->sum);
	for (int j = 0; j < f->nt; j++)
		if (f->t[j].cpu >= 0) {
			td_group_counts_add(&f->sum, &f->t[j].c);
			n++;
		}
	return n ? write_one(l, f, 0, 0, &f->sum, seconds, "cpus", NULL) : 0;
}

/* Printing only: every process's targets summed (an attach with its children). */
static int print_tree(struct td_live *l, struct live_file *f, double seconds)
{
	int n = 0;

	td_group_counts_zero(&f->sum);
	for (int j = 0; j < f->nt; j++)
		if (f->t[j].pid > 0) {
			td_group_counts_add(&f->sum, &f->t[j].c);
			n++;
		}
	return n ? write_one(l, f, 0, 0, &f->sum, seconds, "tree", NULL) : 0;
}

static const char *leaf_kind(const struct tgt *t)
{
	return t->pid ? "thread" : t->cpu >= 0 ? "cpu" : "cgroup";
}

/* After an interval that used half of the target slots or less, the slots
 * past the ones it used lose their counts and the array is halved (not below
 * TGT_KEPT_MIN): a burst of threads in one interval must not hold its memory
 * for the rest of a session that runs for days. A sampler held up for 400 ms
 * while 1,000 threads a second are born reads 700 targets where 350 is usual;
 * kept, each such burst was a step of RSS in a soak. An interval of steady size
 * frees nothing: it uses more than half of what it grew to. */
#define TGT_KEPT_MIN 16
#define TGT_TRIM_SLOTS 64 /* slots freed at once: worth handing the pages back */
static void shrink_targets(struct live_file *f, int used)
{
	int keep = f->cap / 2, freed = 0;
	struct tgt *n;

	if (f->cap <= TGT_KEPT_MIN || used > keep)
		return;
	for (int i = used; i < f->cap; i++)
		if (f->t[i].ready) {
			td_group_counts_free(&f->t[i].c);
			f->t[i].ready = false;
			freed++;
		}
	if ((n = realloc(f->t, (size_t)keep * sizeof(*n))))
		f->t = n; /* else the block stays as large; its tail is unused */
	f->cap = keep;
	/* the index was sized for the burst too: built again, as small as the next interval needs */
	free(f->slot);
	f->slot = NULL;
	f->nslots = 0;
#ifdef __GLIBC__
	/* glibc keeps freed pages inside its heap (and raises its trim threshold
	 * after freeing a large block): without this a burst's pages stay in the
	 * collector's RSS */
	if (freed >= TGT_TRIM_SLOTS)
		malloc_trim(0);
#endif
}

/* A file that no target of the interval delivered a count to (every group of
 * the unlisted remainder's or the listed threads' left out: the final read
 * after the last thread went, an interval in which no thread was read) is
 * still evaluated: each target the other files had is handed over with no
 * counts (every value n/a), as analysis/session_counts.c hands the interval's
 * targets to recompute and the reports when none has a row the file reads
 * (the interval still happened). A file some target delivered to leaves the
 * others out, there as here. */
static int hand_over_empty(struct td_live *l)
{
	bool had[LIVE_MAX_FILES];

	for (int fi = 0; fi < l->nf; fi++)
		had[fi] = l->f[fi].nt > 0;
	for (int fi = 0; fi < l->nf; fi++)
		for (int fj = 0; !had[fi] && fj < l->nf; fj++)
			for (int i = 0; had[fj] && i < l->f[fj].nt; i++) {
				const struct tgt *o = &l->f[fj].t[i];
				struct tgt *t = target_of(&l->f[fi], o->id, o->pid, o->tid, o->cpu, o->comm);
				if (!t)
					return -1;
				t->agg[0] = o->agg[0];
				t->agg[1] = o->agg[1];
			}
	return 0;
}

int td_live_flush(struct td_live *l, int64_t interval, int seq, double seconds)
{
	l->seq = seq;
	l->seconds = seconds;
	l->elapsed += seconds;
	if (hand_over_empty(l))
		return -1;
	for (int fi = 0; fi < l->nf; fi++) {
		struct live_file *f = &l->f[fi];
		/* in target order, as recompute and reports read them back: sums in the same order are the same bits */
		qsort(f->t, (size_t)f->nt, sizeof(*f->t), cmp_target);
		for (int i = 0; i < f->nt; i++) {
			const struct tgt *t = &f->t[i];
			bool write = is_whole(t) || l->each_target;
			bool print = l->print && (is_whole(t) || l->print_leaves);
			if ((write || print) && write_one(l, f, interval, write ? t->id : 0, &t->c, seconds,
							  print ? leaf_kind(t) : NULL, t))
				return -1;
		}
		for (int k = 0; k < 3; k++)
			for (int i = 0; i < f->nt; i++)
				if (write_aggregate(l, f, interval, seconds, i, k))
					return -1;
		if (l->print && print_all_cpus(l, f, seconds))
			return -1;
		if (l->print && l->print_tree && print_tree(l, f, seconds))
			return -1;
		shrink_targets(f, f->nt);
		targets_clear(f);
	}
	return 0;
}

void td_live_committed(struct td_live *l)
{
	l->committed = l->elapsed;
}

void td_live_rollback(struct td_live *l, int64_t above)
{
	int kept = 0;

	l->elapsed = l->committed;

	for (int fi = 0; fi < l->nf; fi++)
		targets_clear(&l->f[fi]);
	for (int i = 0; i < l->nprocs; i++)
		if (l->procs[i].id <= above)
			l->procs[kept++] = l->procs[i];
	l->nprocs = kept;
}

int td_live_spanning(const struct td_live *l)
{
	return l->spanning;
}
