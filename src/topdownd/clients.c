/* clients: accepting, reading, writing and dropping control connections
 * (see clients.h). A client is freed only at the end of a dispatch (sweep),
 * so a handler may drop any client without invalidating the walk. */
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "clients.h"

struct td_clients {
	int listen_fd;
	int max_clients, timeout_ms;
	size_t max_request, max_output;
	char *admin_group;
	td_line_fn on_line;
	td_log_fn log;
	td_gone_fn gone;
	void *ctx;
	struct td_client **c;
	int n;
	uint64_t serial;
};

struct td_clients *td_clients_new(int listen_fd, int max_clients, size_t max_request, size_t max_output, int timeout_ms,
				  const char *admin_group, td_line_fn on_line, td_log_fn log, void *ctx)
{
	struct td_clients *cs = calloc(1, sizeof(*cs));

	if (!cs)
		return NULL;
	cs->listen_fd = listen_fd;
	cs->on_line = on_line;
	cs->log = log;
	cs->ctx = ctx;
	td_clients_set_limits(cs, max_clients, max_request, max_output, timeout_ms, admin_group);
	return cs;
}

void td_clients_set_limits(struct td_clients *cs, int max_clients, size_t max_request, size_t max_output,
			   int timeout_ms, const char *admin_group)
{
	cs->max_clients = max_clients;
	cs->max_request = max_request;
	cs->max_output = max_output;
	cs->timeout_ms = timeout_ms;
	free(cs->admin_group);
	cs->admin_group = admin_group ? strdup(admin_group) : NULL;
}

static void client_free(struct td_client *c)
{
	if (c->fd >= 0)
		close(c->fd);
	free(c->in);
	free(c->out);
	free(c);
}

void td_clients_on_gone(struct td_clients *cs, td_gone_fn gone)
{
	cs->gone = gone;
}

void td_clients_free(struct td_clients *cs)
{
	if (!cs)
		return;
	for (int i = 0; i < cs->n; i++)
		client_free(cs->c[i]);
	free(cs->c);
	free(cs->admin_group);
	free(cs);
}

int td_clients_count(const struct td_clients *cs)
{
	return cs->n;
}

struct td_client *td_clients_at(struct td_clients *cs, int i)
{
	return cs->c[i];
}

int td_clients_nfds(const struct td_clients *cs)
{
	return cs->n + 1;
}

int td_clients_pollfds(const struct td_clients *cs, struct pollfd *p)
{
	int n = 0;

	/* a full house accepts nothing more until a client leaves */
	p[n++] = (struct pollfd){ .fd = cs->listen_fd, .events = POLLIN };
	for (int i = 0; i < cs->n; i++) {
		const struct td_client *c = cs->c[i];
		short ev = c->closing || c->waiting ? 0 : POLLIN;
		if (c->outlen > c->outoff)
			ev |= POLLOUT;
		p[n++] = (struct pollfd){ .fd = c->fd, .events = ev };
	}
	return n;
}

static void drop(struct td_clients *cs, struct td_client *c, const char *why)
{
	if (c->fd < 0)
		return;
	if (why)
		cs->log(cs->ctx, "client %llu (uid %u, pid %d) dropped: %s", (unsigned long long)c->serial,
			(unsigned)c->peer.uid, (int)c->peer.pid, why);
	close(c->fd);
	c->fd = -1;
}

void td_client_close_after(struct td_client *c)
{
	c->closing = true;
}

/* Write what the socket takes now. */
static void flush(struct td_clients *cs, struct td_client *c)
{
	while (c->fd >= 0 && c->outoff < c->outlen) {
		ssize_t w = send(c->fd, c->out + c->outoff, c->outlen - c->outoff, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN && errno != EWOULDBLOCK)
				drop(cs, c, NULL);
			return;
		}
		c->outoff += (size_t)w;
	}
	if (c->outoff == c->outlen)
		c->outoff = c->outlen = 0;
	if (c->fd >= 0 && c->closing && c->outlen == 0)
		drop(cs, c, NULL);
}

void td_client_send(struct td_clients *cs, struct td_client *c, const char *json)
{
	size_t len = strlen(json);
	char *grown;

	if (c->fd < 0)
		return;
	if (c->outoff > 0 && c->outoff == c->outlen)
		c->outoff = c->outlen = 0;
	if (c->outlen - c->outoff + len + 1 > cs->max_output) {
		drop(cs, c, "it does not read its replies (queue full)");
		return;
	}
	if (c->outoff > 0) {
		memmove(c->out, c->out + c->outoff, c->outlen - c->outoff);
		c->outlen -= c->outoff;
		c->outoff = 0;
	}
	if (!(grown = realloc(c->out, c->outlen + len + 1))) {
		drop(cs, c, "out of memory");
		return;
	}
	c->out = grown;
	memcpy(c->out + c->outlen, json, len);
	c->out[c->outlen + len] = '\n';
	c->outlen += len + 1;
	flush(cs, c);
}

static void refuse(int fd, const char *json)
{
	/* best effort: a new socket has room for one short line */
	if (send(fd, json, strlen(json), MSG_NOSIGNAL | MSG_DONTWAIT) < 0)
		return;
}

