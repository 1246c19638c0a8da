/* daemon_state: what every part of topdownd writes through — its log (stderr
 * with -f, else syslog), the status line systemd shows, and the replies to a
 * control client (one JSON object per line: ok, or an error saying what to
 * do). Calls nothing else of the daemon. */
#include "config.h"

#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <syslog.h>
#include <systemd/sd-daemon.h>

#include "control/protocol.h"
#include "daemon_impl.h"

void daemon_vlog(const struct daemon *d, int prio, const char *fmt, va_list ap)
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

void daemon_log(const struct daemon *d, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	daemon_vlog(d, LOG_INFO, fmt, ap);
	va_end(ap);
}

void daemon_notify_status(const struct daemon *d)
{
	char status[160];

	snprintf(status, sizeof(status), "STATUS=%d sessions running, %lld intervals written, %d clients", d->ns,
		 d->intervals_written, d->clients ? td_rclients_count(d->clients) : 0);
	sd_notify(0, status);
}

void daemon_send_json(struct daemon *d, struct td_client *c, json_t *o)
{
	char *text = o ? json_dumps(o, JSON_COMPACT) : NULL;

	if (text)
		td_rclients_send(d->clients, c, text);
	free(text);
	json_decref(o);
}

void daemon_reply_error(struct daemon *d, struct td_client *c, int64_t id, const char *msg)
{
	daemon_send_json(d, c,
			 json_pack("{s:i, s:I, s:b, s:s}", "v", TD_PROTOCOL_VERSION, "id", (json_int_t)id, "ok", 0,
				   "error", msg));
}

json_t *daemon_reply_ok(int64_t id)
{
	return json_pack("{s:i, s:I, s:b}", "v", TD_PROTOCOL_VERSION, "id", (json_int_t)id, "ok", 1);
}

void daemon_privsep_configure(struct daemon *d)
{
	struct td_imsg m = { .type = TD_IMSG_FRONT_CONFIG };
	td_err err;

	if (!d->front.ch)
		return;
	m.u.front.max_clients = d->cfg.max_clients;
	m.u.front.max_request = (int64_t)d->cfg.max_request;
	m.u.front.max_output = (int64_t)d->cfg.max_output;
	m.u.front.timeout_ms = d->cfg.client_timeout_ms;
	snprintf(m.u.front.socket_path, sizeof(m.u.front.socket_path), "%s", d->cfg.socket_path);
	if (td_chan_send(d->front.ch, &m, -1, &err))
		daemon_log(d, "the front does not take its configuration: %s", err.msg);
}
