/* req_report: the report request — checked against the store (the session
 * exists and the client may see it), rendered by a child process
 * (report_job.h) while the loop goes on, and its reply sent when the child is
 * done. */
#include "config.h"

#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "auth.h"
#include "daemon_impl.h"
#include "store/store.h"

/* A report is rendered by a child process (report_job.h): the loop goes on
 * sampling, and the client's later requests wait for this reply. */
void daemon_op_report(struct daemon *d, struct td_client *c, const struct td_request *r)
{
	struct td_session_row row;
	struct td_store *st;
	td_err err;
	char msg[160];

	if (td_store_open(d->cfg.db_path, TD_STORE_READ, &st, &err)) {
		daemon_reply_error(d, c, r->id, err.msg);
		return;
	}
	if (td_store_session(st, r->session, &row) ||
	    !td_auth_may_see(&c->peer, row.schedule[0] ? -1 : row.owner_uid)) {
		td_store_close(st);
		snprintf(msg, sizeof(msg), "no session %lld of yours: see 'tdctl sessions'", (long long)r->session);
		daemon_reply_error(d, c, r->id, msg);
		return;
	}
	td_store_close(st);
	if (d->njobs >= TD_REPORT_JOBS_MAX) {
		snprintf(msg, sizeof(msg), "%d reports are being prepared already: try again in a moment",
			 TD_REPORT_JOBS_MAX);
		daemon_reply_error(d, c, r->id, msg);
		return;
	}
	struct td_report_job_spec spec = { .exe = "/proc/self/exe",
					   .db_path = d->cfg.db_path,
					   .events_dir = d->cfg.events_dir,
					   .session = r->session,
					   .json = !strcmp(r->format, "json"),
					   .max_output = d->cfg.max_output,
					   .client = c->serial,
					   .request_id = r->id,
					   .uid = d->run_uid,
					   .gid = d->run_gid };
	if (td_report_job_start(&spec, &d->jobs[d->njobs], &err)) {
		daemon_reply_error(d, c, r->id, err.msg);
		return;
	}
	d->njobs++;
	c->waiting = true;
}

/* A finished report: its reply to the client that asked, if still there. */
void daemon_report_done(struct daemon *d, struct td_report_job *j)
{
	struct td_client *c = td_rclients_find(d->clients, td_report_job_client(j));
	int64_t id = td_report_job_request(j);
	const char *text = NULL, *why = NULL;
	size_t len = 0;

	if (!c)
		return;
	if (td_report_job_result(j, &text, &len, &why)) {
		daemon_reply_error(d, c, id, why);
	} else {
		json_t *rep = daemon_reply_ok(id);
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
		daemon_send_json(d, c, rep);
	}
}
