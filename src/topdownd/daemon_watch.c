/* daemon_watch: watch mode ([watch], docs/watch.md) — the cgroup v2 groups at
 * the configured depth below the root found (again every interval: groups
 * come and go), a level-1 session on each (a cgroup session, `record
 * --cgroup`'s counting), the same for the busiest processes (top_processes:
 * an attach session on each, by CPU time between two listings of /proc,
 * top_processes.h), each interval's values held against the group's
 * baseline (watch_trigger.h) with the group's CPU time and wait for a CPU
 * (cpu.stat, cpu.pressure), and on a change the change kept for `tdctl
 * changes` and a drill-down session started on the group. The daemon's own
 * CPU time bounds how many groups it takes on (max_cpu_percent). */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "collect/syswide.h"
#include "machine/procfs.h"
#include "daemon_impl.h"
#include "symbolizer.h"

static uint64_t cpu_ns(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru))
		return 0;
	return ((uint64_t)ru.ru_utime.tv_sec + (uint64_t)ru.ru_stime.tv_sec) * 1000000000ull +
	       ((uint64_t)ru.ru_utime.tv_usec + (uint64_t)ru.ru_stime.tv_usec) * 1000ull;
}

/* The series and its rows' seqs gone: a baseline starts again. */
static void drop_series(struct watch_group *g)
{
	if (g->has_series)
		td_watch_series_free(&g->series);
	free(g->seqs);
	g->seqs = NULL;
	g->seq_n = 0;
	g->has_series = false;
}

static void free_group(struct watch_group *g)
{
	free(g->path);
	drop_series(g);
	for (int i = 0; i < 2; i++)
		if (g->cpu_fd[i] >= 0)
			close(g->cpu_fd[i]);
}

void daemon_watch_free(struct daemon *d)
{
	struct watch_state *w = d->watching;

	if (!w)
		return;
	for (int i = 0; i < w->ng; i++) {
		struct dsession *ds = daemon_find_running(d, w->g[i].session);
		if (ds)
			td_session_stop(ds->s, "stopped: watch mode ended");
		free_group(&w->g[i]);
	}
	free(w->g);
	td_top_snapshot_free(w->top);
	free(w->conf.root);
	td_watch_limits_free(&w->limits);
	free(w);
	d->watching = NULL;
}

void daemon_watch_changes_free(struct daemon *d)
{
	for (int i = 0; i < d->nchanges; i++) {
		free(d->changes[i].group);
		free(d->changes[i].node);
	}
	free(d->changes);
	d->changes = NULL;
	d->nchanges = 0;
}

/* The same [watch] as the running state's? */
static bool same_watch(const struct td_watch_config *a, const struct td_watch_config *b)
{
	if ((a->root == NULL) != (b->root == NULL) || (a->root && strcmp(a->root, b->root)))
		return false;
	return a->enable == b->enable && a->depth == b->depth && a->interval_ms == b->interval_ms &&
	       a->baseline == b->baseline && a->window == b->window && a->p_value == b->p_value &&
	       a->min_shift == b->min_shift && a->drill_level == b->drill_level &&
	       a->drill_hotspots == b->drill_hotspots && a->drill_duration_ns == b->drill_duration_ns &&
	       a->workload_every_ns == b->workload_every_ns && a->threshold_for_ns == b->threshold_for_ns &&
	       a->changes_per_hour == b->changes_per_hour && a->max_cpu_percent == b->max_cpu_percent &&
	       a->top_processes == b->top_processes;
}

static void symbolizer_said(void *ctx, const char *line)
{
	struct dsession *ds = ctx;

	daemon_log(ds->d, "session %lld: %s", (long long)ds->id, line);
}

/* A session on g for watch mode (drill: a drill-down, else its level 1): a
 * cgroup session on a group (its path inside the mount), an attach session
 * on a process; recorded with schedule "watch:GROUP" or "watch-process:PID:PROGRAM"
 * ("drill:", "drill-process:"). */
