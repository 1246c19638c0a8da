/* protocol: decoding and encoding control requests (see protocol.h and
 * docs/protocol.md). Every key a request may hold is in one table with its
 * type and range; the decoder walks the object's keys and refuses what the
 * table does not know, so a typo is an error and not a silent default. */
#include <jansson.h>
#include <limits.h>
#include <string.h>

#include "protocol.h"

static const char *const op_names[] = {
	[TD_OP_ATTACH] = "attach",   [TD_OP_DETACH] = "detach",		  [TD_OP_LIST] = "list",
	[TD_OP_STATUS] = "status",   [TD_OP_SESSIONS] = "sessions",	  [TD_OP_REPORT] = "report",
	[TD_OP_TAIL] = "tail",	     [TD_OP_PROFILE_NOW] = "profile-now", [TD_OP_RELOAD] = "reload",
	[TD_OP_CHANGES] = "changes",
};

#define NOPS (int)(sizeof(op_names) / sizeof(op_names[0]))

const char *td_op_name(enum td_op op)
{
	return (int)op >= 0 && (int)op < NOPS ? op_names[op] : "?";
}

enum key_type {
	K_INT,
	K_BOOL,
	K_STRING
};

/* The arguments, where they go, and which operations take them. */
struct key {
	const char *name;
	enum key_type type;
	long long min, max; /* K_INT range; K_STRING: max length */
	unsigned ops;	    /* bit per enum td_op */
	size_t off;	    /* in struct td_request */
	int size;	    /* of the field: 4 or 8 for ints, the buffer for strings */
};

#define OP(x) (1u << (x))
#define FIELD(f) offsetof(struct td_request, f), (int)sizeof(((struct td_request *)0)->f)

static const struct key keys[] = {
	{ "pid", K_INT, 1, 4194304, OP(TD_OP_ATTACH), FIELD(pid) },
	{ "children", K_BOOL, 0, 1, OP(TD_OP_ATTACH), FIELD(children) },
	{ "unlisted_off", K_BOOL, 0, 1, OP(TD_OP_ATTACH), FIELD(unlisted_off) },
	{ "interval_ms", K_INT, 10, 3600000, OP(TD_OP_ATTACH), FIELD(interval_ms) },
	{ "duration_ms", K_INT, 0, INT_MAX, OP(TD_OP_ATTACH), FIELD(duration_ms) },
	{ "level", K_INT, 1, 6, OP(TD_OP_ATTACH), FIELD(level) },
	{ "nodes", K_STRING, 0, 511, OP(TD_OP_ATTACH), FIELD(nodes) },
	{ "session", K_INT, 1, LLONG_MAX, OP(TD_OP_DETACH) | OP(TD_OP_REPORT) | OP(TD_OP_TAIL), FIELD(session) },
	{ "format", K_STRING, 0, 7, OP(TD_OP_REPORT), FIELD(format) },
	{ "entry", K_STRING, 1, 63, OP(TD_OP_PROFILE_NOW), FIELD(entry) },
	{ "limit", K_INT, 1, 100000, OP(TD_OP_SESSIONS) | OP(TD_OP_CHANGES), FIELD(limit) },
};

#define NKEYS (sizeof(keys) / sizeof(keys[0]))

/* What each operation cannot do without. */
static const char *required(enum td_op op)
{
	switch (op) {
	case TD_OP_ATTACH:
		return "pid";
	case TD_OP_DETACH:
	case TD_OP_REPORT:
	case TD_OP_TAIL:
		return "session";
	case TD_OP_PROFILE_NOW:
		return "entry";
	default:
		return NULL;
	}
}

static int set_key(const struct key *k, json_t *v, struct td_request *r, td_err *err)
{
	char *field = (char *)r + k->off;

	if (k->type == K_BOOL) {
		if (!json_is_boolean(v)) {
			td_err_set(err, "'%s' must be true or false", k->name);
			return -1;
		}
		*(bool *)field = json_is_true(v);
		return 0;
	}
	if (k->type == K_STRING) {
		if (!json_is_string(v) || json_string_length(v) > (size_t)k->max ||
		    json_string_length(v) < (size_t)k->min || strlen(json_string_value(v)) != json_string_length(v)) {
			td_err_set(err, "'%s' must be a string of %lld to %lld characters", k->name, k->min, k->max);
			return -1;
		}
		memcpy(field, json_string_value(v), json_string_length(v) + 1);
		return 0;
	}
	if (!json_is_integer(v) || json_integer_value(v) < k->min || json_integer_value(v) > k->max) {
		td_err_set(err, "'%s' must be an integer from %lld to %lld", k->name, k->min, k->max);
		return -1;
	}
	if (k->size == (int)sizeof(int64_t))
		*(int64_t *)field = (int64_t)json_integer_value(v);
	else
		*(int *)field = (int)json_integer_value(v);
	return 0;
}

/* A client's key as an error may echo it: at most len - 1 bytes, control
 * characters as '?' (the reply is one line). */
static void printable(const char *key, char *out, size_t len)
{
	size_t i = 0;

	for (; key[i] && i + 1 < len; i++)
		out[i] = (unsigned char)key[i] < 0x20 || key[i] == 0x7f ? '?' : key[i];
	out[i] = '\0';
}

