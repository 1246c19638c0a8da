/* daemon_client: tdctl's side of topdownd's control socket. */
#ifndef TDCTL_DAEMON_CLIENT_H
#define TDCTL_DAEMON_CLIENT_H

#include <jansson.h>
#include <stddef.h>

#include "base/util.h"
#include "control/protocol.h"

struct tdctl_daemon {
	int fd;
	char *buf; /* received, not yet a whole line */
	size_t len, cap;
};

/* given (--socket), else $TOPDOWN_SOCKET, else the default path. */
const char *tdctl_daemon_socket(const char *given);
/* NULL with err when nothing answers there. */
struct tdctl_daemon *tdctl_daemon_connect(const char *path, td_err *err);
void tdctl_daemon_close(struct tdctl_daemon *d);
int tdctl_daemon_send(struct tdctl_daemon *d, const struct td_request *r, td_err *err);
/* The next line the daemon sends (a reply or a streamed event). */
json_t *tdctl_daemon_read(struct tdctl_daemon *d, td_err *err);
/* Send r and read its reply: the reply when "ok" is true, else NULL with
 * the daemon's error in err. */
json_t *tdctl_daemon_call(struct tdctl_daemon *d, const struct td_request *r, td_err *err);
/* Connect, call, close. */
json_t *tdctl_daemon_request(const char *socket_path, const struct td_request *r, td_err *err);

#endif
