/* credentials: td_creds_enter takes a user's ids on the calling thread only
 * (another thread keeps root's), the kernel then judges perf_event_open as
 * that user, and td_creds_leave brings root's ids and capabilities back.
 * Needs root (CI runs as root); skipped otherwise. */
#include <errno.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "collect/credentials.h"

/* errno of opening a task-clock counter on pid (all modes), 0 when it opens */
static int open_errno(pid_t pid)
{
	struct perf_event_attr a;
	long fd;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	a.disabled = 1;
	a.exclude_kernel = 1;
	fd = syscall(SYS_perf_event_open, &a, pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return errno;
	close((int)fd);
	return 0;
}

static void test_enter_and_leave(void **state)
{
	td_err err;

	(void)state;
	assert_int_equal(td_creds_enter(65534, 65534, &err), 0);
	assert_int_equal(getuid(), 65534);
	assert_int_equal(geteuid(), 65534);
	assert_int_equal(getegid(), 65534);
	assert_int_equal(td_creds_enter(65534, 65534, &err), -1); /* not twice */
	td_creds_leave();
	assert_int_equal(geteuid(), 0);
	assert_int_equal(getuid(), 0);
	assert_int_equal(getegid(), 0);
}

static uid_t seen_by_other;
static int go_fd[2], done_fd[2];

static void *waiting_thread(void *arg)
{
	char c;

	(void)arg;
	if (read(go_fd[0], &c, 1) != 1)
		return NULL;
	seen_by_other = geteuid();
	return write(done_fd[1], "x", 1) == 1 ? NULL : NULL;
}

static void test_other_thread_keeps_root(void **state)
{
	td_err err;
	pthread_t th;
	char c;

	(void)state;
	assert_int_equal(pipe(go_fd), 0);
	assert_int_equal(pipe(done_fd), 0);
	assert_int_equal(pthread_create(&th, NULL, waiting_thread, NULL), 0);
	assert_int_equal(td_creds_enter(65534, 65534, &err), 0);
	assert_int_equal(write(go_fd[1], "x", 1), 1);
	assert_int_equal(read(done_fd[0], &c, 1), 1);
	td_creds_leave();
	assert_int_equal(pthread_join(th, NULL), 0);
	assert_int_equal(seen_by_other, 0); /* glibc's setresuid would have changed it too */
	close(go_fd[0]);
	close(go_fd[1]);
	close(done_fd[0]);
	close(done_fd[1]);
}

static void test_kernel_judges_as_the_user(void **state)
{
	td_err err;
	pid_t init_like;
	int as_user, as_root;

	(void)state;
	/* a process of root's: this test's own child, kept waiting */
	init_like = fork();
	assert_true(init_like >= 0);
	if (init_like == 0) {
		pause();
		_exit(0);
	}
	as_root = open_errno(init_like);
	assert_int_equal(td_creds_enter(65534, 65534, &err), 0);
	as_user = open_errno(init_like);
	td_creds_leave();
	kill(init_like, SIGKILL);
	waitpid(init_like, NULL, 0);
	assert_int_equal(as_root, 0);
	assert_true(as_user == EACCES || as_user == EPERM);
	/* and root's power is back after leaving */
	assert_int_equal(open_errno(1), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_enter_and_leave),
		cmocka_unit_test(test_other_thread_keeps_root),
		cmocka_unit_test(test_kernel_judges_as_the_user),
	};

	if (geteuid() != 0) {
		printf("1..0 # SKIP changing credentials needs root (CI runs as root)\n");
		return 0;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
