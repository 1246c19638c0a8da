/* Unit tests for topdownd's internal protocol (src/control/imsg.c): the
 * wire layout written out by hand from docs/protocol.md (not from the
 * encoder) decodes to its fields; every message type encodes and decodes
 * back to itself; and each way a subverted front could lie — a length that
 * is not the message's, another version, an unknown type, a field out of
 * range, a string longer than its maximum or holding a NUL, a message cut
 * short or with bytes left over, a request without what its operation
 * needs — is refused with a line naming the field. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "control/imsg.h"

/* A little-endian writer for the hand-made messages. */
struct wire {
	unsigned char b[TD_IMSG_MAX + 64];
	size_t n;
};

static void w_int(struct wire *w, uint64_t v, int bytes)
{
	for (int i = 0; i < bytes; i++)
		w->b[w->n++] = (unsigned char)(v >> (8 * i));
}

static void w_str(struct wire *w, const char *s)
{
	w_int(w, strlen(s), 4);
	memcpy(w->b + w->n, s, strlen(s));
	w->n += strlen(s);
}

static void w_header(struct wire *w, int type)
{
	w->n = 0;
	w_int(w, 0, 4); /* the length, set by w_end */
	w_int(w, 1, 2);
	w_int(w, (uint64_t)type, 2);
}

static void w_end(struct wire *w)
{
	for (int i = 0; i < 4; i++)
		w->b[i] = (unsigned char)(w->n >> (8 * i));
}

/* An attach request as docs/protocol.md lays it out, field by field. */
static void attach_wire(struct wire *w, int32_t pid)
{
	w_header(w, 1);
	w_int(w, 0x0102030405060708ull, 8); /* conn */
	w_int(w, 3, 4);			    /* clients */
	w_int(w, 0, 4);			    /* op: attach */
	w_int(w, 42, 8);		    /* id */
	w_int(w, (uint32_t)pid, 4);	    /* pid */
	w_int(w, 1, 1);			    /* children */
	w_int(w, 0, 1);			    /* unlisted_off */
	w_int(w, 250, 4);		    /* interval_ms */
	w_int(w, 5000, 4);		    /* duration_ms */
	w_int(w, 2, 4);			    /* level */
	w_int(w, 0, 8);			    /* session */
	w_int(w, 0, 4);			    /* limit */
	w_str(w, "Backend_Bound");	    /* nodes */
	w_str(w, "");			    /* format */
	w_str(w, "");			    /* entry */
	w_end(w);
}

static void test_request_layout(void **state)
{
	struct wire w;
	struct td_imsg m;
	td_err err;

	(void)state;
	attach_wire(&w, 1234);
	assert_int_equal(w.n, 8 + 8 + 4 + 4 + 8 + 4 + 1 + 1 + 4 + 4 + 4 + 8 + 4 + 4 + 13 + 4 + 4);
	assert_int_equal(td_imsg_decode(w.b, w.n, &m, &err), 0);
	assert_int_equal(m.type, TD_IMSG_REQUEST);
	assert_true(m.u.request.conn == 0x0102030405060708ull);
	assert_int_equal(m.u.request.clients, 3);
	assert_int_equal(m.u.request.r.op, TD_OP_ATTACH);
	assert_int_equal(m.u.request.r.id, 42);
	assert_int_equal(m.u.request.r.pid, 1234);
	assert_true(m.u.request.r.children);
	assert_false(m.u.request.r.unlisted_off);
	assert_int_equal(m.u.request.r.interval_ms, 250);
	assert_int_equal(m.u.request.r.duration_ms, 5000);
	assert_int_equal(m.u.request.r.level, 2);
	assert_string_equal(m.u.request.r.nodes, "Backend_Bound");
	assert_string_equal(m.u.request.r.format, "");

	/* the encoder writes the same bytes */
	unsigned char out[TD_IMSG_MAX];
	assert_int_equal(td_imsg_encode(&m, out, sizeof(out)), (long)w.n);
	assert_memory_equal(out, w.b, w.n);
}

