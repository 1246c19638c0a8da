/* evil_front: a "compromised front" for privsep.sh — started by topdownd in
 * the front's place (topdownd --privsep-front-exe), it speaks the internal
 * protocol (control/imsg.h) to the monitor as a subverted front would. It
 * binds the control socket, says ready, becomes uid 65534 and connects to
 * itself, so that it holds one genuine client connection of uid 65534; then
 * asks, on that connection's behalf or with forged sockets, what uid 65534
 * may not have — an attach to $EVIL_TARGET (root's process), the report and
 * the detach of $EVIL_SESSION (root's session) — and sends malformed and
 * oversized datagrams; last a status request, to show the monitor still
 * answers. Each answer is printed as "evil: CASE: TEXT" on stdout (the
 * daemon's log); then it waits for the monitor's end. No sandbox: an
 * attacker would not keep one. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "control/imsg.h"

#define CH 3

static void send_raw(const void *buf, size_t len, const int *fds, int nfds)
{
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };
	union {
		char buf[CMSG_SPACE(2 * sizeof(int))];
		struct cmsghdr align;
	} u;
	struct msghdr h = { .msg_iov = &iov, .msg_iovlen = 1 };

	if (nfds > 0) {
		memset(&u, 0, sizeof(u));
		h.msg_control = u.buf;
		h.msg_controllen = CMSG_SPACE((size_t)nfds * sizeof(int));
		struct cmsghdr *c = CMSG_FIRSTHDR(&h);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN((size_t)nfds * sizeof(int));
		memcpy(CMSG_DATA(c), fds, (size_t)nfds * sizeof(int));
	}
	if (sendmsg(CH, &h, MSG_NOSIGNAL) < 0) {
		printf("evil: send failed: %s\n", strerror(errno));
		fflush(stdout);
		exit(1);
	}
}

static void send_msg(const struct td_imsg *m, int fd)
{
	unsigned char buf[TD_IMSG_MAX];
	long n = td_imsg_encode(m, buf, sizeof(buf));

	if (n < 0) {
		printf("evil: cannot encode\n");
		exit(1);
	}
	send_raw(buf, (size_t)n, &fd, fd >= 0 ? 1 : 0);
}

/* The next message from the monitor (blocking, 20 s at most). */
static int recv_msg(struct td_imsg *m, unsigned char *buf)
{
	struct pollfd p = { .fd = CH, .events = POLLIN };
	td_err err;
	ssize_t r;

	if (poll(&p, 1, 20000) <= 0 || (r = recv(CH, buf, TD_IMSG_MAX, 0)) <= 0)
		return -1;
	return td_imsg_decode(buf, (size_t)r, m, &err);
}

/* Ask r as conn with fd; print the reply's text. */
static void ask(const char *name, uint64_t conn, const struct td_request *r, int fd)
{
	static unsigned char buf[TD_IMSG_MAX];
	struct td_imsg m = { .type = TD_IMSG_REQUEST };

	m.u.request.conn = conn;
	m.u.request.clients = 1;
	m.u.request.r = *r;
	send_msg(&m, fd);
	for (;;) {
		if (recv_msg(&m, buf)) {
			printf("evil: %s: no reply\n", name);
			break;
		}
		if (m.type == TD_IMSG_REPLY && m.u.reply.conn == conn) {
			printf("evil: %s: %.*s\n", name, (int)m.u.reply.len, m.u.reply.text);
			if (m.u.reply.flags & TD_IMSG_DONE)
				break;
		}
	}
	fflush(stdout);
}

