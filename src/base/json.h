/* json: the one JSON writer — a streaming writer that keeps track of
 * nesting and commas, so no caller writes brackets, commas or quotes by
 * hand — and CSV field quoting. Strings are escaped (control characters as
 * \uXXXX); a number that is not available (NaN, inf) is written as null,
 * never as 0. Compact by default; `pretty` puts each element of an array
 * or object nested less than that deep on a line of its own. */
#ifndef TD_JSON_H
#define TD_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct td_json {
	FILE *out;
	int pretty;  /* containers nested less deep than this: one element per line */
	int depth;   /* open containers */
	char *close; /* per open container: ']' or '}' */
	bool *empty; /* per open container: no element written yet */
	int cap;
	bool after_key; /* a key was written: the value follows without a comma */
	bool started;	/* something was written */
	bool failed;	/* out of memory: the output is incomplete */
};

void td_json_init(struct td_json *j, FILE *out, int pretty);
/* Close what is still open and free the writer. 0, or -1 if anything
 * failed (out of memory, or a write error on out). */
int td_json_finish(struct td_json *j);

void td_json_object(struct td_json *j);
void td_json_array(struct td_json *j);
void td_json_close(struct td_json *j); /* the innermost open object or array */
void td_json_key(struct td_json *j, const char *key);

void td_json_string(struct td_json *j, const char *s);		       /* NULL: null */
void td_json_double(struct td_json *j, double v);		       /* %.17g */
void td_json_double_fmt(struct td_json *j, const char *fmt, double v); /* e.g. "%.4f" */
void td_json_int(struct td_json *j, int64_t v);
void td_json_uint(struct td_json *j, uint64_t v);
void td_json_bool(struct td_json *j, bool v);
void td_json_null(struct td_json *j);

/* key and value in one call */
void td_json_kstring(struct td_json *j, const char *key, const char *s);
void td_json_kdouble(struct td_json *j, const char *key, double v);
void td_json_kint(struct td_json *j, const char *key, int64_t v);
void td_json_kuint(struct td_json *j, const char *key, uint64_t v);
void td_json_kbool(struct td_json *j, const char *key, bool v);

/* Write s as one CSV field, quoted (with "" for ") only when it holds , " or a newline. */
void td_csv_field(FILE *f, const char *s);

#endif
