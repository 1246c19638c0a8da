/* daemon: topdownd's loop and what each request does (see daemon.h and
 * docs/protocol.md). One thread: poll() over the signalfd, the listening
 * socket and clients, and every running session's timers; the schedule's
 * next run bounds the sleep. Requests are answered at once — a report reads
 * the database, an attach opens counters — and never wait on a client. */
#include "config.h"

#include <errno.h>
#include <grp.h>
#include <jansson.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <syslog.h>
#include <systemd/sd-daemon.h>
#include <unistd.h>

#include "analysis/report_data.h"
#include "clients.h"
#include "daemon_config.h"
#include "control/protocol.h"
#include "daemon.h"
#include "exporter.h"
#include "metrics_export.h"
#include "model/model.h"
#include "report/report.h"
#include "report_job.h"
#include "session/sampler_priority.h"
#include "session/session.h"
#include "store/store.h"
#include "snapshot.h"
#include "auto_attach.h"
#include "collect/exec_watch.h"
#include "machine/procfs.h"
#include "top_processes.h"

#define DEFAULT_CONFIG "/etc/topdown/topdownd.conf"

struct daemon;

/* A running session and what the daemon knows of it. */
struct dsession {
	struct daemon *d;
	struct td_session *s;
	int64_t id;
	uid_t owner;
	int entry;                /* schedule entry index, -1: an attach */
	char *entry_name;         /* sessions.schedule: the schedule entry, or "auto:RULE" */
	char *rule;               /* started by this [auto] rule, NULL: not */
	pid_t pid;                /* attach: the process */
	uint64_t started_ns;      /* wall */
	int last_seq, intervals;
	char *db_path, *events_dir, *nodes, *cgroup; /* the session's options point here */
	struct td_top_snapshot *top;  /* schedule with top N: CPU time at the start */
	int top_n;
	struct td_snapshot snap;      /* the latest interval's values, for the exporter */
	int interval_ms;
	char comm[64];
	char rung[32], model[64], events_file[64];
};

struct sched_state {
	uint64_t next_ns;         /* monotonic */
	int64_t running;          /* session id of its run, 0 none */
	int runs, missed;
	/* the last run that ended, for the exporter */
	struct td_snapshot last;
	int64_t last_session;
	char rung[32], model[64], events_file[64];
};

struct daemon {
	const struct td_daemon_opts *o;
	struct td_config cfg;
	struct sched_state *sched;
	int listen_fd, sigfd;
	struct td_clients *clients;
	struct dsession **s;
	int ns;
	uint64_t start_mono;
	long long intervals_written, sessions_started, missed_runs, intervals_lost, periods_missed;
	struct td_exporter *exporter;
	double scrape_seconds;    /* the previous scrape's, < 0 none */
	struct td_exec_watch *watch;  /* with [auto] rules: every exec on the system */
	struct td_auto_rules autos;   /* d->cfg.autos, resolved */
	long long auto_missed;        /* processes a rule matched but no session followed */
	struct td_report_job *jobs[TD_REPORT_JOBS_MAX]; /* reports being rendered by child processes */
	int njobs;
	bool stop;
};

/* ---- logging ---------------------------------------------------------- */

static void vlog_line(const struct daemon *d, int prio, const char *fmt, va_list ap)
{
	if (d->o->log_stderr) {
		fprintf(stderr, "topdownd: ");
		vfprintf(stderr, fmt, ap);
		fputc('\n', stderr);
		fflush(stderr);
	} else {
		vsyslog(prio, fmt, ap);
	}
}

