/* daemon_sessions: the daemon's running sessions — one started (options the
 * daemon sets for every session, the running set, its limit), each interval's
 * values counted, kept for the exporter and streamed to the clients that tail
 * it, and one that ended finished (its row closed, tails told, a schedule
 * entry's last run kept for the exporter). */
#include "config.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "control/protocol.h"
#include "daemon_impl.h"
#include "eval/evaluator.h"
#include "model/model.h"
#include "symbolizer.h"

static void session_said(void *ctx, enum td_say kind, const char *line)
{
	struct dsession *ds = ctx;

	daemon_log(ds->d, "session %lld: %s%s", (long long)ds->id, kind == TD_SAY_WARNING ? "warning: " : "", line);
}

void daemon_session_free(struct dsession *ds)
{
	free(ds->entry_name);
	free(ds->rule);
	free(ds->db_path);
	free(ds->events_dir);
	free(ds->nodes);
	free(ds->cgroup);
	td_top_snapshot_free(ds->top);
	td_symbolizer_free(ds->symz); /* after the session: its last interval's addresses were resolved */
	td_snapshot_free(&ds->snap);
	for (int i = 0; i < ds->nw; i++)
		free(ds->wnames[i]);
	free(ds->wnames);
	free(ds->wvals);
	free(ds->wflags);
	free(ds);
}

struct dsession *daemon_find_running(struct daemon *d, int64_t id)
{
	for (int i = 0; i < d->ns; i++)
		if (d->s[i]->id == id)
			return d->s[i];
	return NULL;
}

/* A watch session's cgroup (process) values: its level-1 nodes' kept for daemon_watch.c
 * (a tree without any: nothing to watch, wvals stays NULL). */
static void keep_level1(struct dsession *ds, const struct td_live_value *v)
{
	const struct td_model *m = v->model;
	int k = 0;

	if (!ds->wnames) {
		int n = 0;
		for (int i = 0; i < m->nnodes; i++)
			n += m->nodes[i].level == 1;
		if (n == 0)
			return;
		if (!(ds->wnames = calloc((size_t)n + 1, sizeof(char *))) || !(ds->wflags = calloc((size_t)n + 1, 1)) ||
		    !(ds->wvals = calloc((size_t)n + 1, sizeof(double))))
			return; /* out of memory: the group is not watched (wvals NULL) */
		for (int i = 0; i < m->nnodes; i++)
			if (m->nodes[i].level == 1 && (ds->wnames[ds->nw] = strdup(m->nodes[i].path)))
				ds->nw++;
		if (ds->nw != n) { /* out of memory */
			free(ds->wvals);
			ds->wvals = NULL;
		}
	}
	if (!ds->wvals)
		return;
	for (int i = 0; i < m->nnodes && k < ds->nw; i++)
		if (m->nodes[i].level == 1) {
			/* its threshold as the report flags it (a level-1 node's own) */
			ds->wflags[k] = isnan(v->ev->node[i]) || !m->nodes[i].thr ? TD_WATCH_NA
					: v->ev->flagged[i]			  ? TD_WATCH_OVER
										  : TD_WATCH_UNDER;
			ds->wvals[k++] = v->ev->node[i];
		}
	ds->wseq = v->seq;
	ds->wfresh = k == ds->nw;
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
	if (d->cfg.export_listen && v->seconds * 2000 >= ds->interval_ms &&
	    (ds->entry >= 0 ? strcmp(v->kind, "thread") && strcmp(v->kind, "cpu")
	     : ds->watch    ? !strcmp(v->kind, ds->pid ? "tree" : "cgroup")
			    : !strcmp(v->kind, "tree")))
		td_snapshot_update(&ds->snap, v);
	/* the tree's events file's values (software.td's are evaluated beside it) */
	if (ds->watch && !strcmp(ds->watch, "watch") && !strcmp(v->kind, ds->pid ? "tree" : "cgroup") && m && v->file &&
	    !strcmp(v->file, ds->events_file) && v->seconds * 2000 >= ds->interval_ms)
		keep_level1(ds, v);
	if (ds->entry < 0 && !strcmp(v->kind, "process") && v->pid == ds->pid && v->comm)
		snprintf(ds->comm, sizeof(ds->comm), "%s", v->comm);
	/* the event is built only when a client tails this session */
	bool tailed = false;
	for (int i = 0; i < td_rclients_known(d->clients) && !tailed; i++)
		tailed = td_rclients_at(d->clients, i)->tail_session == ds->id;
	if (!tailed)
		return;
	ev = json_pack("{s:i, s:I, s:s, s:I, s:i, s:f, s:s, s:s, s:i}", "v", TD_PROTOCOL_VERSION, "id", (json_int_t)0,
		       "event", "interval", "session", (json_int_t)ds->id, "seq", v->seq, "seconds", v->seconds, "file",
		       v->file, "kind", v->kind, "pid", (int)v->pid);
	/* not available is null, never 0 */
	nodes = json_object();
	for (int i = 0; m && i < m->nnodes; i++)
		json_object_set_new(nodes, m->nodes[i].path,
				    isfinite(v->ev->node[i]) ? json_real(v->ev->node[i]) : json_null());
	json_object_set_new(ev, "nodes", nodes);
	info = json_object();
	for (int i = 0; m && i < m->ninfos; i++)
		json_object_set_new(info, m->infos[i].name,
				    isfinite(v->ev->info[i]) ? json_real(v->ev->info[i]) : json_null());
	json_object_set_new(ev, "info", info);
	for (int i = 0; i < td_rclients_known(d->clients); i++) {
		struct td_client *c = td_rclients_at(d->clients, i);
		if (c->tail_session == ds->id) {
			json_object_set_new(ev, "id", json_integer(c->tail_id));
			char *text = json_dumps(ev, JSON_COMPACT);
			if (text)
				td_rclients_send(d->clients, c, text);
			free(text);
		}
	}
	json_decref(ev);
}

