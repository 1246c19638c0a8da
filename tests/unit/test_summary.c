/* Unit tests for summary: a session written by hand prints the CPU time,
 * utilisation and rates that follow from its counts, and "n/c" for what was
 * not counted; the unlisted remainder's line names what counted it; the
 * summary built from the committed intervals' totals (summary_data's live
 * accumulator) prints what the session read back does. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store/store.h"
#include "report/summary.h"
#include "analysis/summary_data.h"

/* A new store at path (a mkstemp template, filled in) with one attach session
 * (its counting mode recorded when given), open for writing. */
static struct td_store *new_session(char *path, int64_t *sess, const char *counting)
{
	struct td_session_info info = { .kind = "attach",
					.command = "demo (PID 7)",
					.rung = "software-only",
					.interval_ms = 1000,
					.kernel_counted = true };
	int fd = mkstemp(path);
	struct td_store *s;
	td_err err;

	close(fd);
	unlink(path);
	assert_int_equal(td_store_open(path, TD_STORE_WRITE, &s, &err), 0);
	*sess = td_store_session_begin(s, &info, &err);
	if (counting)
		assert_int_equal(td_store_session_counting(s, *sess, counting, "why"), 0);
	return s;
}

/* The printed summary of the store at path (removed after), all of it. */
static char *summary_of(const char *path, int64_t sess)
{
	struct td_store *s;
	td_err err;
	char *out = NULL;
	size_t len = 0;

	assert_int_equal(td_store_open(path, TD_STORE_READ, &s, &err), 0);
	FILE *f = open_memstream(&out, &len);
	assert_int_equal(td_summary_print(f, s, sess, NULL, NULL, "x.db", 0, 0, &err), 0);
	fclose(f);
	td_store_close(s);
	unlink(path);
	return out;
}

static void test_summary_values(void **state)
{
	char path[] = "/tmp/td-summary-XXXXXX";
	int64_t sess;
	struct td_store *s = new_session(path, &sess, NULL);
	char *out;

	(void)state;
	td_store_begin(s);
	int64_t tc = td_store_event_add(s, sess, "TASK_CLOCK", "", 0, 1, 1, "counting", NULL, NULL);
	int64_t cs = td_store_event_add(s, sess, "CONTEXT_SWITCHES", "", 0, 1, 3, "counting", NULL, NULL);
	int64_t cy = td_store_event_add(s, sess, "CYCLES", "", 1, 0, 0, "failed", "no PMU here", NULL);
	int64_t t1 = td_store_thread_add(s, sess, 7, 7, "demo", 0);
	int64_t t2 = td_store_thread_add(s, sess, 7, 8, "worker", 0);
	int64_t iv = td_store_interval_add(s, sess, 0, 0, 2000000000);
	/* thread 7: 0.5 s CPU over 2 s alive, 40 switches; thread 8: 1.5 s CPU, 1 s alive, 10 switches */
	td_store_count_add(s, iv, t1, tc, 500000000, 2000000000, 2000000000);
	td_store_count_add(s, iv, t1, cs, 40, 2000000000, 2000000000);
	td_store_count_add(s, iv, t2, tc, 1500000000, 1000000000, 1000000000);
	td_store_count_add(s, iv, t2, cs, 10, 1000000000, 1000000000);
	td_store_count_add(s, iv, t1, cy, 0, 2000000000, 0);
	td_store_thread_seen(s, t1, NULL, 2000000000, false);
	td_store_thread_seen(s, t2, NULL, 1000000000, true);
	td_store_commit(s);
	/* make the session last exactly 2 s */
	td_store_session_end(s, sess, "completed", -1, "target exited");
	td_store_close(s);
	{
		char cmd[256];
		snprintf(cmd, sizeof(cmd), "sqlite3 %s 'update sessions set started_ns=0, ended_ns=2000000000'", path);
		assert_int_equal(system(cmd), 0);
	}
	out = summary_of(path, sess);

	assert_non_null(strstr(out, "topdown session 1 (attach) completed: demo (PID 7)"));
	assert_non_null(strstr(out, "2.00 s, 2 threads, 1 interval of 1000 ms, database x.db"));
	assert_non_null(strstr(out, "not counted: CYCLES: no PMU here"));
	assert_non_null(strstr(out, "process 7 (demo), 2 threads:"));
	/* process: 2.0 s CPU over 2 s = 1.00 CPUs; 50 switches / 2 s = 25.0/s */
	assert_non_null(strstr(out, "      all                    2.000   1.00      25.0"));
	/* thread 8: 1.5 s CPU in its 1 s of life = 1.50; 10 switches/s */
	assert_non_null(strstr(out, "        8 worker             1.500   1.50      10.0"));
	/* thread 7: 0.5 s / 2 s = 0.25; 20 switches/s; /proc switches were not recorded: n/c */
	assert_non_null(strstr(out, "        7 demo               0.500   0.25      20.0      n/c"));
	free(out);
}

