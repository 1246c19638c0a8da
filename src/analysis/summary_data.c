/* summary_data: a session's per-process and per-thread summary, evaluated
 * (see summary_data.h). */
#include "summary_data.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/tid_map.h"
#include "eval/evaluator.h"
#include "eval/group_counts.h"
#include "model/catalog.h"
#include "model/model.h"
#include "session_counts.h"

/* The events files the summary evaluates, and the info metric of each column. */
enum {
	SOFTWARE,
	GENERIC,
	NFILES
};
static const char *const file_name[NFILES] = { "software.td", "generic.td" };
static const struct {
	int file;
	const char *info;
} col_info[TD_SUM_NCOLS] = {
	[TD_SUM_CPU_TIME] = { SOFTWARE, "CPU_Time" },
	[TD_SUM_UTILIZATION] = { SOFTWARE, "CPU_Utilization" },
	[TD_SUM_SWITCHES] = { SOFTWARE, "Switches_per_s" },
	[TD_SUM_VOLUNTARY] = { -1, NULL },
	[TD_SUM_INVOLUNTARY] = { -1, NULL },
	[TD_SUM_MIGRATIONS] = { SOFTWARE, "Migrations_per_s" },
	[TD_SUM_FAULTS] = { SOFTWARE, "Faults_per_s" },
	[TD_SUM_MAJOR_FAULTS] = { SOFTWARE, "Major_Faults_per_s" },
	[TD_SUM_IPC] = { GENERIC, "IPC" },
};
/* The /proc rows the session writes for each thread (session_sink.c). */
static const char *const proc_event[2] = { "VOLUNTARY_SWITCHES", "INVOLUNTARY_SWITCHES" };

struct thread {
	int64_t id; /* first member: td_find_by_id over `by_id` */
	int row;    /* its row in the summary (by_id: its index in threads) */
	uint64_t first_ns, last_ns;
	struct td_group_counts c[NFILES];
	double proc[2];	  /* /proc switch totals; NaN: an interval not counted */
	int proc_rows[2]; /* rows of them (none: not recorded, n/c) */
	bool counted[NFILES];
	bool any; /* some target call delivered its counts (its row is counted) */
	uint64_t window_ns;
	/* with a time window: the spans of the kept intervals it was counted in */ /* some interval delivered counts of the file */
};

struct file {
	struct td_catalog *cat;
	struct td_model *model;
	struct td_evaluator *ev; /* NULL: the file could not be read */
	struct td_evaluation out;
	int ngroups;
	int col_index[TD_SUM_NCOLS]; /* info index of each column read from this file, -1 */
};

struct load {
	struct td_summary *sum;
	const struct td_report_filter *f;
	uint64_t first_ns;     /* start of the session's first interval (the window's origin) */
	uint64_t window_ns;    /* with a window: the kept intervals' spans */
	int64_t last_interval; /* the last interval counted into window_ns */
	pid_t main_pid;	       /* the last main thread seen (tid == pid), filtered or not... */
	char main_comm[32];    /* ...and its comm: the process's name */
	struct td_session_meta meta;
	struct thread *threads; /* in the order of their rows (pid, tid) */
	struct thread *by_id;	/* id and index into threads, sorted by id */
	struct thread *last;	/* the last found by thread_of (each walk's rows come target by target) */
	int nthreads;
	/* target id - id_base -> index into threads + 1 (0: none), where the ids span a
	 * range of at most a few times as many ids as rows (else NULL: by_id's search) */
	int *by_offset;
	int64_t id_base;
	size_t id_span;
	/* software.td's bound events (rows in id order): which /proc total each feeds, -1 none */
	const struct td_session_event *proc_evs;
	signed char *proc_of;
	struct other { /* add_other: a cgroup or `whole`, made a row after the CPUs */
		int64_t id;
		char *label;
	} * others;
	int nothers;
	bool system_row; /* the group row of the CPUs is made */
	/* the live accumulator's (sum NULL): its targets by id, index + 1 */
	struct td_tid_map *live_ids;
	int nfiles_bound;		    /* files whose c[] a new target gets */
	const struct file *live_files;	    /* their sizes */
	const struct td_tid_map *committed; /* td_summary_load_live: the targets with committed rows */
};

/* ---- threads and rows ------------------------------------------------------------ */

