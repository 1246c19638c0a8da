/* exporter: GET /metrics through libmicrohttpd (see exporter.h). Anything
 * else is 404 (another path) or 405 (another method); the body of a request
 * is never read. */
#include <arpa/inet.h>
#include <errno.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>

#include "daemon_config.h"
#include "exporter.h"

struct td_exporter {
	struct MHD_Daemon *mhd;
	td_export_fill_fn fill;
	void *ctx;
	int port;
};

static enum MHD_Result reply(struct MHD_Connection *c, unsigned status, const char *type, char *body, size_t len,
			     enum MHD_ResponseMemoryMode mode)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(len, body, mode);
	enum MHD_Result rc;

	if (!r) {
		if (mode == MHD_RESPMEM_MUST_FREE)
			free(body);
		return MHD_NO;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	rc = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return rc;
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *c, const char *url, const char *method,
			      const char *version, const char *upload, size_t *upload_size, void **state)
{
	static char not_found[] = "topdownd serves /metrics only\n", bad_method[] = "GET or HEAD /metrics\n";
	struct td_exporter *e = cls;
	const char *accept;
	struct td_om om;

	(void)version;
	(void)upload;
	if (*upload_size) {
		*upload_size = 0; /* a body is not read, only discarded */
		return MHD_YES;
	}
	(void)state;
	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
		return reply(c, MHD_HTTP_METHOD_NOT_ALLOWED, "text/plain", bad_method, strlen(bad_method),
			     MHD_RESPMEM_PERSISTENT);
	if (strcmp(url, "/metrics"))
		return reply(c, MHD_HTTP_NOT_FOUND, "text/plain", not_found, strlen(not_found), MHD_RESPMEM_PERSISTENT);
	accept = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT);
	td_om_init(&om, accept && strstr(accept, "application/openmetrics-text"));
	e->fill(e->ctx, &om);
	if (om.failed || !om.text) {
		static char oom[] = "topdownd: out of memory\n";
		td_om_free(&om);
		return reply(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "text/plain", oom, strlen(oom), MHD_RESPMEM_PERSISTENT);
	}
	/* MHD frees the text with the response */
	return reply(c, MHD_HTTP_OK, td_om_content_type(&om), om.text, om.len, MHD_RESPMEM_MUST_FREE);
}

struct td_exporter *td_exporter_start(const char *listen, int max_connections, td_export_fill_fn fill, void *ctx,
				      td_err *err)
{
	struct sockaddr_storage ss;
	struct td_exporter *e;
	const union MHD_DaemonInfo *info;
	unsigned flags = MHD_USE_EPOLL;

	if (td_config_parse_listen(listen, &ss, err))
		return NULL;
	if (!(e = calloc(1, sizeof(*e)))) {
		td_err_set(err, "out of memory");
		return NULL;
	}
	e->fill = fill;
	e->ctx = ctx;
	if (ss.ss_family == AF_INET6)
		flags |= MHD_USE_IPv6;
	errno = 0;
	e->mhd = MHD_start_daemon(flags, 0, NULL, NULL, handle, e, MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&ss,
				  MHD_OPTION_CONNECTION_LIMIT, (unsigned)max_connections, MHD_OPTION_CONNECTION_TIMEOUT,
				  (unsigned)10, MHD_OPTION_END);
	if (!e->mhd) {
		td_err_set(err, "cannot serve metrics on %s: %s: give a free port in [exporter] listen", listen,
			   errno ? strerror(errno) : "libmicrohttpd refused");
		free(e);
		return NULL;
	}
	info = MHD_get_daemon_info(e->mhd, MHD_DAEMON_INFO_BIND_PORT);
	e->port = info ? info->port : 0;
	return e;
}

void td_exporter_stop(struct td_exporter *e)
{
	if (!e)
		return;
	MHD_stop_daemon(e->mhd);
	free(e);
}

int td_exporter_port(const struct td_exporter *e)
{
	return e->port;
}

int td_exporter_fd(const struct td_exporter *e)
{
	const union MHD_DaemonInfo *info = MHD_get_daemon_info(e->mhd, MHD_DAEMON_INFO_EPOLL_FD);

	return info ? info->epoll_fd : -1;
}

int td_exporter_timeout_ms(const struct td_exporter *e)
{
	MHD_UNSIGNED_LONG_LONG t;

	if (MHD_get_timeout(e->mhd, &t) != MHD_YES)
		return -1;
	return t > 60000 ? 60000 : (int)t;
}

void td_exporter_run(struct td_exporter *e)
{
	MHD_run(e->mhd);
}