static void test_reply_layout(void **state)
{
	struct wire w;
	struct td_imsg m;
	td_err err;

	(void)state;
	w_header(&w, 3);
	w_int(&w, 7, 8);
	w_int(&w, 2 | 4, 4);
	w_str(&w, "{\"v\":1}");
	w_end(&w);
	assert_int_equal(td_imsg_decode(w.b, w.n, &m, &err), 0);
	assert_int_equal(m.type, TD_IMSG_REPLY);
	assert_true(m.u.reply.conn == 7);
	assert_int_equal(m.u.reply.flags, TD_IMSG_DONE | TD_IMSG_CLOSE);
	assert_int_equal(m.u.reply.len, 7);
	assert_memory_equal(m.u.reply.text, "{\"v\":1}", 7);
	assert_ptr_equal(m.u.reply.text, (const char *)w.b + 8 + 8 + 4 + 4); /* points into the message */
}

/* The symbolizer's answer (docs/protocol.md, type 12): what the monitor
 * takes from a process that parsed a user's ELF files. */
static void test_symbol_layout(void **state)
{
	struct wire w;
	struct td_imsg m;
	td_err err;
	static char name[TD_IMSG_FUNCTION_MAX + 2];

	(void)state;
	w_header(&w, 12);
	w_int(&w, 99, 8);  /* id */
	w_int(&w, 417, 4); /* line */
	w_str(&w, "compute_chunk");
	w_str(&w, "td-demo");
	w_str(&w, "src/demo/td-demo.c");
	w_end(&w);
	assert_int_equal(w.n, 8 + 8 + 4 + 4 + 13 + 4 + 7 + 4 + 18);
	assert_int_equal(td_imsg_decode(w.b, w.n, &m, &err), 0);
	assert_int_equal(m.type, TD_IMSG_SYMBOL);
	assert_true(m.u.symbol.id == 99);
	assert_int_equal(m.u.symbol.line, 417);
	assert_int_equal(m.u.symbol.function_len, 13);
	assert_memory_equal(m.u.symbol.function, "compute_chunk", 13);
	assert_memory_equal(m.u.symbol.module, "td-demo", 7);
	assert_int_equal(m.u.symbol.file_len, 18);
	/* no function, a negative line, a name one byte over its maximum: refused */
	w_header(&w, 12);
	w_int(&w, 1, 8);
	w_int(&w, 0, 4);
	w_str(&w, "");
	w_str(&w, "m");
	w_str(&w, "");
	w_end(&w);
	assert_int_equal(td_imsg_decode(w.b, w.n, &m, &err), -1);
	assert_non_null(strstr(err.msg, "function"));
	w_header(&w, 12);
	w_int(&w, 1, 8);
	w_int(&w, 0xffffffffu, 4);
	w_str(&w, "f");
	w_str(&w, "m");
	w_str(&w, "");
	w_end(&w);
	assert_int_equal(td_imsg_decode(w.b, w.n, &m, &err), -1);
	assert_non_null(strstr(err.msg, "line"));
	memset(name, 'f', TD_IMSG_FUNCTION_MAX + 1);
	w_header(&w, 12);
	w_int(&w, 1, 8);
	w_int(&w, 0, 4);
	w_str(&w, name);
	w_str(&w, "m");
	w_str(&w, "");
	w_end(&w);
	assert_int_equal(td_imsg_decode(w.b, w.n, &m, &err), -1);
	assert_non_null(strstr(err.msg, "function"));
	/* a question: id, pid (1-4194304), ip */
	w_header(&w, 11);
	w_int(&w, 5, 8);
	w_int(&w, 4321, 4);
	w_int(&w, 0x7f0012345678ull, 8);
	w_end(&w);
	assert_int_equal(td_imsg_decode(w.b, w.n, &m, &err), 0);
	assert_int_equal(m.type, TD_IMSG_RESOLVE);
	assert_int_equal(m.u.resolve.pid, 4321);
	assert_true(m.u.resolve.ip == 0x7f0012345678ull);
	w_header(&w, 11);
	w_int(&w, 5, 8);
	w_int(&w, 0, 4);
	w_int(&w, 1, 8);
	w_end(&w);
	assert_int_equal(td_imsg_decode(w.b, w.n, &m, &err), -1);
	assert_non_null(strstr(err.msg, "pid"));
	/* an epoch has no field: a byte after the header is refused */
	w_header(&w, 13);
	w_end(&w);
	assert_int_equal(td_imsg_decode(w.b, w.n, &m, &err), 0);
	assert_int_equal(m.type, TD_IMSG_EPOCH);
	w_int(&w, 0, 1);
	w_end(&w);
	assert_int_equal(td_imsg_decode(w.b, w.n, &m, &err), -1);
}