static void put(unsigned char *p, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

int main(void)
{
	static unsigned char buf[TD_IMSG_MAX + 8192];
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	struct td_imsg m;
	struct td_request r;
	int lfd, cfd, acc, pair[2];
	long target = atol(getenv("EVIL_TARGET") ? getenv("EVIL_TARGET") : "1");
	long long session = atoll(getenv("EVIL_SESSION") ? getenv("EVIL_SESSION") : "1");
	long n;

	if (recv_msg(&m, buf) || m.type != TD_IMSG_FRONT_CONFIG)
		return 1;
	snprintf(a.sun_path, sizeof(a.sun_path), "%s", m.u.front.socket_path);
	unlink(a.sun_path);
	if ((lfd = socket(AF_UNIX, SOCK_STREAM, 0)) < 0 || bind(lfd, (struct sockaddr *)&a, sizeof(a)) ||
	    listen(lfd, 4) || chmod(a.sun_path, 0666))
		return 1;
	m = (struct td_imsg){ .type = TD_IMSG_READY };
	send_msg(&m, -1);
	if (setresgid(65534, 65534, 65534) || setresuid(65534, 65534, 65534))
		return 1;
	/* a genuine client of uid 65534: this process, connected to itself */
	if ((cfd = socket(AF_UNIX, SOCK_STREAM, 0)) < 0 || connect(cfd, (struct sockaddr *)&a, sizeof(a)) ||
	    (acc = accept(lfd, NULL, NULL)) < 0 || socketpair(AF_UNIX, SOCK_STREAM, 0, pair))
		return 1;

	memset(&r, 0, sizeof(r));
	r.op = TD_OP_ATTACH;
	r.pid = (pid_t)target;
	r.id = 1;
	ask("attach root's process as uid 65534", 1, &r, acc);
	ask("attach without a socket", 2, &r, -1);
	ask("attach with the listening socket", 3, &r, lfd);
	ask("attach with a socket of its own", 4, &r, pair[0]);
	ask("attach with the client's own end", 5, &r, cfd);
	memset(&r, 0, sizeof(r));
	r.op = TD_OP_REPORT;
	r.session = session;
	r.id = 2;
	ask("report of root's session", 1, &r, acc);
	r.op = TD_OP_DETACH;
	ask("detach of root's session", 1, &r, acc);
	r.op = TD_OP_TAIL;
	ask("tail of root's session", 1, &r, acc);
	memset(&r, 0, sizeof(r));
	r.op = TD_OP_RELOAD;
	ask("reload", 1, &r, acc);

	/* malformed: each refused whole, none acted upon */
	memset(&m, 0, sizeof(m));
	m.type = TD_IMSG_REQUEST;
	m.u.request.r.op = TD_OP_STATUS;
	n = td_imsg_encode(&m, buf, TD_IMSG_MAX);
	buf[4] = 9; /* version */
	send_raw(buf, (size_t)n, &acc, 1);
	buf[4] = 1;
	put(buf, (uint64_t)n + 4, 4); /* a length that lies */
	send_raw(buf, (size_t)n, &acc, 1);
	put(buf, (uint64_t)n, 4);
	buf[6] = 99; /* no such type */
	send_raw(buf, (size_t)n, &acc, 1);
	buf[6] = TD_IMSG_REQUEST;
	buf[8 + 8 + 4] = 200; /* op 200 */
	send_raw(buf, (size_t)n, &acc, 1);
	buf[8 + 8 + 4] = TD_OP_STATUS;
	send_raw(buf, 5, &acc, 1); /* cut short */
	int two[2] = { acc, pair[1] };
	send_raw(buf, (size_t)n, two, 2); /* two descriptors */
	memset(buf, 0x41, TD_IMSG_MAX + 4096);
	put(buf, TD_IMSG_MAX + 4096, 4);
	send_raw(buf, TD_IMSG_MAX + 4096, NULL, 0); /* oversized */
	memset(&m, 0, sizeof(m));
	m.type = TD_IMSG_SCRAPE; /* the exporter's, not the front's */
	send_msg(&m, -1);
	printf("evil: malformed: 8 sent\n");

	/* the monitor answers on */
	memset(&r, 0, sizeof(r));
	r.op = TD_OP_STATUS;
	r.id = 3;
	ask("status after all that", 1, &r, acc);
	/* the monitor's end is ours */
	while (recv(CH, buf, sizeof(buf), 0) > 0)
		;
	return 0;
}
