/* imsg: topdownd's internal protocol, encoded and decoded (see imsg.h and
 * docs/protocol.md). One table says, per message type, its fields in wire
 * order with each one's range or maximum length; the encoder and the
 * decoder both walk it, so what one writes the other reads, and a check
 * per type adds what a range cannot say (what an operation needs). */
#include <limits.h>
#include <stddef.h>
#include <string.h>
#include <sys/types.h>

#include "control/imsg.h"

enum kind {
	F_BOOL, /* one byte, 0 or 1, into a bool */
	F_I32,	/* into an int32_t (or an int, a pid_t, an enum td_op) */
	F_U32,
	F_I64,
	F_U64, /* any value */
	F_BUF, /* a string copied into a char buffer of size aux, NUL-terminated */
	F_REF  /* a string left in the message: const char * at off, its length (size_t) at aux */
};

struct field {
	const char *name;
	enum kind kind;
	size_t off, aux;
	long long min, max; /* integers: the range; strings: the length's */
};

/* the F_I32 fields that are not int32_t in the struct */
_Static_assert(sizeof(enum td_op) == sizeof(int32_t), "an operation travels as an i32");
_Static_assert(sizeof(pid_t) == sizeof(int32_t) && sizeof(int) == sizeof(int32_t), "a pid travels as an i32");

#define AT(f) offsetof(struct td_imsg, u.f)
#define BUF(f) AT(f), sizeof(((struct td_imsg *)0)->u.f)

static const struct field request[] = {
	{ "conn", F_U64, AT(request.conn), 0, 0, 0 },
	{ "clients", F_I32, AT(request.clients), 0, 0, INT32_MAX },
	{ "op", F_I32, AT(request.r.op), 0, TD_OP_ATTACH, TD_OP_CHANGES },
	{ "id", F_I64, AT(request.r.id), 0, 0, LLONG_MAX },
	{ "pid", F_I32, AT(request.r.pid), 0, 0, 4194304 },
	{ "children", F_BOOL, AT(request.r.children), 0, 0, 1 },
	{ "unlisted_off", F_BOOL, AT(request.r.unlisted_off), 0, 0, 1 },
	{ "interval_ms", F_I32, AT(request.r.interval_ms), 0, 0, 3600000 },
	{ "duration_ms", F_I32, AT(request.r.duration_ms), 0, 0, INT32_MAX },
	{ "level", F_I32, AT(request.r.level), 0, 0, 6 },
	{ "session", F_I64, AT(request.r.session), 0, 0, LLONG_MAX },
	{ "limit", F_I32, AT(request.r.limit), 0, 0, 100000 },
	{ "nodes", F_BUF, BUF(request.r.nodes), 0, 511 },
	{ "format", F_BUF, BUF(request.r.format), 0, 7 },
	{ "entry", F_BUF, BUF(request.r.entry), 0, 63 },
	{ NULL, F_U64, 0, 0, 0, 0 },
};
static const struct field gone[] = {
	{ "conn", F_U64, AT(gone.conn), 0, 0, 0 },
	{ NULL, F_U64, 0, 0, 0, 0 },
};
static const struct field reply[] = {
	{ "conn", F_U64, AT(reply.conn), 0, 0, 0 },
	{ "flags", F_U32, AT(reply.flags), 0, 0, TD_IMSG_MORE | TD_IMSG_DONE | TD_IMSG_CLOSE },
	{ "text", F_REF, AT(reply.text), AT(reply.len), 0, TD_IMSG_TEXT_MAX },
	{ NULL, F_U64, 0, 0, 0, 0 },
};
static const struct field log_line[] = {
	{ "prio", F_I32, AT(line.prio), 0, 0, 7 },
	{ "text", F_REF, AT(line.text), AT(line.len), 1, TD_IMSG_LINE_MAX },
	{ NULL, F_U64, 0, 0, 0, 0 },
};
static const struct field failed[] = {
	{ "text", F_REF, AT(line.text), AT(line.len), 1, TD_IMSG_LINE_MAX },
	{ NULL, F_U64, 0, 0, 0, 0 },
};
static const struct field front_config[] = {
	{ "max_clients", F_I32, AT(front.max_clients), 0, 1, 1000000 },
	{ "max_request", F_I64, AT(front.max_request), 0, 1, 1LL << 40 },
	{ "max_output", F_I64, AT(front.max_output), 0, 1, 1LL << 40 },
	{ "timeout_ms", F_I32, AT(front.timeout_ms), 0, 1, INT32_MAX },
	{ "socket_path", F_BUF, BUF(front.socket_path), 1, 107 },
	{ NULL, F_U64, 0, 0, 0, 0 },
};
static const struct field exporter_config[] = {
	{ "max_connections", F_I32, AT(exporter.max_connections), 0, 1, 1000000 },
	{ "listen", F_BUF, BUF(exporter.listen), 1, 255 },
	{ NULL, F_U64, 0, 0, 0, 0 },
};
static const struct field ready[] = {
	{ "port", F_I32, AT(ready.port), 0, 0, 65535 },
	{ NULL, F_U64, 0, 0, 0, 0 },
};
static const struct field scrape[] = {
	{ "openmetrics", F_BOOL, AT(scrape.openmetrics), 0, 0, 1 },
	{ NULL, F_U64, 0, 0, 0, 0 },
};
static const struct field metrics[] = {
	{ "flags", F_U32, AT(metrics.flags), 0, 0, TD_IMSG_MORE | TD_IMSG_FAIL },
	{ "text", F_REF, AT(metrics.text), AT(metrics.len), 0, TD_IMSG_TEXT_MAX },
	{ NULL, F_U64, 0, 0, 0, 0 },
};