static struct td_summary_row *new_row(struct td_summary *sum, pid_t pid, const char *comm)
{
	struct td_summary_row *n = td_array_push(&sum->rows, &sum->nrows, sizeof(*sum->rows));

	if (!n)
		return NULL;
	n->pid = pid;
	snprintf(n->comm, sizeof(n->comm), "%s", comm);
	for (int c = 0; c < TD_SUM_NCOLS; c++)
		n->v[c] = NAN;
	return n;
}

/* One callback per thread with counts, in pid, tid order: a row for each
 * process (its total) before the rows of its threads. */
static int add_thread(const struct td_thread_total *t, void *ctx)
{
	struct load *L = ctx;
	struct td_summary *sum = L->sum;
	struct td_summary_row *row;
	struct thread *th;

	if (L->nthreads && L->threads[L->nthreads - 1].id == t->thread)
		return 0;
	if (L->committed && !td_tid_map_get(L->committed, (uint32_t)t->thread))
		return 0; /* no committed count of it */
	if (t->tid == t->pid) {
		L->main_pid = t->pid;
		snprintf(L->main_comm, sizeof(L->main_comm), "%s", t->comm);
	}
	if (L->f && !td_report_filter_keeps(L->f, &(struct td_target_info){
							  .kind = "thread", .pid = t->pid, .tid = t->tid, .cpu = -1 }))
		return 0;
	if (sum->nrows == 0 || sum->rows[sum->nrows - 1].pid != t->pid) {
		if (!new_row(sum, t->pid, L->main_pid == t->pid ? L->main_comm : t->comm))
			return -1;
		sum->nprocesses++;
	}
	if (!(row = new_row(sum, t->pid, t->comm)))
		return -1;
	row->kind = TD_SUM_THREAD;
	row->thread = t->thread;
	row->tid = t->tid;
	row->seconds = t->last_seen_ns > t->first_seen_ns ? (double)(t->last_seen_ns - t->first_seen_ns) / 1e9 : 0;
	if (!(th = td_array_push(&L->threads, &L->nthreads, sizeof(*L->threads))))
		return -1;
	th->id = t->thread;
	th->row = sum->nrows - 1;
	return 0;
}

/* A member row (and its accumulator) for a target that is not a thread. */
static struct td_summary_row *add_member(struct load *L, enum td_summary_kind kind, int64_t id)
{
	struct td_summary_row *row = new_row(L->sum, 0, "");
	struct thread *th;

	if (!row || !(th = td_array_push(&L->threads, &L->nthreads, sizeof(*L->threads))))
		return NULL;
	row->kind = kind;
	row->thread = id;
	th->id = id;
	th->row = L->sum->nrows - 1;
	return row;
}

/* Every online CPU's target a row as it comes; a cgroup or `whole` kept for
 * add_others (their rows follow the CPUs'). */
static int add_other(const struct td_target_info *t, void *ctx)
{
	struct load *L = ctx;
	struct td_summary *sum = L->sum;
	struct td_summary_row *row;
	bool cpu = !strcmp(t->kind, "cpu") && t->cpu >= 0;

	if (L->f && !td_report_filter_keeps(L->f, t))
		return 0;
	if (cpu) {
		if (!L->system_row) {
			if (!(row = new_row(sum, 0, "")))
				return -1;
			row->kind = TD_SUM_SYSTEM;
			L->system_row = true;
		}
		if (!(row = add_member(L, TD_SUM_CPU, t->id)))
			return -1;
		row->tid = t->cpu;
		snprintf(row->comm, sizeof(row->comm), "cpu%d", t->cpu);
	} else if (!strcmp(t->kind, "cgroup") || !strcmp(t->kind, "whole")) {
		char label[4200]; /* cgroup: and a path */
		struct other *o = td_array_push(&L->others, &L->nothers, sizeof(*L->others));
		if (!o)
			return -1;
		td_target_label(t, label, sizeof(label));
		o->id = t->id;
		if (!(o->label = strdup(label)))
			return -1;
	}
	return 0;
}

static int add_others(struct load *L)
{
	for (int i = 0; i < L->nothers; i++) {
		struct td_summary_row *row = new_row(L->sum, 0, "");
		if (!row)
			return -1;
		row->kind = TD_SUM_OTHER;
		row->label = L->others[i].label; /* the row's now */
		L->others[i].label = NULL;
		if (!add_member(L, TD_SUM_MEMBER, L->others[i].id))
			return -1;
	}
	return 0;
}

