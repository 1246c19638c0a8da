/* daemon_privsep: the monitor's side of its unprivileged processes — the
 * front (the control socket, users' JSON) and the exporter (GET /metrics):
 * started as the configured user, waited for at start, their messages read
 * and checked (a request is dispatched only for a client the kernel
 * vouches for: rclients.h), a scrape answered with the metrics made here;
 * one that ends, crashes or breaks the protocol's channel is started again
 * while every session goes on (its clients reconnect). */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include "daemon_impl.h"
#include "metrics_export.h"
#include "sandbox.h"

#define START_WAIT_MS 30000	      /* for a process's ready at start */
#define RESTART_SOON_NS 1000000000ull /* a process that failed or crashed within this is tried again after this */

static void dispatch(struct daemon *d, struct td_client *c, const struct td_request *r)
{
	switch (r->op) {
	case TD_OP_ATTACH:
		daemon_op_attach(d, c, r);
		break;
	case TD_OP_DETACH:
		daemon_op_detach(d, c, r);
		break;
	case TD_OP_LIST:
		daemon_op_list(d, c, r);
		break;
	case TD_OP_STATUS:
		daemon_op_status(d, c, r);
		break;
	case TD_OP_SESSIONS:
		daemon_op_sessions(d, c, r);
		break;
	case TD_OP_REPORT:
		daemon_op_report(d, c, r);
		break;
	case TD_OP_TAIL:
		daemon_op_tail(d, c, r);
		break;
	case TD_OP_PROFILE_NOW:
		daemon_op_profile_now(d, c, r);
		break;
	case TD_OP_RELOAD:
		daemon_op_reload(d, c, r);
		break;
	case TD_OP_CHANGES:
		daemon_op_changes(d, c, r);
		break;
	}
}

static int spawn(struct daemon *d, struct td_child *k, td_err *err)
{
	struct td_imsg m = { .type = TD_IMSG_EXPORTER_CONFIG };
	bool front = k == &d->front;

	if (td_child_spawn(k, front ? d->o->front_exe : NULL, d->run_uid, d->run_gid, err))
		return -1;
	if (front) {
		td_rclients_set_chan(d->clients, k->ch);
		daemon_privsep_configure(d);
		return 0;
	}
	m.u.exporter.max_connections = d->cfg.max_clients;
	snprintf(m.u.exporter.listen, sizeof(m.u.exporter.listen), "%s", d->cfg.export_listen);
	return td_chan_send(k->ch, &m, -1, err);
}

/* k ended (or is ended now, for why): its state dropped, a start due. */
static void lost(struct daemon *d, struct td_child *k, const char *why)
{
	char how[96];
	pid_t pid = k->pid;
	/* at once after a crash in service; one that cannot start, or crashes as it starts, later */
	bool soon = k->ready && td_now_ns() - k->started_ns >= RESTART_SOON_NS;

	td_child_end(k, how, sizeof(how));
	if (k == &d->front)
		td_rclients_set_chan(d->clients, NULL);
	k->restarts++;
	k->restart_ns = td_now_ns() + (soon ? 0 : RESTART_SOON_NS);
	daemon_log(d, "the %s (pid %d) %s%s%s: starting it again; the sessions go on", k->role, (int)pid,
		   how[0] ? how : "ended", why ? ": " : "", why ? why : "");
}

static void on_request(struct daemon *d, struct td_child *k, const struct td_imsg *m, int fd)
{
	struct td_client *c;
	td_err err;

	c = td_rclients_request(d->clients, m->u.request.conn, fd, d->cfg.socket_path, d->cfg.admin_group,
				m->u.request.clients, d->cfg.max_clients, &err);
	if (fd >= 0)
		close(fd);
	if (!c) {
		daemon_log(d, "a request (%s) from the front refused: %s", td_op_name(m->u.request.r.op), err.msg);
		td_rclients_refuse(d->clients, m->u.request.conn, m->u.request.r.id, err.msg);
	} else {
		dispatch(d, c, &m->u.request.r);
	}
	const char *failed = td_rclients_failed(d->clients);
	if (failed && k->pid > 0)
		lost(d, k, failed);
}

