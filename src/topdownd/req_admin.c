/* req_admin: the requests only root or the admin group may make — a
 * schedule entry's run started now (profile-now) and the configuration
 * reloaded. */
#include "config.h"

#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "daemon_impl.h"

void daemon_op_profile_now(struct daemon *d, struct td_client *c, const struct td_request *r)
{
	td_err err;
	char msg[160];

	if (!c->peer.admin) {
		daemon_reply_error(d, c, r->id, "only root or the admin group may start system profiles");
		return;
	}
	for (int k = 0; k < d->cfg.nschedule; k++) {
		if (strcmp(d->cfg.schedule[k].name, r->entry))
			continue;
		if (d->sched[k].running) {
			snprintf(msg, sizeof(msg), "schedule %s runs already (session %lld)", r->entry,
				 (long long)d->sched[k].running);
			daemon_reply_error(d, c, r->id, msg);
		} else if (daemon_start_scheduled(d, k, &err)) {
			daemon_reply_error(d, c, r->id, err.msg);
		} else {
			json_t *rep = daemon_reply_ok(r->id);
			json_object_set_new(rep, "session", json_integer(d->sched[k].running));
			daemon_send_json(d, c, rep);
		}
		return;
	}
	snprintf(msg, sizeof(msg), "no schedule entry '%s': see 'tdctl status'", r->entry);
	daemon_reply_error(d, c, r->id, msg);
}

void daemon_op_reload(struct daemon *d, struct td_client *c, const struct td_request *r)
{
	td_err err;

	if (!c->peer.admin) {
		daemon_reply_error(d, c, r->id, "only root or the admin group may reload the configuration");
		return;
	}
	if (daemon_reload(d, &err))
		daemon_reply_error(d, c, r->id, err.msg);
	else
		daemon_send_json(d, c, daemon_reply_ok(r->id));
}
