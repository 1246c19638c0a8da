/* test_import_parse: td_import_parse, the perf stat -x reader alone (what the
 * import fuzz target runs) — lines used and skipped, intervals, targets and
 * events counted by hand for small files in each form, a byte-order mark, a
 * timestamp that is no time since perf started, an empty file, and a file
 * with no usable line. */
#ifdef NDEBUG
#error "the tests check invariants with assert(): build them without NDEBUG"
#endif
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/import.h"

static int parse(const char *text, struct td_import_result *res, td_err *err)
{
	struct td_import_opts o = { .path = "t.csv", .pmu_model = "skl", .smt = -1 };
	char *buf = strdup(text);
	int rc;

	assert_non_null(buf);
	rc = td_import_parse(&o, buf, strlen(text), res, err);
	free(buf);
	return rc;
}

static void test_intervals_per_thread(void **state)
{
	/* 2 intervals x 2 threads; a not-counted line is used (running 0); a line with a
	 * bad value is skipped; duration_time is used but is no event */
	static const char text[] = "# started on Wed Nov 25 10:00:00 2026\n"
				   "\n"
				   "1.0;main-10;100;;cycles;1000;100.00;;\n"
				   "1.0;main-10;<not counted>;;instructions;0;0.00;;\n"
				   "1.0;work-11;300;;cycles;1000;100.00;;\n"
				   "2.0;main-10;100;;cycles;1000;100.00;;\n"
				   "2.0;work-11;x7;;cycles;1000;100.00;;\n"
				   "2.0;work-11;1000000000;ns;duration_time;1000;100.00;;\n";
	struct td_import_result res;
	td_err err;

	(void)state;
	assert_int_equal(parse(text, &res, &err), 0);
	assert_int_equal(res.lines, 8);
	assert_int_equal(res.used, 5);
	assert_int_equal(res.skipped, 1);
	assert_int_equal(res.intervals, 2);
	assert_int_equal(res.targets, 2);
	assert_int_equal(res.events, 2);
}

static void test_per_cpu_comma_bom(void **state)
{
	static const char text[] = "\xEF\xBB\xBF"
				   "CPU0,10,,cycles,1000,100.00,,\n"
				   "CPU1,20,,cycles,1000,50.00,,\n"
				   "CPU1,30,,instructions,1000,100.00,,";
	struct td_import_result res;
	td_err err;

	(void)state;
	assert_int_equal(parse(text, &res, &err), 0);
	assert_int_equal(res.lines, 3);
	assert_int_equal(res.used, 3);
	assert_int_equal(res.skipped, 0);
	assert_int_equal(res.intervals, 1);
	assert_int_equal(res.targets, 2);
	assert_int_equal(res.events, 2);
}

static void test_timestamp_not_seconds(void **state)
{
	/* 1e300 s is no time since perf started: that line is skipped, the others make 2 intervals */
	static const char text[] = "1.0;100;;cycles;1000;100.00;;\n"
				   "1e300;200;;cycles;1000;100.00;;\n"
				   "2.0;300;;cycles;1000;100.00;;\n";
	struct td_import_result res;
	td_err err;

	(void)state;
	assert_int_equal(parse(text, &res, &err), 0);
	assert_int_equal(res.used, 2);
	assert_int_equal(res.skipped, 1);
	assert_int_equal(res.intervals, 2);
}

static void test_nothing_usable(void **state)
{
	struct td_import_result res;
	td_err err;

	(void)state;
	assert_int_equal(parse("", &res, &err), -1);
	assert_non_null(strstr(err.msg, "'t.csv' is empty"));
	assert_int_equal(parse("hello\nworld;1;2\n", &res, &err), -1);
	assert_non_null(strstr(err.msg, "no usable line of 2"));
	assert_int_equal(res.skipped, 2);
	assert_int_equal(res.used, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_intervals_per_thread),
		cmocka_unit_test(test_per_cpu_comma_bom),
		cmocka_unit_test(test_timestamp_not_seconds),
		cmocka_unit_test(test_nothing_usable),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