static int cmp_id(const void *a, const void *b)
{
	int64_t x = ((const struct thread *)a)->id, y = ((const struct thread *)b)->id;

	return (x > y) - (x < y);
}

static int index_threads(struct load *L)
{
	if (!(L->by_id = malloc(((size_t)L->nthreads + 1) * sizeof(*L->by_id))))
		return -1;
	for (int i = 0; i < L->nthreads; i++)
		L->by_id[i] = (struct thread){ .id = L->threads[i].id, .row = i };
	qsort(L->by_id, (size_t)L->nthreads, sizeof(*L->by_id), cmp_id);
	if (L->nthreads) { /* a session's targets are numbered together: a table by offset */
		uint64_t span = (uint64_t)(L->by_id[L->nthreads - 1].id - L->by_id[0].id) + 1;
		if (span <= 4 * (uint64_t)L->nthreads + 4096 && (L->by_offset = calloc(span, sizeof(int)))) {
			L->id_base = L->by_id[0].id;
			L->id_span = (size_t)span;
			for (int i = 0; i < L->nthreads; i++)
				L->by_offset[L->by_id[i].id - L->id_base] = L->by_id[i].row + 1;
		}
	}
	return 0;
}

/* ---- walking counts ------------------------------------------------------------ */

/* One file's walk: the load and which file it reads. */
struct file_walk {
	struct load *L;
	int file;
};

static struct thread *live_thread(struct load *L, int64_t id);

static struct thread *thread_of(struct load *L, int64_t id)
{
	struct thread *t;

	if (L->last && L->last->id == id)
		return L->last;
	if (L->live_ids)
		return L->last = live_thread(L, id);
	if (L->by_offset) {
		int k = id >= L->id_base && (uint64_t)(id - L->id_base) < L->id_span ? L->by_offset[id - L->id_base]
										     : 0;
		return k ? (L->last = &L->threads[k - 1]) : NULL;
	}
	t = td_find_by_id(L->by_id, (size_t)L->nthreads, sizeof(*L->by_id), id);
	return t ? (L->last = &L->threads[t->row]) : NULL;
}

static int on_row(void *ctx, const struct td_count_row *r, const struct td_session_event *e)
{
	const struct file_walk *fw = ctx;
	struct load *L = fw->L;
	struct thread *t;

	if (fw->file != SOFTWARE || !e)
		return 0;
	int k = L->proc_of[e - L->proc_evs];
	if (k >= 0 && (t = thread_of(L, r->target))) {
		t->proc[k] += td_scale(r->value, r->enabled, r->running); /* NaN sticks */
		t->proc_rows[k]++;
	}
	return 0;
}

static int on_target(void *ctx, const struct td_count_row *r, int64_t target, const struct td_group_counts *c)
{
	const struct file_walk *fw = ctx;
	struct load *L = fw->L;
	struct thread *t = thread_of(L, target);
	uint64_t span = r->end_ns > r->start_ns ? r->end_ns - r->start_ns : 0;

	if (fw->file == SOFTWARE && L->last_interval != r->interval) {
		L->window_ns += span;
		L->last_interval = r->interval;
	}
	if (t) {
		if (L->sum)
			L->sum->rows[t->row].counted = true;
		t->any = true;
		/* one thread's intervals: multiplexed-out ones are gaps; one without a row counted nothing */
		td_group_counts_add_time(&t->c[fw->file], c);
		if (fw->file == SOFTWARE)
			t->window_ns += span; /* one call per (interval, target) */
		t->counted[fw->file] |=
			td_group_counts_any(c); /* handed over empty in every interval: counted nothing */
	}
	return 0;
}

/* --from/--to: the intervals whose midpoint lies in the window. */
static bool keep_interval(void *ctx, uint64_t start_ns, uint64_t end_ns)
{
	const struct load *L = ((const struct file_walk *)ctx)->L;

	return !L->f || td_report_filter_keeps_interval(L->f, L->first_ns, start_ns, end_ns);
}

/* ---- evaluating ------------------------------------------------------------------- */

static int info_index(const struct td_model *m, const char *name)
{
	for (int i = 0; i < m->ninfos; i++)
		if (!strcmp(m->infos[i].name, name))
			return i;
	return -1;
}