static const struct field resolve[] = {
	{ "id", F_U64, AT(resolve.id), 0, 0, 0 },
	{ "pid", F_I32, AT(resolve.pid), 0, 1, 4194304 },
	{ "ip", F_U64, AT(resolve.ip), 0, 0, 0 },
	{ NULL, F_U64, 0, 0, 0, 0 },
};
static const struct field symbol[] = {
	{ "id", F_U64, AT(symbol.id), 0, 0, 0 },
	{ "line", F_I32, AT(symbol.line), 0, 0, INT32_MAX },
	{ "function", F_REF, AT(symbol.function), AT(symbol.function_len), 1, TD_IMSG_FUNCTION_MAX },
	{ "module", F_REF, AT(symbol.module), AT(symbol.module_len), 1, TD_IMSG_PATH_MAX },
	{ "file", F_REF, AT(symbol.file), AT(symbol.file_len), 0, TD_IMSG_PATH_MAX },
	{ NULL, F_U64, 0, 0, 0, 0 },
};
static const struct field epoch[] = {
	{ NULL, F_U64, 0, 0, 0, 0 },
};

static const struct {
	const char *name;
	const struct field *fields;
} types[TD_IMSG_TYPES + 1] = {
	[TD_IMSG_REQUEST] = { "request", request },
	[TD_IMSG_GONE] = { "gone", gone },
	[TD_IMSG_REPLY] = { "reply", reply },
	[TD_IMSG_LOG] = { "log", log_line },
	[TD_IMSG_FRONT_CONFIG] = { "front-config", front_config },
	[TD_IMSG_EXPORTER_CONFIG] = { "exporter-config", exporter_config },
	[TD_IMSG_READY] = { "ready", ready },
	[TD_IMSG_FAILED] = { "failed", failed },
	[TD_IMSG_SCRAPE] = { "scrape", scrape },
	[TD_IMSG_METRICS] = { "metrics", metrics },
	[TD_IMSG_RESOLVE] = { "resolve", resolve },
	[TD_IMSG_SYMBOL] = { "symbol", symbol },
	[TD_IMSG_EPOCH] = { "epoch", epoch },
};

const char *td_imsg_type_name(int type)
{
	return type >= 1 && type <= TD_IMSG_TYPES ? types[type].name : "?";
}