/* A summary of 4 processes written by hand, the second with 3 threads:
 * with at most 2 processes and 2 threads each, the two with the most CPU
 * print (in their order), the others are one line with their count and CPU. */
static struct td_summary_row row(enum td_summary_kind kind, int64_t thread, pid_t pid, pid_t tid, const char *comm,
				 double cpu)
{
	struct td_summary_row r = {
		.kind = kind, .thread = thread, .pid = pid, .tid = tid, .counted = true, .seconds = 1
	};
	snprintf(r.comm, sizeof(r.comm), "%s", comm);
	for (int k = 0; k < TD_SUM_NCOLS; k++)
		r.v[k] = 0;
	r.v[TD_SUM_CPU_TIME] = cpu;
	return r;
}

static void test_summary_cut(void **state)
{
	struct td_summary_row rows[] = {
		row(TD_SUM_PROCESS, 0, 10, 0, "p10", 1.0), row(TD_SUM_THREAD, 1, 10, 10, "p10", 1.0),
		row(TD_SUM_PROCESS, 0, 20, 0, "p20", 3.0), row(TD_SUM_THREAD, 2, 20, 20, "p20", 0.5),
		row(TD_SUM_THREAD, 3, 20, 21, "w21", 2.0), row(TD_SUM_THREAD, 4, 20, 22, "w22", 0.25),
		row(TD_SUM_PROCESS, 0, 30, 0, "p30", 0.5), row(TD_SUM_THREAD, 5, 30, 30, "p30", 0.5),
		row(TD_SUM_PROCESS, 0, 40, 0, "p40", 2.0), row(TD_SUM_THREAD, 6, 40, 40, "p40", 2.0),
	};
	struct td_summary sum = { .session = { .id = 3,
					       .kind = "run",
					       .status = "completed",
					       .command = "x",
					       .rung = "software-only",
					       .collector_ns = -1,
					       .nthreads = 6 },
				  .rows = rows,
				  .nrows = 10,
				  .nprocesses = 4,
				  .nthreads = 6 };
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	(void)state;
	td_summary_write(f, &sum, "x.db", 2, 2);
	fclose(f);
	/* shown: p20 (3 s) and p40 (2 s), in PID order; p10 (1 s) and p30 (0.5 s) not */
	char *p20 = strstr(out, "process 20 (p20), 3 threads:"), *p40 = strstr(out, "process 40 (p40), 1 thread:");
	assert_non_null(p20);
	assert_non_null(p40);
	assert_true(p20 < p40);
	assert_null(strstr(out, "process 10 "));
	assert_null(strstr(out, "process 30 "));
	/* hidden: 1.5 s of 6.5 s = 23.1 % */
	assert_non_null(strstr(out, "2 more processes not shown, with 1.500 s CPU (23.1 % of all): "
				    "'tdctl report 3 -d x.db --process PID' shows any of them"));
	/* p20's two threads with the most CPU: 21 (2 s) and 20 (0.5 s), not 22 (0.25 s) */
	assert_non_null(strstr(out, "     21 w21"));
	assert_non_null(strstr(out, "     20 p20"));
	assert_null(strstr(out, "     22 w22"));
	assert_non_null(strstr(out, "1 more thread not shown, each process's beyond its 2 with the most CPU: "
				    "'tdctl report 3 -d x.db --thread TID' shows any of them"));
	free(out);

	/* 0, 0: everything */
	out = NULL;
	f = open_memstream(&out, &len);
	td_summary_write(f, &sum, "x.db", 0, 0);
	fclose(f);
	assert_non_null(strstr(out, "process 10 (p10)"));
	assert_non_null(strstr(out, "process 30 (p30)"));
	assert_non_null(strstr(out, "     22 w22"));
	assert_null(strstr(out, "not shown"));
	free(out);
}

