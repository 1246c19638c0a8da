/* clients: the control socket's connections, bounded on every side. A
 * client's input is cut into lines of at most max_request bytes (a longer
 * one gets an error reply and the connection closes); a request half-sent
 * for longer than the timeout closes it; what is queued for a client that
 * does not read beyond max_output drops it. Nothing here blocks: sockets
 * are non-blocking and written as far as they take. The daemon decides what
 * a line means (the handler). */
#ifndef TD_CLIENTS_H
#define TD_CLIENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "auth.h"

struct pollfd;

struct td_client {
	int fd;
	struct td_peer peer;
	char *in; /* bytes received, not yet a whole line */
	size_t inlen;
	uint64_t partial_since; /* monotonic ns when the pending partial line began; 0 none */
	char *out;		/* queued replies */
	size_t outlen, outoff;
	bool closing;	      /* close once the queue is written */
	int64_t tail_session; /* streaming this session's intervals (0 none) */
	int64_t tail_id;      /* the request id of the tail */
	uint64_t serial;      /* unique for the daemon's lifetime */
	bool waiting;	      /* its reply is being prepared elsewhere (a report): its next
				     lines wait, unread, so that replies keep the requests' order */
};

struct td_clients;
/* One request line of c, without its newline (NUL-terminated). */
typedef void (*td_line_fn)(void *ctx, struct td_client *c, const char *line, size_t len);
/* Something to log (a client dropped, refused). */
typedef void (*td_log_fn)(void *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A client closed and is about to be freed. */
typedef void (*td_gone_fn)(void *ctx, const struct td_client *c);

struct td_clients *td_clients_new(int listen_fd, int max_clients, size_t max_request, size_t max_output, int timeout_ms,
				  const char *admin_group, td_line_fn on_line, td_log_fn log, void *ctx);
void td_clients_free(struct td_clients *cs);
/* Be told of each client that closed (the front tells the monitor). */
void td_clients_on_gone(struct td_clients *cs, td_gone_fn gone);
/* Limits changed by a reload (the admin group is copied). */
void td_clients_set_limits(struct td_clients *cs, int max_clients, size_t max_request, size_t max_output,
			   int timeout_ms, const char *admin_group);

/* Descriptors to poll: the listening socket and each client's, into p (at
 * most td_clients_nfds). */
int td_clients_nfds(const struct td_clients *cs);
int td_clients_pollfds(const struct td_clients *cs, struct pollfd *p);
/* What poll() said of them: accept, read lines (handed to on_line), write,
 * close what is finished, too slow or too late. */
void td_clients_dispatch(struct td_clients *cs, const struct pollfd *p, int n);
/* How long poll() may sleep before a half-sent request times out. */
int td_clients_timeout_ms(const struct td_clients *cs);

/* Queue a line (JSON text without its newline) for c; c is dropped when its
 * queue would pass max_output. */
void td_client_send(struct td_clients *cs, struct td_client *c, const char *json);
/* Close c once its queue is written. */
void td_client_close_after(struct td_client *c);
/* c's reply has been sent: read its waiting lines again (see waiting). */
void td_clients_resume(struct td_clients *cs, struct td_client *c);
/* The client with this serial, or NULL when it has gone. */
struct td_client *td_clients_find(struct td_clients *cs, uint64_t serial);
/* Every client, for streaming to those that tail a session. */
int td_clients_count(const struct td_clients *cs);
struct td_client *td_clients_at(struct td_clients *cs, int i);

#endif
