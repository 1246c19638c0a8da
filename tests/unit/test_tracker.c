/* Unit tests for tracker (/proc backend), live: threads of this process born
 * and gone between polls, a child process followed, a missing PID refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "collect/tracker.h"

#include "free_pid.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int release;
static pid_t worker_tid;

static void *worker(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&lock);
	worker_tid = (pid_t)syscall(SYS_gettid);
	pthread_cond_broadcast(&cond);
	while (!release)
		pthread_cond_wait(&cond, &lock);
	pthread_mutex_unlock(&lock);
	return NULL;
}

static int count(const struct td_task_event *ev, int n, enum td_task_change ch, pid_t tid)
{
	int c = 0;
	for (int i = 0; i < n; i++)
		c += ev[i].change == ch && (tid == 0 || ev[i].tid == tid);
	return c;
}

static void test_threads_born_and_gone(void **state)
{
	struct td_tracker *t = td_tracker_new(false);
	const struct td_task_event *ev;
	pthread_t th;
	int n;

	(void)state;
	assert_int_equal(td_tracker_add_process(t, getpid()), 0);
	n = td_tracker_poll(t, &ev);
	assert_true(n >= 1);
	assert_int_equal(count(ev, n, TD_TASK_BORN, getpid()), 1);
	assert_int_equal(count(ev, n, TD_TASK_GONE, 0), 0);
	assert_int_equal(td_tracker_poll(t, &ev), 0); /* nothing changed */

	pthread_mutex_lock(&lock);
	release = 0;
	worker_tid = 0;
	assert_int_equal(pthread_create(&th, NULL, worker, NULL), 0);
	while (!worker_tid)
		pthread_cond_wait(&cond, &lock);
	pthread_mutex_unlock(&lock);
	n = td_tracker_poll(t, &ev);
	assert_int_equal(n, 1);
	assert_int_equal(ev[0].change, TD_TASK_BORN);
	assert_int_equal(ev[0].tid, worker_tid);
	assert_int_equal(ev[0].pid, getpid());

	pthread_mutex_lock(&lock);
	release = 1;
	pthread_cond_broadcast(&cond);
	pthread_mutex_unlock(&lock);
	pthread_join(th, NULL);
	n = td_tracker_poll(t, &ev);
	assert_int_equal(n, 1);
	assert_int_equal(ev[0].change, TD_TASK_GONE);
	assert_int_equal(ev[0].tid, worker_tid);
	assert_int_equal(td_tracker_process_count(t), 1);
	td_tracker_free(t);
}

static void test_follow_child(void **state)
{
	struct td_tracker *t = td_tracker_new(true);
	const struct td_task_event *ev;
	int go[2], n;
	pid_t child;
	char b;

	(void)state;
	assert_int_equal(td_tracker_add_process(t, getpid()), 0);
	td_tracker_poll(t, &ev);
	assert_int_equal(pipe(go), 0);
	child = fork();
	if (child == 0) {
		close(go[1]);
		if (read(go[0], &b, 1) < 0)
			_exit(1);
		_exit(0);
	}
	n = td_tracker_poll(t, &ev);
	assert_int_equal(count(ev, n, TD_TASK_BORN, child), 1);
	assert_int_equal(td_tracker_process_count(t), 2);
	close(go[1]);
	waitpid(child, NULL, 0);
	n = td_tracker_poll(t, &ev);
	assert_int_equal(count(ev, n, TD_TASK_GONE, child), 1);
	assert_int_equal(td_tracker_process_count(t), 1); /* the child is forgotten */
	close(go[0]);
	td_tracker_free(t);
}

static void test_no_such_process(void **state)
{
	struct td_tracker *t = td_tracker_new(false);

	(void)state;
	assert_int_equal(td_tracker_add_process(t, free_pid()), -ESRCH);
	assert_int_equal(td_tracker_process_count(t), 0);
	td_tracker_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_threads_born_and_gone),
		cmocka_unit_test(test_follow_child),
		cmocka_unit_test(test_no_such_process),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