/* The unlisted remainder's line says what counted it: the BPF program's
 * per-process sums in BPF counting mode, the kernel's inherited counters
 * with perf groups per thread (and in older sessions, which recorded no
 * mode). Thread 7 ran 2.0 s, the remainder 0.5 s: 20.0 % of the 2.5 s. */
static char *summary_with_remainder(const char *counting)
{
	char path[] = "/tmp/td-summary-XXXXXX";
	int64_t sess;
	struct td_store *s = new_session(path, &sess, counting);
	char *out;

	td_store_begin(s);
	int64_t tc = td_store_event_add(s, sess, "TASK_CLOCK", "", 0, 1, 1, "counting", NULL, NULL);
	int64_t t1 = td_store_thread_add(s, sess, 7, 7, "demo", 0);
	int64_t un = td_store_thread_add(s, sess, 7, 0, "(unlisted)", 0);
	int64_t iv = td_store_interval_add(s, sess, 0, 0, 2000000000);
	td_store_count_add(s, iv, t1, tc, 2000000000, 2000000000, 2000000000);
	td_store_count_add(s, iv, un, tc, 500000000, 2000000000, 2000000000);
	td_store_thread_seen(s, t1, NULL, 2000000000, false);
	td_store_thread_seen(s, un, NULL, 2000000000, false);
	td_store_commit(s);
	td_store_session_end(s, sess, "completed", -1, "target exited");
	td_store_close(s);
	out = summary_of(path, sess);
	assert_non_null(
		strstr(out, "  (unlisted): 0.500 s CPU, 20.0 % of the process's, ran in threads and children "));
	return out;
}

static void test_remainder_per_mode(void **state)
{
	char *bpf = summary_with_remainder("bpf"), *groups = summary_with_remainder("per-thread"),
	     *older = summary_with_remainder(NULL);

	(void)state;
	assert_non_null(strstr(
		bpf, "not listed (too short to be listed, or no room in the BPF sums map);\n"
		     "  counted by the BPF program's per-process sums: software events only, no switch counts\n"));
	assert_null(strstr(bpf, "inherited"));
	for (int i = 0; i < 2; i++) {
		const char *out = i ? older : groups;
		assert_non_null(strstr(out,
				       "too short to be listed (and in listed ones before they were);\n"
				       "  counted by the kernel's inherited counters: software events only, no /proc "
				       "switches or hardware events\n"));
		assert_null(strstr(out, "BPF"));
	}
	free(bpf);
	free(groups);
	free(older);
}

/* A session written through a handle that hands each committed interval to
 * the live accumulator: per-thread groups, a second group multiplexed (its
 * counts scaled), a thread not counted in an interval, one born late, an
 * event refused, and an interval written, then rolled back (a failed write:
 * its counts must reach neither the database nor the totals). The summary
 * from the totals prints what td_summary_print reads back, byte for byte. */