static void roundtrip(const struct td_imsg *m)
{
	unsigned char buf[TD_IMSG_MAX];
	unsigned char again[TD_IMSG_MAX];
	struct td_imsg back;
	long n, n2;
	td_err err;

	n = td_imsg_encode(m, buf, sizeof(buf));
	assert_true(n >= TD_IMSG_HEADER);
	assert_int_equal(td_imsg_decode(buf, (size_t)n, &back, &err), 0);
	assert_int_equal(back.type, m->type);
	/* the decoded message encodes to the same bytes */
	n2 = td_imsg_encode(&back, again, sizeof(again));
	assert_int_equal(n2, n);
	assert_memory_equal(buf, again, (size_t)n);
	/* and every prefix is refused */
	for (long cut = 0; cut < n; cut++)
		assert_int_equal(td_imsg_decode(buf, (size_t)cut, &back, &err), -1);
}

static void test_every_type_roundtrips(void **state)
{
	struct td_imsg m;
	static char big[TD_IMSG_TEXT_MAX];

	(void)state;
	memset(big, 'x', sizeof(big));
	memset(&m, 0, sizeof(m));
	m.type = TD_IMSG_REQUEST;
	m.u.request.r.op = TD_OP_REPORT;
	m.u.request.r.session = 9;
	strcpy(m.u.request.r.format, "json");
	roundtrip(&m);
	memset(&m, 0, sizeof(m));
	m.type = TD_IMSG_GONE;
	m.u.gone.conn = UINT64_MAX;
	roundtrip(&m);
	memset(&m, 0, sizeof(m));
	m.type = TD_IMSG_REPLY;
	m.u.reply.text = big;
	m.u.reply.len = sizeof(big); /* the longest chunk */
	m.u.reply.flags = TD_IMSG_MORE;
	roundtrip(&m);
	memset(&m, 0, sizeof(m));
	m.type = TD_IMSG_LOG;
	m.u.line.prio = 6;
	m.u.line.text = "front: a client dropped";
	m.u.line.len = strlen(m.u.line.text);
	roundtrip(&m);
	m.type = TD_IMSG_FAILED;
	roundtrip(&m);
	memset(&m, 0, sizeof(m));
	m.type = TD_IMSG_FRONT_CONFIG;
	m.u.front.max_clients = 256;
	m.u.front.max_request = 65536;
	m.u.front.max_output = 4 << 20;
	m.u.front.timeout_ms = 10000;
	strcpy(m.u.front.socket_path, "/run/topdown/topdownd.sock");
	roundtrip(&m);
	memset(&m, 0, sizeof(m));
	m.type = TD_IMSG_EXPORTER_CONFIG;
	m.u.exporter.max_connections = 256;
	strcpy(m.u.exporter.listen, "[::1]:9464");
	roundtrip(&m);
	memset(&m, 0, sizeof(m));
	m.type = TD_IMSG_READY;
	m.u.ready.port = 65535;
	roundtrip(&m);
	memset(&m, 0, sizeof(m));
	m.type = TD_IMSG_SCRAPE;
	m.u.scrape.openmetrics = true;
	roundtrip(&m);
	memset(&m, 0, sizeof(m));
	m.type = TD_IMSG_METRICS;
	m.u.metrics.flags = TD_IMSG_FAIL;
	roundtrip(&m);
	memset(&m, 0, sizeof(m));
	m.type = TD_IMSG_RESOLVE;
	m.u.resolve.id = UINT64_MAX;
	m.u.resolve.pid = 4194304;
	m.u.resolve.ip = UINT64_MAX;
	roundtrip(&m);
	static char fn[TD_IMSG_FUNCTION_MAX], path[TD_IMSG_PATH_MAX];
	memset(fn, 'f', sizeof(fn));
	memset(path, 'p', sizeof(path));
	memset(&m, 0, sizeof(m));
	m.type = TD_IMSG_SYMBOL;
	m.u.symbol.line = INT32_MAX;
	m.u.symbol.function = fn; /* the longest of each: still one message */
	m.u.symbol.function_len = sizeof(fn);
	m.u.symbol.module = path;
	m.u.symbol.module_len = sizeof(path);
	m.u.symbol.file = path;
	m.u.symbol.file_len = sizeof(path);
	roundtrip(&m);
	memset(&m, 0, sizeof(m));
	m.type = TD_IMSG_EPOCH;
	roundtrip(&m);
}