static int start_on(struct daemon *d, const struct watch_group *g, bool drill, int level, uint64_t duration_ns,
		    int64_t *id, td_err *err)
{
	struct dsession *ds = calloc(1, sizeof(*ds));
	struct td_session_opts o;
	const char *kind = drill ? "drill" : "watch";
	char name[4200];

	if (!ds) {
		td_err_set(err, "out of memory");
		return -1;
	}
	if (g->pid)
		snprintf(name, sizeof(name), "%s-process:%d:%s", kind, (int)g->pid, g->path);
	else
		snprintf(name, sizeof(name), "%s:%s", kind, g->path);
	ds->entry = -1;
	ds->watch = kind;
	ds->pid = g->pid;
	if (daemon_dup_opt(&ds->entry_name, name) || (!g->pid && daemon_dup_opt(&ds->cgroup, g->path))) {
		daemon_session_free(ds);
		td_err_set(err, "out of memory");
		return -1;
	}
	memset(&o, 0, sizeof(o));
	o.interval_ms = d->cfg.watch.interval_ms;
	o.attach_pid = g->pid;
	/* a cgroup session follows no thread: no scan worth more wake-ups; a process's
	 * threads are listed once an interval too (where BPF tracks and counts them, as
	 * often as the session would choose: its program counts a thread from its birth;
	 * else a thread that lives less than an interval goes uncounted, at level 1 of a
	 * process the daemon found busy) */
	o.scan_ms = o.interval_ms;
	o.duration_ms = (int)(duration_ns / 1000000ull);
	o.level = level;
	/* the groups' sessions read together and write through the daemon's
	 * handle, their intervals in one transaction (daemon.c's loop): the
	 * cost of a group an interval is its reads and rows, not a commit */
	if (d->store && d->store_path && !strcmp(d->store_path, d->cfg.db_path)) {
		o.store = d->store;
		ds->shared_store = true;
	}
	o.aligned = !drill;
	/* a drill-down's hotspots: time-based until an interval names a bottleneck with a locate
	 * line (session_hotspots.c); user-space addresses named by symbolizers of the owners of
	 * the processes sampled, never by the monitor (symbolizer.h) */
	if (drill && d->cfg.watch.drill_hotspots) {
		if (!(ds->symz = td_symbolizer_new(NULL, symbolizer_said, ds))) {
			daemon_session_free(ds);
			td_err_set(err, "out of memory");
			return -1;
		}
		o.hotspots = "";
		o.resolver = td_symbolizer_resolver(ds->symz);
	}
	if (daemon_start_session(d, ds, &o, err)) {
		daemon_session_free(ds);
		return -1;
	}
	*id = ds->id;
	return 0;
}

static struct watch_group *find_group(struct watch_state *w, const char *path)
{
	for (int i = 0; i < w->ng; i++)
		if (!w->g[i].pid && !strcmp(w->g[i].path, path))
			return &w->g[i];
	return NULL;
}

static struct watch_group *find_process(struct watch_state *w, pid_t pid, long long start)
{
	for (int i = 0; i < w->ng; i++)
		if (w->g[i].pid == pid && w->g[i].start == start)
			return &w->g[i];
	return NULL;
}

/* top_processes, every window-th listing of the groups: the processes
 * watched that still run marked seen; the top_processes busiest since the
 * last listing (CPU time, /proc) added while fewer are watched, a watched
 * one that used no CPU for `baseline` intervals giving its place to a
 * busier one (sooner, processes that run in bursts would take turns, each
 * starting its baseline again).
 * Not the daemon, nor a process without a program (a kernel thread). */
