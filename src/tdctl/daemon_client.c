/* daemon_client: tdctl talking to topdownd over its control socket
 * (docs/protocol.md): connect, send one request, read reply lines. The
 * socket is --socket PATH, else $TOPDOWN_SOCKET, else the installed
 * daemon's /run/topdown/topdownd.sock. */
#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "daemon_client.h"

#define DEFAULT_SOCKET "/run/topdown/topdownd.sock"

const char *tdctl_daemon_socket(const char *given)
{
	const char *env = getenv("TOPDOWN_SOCKET");

	return given ? given : env && *env ? env : DEFAULT_SOCKET;
}

struct tdctl_daemon *tdctl_daemon_connect(const char *path, td_err *err)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	struct tdctl_daemon *d;
	int fd;

	if (strlen(path) >= sizeof(a.sun_path)) {
		td_err_set(err, "socket path '%s' is too long", path);
		return NULL;
	}
	memcpy(a.sun_path, path, strlen(path) + 1);
	if ((fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) < 0) {
		td_err_set(err, "cannot create a socket: %s", strerror(errno));
		return NULL;
	}
	if (connect(fd, (struct sockaddr *)&a, sizeof(a)) < 0) {
		td_err_set(err,
			   "topdownd does not answer on '%s': %s: start it (systemctl start topdownd), give "
			   "--socket, or use --standalone",
			   path, strerror(errno));
		close(fd);
		return NULL;
	}
	if (!(d = calloc(1, sizeof(*d)))) {
		close(fd);
		td_err_set(err, "out of memory");
		return NULL;
	}
	d->fd = fd;
	return d;
}

void tdctl_daemon_close(struct tdctl_daemon *d)
{
	if (!d)
		return;
	close(d->fd);
	free(d->buf);
	free(d);
}

int tdctl_daemon_send(struct tdctl_daemon *d, const struct td_request *r, td_err *err)
{
	char *line = td_request_encode(r);
	size_t off = 0, len;

	if (!line) {
		td_err_set(err, "out of memory");
		return -1;
	}
	len = strlen(line);
	while (off < len) {
		ssize_t w = send(d->fd, line + off, len - off, MSG_NOSIGNAL);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0) {
			td_err_set(err, "cannot talk to topdownd: %s", strerror(errno));
			free(line);
			return -1;
		}
		off += (size_t)w;
	}
	free(line);
	return 0;
}

json_t *tdctl_daemon_read(struct tdctl_daemon *d, td_err *err)
{
	for (;;) {
		char *nl = d->buf ? memchr(d->buf, '\n', d->len) : NULL;
		if (nl) {
			json_error_t je;
			size_t n = (size_t)(nl - d->buf);
			json_t *o = json_loadb(d->buf, n, 0, &je);
			memmove(d->buf, nl + 1, d->len - n - 1);
			d->len -= n + 1;
			if (!o || !json_is_object(o)) {
				json_decref(o);
				td_err_set(err, "topdownd sent something that is not a reply: is it the same version "
						"as tdctl?");
				return NULL;
			}
			return o;
		}
		if (d->len == d->cap) {
			size_t cap = d->cap ? d->cap * 2 : 65536;
			char *grown = realloc(d->buf, cap);
			if (!grown) {
				td_err_set(err, "out of memory");
				return NULL;
			}
			d->buf = grown;
			d->cap = cap;
		}
		ssize_t r = recv(d->fd, d->buf + d->len, d->cap - d->len, 0);
		if (r < 0 && errno == EINTR) {
			/* a signal tdctl handles (Ctrl-C while following): the caller decides */
			td_err_set(err, "interrupted");
			return NULL;
		}
		if (r <= 0) {
			td_err_set(err, "topdownd closed the connection%s%s", r < 0 ? ": " : "",
				   r < 0 ? strerror(errno) : "");
			return NULL;
		}
		d->len += (size_t)r;
	}
}

json_t *tdctl_daemon_call(struct tdctl_daemon *d, const struct td_request *r, td_err *err)
{
	json_t *rep;

	if (tdctl_daemon_send(d, r, err) || !(rep = tdctl_daemon_read(d, err)))
		return NULL;
	if (!json_is_true(json_object_get(rep, "ok"))) {
		const char *e = json_string_value(json_object_get(rep, "error"));
		td_err_set(err, "topdownd: %s", e ? e : "the request failed");
		json_decref(rep);
		return NULL;
	}
	return rep;
}

json_t *tdctl_daemon_request(const char *socket_path, const struct td_request *r, td_err *err)
{
	struct tdctl_daemon *d = tdctl_daemon_connect(socket_path, err);
	json_t *rep;

	if (!d)
		return NULL;
	rep = tdctl_daemon_call(d, r, err);
	tdctl_daemon_close(d);
	return rep;
}