static void logd(const struct daemon *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void logd(const struct daemon *d, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog_line(d, LOG_INFO, fmt, ap);
	va_end(ap);
}

static void clients_log(void *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void clients_log(void *ctx, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog_line(ctx, LOG_NOTICE, fmt, ap);
	va_end(ap);
}

static void session_said(void *ctx, enum td_say kind, const char *line)
{
	struct dsession *ds = ctx;

	logd(ds->d, "session %lld: %s%s", (long long)ds->id, kind == TD_SAY_WARNING ? "warning: " : "", line);
}

static void notify_status(const struct daemon *d)
{
	char status[160];

	snprintf(status, sizeof(status), "STATUS=%d sessions running, %lld intervals written, %d clients", d->ns,
		 d->intervals_written, d->clients ? td_clients_count(d->clients) : 0);
	sd_notify(0, status);
}

/* ---- replies ---------------------------------------------------------- */

static void send_json(struct daemon *d, struct td_client *c, json_t *o)
{
	char *text = o ? json_dumps(o, JSON_COMPACT) : NULL;

	if (text)
		td_client_send(d->clients, c, text);
	free(text);
	json_decref(o);
}

static void reply_error(struct daemon *d, struct td_client *c, int64_t id, const char *msg)
{
	send_json(d, c, json_pack("{s:i, s:I, s:b, s:s}", "v", TD_PROTOCOL_VERSION, "id", (json_int_t)id, "ok", 0,
				  "error", msg));
}

static json_t *reply_ok(int64_t id)
{
	return json_pack("{s:i, s:I, s:b}", "v", TD_PROTOCOL_VERSION, "id", (json_int_t)id, "ok", 1);
}

/* ---- sessions --------------------------------------------------------- */

static void dsession_free(struct dsession *ds)
{
	free(ds->entry_name);
	free(ds->rule);
	free(ds->db_path);
	free(ds->events_dir);
	free(ds->nodes);
	free(ds->cgroup);
	td_top_snapshot_free(ds->top);
	td_snapshot_free(&ds->snap);
	free(ds);
}

static struct dsession *find_running(struct daemon *d, int64_t id)
{
	for (int i = 0; i < d->ns; i++)
		if (d->s[i]->id == id)
			return d->s[i];
	return NULL;
}

/* Every interval's values as evaluated: counted, and streamed to tails. */
static void on_interval(void *ctx, const struct td_live_value *v)
{
	struct dsession *ds = ctx;
	struct daemon *d = ds->d;
	const struct td_model *m = v->model;
	json_t *ev, *nodes, *info;

	if (v->seq != ds->last_seq) {
		ds->last_seq = v->seq;
		ds->intervals++;
		d->intervals_written++;
	}
	/* exported: the attached process with what it started (--children), or
	 * all the profile's CPUs; not the sliver a session's final read leaves
	 * after its last full interval */
	if (d->exporter && v->seconds * 2000 >= ds->interval_ms &&
	    (ds->entry >= 0 ? strcmp(v->kind, "thread") && strcmp(v->kind, "cpu") : !strcmp(v->kind, "tree")))
		td_snapshot_update(&ds->snap, v);
	if (ds->entry < 0 && !strcmp(v->kind, "process") && v->pid == ds->pid && v->comm)
		snprintf(ds->comm, sizeof(ds->comm), "%s", v->comm);
	/* the event is built only when a client tails this session */
	bool tailed = false;
	for (int i = 0; i < td_clients_count(d->clients) && !tailed; i++)
		tailed = td_clients_at(d->clients, i)->tail_session == ds->id;
	if (!tailed)
		return;
	ev = json_pack("{s:i, s:I, s:s, s:I, s:i, s:f, s:s, s:s, s:i}", "v", TD_PROTOCOL_VERSION, "id", (json_int_t)0,
		       "event", "interval", "session", (json_int_t)ds->id, "seq", v->seq, "seconds", v->seconds, "file",
		       v->file, "kind", v->kind, "pid", (int)v->pid);
	/* not available is null, never 0 */
	nodes = json_object();
	for (int i = 0; m && i < m->nnodes; i++)
		json_object_set_new(nodes, m->nodes[i].path, isfinite(v->ev->node[i]) ? json_real(v->ev->node[i]) : json_null());
	json_object_set_new(ev, "nodes", nodes);
	info = json_object();
	for (int i = 0; m && i < m->ninfos; i++)
		json_object_set_new(info, m->infos[i].name, isfinite(v->ev->info[i]) ? json_real(v->ev->info[i]) : json_null());
	json_object_set_new(ev, "info", info);
	for (int i = 0; i < td_clients_count(d->clients); i++) {
		struct td_client *c = td_clients_at(d->clients, i);
		if (c->tail_session == ds->id) {
			json_object_set_new(ev, "id", json_integer(c->tail_id));
			char *text = json_dumps(ev, JSON_COMPACT);
			if (text)
				td_client_send(d->clients, c, text);
			free(text);
		}
	}
	json_decref(ev);
}

static int dup_opt(char **dst, const char *src)
{
	if (!src)
		return 0;
	return (*dst = strdup(src)) ? 0 : -1;
}

/* Start a session for ds (its options filled but for the strings); on
 * success it joins the running set. */
static int start_session(struct daemon *d, struct dsession *ds, struct td_session_opts *o, td_err *err)
{
	struct td_session_result res;
	struct dsession **grown;

	if (d->ns >= d->cfg.max_sessions) {
		td_err_set(err, "topdownd runs %d sessions already (max_sessions): detach one or raise the limit", d->ns);
		return -1;
	}
	if (!(grown = realloc(d->s, (size_t)(d->ns + 1) * sizeof(*d->s)))) {
		td_err_set(err, "out of memory");
		return -1;
	}
	d->s = grown;
	ds->d = d;
	ds->last_seq = -1;
	ds->interval_ms = o->interval_ms;
	if (dup_opt(&ds->db_path, d->cfg.db_path) || dup_opt(&ds->events_dir, d->cfg.events_dir)) {
		td_err_set(err, "out of memory");
		return -1;
	}
	o->db_path = ds->db_path;
	o->events_dir = ds->events_dir;
	o->nodes = ds->nodes;
	o->cgroup = ds->cgroup;
	o->schedule = ds->entry_name;
	o->scan_ms = o->scan_ms ? o->scan_ms : 20;
	o->tracker = d->cfg.tracker;
	o->say = session_said;
	o->say_ctx = ds;
	o->print_fn = on_interval;
	o->print_ctx = ds;
	o->print_tree = !o->system && !o->cgroup;
	o->max_age_ns = d->cfg.retention_age_ns;
	o->max_bytes = d->cfg.retention_bytes;
	if (td_session_start(o, &ds->s, &res, err))
		return -1;
	ds->id = td_session_id(ds->s);
	ds->started_ns = td_wall_ns();
	td_snapshot_init(&ds->snap);
	snprintf(ds->rung, sizeof(ds->rung), "%s", td_session_rung(ds->s));
	snprintf(ds->model, sizeof(ds->model), "%s", td_session_pmu_model(ds->s));
	snprintf(ds->events_file, sizeof(ds->events_file), "%s", td_session_events_file(ds->s));
	d->s[d->ns++] = ds;
	d->sessions_started++;
	notify_status(d);
	return 0;
}

/* A session that has ended: finished (its row closed), tails told. */
static void reap(struct daemon *d, int i)
{
	struct dsession *ds = d->s[i];
	struct td_session_result res;
	td_err err;
	int rc;

	d->intervals_lost += td_session_failed_writes(ds->s);
	d->periods_missed += (long long)td_session_missed_periods(ds->s);
	rc = td_session_finish(ds->s, &res, &err);

	logd(d, "session %lld ended: %s%s%s", (long long)ds->id, res.stop_reason, rc ? "; " : "", rc ? err.msg : "");
	if (ds->top && ds->top_n > 0) {
		td_err terr;
		if (td_top_record(ds->db_path, ds->id, ds->top, ds->top_n, &terr))
			logd(d, "session %lld: top processes not recorded: %s", (long long)ds->id, terr.msg);
	}
	for (int k = 0; k < td_clients_count(d->clients); k++) {
		struct td_client *c = td_clients_at(d->clients, k);
		if (c->tail_session != ds->id)
			continue;
		send_json(d, c, json_pack("{s:i, s:I, s:s, s:I, s:s, s:i}", "v", TD_PROTOCOL_VERSION, "id",
					  (json_int_t)c->tail_id, "event", "end", "session", (json_int_t)ds->id, "reason",
					  res.stop_reason, "intervals", ds->intervals));
		c->tail_session = 0;
	}
	for (int k = 0; k < d->cfg.nschedule; k++) {
		struct sched_state *st = &d->sched[k];
		if (st->running != ds->id)
			continue;
		st->running = 0;
		/* the run's values stay exported until the next run ends */
		if (ds->snap.seq >= 0) {
			td_snapshot_move(&st->last, &ds->snap);
			st->last_session = ds->id;
			memcpy(st->rung, ds->rung, sizeof(st->rung));
			memcpy(st->model, ds->model, sizeof(st->model));
			memcpy(st->events_file, ds->events_file, sizeof(st->events_file));
		}
	}
	dsession_free(ds);
	memmove(d->s + i, d->s + i + 1, (size_t)(d->ns - i - 1) * sizeof(*d->s));
	d->ns--;
	notify_status(d);
}

/* ---- the schedule ------------------------------------------------------ */

static int start_scheduled(struct daemon *d, int k, td_err *err)
{
	const struct td_schedule_entry *e = &d->cfg.schedule[k];
	struct dsession *ds = calloc(1, sizeof(*ds));
	struct td_session_opts o;

	if (!ds) {
		td_err_set(err, "out of memory");
		return -1;
	}
	memset(&o, 0, sizeof(o));
	ds->entry = k;
	ds->top_n = e->top;
	if (dup_opt(&ds->entry_name, e->name) || dup_opt(&ds->nodes, e->nodes) || dup_opt(&ds->cgroup, e->cgroup)) {
		dsession_free(ds);
		td_err_set(err, "out of memory");
		return -1;
	}
	o.system = !e->cgroup;
	o.interval_ms = e->interval_ms;
	o.duration_ms = (int)(e->duration_ns / 1000000ull);
	o.level = e->level;
	if (e->top > 0)
		ds->top = td_top_snapshot_take();
	if (start_session(d, ds, &o, err)) {
		dsession_free(ds);
		return -1;
	}
	d->sched[k].running = ds->id;
	d->sched[k].runs++;
	logd(d, "schedule %s: session %lld started (%s, %.3g s)", e->name, (long long)ds->id,
	     e->cgroup ? e->cgroup : "system-wide", (double)e->duration_ns / 1e9);
	return 0;
}

/* Runs due now; a run still going, or several periods passed at once (the
 * system was busy, the clock jumped), is logged as missed, not stacked. */
static void run_schedule(struct daemon *d)
{
	uint64_t now = td_now_ns();

	for (int k = 0; k < d->cfg.nschedule; k++) {
		struct sched_state *st = &d->sched[k];
		const struct td_schedule_entry *e = &d->cfg.schedule[k];
		td_err err;
		if (now < st->next_ns)
			continue;
		uint64_t behind = (now - st->next_ns) / e->every_ns;
		st->next_ns += (behind + 1) * e->every_ns;
		if (behind > 0) {
			st->missed += (int)behind;
			d->missed_runs += (long long)behind;
			logd(d, "schedule %s: %llu run%s missed (the daemon was late)", e->name, (unsigned long long)behind,
			     behind == 1 ? "" : "s");
		}
		if (st->running) {
			st->missed++;
			d->missed_runs++;
			logd(d, "schedule %s: run missed, session %lld still runs", e->name, (long long)st->running);
			continue;
		}
		if (start_scheduled(d, k, &err)) {
			st->missed++;
			d->missed_runs++;
			logd(d, "schedule %s: run missed: %s", e->name, err.msg);
		}
	}
}

static int schedule_timeout_ms(const struct daemon *d)
{
	uint64_t now = td_now_ns();
	int t = -1;

	for (int k = 0; k < d->cfg.nschedule; k++) {
		int left = d->sched[k].next_ns <= now ? 0 : (int)((d->sched[k].next_ns - now) / 1000000ull) + 1;
		if (t < 0 || left < t)
			t = left;
	}
	return t;
}

/* A new schedule: entries kept by name keep their cadence and run. */
static int adopt_schedule(struct daemon *d, struct td_config *c, td_err *err)
{
	struct sched_state *st = calloc((size_t)c->nschedule + 1, sizeof(*st));
	uint64_t now = td_now_ns();

	if (!st) {
		td_err_set(err, "out of memory");
		return -1;
	}
	for (int k = 0; k < c->nschedule; k++) {
		st[k].next_ns = now;
		td_snapshot_init(&st[k].last);
		for (int j = 0; d->sched && j < d->cfg.nschedule; j++)
			if (!strcmp(d->cfg.schedule[j].name, c->schedule[k].name) &&
			    d->cfg.schedule[j].every_ns == c->schedule[k].every_ns) {
				st[k] = d->sched[j];
				td_snapshot_init(&d->sched[j].last); /* moved */
			}
	}
	for (int j = 0; d->sched && j < d->cfg.nschedule; j++)
		td_snapshot_free(&d->sched[j].last);
	free(d->sched);
	d->sched = st;
	return 0;
}

/* ---- auto-attach ---------------------------------------------------------- */

/* Does a session of rule already follow pid (itself, or with children an ancestor of it)? */
static bool followed_by_rule(const struct daemon *d, const struct td_auto_rule *r, pid_t pid)
{
	for (int i = 0; i < d->ns; i++) {
		const struct dsession *ds = d->s[i];
		pid_t p = pid;
		if (!ds->rule || strcmp(ds->rule, r->name))
			continue;
		for (int depth = 0; p > 1 && depth < 4096; depth++) {
			if (p == ds->pid)
				return true;
			if (!r->children || td_proc_stat(p, &p, NULL) != 0)
				break;
		}
	}
	return false;
}

static void start_auto(struct daemon *d, const struct td_auto_rule *r, const struct td_exec *e)
{
	struct td_session_opts o;
	struct dsession *ds;
	char name[80];
	int running = 0;
	td_err err;

	if (followed_by_rule(d, r, e->pid))
		return;
	for (int i = 0; i < d->ns; i++)
		running += d->s[i]->rule && !strcmp(d->s[i]->rule, r->name);
	if (running >= r->max_sessions) {
		d->auto_missed++;
		logd(d, "auto %s: process %d (%s) not followed: this rule runs %d session%s already (max_sessions)",
		     r->name, (int)e->pid, e->comm, running, running == 1 ? "" : "s");
		return;
	}
	snprintf(name, sizeof(name), "auto:%s", r->name);
	if (!(ds = calloc(1, sizeof(*ds))) || dup_opt(&ds->entry_name, name) || dup_opt(&ds->rule, r->name) ||
	    dup_opt(&ds->nodes, r->nodes)) {
		if (ds)
			dsession_free(ds);
		d->auto_missed++;
		logd(d, "auto %s: process %d not followed: out of memory", r->name, (int)e->pid);
		return;
	}
	memset(&o, 0, sizeof(o));
	ds->entry = -1;
	ds->pid = e->pid;
	o.attach_pid = e->pid;
	o.attach_children = r->children;
	o.interval_ms = r->interval_ms ? r->interval_ms : d->cfg.interval_ms;
	o.duration_ms = (int)(r->duration_ns / 1000000ull);
	o.level = r->level;
	if (start_session(d, ds, &o, &err)) {
		d->auto_missed++;
		logd(d, "auto %s: process %d (%s) not followed: %s", r->name, (int)e->pid, e->comm, err.msg);
		dsession_free(ds);
		return;
	}
	logd(d, "auto %s: session %lld follows process %d (%s, %s)", r->name, (long long)ds->id, (int)e->pid, e->comm,
	     e->path[0] ? e->path : "file unknown");
}

/* Each exec against the rules: the first that matches starts a session. */
static void match_execs(struct daemon *d, const struct td_exec *e, int n)
{
	for (int i = 0; i < n; i++)
		for (int k = 0; k < d->autos.n; k++)
			if (td_auto_rule_matches(&d->autos, k, &e[i])) {
				start_auto(d, &d->cfg.autos[k], &e[i]);
				break;
			}
}

/* The watcher and the resolved rules for d->cfg's [auto] sections (none:
 * no watcher); the processes running now are matched too. */
static int setup_auto(struct daemon *d, td_err *err)
{
	const struct td_exec *e;
	int n;

	td_auto_rules_free(&d->autos);
	if (d->cfg.nautos == 0) {
		td_exec_watch_free(d->watch);
		d->watch = NULL;
		return 0;
	}
	if (td_auto_rules_init(&d->autos, d->cfg.autos, d->cfg.nautos, err))
		return -1;
	if (!d->watch) {
		if (!(d->watch = td_exec_watch_new(d->cfg.tracker, err)))
			return -1;
		logd(d, "auto-attach: %s", td_exec_watch_describe(d->watch));
	}
	if ((n = td_exec_watch_existing(d->watch, &e)) < 0) {
		td_err_set(err, "cannot list the running processes: %s", strerror(-n));
		return -1;
	}
	match_execs(d, e, n);
	return 0;
}

static void watch_execs(struct daemon *d)
{
	const struct td_exec *e;
	int n = td_exec_watch_poll(d->watch, &e);

	if (n < 0) {
		logd(d, "auto-attach: cannot read the execs: %s", strerror(-n));
		return;
	}
	match_execs(d, e, n);
}

/* ---- requests ---------------------------------------------------------- */

static void op_attach(struct daemon *d, struct td_client *c, const struct td_request *r)
{
	struct td_session_opts o;
	struct dsession *ds;
	bool user_only;
	td_err err;
	json_t *rep;

	if (td_auth_may_count(&c->peer, r->pid, &user_only, &err)) {
		logd(d, "attach to %d by uid %u refused: %s", (int)r->pid, (unsigned)c->peer.uid, err.msg);
		reply_error(d, c, r->id, err.msg);
		return;
	}
	if (!(ds = calloc(1, sizeof(*ds))) || dup_opt(&ds->nodes, r->nodes[0] ? r->nodes : NULL)) {
		free(ds);
		reply_error(d, c, r->id, "out of memory");
		return;
	}
	memset(&o, 0, sizeof(o));
	ds->entry = -1;
	ds->owner = c->peer.uid;
	ds->pid = r->pid;
	o.attach_pid = r->pid;
	o.attach_children = r->children;
	o.interval_ms = r->interval_ms ? r->interval_ms : d->cfg.interval_ms;
	o.duration_ms = r->duration_ms;
	o.level = r->level;
	o.has_owner = true;
	o.owner_uid = c->peer.uid;
	o.owner_gid = c->peer.gid;
	/* threads born later (children, execs) are opened with the client's ids: the kernel decides each */
	o.open_as_owner = !c->peer.admin;
	o.user_only = user_only;
	if (start_session(d, ds, &o, &err)) {
		dsession_free(ds);
		reply_error(d, c, r->id, err.msg);
		return;
	}
	logd(d, "session %lld: attached to %d for uid %u%s", (long long)ds->id, (int)r->pid, (unsigned)c->peer.uid,
	     user_only ? " (user space only: perf_event_paranoid)" : "");
	rep = reply_ok(r->id);
	json_object_set_new(rep, "session", json_integer(ds->id));
	json_object_set_new(rep, "user_only", json_boolean(user_only));
	json_object_set_new(rep, "interval_ms", json_integer(o.interval_ms));
	send_json(d, c, rep);
}

/* The running session r names, if c may see it; else an error reply. */
static struct dsession *visible_running(struct daemon *d, struct td_client *c, const struct td_request *r)
{
	struct dsession *ds = find_running(d, r->session);
	char msg[160];

	if (!ds || !td_auth_may_see(&c->peer, ds->entry >= 0 ? -1 : (long long)ds->owner)) {
		snprintf(msg, sizeof(msg), "no running session %lld of yours: see 'tdctl list'", (long long)r->session);
		reply_error(d, c, r->id, msg);
		return NULL;
	}
	return ds;
}

static void op_detach(struct daemon *d, struct td_client *c, const struct td_request *r)
{
	struct dsession *ds = visible_running(d, c, r);
	char why[96];

	if (!ds)
		return;
	snprintf(why, sizeof(why), "detached by uid %u", (unsigned)c->peer.uid);
	td_session_stop(ds->s, why);
	json_t *rep = reply_ok(r->id);
	json_object_set_new(rep, "session", json_integer(ds->id));
	send_json(d, c, rep);
}

static json_t *running_json(const struct dsession *ds)
{
	json_t *o = json_pack("{s:I, s:s, s:I, s:i}", "session", (json_int_t)ds->id, "kind",
			      ds->entry >= 0 ? "schedule" : "attach", "started_ns", (json_int_t)ds->started_ns,
			      "intervals", ds->intervals);

	if (ds->entry >= 0)
		json_object_set_new(o, "schedule", json_string(ds->entry_name));
	else {
		json_object_set_new(o, "pid", json_integer(ds->pid));
		json_object_set_new(o, "owner_uid", json_integer(ds->owner));
		if (ds->rule)
			json_object_set_new(o, "auto", json_string(ds->rule));
	}
	return o;
}

static void op_list(struct daemon *d, struct td_client *c, const struct td_request *r)
{
	json_t *rep = reply_ok(r->id), *a = json_array();

	for (int i = 0; i < d->ns; i++)
		if (td_auth_may_see(&c->peer, d->s[i]->entry >= 0 ? -1 : (long long)d->s[i]->owner))
			json_array_append_new(a, running_json(d->s[i]));
	json_object_set_new(rep, "sessions", a);
	send_json(d, c, rep);
}

static void op_status(struct daemon *d, struct td_client *c, const struct td_request *r)
{
	json_t *rep = reply_ok(r->id), *sched = json_array();
	uint64_t now = td_now_ns();
	int mine = 0;

	for (int i = 0; i < d->ns; i++)
		mine += td_auth_may_see(&c->peer, d->s[i]->entry >= 0 ? -1 : (long long)d->s[i]->owner);
	json_object_set_new(rep, "version", json_string(PACKAGE_VERSION));
	json_object_set_new(rep, "pid", json_integer(getpid()));
	json_object_set_new(rep, "uptime_s", json_real((double)(now - d->start_mono) / 1e9));
	json_object_set_new(rep, "sessions_running", json_integer(mine));
	json_object_set_new(rep, "admin", json_boolean(c->peer.admin));
	json_object_set_new(rep, "uid", json_integer(c->peer.uid));
	if (c->peer.admin) {
		json_object_set_new(rep, "database", json_string(d->cfg.db_path));
		json_object_set_new(rep, "clients", json_integer(td_clients_count(d->clients)));
		json_object_set_new(rep, "intervals_written", json_integer(d->intervals_written));
		json_object_set_new(rep, "sessions_started", json_integer(d->sessions_started));
		json_object_set_new(rep, "missed_runs", json_integer(d->missed_runs));
	}
	for (int k = 0; k < d->cfg.nschedule; k++) {
		const struct td_schedule_entry *e = &d->cfg.schedule[k];
		json_t *o = json_pack("{s:s, s:f, s:f, s:f, s:i, s:i}", "name", e->name, "every_s",
				      (double)e->every_ns / 1e9, "duration_s", (double)e->duration_ns / 1e9, "next_in_s",
				      d->sched[k].next_ns > now ? (double)(d->sched[k].next_ns - now) / 1e9 : 0.0,
				      "runs", d->sched[k].runs, "missed", d->sched[k].missed);
		json_object_set_new(o, "running", d->sched[k].running ? json_integer(d->sched[k].running) : json_null());
		json_array_append_new(sched, o);
	}
	json_object_set_new(rep, "schedule", sched);
	send_json(d, c, rep);
}

struct sessions_ctx {
	const struct td_peer *peer;
	json_t *all;
};

static int collect_session(const struct td_session_row *row, void *ctx)
{
	struct sessions_ctx *sc = ctx;
	json_t *o;

	if (!td_auth_may_see(sc->peer, row->schedule[0] ? -1 : row->owner_uid))
		return 0;
	o = json_pack("{s:I, s:s, s:s, s:s, s:I, s:i, s:i}", "session", (json_int_t)row->id, "kind", row->kind,
		      "status", row->status, "command", row->command, "started_ns", (json_int_t)row->started_ns,
		      "intervals", row->nintervals, "threads", row->nthreads);
	json_object_set_new(o, "ended_ns", row->ended_ns ? json_integer((json_int_t)row->ended_ns) : json_null());
	json_object_set_new(o, "owner_uid", row->owner_uid >= 0 ? json_integer(row->owner_uid) : json_null());
	json_object_set_new(o, "schedule", row->schedule[0] ? json_string(row->schedule) : json_null());
	json_object_set_new(o, "message", json_string(row->message));
	json_array_append_new(sc->all, o);
	return 0;
}

static void op_sessions(struct daemon *d, struct td_client *c, const struct td_request *r)
{
	struct sessions_ctx sc = { &c->peer, json_array() };
	struct td_store *st;
	td_err err;
	json_t *rep, *newest = json_array();
	size_t n;
	int limit = r->limit ? r->limit : 50;

	if (td_store_open(d->cfg.db_path, TD_STORE_READ, &st, &err)) {
		json_decref(sc.all);
		json_decref(newest);
		reply_error(d, c, r->id, err.msg);
		return;
	}
	if (td_store_sessions(st, collect_session, &sc)) {
		td_store_describe_error(st, &err);
		td_store_close(st);
		json_decref(sc.all);
		json_decref(newest);
		reply_error(d, c, r->id, err.msg);
		return;
	}
	td_store_close(st);
	n = json_array_size(sc.all);
	for (size_t i = 0; i < n && (int)i < limit; i++)
		json_array_append(newest, json_array_get(sc.all, n - 1 - i));
	json_decref(sc.all);
	rep = reply_ok(r->id);
	json_object_set_new(rep, "sessions", newest);
	send_json(d, c, rep);
}

/* A report is rendered by a child process (report_job.h): the loop goes on
 * sampling, and the client's later requests wait for this reply. */
static void op_report(struct daemon *d, struct td_client *c, const struct td_request *r)
{
	struct td_session_row row;
	struct td_store *st;
	td_err err;
	char msg[160];

	if (td_store_open(d->cfg.db_path, TD_STORE_READ, &st, &err)) {
		reply_error(d, c, r->id, err.msg);
		return;
	}
	if (td_store_session(st, r->session, &row) ||
	    !td_auth_may_see(&c->peer, row.schedule[0] ? -1 : row.owner_uid)) {
		td_store_close(st);
		snprintf(msg, sizeof(msg), "no session %lld of yours: see 'tdctl sessions'", (long long)r->session);
		reply_error(d, c, r->id, msg);
		return;
	}
	td_store_close(st);
	if (d->njobs >= TD_REPORT_JOBS_MAX) {
		snprintf(msg, sizeof(msg), "%d reports are being prepared already: try again in a moment",
			 TD_REPORT_JOBS_MAX);
		reply_error(d, c, r->id, msg);
		return;
	}
	struct td_report_job_spec spec = { .exe = "/proc/self/exe", .db_path = d->cfg.db_path,
					   .events_dir = d->cfg.events_dir, .session = r->session,
					   .json = !strcmp(r->format, "json"), .max_output = d->cfg.max_output,
					   .client = c->serial, .request_id = r->id };
	if (td_report_job_start(&spec, &d->jobs[d->njobs], &err)) {
		reply_error(d, c, r->id, err.msg);
		return;
	}
	d->njobs++;
	c->waiting = true;
}

/* A finished report: its reply to the client that asked, if still there. */
static void report_done(struct daemon *d, struct td_report_job *j)
{
	struct td_client *c = td_clients_find(d->clients, td_report_job_client(j));
	int64_t id = td_report_job_request(j);
	const char *text = NULL, *why = NULL;
	size_t len = 0;

	if (!c)
		return;
	if (td_report_job_result(j, &text, &len, &why)) {
		reply_error(d, c, id, why);
	} else {
		json_t *rep = reply_ok(id);
		bool json = td_report_job_json(j);
		json_object_set_new(rep, "session", json_integer(td_report_job_session(j)));
		json_object_set_new(rep, "format", json_string(json ? "json" : "text"));
		if (json) {
			json_error_t je;
			json_t *parsed = json_loadb(text, len, 0, &je);
			json_object_set_new(rep, "report", parsed ? parsed : json_stringn(text, len));
		} else {
			json_object_set_new(rep, "report", json_stringn(text, len));
		}
		send_json(d, c, rep);
	}
	td_clients_resume(d->clients, c);
}

static void op_tail(struct daemon *d, struct td_client *c, const struct td_request *r)
{
	struct dsession *ds = visible_running(d, c, r);

	if (!ds)
		return;
	c->tail_session = ds->id;
	c->tail_id = r->id;
	json_t *rep = reply_ok(r->id);
	json_object_set_new(rep, "session", json_integer(ds->id));
	send_json(d, c, rep);
}

static void op_profile_now(struct daemon *d, struct td_client *c, const struct td_request *r)
{
	td_err err;
	char msg[160];

	if (!c->peer.admin) {
		reply_error(d, c, r->id, "only root or the admin group may start system profiles");
		return;
	}
	for (int k = 0; k < d->cfg.nschedule; k++) {
		if (strcmp(d->cfg.schedule[k].name, r->entry))
			continue;
		if (d->sched[k].running) {
			snprintf(msg, sizeof(msg), "schedule %s runs already (session %lld)", r->entry,
				 (long long)d->sched[k].running);
			reply_error(d, c, r->id, msg);
		} else if (start_scheduled(d, k, &err)) {
			reply_error(d, c, r->id, err.msg);
		} else {
			json_t *rep = reply_ok(r->id);
			json_object_set_new(rep, "session", json_integer(d->sched[k].running));
			send_json(d, c, rep);
		}
		return;
	}
	snprintf(msg, sizeof(msg), "no schedule entry '%s': see 'tdctl status'", r->entry);
	reply_error(d, c, r->id, msg);
}

static int reload(struct daemon *d, td_err *err);

static void op_reload(struct daemon *d, struct td_client *c, const struct td_request *r)
{
	td_err err;

	if (!c->peer.admin) {
		reply_error(d, c, r->id, "only root or the admin group may reload the configuration");
		return;
	}
	if (reload(d, &err))
		reply_error(d, c, r->id, err.msg);
	else
		send_json(d, c, reply_ok(r->id));
}

static void on_line(void *ctx, struct td_client *c, const char *line, size_t len)
{
	struct daemon *d = ctx;
	struct td_request r;
	td_err err;

	if (td_request_decode(line, len, &r, &err)) {
		reply_error(d, c, r.id, err.msg);
		return;
	}
	switch (r.op) {
	case TD_OP_ATTACH: op_attach(d, c, &r); break;
	case TD_OP_DETACH: op_detach(d, c, &r); break;
	case TD_OP_LIST: op_list(d, c, &r); break;
	case TD_OP_STATUS: op_status(d, c, &r); break;
	case TD_OP_SESSIONS: op_sessions(d, c, &r); break;
	case TD_OP_REPORT: op_report(d, c, &r); break;
	case TD_OP_TAIL: op_tail(d, c, &r); break;
	case TD_OP_PROFILE_NOW: op_profile_now(d, c, &r); break;
	case TD_OP_RELOAD: op_reload(d, c, &r); break;
	}
}

/* ---- the exporter ------------------------------------------------------ */

static long long store_bytes(const char *db)
{
	char wal[4096];
	struct stat st;
	long long n;

	if (stat(db, &st) < 0)
		return -1;
	n = st.st_size;
	snprintf(wal, sizeof(wal), "%s-wal", db);
	if (stat(wal, &st) == 0)
		n += st.st_size;
	return n;
}

/* A scrape: every schedule entry (its running run's latest interval, else
 * its last run's) and the newest export_top attached processes. */
static void fill_metrics(void *ctx, struct td_om *om)
{
	struct daemon *d = ctx;
	struct td_export_target *t = calloc((size_t)d->cfg.nschedule + (size_t)d->ns + 1, sizeof(*t));
	char (*names)[96] = calloc((size_t)d->cfg.nschedule + (size_t)d->ns + 1, sizeof(*names));
	struct td_export_health h = { .scrape_seconds = d->scrape_seconds };
	uint64_t t0 = td_now_ns();
	struct rusage ru;
	int n = 0, attached = 0;

	if (!t || !names) {
		free(t);
		free(names);
		om->failed = true;
		return;
	}
	for (int k = 0; k < d->cfg.nschedule; k++) {
		const struct sched_state *st = &d->sched[k];
		const struct dsession *run = st->running ? find_running(d, st->running) : NULL;
		snprintf(names[n], sizeof(names[n]), "schedule:%s", d->cfg.schedule[k].name);
		if (run && run->snap.seq >= 0)
			t[n] = (struct td_export_target){ names[n], NULL, run->id, run->rung, run->model, run->events_file,
							  &run->snap };
		else if (st->last.seq >= 0)
			t[n] = (struct td_export_target){ names[n], NULL, st->last_session, st->rung, st->model,
							  st->events_file, &st->last };
		else
			continue;
		n++;
	}
	for (int i = d->ns - 1; i >= 0 && attached < d->cfg.export_top; i--) {
		const struct dsession *ds = d->s[i];
		if (ds->entry >= 0)
			continue;
		attached++;
		snprintf(names[n], sizeof(names[n]), "pid:%d", (int)ds->pid);
		t[n] = (struct td_export_target){ names[n], d->cfg.export_comm ? ds->comm : NULL, ds->id, ds->rung,
						  ds->model, ds->events_file, &ds->snap };
		n++;
	}
	for (int i = 0; i < d->ns; i++) {
		if (d->s[i]->entry >= 0)
			h.schedule_running++;
		else
			h.attach_running++;
	}
	h.sessions_started = d->sessions_started;
	h.intervals_written = d->intervals_written;
	h.intervals_lost = d->intervals_lost;
	h.periods_missed = d->periods_missed;
	for (int i = 0; i < d->ns; i++) {
		h.intervals_lost += td_session_failed_writes(d->s[i]->s);
		h.periods_missed += (long long)td_session_missed_periods(d->s[i]->s);
	}
	h.runs_missed = d->missed_runs;
	if (getrusage(RUSAGE_SELF, &ru) == 0)
		h.cpu_seconds = (double)ru.ru_utime.tv_sec + (double)ru.ru_stime.tv_sec +
				((double)ru.ru_utime.tv_usec + (double)ru.ru_stime.tv_usec) / 1e6;
	h.store_bytes = store_bytes(d->cfg.db_path);
	h.clients = td_clients_count(d->clients);
	td_export_render(om, t, n, &h);
	d->scrape_seconds = (double)(td_now_ns() - t0) / 1e9;
	free(t);
	free(names);
}

/* ---- configuration ------------------------------------------------------ */

int td_daemon_read_config(const struct td_daemon_opts *o, struct td_config *c, td_err *err)
{
	const char *path = o->config_path ? o->config_path : DEFAULT_CONFIG;

	if (!o->config_given && access(path, F_OK) != 0)
		td_config_defaults(c);
	else if (td_config_load(path, c, err))
		return -1;
	if ((o->socket_path && td_config_set_string(&c->socket_path, o->socket_path)) ||
	    (o->db_path && td_config_set_string(&c->db_path, o->db_path)) ||
	    (o->events_dir && td_config_set_string(&c->events_dir, o->events_dir))) {
		td_err_set(err, "out of memory");
		return -1;
	}
	return 0;
}

/* SIGHUP or reload: a bad file keeps the configuration in force. */
static int reload(struct daemon *d, td_err *err)
{
	struct td_config c;

	sd_notify(0, "RELOADING=1");
	if (td_daemon_read_config(d->o, &c, err)) {
		td_config_free(&c);
		logd(d, "configuration not reloaded, the old one stays: %s", err->msg);
		sd_notify(0, "READY=1");
		return -1;
	}
	if (strcmp(c.socket_path, d->cfg.socket_path))
		logd(d, "the socket moves to %s at the next start only", c.socket_path);
	if ((c.export_listen == NULL) != (d->cfg.export_listen == NULL) ||
	    (c.export_listen && strcmp(c.export_listen, d->cfg.export_listen)))
		logd(d, "the exporter's address changes at the next start only");
	if (adopt_schedule(d, &c, err)) {
		td_config_free(&c);
		sd_notify(0, "READY=1");
		return -1;
	}
	td_clients_set_limits(d->clients, c.max_clients, c.max_request, c.max_output, c.client_timeout_ms,
			      c.admin_group);
	td_config_free(&d->cfg);
	d->cfg = c;
	if (setup_auto(d, err))
		logd(d, "auto-attach stopped: %s", err->msg);
	logd(d, "configuration reloaded: %d schedule entr%s, %d auto rule%s", c.nschedule, c.nschedule == 1 ? "y" : "ies",
	     c.nautos, c.nautos == 1 ? "" : "s");
	sd_notify(0, "READY=1");
	return 0;
}

/* ---- start and stop ---------------------------------------------------- */

/* Listen on path; a socket file nobody answers on is stale and replaced,
 * one that answers means another topdownd runs. */
static int listen_on(const char *path, td_err *err)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int fd;

	if (strlen(path) >= sizeof(a.sun_path)) {
		td_err_set(err, "socket path '%s' is longer than %zu bytes: give a shorter one", path,
			   sizeof(a.sun_path) - 1);
		return -1;
	}
	memcpy(a.sun_path, path, strlen(path) + 1);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0) {
		td_err_set(err, "cannot create a socket: %s", strerror(errno));
		return -1;
	}
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0) {
		int probe, e = errno;
		bool alive = false;
		if (e == EADDRINUSE && (probe = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) >= 0) {
			alive = connect(probe, (struct sockaddr *)&a, sizeof(a)) == 0;
			close(probe);
		}
		if (alive) {
			close(fd);
			td_err_set(err, "another topdownd answers on '%s': stop it first, or give another --socket", path);
			return -1;
		}
		/* a socket file nobody answers on: left by a topdownd that was killed */
		if (e != EADDRINUSE || unlink(path) != 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0) {
			td_err_set(err, "cannot listen on '%s': %s: check that its directory exists and is writable", path,
				   strerror(e != EADDRINUSE ? e : errno));
			close(fd);
			return -1;
		}
	}
	/* anyone may connect; what they may do is decided per request */
	if (chmod(path, 0666) < 0 || listen(fd, 128) < 0) {
		td_err_set(err, "cannot listen on '%s': %s", path, strerror(errno));
		close(fd);
		unlink(path);
		return -1;
	}
	return fd;
}

