/* Unit tests for util and json: file reading, number parsing, trimming,
 * clocks, and JSON escaping. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/json.h"
#include "base/util.h"

/* td_array_push: every element kept across growths, each new one zeroed,
 * the count right; 1,000 pushes of a 3-int element. */
static void test_array_push(void **state)
{
	struct three {
		int a, b, c;
	} *arr = NULL, *e;
	int n = 0;

	(void)state;
	for (int i = 0; i < 1000; i++) {
		assert_non_null(e = td_array_push(&arr, &n, sizeof(*arr)));
		assert_int_equal(n, i + 1);
		assert_ptr_equal(e, &arr[i]);
		assert_int_equal(e->a | e->b | e->c, 0);
		e->a = i;
		e->c = -i;
	}
	for (int i = 0; i < 1000; i++)
		assert_true(arr[i].a == i && arr[i].b == 0 && arr[i].c == -i);
	free(arr);
}

static void test_parse_long(void **state)
{
	long v = 0;

	(void)state;
	assert_int_equal(td_parse_long("42", 0, 100, &v), 0);
	assert_int_equal(v, 42);
	assert_int_equal(td_parse_long("-5", -10, 10, &v), 0);
	assert_int_equal(v, -5);
	assert_int_equal(td_parse_long("101", 0, 100, &v), -1);
	assert_int_equal(td_parse_long("4x", 0, 100, &v), -1);
	assert_int_equal(td_parse_long("", 0, 100, &v), -1);
	assert_int_equal(td_parse_long("99999999999999999999999", LONG_MIN, LONG_MAX, &v), -1);
	assert_int_equal(v, -5); /* untouched on error */
}

static void test_trim(void **state)
{
	char a[] = "  x y \t\n", b[] = "", c[] = "   ";

	(void)state;
	assert_string_equal(td_trim(a), "x y");
	assert_string_equal(td_trim(b), "");
	assert_string_equal(td_trim(c), "");
}

static void test_files(void **state)
{
	char path[] = "/tmp/td-util-XXXXXX", buf[8], *all = NULL;
	size_t len = 0;
	long v;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "1234567890\n", 11), 11);
	close(fd);
	assert_int_equal(td_read_file(path, buf, sizeof(buf)), 7); /* truncated to fit */
	assert_string_equal(buf, "1234567");
	assert_int_equal(td_read_long(path, &v), 0);
	assert_int_equal(v, 1234567890);
	assert_int_equal(td_slurp(path, &all, &len), 0);
	assert_int_equal(len, 11);
	assert_string_equal(all, "1234567890\n");
	free(all);
	unlink(path);
	assert_int_equal(td_read_file(path, buf, sizeof(buf)), -ENOENT);
	assert_int_equal(td_slurp(path, &all, &len), -ENOENT);
}

static void test_clocks(void **state)
{
	uint64_t a = td_now_ns(), b;

	(void)state;
	usleep(2000);
	b = td_now_ns();
	assert_true(b - a >= 2000000);
	assert_true(td_wall_ns() > 1600000000ull * 1000000000ull); /* after 2020 */
}

/* The JSON writer: escaping, null for a missing string and for a number
 * that is not available (never 0), commas and nesting, and the pretty
 * layout (one element per line above the given depth). */