static void list_processes(struct daemon *d)
{
	struct watch_state *w = d->watching;
	int want = d->cfg.watch.top_processes, have = 0, nb;
	struct td_top_snapshot *now;
	struct td_top_proc *busy = NULL;

	if (want <= 0)
		return;
	if (!(now = td_top_snapshot_take())) {
		daemon_log(d, "watch: the processes not listed: out of memory");
		return;
	}
	nb = w->top ? td_top_busiest(w->top, now, &busy) : 0;
	td_top_snapshot_free(w->top);
	w->top = now;
	if (nb < 0) {
		daemon_log(d, "watch: the busiest processes not found: out of memory");
		nb = 0;
	}
	for (int i = 0; i < w->ng; i++) {
		struct watch_group *g = &w->g[i];
		if (!g->pid || !(g->seen = td_top_has(now, g->pid, g->start)))
			continue;
		have++;
		g->idle++;
		for (int k = 0; k < nb; k++)
			if (busy[k].pid == g->pid && busy[k].start == g->start) {
				g->idle = 0;
				break;
			}
	}
	for (int k = 0, ranked = 0; k < nb && ranked < want; k++) {
		struct watch_group *g;
		char *exe = NULL;
		if (busy[k].pid == getpid())
			continue;
		ranked++;
		if (find_process(w, busy[k].pid, busy[k].start))
			continue;
		if (have >= want) {
			struct watch_group *idle = NULL;
			for (int i = 0; i < w->ng && !idle; i++)
				if (w->g[i].pid && w->g[i].seen && w->g[i].idle * w->pr.window >= w->pr.baseline)
					idle = &w->g[i];
			if (!idle)
				break;
			daemon_log(d,
				   "watch: process %d (%s) used no CPU for %d intervals: %d (busier) takes its place",
				   (int)idle->pid, idle->path, idle->idle * w->pr.window, (int)busy[k].pid);
			idle->seen = false;
			have--;
		}
		if (td_proc_exe(busy[k].pid, &exe) < 0 || !exe || !exe[0]) {
			free(exe);
			continue; /* a kernel thread, or gone meanwhile */
		}
		if (!(g = td_array_push(&w->g, &w->ng, sizeof(*g)))) {
			free(exe);
			daemon_log(d, "watch: process %d not watched: out of memory", (int)busy[k].pid);
			continue;
		}
		*g = (struct watch_group){
			.path = exe, .pid = busy[k].pid, .start = busy[k].start, .seen = true, .cpu_fd = { -1, -1 }
		};
		have++;
	}
	free(busy);
}

/* The groups depth levels below dir (full path; rel: inside the mount) marked seen, new ones added. */
static void list_groups(struct daemon *d, const char *dir, const char *rel, int depth)
{
	struct watch_state *w = d->watching;
	DIR *dp = opendir(dir);
	struct dirent *e;

	if (!dp)
		return; /* gone meanwhile, or not a directory: nothing below it */
	while ((e = readdir(dp))) {
		char full[4096], sub[4096];
		struct watch_group *g;
		if (e->d_type != DT_DIR || e->d_name[0] == '.')
			continue;
		if ((size_t)snprintf(full, sizeof(full), "%s/%s", dir, e->d_name) >= sizeof(full) ||
		    (size_t)snprintf(sub, sizeof(sub), "%s/%s", strcmp(rel, "/") ? rel : "", e->d_name) >=
			    sizeof(sub)) {
			daemon_log(d, "watch: %s/%s not watched: its path is longer than 4095 bytes", rel, e->d_name);
			continue;
		}
		if (depth > 1) {
			list_groups(d, full, sub, depth - 1);
			continue;
		}
		if ((g = find_group(w, sub))) {
			g->seen = true;
			continue;
		}
		if (!(g = td_array_push(&w->g, &w->ng, sizeof(*g))) || !(g->path = strdup(sub))) {
			if (g)
				w->ng--;
			daemon_log(d, "watch: %s not watched: out of memory", sub);
			continue;
		}
		g->seen = true;
		g->cpu_fd[0] = g->cpu_fd[1] = -1;
	}
	closedir(dp);
}

/* The groups listed again: a session started on each group without one
 * (unless the daemon is over its CPU budget), a group gone forgotten (its
 * session stopped). */