static void test_summary_live(void **state)
{
	char path[] = "/tmp/td-summary-XXXXXX";
	int64_t sess;
	struct td_store *s = new_session(path, &sess, "per-thread");
	struct td_summary_live *live;
	struct td_summary sum;
	td_err err;
	const uint64_t S = 1000000000;
	char *out = NULL, *back;
	size_t len = 0;

	(void)state;
	assert_int_equal(td_summary_live_new(NULL, &live), 0);
	td_store_observe_counts(s, td_summary_live_feed, live);
	assert_int_equal(td_store_begin(s), 0);
	int64_t tc = td_store_event_add(s, sess, "TASK_CLOCK", "", 0, 1, 1, "counting", NULL, NULL);
	int64_t cs = td_store_event_add(s, sess, "CONTEXT_SWITCHES", "", 0, 1, 3, "counting", NULL, NULL);
	int64_t pf = td_store_event_add(s, sess, "PAGE_FAULTS", "", 1, 1, 2, "counting", NULL, NULL);
	int64_t cy = td_store_event_add(s, sess, "CYCLES", "", 2, 0, 0, "failed", "no PMU here", NULL);
	int64_t t1 = td_store_thread_add(s, sess, 7, 7, "demo", 0);
	int64_t t2 = td_store_thread_add(s, sess, 7, 8, "worker", 0);
	int64_t t3 = td_store_thread_add(s, sess, 7, 9, "late", S + S / 2);
	/* a thread with only a row no events file reads: still a row of the summary, all n/c */
	int64_t t4 = td_store_thread_add(s, sess, 7, 10, "odd", S);
	int64_t iv = td_store_interval_add(s, sess, 0, 0, S);
	/* thread 7: group 0 all the time, group 1 half of it; thread 8: a quarter, then not at all */
	td_store_count_add(s, iv, t1, tc, 400000000, S, S);
	td_store_count_add(s, iv, t1, cs, 10, S, S);
	td_store_count_add(s, iv, t1, pf, 100, S, S / 2);
	td_store_count_add(s, iv, t2, tc, 100000000, S, S / 4);
	td_store_count_add(s, iv, t2, cs, 4, S, S / 4);
	td_store_count_add(s, iv, t2, pf, 0, S, 0);
	td_store_count_add(s, iv, t1, cy, 0, S, 0);
	assert_int_equal(td_store_commit(s), 0);
	/* a write that fails: rolled back */
	assert_int_equal(td_store_begin(s), 0);
	iv = td_store_interval_add(s, sess, 1, S, 2 * S);
	td_store_count_add(s, iv, t1, tc, 9 * S, S, S);
	td_store_count_add(s, iv, t1, cs, 1000, S, S);
	td_store_rollback(s);
	assert_int_equal(td_store_begin(s), 0);
	iv = td_store_interval_add(s, sess, 1, S, 2 * S);
	td_store_count_add(s, iv, t3, tc, 100000000, S / 2, S / 2); /* written first: the walk's order is by target */
	td_store_count_add(s, iv, t1, tc, 500000000, S, S);
	td_store_count_add(s, iv, t1, cs, 20, S, S);
	td_store_count_add(s, iv, t1, pf, 50, S, S);
	td_store_count_add(s, iv, t2, tc, 200000000, S, S);
	td_store_count_add(s, iv, t2, cs, 6, S, S);
	td_store_count_add(s, iv, t2, pf, 30, S, S / 3);
	td_store_count_add(s, iv, t1, cy, 0, S, 0);
	td_store_count_add(s, iv, t4, cy, 0, S, 0);
	td_store_thread_seen(s, t1, NULL, 2 * S, false);
	td_store_thread_seen(s, t2, NULL, 2 * S, false);
	td_store_thread_seen(s, t3, NULL, 2 * S, true);
	assert_int_equal(td_store_commit(s), 0);
	td_store_session_end(s, sess, "completed", -1, "target exited");
	td_store_close(s);

	assert_int_equal(td_store_open(path, TD_STORE_READ, &s, &err), 0);
	assert_int_equal(td_summary_load_live(live, s, sess, &sum, &err), 0);
	assert_null(td_summary_live_read_back(live));
	assert_int_equal(td_summary_load_confidence(s, sess, &sum, &err), 0);
	for (int i = 0; i < sum.nrows; i++) { /* fully counted threads: their TASK_CLOCK, the failed write's left out */
		if (sum.rows[i].kind == TD_SUM_THREAD && sum.rows[i].tid == 7)
			assert_float_equal(sum.rows[i].v[TD_SUM_CPU_TIME], 0.9, 1e-12);
		if (sum.rows[i].kind == TD_SUM_THREAD && sum.rows[i].tid == 9)
			assert_float_equal(sum.rows[i].v[TD_SUM_CPU_TIME], 0.1, 1e-12);
	}
	FILE *f = open_memstream(&out, &len);
	td_summary_write(f, &sum, "x.db", 0, 0);
	fclose(f);
	td_summary_free(&sum);
	td_store_close(s);
	td_summary_live_free(live);
	back = summary_of(path, sess);
	assert_non_null(strstr(back, "4 threads"));
	assert_non_null(strstr(back, "       10 odd                  n/c"));
	assert_non_null(strstr(back, "not counted: CYCLES: no PMU here"));
	assert_string_equal(out, back);
	free(out);
	free(back);
}

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(test_summary_values), cmocka_unit_test(test_summary_cut),
					    cmocka_unit_test(test_remainder_per_mode),
					    cmocka_unit_test(test_summary_live) };
	return cmocka_run_group_tests(tests, NULL, NULL);
}
