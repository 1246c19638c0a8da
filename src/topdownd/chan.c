/* chan: the internal protocol's messages over a SOCK_SEQPACKET socket, sent
 * through a bounded queue and received one datagram at a time (see chan.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "chan.h"

struct queued {
	unsigned char *buf;
	size_t len;
	int fd; /* to pass with it, -1 none */
};

struct td_chan {
	int fd;
	struct queued *q;
	size_t nq, capq, head;
	size_t bytes; /* queued */
	unsigned char in[TD_IMSG_MAX + 1];
	bool refused;
};

struct td_chan *td_chan_new(int fd)
{
	struct td_chan *ch = calloc(1, sizeof(*ch));
	int fl;

	if (!ch) {
		close(fd);
		return NULL;
	}
	ch->fd = fd;
	if ((fl = fcntl(fd, F_GETFL)) >= 0)
		fcntl(fd, F_SETFL, fl | O_NONBLOCK);
	return ch;
}

void td_chan_free(struct td_chan *ch)
{
	if (!ch)
		return;
	for (size_t i = ch->head; i < ch->nq; i++) {
		free(ch->q[i].buf);
		if (ch->q[i].fd >= 0)
			close(ch->q[i].fd);
	}
	free(ch->q);
	if (ch->fd >= 0)
		close(ch->fd);
	free(ch);
}

int td_chan_fd(const struct td_chan *ch)
{
	return ch->fd;
}

bool td_chan_pending(const struct td_chan *ch)
{
	return ch->head < ch->nq;
}

static int send_one(int sock, const struct queued *m)
{
	struct iovec iov = { .iov_base = m->buf, .iov_len = m->len };
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} u;
	struct msghdr h = { .msg_iov = &iov, .msg_iovlen = 1 };

	if (m->fd >= 0) {
		memset(&u, 0, sizeof(u));
		h.msg_control = u.buf;
		h.msg_controllen = sizeof(u.buf);
		struct cmsghdr *c = CMSG_FIRSTHDR(&h);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &m->fd, sizeof(int));
	}
	return sendmsg(sock, &h, MSG_NOSIGNAL | MSG_DONTWAIT) < 0 ? -1 : 0;
}

int td_chan_flush(struct td_chan *ch, td_err *err)
{
	while (ch->head < ch->nq) {
		struct queued *m = &ch->q[ch->head];
		if (send_one(ch->fd, m) < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK || errno == ENOBUFS)
				return 0;
			td_err_set(err, "the channel is closed: %s", strerror(errno));
			return -1;
		}
		ch->bytes -= m->len;
		free(m->buf);
		if (m->fd >= 0)
			close(m->fd);
		ch->head++;
	}
	ch->head = ch->nq = 0;
	return 0;
}

int td_chan_send(struct td_chan *ch, const struct td_imsg *m, int pass_fd, td_err *err)
{
	unsigned char buf[TD_IMSG_MAX];
	long n = td_imsg_encode(m, buf, sizeof(buf));
	struct queued q = { .fd = -1 };

	if (n < 0) {
		td_err_set(err, "a %s message breaks the internal protocol's bounds", td_imsg_type_name((int)m->type));
		return -1;
	}
	if (ch->bytes + (size_t)n > TD_CHAN_QUEUE_MAX) {
		td_err_set(err, "the other process does not read: %zu bytes wait for it", ch->bytes);
		return -1;
	}
	if (ch->head > 0 && ch->head == ch->nq)
		ch->head = ch->nq = 0;
	if (ch->nq == ch->capq) {
		if (ch->head > 0) {
			memmove(ch->q, ch->q + ch->head, (ch->nq - ch->head) * sizeof(*ch->q));
			ch->nq -= ch->head;
			ch->head = 0;
		} else {
			size_t cap = ch->capq ? 2 * ch->capq : 16;
			struct queued *grown = realloc(ch->q, cap * sizeof(*grown));
			if (!grown) {
				td_err_set(err, "out of memory");
				return -1;
			}
			ch->q = grown;
			ch->capq = cap;
		}
	}
	if (!(q.buf = malloc((size_t)n))) {
		td_err_set(err, "out of memory");
		return -1;
	}
	memcpy(q.buf, buf, (size_t)n);
	q.len = (size_t)n;
	if (pass_fd >= 0 && (q.fd = fcntl(pass_fd, F_DUPFD_CLOEXEC, 3)) < 0) {
		td_err_set(err, "cannot pass a descriptor: %s", strerror(errno));
		free(q.buf);
		return -1;
	}
	ch->q[ch->nq++] = q;
	ch->bytes += q.len;
	return td_chan_flush(ch, err);
}

bool td_chan_refused(const struct td_chan *ch)
{
	return ch->refused;
}

int td_chan_recv(struct td_chan *ch, struct td_imsg *m, int *fd, td_err *err)
{
	struct iovec iov = { .iov_base = ch->in, .iov_len = sizeof(ch->in) };
	union {
		char buf[CMSG_SPACE(4 * sizeof(int))];
		struct cmsghdr align;
	} u;
	struct msghdr h = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf, .msg_controllen = sizeof(u.buf) };
	int nfds = 0, fds[4];
	ssize_t r;

	*fd = -1;
	ch->refused = false;
	do
		r = recvmsg(ch->fd, &h, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
	while (r < 0 && errno == EINTR);
	if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
		return 0;
	if (r <= 0) {
		td_err_set(err, "closed");
		return -1;
	}
	for (struct cmsghdr *c = CMSG_FIRSTHDR(&h); c; c = CMSG_NXTHDR(&h, c)) {
		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
			continue;
		for (size_t i = 0; i < (c->cmsg_len - CMSG_LEN(0)) / sizeof(int) && nfds < 4; i++)
			memcpy(&fds[nfds++], CMSG_DATA(c) + i * sizeof(int), sizeof(int));
	}
	ch->refused = true;
	if (h.msg_flags & (MSG_TRUNC | MSG_CTRUNC) || nfds > 1) {
		td_err_set(err, "a datagram of %s refused",
			   h.msg_flags & MSG_TRUNC ? "more than the most a message may be"
						   : "more than one descriptor");
	} else if (td_imsg_decode(ch->in, (size_t)r, m, err) == 0) {
		ch->refused = false;
		*fd = nfds ? fds[0] : -1;
		return 1;
	}
	for (int i = 0; i < nfds; i++)
		close(fds[i]);
	return -1;
}
