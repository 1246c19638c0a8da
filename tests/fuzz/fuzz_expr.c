/* fuzz_expr: libFuzzer target for the expression language of events files
 * (model/expr.c) and the evaluator (eval/evaluator.c). The input is one
 * formula. It is compiled with a resolver that maps every name to one of
 * NSLOTS slots (or refuses it), then evaluated on slot values that include
 * NaN, zero, negative and huge numbers, and walked as the planner walks it.
 * Then the same formula becomes a node, an info metric and a let of a small
 * events file whose event aliases are the formula's names, and that file
 * goes through the catalog parser, the model compiler and the evaluator
 * (fuzz_model.c). Seeds: tests/fuzz/corpus/expr, formulas of the events files. */
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_model.h"
#include "model/catalog.h"
#include "model/expr.h"

#define NSLOTS 8
#define MAX_NAMES 32

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Every name gets a slot from its hash, except those whose hash says "unknown". */
static int resolve(void *ctx, const char *name, td_err *why)
{
	unsigned h = 5381;

	(void)ctx;
	for (const char *p = name; *p; p++)
		h = h * 33 + (unsigned char)*p;
	if (h % (NSLOTS + 1) == NSLOTS) {
		td_err_set(why, "'%s' is not defined here", name);
		return -1;
	}
	return (int)(h % (NSLOTS + 1));
}

static void count_slot(void *ctx, int slot)
{
	(void)slot;
	++*(int *)ctx;
}

static void run_compiled(const char *formula)
{
	static const double slots[NSLOTS] = { 1e9, 0, NAN, -3.5, 1e308, 4, 0.25, 1 };
	static const double known[NSLOTS] = { NAN, 0, NAN, 1, NAN, 4, NAN, NAN };
	struct td_expr *e;
	td_err err;
	int n = 0, col;

	if (td_expr_compile(formula, resolve, NULL, &e, &err) == 0) {
		td_expr_eval(e, slots);
		td_expr_foreach_slot(e, count_slot, &n);
		td_expr_foreach_live_slot(e, known, count_slot, &n);
		td_expr_size(e);
		td_expr_free(e);
	}
	if (td_expr_compile_at(formula, resolve, NULL, &e, &err, &col) == 0)
		td_expr_free(e);
}

static bool is_keyword(const char *w, size_t len)
{
	static const char *const kw[] = { "if",	  "else",     "and",	  "or",	    "not", "min", "max", "available",
					  "this", "DURATION", "NUM_CPUS", "SMT_on", "W",   "F",	  "N",	 "I" };

	for (size_t i = 0; i < sizeof(kw) / sizeof(kw[0]); i++)
		if (strlen(kw[i]) == len && !strncmp(kw[i], w, len))
			return true;
	return false;
}

/* Append s to the growing text buffer; aborts when out of memory. */
static void append_str(char **buf, size_t *len, const char *s)
{
	size_t n = strlen(s);
	char *b = realloc(*buf, *len + n + 1);

	if (!b)
		abort();
	memcpy(b + *len, s, n);
	*len += n;
	b[*len] = '\0';
	*buf = b;
}

/* An events file defining the formula's names as events, then the formula as
 * a node (with a threshold), an info metric and a let read by both. */
static char *events_file(const char *formula)
{
	char *buf = NULL, line[160];
	size_t len = 0;
	const char *names[MAX_NAMES];
	size_t lens[MAX_NAMES];
	int nnames = 0;

	append_str(&buf, &len, "pmu fuzz\nconst W 4\nparam SMT_on 1\n");
	for (const char *p = formula; *p && nnames < MAX_NAMES;) {
		if (!(*p == '_' || (*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z'))) {
			p++;
			continue;
		}
		const char *w = p;
		while (*p == '_' || (*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9'))
			p++;
		size_t n = (size_t)(p - w);
		bool seen =
			is_keyword(w, n) || n > 60 || (w > formula && (w[-1] == '.' || (w[-1] >= '0' && w[-1] <= '9')));
		for (int i = 0; i < nnames && !seen; i++)
			seen = lens[i] == n && !strncmp(names[i], w, n);
		if (seen)
			continue;
		names[nnames] = w;
		lens[nnames++] = n;
		snprintf(line, sizeof(line), "event %.*s perf::TASK-CLOCK\n", (int)n, w);
		append_str(&buf, &len, line);
	}
	append_str(&buf, &len, "let F = ");
	append_str(&buf, &len, formula);
	append_str(&buf, &len, "\nnode N Slots = F | > 0.5 | fuzzed\ninfo I Metric = F + 1 | fuzzed\n");
	return buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *formula = fuzz_text(data, size), *file;
	struct td_catalog *cat;
	td_err err;

	run_compiled(formula);
	/* one line of an events file: the formula up to its first line end */
	formula[strcspn(formula, "\n\r#|\\")] = '\0';
	file = events_file(formula);
	if (td_catalog_parse_text("fuzz-expr.td", file, &cat, &err) == 0) {
		fuzz_evaluate_catalog(cat, data, size);
		td_catalog_free(cat);
	}
	free(file);
	free(formula);
	return 0;
}