int daemon_dup_opt(char **dst, const char *src)
{
	if (!src)
		return 0;
	return (*dst = strdup(src)) ? 0 : -1;
}

/* Start a session for ds (its options filled but for the strings); on
 * success it joins the running set. */
int daemon_start_session(struct daemon *d, struct dsession *ds, struct td_session_opts *o, td_err *err)
{
	struct td_session_result res;
	struct dsession **grown;

	if (d->ns >= d->cfg.max_sessions) {
		td_err_set(err, "topdownd runs %d sessions already (max_sessions): detach one or raise the limit",
			   d->ns);
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
	if (daemon_dup_opt(&ds->db_path, d->cfg.db_path) || daemon_dup_opt(&ds->events_dir, d->cfg.events_dir)) {
		td_err_set(err, "out of memory");
		return -1;
	}
	o->db_path = ds->db_path;
	o->events_dir = ds->events_dir;
	o->nodes = ds->nodes;
	o->cgroup = ds->cgroup;
	o->schedule = ds->entry_name;
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
	daemon_notify_status(d);
	return 0;
}

/* A session that has ended: finished (its row closed), tails told. */
void daemon_reap(struct daemon *d, int i)
{
	struct dsession *ds = d->s[i];
	struct td_session_result res;
	td_err err;
	int rc;

	d->intervals_lost += td_session_failed_writes(ds->s);
	d->periods_missed += (long long)td_session_missed_periods(ds->s);
	rc = td_session_finish(ds->s, &res, &err);

	daemon_log(d, "session %lld ended: %s%s%s", (long long)ds->id, res.stop_reason, rc ? "; " : "",
		   rc ? err.msg : "");
	if (ds->top && ds->top_n > 0) {
		td_err terr;
		if (td_top_record(ds->db_path, ds->id, ds->top, ds->top_n, &terr))
			daemon_log(d, "session %lld: top processes not recorded: %s", (long long)ds->id, terr.msg);
	}
	for (int k = 0; k < td_rclients_known(d->clients); k++) {
		struct td_client *c = td_rclients_at(d->clients, k);
		if (c->tail_session != ds->id)
			continue;
		daemon_send_json(d, c,
				 json_pack("{s:i, s:I, s:s, s:I, s:s, s:i}", "v", TD_PROTOCOL_VERSION, "id",
					   (json_int_t)c->tail_id, "event", "end", "session", (json_int_t)ds->id,
					   "reason", res.stop_reason, "intervals", ds->intervals));
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
	daemon_session_free(ds);
	memmove(d->s + i, d->s + i + 1, (size_t)(d->ns - i - 1) * sizeof(*d->s));
	d->ns--;
	daemon_notify_status(d);
}