/* Read file k and bind the session's rows to it (sc: bound, 1; or 0 when the
 * file cannot be read: its columns stay n/c, and the summary says why).
 * -1 with err on a store error or out of memory. */
static bool load_file(const char *dir, int k, struct file *f, char *why_not, size_t len)
{
	char path[1024];
	td_err why;

	snprintf(path, sizeof(path), "%s/%s", dir, file_name[k]);
	if (td_catalog_load(path, &f->cat, &why) || td_model_compile(f->cat, &f->model, &why)) {
		snprintf(why_not, len, "%s", why.msg);
		return false;
	}
	return true;
}

/* The session's rows bound to file k, read (L->meta read): its evaluator
 * made and the threads' sums sized. */
static int bind_rows(struct load *L, struct td_store *s, int64_t session, int k, struct file *f,
		     struct td_session_counts *sc, td_err *err)
{
	if (td_session_counts_bind(sc, s, session, f->cat, file_name[k], k == GENERIC ? L->meta.pmu_model : NULL, err))
		return -1;
	f->ngroups = sc->ngroups;
	if (k == SOFTWARE) { /* the /proc rows by event, named once */
		if (!(L->proc_of = malloc((size_t)sc->nevs + 1)))
			return -1;
		L->proc_evs = sc->evs;
		for (int i = 0; i < sc->nevs; i++) {
			L->proc_of[i] = -1;
			for (int p = 0; p < 2; p++)
				if (!strcmp(sc->evs[i].name, proc_event[p]))
					L->proc_of[i] = (signed char)p;
		}
	}
	for (int c = 0; c < TD_SUM_NCOLS; c++)
		f->col_index[c] = col_info[c].file == k ? info_index(f->model, col_info[c].info) : -1;
	if (!(f->ev = td_evaluator_new(f->model, L->meta.smt, L->meta.num_cpus)) ||
	    td_evaluation_init(&f->out, f->model))
		return -1;
	for (int i = 0; i < L->nthreads; i++) {
		if (td_group_counts_init(&L->threads[i].c[k], f->cat->nevents, sc->ngroups))
			return -1;
		td_group_counts_zero(&L->threads[i].c[k]);
	}
	return 0;
}

static int bind_file(struct load *L, struct td_store *s, int64_t session, const char *dir, int k, struct file *f,
		     struct td_session_counts *sc, td_err *err)
{
	if (!load_file(dir, k, f, L->sum->why_not_evaluated, sizeof(L->sum->why_not_evaluated)))
		return 0;
	return bind_rows(L, s, session, k, f, sc, err) ? -1 : 1;
}

/* Bind every file that reads, then walk the session's counts once into the
 * threads' sums of each. */
static const struct td_count_walk walk = { .keep_interval = keep_interval, .row = on_row, .target = on_target };

static int walk_files(struct load *L, struct td_store *s, int64_t session, const char *dir, struct file *files,
		      td_err *err)
{
	struct td_session_counts sc[NFILES];
	const struct td_session_counts *bound[NFILES];
	const struct td_count_walk *walks[NFILES];
	struct file_walk fw[NFILES];
	void *ctx[NFILES];
	int n = 0, rc = 0;

	memset(sc, 0, sizeof(sc));
	for (int k = 0; k < NFILES && rc == 0; k++) {
		int b = bind_file(L, s, session, dir, k, &files[k], &sc[k], err);
		if (b < 0)
			rc = -1;
		else if (b) {
			fw[n] = (struct file_walk){ L, k };
			bound[n] = &sc[k];
			walks[n] = &walk;
			ctx[n] = &fw[n];
			n++;
		}
	}
	if (rc == 0 && n)
		rc = td_session_counts_walk_n(bound, n, s, session, walks, ctx);
	for (int k = 0; k < NFILES; k++)
		td_session_counts_free(&sc[k]);
	return rc;
}

/* Evaluate c over seconds and fill the row's columns read from file k. */
static int fill(struct file *f, int k, const struct td_group_counts *c, double seconds, struct td_summary_row *row)
{
	if (td_evaluate(f->ev, c, seconds, &f->out))
		return -1;
	for (int col = 0; col < TD_SUM_NCOLS; col++)
		if (col_info[col].file == k && f->col_index[col] >= 0)
			row->v[col] = f->out.info[f->col_index[col]];
	return 0;
}

