/* Unit tests for the monitor's view of the front's clients
 * (src/topdownd/rclients.c) on real sockets: a request is served only with
 * a connection accepted on the control socket, whose SO_PEERCRED is this
 * process's own (the kernel's word, compared with getuid()); the listening
 * socket, a socketpair, a client's own end, no socket, a connection number
 * past 2^40 and one client more than max_clients are refused; a reply is
 * cut into the internal protocol's chunks, the first reply to a request
 * marked done, the next not; a front restarted forgets its clients. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "topdownd/rclients.h"

struct fixture {
	char dir[64], path[108];
	int lfd, cfd, acc, pair[2];
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct sockaddr_un a = { .sun_family = AF_UNIX };

	snprintf(f->dir, sizeof(f->dir), "/tmp/td-rclients.XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	snprintf(f->path, sizeof(f->path), "%s/sock", f->dir);
	memcpy(a.sun_path, f->path, strlen(f->path) + 1);
	assert_true((f->lfd = socket(AF_UNIX, SOCK_STREAM, 0)) >= 0);
	assert_int_equal(bind(f->lfd, (struct sockaddr *)&a, sizeof(a)), 0);
	assert_int_equal(listen(f->lfd, 4), 0);
	assert_true((f->cfd = socket(AF_UNIX, SOCK_STREAM, 0)) >= 0);
	assert_int_equal(connect(f->cfd, (struct sockaddr *)&a, sizeof(a)), 0);
	assert_true((f->acc = accept(f->lfd, NULL, NULL)) >= 0);
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, f->pair), 0);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	close(f->lfd);
	close(f->cfd);
	close(f->acc);
	close(f->pair[0]);
	close(f->pair[1]);
	unlink(f->path);
	rmdir(f->dir);
	free(f);
	return 0;
}

static void refused(struct td_rclients *rc, const struct fixture *f, uint64_t conn, int fd, int max, const char *what)
{
	td_err err;

	assert_null(td_rclients_request(rc, conn, fd, f->path, NULL, 1, max, &err));
	if (!strstr(err.msg, what))
		fail_msg("'%s' does not say '%s'", err.msg, what);
}

static void test_only_an_accepted_connection(void **state)
{
	struct fixture *f = *state;
	struct td_rclients *rc = td_rclients_new();
	struct td_client *c;
	td_err err;

	refused(rc, f, 1, -1, 8, "no client socket came with the request");
	refused(rc, f, 1, f->lfd, 8, "is the listening socket");
	refused(rc, f, 1, f->pair[0], 8, "not a connection to the control socket");
	refused(rc, f, 1, f->cfd, 8, "not a connection to the control socket");
	refused(rc, f, 1ull << 40, f->acc, 8, "below 2^40");
	assert_int_equal(td_rclients_known(rc), 0);
	c = td_rclients_request(rc, 7, f->acc, f->path, NULL, 3, 8, &err);
	assert_non_null(c);
	assert_int_equal(c->peer.uid, getuid());
	assert_int_equal(c->peer.pid, getpid());
	assert_int_equal(c->peer.admin, getuid() == 0);
	assert_true(c->waiting);
	assert_int_equal(td_rclients_count(rc), 3);
	/* the same conn is the same client */
	assert_ptr_equal(td_rclients_request(rc, 7, f->acc, f->path, NULL, 3, 8, &err), c);
	assert_int_equal(td_rclients_known(rc), 1);
	/* max_clients known at once */
	refused(rc, f, 8, f->acc, 1, "more clients than max_clients (1)");
	td_rclients_gone(rc, 7);
	assert_int_equal(td_rclients_known(rc), 0);
	td_rclients_free(rc);
}

/* The next message on the front's end. */
static void next(int fd, struct td_imsg *m, unsigned char *buf)
{
	ssize_t r = recv(fd, buf, TD_IMSG_MAX, MSG_DONTWAIT);
	td_err err;

	assert_true(r > 0);
	assert_int_equal(td_imsg_decode(buf, (size_t)r, m, &err), 0);
	assert_int_equal(m->type, TD_IMSG_REPLY);
}

static void test_replies_chunked_and_done_once(void **state)
{
	struct fixture *f = *state;
	struct td_rclients *rc = td_rclients_new();
	static unsigned char buf[TD_IMSG_MAX];
	struct td_client *c;
	struct td_imsg m;
	struct td_chan *ch;
	int sv[2];
	td_err err;
	size_t big = 2 * TD_IMSG_TEXT_MAX + 5, got = 0;
	char *text = malloc(big + 1);

	assert_int_equal(socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv), 0);
	assert_non_null(ch = td_chan_new(sv[0]));
	td_rclients_set_chan(rc, ch);
	assert_non_null(c = td_rclients_request(rc, 3, f->acc, f->path, NULL, 1, 8, &err));
	uint64_t serial = c->serial;
	memset(text, 'r', big);
	text[big] = '\0';
	td_rclients_send(rc, c, text);
	assert_null(td_rclients_failed(rc));
	/* 32000 + 32000 + 5 bytes: more, more, done */
	next(sv[1], &m, buf);
	assert_true(m.u.reply.conn == 3);
	assert_int_equal(m.u.reply.flags, TD_IMSG_MORE);
	got += m.u.reply.len;
	next(sv[1], &m, buf);
	assert_int_equal(m.u.reply.flags, TD_IMSG_MORE);
	got += m.u.reply.len;
	next(sv[1], &m, buf);
	assert_int_equal(m.u.reply.flags, TD_IMSG_DONE);
	got += m.u.reply.len;
	assert_int_equal(got, big);
	/* a stream line after the reply (a tail's): not done */
	td_rclients_send(rc, c, "{}");
	next(sv[1], &m, buf);
	assert_int_equal(m.u.reply.flags, 0);
	assert_int_equal(m.u.reply.len, 2);
	/* a new front: the old one's clients are gone, even by the same number */
	td_rclients_set_chan(rc, ch);
	assert_null(td_rclients_find(rc, serial));
	assert_non_null(c = td_rclients_request(rc, 3, f->acc, f->path, NULL, 1, 8, &err));
	assert_true(c->serial != serial);
	assert_null(td_rclients_find(rc, serial));
	td_rclients_free(rc);
	td_chan_free(ch);
	close(sv[1]);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_only_an_accepted_connection, setup, teardown),
		cmocka_unit_test_setup_teardown(test_replies_chunked_and_done_once, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