static int find_op(const char *name)
{
	for (int i = 0; i < NOPS; i++)
		if (!strcmp(op_names[i], name))
			return i;
	return -1;
}

static int decode(json_t *o, struct td_request *r, td_err *err)
{
	json_t *v = json_object_get(o, "v"), *op = json_object_get(o, "op"), *id = json_object_get(o, "id");
	const char *key, *need;
	json_t *val;
	int opi;

	if (id && (!json_is_integer(id) || json_integer_value(id) < 0)) {
		td_err_set(err, "'id' must be a non-negative integer");
		return -1;
	}
	r->id = id ? (int64_t)json_integer_value(id) : 0;
	if (!v || !json_is_integer(v) || json_integer_value(v) != TD_PROTOCOL_VERSION) {
		td_err_set(err, "unsupported protocol version: send \"v\":%d", TD_PROTOCOL_VERSION);
		return -1;
	}
	if (!op || !json_is_string(op) || (opi = find_op(json_string_value(op))) < 0) {
		td_err_set(err, "unknown or missing 'op': give attach, detach, list, status, sessions, report, tail, "
				"profile-now, reload or changes");
		return -1;
	}
	r->op = (enum td_op)opi;
	json_object_foreach(o, key, val)
	{
		const struct key *k = NULL;
		if (!strcmp(key, "v") || !strcmp(key, "op") || !strcmp(key, "id"))
			continue;
		for (size_t i = 0; i < NKEYS && !k; i++)
			if (!strcmp(keys[i].name, key))
				k = &keys[i];
		if (!k || !(k->ops & OP(r->op))) {
			char shown[65];
			printable(key, shown, sizeof(shown));
			td_err_set(err, "'%s' takes no argument '%s'", td_op_name(r->op), shown);
			return -1;
		}
		if (set_key(k, val, r, err))
			return -1;
	}
	need = required(r->op);
	if (need && !json_object_get(o, need)) {
		td_err_set(err, "'%s' needs '%s'", td_op_name(r->op), need);
		return -1;
	}
	if (r->op == TD_OP_REPORT && r->format[0] && strcmp(r->format, "text") && strcmp(r->format, "json")) {
		td_err_set(err, "'format' must be text or json");
		return -1;
	}
	return 0;
}

int td_request_decode(const char *line, size_t len, struct td_request *r, td_err *err)
{
	json_error_t je;
	json_t *o;
	int rc;

	memset(r, 0, sizeof(*r));
	/* no NUL inside a string, no duplicate key, one value on the line */
	o = json_loadb(line, len, JSON_REJECT_DUPLICATES, &je);
	if (!o) {
		char why[81];
		/* jansson quotes the offending text: control characters as '?' (one line) */
		printable(je.text, why, sizeof(why));
		td_err_set(err, "malformed request at character %d: %s", je.position, why);
		return -1;
	}
	if (!json_is_object(o)) {
		td_err_set(err, "a request is a JSON object");
		json_decref(o);
		return -1;
	}
	rc = decode(o, r, err);
	json_decref(o);
	return rc;
}

char *td_request_encode(const struct td_request *r)
{
	json_t *o = json_pack("{s:i, s:I, s:s}", "v", TD_PROTOCOL_VERSION, "id", (json_int_t)r->id, "op",
			      td_op_name(r->op));
	char *text, *line = NULL;

	if (!o)
		return NULL;
	switch (r->op) {
	case TD_OP_ATTACH:
		json_object_set_new(o, "pid", json_integer(r->pid));
		if (r->children)
			json_object_set_new(o, "children", json_true());
		if (r->unlisted_off)
			json_object_set_new(o, "unlisted_off", json_true());
		if (r->interval_ms)
			json_object_set_new(o, "interval_ms", json_integer(r->interval_ms));
		if (r->duration_ms)
			json_object_set_new(o, "duration_ms", json_integer(r->duration_ms));
		if (r->level)
			json_object_set_new(o, "level", json_integer(r->level));
		if (r->nodes[0])
			json_object_set_new(o, "nodes", json_string(r->nodes));
		break;
	case TD_OP_DETACH:
	case TD_OP_TAIL:
		json_object_set_new(o, "session", json_integer(r->session));
		break;
	case TD_OP_REPORT:
		json_object_set_new(o, "session", json_integer(r->session));
		if (r->format[0])
			json_object_set_new(o, "format", json_string(r->format));
		break;
	case TD_OP_PROFILE_NOW:
		json_object_set_new(o, "entry", json_string(r->entry));
		break;
	case TD_OP_SESSIONS:
	case TD_OP_CHANGES:
		if (r->limit)
			json_object_set_new(o, "limit", json_integer(r->limit));
		break;
	default:
		break;
	}
	text = json_dumps(o, JSON_COMPACT);
	json_decref(o);
	if (text && asprintf(&line, "%s\n", text) < 0)
		line = NULL;
	free(text);
	return line;
}

const char *const td_change_seq_keys[4] = { "before_first_seq", "before_last_seq", "after_first_seq",
					    "after_last_seq" };