/* Each thread over its life, each process (its threads summed) over the session. */
static int evaluate_rows(struct load *L, struct file *files)
{
	struct td_summary *sum = L->sum;
	struct td_group_counts total[NFILES];
	double proc[2] = { 0, 0 };
	int rc = 0, process_row = 0;

	memset(total, 0, sizeof(total));
	for (int k = 0; k < NFILES && !rc; k++)
		if (files[k].ev)
			rc = td_group_counts_init(&total[k], files[k].cat->nevents, files[k].ngroups);
	for (int t = 0; t < L->nthreads && !rc; t++) {
		struct thread *th = &L->threads[t];
		struct td_summary_row *row = &sum->rows[th->row];
		bool last = th->row + 1 == sum->nrows || !sum->rows[th->row + 1].thread;

		if (!sum->rows[th->row - 1].thread) { /* the first thread of a process */
			process_row = th->row - 1;
			for (int k = 0; k < NFILES; k++)
				if (files[k].ev)
					td_group_counts_zero(&total[k]);
			proc[0] = proc[1] = 0;
		}
		for (int k = 0; k < NFILES && !rc; k++) {
			if (!files[k].ev)
				continue;
			if (!th->counted[k])
				td_group_counts_clear(&th->c[k]); /* no interval delivered its counts: not counted */
			else
				td_group_counts_extrapolate(&th->c[k]);
			for (int i = 0; k == GENERIC && i < th->c[k].n * th->c[k].ngroups; i++)
				sum->hw |= !isnan(th->c[k].val[i]);
			td_group_counts_add(&total[k], &th->c[k]);
			rc = fill(&files[k], k, &th->c[k], row->seconds, row);
		}
		sum->rows[process_row].counted |= row->counted;
		for (int k = 0; k < 2; k++) {
			double v = th->proc_rows[k] ? th->proc[k] : NAN;
			row->v[TD_SUM_VOLUNTARY + k] = row->seconds > 0 ? v / row->seconds : NAN;
			proc[k] += v;
		}
		if (!last || rc)
			continue;
		row = &sum->rows[process_row];
		row->seconds = sum->duration;
		for (int k = 0; k < NFILES && !rc; k++)
			if (files[k].ev)
				rc = fill(&files[k], k, &total[k], row->seconds, row);
		for (int k = 0; k < 2; k++)
			row->v[TD_SUM_VOLUNTARY + k] = row->seconds > 0 ? proc[k] / row->seconds : NAN;
	}
	for (int k = 0; k < NFILES; k++)
		td_group_counts_free(&total[k]);
	return rc;
}

/* ---- confidence and refused events ------------------------------------------------- */

static int collect_confidence(const struct td_metric_confidence *m, void *ctx)
{
	struct td_summary *sum = ctx;
	struct td_summary_conf *c = td_array_push(&sum->conf, &sum->nconf, sizeof(*sum->conf));

	if (!c)
		return -1;
	*c = (struct td_summary_conf){ strdup(m->name ? m->name : ""), m->least, (int)m->low, (int)m->total };
	return c->name ? 0 : -1;
}

int td_summary_load_confidence(struct td_store *s, int64_t session, struct td_summary *sum, td_err *err)
{
	if (td_store_metric_confidence(s, session, collect_confidence, sum)) {
		td_err_set(err, "cannot read session %lld's metric values: %s", (long long)session, td_store_errmsg(s));
		return -1;
	}
	return 0;
}

static int collect_failed(const char *names, const char *error, void *ctx)
{
	struct td_summary *sum = ctx;
	struct td_summary_failed *n = td_array_push(&sum->failed, &sum->nfailed, sizeof(*sum->failed));

	if (!n)
		return -1;
	n->names = strdup(names);
	n->error = strdup(error ? error : "");
	return n->names && n->error ? 0 : -1;
}

/* ---- the summary ------------------------------------------------------------------ */

/* With kernel mode excluded the perf counters of switches and migrations
 * (they happen in the kernel) read 0 without having measured anything:
 * switches are /proc's, migrations not counted. */
static void kernel_not_counted(struct td_summary *sum)
{
	for (int i = 0; i < sum->nrows; i++) {
		double *v = sum->rows[i].v;
		v[TD_SUM_SWITCHES] = v[TD_SUM_VOLUNTARY] + v[TD_SUM_INVOLUNTARY]; /* NaN if either is */
		v[TD_SUM_MIGRATIONS] = NAN;
	}
}