static void put(unsigned char *p, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get(const unsigned char *p, int n)
{
	uint64_t v = 0;

	for (int i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

static int width(enum kind k)
{
	switch (k) {
	case F_BOOL:
		return 1;
	case F_I32:
	case F_U32:
		return 4;
	default:
		return 8;
	}
}

/* What a range cannot say: what a request's operation needs, and the
 * values with a hole (an interval of 1-9 ms, a format but text or json). */
static int check(const struct td_imsg *m, td_err *err)
{
	const struct td_request *r = &m->u.request.r;

	switch (m->type) {
	case TD_IMSG_REQUEST:
		if (r->op == TD_OP_ATTACH && r->pid < 1) {
			td_err_set(err, "request: an attach names no pid");
			return -1;
		}
		if ((r->op == TD_OP_DETACH || r->op == TD_OP_REPORT || r->op == TD_OP_TAIL) && r->session < 1) {
			td_err_set(err, "request: %s names no session", td_op_name(r->op));
			return -1;
		}
		if (r->op == TD_OP_PROFILE_NOW && !r->entry[0]) {
			td_err_set(err, "request: profile-now names no entry");
			return -1;
		}
		if (r->interval_ms > 0 && r->interval_ms < 10) {
			td_err_set(err, "request: field interval_ms is %d: 0 or 10 to 3600000", r->interval_ms);
			return -1;
		}
		if (r->format[0] && strcmp(r->format, "text") && strcmp(r->format, "json")) {
			td_err_set(err, "request: field format is neither text nor json");
			return -1;
		}
		return 0;
	case TD_IMSG_FRONT_CONFIG:
		if (m->u.front.socket_path[0] != '/') {
			td_err_set(err, "front-config: field socket_path is not absolute");
			return -1;
		}
		return 0;
	default:
		return 0;
	}
}

long td_imsg_encode(const struct td_imsg *m, unsigned char *buf, size_t cap)
{
	const char *base = (const char *)m;
	size_t at = TD_IMSG_HEADER;
	td_err err;

	if ((int)m->type < 1 || m->type > TD_IMSG_TYPES || cap < TD_IMSG_HEADER || check(m, &err))
		return -1;
	for (const struct field *f = types[m->type].fields; f->name; f++) {
		const char *s = NULL;
		size_t n = 0;
		uint64_t v = 0;
		if (f->kind == F_BUF) {
			s = base + f->off;
			n = strnlen(s, f->aux);
		} else if (f->kind == F_REF) {
			memcpy(&s, base + f->off, sizeof(s));
			memcpy(&n, base + f->aux, sizeof(n));
			if (n && (!s || memchr(s, '\0', n)))
				return -1;
		}
		if (s || f->kind == F_REF) {
			if (n < (size_t)f->min || n > (size_t)f->max || at + 4 + n > cap || at + 4 + n > TD_IMSG_MAX)
				return -1;
			put(buf + at, n, 4);
			if (n)
				memcpy(buf + at + 4, s, n);
			at += 4 + n;
			continue;
		}
		if (f->kind == F_BOOL) {
			bool b;
			memcpy(&b, base + f->off, sizeof(b));
			v = b;
		} else if (f->kind == F_I32) {
			int32_t i;
			memcpy(&i, base + f->off, sizeof(i));
			if (i < f->min || i > f->max)
				return -1;
			v = (uint32_t)i;
		} else if (f->kind == F_U32) {
			uint32_t u;
			memcpy(&u, base + f->off, sizeof(u));
			if (u > (unsigned long long)f->max)
				return -1;
			v = u;
		} else if (f->kind == F_I64) {
			int64_t i;
			memcpy(&i, base + f->off, sizeof(i));
			if (i < f->min || i > f->max)
				return -1;
			v = (uint64_t)i;
		} else {
			memcpy(&v, base + f->off, sizeof(v));
		}
		if (at + (size_t)width(f->kind) > cap)
			return -1;
		put(buf + at, v, width(f->kind));
		at += (size_t)width(f->kind);
	}
	put(buf, at, 4);
	put(buf + 4, TD_IMSG_VERSION, 2);
	put(buf + 6, (uint64_t)m->type, 2);
	return (long)at;
}

int td_imsg_decode(const unsigned char *buf, size_t len, struct td_imsg *m, td_err *err)
{
	char *base = (char *)m;
	size_t at = TD_IMSG_HEADER;
	uint64_t v;
	int type;
	const char *name;

	memset(m, 0, sizeof(*m));
	if (len < TD_IMSG_HEADER || len > TD_IMSG_MAX) {
		td_err_set(err, "a message of %zu bytes: the header is %d and the most %d", len, TD_IMSG_HEADER,
			   TD_IMSG_MAX);
		return -1;
	}
	if ((v = get(buf, 4)) != len) {
		td_err_set(err, "a message of %zu bytes says it has %llu", len, (unsigned long long)v);
		return -1;
	}
	if ((v = get(buf + 4, 2)) != TD_IMSG_VERSION) {
		td_err_set(err, "a message of version %llu: this monitor speaks %d", (unsigned long long)v,
			   TD_IMSG_VERSION);
		return -1;
	}
	type = (int)get(buf + 6, 2);
	if (type < 1 || type > TD_IMSG_TYPES) {
		td_err_set(err, "a message of unknown type %d", type);
		return -1;
	}
	m->type = (enum td_imsg_type)type;
	name = types[type].name;
	for (const struct field *f = types[type].fields; f->name; f++) {
		if (f->kind == F_BUF || f->kind == F_REF) {
			if (len - at < 4) {
				td_err_set(err, "%s: cut short before field %s", name, f->name);
				return -1;
			}
			v = get(buf + at, 4);
			at += 4;
			if (v > len - at) {
				td_err_set(err, "%s: field %s says %llu bytes, %zu are left", name, f->name,
					   (unsigned long long)v, len - at);
				return -1;
			}
			if (v < (uint64_t)f->min || v > (uint64_t)f->max) {
				td_err_set(err, "%s: field %s of %llu bytes: %lld to %lld", name, f->name,
					   (unsigned long long)v, f->min, f->max);
				return -1;
			}
			if (memchr(buf + at, '\0', (size_t)v)) {
				td_err_set(err, "%s: field %s holds a NUL byte", name, f->name);
				return -1;
			}
			if (f->kind == F_BUF) {
				memcpy(base + f->off, buf + at, (size_t)v);
				base[f->off + v] = '\0';
			} else {
				const char *s = (const char *)buf + at;
				size_t n = (size_t)v;
				memcpy(base + f->off, &s, sizeof(s));
				memcpy(base + f->aux, &n, sizeof(n));
			}
			at += (size_t)v;
			continue;
		}
		if (len - at < (size_t)width(f->kind)) {
			td_err_set(err, "%s: cut short before field %s", name, f->name);
			return -1;
		}
		v = get(buf + at, width(f->kind));
		at += (size_t)width(f->kind);
		if (f->kind == F_BOOL) {
			bool b = v == 1;
			if (v > 1) {
				td_err_set(err, "%s: field %s is %llu, not 0 or 1", name, f->name,
					   (unsigned long long)v);
				return -1;
			}
			memcpy(base + f->off, &b, sizeof(b));
		} else if (f->kind == F_I32) {
			int32_t i = (int32_t)(uint32_t)v;
			if (i < f->min || i > f->max) {
				td_err_set(err, "%s: field %s is %d: %lld to %lld", name, f->name, (int)i, f->min,
					   f->max);
				return -1;
			}
			memcpy(base + f->off, &i, sizeof(i));
		} else if (f->kind == F_U32) {
			uint32_t u = (uint32_t)v;
			if (u > (unsigned long long)f->max) {
				td_err_set(err, "%s: field %s is %u: at most %lld", name, f->name, (unsigned)u, f->max);
				return -1;
			}
			memcpy(base + f->off, &u, sizeof(u));
		} else if (f->kind == F_I64) {
			int64_t i = (int64_t)v;
			if (i < f->min || i > f->max) {
				td_err_set(err, "%s: field %s is %lld: %lld to %lld", name, f->name, (long long)i,
					   f->min, f->max);
				return -1;
			}
			memcpy(base + f->off, &i, sizeof(i));
		} else {
			memcpy(base + f->off, &v, sizeof(v));
		}
	}
	if (at != len) {
		td_err_set(err, "%s: %zu bytes after the last field", name, len - at);
		return -1;
	}
	return check(m, err);
}