static void on_scrape(struct daemon *d, struct td_child *k, bool openmetrics)
{
	struct td_om om;
	size_t off = 0;
	td_err err;

	td_om_init(&om, openmetrics);
	daemon_fill_metrics(d, &om);
	do {
		struct td_imsg m = { .type = TD_IMSG_METRICS };
		size_t n = om.len - off > TD_IMSG_TEXT_MAX ? TD_IMSG_TEXT_MAX : om.len - off;
		if (om.failed || !om.text) {
			m.u.metrics.flags = TD_IMSG_FAIL;
			off = om.len;
		} else {
			m.u.metrics.text = om.text + off;
			m.u.metrics.len = n;
			off += n;
			m.u.metrics.flags = off < om.len ? TD_IMSG_MORE : 0;
		}
		if (td_chan_send(k->ch, &m, -1, &err)) {
			td_om_free(&om);
			lost(d, k, err.msg);
			return;
		}
	} while (off < om.len);
	td_om_free(&om);
}

/* One message of k's; -1 when k was ended. */
static int on_message(struct daemon *d, struct td_child *k, const struct td_imsg *m, int fd)
{
	bool front = k == &d->front;

	switch (m->type) {
	case TD_IMSG_LOG:
		daemon_log(d, "%.*s", (int)m->u.line.len, m->u.line.text);
		break;
	case TD_IMSG_READY:
		if (k->ready)
			goto unexpected;
		k->ready = true;
		k->port = m->u.ready.port;
		if (front)
			d->socket_ours = true;
		if (k->restarts && front)
			daemon_log(d, "the front started again (pid %d)", (int)k->pid);
		else if (k->restarts)
			daemon_log(d, "the exporter started again (pid %d), serving metrics on %s (port %d)",
				   (int)k->pid, d->cfg.export_listen, k->port);
		break;
	case TD_IMSG_FAILED:
		if (k->ready)
			goto unexpected;
		daemon_log(d, "the %s cannot start: %.*s", k->role, (int)m->u.line.len, m->u.line.text);
		lost(d, k, NULL);
		return -1;
	case TD_IMSG_REQUEST:
		if (!front || !k->ready)
			goto unexpected;
		on_request(d, k, m, fd);
		return k->pid > 0 ? 0 : -1;
	case TD_IMSG_GONE:
		if (!front)
			goto unexpected;
		td_rclients_gone(d->clients, m->u.gone.conn);
		break;
	case TD_IMSG_SCRAPE:
		if (front || !k->ready)
			goto unexpected;
		on_scrape(d, k, m->u.scrape.openmetrics);
		return k->pid > 0 ? 0 : -1;
	default:
unexpected:
		daemon_log(d, "a %s message from the %s refused: not one it may send now",
			   td_imsg_type_name((int)m->type), k->role);
	}
	if (fd >= 0)
		close(fd);
	return 0;
}

/* Read what k sent (a bounded number, so that sessions are not held up). */
static void from_child(struct daemon *d, struct td_child *k)
{
	struct td_imsg m;
	td_err err;
	int fd, rc;

	for (int i = 0; i < 256 && k->pid > 0; i++) {
		if ((rc = td_chan_recv(k->ch, &m, &fd, &err)) == 0)
			return;
		if (rc < 0 && td_chan_refused(k->ch)) {
			daemon_log(d, "a message from the %s refused: %s", k->role, err.msg);
			continue;
		}
		if (rc < 0) {
			lost(d, k, NULL);
			return;
		}
		/* a descriptor comes only with a request: any other is closed unread */
		if (m.type != TD_IMSG_REQUEST && fd >= 0) {
			close(fd);
			fd = -1;
		}
		if (on_message(d, k, &m, fd))
			return;
	}
}

/* At start: until k says it serves, or why it cannot. */
static int wait_ready(struct daemon *d, struct td_child *k, td_err *err)
{
	uint64_t end = td_now_ns() + START_WAIT_MS * 1000000ull;
	struct td_imsg m;
	int fd, rc;

	while (!k->ready) {
		struct pollfd p = { .fd = td_chan_fd(k->ch),
				    .events = (short)(POLLIN | (td_chan_pending(k->ch) ? POLLOUT : 0)) };
		uint64_t now = td_now_ns();
		if (now >= end) {
			td_err_set(err, "the %s did not start in %d s", k->role, START_WAIT_MS / 1000);
			return -1;
		}
		if (poll(&p, 1, (int)((end - now) / 1000000ull) + 1) < 0 && errno != EINTR) {
			td_err_set(err, "poll failed: %s", strerror(errno));
			return -1;
		}
		if ((p.revents & POLLOUT) && td_chan_flush(k->ch, err))
			return -1;
		while ((rc = td_chan_recv(k->ch, &m, &fd, err)) != 0) {
			if (fd >= 0)
				close(fd);
			if (rc < 0) {
				char how[96];
				td_child_end(k, how, sizeof(how));
				td_err_set(err, "the %s ended as it started (%s)", k->role,
					   how[0] ? how : "channel closed");
				return -1;
			}
			if (m.type == TD_IMSG_FAILED) {
				td_err_set(err, "%.*s", (int)m.u.line.len, m.u.line.text);
				return -1;
			}
			if (m.type == TD_IMSG_LOG)
				daemon_log(d, "%.*s", (int)m.u.line.len, m.u.line.text);
			if (m.type == TD_IMSG_READY) {
				k->ready = true;
				k->port = m.u.ready.port;
				break;
			}
		}
	}
	return 0;
}