/* ---- the live accumulator ------------------------------------------------------- */

struct td_summary_live {
	char *events_dir; /* as given (NULL: td_events_dir()) */
	struct file files[NFILES];
	char why_not[sizeof(((td_err *)0)->msg)]; /* why a file could not be read, "" */
	struct td_session_counts sc[NFILES];
	struct td_count_walker *walker[NFILES]; /* NULL: the file is not walked */
	struct file_walk fw[NFILES];
	struct load L; /* sum NULL: its threads are every target with a committed row */
	struct td_tid_map ids;
	int64_t session; /* 0: not bound yet (no interval committed) */
	/* a file bound to no event of the session (generic.td without a PMU) is not walked:
	 * its walk would hand every target of every interval over empty (all its columns
	 * n/c), which only says the target had a row; the feed says that itself */
	bool every_target_any;
	bool failed;	       /* out of memory, a row lost, a store error: the summary reads back */
	const char *read_back; /* td_summary_load_live: why it read the session back, NULL: it did not */
};

/* A target's sums, made at its first row. */
static struct thread *live_thread(struct load *L, int64_t id)
{
	uintptr_t k;
	struct thread *t;

	if (id <= 0 || id > UINT32_MAX) /* not a row id this session makes */
		return NULL;
	if ((k = td_tid_map_get(L->live_ids, (uint32_t)id)))
		return &L->threads[k - 1];
	if (!(t = td_array_push(&L->threads, &L->nthreads, sizeof(*L->threads))))
		return NULL;
	t->id = id;
	t->row = L->nthreads - 1;
	if (td_tid_map_put(L->live_ids, (uint32_t)id, (uintptr_t)L->nthreads)) {
		L->nthreads--;
		return NULL;
	}
	for (int f = 0; f < NFILES; f++) {
		if (!L->live_files[f].ev)
			continue;
		if (td_group_counts_init(&t->c[f], L->live_files[f].cat->nevents, L->live_files[f].ngroups))
			return NULL; /* freed with the others */
		td_group_counts_zero(&t->c[f]);
	}
	return t;
}

int td_summary_live_new(const char *events_dir, struct td_summary_live **out)
{
	struct td_summary_live *a = calloc(1, sizeof(*a));

	*out = NULL;
	if (!a || (events_dir && !(a->events_dir = strdup(events_dir)))) {
		free(a);
		return -1;
	}
	for (int k = 0; k < NFILES; k++)
		load_file(td_events_dir(events_dir), k, &a->files[k], a->why_not, sizeof(a->why_not));
	a->L.live_ids = &a->ids;
	a->L.live_files = a->files;
	*out = a;
	return 0;
}

/* The first committed interval's session: its events rows bound to the files. */
static int live_bind(struct td_summary_live *a, struct td_store *s, int64_t session)
{
	td_err err;

	a->session = session;
	if (td_store_session_meta(s, session, &a->L.meta))
		return -1;
	for (int k = 0; k < NFILES; k++) {
		if (!a->files[k].model)
			continue;
		if (bind_rows(&a->L, s, session, k, &a->files[k], &a->sc[k], &err))
			return -1;
		if (a->sc[k].bound == 0) {
			a->every_target_any = true;
			continue;
		}
		a->fw[k] = (struct file_walk){ &a->L, k };
		if (!(a->walker[k] = td_count_walker_new(&a->sc[k], &walk, &a->fw[k])))
			return -1;
	}
	return 0;
}

void td_summary_live_feed(void *ctx, struct td_store *s, const struct td_committed_counts *c)
{
	struct td_summary_live *a = ctx;
	const struct td_session_counts *known = NULL;

	if (a->failed)
		return;
	if (c->lost || (!a->session && (c->session <= 0 || live_bind(a, s, c->session)))) {
		a->failed = true;
		return;
	}
	if (c->session != a->session)
		return; /* another session's */
	for (int k = 0; k < NFILES && !known; k++)
		if (a->files[k].ev) /* bound (walked or not) */
			known = &a->sc[k];
	for (size_t i = 0; i < c->n && !a->failed; i++) {
		const struct td_count_row *r = &c->rows[i];
		/* every target with a row is the summary's (td_store_counted_threads'), and every
		 * event was bound at the start: one added since would be read back bound */
		struct thread *t = thread_of(&a->L, r->target);
		if (!t || (known && !td_session_event_of(known, r->event)))
			a->failed = true;
		else if (a->every_target_any)
			t->any = true;
		for (int k = 0; k < NFILES && !a->failed; k++)
			if (a->walker[k] && td_count_walker_row(a->walker[k], r))
				a->failed = true;
	}
	for (int k = 0; k < NFILES && !a->failed; k++)
		if (a->walker[k] && td_count_walker_end(a->walker[k]))
			a->failed = true;
}