static void test_json(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct td_json j;

	(void)state;
	td_json_init(&j, f, 0);
	td_json_object(&j);
	td_json_kstring(&j, "s", "a\"b\\c\n\x01");
	td_json_kstring(&j, "none", NULL);
	td_json_kdouble(&j, "na", NAN);
	td_json_kdouble(&j, "q", 0.25);
	td_json_key(&j, "list");
	td_json_array(&j);
	td_json_int(&j, -3);
	td_json_uint(&j, 18446744073709551615ull);
	td_json_bool(&j, true);
	td_json_double_fmt(&j, "%.1f", 2.25);
	td_json_object(&j);
	td_json_close(&j);
	td_json_close(&j);
	assert_int_equal(td_json_finish(&j), 0); /* closes the object */
	fclose(f);
	assert_string_equal(buf, "{\"s\":\"a\\\"b\\\\c\\n\\u0001\",\"none\":null,\"na\":null,\"q\":0.25,"
				 "\"list\":[-3,18446744073709551615,true,2.2,{}]}");
	free(buf);

	f = open_memstream(&buf, &len);
	td_json_init(&j, f, 2);
	td_json_object(&j);
	td_json_key(&j, "rows");
	td_json_array(&j);
	for (int i = 0; i < 2; i++) {
		td_json_object(&j);
		td_json_kint(&j, "i", i);
		td_json_kint(&j, "j", -i);
		td_json_close(&j);
	}
	td_json_close(&j);
	td_json_key(&j, "empty");
	td_json_array(&j);
	assert_int_equal(td_json_finish(&j), 0);
	fclose(f);
	assert_string_equal(
		buf, "{\n  \"rows\":[\n    {\"i\":0,\"j\":0},\n    {\"i\":1,\"j\":-1}\n  ],\n  \"empty\":[]\n}\n");
	free(buf);
}

static void test_err(void **state)
{
	td_err e;

	(void)state;
	td_err_set(&e, "x=%d %s", 3, "y");
	assert_string_equal(e.msg, "x=3 y");
	td_err_set(NULL, "ignored");
}

struct row {
	int64_t id;
	int payload;
};

static void test_find_by_id(void **state)
{
	const struct row rows[] = { { -5, 1 }, { 3, 2 }, { 4, 3 }, { 1LL << 40, 4 }, { INT64_MAX, 5 } };
	const size_t n = sizeof(rows) / sizeof(rows[0]);

	(void)state;
	for (size_t i = 0; i < n; i++) {
		const struct row *r = td_find_by_id(rows, n, sizeof(rows[0]), rows[i].id);
		assert_non_null(r);
		assert_int_equal(r->payload, (int)i + 1);
	}
	assert_null(td_find_by_id(rows, n, sizeof(rows[0]), 0));
	assert_null(td_find_by_id(rows, n, sizeof(rows[0]), 5));
	assert_null(td_find_by_id(rows, n, sizeof(rows[0]), INT64_MIN));
	assert_null(td_find_by_id(rows, 0, sizeof(rows[0]), 3));
	assert_null(td_find_by_id(NULL, 0, sizeof(rows[0]), 3));
}

/* td_parse_duration: each unit converted by hand; what is not a positive
 * duration of at most 10^10 s is refused (fuzz_daemon_config found a value
 * whose nanoseconds overflowed 64 bits). */
static void test_parse_duration(void **state)
{
	static const struct {
		const char *text;
		uint64_t ns;
	} good[] = {
		{ "500ms", 500000000ull },
		{ "2s", 2000000000ull },
		{ "1.5s", 1500000000ull },
		{ "10m", 600000000000ull },
		{ "12h", 43200000000000ull },
		{ "7d", 604800000000000ull },
		{ "1e10s", 10000000000000000000ull },
		{ "0.000001ms", 1 },
	};
	static const char *const bad[] = { "",
					   "s",
					   "5",
					   "5x",
					   "-1s",
					   "0s",
					   "+1s",
					   " 1s",
					   "1 s",
					   "1sec",
					   "1777001152060.6197s",
					   "10000000001s",
					   "116000000d",
					   "0.0000001ms",
					   "nan s",
					   "infs" };
	uint64_t ns;

	(void)state;
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		if (td_parse_duration(good[i].text, &ns) != 0 || ns != good[i].ns)
			fail_msg("'%s': wanted %llu ns", good[i].text, (unsigned long long)good[i].ns);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (td_parse_duration(bad[i], &ns) != -1)
			fail_msg("'%s' was taken as a duration", bad[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_duration),
		cmocka_unit_test(test_find_by_id),
		cmocka_unit_test(test_array_push),
		cmocka_unit_test(test_parse_long),
		cmocka_unit_test(test_trim),
		cmocka_unit_test(test_files),
		cmocka_unit_test(test_clocks),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_err),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