int daemon_privsep_start(struct daemon *d, td_err *err)
{
	char said[160];
	const char *user = d->cfg.user ? d->cfg.user : TD_SANDBOX_USER;

	d->front = (struct td_child){ .role = "front" };
	d->exporter = (struct td_child){ .role = "exporter" };
	if (!(d->clients = td_rclients_new())) {
		td_err_set(err, "out of memory");
		return -1;
	}
	/* the default user may be missing (a build tree, a test): nobody then, said */
	if (td_sandbox_resolve(user, d->cfg.user == NULL, &d->run_uid, &d->run_gid, said, sizeof(said), err))
		return -1;
	if (said[0])
		daemon_log(d, "%s", said);
	if (spawn(d, &d->front, err) || wait_ready(d, &d->front, err))
		return -1;
	d->socket_ours = true;
	if (d->cfg.export_listen) {
		if (spawn(d, &d->exporter, err) || wait_ready(d, &d->exporter, err))
			return -1;
		daemon_log(d, "serving metrics on %s (port %d)", d->cfg.export_listen, d->exporter.port);
	}
	daemon_log(d, "the front (pid %d) and %s run as uid %u", (int)d->front.pid,
		   d->cfg.export_listen ? "the exporter" : "no exporter", (unsigned)d->run_uid);
	return 0;
}

void daemon_privsep_stop(struct daemon *d)
{
	td_child_end(&d->front, NULL, 0);
	td_child_end(&d->exporter, NULL, 0);
	td_rclients_free(d->clients);
	d->clients = NULL;
	/* the socket's directory may not be the front's to write: removed here */
	if (d->socket_ours)
		unlink(d->cfg.socket_path);
}

int daemon_privsep_pollfds(const struct daemon *d, struct pollfd *p)
{
	int n = 0;
	const struct td_child *ks[2] = { &d->front, &d->exporter };

	for (int i = 0; i < 2; i++)
		if (ks[i]->pid > 0)
			p[n++] = (struct pollfd){ .fd = td_chan_fd(ks[i]->ch),
						  .events = (short)(POLLIN |
								    (td_chan_pending(ks[i]->ch) ? POLLOUT : 0)) };
	return n;
}

void daemon_privsep_dispatch(struct daemon *d, const struct pollfd *p, int n)
{
	struct td_child *ks[2] = { &d->front, &d->exporter };
	uint64_t now = td_now_ns();
	td_err err;

	for (int i = 0, at = 0; i < 2; i++) {
		struct td_child *k = ks[i];
		if (k->pid <= 0 || at >= n || p[at].fd != td_chan_fd(k->ch))
			continue;
		short ev = p[at++].revents;
		if ((ev & POLLOUT) && td_chan_flush(k->ch, &err))
			lost(d, k, err.msg);
		else if (ev & (POLLIN | POLLHUP | POLLERR))
			from_child(d, k);
	}
	for (int i = 0; i < 2; i++) {
		struct td_child *k = ks[i];
		if (k->pid > 0 || !k->restart_ns || now < k->restart_ns)
			continue;
		if (spawn(d, k, &err)) {
			daemon_log(d, "the %s does not start: %s", k->role, err.msg);
			if (k->pid > 0)
				td_child_end(k, NULL, 0);
			if (k == &d->front)
				td_rclients_set_chan(d->clients, NULL);
			k->restart_ns = now + RESTART_SOON_NS;
		}
	}
}

int daemon_privsep_timeout_ms(const struct daemon *d)
{
	const struct td_child *ks[2] = { &d->front, &d->exporter };
	uint64_t now = td_now_ns();
	int t = -1;

	for (int i = 0; i < 2; i++) {
		const struct td_child *k = ks[i];
		if (k->pid > 0 || !k->restart_ns)
			continue;
		int left = k->restart_ns <= now ? 0 : (int)((k->restart_ns - now) / 1000000ull) + 1;
		if (t < 0 || left < t)
			t = left;
	}
	return t;
}