static void scan(struct daemon *d)
{
	struct watch_state *w = d->watching;
	uint64_t now = td_now_ns(), cpu = cpu_ns();
	double pct = now > w->scan_mono ? 100.0 * (double)(cpu - w->scan_cpu_ns) / (double)(now - w->scan_mono) : 0;
	bool over = w->scan_mono && pct > d->cfg.watch.max_cpu_percent;
	int kept = 0;

	if (over != w->over_budget)
		daemon_log(d,
			   over ? "watch: topdownd used %.2f %% of a CPU since the groups were last listed, above "
				  "max_cpu_percent (%g): no new group is watched until it is below"
				: "watch: topdownd used %.2f %% of a CPU, within max_cpu_percent (%g): new groups "
				  "are watched again",
			   pct, d->cfg.watch.max_cpu_percent);
	w->over_budget = over;
	w->scan_mono = now;
	w->scan_cpu_ns = cpu;
	w->next_scan_ns = now + (uint64_t)d->cfg.watch.interval_ms * 1000000ull;
	/* the processes are listed every window-th time (a walk of /proc, the most
	 * of what watching them costs): in between, one whose session ended (its
	 * process exited) is dropped */
	bool procs = w->scans++ % w->pr.window == 0;
	for (int i = 0; i < w->ng; i++)
		w->g[i].seen = w->g[i].pid && !procs && w->g[i].session && daemon_find_running(d, w->g[i].session);
	list_groups(d, w->root, d->cfg.watch.root ? d->cfg.watch.root : "/", d->cfg.watch.depth);
	if (procs)
		list_processes(d);
	for (int i = 0; i < w->ng; i++) {
		struct watch_group *g = &w->g[i];
		struct dsession *ds = g->session ? daemon_find_running(d, g->session) : NULL;
		td_err err;
		if (!g->seen) {
			if (ds)
				td_session_stop(ds->s, g->pid ? "stopped: no longer among the busiest processes"
							      : "stopped: the cgroup was removed");
			if (g->pid)
				daemon_log(d, "watch: process %d (%s) no longer watched", (int)g->pid, g->path);
			else
				daemon_log(d, "watch: %s is gone", g->path);
			free_group(g);
			continue;
		}
		w->g[kept++] = *g;
		g = &w->g[kept - 1];
		if (ds || over)
			continue;
		/* a new group, or one whose session ended: its baseline starts again */
		drop_series(g);
		g->session = 0;
		if (start_on(d, g, false, 1, 0, &g->session, &err)) {
			if (!g->start_said)
				daemon_log(d, "watch: %s%s not watched: %s (tried again every interval)",
					   g->pid ? "the process of " : "", g->path, err.msg);
			g->start_said = true;
		} else if (g->pid) {
			g->start_said = false;
			daemon_log(d, "watch: session %lld watches process %d (%s)", (long long)g->session, (int)g->pid,
				   g->path);
		} else {
			g->start_said = false;
			daemon_log(d, "watch: session %lld watches %s", (long long)g->session, g->path);
		}
	}
	w->ng = kept;
}

int daemon_setup_watch(struct daemon *d, td_err *err)
{
	const struct td_watch_config *c = &d->cfg.watch;
	struct watch_state *w;
	char rel[4096];
	int fd;

	if (d->watching && c->enable && same_watch(&d->watching->conf, c)) {
		/* a reload that keeps [watch]: the groups keep their sessions and baselines */
		return td_config_set_string(&d->cfg.watch.root, d->watching->root_rel) ? -1 : 0;
	}
	daemon_watch_free(d);
	if (!c->enable)
		return 0;
	if (!(w = calloc(1, sizeof(*w)))) {
		td_err_set(err, "out of memory");
		return -1;
	}
	w->conf = *c;
	w->conf.root = NULL;
	if (c->root && !(w->conf.root = strdup(c->root))) {
		free(w);
		td_err_set(err, "out of memory");
		return -1;
	}
	w->pr = (struct td_watch_params){ .baseline = c->baseline,
					  .window = c->window,
					  .p_value = c->p_value,
					  .min_shift = c->min_shift,
					  .workload_every_ns = c->workload_every_ns,
					  .per_hour = c->changes_per_hour,
					  .ncpus = (int)sysconf(_SC_NPROCESSORS_ONLN),
					  /* whole intervals, at least the time given */
					  .hold = (int)((c->threshold_for_ns + (uint64_t)c->interval_ms * 1000000ull -
							 1) /
							((uint64_t)c->interval_ms * 1000000ull)) };
	if (td_watch_limits_init(&w->limits, &w->pr)) {
		free(w->conf.root);
		free(w);
		td_err_set(err, "out of memory");
		return -1;
	}
	d->watching = w;
	if ((fd = td_cgroup_open(c->root ? c->root : "/", w->root, sizeof(w->root), err)) < 0 ||
	    td_cgroup_relative(w->root, rel, sizeof(rel), err)) {
		if (fd >= 0)
			close(fd);
		daemon_watch_free(d);
		return -1;
	}
	close(fd);
	snprintf(w->root_rel, sizeof(w->root_rel), "%s", rel[0] ? rel : "/");
	if (td_config_set_string(&d->cfg.watch.root, w->root_rel)) {
		daemon_watch_free(d);
		td_err_set(err, "out of memory");
		return -1;
	}
	daemon_log(d, "watch: the groups %d level%s below %s, level 1 every %d ms", c->depth, c->depth == 1 ? "" : "s",
		   w->root, c->interval_ms);
	scan(d);
	return 0;
}