/* decode must fail and its reason name what */
static void refused(const struct wire *w, const char *what)
{
	struct td_imsg m;
	td_err err;

	assert_int_equal(td_imsg_decode(w->b, w->n, &m, &err), -1);
	if (!strstr(err.msg, what))
		fail_msg("'%s' does not name '%s'", err.msg, what);
	assert_null(strchr(err.msg, '\n'));
}

static void test_header_lies(void **state)
{
	struct wire w;

	(void)state;
	attach_wire(&w, 1);
	w.b[0]++; /* says one byte more than it has */
	refused(&w, "says it has");
	attach_wire(&w, 1);
	w.b[4] = 2;
	refused(&w, "version 2");
	attach_wire(&w, 1);
	w.b[6] = 14;
	refused(&w, "unknown type 14");
	w.b[6] = 0;
	refused(&w, "unknown type 0");
	w.n = 3;
	refused(&w, "a message of 3 bytes");
	/* oversized: longer than any message may be, even when the length says so */
	w_header(&w, 3);
	w_int(&w, 1, 8);
	w_int(&w, 0, 4);
	w_int(&w, TD_IMSG_MAX, 4);
	memset(w.b + w.n, 'a', TD_IMSG_MAX + 1 - w.n);
	w.n = TD_IMSG_MAX + 1;
	w_end(&w);
	refused(&w, "the most 32768");
	/* a byte left over */
	attach_wire(&w, 1);
	w.b[w.n++] = 0;
	w_end(&w);
	refused(&w, "1 bytes after the last field");
}

