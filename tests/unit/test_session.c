/* test_session: several sessions driven by one poll() loop, as the daemon
 * will run them — two attach sessions and a run session into one database
 * at once, each counting only its own target, ending for its own reason;
 * and one signal reaching all of them (an attach stops, a command gets it). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <stdbool.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tmp_dir.h"
#include "session/session.h"

static char dir[64], db[128], demo[512], events[512];

static int setup(void **state)
{
	const char *b = getenv("TD_BUILDDIR"), *s = getenv("TD_SRCDIR");

	(void)state;
	if (!b || !s)
		return -1;
	snprintf(demo, sizeof(demo), "%s/src/demo/td-demo", b);
	snprintf(events, sizeof(events), "%s/events", s);
	if (tmp_dir_make(dir, sizeof(dir), "session"))
		return -1;
	snprintf(db, sizeof(db), "%s/t.db", dir);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return tmp_dir_remove(dir);
}

/* A td-demo working for sec seconds with n threads, as a child. */
static pid_t spawn_demo(const char *threads, const char *sec)
{
	pid_t pid = fork();

	if (pid == 0) {
		sigset_t none;
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		execl(demo, demo, "-t", threads, "-l", "0", "-e", "0", "-s", sec, (char *)NULL);
		_exit(127);
	}
	return pid;
}

/* Wait until process pid has n threads (the demo starts them at once), for
 * at most 20 s however loaded the machine is; false on the deadline. */
static bool wait_threads(pid_t pid, int n)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	for (int ms = 0; ms < 20000; ms++) {
		int count = 0;
		DIR *d = opendir(path);
		struct dirent *de;
		if (!d)
			return false;
		while ((de = readdir(d)))
			count += de->d_name[0] != '.';
		closedir(d);
		if (count >= n)
			return true;
		usleep(1000);
	}
	return false;
}

static long long query(const char *sql)
{
	sqlite3 *h;
	sqlite3_stmt *st;
	long long v = -1;

	assert_int_equal(sqlite3_open_v2(db, &h, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(h, sql, -1, &st, NULL), SQLITE_OK);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(h);
	return v;
}

/* The interval periods session id's sampler read late, from its stored message ("...; N interval
 * periods of 200 ms not read on time ..."): each absorbed into the interval after it. 0 when none. */
static long long missed_periods(long long id)
{
	sqlite3 *h;
	sqlite3_stmt *st;
	long long n = 0;

	assert_int_equal(sqlite3_open_v2(db, &h, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(h, "SELECT message FROM sessions WHERE id = ?", -1, &st, NULL), SQLITE_OK);
	sqlite3_bind_int64(st, 1, id);
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0)) {
		const char *m = (const char *)sqlite3_column_text(st, 0), *p = strstr(m, " interval period");
		while (p && p > m && p[-1] >= '0' && p[-1] <= '9')
			p--;
		if (p)
			n = strtoll(p, NULL, 10);
	}
	sqlite3_finalize(st);
	sqlite3_close(h);
	return n;
}

static struct td_session_opts opts(pid_t attach, char *const *argv, int duration_ms)
{
	struct td_session_opts o = { 0 };

	o.db_path = db;
	o.events_dir = events;
	o.interval_ms = 200;
	o.scan_ms = 20;
	o.duration_ms = duration_ms;
	o.attach_pid = attach;
	o.argv = argv;
	o.say = NULL; /* the test says nothing */
	return o;
}