/* The database exists and is ours; sessions a killed topdownd left
 * 'running' are marked interrupted. */
static int open_database(struct daemon *d, td_err *err)
{
	struct td_store *st;
	int n;

	if (td_store_open(d->cfg.db_path, TD_STORE_WRITE, &st, err))
		return -1;
	n = td_store_recover(st);
	td_store_close(st);
	if (n > 0)
		logd(d, "%d session%s left running by a stopped collector marked interrupted", n, n == 1 ? "" : "s");
	return 0;
}

/* Read the report jobs' pipes (as polled: the first n jobs, fds[i] each);
 * answer and free the finished ones. */
static void reports(struct daemon *d, const struct pollfd *p, const int *fds, int n)
{
	int kept = 0;

	for (int i = 0; i < d->njobs; i++) {
		struct td_report_job *j = d->jobs[i];
		bool polled = i < n;
		if (polled && td_report_job_dispatch(j, p, fds[i])) {
			report_done(d, j);
			td_report_job_free(j);
		} else {
			d->jobs[kept++] = j;
		}
		if (polled)
			p += fds[i];
	}
	d->njobs = kept;
}

static void shutdown_sessions(struct daemon *d)
{
	for (int i = 0; i < d->ns; i++)
		td_session_stop(d->s[i]->s, "stopped: topdownd shut down");
	while (d->ns > 0)
		reap(d, d->ns - 1);
}