static void test_fields_out_of_range(void **state)
{
	struct wire w;

	(void)state;
	attach_wire(&w, -1);
	refused(&w, "field pid is -1");
	attach_wire(&w, 4194305);
	refused(&w, "field pid is 4194305");
	attach_wire(&w, 0);
	refused(&w, "an attach names no pid");
	/* op 10: past changes, the last */
	attach_wire(&w, 1);
	w.b[8 + 8 + 4] = 10;
	refused(&w, "field op is 10");
	/* children 2 */
	attach_wire(&w, 1);
	w.b[8 + 8 + 4 + 4 + 8 + 4] = 2;
	refused(&w, "field children is 2");
	/* unlisted_off 2 */
	attach_wire(&w, 1);
	w.b[8 + 8 + 4 + 4 + 8 + 4 + 1] = 2;
	refused(&w, "field unlisted_off is 2");
	/* interval 5 ms: in range, but a hole */
	attach_wire(&w, 1);
	w.b[8 + 8 + 4 + 4 + 8 + 4 + 1 + 1] = 5;
	refused(&w, "interval_ms is 5");
	/* a string that says more than is left */
	attach_wire(&w, 1);
	w.b[w.n - 4 - 4 - 13 - 4] = 200;
	refused(&w, "field nodes says 200 bytes");
	/* a NUL inside a string */
	attach_wire(&w, 1);
	w.b[w.n - 4 - 4 - 13 + 3] = 0;
	refused(&w, "field nodes holds a NUL");
	/* a reply flag that does not exist */
	w_header(&w, 3);
	w_int(&w, 7, 8);
	w_int(&w, 16, 4);
	w_str(&w, "");
	w_end(&w);
	refused(&w, "field flags is 16");
	/* a chunk longer than its maximum */
	w_header(&w, 10);
	w_int(&w, 0, 4);
	w_int(&w, TD_IMSG_TEXT_MAX + 1, 4);
	memset(w.b + w.n, 'a', TD_IMSG_TEXT_MAX + 1);
	w.n += TD_IMSG_TEXT_MAX + 1;
	w_end(&w);
	refused(&w, "field text of 32001 bytes");
	/* a relative socket path */
	w_header(&w, 5);
	w_int(&w, 1, 4);
	w_int(&w, 1, 8);
	w_int(&w, 1, 8);
	w_int(&w, 1, 4);
	w_str(&w, "sock");
	w_end(&w);
	refused(&w, "socket_path is not absolute");
	/* a detach without its session */
	memset(&w, 0, sizeof(w));
	w_header(&w, 1);
	w_int(&w, 1, 8);
	w_int(&w, 0, 4);
	w_int(&w, TD_OP_DETACH, 4);
	w_int(&w, 0, 8);
	w_int(&w, 0, 4);
	w_int(&w, 0, 1); /* children */
	w_int(&w, 0, 1); /* unlisted_off */
	w_int(&w, 0, 4);
	w_int(&w, 0, 4);
	w_int(&w, 0, 4);
	w_int(&w, 0, 8);
	w_int(&w, 0, 4);
	w_str(&w, "");
	w_str(&w, "");
	w_str(&w, "");
	w_end(&w);
	refused(&w, "detach names no session");
}

static void test_encoder_refuses_what_decoder_would(void **state)
{
	struct td_imsg m;
	unsigned char buf[TD_IMSG_MAX];

	(void)state;
	memset(&m, 0, sizeof(m));
	m.type = TD_IMSG_REQUEST;
	m.u.request.r.op = TD_OP_ATTACH; /* no pid */
	assert_int_equal(td_imsg_encode(&m, buf, sizeof(buf)), -1);
	m.u.request.r.pid = 5;
	assert_true(td_imsg_encode(&m, buf, sizeof(buf)) > 0);
	assert_int_equal(td_imsg_encode(&m, buf, 20), -1); /* does not fit */
	memset(&m, 0, sizeof(m));
	m.type = TD_IMSG_LOG;
	m.u.line.prio = 8;
	m.u.line.text = "x";
	m.u.line.len = 1;
	assert_int_equal(td_imsg_encode(&m, buf, sizeof(buf)), -1);
	m.u.line.prio = 3;
	m.u.line.text = "a\0b";
	m.u.line.len = 3;
	assert_int_equal(td_imsg_encode(&m, buf, sizeof(buf)), -1);
	m.type = (enum td_imsg_type)0;
	assert_int_equal(td_imsg_encode(&m, buf, sizeof(buf)), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_symbol_layout),
		cmocka_unit_test(test_request_layout),
		cmocka_unit_test(test_reply_layout),
		cmocka_unit_test(test_every_type_roundtrips),
		cmocka_unit_test(test_header_lies),
		cmocka_unit_test(test_fields_out_of_range),
		cmocka_unit_test(test_encoder_refuses_what_decoder_would),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
