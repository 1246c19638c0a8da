/* Unit tests for report_job: a report rendered by a child process. The
 * child here is a fake renderer (a shell script written by the test) that
 * does what the database argument names — prints a report, fails with a
 * line, prints too much, or hangs — so each path of the job is shown
 * without a database: the report collected whole, the child's error line
 * as the reply, output past max_output refused (never cut), and a job
 * freed while its child runs kills and reaps it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "topdownd/report_job.h"

static char fake[] = "/tmp/td-fake-render-XXXXXX";

/* argv: topdownd --render-report N --database WHAT --format F --render-as U:G */
static const char script[] =
	"#!/bin/sh\n"
	"case $4 in\n"
	"ok) printf 'report of session %s as %s\\nsecond line\\n' \"$2\" \"$6\" ;;\n"
	"fail) echo 'no session 7 in this database: see tdctl sessions' >&2; echo 'ignored' >&2; exit 1 ;;\n"
	"big) head -c 300000 /dev/zero | tr '\\0' x ;;\n"
	"hang) echo $$ > \"$TD_FAKE_PID\"; exec sleep 60 ;;\n"
	"esac\n";

static int setup(void **state)
{
	int fd = mkstemp(fake);
	(void)state;
	if (fd < 0 || write(fd, script, sizeof(script) - 1) != (ssize_t)(sizeof(script) - 1) || close(fd) ||
	    chmod(fake, 0755))
		return -1;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unlink(fake);
	return 0;
}

static struct td_report_job *start(const char *what, size_t max_output)
{
	struct td_report_job_spec spec = { .exe = fake,
					   .db_path = what,
					   .session = 7,
					   .json = false,
					   .max_output = max_output,
					   .client = 42,
					   .request_id = 9 };
	struct td_report_job *j = NULL;
	td_err err;

	assert_int_equal(td_report_job_start(&spec, &j, &err), 0);
	return j;
}

/* Poll and dispatch until the job is finished. */
static void run(struct td_report_job *j)
{
	for (int rounds = 0; rounds < 10000; rounds++) {
		struct pollfd p[2];
		int n = td_report_job_pollfds(j, p);
		if (n > 0)
			assert_true(poll(p, (nfds_t)n, 20000) > 0);
		if (td_report_job_dispatch(j, p, n))
			return;
	}
	fail_msg("the job never finished");
}

static void test_report_collected(void **state)
{
	struct td_report_job *j = start("ok", 1 << 20);
	const char *text = NULL, *why = NULL;
	size_t len = 0;

	(void)state;
	run(j);
	assert_int_equal(td_report_job_result(j, &text, &len, &why), 0);
	const char want[] = "report of session 7 as text\nsecond line\n";
	assert_int_equal(len, sizeof(want) - 1);
	assert_memory_equal(text, want, len);
	assert_true(td_report_job_client(j) == 42 && td_report_job_request(j) == 9 && td_report_job_session(j) == 7);
	assert_false(td_report_job_json(j));
	td_report_job_free(j);
}

static void test_error_line(void **state)
{
	struct td_report_job *j = start("fail", 1 << 20);
	const char *text = NULL, *why = NULL;
	size_t len = 0;

	(void)state;
	run(j);
	assert_int_equal(td_report_job_result(j, &text, &len, &why), -1);
	assert_string_equal(why, "no session 7 in this database: see tdctl sessions"); /* the first line only */
	td_report_job_free(j);
}

static void test_too_large_refused(void **state)
{
	struct td_report_job *j = start("big", 100000);
	const char *text = NULL, *why = NULL;
	size_t len = 0;

	(void)state;
	run(j);
	assert_int_equal(td_report_job_result(j, &text, &len, &why), -1);
	assert_non_null(strstr(why, "the report is larger than the daemon sends (max_output 100000 bytes)"));
	td_report_job_free(j);
}

static void test_free_kills_running_child(void **state)
{
	char pidfile[] = "/tmp/td-fake-pid-XXXXXX";
	int fd = mkstemp(pidfile);
	long pid = 0;

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	setenv("TD_FAKE_PID", pidfile, 1);
	struct td_report_job *j = start("hang", 1 << 20);
	for (int i = 0; i < 2000 && pid <= 0; i++) { /* the child writes its pid, then sleeps */
		FILE *f = fopen(pidfile, "r");
		if (f && fscanf(f, "%ld", &pid) != 1)
			pid = 0;
		if (f)
			fclose(f);
		if (pid <= 0)
			usleep(10000);
	}
	assert_true(pid > 0);
	assert_int_equal(kill((pid_t)pid, 0), 0); /* running */
	td_report_job_free(j);
	/* killed and reaped: no such process any more (not even a zombie) */
	assert_int_equal(kill((pid_t)pid, 0), -1);
	assert_int_equal(errno, ESRCH);
	unlink(pidfile);
	unsetenv("TD_FAKE_PID");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_report_collected),
		cmocka_unit_test(test_error_line),
		cmocka_unit_test(test_too_large_refused),
		cmocka_unit_test(test_free_kills_running_child),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
