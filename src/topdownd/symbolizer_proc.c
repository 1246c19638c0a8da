/* symbolizer_proc: a symbolizer's process (see symbolizer_proc.h). */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chan.h"
#include "sandbox.h"
#include "symbolizer_proc.h"
#include "symbols/symbols.h"

/* s, or when longer than max bytes its start and how much was cut, said in
 * the name itself (the protocol's bound: docs/protocol.md) */
static void fit(const char *s, size_t max, char *buf, const char **out, size_t *len)
{
	size_t n = strlen(s);
	char tail[64];

	if (n <= max) {
		*out = s;
		*len = n;
		return;
	}
	int t = snprintf(tail, sizeof(tail), " [cut: %zu bytes]", n);
	memcpy(buf, s, max - (size_t)t);
	memcpy(buf + max - (size_t)t, tail, (size_t)t);
	*out = buf;
	*len = max;
}

static int answer(struct td_chan *ch, uint64_t id, const struct td_symbol *y, td_err *err)
{
	static char fbuf[TD_IMSG_FUNCTION_MAX], mbuf[TD_IMSG_PATH_MAX], pbuf[TD_IMSG_PATH_MAX];
	struct td_imsg m = { .type = TD_IMSG_SYMBOL };

	m.u.symbol.id = id;
	m.u.symbol.line = y->line > 0 ? y->line : 0;
	fit(y->function[0] ? y->function : "[unknown]", TD_IMSG_FUNCTION_MAX, fbuf, &m.u.symbol.function,
	    &m.u.symbol.function_len);
	fit(y->module[0] ? y->module : "[unknown]", TD_IMSG_PATH_MAX, mbuf, &m.u.symbol.module, &m.u.symbol.module_len);
	fit(y->file ? y->file : "", TD_IMSG_PATH_MAX, pbuf, &m.u.symbol.file, &m.u.symbol.file_len);
	return td_chan_send(ch, &m, -1, err);
}

static void failed(struct td_chan *ch, const char *why)
{
	struct td_imsg m = { .type = TD_IMSG_FAILED };
	td_err err;

	m.u.line.text = why;
	m.u.line.len = strnlen(why, TD_IMSG_LINE_MAX);
	if (m.u.line.len == 0)
		m.u.line.len = strlen(why = "failed");
	td_chan_send(ch, &m, -1, &err);
}

int td_symbolizer_proc_main(int chan_fd, uid_t uid, gid_t gid)
{
	struct td_chan *ch;
	struct td_symbols *sym;
	struct td_imsg m;
	td_err err;
	int fd, rc = 0;

	/* it ends with its channel, never at a signal to the whole group (the monitor's to act on) */
	signal(SIGPIPE, SIG_IGN);
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	if (!(ch = td_chan_new(chan_fd)))
		return 1;
	if (!(sym = td_symbols_new(getenv("TD_PERF_MAP_DIR")))) {
		failed(ch, "out of memory");
		td_chan_free(ch);
		return 1;
	}
	if (td_sandbox_enter_symbolizer(uid, gid, &err)) {
		failed(ch, err.msg);
		td_symbols_free(sym);
		td_chan_free(ch);
		return 1;
	}
	for (;;) {
		struct pollfd p = { .fd = chan_fd, .events = (short)(POLLIN | (td_chan_pending(ch) ? POLLOUT : 0)) };
		if (poll(&p, 1, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if ((p.revents & POLLOUT) && td_chan_flush(ch, &err))
			break;
		while ((rc = td_chan_recv(ch, &m, &fd, &err)) == 1) {
			if (m.type == TD_IMSG_RESOLVE && fd >= 0) /* the process's maps, opened by the monitor */
				td_symbols_set_maps(sym, m.u.resolve.pid, fd);
			else if (fd >= 0)
				close(fd);
			if (m.type == TD_IMSG_RESOLVE) {
				struct td_symbol y;
				td_symbols_resolve(sym, m.u.resolve.pid, m.u.resolve.ip, false, &y);
				if (answer(ch, m.u.resolve.id, &y, &err))
					break;
			} else if (m.type == TD_IMSG_EPOCH) {
				td_symbols_epoch(sym);
			}
		}
		if (rc != 0)
			break; /* the channel closed (the monitor is done), refused, or an answer not sent */
	}
	td_symbols_free(sym);
	td_chan_free(ch);
	return 0;
}
