/* exec_watch: a child that executes a program of ours is reported with its
 * PID, its parent (this test), its new name and the file's full path — by
 * the /proc rescan (test_exec_watch), and by BPF where it loads, as root
 * (test_exec_watch_bpf) — including a path longer than the BPF record
 * holds; the processes already running are listed, this one among them. */
#include <errno.h>
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "tmp_dir.h"
#include "base/util.h"
#include "collect/exec_watch.h"

static char dir[4096];

/* A copy of /bin/sleep at dir/SUB/NAME (SUB may be long); its path in out. */
static void make_program(const char *sub, const char *name, char *out, size_t len)
{
	char cmd[8800];

	snprintf(out, len, "%s/%s/%s", dir, sub, name);
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s/%s' && cp /bin/sleep '%s'", dir, sub, out);
	assert_int_equal(system(cmd), 0);
}

/* Run path (sleeping 1 s) in a child and wait, at most 5 s, for w to report it. */
static void expect_exec(struct td_exec_watch *w, const char *path, const char *comm)
{
	pid_t child = fork();
	uint64_t deadline = td_now_ns() + 5000000000ull;
	bool found = false;

	assert_true(child >= 0);
	if (child == 0) {
		execl(path, path, "1", (char *)NULL);
		_exit(127);
	}
	while (!found && td_now_ns() < deadline) {
		struct pollfd p = { .fd = td_exec_watch_fd(w), .events = POLLIN };
		const struct td_exec *e;
		int n;
		poll(&p, 1, 100);
		n = td_exec_watch_poll(w, &e);
		assert_true(n >= 0);
		/* the rescan may also see the child between fork and exec: new, still this program */
		for (int i = 0; i < n; i++)
			if (e[i].pid == child && !strcmp(e[i].path, path)) {
				assert_string_equal(e[i].comm, comm);
				assert_int_equal(e[i].ppid, getpid());
				found = true;
			}
	}
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	assert_true(found);
}

static void check_mode(enum td_tracker_mode mode)
{
	char path[8192], longsub[600];
	td_err err;
	struct td_exec_watch *w = td_exec_watch_new(mode, &err);
	const struct td_exec *e;
	int n;
	bool me = false;

	assert_non_null(w);
	n = td_exec_watch_existing(w, &e);
	assert_true(n > 0);
	for (int i = 0; i < n; i++)
		if (e[i].pid == getpid()) {
			char *self = realpath("/proc/self/exe", NULL);
			assert_non_null(self);
			assert_string_equal(e[i].path, self);
			free(self);
			me = true;
		}
	assert_true(me);
	make_program("short", "td-exec-probe", path, sizeof(path));
	expect_exec(w, path, "td-exec-probe");
	/* a name longer than TASK_COMM_LEN: the kernel keeps 15 characters */
	make_program("short", "td-exec-probe-with-a-long-name", path, sizeof(path));
	expect_exec(w, path, "td-exec-probe-w");
	/* a path longer than the BPF record's 256 bytes arrives whole */
	memset(longsub, 'd', 250);
	longsub[250] = '/';
	memset(longsub + 251, 'e', 250);
	longsub[501] = '\0';
	make_program(longsub, "td-exec-long", path, sizeof(path));
	assert_true(strlen(path) > 500);
	expect_exec(w, path, "td-exec-long");
	td_exec_watch_free(w);
}

/* Built twice: test_exec_watch (the /proc rescan) and test_exec_watch_bpf (-DTD_TEST_BPF). */
#ifdef TD_TEST_BPF
#define MODE TD_TRACKER_BPF
#else
#define MODE TD_TRACKER_PROC
#endif

static void test_watch(void **state)
{
	(void)state;
	check_mode(MODE);
}

static int setup(void **state)
{
	(void)state;
	return tmp_dir_make(dir, sizeof(dir), "exec");
}

static int teardown(void **state)
{
	(void)state;
	return tmp_dir_remove(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_watch),
	};
#ifdef TD_TEST_BPF
	td_err err;
	struct td_exec_watch *w = td_exec_watch_new(TD_TRACKER_BPF, &err);
	if (!w) {
		printf("1..0 # SKIP the BPF exec watcher does not load here: %s\n", err.msg);
		return 0;
	}
	td_exec_watch_free(w);
#endif
	return cmocka_run_group_tests(tests, setup, teardown);
}
