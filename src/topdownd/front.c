/* front: the client front's process (see front.h): binding the control
 * socket, the confinement, and the loop over the monitor's channel and the
 * clients. A request decoded is passed on whole; the monitor answers it
 * (one reply, in chunks of the internal protocol's size, the last marked
 * done) and the client's next line is read only then, so replies keep the
 * order of the requests. */
#include "config.h"

#include <errno.h>
#include <jansson.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <syslog.h>
#include <unistd.h>

#include "chan.h"
#include "clients.h"
#include "control/protocol.h"
#include "front.h"
#include "sandbox.h"

struct front {
	struct td_chan *ch;
	struct td_clients *clients;
	char *reply; /* the reply being received in chunks */
	size_t len;
	uint64_t reply_conn;
	bool stop;
};

static void say(struct front *f, int prio, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void say(struct front *f, int prio, const char *fmt, ...)
{
	char line[TD_IMSG_LINE_MAX + 1];
	struct td_imsg m = { .type = TD_IMSG_LOG };
	va_list ap;
	td_err err;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n <= 0)
		return;
	m.u.line.prio = prio;
	m.u.line.text = line;
	m.u.line.len = strlen(line);
	for (size_t i = 0; i < m.u.line.len; i++)
		if (line[i] == '\n')
			line[i] = ' ';
	td_chan_send(f->ch, &m, -1, &err);
}

static void clients_log(void *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void clients_log(void *ctx, const char *fmt, ...)
{
	char line[TD_IMSG_LINE_MAX + 1];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	say(ctx, LOG_NOTICE, "%s", line);
}

static void reply_error(struct front *f, struct td_client *c, int64_t id, const char *msg)
{
	json_t *o = json_pack("{s:i, s:I, s:b, s:s}", "v", TD_PROTOCOL_VERSION, "id", (json_int_t)id, "ok", 0, "error",
			      msg);
	char *text = o ? json_dumps(o, JSON_COMPACT) : NULL;

	if (text)
		td_client_send(f->clients, c, text);
	free(text);
	json_decref(o);
}

static void on_line(void *ctx, struct td_client *c, const char *line, size_t len)
{
	struct front *f = ctx;
	struct td_imsg m = { .type = TD_IMSG_REQUEST };
	td_err err;

	if (td_request_decode(line, len, &m.u.request.r, &err)) {
		reply_error(f, c, m.u.request.r.id, err.msg);
		return;
	}
	m.u.request.conn = c->serial;
	m.u.request.clients = td_clients_count(f->clients);
	/* the client's next lines wait until the monitor has answered */
	c->waiting = true;
	if (td_chan_send(f->ch, &m, c->fd, &err)) {
		say(f, LOG_ERR, "front: a request not passed to the monitor: %s", err.msg);
		c->waiting = false;
		reply_error(f, c, m.u.request.r.id, "topdownd cannot take the request now: try again");
	}
}

static void on_gone(void *ctx, const struct td_client *c)
{
	struct front *f = ctx;
	struct td_imsg m = { .type = TD_IMSG_GONE };
	td_err err;

	m.u.gone.conn = c->serial;
	td_chan_send(f->ch, &m, -1, &err);
}

/* A chunk of a reply: the whole, once the last came, to its client. */
static int on_reply(struct front *f, const struct td_imsg *m)
{
	char *grown;
	struct td_client *c;

	if (f->len && m->u.reply.conn != f->reply_conn) {
		say(f, LOG_ERR, "front: the monitor interleaved two replies");
		return -1;
	}
	if (!(grown = realloc(f->reply, f->len + m->u.reply.len + 1)))
		return -1;
	f->reply = grown;
	memcpy(f->reply + f->len, m->u.reply.text, m->u.reply.len);
	f->len += m->u.reply.len;
	f->reply[f->len] = '\0';
	f->reply_conn = m->u.reply.conn;
	if (m->u.reply.flags & TD_IMSG_MORE)
		return 0;
	if ((c = td_clients_find(f->clients, m->u.reply.conn))) {
		if (f->len)
			td_client_send(f->clients, c, f->reply);
		if (m->u.reply.flags & TD_IMSG_CLOSE)
			td_client_close_after(c);
		if (m->u.reply.flags & TD_IMSG_DONE)
			td_clients_resume(f->clients, c);
	}
	f->len = 0;
	return 0;
}

static void from_monitor(struct front *f)
{
	struct td_imsg m;
	td_err err;
	int fd, rc;

	while ((rc = td_chan_recv(f->ch, &m, &fd, &err)) != 0) {
		if (fd >= 0)
			close(fd);
		if (rc < 0) {
			/* the monitor is gone (or lies): the front goes with it */
			f->stop = true;
			return;
		}
		if (m.type == TD_IMSG_REPLY) {
			if (on_reply(f, &m)) {
				f->stop = true;
				return;
			}
		} else if (m.type == TD_IMSG_FRONT_CONFIG) {
			td_clients_set_limits(f->clients, m.u.front.max_clients, (size_t)m.u.front.max_request,
					      (size_t)m.u.front.max_output, m.u.front.timeout_ms, NULL);
		}
	}
}

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
			td_err_set(err, "another topdownd answers on '%s': stop it first, or give another --socket",
				   path);
			return -1;
		}
		/* a socket file nobody answers on: left by a topdownd (or a front) that was killed */
		if (e != EADDRINUSE || unlink(path) != 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0) {
			td_err_set(err, "cannot listen on '%s': %s: check that its directory exists and is writable",
				   path, strerror(e != EADDRINUSE ? e : errno));
			close(fd);
			return -1;
		}
	}
	/* anyone may connect; what they may do is decided per request, by the monitor */
	if (chmod(path, 0666) < 0 || listen(fd, 128) < 0) {
		td_err_set(err, "cannot listen on '%s': %s", path, strerror(errno));
		close(fd);
		unlink(path);
		return -1;
	}
	return fd;
}