void td_summary_live_free(struct td_summary_live *a)
{
	if (!a)
		return;
	for (int k = 0; k < NFILES; k++) {
		td_count_walker_free(a->walker[k]);
		td_session_counts_free(&a->sc[k]);
		td_evaluation_free(&a->files[k].out);
		td_evaluator_free(a->files[k].ev);
		td_model_free(a->files[k].model);
		td_catalog_free(a->files[k].cat);
	}
	for (int i = 0; i < a->L.nthreads; i++)
		for (int k = 0; k < NFILES; k++)
			td_group_counts_free(&a->L.threads[i].c[k]);
	free(a->L.threads);
	free(a->L.proc_of);
	td_tid_map_free(&a->ids);
	free(a->events_dir);
	free(a);
}

/* The rows' sums taken from the accumulator (moved: it is read once). */
static int take_live(struct load *L, struct td_summary_live *a)
{
	for (int i = 0; i < L->nthreads; i++) {
		struct thread *th = &L->threads[i];
		uintptr_t k = td_tid_map_get(&a->ids, (uint32_t)th->id);
		if (k) {
			struct thread *src = &a->L.threads[k - 1];
			memcpy(th->c, src->c, sizeof(th->c));
			memset(src->c, 0, sizeof(src->c));
			memcpy(th->proc, src->proc, sizeof(th->proc));
			memcpy(th->proc_rows, src->proc_rows, sizeof(th->proc_rows));
			memcpy(th->counted, src->counted, sizeof(th->counted));
			th->window_ns = src->window_ns;
			L->sum->rows[th->row].counted |= src->any;
			continue;
		}
		for (int f = 0; f < NFILES; f++) {
			if (!a->files[f].ev)
				continue;
			if (td_group_counts_init(&th->c[f], a->files[f].cat->nevents, a->files[f].ngroups))
				return -1;
			td_group_counts_zero(&th->c[f]);
		}
	}
	return 0;
}

static int load(struct td_store *s, int64_t session, const char *events_dir, const struct td_report_filter *f,
		struct td_summary_live *acc, struct td_summary *sum, td_err *err)
{
	const char *dir = td_events_dir(events_dir);
	struct file local[NFILES], *files = acc ? acc->files : local;
	struct load L = { .sum = sum, .f = f, .committed = acc ? &acc->ids : NULL };
	struct td_session_header h;
	int rc = -1;

