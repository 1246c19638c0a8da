/* json: the streaming JSON writer and CSV quoting (see json.h). */
#include "json.h"

#include <assert.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void td_json_init(struct td_json *j, FILE *out, int pretty)
{
	memset(j, 0, sizeof(*j));
	j->out = out;
	j->pretty = pretty;
}

static void newline(struct td_json *j, int depth)
{
	fputc('\n', j->out);
	for (int i = 0; i < depth; i++)
		fputs("  ", j->out);
}

/* Before any value: the comma that separates it from the one before, and
 * its line when pretty. */
static void before_value(struct td_json *j)
{
	j->started = true;
	if (j->after_key) {
		j->after_key = false;
		return;
	}
	if (j->depth == 0)
		return;
	if (!j->empty[j->depth - 1])
		fputc(',', j->out);
	j->empty[j->depth - 1] = false;
	if (j->depth <= j->pretty)
		newline(j, j->depth);
}

static void open(struct td_json *j, char c, char close)
{
	before_value(j);
	fputc(c, j->out);
	if (j->depth == j->cap) {
		int ncap = j->cap ? 2 * j->cap : 8;
		char *cl = realloc(j->close, (size_t)ncap);
		bool *em = cl ? realloc(j->empty, (size_t)ncap * sizeof(bool)) : NULL;
		if (cl)
			j->close = cl;
		if (!em) {
			j->failed = true;
			return;
		}
		j->empty = em;
		j->cap = ncap;
	}
	j->close[j->depth] = close;
	j->empty[j->depth] = true;
	j->depth++;
}

void td_json_object(struct td_json *j)
{
	open(j, '{', '}');
}

void td_json_array(struct td_json *j)
{
	open(j, '[', ']');
}

void td_json_close(struct td_json *j)
{
	assert(j->depth > 0 && !j->after_key);
	if (j->depth <= 0)
		return;
	j->depth--;
	if (j->depth < j->pretty && !j->empty[j->depth])
		newline(j, j->depth);
	fputc(j->close[j->depth], j->out);
}

static void put_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"':
			fputs("\\\"", f);
			break;
		case '\\':
			fputs("\\\\", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		case '\r':
			fputs("\\r", f);
			break;
		case '\t':
			fputs("\\t", f);
			break;
		default:
			if (*p < 0x20)
				fprintf(f, "\\u%04x", *p);
			else
				fputc(*p, f);
		}
	}
	fputc('"', f);
}

void td_json_key(struct td_json *j, const char *key)
{
	assert(j->depth > 0 && j->close[j->depth - 1] == '}' && !j->after_key);
	before_value(j);
	put_string(j->out, key);
	fputc(':', j->out);
	j->after_key = true;
}

void td_json_string(struct td_json *j, const char *s)
{
	before_value(j);
	if (s)
		put_string(j->out, s);
	else
		fputs("null", j->out);
}

void td_json_double_fmt(struct td_json *j, const char *fmt, double v)
{
	before_value(j);
	if (isnan(v) || isinf(v))
		fputs("null", j->out);
	else
		fprintf(j->out, fmt, v);
}

void td_json_double(struct td_json *j, double v)
{
	td_json_double_fmt(j, "%.17g", v);
}

void td_json_int(struct td_json *j, int64_t v)
{
	before_value(j);
	fprintf(j->out, "%" PRId64, v);
}

void td_json_uint(struct td_json *j, uint64_t v)
{
	before_value(j);
	fprintf(j->out, "%" PRIu64, v);
}

void td_json_bool(struct td_json *j, bool v)
{
	before_value(j);
	fputs(v ? "true" : "false", j->out);
}

void td_json_null(struct td_json *j)
{
	before_value(j);
	fputs("null", j->out);
}

void td_json_kstring(struct td_json *j, const char *key, const char *s)
{
	td_json_key(j, key);
	td_json_string(j, s);
}

void td_json_kdouble(struct td_json *j, const char *key, double v)
{
	td_json_key(j, key);
	td_json_double(j, v);
}

void td_json_kint(struct td_json *j, const char *key, int64_t v)
{
	td_json_key(j, key);
	td_json_int(j, v);
}

void td_json_kuint(struct td_json *j, const char *key, uint64_t v)
{
	td_json_key(j, key);
	td_json_uint(j, v);
}

void td_json_kbool(struct td_json *j, const char *key, bool v)
{
	td_json_key(j, key);
	td_json_bool(j, v);
}

int td_json_finish(struct td_json *j)
{
	int rc;

	while (j->depth > 0 && !j->failed)
		td_json_close(j);
	if (j->pretty && j->started)
		fputc('\n', j->out);
	rc = j->failed || ferror(j->out) ? -1 : 0;
	free(j->close);
	free(j->empty);
	memset(j, 0, sizeof(*j));
	return rc;
}

void td_csv_field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}