/* A change into the database (what outlives this daemon): its id there, or
 * -1 after a log line saying why it is kept in memory only. */
static int64_t store_change(struct daemon *d, const struct watch_change *c)
{
	struct td_store_change row = { .session = c->session,
				       .drill = c->drill,
				       .when_ns = c->when_ns,
				       .workload = c->group,
				       .node = c->node,
				       .threshold = c->threshold,
				       .before = c->before,
				       .after = c->after,
				       .p = c->p,
				       .n_before = c->n_before,
				       .n_after = c->n_after,
				       .before_first = c->before_first,
				       .before_last = c->before_last,
				       .after_first = c->after_first,
				       .after_last = c->after_last };
	struct td_store *st;
	td_err err;
	int64_t id = -1;

	if (td_store_open(d->cfg.db_path, TD_STORE_WRITE, &st, &err)) {
		daemon_log(d, "watch: a change of %s is not in the database: %s", c->group, err.msg);
		return -1;
	}
	if ((id = td_store_change_add(st, &row)) < 0) {
		td_store_describe_error(st, &err);
		daemon_log(d, "watch: a change of %s is not in the database: %s", c->group, err.msg);
	}
	td_store_close(st);
	return id;
}

static int load_one(void *ctx, const struct td_store_change *r)
{
	struct daemon *d = ctx;
	struct watch_change *c = td_array_push(&d->changes, &d->nchanges, sizeof(*c));

	if (!c)
		return -1;
	*c = (struct watch_change){ .id = r->id,
				    .when_ns = r->when_ns,
				    .group = strdup(r->workload),
				    .node = strdup(r->node),
				    .threshold = r->threshold,
				    .before = r->before,
				    .after = r->after,
				    .p = r->p,
				    .n_before = r->n_before,
				    .n_after = r->n_after,
				    .before_first = r->before_first,
				    .before_last = r->before_last,
				    .after_first = r->after_first,
				    .after_last = r->after_last,
				    .session = r->session,
				    .drill = r->drill };
	if (!c->group || !c->node) {
		free(c->group);
		free(c->node);
		d->nchanges--;
		return -1;
	}
	return 0;
}

int daemon_watch_load_changes(struct daemon *d, struct td_store *st, td_err *err)
{
	if (td_store_changes(st, load_one, d)) {
		td_store_describe_error(st, err);
		return -1;
	}
	return 0;
}

/* The group's CPU time and wait against the baseline in both windows, and
 * what the neighbours' rule made of them, for a log line ("": not read). */
static void cpu_said(const struct td_watch_trigger *t, char *out, size_t n)
{
	const struct td_watch_move *r = t->run, *w = t->wait;

	out[0] = 0;
	if (!isnan(r[1].p) && !isnan(w[1].p))
		snprintf(out, n,
			 " (CPU time %.3f -> %.3f, %.3f (p = %.2g, %.2g); wait for a CPU %.3f -> %.3f, %.3f"
			 " (p = %.2g, %.2g): %s)",
			 r[0].before, r[0].after, r[1].after, r[0].p, r[1].p, w[0].before, w[0].after, w[1].after,
			 w[0].p, w[1].p, t->why);
}

/* TD_DEBUG_WATCH=FILE: the rows a verdict was decided on (the group, then
 * per interval its nodes' values, its CPU time and its wait), appended, so
 * that a decision can be read back (bench_watch_steady.sh keeps it). */
static void dump_rows(const struct watch_state *w, const struct watch_group *g, const struct dsession *ds,
		      const struct td_watch_trigger *t, enum td_watch_verdict v)
{
	const char *path = getenv("TD_DEBUG_WATCH");
	int rows = td_watch_rows(&w->pr);
	FILE *f;

	if (!path || !(f = fopen(path, "ae")))
		return;
	fprintf(f, "# %s %s verdict %d: %s\n", g->path, ds->wnames[t->node], (int)v, t->why ? t->why : "");
	for (int k = 0; k < rows; k++) {
		const double *row = td_watch_series_row(&g->series, &w->pr, k);
		for (int i = 0; i < ds->nw + 2; i++)
			fprintf(f, i ? " %.17g" : "%.17g", row[i]);
		fputc('\n', f);
	}
	fclose(f);
}

/* A change: kept, in the database and in memory, logged, and a drill-down
 * session started on the group. */
