/* exporter: topdownd's HTTP endpoint GET /metrics, served by libmicrohttpd
 * inside the daemon's own poll() loop (MHD's epoll descriptor is polled
 * with the rest; MHD_run does the work): no thread, so a scrape reads the
 * daemon's state between intervals and never races it. OpenMetrics text
 * when the scraper accepts it, else Prometheus text 0.0.4. */
#ifndef TD_EXPORTER_H
#define TD_EXPORTER_H

#include "base/util.h"
#include "openmetrics.h"

struct td_exporter;

/* Fill om with the metrics (td_export_render); called per scrape. */
typedef void (*td_export_fill_fn)(void *ctx, struct td_om *om);

/* Listen on "HOST:PORT" (IPv4 or [IPv6]); 0 port: any free one (see
 * td_exporter_port). NULL with err. */
struct td_exporter *td_exporter_start(const char *listen, int max_connections, td_export_fill_fn fill, void *ctx,
				      td_err *err);
void td_exporter_stop(struct td_exporter *e);
int td_exporter_port(const struct td_exporter *e);
/* The descriptor to poll for POLLIN, and how long poll may sleep (-1 any). */
int td_exporter_fd(const struct td_exporter *e);
int td_exporter_timeout_ms(const struct td_exporter *e);
/* Serve what is ready. */
void td_exporter_run(struct td_exporter *e);

#endif
