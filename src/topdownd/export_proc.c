/* export_proc: the exporter's process (see export_proc.h): a scrape asks the
 * monitor and waits for its answer — the exporter has nothing else to do
 * meanwhile, and the monitor answers between two intervals. */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chan.h"
#include "export_proc.h"
#include "exporter.h"
#include "sandbox.h"

#define SCRAPE_WAIT_MS 10000 /* for the monitor's answer, then the scrape fails */

struct proc {
	struct td_chan *ch;
	bool stop;
};

/* One scrape: ask, then append the chunks to om until the last. */
static void fill(void *ctx, struct td_om *om)
{
	struct proc *pr = ctx;
	struct td_imsg m = { .type = TD_IMSG_SCRAPE };
	struct pollfd p = { .fd = td_chan_fd(pr->ch), .events = POLLIN };
	td_err err;
	int fd, rc;

	m.u.scrape.openmetrics = om->openmetrics;
	om->failed = true;
	if (td_chan_send(pr->ch, &m, -1, &err))
		return;
	for (;;) {
		p.events = (short)(POLLIN | (td_chan_pending(pr->ch) ? POLLOUT : 0));
		int r = poll(&p, 1, SCRAPE_WAIT_MS);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return;
		if ((p.revents & POLLOUT) && td_chan_flush(pr->ch, &err))
			return;
		while ((rc = td_chan_recv(pr->ch, &m, &fd, &err)) == 1) {
			if (fd >= 0)
				close(fd);
			if (m.type != TD_IMSG_METRICS)
				continue;
			if (m.u.metrics.flags & TD_IMSG_FAIL)
				return;
			if (om->len + m.u.metrics.len + 1 > om->cap) {
				size_t cap = (om->len + m.u.metrics.len + 1) * 2;
				char *grown = realloc(om->text, cap);
				if (!grown)
					return;
				om->text = grown;
				om->cap = cap;
			}
			memcpy(om->text + om->len, m.u.metrics.text, m.u.metrics.len);
			om->len += m.u.metrics.len;
			om->text[om->len] = '\0';
			if (!(m.u.metrics.flags & TD_IMSG_MORE)) {
				om->failed = false;
				return;
			}
		}
		if (rc < 0) {
			pr->stop = true;
			return;
		}
	}
}

static void failed(struct td_chan *ch, const char *why)
{
	struct td_imsg m = { .type = TD_IMSG_FAILED };
	td_err err;

	m.u.line.text = why;
	m.u.line.len = strnlen(why, TD_IMSG_LINE_MAX);
	td_chan_send(ch, &m, -1, &err);
}

int td_export_proc_main(int chan_fd, uid_t uid, gid_t gid)
{
	struct proc pr = { 0 };
	struct td_imsg m;
	struct pollfd p[2];
	struct td_exporter *e = NULL;
	td_err err;
	int fd, rc;

	/* it ends with the monitor (its channel closed), never before: a signal to the whole group
	 * (Ctrl-C, systemd's stop) is the monitor's to act on */
	signal(SIGPIPE, SIG_IGN);
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	if (!(pr.ch = td_chan_new(chan_fd)))
		return 1;
	/* the first message: the configuration */
	p[0] = (struct pollfd){ .fd = chan_fd, .events = POLLIN };
	do {
		if (poll(p, 1, 30000) <= 0 || (rc = td_chan_recv(pr.ch, &m, &fd, &err)) < 0) {
			td_chan_free(pr.ch);
			return 1;
		}
		if (rc == 1 && fd >= 0)
			close(fd);
	} while (rc == 0);
	if (m.type != TD_IMSG_EXPORTER_CONFIG) {
		td_chan_free(pr.ch);
		return 1;
	}
	if (!(e = td_exporter_start(m.u.exporter.listen, m.u.exporter.max_connections, fill, &pr, &err)) ||
	    td_sandbox_enter(uid, gid, &err)) {
		failed(pr.ch, err.msg);
		td_exporter_stop(e);
		td_chan_free(pr.ch);
		return 1;
	}
	m = (struct td_imsg){ .type = TD_IMSG_READY };
	m.u.ready.port = td_exporter_port(e);
	if (td_chan_send(pr.ch, &m, -1, &err))
		pr.stop = true;
	if (!td_sandbox_has_filter()) {
		static const char note[] = "exporter: no seccomp filter for this architecture: confined without one";
		m = (struct td_imsg){ .type = TD_IMSG_LOG };
		m.u.line.prio = 4; /* LOG_WARNING */
		m.u.line.text = note;
		m.u.line.len = sizeof(note) - 1;
		td_chan_send(pr.ch, &m, -1, &err);
	}
	while (!pr.stop) {
		p[0] = (struct pollfd){ .fd = td_chan_fd(pr.ch),
					.events = (short)(POLLIN | (td_chan_pending(pr.ch) ? POLLOUT : 0)) };
		p[1] = (struct pollfd){ .fd = td_exporter_fd(e), .events = POLLIN };
		if (poll(p, 2, td_exporter_timeout_ms(e)) < 0 && errno != EINTR)
			break;
		if ((p[0].revents & POLLOUT) && td_chan_flush(pr.ch, &err))
			break;
		/* nothing is expected from the monitor but between scrapes: only its end */
		if (p[0].revents & (POLLIN | POLLHUP | POLLERR)) {
			while ((rc = td_chan_recv(pr.ch, &m, &fd, &err)) == 1)
				if (fd >= 0)
					close(fd);
			if (rc < 0)
				break;
		}
		td_exporter_run(e);
	}
	td_exporter_stop(e);
	td_chan_free(pr.ch);
	return 0;
}
