/* req_list: the requests that list — running sessions (list), the daemon's
 * state and schedule (status), the stored sessions, newest first
 * (sessions), and watch mode's changes (changes); each shows a client only
 * what it may see. */
#include "config.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include "auth.h"
#include "daemon_impl.h"
#include "store/store.h"

static json_t *running_json(const struct dsession *ds)
{
	json_t *o = json_pack("{s:I, s:s, s:I, s:i}", "session", (json_int_t)ds->id, "kind",
			      ds->entry >= 0 ? "schedule"
			      : ds->watch    ? ds->watch
					     : "attach",
			      "started_ns", (json_int_t)ds->started_ns, "intervals", ds->intervals);

	if (ds->entry >= 0 || ds->watch)
		json_object_set_new(o, "schedule", json_string(ds->entry_name));
	else {
		json_object_set_new(o, "pid", json_integer(ds->pid));
		json_object_set_new(o, "owner_uid", json_integer(ds->owner));
		if (ds->rule)
			json_object_set_new(o, "auto", json_string(ds->rule));
	}
	return o;
}

void daemon_op_list(struct daemon *d, struct td_client *c, const struct td_request *r)
{
	json_t *rep = daemon_reply_ok(r->id), *a = json_array();

	for (int i = 0; i < d->ns; i++)
		if (td_auth_may_see(&c->peer, d->s[i]->entry >= 0 ? -1 : (long long)d->s[i]->owner))
			json_array_append_new(a, running_json(d->s[i]));
	json_object_set_new(rep, "sessions", a);
	daemon_send_json(d, c, rep);
}

void daemon_op_status(struct daemon *d, struct td_client *c, const struct td_request *r)
{
	json_t *rep = daemon_reply_ok(r->id), *sched = json_array();
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
		json_object_set_new(rep, "clients", json_integer(td_rclients_count(d->clients)));
		json_object_set_new(rep, "intervals_written", json_integer(d->intervals_written));
		json_object_set_new(rep, "sessions_started", json_integer(d->sessions_started));
		json_object_set_new(rep, "missed_runs", json_integer(d->missed_runs));
	}
	for (int k = 0; k < d->cfg.nschedule; k++) {
		const struct td_schedule_entry *e = &d->cfg.schedule[k];
		json_t *o =
			json_pack("{s:s, s:f, s:f, s:f, s:i, s:i}", "name", e->name, "every_s",
				  (double)e->every_ns / 1e9, "duration_s", (double)e->duration_ns / 1e9, "next_in_s",
				  d->sched[k].next_ns > now ? (double)(d->sched[k].next_ns - now) / 1e9 : 0.0, "runs",
				  d->sched[k].runs, "missed", d->sched[k].missed);
		json_object_set_new(o, "running",
				    d->sched[k].running ? json_integer(d->sched[k].running) : json_null());
		json_array_append_new(sched, o);
	}
	json_object_set_new(rep, "schedule", sched);
	daemon_send_json(d, c, rep);
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

void daemon_op_sessions(struct daemon *d, struct td_client *c, const struct td_request *r)
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
		daemon_reply_error(d, c, r->id, err.msg);
		return;
	}
	if (td_store_sessions(st, collect_session, &sc)) {
		td_store_describe_error(st, &err);
		td_store_close(st);
		json_decref(sc.all);
		json_decref(newest);
		daemon_reply_error(d, c, r->id, err.msg);
		return;
	}
	td_store_close(st);
	n = json_array_size(sc.all);
	for (size_t i = 0; i < n && (int)i < limit; i++)
		json_array_append(newest, json_array_get(sc.all, n - 1 - i));
	json_decref(sc.all);
	rep = daemon_reply_ok(r->id);
	json_object_set_new(rep, "sessions", newest);
	daemon_send_json(d, c, rep);
}

/* Watch mode's changes, newest first; the daemon's own sessions: administrators only. */
void daemon_op_changes(struct daemon *d, struct td_client *c, const struct td_request *r)
{
	const struct watch_state *w = d->watching;
	json_t *rep, *a = json_array();
	int limit = r->limit ? r->limit : 50;

	if (!td_auth_may_see(&c->peer, -1)) {
		json_decref(a);
		daemon_reply_error(d, c, r->id, "watch mode's changes are shown to administrators only (admin_group)");
		return;
	}
	for (int i = d->nchanges - 1; i >= 0 && (int)json_array_size(a) < limit; i--) {
		const struct watch_change *ch = &d->changes[i];
		json_t *o = json_pack("{s:I, s:I, s:s, s:s, s:s, s:f, s:i, s:i, s:I}", "change", (json_int_t)ch->id,
				      "when_ns", (json_int_t)ch->when_ns, "group", ch->group, "node", ch->node, "kind",
				      ch->threshold ? "threshold" : "moved", "after", ch->after, "n_before",
				      ch->n_before, "n_after", ch->n_after, "session", (json_int_t)ch->session);
		/* not known (a threshold held over a baseline not counted): null, never 0 */
		json_object_set_new(o, "before", isnan(ch->before) ? json_null() : json_real(ch->before));
		json_object_set_new(o, "p", isnan(ch->p) ? json_null() : json_real(ch->p));
		json_object_set_new(o, "drill_session", ch->drill ? json_integer(ch->drill) : json_null());
		const int seqs[4] = { ch->before_first, ch->before_last, ch->after_first, ch->after_last };
		for (int k = 0; k < 4; k++)
			json_object_set_new(o, td_change_seq_keys[k],
					    seqs[k] >= 0 ? json_integer(seqs[k]) : json_null());
		json_array_append_new(a, o);
	}
	rep = daemon_reply_ok(r->id);
	json_object_set_new(rep, "watch", json_boolean(w != NULL));
	json_object_set_new(rep, "changes", a);
	json_object_set_new(rep, "total", json_integer(d->nchanges));
	json_object_set_new(rep, "held", json_integer(d->changes_held));
	daemon_send_json(d, c, rep);
}