static void test_three_sessions_one_loop(void **state)
{
	char *argv[] = { demo, "-t", "1", "-l", "0", "-e", "0", "-s", "1", NULL };
	/* the attached demos work until killed below: the sessions' 1.5 s start when their start is done,
	 * which a saturated machine (and a sanitized build) can delay past any lifetime given here */
	pid_t a = spawn_demo("2", "3600"), b = spawn_demo("3", "3600");
	struct td_session_opts oa = opts(a, NULL, 1500), ob = opts(b, NULL, 1500), oc = opts(0, argv, 0);
	struct td_session *s[3];
	struct td_session_result r[3];
	td_err err;
	sigset_t old;
	int sigfd = td_session_block_signals(&old);
	char sql[512];

	(void)state;
	unlink(db);
	assert_true(a > 0 && b > 0 && sigfd >= 0);
	assert_true(wait_threads(a, 3) && wait_threads(b, 4)); /* main + 2, main + 3 */
	assert_int_equal(td_session_start(&oa, &s[0], &r[0], &err), 0);
	assert_int_equal(td_session_start(&ob, &s[1], &r[1], &err), 0);
	assert_int_equal(td_session_start(&oc, &s[2], &r[2], &err), 0);
	td_session_loop(s, 3, sigfd);
	for (int i = 0; i < 3; i++)
		assert_int_equal(td_session_finish(s[i], &r[i], &err), 0);
	close(sigfd);
	sigprocmask(SIG_SETMASK, &old, NULL);
	kill(a, SIGKILL);
	kill(b, SIGKILL);
	waitpid(a, NULL, 0);
	waitpid(b, NULL, 0);

	assert_string_equal(r[0].stop_reason, "duration reached");
	assert_string_equal(r[1].stop_reason, "duration reached");
	assert_string_equal(r[2].stop_reason, "target exited");
	assert_int_equal(r[2].target_status, 0);
	assert_int_equal(query("SELECT count(*) FROM sessions WHERE status = 'completed'"), 3);
	for (int i = 0; i < 3; i++) {
		pid_t target = i == 0 ? a : i == 1 ? b : (pid_t)query("SELECT target_pid FROM sessions WHERE id = 3");
		/* each session counted its own target's threads and no other */
		snprintf(sql, sizeof(sql), "SELECT count(*) FROM threads WHERE session_id = %lld AND pid != %d",
			 (long long)r[i].session_id, (int)target);
		assert_int_equal(query(sql), 0);
		snprintf(sql, sizeof(sql), "SELECT count(*) FROM threads WHERE session_id = %lld",
			 (long long)r[i].session_id);
		assert_true(query(sql) >= (i == 0 ? 3 : i == 1 ? 4 : 2));
		snprintf(sql, sizeof(sql),
			 "SELECT sum(c.value) FROM counts c JOIN events e ON e.id = c.event_id"
			 " WHERE e.session_id = %lld AND e.name = 'TASK_CLOCK'",
			 (long long)r[i].session_id);
		assert_true(query(sql) > 100000000); /* busy workers: well over 0.1 s of CPU */
	}
	/* 1.5 s at 200 ms: about 7 periods each, stored as intervals or, those a saturated machine
	 * held the sampler up for, read late into the interval after them (the session says how many) */
	for (int i = 0; i < 2; i++) {
		snprintf(sql, sizeof(sql), "SELECT count(*) FROM intervals WHERE session_id = %lld",
			 (long long)r[i].session_id);
		long long stored = query(sql), late = missed_periods(r[i].session_id);
		if (stored + late < 5)
			fail_msg("session %lld: %lld intervals stored and %lld periods read late, of about 7",
				 (long long)r[i].session_id, stored, late);
	}
	/* and the sessions ran at once */
	assert_int_equal(query("SELECT count(*) FROM sessions x JOIN sessions y ON x.id < y.id"
			       " WHERE x.started_ns < y.ended_ns AND y.started_ns < x.ended_ns"),
			 3);
}

static void test_signal_reaches_every_session(void **state)
{
	char *argv[] = { demo, "-t", "1", "-l", "0", "-e", "0", "-s", "20", NULL };
	pid_t a = spawn_demo("1", "20");
	struct td_session_opts oa = opts(a, NULL, 20000), oc = opts(0, argv, 0);
	struct td_session *s[2];
	struct td_session_result r[2];
	td_err err;
	sigset_t old;
	int sigfd = td_session_block_signals(&old);

	(void)state;
	unlink(db);
	assert_true(a > 0 && sigfd >= 0);
	assert_int_equal(td_session_start(&oa, &s[0], &r[0], &err), 0);
	assert_int_equal(td_session_start(&oc, &s[1], &r[1], &err), 0);
	kill(getpid(), SIGTERM); /* blocked: waits in the signalfd */
	td_session_loop(s, 2, sigfd);
	for (int i = 0; i < 2; i++)
		assert_int_equal(td_session_finish(s[i], &r[i], &err), 0);
	close(sigfd);
	sigprocmask(SIG_SETMASK, &old, NULL);
	kill(a, SIGKILL);
	waitpid(a, NULL, 0);

	assert_string_equal(r[0].stop_reason, "stopped by Terminated");
	assert_string_equal(r[1].stop_reason, "target exited");
	assert_int_equal(r[1].target_status, 128 + SIGTERM); /* the command got it */
	assert_true(query("SELECT max(ended_ns - started_ns) FROM sessions") < 5000000000LL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_three_sessions_one_loop),
		cmocka_unit_test(test_signal_reaches_every_session),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