static void record_change(struct daemon *d, struct watch_group *g, const struct dsession *ds,
			  const struct td_watch_trigger *t)
{
	struct watch_change *c = td_array_push(&d->changes, &d->nchanges, sizeof(*c));
	const struct watch_state *w = d->watching;
	int rows = td_watch_rows(&w->pr);
	char said[512];
	td_err err;

	if (!c || !(c->group = strdup(g->path)) || !(c->node = strdup(ds->wnames[t->node]))) {
		if (c) {
			free(c->group);
			d->nchanges--;
		}
		daemon_log(d, "watch: a change of %s not recorded: out of memory", g->path);
		return;
	}
	c->id = 0;
	c->when_ns = td_wall_ns();
	c->before = t->before;
	c->after = t->after;
	c->p = t->p;
	c->n_before = t->n_before;
	c->n_after = t->n_after;
	c->threshold = t->kind == TD_WATCH_THRESHOLD;
	c->before_first = c->before_last = c->after_first = c->after_last = -1;
	if (g->seqs && g->seq_n >= rows) { /* row k of the series: the (seq_n - rows + k)-th given */
		int after = c->threshold ? w->pr.hold : w->pr.window; /* the held rows, or the latest window */
		c->before_first = g->seqs[(g->seq_n - rows) % rows];
		c->before_last = g->seqs[(g->seq_n - rows + w->pr.baseline - 1) % rows];
		c->after_first = g->seqs[(g->seq_n - after) % rows];
		c->after_last = g->seqs[(g->seq_n - 1) % rows];
	}
	c->session = ds->id;
	if (start_on(d, g, true, d->cfg.watch.drill_level, d->cfg.watch.drill_duration_ns, &c->drill, &err)) {
		c->drill = 0;
		daemon_log(d, "watch: a change of %s: no drill-down session: %s", g->path, err.msg);
	}
	if ((c->id = store_change(d, c)) < 0) /* kept in memory only, numbered after the last */
		c->id = d->nchanges > 1 ? d->changes[d->nchanges - 2].id + 1 : 1;
	cpu_said(t, said, sizeof(said));
	if (c->threshold) {
		char before[24] = "n/a", p[24] = "n/a"; /* not known (a baseline not counted): said so */
		if (!isnan(c->before))
			snprintf(before, sizeof(before), "%.1f%%", 100 * c->before);
		if (!isnan(c->p))
			snprintf(p, sizeof(p), "%.2g", c->p);
		daemon_log(d,
			   "watch: change %lld: %s %s %s -> %.1f%% (p = %s): over its threshold for %d intervals, "
			   "drill-down session %lld",
			   (long long)c->id, g->path, c->node, before, 100 * c->after, p, w->pr.hold,
			   (long long)c->drill);
	} else {
		daemon_log(d, "watch: change %lld: %s %s %.1f%% -> %.1f%% (p = %.2g), drill-down session %lld%s",
			   (long long)c->id, g->path, c->node, 100 * c->before, 100 * c->after, c->p,
			   (long long)c->drill, said);
	}
}

/* The value after key (a line "key N" or "key ... total=N") in file name
 * of the cgroup at full, read through *fd (opened at the first reading and
 * kept: a cgroup file is a seq_file, read afresh from offset 0 by each
 * pread — Debian linux-source-6.12, fs/kernfs/file.c:294-297 hands a read to
 * seq_read_iter(), which at a position other than where the last read
 * ended calls traverse() (fs/seq_file.c:193-196), which at offset 0 empties
 * the buffer and starts over (lines 96-99) — which spares an open and a
 * close per file, group and interval). The keys read
 * are on the first lines: a line cut at the buffer's end is not parsed. */
static int read_key(int *fd, const char *full, const char *name, const char *key, const char *field, uint64_t *v)
{
	char path[4200], buf[4096];
	ssize_t n;

	if (*fd < 0 && ((size_t)snprintf(path, sizeof(path), "%s/%s", full, name) >= sizeof(path) ||
			(*fd = open(path, O_RDONLY | O_CLOEXEC)) < 0))
		return -1;
	if ((n = pread(*fd, buf, sizeof(buf) - 1, 0)) <= 0) {
		close(*fd); /* the group is gone, or the file cannot be read: opened again next time */
		*fd = -1;
		return -1;
	}
	buf[n] = '\0';
	for (char *line = buf, *nl; (nl = strchr(line, '\n')); line = nl + 1) {
		const char *at;
		*nl = '\0';
		if (!strncmp(line, key, strlen(key)) && line[strlen(key)] == ' ' && (at = strstr(line, field)) &&
		    sscanf(at + strlen(field), "%" SCNu64, v) == 1)
			return 0;
	}
	return -1;
}