static void handle_signal(struct daemon *d)
{
	struct signalfd_siginfo si;

	while (read(d->sigfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
		if (si.ssi_signo == SIGHUP) {
			td_err err;
			logd(d, "SIGHUP: reloading the configuration");
			reload(d, &err);
		} else {
			logd(d, "%s: stopping", strsignal((int)si.ssi_signo));
			d->stop = true;
		}
	}
}

static int min_timeout(int a, int b)
{
	return a < 0 ? b : b < 0 ? a : a < b ? a : b;
}

static void loop(struct daemon *d)
{
	struct pollfd *p = NULL;
	int cap = 0;

	while (!d->stop) {
		int need = 3 + td_clients_nfds(d->clients) + d->ns * TD_SESSION_POLLFDS + 2 * TD_REPORT_JOBS_MAX, np = 0,
		    timeout, nclient;
		int exp_at = -1;
		int *first = calloc((size_t)d->ns + 1, sizeof(int)), *count = calloc((size_t)d->ns + 1, sizeof(int));
		int nsess = d->ns;
		if (need > cap) {
			struct pollfd *grown = realloc(p, (size_t)need * sizeof(*p));
			if (grown) {
				p = grown;
				cap = need;
			}
		}
		if (!first || !count || need > cap) {
			free(first);
			free(count);
			logd(d, "out of memory: stopping");
			break;
		}
		p[np++] = (struct pollfd){ .fd = d->sigfd, .events = POLLIN };
		nclient = td_clients_pollfds(d->clients, p + np);
		np += nclient;
		timeout = min_timeout(td_clients_timeout_ms(d->clients), schedule_timeout_ms(d));
		if (d->exporter) {
			exp_at = np;
			p[np++] = (struct pollfd){ .fd = td_exporter_fd(d->exporter), .events = POLLIN };
			timeout = min_timeout(timeout, td_exporter_timeout_ms(d->exporter));
		}
		int watch_at = -1;
		if (d->watch) {
			watch_at = np;
			p[np++] = (struct pollfd){ .fd = td_exec_watch_fd(d->watch), .events = POLLIN };
		}
		int jobs_at = np, njobs = d->njobs, job_fds[TD_REPORT_JOBS_MAX];
		for (int i = 0; i < njobs; i++) {
			job_fds[i] = td_report_job_pollfds(d->jobs[i], p + np);
			np += job_fds[i];
		}
		for (int i = 0; i < nsess; i++) {
			first[i] = np;
			count[i] = td_session_pollfds(d->s[i]->s, p + np);
			np += count[i];
			timeout = min_timeout(timeout, td_session_timeout_ms(d->s[i]->s));
		}
		if (poll(p, (nfds_t)np, timeout) < 0 && errno != EINTR) {
			logd(d, "poll failed: %s", strerror(errno));
			free(first);
			free(count);
			break;
		}
		/* sessions first: an interval is due before any client's wish */
		for (int i = 0; i < nsess; i++)
			if (!td_session_done(d->s[i]->s))
				td_session_dispatch(d->s[i]->s, p + first[i], count[i]);
		free(first);
		free(count);
		for (int i = d->ns - 1; i >= 0; i--)
			if (td_session_done(d->s[i]->s))
				reap(d, i);
		if (p[0].revents & POLLIN)
			handle_signal(d);
		td_clients_dispatch(d->clients, p + 1, nclient);
		reports(d, p + jobs_at, job_fds, njobs);
		if (d->exporter && (p[exp_at].revents || td_exporter_timeout_ms(d->exporter) == 0))
			td_exporter_run(d->exporter);
		/* the watcher of before a reload (watch_at) is the one polled; a new one is read next time */
		if (d->watch && watch_at >= 0 && p[watch_at].revents)
			watch_execs(d);
		run_schedule(d);
	}
	free(p);
}

int td_daemon_run(const struct td_daemon_opts *o, td_err *err)
{
	struct daemon d = { .o = o, .listen_fd = -1, .sigfd = -1 };
	sigset_t old;
	int rc = -1;

	if (!o->log_stderr)
		openlog("topdownd", LOG_PID, LOG_DAEMON);
	if (td_daemon_read_config(o, &d.cfg, err))
		goto out;
	if (adopt_schedule(&d, &d.cfg, err) || open_database(&d, err))
		goto out;
	if ((d.sigfd = td_session_block_signals(&old)) < 0) {
		td_err_set(err, "cannot receive signals: %s", strerror(errno));
		goto out;
	}
	/* the rules before the socket: a client never finds a daemon whose watcher then fails */
	if (setup_auto(&d, err))
		goto out;
	if ((d.listen_fd = listen_on(d.cfg.socket_path, err)) < 0)
		goto out;
	d.clients = td_clients_new(d.listen_fd, d.cfg.max_clients, d.cfg.max_request, d.cfg.max_output,
				   d.cfg.client_timeout_ms, d.cfg.admin_group, on_line, clients_log, &d);
	if (!d.clients) {
		td_err_set(err, "out of memory");
		goto out;
	}
	d.scrape_seconds = -1;
	if (d.cfg.export_listen) {
		if (!(d.exporter = td_exporter_start(d.cfg.export_listen, d.cfg.max_clients, fill_metrics, &d, err)))
			goto out;
		logd(&d, "serving metrics on %s (port %d)", d.cfg.export_listen, td_exporter_port(d.exporter));
	}
	d.start_mono = td_now_ns();
	/* the loop samples every session: raised, it keeps their clocks on a saturated machine */
	if (!o->no_priority) {
		struct td_sampler_priority prio;
		td_sampler_priority_raise(&prio);
		logd(&d, "%s", prio.said);
	}
	logd(&d, "listening on %s, database %s, %d schedule entr%s, %d auto rule%s", d.cfg.socket_path, d.cfg.db_path,
	     d.cfg.nschedule, d.cfg.nschedule == 1 ? "y" : "ies", d.cfg.nautos, d.cfg.nautos == 1 ? "" : "s");
	sd_notify(0, "READY=1");
	notify_status(&d);
	loop(&d);
	sd_notify(0, "STOPPING=1");
	shutdown_sessions(&d);
	rc = 0;
out:
	for (int i = 0; i < d.njobs; i++)
		td_report_job_free(d.jobs[i]); /* nobody will read them now */
	td_exporter_stop(d.exporter);
	td_exec_watch_free(d.watch);
	td_auto_rules_free(&d.autos);
	td_clients_free(d.clients);
	if (d.listen_fd >= 0) {
		close(d.listen_fd);
		unlink(d.cfg.socket_path);
	}
	if (d.sigfd >= 0) {
		close(d.sigfd);
		sigprocmask(SIG_SETMASK, &old, NULL);
	}
	free(d.s);
	for (int k = 0; d.sched && k < d.cfg.nschedule; k++)
		td_snapshot_free(&d.sched[k].last);
	free(d.sched);
	td_config_free(&d.cfg);
	if (!o->log_stderr)
		closelog();
	return rc;
}
