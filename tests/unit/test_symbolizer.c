/* Unit tests for the monitor's side of a drill-down's symbolizers
 * (src/topdownd/symbolizer.c). The symbolizer here is this test binary
 * started again as `--privsep-symbolizer UID:GID` (as the daemon starts
 * itself), a fake whose behaviour TD_FAKE_SYMBOLIZER names: it answers
 * from what it was sent (whether a /proc/PID/maps came with the question,
 * how many periods ended), answers another question than the one asked,
 * sends bytes that are no message, exits, or hangs. Shown: an answer is
 * taken and cached (asked once per address), the maps handed over with a
 * process's first address only, the owner's process started once with the
 * process's real uid and gid; each misbehaviour ends the process, said in
 * one line, and its owner's addresses are "[unknown]" from then on, the
 * process never started again; a process that is gone has no owner and
 * starts nothing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "topdownd/chan.h"
#include "topdownd/symbolizer.h"

#define FAKE_FD 3

/* The fake: answers each resolve as the mode says; its status: 0 when the
 * monitor closed the channel, 3 at "exit" (its channel freed first: a
 * sanitizer's leak check would make any leak status 23). */
static int fake(const char *mode, struct td_chan *ch);
static int fake_main(const char *mode)
{
	struct td_chan *ch = td_chan_new(FAKE_FD);
	int rc;

	if (!ch)
		return 1;
	rc = fake(mode, ch);
	td_chan_free(ch);
	return rc;
}

static int fake(const char *mode, struct td_chan *ch)
{
	struct td_imsg m;
	td_err err;
	int fd, rc, epochs = 0;
	char fn[64], file[64];

	for (;;) {
		struct pollfd p = { .fd = FAKE_FD, .events = (short)(POLLIN | (td_chan_pending(ch) ? POLLOUT : 0)) };
		if (poll(&p, 1, -1) < 0)
			return 1;
		if ((p.revents & POLLOUT) && td_chan_flush(ch, &err))
			return 1;
		while ((rc = td_chan_recv(ch, &m, &fd, &err)) == 1) {
			if (m.type == TD_IMSG_EPOCH) {
				epochs++;
				continue;
			}
			if (m.type != TD_IMSG_RESOLVE)
				return 2;
			if (!strcmp(mode, "hang"))
				sleep(60);
			if (!strcmp(mode, "exit"))
				return 3;
			if (!strcmp(mode, "garbage")) {
				if (write(FAKE_FD, "\x05\x00\x00\x00junk", 8) != 8)
					return 1;
				continue;
			}
			/* a maps file: its first line "START-END PERMS ..." */
			char head[64] = "";
			if (fd >= 0) {
				ssize_t n = pread(fd, head, sizeof(head) - 1, 0);
				head[n > 0 ? n : 0] = '\0';
				close(fd);
			}
			unsigned long a, b;
			snprintf(fn, sizeof(fn), "%s",
				 sscanf(head, "%lx-%lx ", &a, &b) == 2 && a < b ? "maps:yes" : "maps:no");
			snprintf(file, sizeof(file), "epochs:%d", epochs);
			struct td_imsg r = { .type = TD_IMSG_SYMBOL };
			r.u.symbol.id = m.u.resolve.id + (strcmp(mode, "wrong-id") ? 0 : 1);
			r.u.symbol.line = (int32_t)(m.u.resolve.ip & 0xff);
			r.u.symbol.function = fn;
			r.u.symbol.function_len = strlen(fn);
			r.u.symbol.module = "fake";
			r.u.symbol.module_len = 4;
			r.u.symbol.file = file;
			r.u.symbol.file_len = strlen(file);
			if (td_chan_send(ch, &r, -1, &err))
				return 1;
		}
		if (rc < 0)
			return 0; /* the monitor closed the channel */
	}
}

static char said[8][1024];
static int nsaid;

static void say(void *ctx, const char *line)
{
	(void)ctx;
	if (nsaid < 8)
		snprintf(said[nsaid++], sizeof(said[0]), "%s", line);
}

static bool said_has(const char *what)
{
	for (int i = 0; i < nsaid; i++)
		if (strstr(said[i], what))
			return true;
	return false;
}

static struct td_symbolizer *start(const char *mode)
{
	struct td_symbolizer *z;