/* A group's CPU time and its wait for a CPU since the last reading, as
 * shares of the time between them (td_watch_cpu); NaN when not read (no
 * PSI: a kernel without CONFIG_PSI, or psi=0). Not for a process. */
static void group_cpu(const struct watch_state *w, struct watch_group *g, struct td_watch_cpu *c)
{
	char full[8200];
	size_t rl = strlen(w->root_rel);
	uint64_t run, wait, now = td_now_ns();

	c->run = c->wait = NAN;
	if (g->pid || strncmp(g->path, w->root_rel, rl))
		return;
	snprintf(full, sizeof(full), "%s%s", w->root, g->path + (strcmp(w->root_rel, "/") ? rl : 0));
	if (read_key(&g->cpu_fd[0], full, "cpu.stat", "usage_usec", "usage_usec ", &run) ||
	    read_key(&g->cpu_fd[1], full, "cpu.pressure", "some", "total=", &wait)) {
		g->cpu_ns = 0;
		return;
	}
	if (g->cpu_ns && now > g->cpu_ns && run >= g->cpu_run_us && wait >= g->cpu_wait_us) {
		c->run = (double)(run - g->cpu_run_us) * 1000.0 / (double)(now - g->cpu_ns);
		c->wait = (double)(wait - g->cpu_wait_us) * 1000.0 / (double)(now - g->cpu_ns);
	}
	g->cpu_ns = now;
	g->cpu_run_us = run;
	g->cpu_wait_us = wait;
}

void daemon_watch_step(struct daemon *d)
{
	struct watch_state *w = d->watching;

	if (!w)
		return;
	/* the rows a verdict is decided on (the series holds them all by then) */
	int rows = td_watch_rows(&w->pr);
	for (int i = 0; i < w->ng; i++) {
		struct watch_group *g = &w->g[i];
		struct dsession *ds = g->session ? daemon_find_running(d, g->session) : NULL;
		struct td_watch_trigger t;
		struct td_watch_cpu cpu;
		enum td_watch_verdict v;
		char said[512];
		if (!ds || !ds->wfresh)
			continue;
		ds->wfresh = false;
		if (!g->has_series) {
			if (!(g->seqs = calloc((size_t)rows, sizeof(*g->seqs))) ||
			    td_watch_series_init(&g->series, &w->pr, ds->nw)) {
				free(g->seqs);
				g->seqs = NULL;
				continue; /* out of memory: tried again next interval */
			}
			g->has_series = true;
		}
		group_cpu(w, g, &cpu);
		g->seqs[g->seq_n++ % rows] = ds->wseq;
		v = td_watch_add_flags(&g->series, &w->limits, &w->pr, ds->wvals, ds->wflags, &cpu, td_now_ns(), &t);
		if (v != TD_WATCH_NONE)
			dump_rows(w, g, ds, &t, v);
		if (v == TD_WATCH_CHANGE) {
			record_change(d, g, ds, &t);
		} else if (v != TD_WATCH_NONE) {
			d->changes_held++;
			cpu_said(&t, said, sizeof(said));
			daemon_log(d, "watch: %s %s %.1f%% -> %.1f%% (p = %.2g)%s held back: %s", g->path,
				   ds->wnames[t.node], 100 * t.before, 100 * t.after, t.p, said,
				   v == TD_WATCH_HELD_ONE ? "the group changed within workload_every"
				   : v == TD_WATCH_HELD_CPU
					   ? "its CPU time and its wait for a CPU traded places (its neighbours')"
					   : "changes_per_hour reached");
		}
	}
	if (td_now_ns() >= w->next_scan_ns)
		scan(d);
}

int daemon_watch_timeout_ms(const struct daemon *d)
{
	uint64_t now = td_now_ns();

	if (!d->watching)
		return -1;
	return d->watching->next_scan_ns <= now ? 0 : (int)((d->watching->next_scan_ns - now) / 1000000ull) + 1;
}