	memset(sum, 0, sizeof(*sum));
	memset(local, 0, sizeof(local));
	err->msg[0] = '\0';
	if (td_store_session(s, session, &sum->session) || td_store_session_meta(s, session, &L.meta)) {
		td_err_set(err, "no session %lld in the database: see 'tdctl sessions'", (long long)session);
		return -1;
	}
	if (td_store_session_header(s, session, &h))
		goto out;
	sum->has_read_cost = td_store_read_cost(s, session, &sum->read_cost) == 1;
	snprintf(sum->counting, sizeof(sum->counting), "%s", L.meta.counting);
	sum->unlisted_off = L.meta.unlisted_off;
	sum->switch_cost_ns = L.meta.switch_cost_ns;
	sum->switch_cost_from = L.meta.switch_cost_from;
	L.first_ns = h.first_ns;
	/* a session still running: up to its last interval */
	uint64_t end = sum->session.ended_ns ? sum->session.ended_ns : h.last_ns;
	sum->duration = end > sum->session.started_ns ? (double)(end - sum->session.started_ns) / 1e9 : 0;
	if ((acc ? td_store_session_threads : td_store_counted_threads)(s, session, add_thread, &L) ||
	    td_store_targets(s, session, add_other, &L) || add_others(&L) || index_threads(&L))
		goto out;
	for (int i = 0; i < sum->nrows; i++) /* a CPU, a cgroup, `whole`: there all the session */
		if (sum->rows[i].kind == TD_SUM_CPU || sum->rows[i].kind == TD_SUM_MEMBER)
			sum->rows[i].seconds = sum->duration;
	if (acc) {
		snprintf(sum->why_not_evaluated, sizeof(sum->why_not_evaluated), "%s", acc->why_not);
		if (take_live(&L, acc))
			goto out;
	} else if (walk_files(&L, s, session, dir, files, err))
		goto out;
	for (int i = 0; i < sum->nrows; i++)
		sum->nthreads += sum->rows[i].kind == TD_SUM_THREAD;
	sum->filtered = f && (f->kind != TD_RF_ALL || f->window);
	if (f && f->window) { /* what the kept intervals cover */
		sum->duration = (double)L.window_ns / 1e9;
		for (int i = 0; i < L.nthreads; i++) {
			struct td_summary_row *row = &sum->rows[L.threads[i].row];
			row->seconds =
				row->kind == TD_SUM_THREAD ? (double)L.threads[i].window_ns / 1e9 : sum->duration;
		}
	}
	if (evaluate_rows(&L, files) || td_store_failed_events(s, session, collect_failed, sum))
		goto out;
	if (!sum->session.kernel_counted)
		kernel_not_counted(sum);
	rc = 0;
out:
	if (rc && !err->msg[0])
		td_err_set(err, "cannot read session %lld: %s", (long long)session, td_store_errmsg(s));
	for (int i = 0; i < L.nthreads; i++)
		for (int k = 0; k < NFILES; k++)
			td_group_counts_free(&L.threads[i].c[k]);
	for (int i = 0; i < L.nothers; i++)
		free(L.others[i].label);
	free(L.others);
	free(L.threads);
	free(L.by_id);
	free(L.by_offset);
	free(L.proc_of);
	for (int k = 0; k < NFILES; k++) {
		td_evaluation_free(&local[k].out);
		td_evaluator_free(local[k].ev);
		td_model_free(local[k].model);
		td_catalog_free(local[k].cat);
	}
	if (rc)
		td_summary_free(sum);
	return rc;
}

int td_summary_load(struct td_store *s, int64_t session, const char *events_dir, const struct td_report_filter *f,
		    struct td_summary *sum, td_err *err)
{
	return load(s, session, events_dir, f, NULL, sum, err);
}

int td_summary_load_live(struct td_summary_live *a, struct td_store *s, int64_t session, struct td_summary *sum,
			 td_err *err)
{
	struct td_session_meta meta;

	/* nothing committed, a row lost, or the session's counting mode set after its
	 * first interval (the sums would differ): read back */
	a->read_back = a->failed				  ? "its totals are incomplete"
		       : a->session != session			  ? "no interval of this session was committed"
		       : td_store_session_meta(s, session, &meta) ? "the session's row cannot be read"
		       : strcmp(meta.counting, a->L.meta.counting)
			       ? "its counting mode changed after its first interval"
			       : NULL;
	return load(s, session, a->events_dir, NULL, a->read_back ? NULL : a, sum, err);
}

const char *td_summary_live_read_back(const struct td_summary_live *a)
{
	return a->read_back;
}

void td_summary_free(struct td_summary *sum)
{
	for (int i = 0; i < sum->nconf; i++)
		free(sum->conf[i].name);
	for (int i = 0; i < sum->nfailed; i++) {
		free(sum->failed[i].names);
		free(sum->failed[i].error);
	}
	for (int i = 0; i < sum->nrows; i++)
		free(sum->rows[i].label);
	free(sum->conf);
	free(sum->failed);
	free(sum->rows);
	memset(sum, 0, sizeof(*sum));
}

double td_summary_switches(const struct td_summary *sum)
{
	double n = -1;

	for (int i = 0; i < sum->nrows; i++) {
		const struct td_summary_row *r = &sum->rows[i];
		double rate = r->v[TD_SUM_SWITCHES];
		if (r->kind != TD_SUM_PROCESS || r->thread != 0 || !r->counted || isnan(rate) || isinf(rate))
			continue;
		n = (n < 0 ? 0 : n) + rate * r->seconds; /* the rate is over the row's seconds */
	}
	return n;
}
