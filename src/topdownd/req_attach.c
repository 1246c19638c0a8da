/* req_attach: the requests on one running session — attach (the kernel asked
 * whether the client may count the process; its session opened with the
 * client's credentials), detach and tail (only on a session the client may
 * see). */
#include "config.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "auth.h"
#include "daemon_impl.h"

void daemon_op_attach(struct daemon *d, struct td_client *c, const struct td_request *r)
{
	struct td_session_opts o;
	struct dsession *ds;
	bool user_only;
	td_err err;
	json_t *rep;

	if (td_auth_may_count(&c->peer, r->pid, &user_only, &err)) {
		daemon_log(d, "attach to %d by uid %u refused: %s", (int)r->pid, (unsigned)c->peer.uid, err.msg);
		daemon_reply_error(d, c, r->id, err.msg);
		return;
	}
	if (!(ds = calloc(1, sizeof(*ds))) || daemon_dup_opt(&ds->nodes, r->nodes[0] ? r->nodes : NULL)) {
		free(ds);
		daemon_reply_error(d, c, r->id, "out of memory");
		return;
	}
	memset(&o, 0, sizeof(o));
	ds->entry = -1;
	ds->owner = c->peer.uid;
	ds->pid = r->pid;
	o.attach_pid = r->pid;
	o.attach_children = r->children;
	o.unlisted_off = r->unlisted_off;
	o.interval_ms = r->interval_ms ? r->interval_ms : d->cfg.interval_ms;
	o.duration_ms = r->duration_ms;
	o.level = r->level;
	o.has_owner = true;
	o.owner_uid = c->peer.uid;
	o.owner_gid = c->peer.gid;
	/* threads born later (children, execs) are opened with the client's ids: the kernel decides each */
	o.open_as_owner = !c->peer.admin;
	o.user_only = user_only;
	if (daemon_start_session(d, ds, &o, &err)) {
		daemon_session_free(ds);
		daemon_reply_error(d, c, r->id, err.msg);
		return;
	}
	daemon_log(d, "session %lld: attached to %d for uid %u%s", (long long)ds->id, (int)r->pid,
		   (unsigned)c->peer.uid, user_only ? " (user space only: perf_event_paranoid)" : "");
	rep = daemon_reply_ok(r->id);
	json_object_set_new(rep, "session", json_integer(ds->id));
	json_object_set_new(rep, "user_only", json_boolean(user_only));
	json_object_set_new(rep, "interval_ms", json_integer(o.interval_ms));
	daemon_send_json(d, c, rep);
}

/* The running session r names, if c may see it; else an error reply. */
static struct dsession *visible_running(struct daemon *d, struct td_client *c, const struct td_request *r)
{
	struct dsession *ds = daemon_find_running(d, r->session);
	char msg[160];

	if (!ds || !td_auth_may_see(&c->peer, ds->entry >= 0 ? -1 : (long long)ds->owner)) {
		snprintf(msg, sizeof(msg), "no running session %lld of yours: see 'tdctl list'", (long long)r->session);
		daemon_reply_error(d, c, r->id, msg);
		return NULL;
	}
	return ds;
}

void daemon_op_detach(struct daemon *d, struct td_client *c, const struct td_request *r)
{
	struct dsession *ds = visible_running(d, c, r);
	char why[96];

	if (!ds)
		return;
	snprintf(why, sizeof(why), "detached by uid %u", (unsigned)c->peer.uid);
	td_session_stop(ds->s, why);
	json_t *rep = daemon_reply_ok(r->id);
	json_object_set_new(rep, "session", json_integer(ds->id));
	daemon_send_json(d, c, rep);
}

void daemon_op_tail(struct daemon *d, struct td_client *c, const struct td_request *r)
{
	struct dsession *ds = visible_running(d, c, r);

	if (!ds)
		return;
	c->tail_session = ds->id;
	c->tail_id = r->id;
	json_t *rep = daemon_reply_ok(r->id);
	json_object_set_new(rep, "session", json_integer(ds->id));
	daemon_send_json(d, c, rep);
}