static void accept_one(struct td_clients *cs)
{
	int fd = accept4(cs->listen_fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
	struct td_client *c, **grown;
	td_err err;

	if (fd < 0)
		return;
	if (cs->n >= cs->max_clients) {
		refuse(fd, "{\"v\":1,\"id\":0,\"ok\":false,\"error\":\"topdownd has too many clients: try again "
			   "later\"}\n");
		close(fd);
		cs->log(cs->ctx, "client refused: %d connected already (max_clients)", cs->n);
		return;
	}
	c = calloc(1, sizeof(*c));
	grown = c ? realloc(cs->c, (size_t)(cs->n + 1) * sizeof(*cs->c)) : NULL;
	if (!c || !grown) {
		free(c);
		close(fd);
		return;
	}
	cs->c = grown;
	c->fd = fd;
	c->serial = ++cs->serial;
	if (td_peer_identify(fd, cs->admin_group, &c->peer, &err)) {
		cs->log(cs->ctx, "client refused: %s", err.msg);
		client_free(c);
		return;
	}
	cs->c[cs->n++] = c;
}

/* Hand over every whole line in c's input; what remains is a partial line. */
static void take_lines(struct td_clients *cs, struct td_client *c)
{
	size_t start = 0;
	char *nl;

	while (c->fd >= 0 && !c->closing && !c->waiting && (nl = memchr(c->in + start, '\n', c->inlen - start))) {
		size_t len = (size_t)(nl - (c->in + start));
		*nl = '\0';
		if (len > 0 && c->in[start + len - 1] == '\r')
			c->in[start + --len] = '\0';
		if (len > 0)
			cs->on_line(cs->ctx, c, c->in + start, len);
		start += (size_t)(nl - (c->in + start)) + 1;
	}
	memmove(c->in, c->in + start, c->inlen - start);
	c->inlen -= start;
	/* a waiting client's lines are ours to hold: no half-sent timeout meanwhile */
	c->partial_since = c->inlen && !c->waiting ? (c->partial_since ? c->partial_since : td_now_ns()) : 0;
}

void td_clients_resume(struct td_clients *cs, struct td_client *c)
{
	c->waiting = false;
	take_lines(cs, c);
}

struct td_client *td_clients_find(struct td_clients *cs, uint64_t serial)
{
	for (int i = 0; i < cs->n; i++)
		if (cs->c[i]->serial == serial && cs->c[i]->fd >= 0)
			return cs->c[i];
	return NULL;
}

static void receive(struct td_clients *cs, struct td_client *c)
{
	char buf[16384];

	for (int rounds = 0; c->fd >= 0 && !c->closing && rounds < 64; rounds++) {
		ssize_t r = recv(c->fd, buf, sizeof(buf), MSG_DONTWAIT);
		char *grown;
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;
		if (r <= 0) {
			drop(cs, c, NULL);
			return;
		}
		/* never hold more than one request (and what follows it in this read) */
		if (!(grown = realloc(c->in, c->inlen + (size_t)r))) {
			drop(cs, c, "out of memory");
			return;
		}
		c->in = grown;
		memcpy(c->in + c->inlen, buf, (size_t)r);
		c->inlen += (size_t)r;
		take_lines(cs, c);
		if (c->inlen > cs->max_request) {
			char msg[160];
			snprintf(msg, sizeof(msg),
				 "{\"v\":1,\"id\":0,\"ok\":false,\"error\":\"request longer than %zu bytes: "
				 "send one JSON object per line\"}",
				 cs->max_request);
			td_client_send(cs, c, msg);
			td_client_close_after(c);
			c->inlen = 0;
			cs->log(cs->ctx, "client %llu (uid %u): request longer than %zu bytes, closed",
				(unsigned long long)c->serial, (unsigned)c->peer.uid, cs->max_request);
			flush(cs, c);
		}
	}
}

int td_clients_timeout_ms(const struct td_clients *cs)
{
	uint64_t now = td_now_ns();
	int t = -1;

	for (int i = 0; i < cs->n; i++) {
		uint64_t since = cs->c[i]->partial_since, end;
		if (!since)
			continue;
		end = since + (uint64_t)cs->timeout_ms * 1000000ull;
		int left = end <= now ? 0 : (int)((end - now) / 1000000ull) + 1;
		if (t < 0 || left < t)
			t = left;
	}
	return t;
}

static void sweep(struct td_clients *cs)
{
	int kept = 0;

	for (int i = 0; i < cs->n; i++) {
		if (cs->c[i]->fd < 0) {
			if (cs->gone)
				cs->gone(cs->ctx, cs->c[i]);
			client_free(cs->c[i]);
		} else {
			cs->c[kept++] = cs->c[i];
		}
	}
	cs->n = kept;
}

/* Has c's half-sent request waited past the timeout? */
static bool too_late(const struct td_clients *cs, const struct td_client *c, uint64_t now)
{
	return c->fd >= 0 && c->partial_since && now > c->partial_since + (uint64_t)cs->timeout_ms * 1000000ull;
}

void td_clients_dispatch(struct td_clients *cs, const struct pollfd *p, int n)
{
	int nc = cs->n;

	/* p[0] is the listening socket, p[1..] the clients as they were polled */
	for (int i = 0; i < nc && i + 1 < n; i++) {
		struct td_client *c = cs->c[i];
		if (c->fd < 0 || p[i + 1].fd != c->fd)
			continue;
		if (p[i + 1].revents & POLLOUT)
			flush(cs, c);
		if (p[i + 1].revents & (POLLIN | POLLHUP | POLLERR))
			receive(cs, c);
	}
	uint64_t now = td_now_ns();
	for (int i = 0; i < cs->n; i++)
		if (too_late(cs, cs->c[i], now))
			drop(cs, cs->c[i], "a request was left half-sent");
	if (n > 0 && (p[0].revents & POLLIN))
		for (int k = 0; k < 16; k++) {
			int before = cs->n;
			accept_one(cs);
			if (cs->n == before)
				break;
		}
	sweep(cs);
}
