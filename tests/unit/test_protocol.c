/* Unit tests for the control protocol's decoder (src/control/protocol.c):
 * each operation's arguments land in their fields; every kind of bad
 * request is refused with a line naming what is wrong; an encoded request
 * decodes to itself. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "control/protocol.h"

static int decode(const char *line, struct td_request *r, td_err *err)
{
	return td_request_decode(line, strlen(line), r, err);
}

static void test_attach_fields(void **state)
{
	struct td_request r;
	td_err err;

	(void)state;
	assert_int_equal(decode("{\"v\":1,\"id\":42,\"op\":\"attach\",\"pid\":1234,\"children\":true,"
				"\"unlisted_off\":true,\"interval_ms\":250,\"duration_ms\":5000,\"level\":3,"
				"\"nodes\":\"Backend_Bound\"}",
				&r, &err),
			 0);
	assert_int_equal(r.id, 42);
	assert_int_equal(r.op, TD_OP_ATTACH);
	assert_int_equal(r.pid, 1234);
	assert_true(r.children);
	assert_true(r.unlisted_off);
	assert_int_equal(r.interval_ms, 250);
	assert_int_equal(r.duration_ms, 5000);
	assert_int_equal(r.level, 3);
	assert_string_equal(r.nodes, "Backend_Bound");
	/* only what is given is set */
	assert_int_equal(decode("{\"v\":1,\"op\":\"attach\",\"pid\":7}", &r, &err), 0);
	assert_int_equal(r.id, 0);
	assert_false(r.children);
	assert_false(r.unlisted_off);
	assert_int_equal(r.interval_ms + r.duration_ms + r.level, 0);
	assert_string_equal(r.nodes, "");
}

static void test_other_ops(void **state)
{
	static const struct {
		const char *line;
		enum td_op op;
	} ok[] = {
		{ "{\"v\":1,\"op\":\"detach\",\"session\":9}", TD_OP_DETACH },
		{ "{\"v\":1,\"op\":\"list\"}", TD_OP_LIST },
		{ "{\"v\":1,\"op\":\"status\"}", TD_OP_STATUS },
		{ "{\"v\":1,\"op\":\"sessions\",\"limit\":3}", TD_OP_SESSIONS },
		{ "{\"v\":1,\"op\":\"report\",\"session\":9,\"format\":\"json\"}", TD_OP_REPORT },
		{ "{\"v\":1,\"op\":\"tail\",\"session\":9}", TD_OP_TAIL },
		{ "{\"v\":1,\"op\":\"profile-now\",\"entry\":\"hourly\"}", TD_OP_PROFILE_NOW },
		{ "{\"v\":1,\"op\":\"reload\"}", TD_OP_RELOAD },
		{ "{\"v\":1,\"op\":\"changes\",\"limit\":2}", TD_OP_CHANGES },
	};
	struct td_request r;
	td_err err;

	(void)state;
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		assert_int_equal(decode(ok[i].line, &r, &err), 0);
		assert_int_equal(r.op, ok[i].op);
	}
	decode("{\"v\":1,\"op\":\"report\",\"session\":9,\"format\":\"json\"}", &r, &err);
	assert_int_equal(r.session, 9);
	assert_string_equal(r.format, "json");
	decode("{\"v\":1,\"op\":\"profile-now\",\"entry\":\"hourly\"}", &r, &err);
	assert_string_equal(r.entry, "hourly");
	decode("{\"v\":1,\"op\":\"sessions\",\"limit\":3}", &r, &err);
	assert_int_equal(r.limit, 3);
}