static void failed(struct td_chan *ch, const char *why)
{
	struct td_imsg m = { .type = TD_IMSG_FAILED };
	td_err err;

	m.u.line.text = why;
	m.u.line.len = strnlen(why, TD_IMSG_LINE_MAX);
	td_chan_send(ch, &m, -1, &err);
}

/* The first message: the configuration (the monitor sends it at once). */
static int wait_config(struct td_chan *ch, enum td_imsg_type type, struct td_imsg *m)
{
	struct pollfd p = { .fd = td_chan_fd(ch), .events = POLLIN };
	td_err err;
	int fd, rc;

	for (;;) {
		if (poll(&p, 1, 30000) <= 0)
			return -1;
		if ((rc = td_chan_recv(ch, m, &fd, &err)) < 0)
			return -1;
		if (fd >= 0)
			close(fd);
		if (rc == 1)
			return m->type == type ? 0 : -1;
	}
}

int td_front_main(int chan_fd, uid_t uid, gid_t gid)
{
	struct front f = { 0 };
	struct td_imsg cfg, ready = { .type = TD_IMSG_READY };
	struct pollfd *p = NULL;
	int listen_fd, cap = 0;
	td_err err;

	/* it ends with the monitor (its channel closed), never before: a signal to the whole group
	 * (Ctrl-C, systemd's stop) is the monitor's to act on */
	signal(SIGPIPE, SIG_IGN);
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	if (!(f.ch = td_chan_new(chan_fd)))
		return 1;
	if (wait_config(f.ch, TD_IMSG_FRONT_CONFIG, &cfg)) {
		td_chan_free(f.ch);
		return 1;
	}
	/* jansson seeds its hash from /dev/urandom on first use: done now, while files may be opened */
	json_object_seed(0);
	if ((listen_fd = listen_on(cfg.u.front.socket_path, &err)) < 0 || td_sandbox_enter(uid, gid, &err)) {
		failed(f.ch, err.msg);
		td_chan_free(f.ch);
		if (listen_fd >= 0)
			close(listen_fd);
		return 1;
	}
	f.clients =
		td_clients_new(listen_fd, cfg.u.front.max_clients, (size_t)cfg.u.front.max_request,
			       (size_t)cfg.u.front.max_output, cfg.u.front.timeout_ms, NULL, on_line, clients_log, &f);
	if (!f.clients || td_chan_send(f.ch, &ready, -1, &err)) {
		td_clients_free(f.clients);
		td_chan_free(f.ch);
		close(listen_fd);
		return 1;
	}
	td_clients_on_gone(f.clients, on_gone);
	if (!td_sandbox_has_filter())
		say(&f, LOG_WARNING, "front: no seccomp filter for this architecture: confined without one");
	while (!f.stop) {
		int need = 1 + td_clients_nfds(f.clients), n;
		if (need > cap) {
			struct pollfd *grown = realloc(p, (size_t)need * sizeof(*p));
			if (!grown)
				break;
			p = grown;
			cap = need;
		}
		p[0] = (struct pollfd){ .fd = td_chan_fd(f.ch),
					.events = (short)(POLLIN | (td_chan_pending(f.ch) ? POLLOUT : 0)) };
		n = td_clients_pollfds(f.clients, p + 1);
		if (poll(p, (nfds_t)(n + 1), td_clients_timeout_ms(f.clients)) < 0 && errno != EINTR)
			break;
		if ((p[0].revents & POLLOUT) && td_chan_flush(f.ch, &err))
			break;
		if (p[0].revents & (POLLIN | POLLHUP | POLLERR))
			from_monitor(&f);
		td_clients_dispatch(f.clients, p + 1, n);
	}
	free(p);
	free(f.reply);
	td_clients_free(f.clients);
	close(listen_fd);
	td_chan_free(f.ch);
	return 0;
}