	setenv("TD_FAKE_SYMBOLIZER", mode, 1);
	nsaid = 0;
	assert_non_null(z = td_symbolizer_new("/proc/self/exe", say, NULL));
	return z;
}

static void test_answers_cached_maps_once(void **state)
{
	struct td_symbolizer *z = start("good");
	const struct td_resolver *r = td_symbolizer_resolver(z);
	struct td_symbol y, again;
	char who[128];

	(void)state;
	r->resolve(r->ctx, getpid(), 0x1234, &y);
	assert_string_equal(y.function, "maps:yes"); /* this process's maps came with its first address */
	assert_string_equal(y.module, "fake");
	assert_string_equal(y.file, "epochs:0");
	assert_int_equal(y.line, 0x34);
	r->resolve(r->ctx, getpid(), 0x1234, &again);
	assert_ptr_equal(again.function, y.function); /* cached: the same strings, not asked again */
	assert_int_equal(td_symbolizer_asked(z), 1);
	r->epoch(r->ctx);
	r->resolve(r->ctx, getpid(), 0x2201, &y);
	assert_string_equal(y.function, "maps:no"); /* the maps only once */
	assert_string_equal(y.file, "epochs:1");
	assert_int_equal(y.line, 1);
	assert_int_equal(td_symbolizer_asked(z), 2);
	assert_int_equal(td_symbolizer_started(z), 1);
	snprintf(who, sizeof(who), "started for uid %u gid %u", (unsigned)getuid(), (unsigned)getgid());
	assert_true(said_has(who));
	td_symbolizer_free(z);
}

/* mode: the process misbehaves so; what the log must say */
static void misbehaves(const char *mode, const char *what)
{
	struct td_symbolizer *z = start(mode);
	const struct td_resolver *r = td_symbolizer_resolver(z);
	struct td_symbol y;

	r->resolve(r->ctx, getpid(), 0x1000, &y);
	assert_string_equal(y.function, "[unknown]");
	assert_string_equal(y.module, "[unknown]");
	assert_null(y.file);
	if (!said_has(what))
		fail_msg("%s: the log says '%s', not '%s'", mode, nsaid ? said[nsaid - 1] : "", what);
	assert_true(said_has("its addresses are [unknown] from now on"));
	r->resolve(r->ctx, getpid(), 0x2000, &y);
	assert_string_equal(y.function, "[unknown]");
	assert_int_equal(td_symbolizer_started(z), 1); /* never again */
	assert_int_equal(td_symbolizer_asked(z), 1);
	td_symbolizer_free(z);
}

static void test_wrong_answer(void **state)
{
	(void)state;
	misbehaves("wrong-id", "sent a symbol message not asked for");
}

static void test_garbage(void **state)
{
	(void)state;
	misbehaves("garbage", "sent what the internal protocol refuses");
}

static void test_exit(void **state)
{
	(void)state;
	misbehaves("exit", "exited with status 3");
}

static void test_hang(void **state)
{
	(void)state;
	misbehaves("hang", "did not answer within 2000 ms, killed by signal 9");
}

static void test_gone_process(void **state)
{
	struct td_symbolizer *z = start("good");
	const struct td_resolver *r = td_symbolizer_resolver(z);
	struct td_symbol y;
	pid_t pid = fork();

	(void)state;
	if (pid == 0)
		_exit(0);
	assert_int_equal(waitpid(pid, NULL, 0), pid);
	r->resolve(r->ctx, pid, 0x1000, &y); /* reaped: no /proc/PID/status, no owner */
	assert_string_equal(y.function, "[unknown]");
	assert_int_equal(td_symbolizer_started(z), 0);
	td_symbolizer_free(z);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_answers_cached_maps_once),
		cmocka_unit_test(test_wrong_answer),
		cmocka_unit_test(test_garbage),
		cmocka_unit_test(test_exit),
		cmocka_unit_test(test_hang),
		cmocka_unit_test(test_gone_process),
	};

	if (argc == 3 && !strcmp(argv[1], "--privsep-symbolizer"))
		return fake_main(getenv("TD_FAKE_SYMBOLIZER") ? getenv("TD_FAKE_SYMBOLIZER") : "good");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
