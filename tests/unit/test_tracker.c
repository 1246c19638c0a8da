/* Unit tests for tracker, live: threads of this process born and gone
 * between polls, a child process followed, a missing PID refused. Built
 * twice: test_tracker runs them on the /proc backend, test_tracker_bpf
 * (TD_TEST_BPF) on the BPF one, with what only events can tell — a thread
 * born, renamed and gone between two polls, in order, with its creator and
 * names; exec; children not followed — and skips where BPF does not load. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "collect/tracker.h"

#include "free_pid.h"

#ifdef TD_TEST_BPF
#define MODE TD_TRACKER_BPF
#else
#define MODE TD_TRACKER_PROC
#endif

static struct td_tracker *new_tracker(bool follow_children)
{
	td_err err;
	struct td_tracker *t = td_tracker_new(follow_children, MODE, &err);

	if (!t)
		fail_msg("%s", err.msg);
	assert_int_equal(td_tracker_mode(t), MODE);
	return t;
}

/* Until /proc/self/task/TID is gone (at most 5 s): the kernel removes it
 * after the exit tracepoint ran and after pthread_join may return. */
static void wait_gone(pid_t tid)
{
	char path[64];
	struct timespec ms = { 0, 1000000 };

	snprintf(path, sizeof(path), "/proc/self/task/%d", (int)tid);
	for (int i = 0; i < 5000 && access(path, F_OK) == 0; i++)
		nanosleep(&ms, NULL);
	assert_int_not_equal(access(path, F_OK), 0);
}

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
	struct td_tracker *t = new_tracker(false);
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
	wait_gone(worker_tid);
	n = td_tracker_poll(t, &ev);
	assert_int_equal(n, 1);
	assert_int_equal(ev[0].change, TD_TASK_GONE);
	assert_int_equal(ev[0].tid, worker_tid);
	assert_int_equal(td_tracker_process_count(t), 1);
	td_tracker_free(t);
}

static void test_follow_child(void **state)
{
	struct td_tracker *t = new_tracker(true);
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
	struct td_tracker *t = new_tracker(false);

	(void)state;
	assert_int_equal(td_tracker_add_process(t, free_pid()), -ESRCH);
	assert_int_equal(td_tracker_process_count(t), 0);
	td_tracker_free(t);
}

#ifdef TD_TEST_BPF
static void *short_named(void *arg)
{
	pthread_setname_np(pthread_self(), "short-named");
	*(pid_t *)arg = (pid_t)syscall(SYS_gettid);
	return NULL;
}

/* A thread born, renamed and gone between two polls: three events in
 * that order, with its creator (this thread), the name it was born with
 * (its creator's), the one it took, and times within the test's. */
static int prctl_get_name(char *buf)
{
	return pthread_getname_np(pthread_self(), buf, 16);
}

static void test_short_thread(void **state)
{
	struct td_tracker *t = new_tracker(false);
	const struct td_task_event *ev;
	char creator_comm[16] = "";
	uint64_t before, after;
	struct timespec ts;
	pthread_t th;
	pid_t tid = 0;
	int n;

	(void)state;
	assert_int_equal(td_tracker_add_process(t, getpid()), 0);
	assert_int_equal(td_tracker_poll(t, &ev), 1); /* this thread, from /proc */
	assert_int_equal(prctl_get_name(creator_comm), 0);
	clock_gettime(CLOCK_REALTIME, &ts);
	before = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	assert_int_equal(pthread_create(&th, NULL, short_named, &tid), 0);
	pthread_join(th, NULL);
	wait_gone(tid);
	clock_gettime(CLOCK_REALTIME, &ts);
	after = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	n = td_tracker_poll(t, &ev);
	assert_int_equal(n, 3);
	assert_int_equal(ev[0].change, TD_TASK_BORN);
	assert_int_equal(ev[1].change, TD_TASK_RENAMED);
	assert_int_equal(ev[2].change, TD_TASK_GONE);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(ev[i].tid, tid);
		assert_int_equal(ev[i].pid, getpid());
		assert_true(ev[i].time_ns >= before - 5000000 &&
			    ev[i].time_ns <= after + 5000000); /* clocks read apart */
		if (i)
			assert_true(ev[i].time_ns >= ev[i - 1].time_ns);
	}
	assert_int_equal(ev[0].parent, (pid_t)syscall(SYS_gettid));
	assert_string_equal(ev[0].comm, creator_comm);
	assert_string_equal(ev[1].comm, "short-named");
	assert_string_equal(ev[2].comm, "short-named");
	td_tracker_free(t);
}

/* A followed child that execs: its new name comes as a rename (and only
 * after its birth: ordered by the ring buffer); without
 * follow_children a child is not reported at all. */
static void test_exec_and_unfollowed(void **state)
{
	struct td_tracker *t = new_tracker(true), *solo = new_tracker(false);
	const struct td_task_event *ev;
	pid_t child;
	int n, found = 0;

	(void)state;
	assert_int_equal(td_tracker_add_process(t, getpid()), 0);
	assert_int_equal(td_tracker_add_process(solo, getpid()), 0);
	td_tracker_poll(t, &ev);
	td_tracker_poll(solo, &ev);
	child = fork();
	if (child == 0) {
		execl("/bin/true", "true", (char *)NULL);
		_exit(127);
	}
	assert_int_equal(waitpid(child, NULL, 0), child);
	n = td_tracker_poll(t, &ev);
	assert_int_equal(count(ev, n, TD_TASK_BORN, child), 1);
	for (int i = 0; i < n; i++)
		if (ev[i].tid == child && ev[i].change == TD_TASK_RENAMED) {
			assert_string_equal(ev[i].comm, "true");
			found++;
		}
	assert_true(found >= 1); /* exec, and on kernels whose exec also fires task_rename, that too */
	assert_int_equal(count(ev, n, TD_TASK_GONE, child), 1);
	assert_int_equal(td_tracker_process_count(t), 1);
	n = td_tracker_poll(solo, &ev);
	assert_int_equal(count(ev, n, TD_TASK_BORN, child) + count(ev, n, TD_TASK_GONE, child), 0);
	td_tracker_free(t);
	td_tracker_free(solo);
}
#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_threads_born_and_gone), cmocka_unit_test(test_follow_child),
		cmocka_unit_test(test_no_such_process),
#ifdef TD_TEST_BPF
		cmocka_unit_test(test_short_thread),	      cmocka_unit_test(test_exec_and_unfollowed),
#endif
	};
#ifdef TD_TEST_BPF
	td_err why = { "" };
	if (!td_tracker_bpf_probe(&why)) {
		printf("1..0 # SKIP the BPF tracker does not load here: %s\n", why.msg);
		return 0;
	}
#endif
	return cmocka_run_group_tests(tests, NULL, NULL);
}
