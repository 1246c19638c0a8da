/* rclients: the front's clients as the monitor knows them (see rclients.h). */
#include <jansson.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "control/protocol.h"
#include "rclients.h"

/* A client's serial here is its front's name for it (conn, below 2^40)
 * with the front's generation above: a reply due to a client of a front
 * that has since been restarted (a report rendered meanwhile) finds no
 * client, never the new front's client of the same conn. */
#define CONN_BITS 40
#define CONN_MASK ((1ull << CONN_BITS) - 1)

struct td_rclients {
	struct td_chan *ch;
	uint64_t generation;
	struct td_client **c;
	int n, front_clients;
	bool failed;
	td_err why;
};

struct td_rclients *td_rclients_new(void)
{
	return calloc(1, sizeof(struct td_rclients));
}

static void forget_all(struct td_rclients *rc)
{
	for (int i = 0; i < rc->n; i++)
		free(rc->c[i]);
	rc->n = 0;
	rc->front_clients = 0;
}

void td_rclients_free(struct td_rclients *rc)
{
	if (!rc)
		return;
	forget_all(rc);
	free(rc->c);
	free(rc);
}

void td_rclients_set_chan(struct td_rclients *rc, struct td_chan *ch)
{
	forget_all(rc);
	rc->ch = ch;
	rc->failed = false;
	rc->generation++;
}

const char *td_rclients_failed(const struct td_rclients *rc)
{
	return rc->failed ? rc->why.msg : NULL;
}

int td_rclients_count(const struct td_rclients *rc)
{
	return rc->front_clients;
}

int td_rclients_known(const struct td_rclients *rc)
{
	return rc->n;
}

struct td_client *td_rclients_at(struct td_rclients *rc, int i)
{
	return rc->c[i];
}

struct td_client *td_rclients_find(struct td_rclients *rc, uint64_t serial)
{
	for (int i = 0; i < rc->n; i++)
		if (rc->c[i]->serial == serial)
			return rc->c[i];
	return NULL;
}

static uint64_t serial_of(const struct td_rclients *rc, uint64_t conn)
{
	return rc->generation << CONN_BITS | (conn & CONN_MASK);
}

/* Is fd a connection accepted on the control socket at path? Not the
 * listening socket (its peer credentials are the front's own at bind time),
 * not a socket the front connected or paired itself (its local name is not
 * the control socket's). */
static int accepted_on(int fd, const char *path, td_err *err)
{
	struct sockaddr_un a;
	socklen_t len = sizeof(a);
	int v = 0, type = 0;
	socklen_t vl = sizeof(v), tl = sizeof(type);

	if (fd < 0) {
		td_err_set(err, "no client socket came with the request");
		return -1;
	}
	memset(&a, 0, sizeof(a));
	if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &tl) < 0 || type != SOCK_STREAM ||
	    getsockname(fd, (struct sockaddr *)&a, &len) < 0 || a.sun_family != AF_UNIX) {
		td_err_set(err,
			   "the descriptor that came with the request is not a stream socket of the control socket");
		return -1;
	}
	if (getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &v, &vl) < 0 || v) {
		td_err_set(err, "the socket that came with the request is the listening socket, not a client's");
		return -1;
	}
	if (len <= offsetof(struct sockaddr_un, sun_path) || strncmp(a.sun_path, path, sizeof(a.sun_path)) != 0) {
		td_err_set(err, "the socket that came with the request is not a connection to the control socket");
		return -1;
	}
	return 0;
}

struct td_client *td_rclients_request(struct td_rclients *rc, uint64_t conn, int fd, const char *socket_path,
				      const char *admin_group, int front_clients, int max_clients, td_err *err)
{
	struct td_client *c = td_rclients_find(rc, serial_of(rc, conn)), **grown;
	struct td_peer peer;

	rc->front_clients = front_clients;
	if (conn > CONN_MASK) {
		td_err_set(err, "a connection numbered %llu: the front's are below 2^40", (unsigned long long)conn);
		return NULL;
	}
	if (accepted_on(fd, socket_path, err) || td_peer_identify(fd, admin_group, &peer, err))
		return NULL;
	if (!c && rc->n >= max_clients) {
		td_err_set(err, "more clients than max_clients (%d) at once", max_clients);
		return NULL;
	}
	if (!c) {
		if (!(c = calloc(1, sizeof(*c))) || !(grown = realloc(rc->c, (size_t)(rc->n + 1) * sizeof(*grown)))) {
			free(c);
			td_err_set(err, "out of memory");
			return NULL;
		}
		rc->c = grown;
		rc->c[rc->n++] = c;
		c->fd = -1; /* the connection is the front's */
		c->serial = serial_of(rc, conn);
	}
	/* who asks is who the kernel says, now, whatever an earlier request of conn said */
	c->peer = peer;
	c->waiting = true;
	return c;
}

void td_rclients_gone(struct td_rclients *rc, uint64_t conn)
{
	for (int i = 0; i < rc->n; i++)
		if (rc->c[i]->serial == serial_of(rc, conn)) {
			free(rc->c[i]);
			rc->c[i] = rc->c[--rc->n];
			return;
		}
}

static void send_text(struct td_rclients *rc, uint64_t conn, bool done, const char *text)
{
	size_t len = strlen(text), off = 0;

	if (!rc->ch || rc->failed)
		return;
	do {
		struct td_imsg m = { .type = TD_IMSG_REPLY };
		size_t n = len - off > TD_IMSG_TEXT_MAX ? TD_IMSG_TEXT_MAX : len - off;
		m.u.reply.conn = conn;
		m.u.reply.text = text + off;
		m.u.reply.len = n;
		off += n;
		m.u.reply.flags = off < len ? TD_IMSG_MORE : done ? TD_IMSG_DONE : 0;
		if (td_chan_send(rc->ch, &m, -1, &rc->why)) {
			rc->failed = true;
			return;
		}
	} while (off < len);
}

void td_rclients_send(struct td_rclients *rc, struct td_client *c, const char *text)
{
	bool done = c->waiting;

	c->waiting = false;
	send_text(rc, c->serial & CONN_MASK, done, text);
}

void td_rclients_refuse(struct td_rclients *rc, uint64_t conn, int64_t id, const char *why)
{
	json_t *o = json_pack("{s:i, s:I, s:b, s:s+}", "v", TD_PROTOCOL_VERSION, "id", (json_int_t)id, "ok", 0, "error",
			      "refused: ", why);
	char *text = o ? json_dumps(o, JSON_COMPACT) : NULL;

	if (text)
		send_text(rc, conn, true, text);
	free(text);
	json_decref(o);
}