/* Each bad request, and words its one-line error must hold. */
static void test_refusals(void **state)
{
	static const struct {
		const char *line, *says;
	} bad[] = {
		{ "", "malformed request" },
		{ "{\"v\":1,\"op\":", "malformed request" },
		{ "[1,2]", "a request is a JSON object" },
		{ "{\"v\":1,\"op\":\"list\"} {\"v\":1}", "malformed request" },
		{ "{\"op\":\"list\"}", "send \"v\":1" },
		{ "{\"v\":2,\"op\":\"list\"}", "send \"v\":1" },
		{ "{\"v\":1}", "unknown or missing 'op'" },
		{ "{\"v\":1,\"op\":\"attack\"}", "unknown or missing 'op'" },
		{ "{\"v\":1,\"op\":7}", "unknown or missing 'op'" },
		{ "{\"v\":1,\"op\":\"list\",\"pid\":1}", "'list' takes no argument 'pid'" },
		{ "{\"v\":1,\"op\":\"attach\",\"pid\":1,\"pidd\":2}", "'attach' takes no argument 'pidd'" },
		{ "{\"v\":1,\"op\":\"attach\"}", "'attach' needs 'pid'" },
		{ "{\"v\":1,\"op\":\"detach\"}", "'detach' needs 'session'" },
		{ "{\"v\":1,\"op\":\"profile-now\"}", "'profile-now' needs 'entry'" },
		{ "{\"v\":1,\"op\":\"attach\",\"pid\":\"12\"}", "'pid' must be an integer from 1 to 4194304" },
		{ "{\"v\":1,\"op\":\"attach\",\"pid\":0}", "'pid' must be an integer from 1 to 4194304" },
		{ "{\"v\":1,\"op\":\"attach\",\"pid\":4194305}", "'pid' must be an integer from 1 to 4194304" },
		{ "{\"v\":1,\"op\":\"attach\",\"pid\":1.5}", "'pid' must be an integer" },
		{ "{\"v\":1,\"op\":\"attach\",\"pid\":1,\"interval_ms\":9}",
		  "'interval_ms' must be an integer from 10" },
		{ "{\"v\":1,\"op\":\"attach\",\"pid\":1,\"level\":7}", "'level' must be an integer from 1 to 6" },
		{ "{\"v\":1,\"op\":\"attach\",\"pid\":1,\"children\":1}", "'children' must be true or false" },
		{ "{\"v\":1,\"op\":\"report\",\"session\":1,\"format\":\"html\"}", "'format' must be text or json" },
		{ "{\"v\":1,\"op\":\"report\",\"session\":1,\"format\":\"textual!\"}",
		  "'format' must be a string of 0 to 7" },
		{ "{\"v\":1,\"op\":\"detach\",\"session\":0}", "'session' must be an integer from 1" },
		{ "{\"v\":1,\"op\":\"list\",\"op\":\"status\"}", "malformed request" },
		{ "{\"v\":1,\"id\":-1,\"op\":\"list\"}", "'id' must be a non-negative integer" },
		{ "{\"v\":1,\"op\":\"profile-now\",\"entry\":\"a\\u0000b\"}", "malformed request" },
		/* found by fuzz_protocol: a key echoed in the error must not break the line */
		{ "{\"v\":1,\"op\":\"profile-now\",\"e\\ntry\":\"y\"}", "'profile-now' takes no argument 'e?try'" },
		/* and a raw newline inside a string, which jansson quotes in its error */
		{ "{\"v\":1,\"op\":\"profile-now\",\"e\\\nntry\":\"y\"}", "malformed request at character" },
	};
	struct td_request r;
	td_err err;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err.msg[0] = '\0';
		if (decode(bad[i].line, &r, &err) != -1 || !strstr(err.msg, bad[i].says))
			fail_msg("'%s': wanted an error saying \"%s\", got \"%s\"", bad[i].line, bad[i].says, err.msg);
		assert_null(strchr(err.msg, '\n'));
	}
	/* the id survives an error after it is read, for the reply */
	assert_int_equal(decode("{\"v\":1,\"id\":5,\"op\":\"nope\"}", &r, &err), -1);
	assert_int_equal(r.id, 5);
	/* bytes that are not UTF-8 */
	static const char latin1[] = "{\"v\":1,\"op\":\"profile-now\",\"entry\":\"\xe9t\xe9\"}";
	assert_int_equal(td_request_decode(latin1, sizeof(latin1) - 1, &r, &err), -1);
	/* a request without its terminating NUL: the length is what counts */
	static const char cut[] = "{\"v\":1,\"op\":\"list\"}GARBAGE";
	assert_int_equal(td_request_decode(cut, (size_t)(strchr(cut, '}') - cut) + 1, &r, &err), 0);
	assert_int_equal(r.op, TD_OP_LIST);
}

static void test_encode_roundtrip(void **state)
{
	struct td_request in = { .id = 3,
				 .op = TD_OP_ATTACH,
				 .pid = 99,
				 .children = true,
				 .unlisted_off = true,
				 .interval_ms = 100,
				 .duration_ms = 2000,
				 .level = 2 },
			  out;
	char *line;
	td_err err;

	(void)state;
	strcpy(in.nodes, "Frontend_Bound.Fetch_Latency");
	line = td_request_encode(&in);
	assert_non_null(line);
	assert_int_equal(line[strlen(line) - 1], '\n');
	assert_int_equal(td_request_decode(line, strlen(line) - 1, &out, &err), 0);
	assert_memory_equal(&in, &out, sizeof(in));
	free(line);
	in = (struct td_request){ .id = 4, .op = TD_OP_REPORT, .session = 12 };
	strcpy(in.format, "json");
	line = td_request_encode(&in);
	assert_int_equal(td_request_decode(line, strlen(line) - 1, &out, &err), 0);
	assert_memory_equal(&in, &out, sizeof(in));
	free(line);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_attach_fields),
		cmocka_unit_test(test_other_ops),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_encode_roundtrip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
