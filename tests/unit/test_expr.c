/* Unit tests for expr: precedence and associativity, NA propagation, the
 * conditional's laziness, min/max, available(), comparisons and logic,
 * error columns, nesting limits and the slot visitors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/expr.h"

/* Names a..e are slots 0..4; NA is slot 5 (always NaN); ZERO slot 6;
 * Node.Child slot 7; anything else is unknown; "this" gets a custom reason. */
static double slots[8] = { 1, 2, 3, 4, 5, NAN, 0, 0.25 };

static int resolve(void *ctx, const char *name, td_err *why)
{
	static const char *const names[] = { "a", "b", "c", "d", "e", "NA", "ZERO", "Node.Child" };

	(void)ctx;
	for (int i = 0; i < 8; i++)
		if (!strcmp(name, names[i]))
			return i;
	if (!strcmp(name, "this"))
		td_err_set(why, "'this' is only allowed in thresholds");
	return -1;
}

static double eval(const char *src)
{
	struct td_expr *e = NULL;
	td_err err;

	if (td_expr_compile(src, resolve, NULL, &e, &err))
		fail_msg("'%s' failed to compile: %s", src, err.msg);
	double v = td_expr_eval(e, slots);
	td_expr_free(e);
	return v;
}

#define EQ(src, want) assert_float_equal(eval(src), (want), 1e-12)
#define NA(src)                                                         \
	do {                                                            \
		double v_ = eval(src);                                  \
		if (!td_is_na(v_))                                      \
			fail_msg("'%s' gave %g, expected NA", src, v_); \
	} while (0)

static void expect_error(const char *src, const char *msg)
{
	struct td_expr *e = NULL;
	td_err err = { "" };

	assert_int_equal(td_expr_compile(src, resolve, NULL, &e, &err), -1);
	assert_null(e);
	if (!strstr(err.msg, msg))
		fail_msg("'%s': error '%s' does not contain '%s'", src, err.msg, msg);
}

static void test_numbers_and_names(void **state)
{
	(void)state;
	EQ("4", 4);
	EQ("0.15", 0.15);
	EQ("1e9", 1e9);
	EQ("2.5E-1", 0.25);
	EQ(".5", 0.5);
	EQ("c", 3);
	EQ("Node.Child", 0.25);
	EQ("  e  ", 5);
}

static void test_precedence(void **state)
{
	(void)state;
	EQ("a + b * c", 7);
	EQ("(a + b) * c", 9);
	EQ("d - b - a", 1); /* left-assoc: (4-2)-1 */
	EQ("d / b / b", 1); /* (4/2)/2 */
	EQ("e - d + c", 4); /* (5-4)+3 */
	EQ("-b * c", -6);
	EQ("- -b", 2);
	EQ("a - -b", 3);
	EQ("-(a + b) * 2", -6);
	EQ("+c", 3);
	EQ("a + b > c", 0); /* (1+2) > 3 */
	EQ("a + b >= c", 1);
	EQ("not a + b > d", 1);		  /* not ((1+2) > 4) */
	EQ("a > b or c > b and ZERO", 0); /* and binds tighter: 0 or (1 and 0) */
	EQ("c > b or ZERO and a", 1);	  /* 1 or (0 and 1) */
	EQ("not ZERO and a", 1);	  /* (not 0) and 1 */
}

static void test_comparisons_and_logic(void **state)
{
	(void)state;
	EQ("a < b", 1);
	EQ("b < a", 0);
	EQ("b <= b", 1);
	EQ("b >= c", 0);
	EQ("c == 3", 1);
	EQ("c != 3", 0);
	EQ("a and b", 1);
	EQ("a and ZERO", 0);
	EQ("ZERO or ZERO", 0);
	EQ("ZERO or e", 1);
	EQ("not ZERO", 1);
	EQ("not not e", 1);
}

static void test_conditional(void **state)
{
	(void)state;
	EQ("a if b > a else c", 1);
	EQ("a if b < a else c", 3);
	/* lowest precedence: the whole sums are the branches */
	EQ("a + b if ZERO else c + d", 7);
	EQ("a + b if e else c + d", 3);
	/* right-assoc: a if X else (b if Y else c) */
	EQ("a if ZERO else b if ZERO else c", 3);
	EQ("a if ZERO else b if e else c", 2);
	/* nested in the true branch via parentheses and in the condition */
	EQ("(d if a else e) if (b if ZERO else a) else c", 4);
	/* only the branch taken is evaluated: the NA branch is not needed */
	EQ("a if e else NA", 1);
	EQ("NA if ZERO else b", 2);
	EQ("c / ZERO if ZERO else d", 4);
	/* NA condition gives NA */
	NA("a if NA else b");
	NA("a if NA > 1 else b");
	/* a conditional as an operand */
	EQ("2 * (a if e else b) + 1", 3);
	EQ("min(a if ZERO else d, c)", 3);
}

static void test_min_max(void **state)
{
	(void)state;
	EQ("min(c, b)", 2);
	EQ("max(c, b)", 3);
	EQ("min(e, d, a, c)", 1);
	EQ("max(a, e, d, c, b)", 5);
	EQ("max(a)", 1);
	EQ("max(-a, ZERO)", 0);
	EQ("min(a + b, c * d) * 2", 6);
	NA("min(a, NA)");
	NA("max(NA, e, d)");
}

/* available(X): 1 for a number, 0 for NA, never NA; the way a formula picks
 * a fallback when an event is not counted (intel-spr.td's GP TOPDOWN path). */
static void test_available(void **state)
{
	(void)state;
	EQ("available(a)", 1);
	EQ("available(ZERO)", 1); /* a counted zero is a value */
	EQ("available(NA)", 0);
	EQ("available(a / ZERO)", 0); /* division by zero is NA too */
	EQ("available(a + NA * b)", 0);
	EQ("available(NA if ZERO else b)", 1); /* only the branch taken counts */
	EQ("not available(NA)", 1);
	EQ("available(a) + available(NA) * 2", 1);
	EQ("b / NA if available(NA) else c", 3);
	EQ("b / a if available(a) else NA", 2);
	EQ("available(available(NA))", 1);
	expect_error("available a", "column 11: expected '(' after available, got name 'a'");
	expect_error("available(a, b)", "column 12: expected ')' closing available(...), got ','");
	expect_error("available()", "column 11: expected a number, a name, '(' or '-', got ')'");
	expect_error("a + available", "column 14: expected '(' after available, got end of expression");
}

static void test_na_propagation(void **state)
{
	(void)state;
	NA("a / ZERO");
	NA("ZERO / ZERO");
	NA("ZERO * NA"); /* 0 * NA is still NA */
	NA("NA - NA");
	NA("-NA");
	NA("1 + a / (b - b)");
	NA("NA > 1");
	NA("NA == NA");
	NA("not NA");
	NA("ZERO and NA"); /* both sides are evaluated */
	NA("e or NA");
	NA("(a / ZERO) if e else b");
	EQ("ZERO / a", 0); /* a zero numerator is a real zero */
}

static void test_errors_with_columns(void **state)
{
	(void)state;
	expect_error("", "column 1: expected an expression, got end of expression");
	expect_error("a +", "column 4: expected a number, a name, '(' or '-', got end of expression");
	expect_error("a + * b", "column 5: expected a number, a name, '(' or '-', got '*'");
	expect_error("(a + b", "column 7: expected ')', got end of expression");
	expect_error("a + b)", "column 6: expected an operator or end of expression, got ')'");
	expect_error("a b", "column 3: expected an operator or end of expression, got name 'b'");
	expect_error("4W", "column 2: expected an operator or end of expression, got name 'W'");
	expect_error("a + FOO", "column 5: unknown name 'FOO'");
	expect_error("  this > 1", "column 3: 'this' is only allowed in thresholds");
	expect_error("a if b", "column 7: expected 'else' of 'A if C else B', got end of expression");
	expect_error("min a", "column 5: expected '(' after min/max, got name 'a'");
	expect_error("max(a b)", "column 7: expected ',' or ')' in min/max arguments, got name 'b'");
	expect_error("min()", "column 5: expected a number, a name, '(' or '-', got ')'");
	expect_error("a < b < c", "column 7: chained comparison");
	expect_error("a = b", "column 3: expected an operator or end of expression, got '='");
	expect_error("a $ b", "column 3: expected an operator or end of expression, got '$'");
	expect_error("a + if", "column 5: expected a number, a name, '(' or '-', got 'if'");
	expect_error("else", "column 1: expected a number, a name, '(' or '-', got 'else'");
}

static void test_nesting_limits(void **state)
{
	char buf[512];
	size_t n = 0;

	(void)state;
	/* TD_EXPR_MAX_DEPTH - 1 parentheses (the top level counts as one) are fine */
	for (int i = 0; i < TD_EXPR_MAX_DEPTH - 1; i++)
		buf[n++] = '(';
	buf[n++] = 'a';
	for (int i = 0; i < TD_EXPR_MAX_DEPTH - 1; i++)
		buf[n++] = ')';
	buf[n] = '\0';
	EQ(buf, 1);
	/* one more is refused, at the innermost operand */
	n = 0;
	for (int i = 0; i < TD_EXPR_MAX_DEPTH; i++)
		buf[n++] = '(';
	buf[n++] = 'a';
	for (int i = 0; i < TD_EXPR_MAX_DEPTH; i++)
		buf[n++] = ')';
	buf[n] = '\0';
	char want[64];
	snprintf(want, sizeof(want), "column %d: expression nested too deeply", TD_EXPR_MAX_DEPTH + 1);
	expect_error(buf, want);
	/* deep right-nested sums stay within the stack limit up to the depth limit */
	n = 0;
	for (int i = 0; i < TD_EXPR_MAX_DEPTH - 1; i++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "a+(");
	buf[n++] = 'a';
	for (int i = 0; i < TD_EXPR_MAX_DEPTH - 1; i++)
		buf[n++] = ')';
	buf[n] = '\0';
	EQ(buf, TD_EXPR_MAX_DEPTH);
	/* a long chain of unary minus also nests */
	memset(buf, '-', 200);
	strcpy(buf + 200, "a");
	expect_error(buf, "nested too deeply");
	/* long flat expressions are not nested: 150 terms are fine */
	n = 0;
	for (int i = 0; i < 150; i++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%sa", i ? "+" : "");
	EQ(buf, 150);
}

static void collect(void *ctx, int slot)
{
	int *seen = ctx;
	seen[slot]++;
}

static void test_foreach_slot(void **state)
{
	struct td_expr *e = NULL;
	td_err err;
	int seen[8] = { 0 };

	(void)state;
	assert_int_equal(td_expr_compile("a + b * a if c else min(d, Node.Child)", resolve, NULL, &e, &err), 0);
	td_expr_foreach_slot(e, collect, seen);
	assert_int_equal(seen[0], 2);
	assert_int_equal(seen[1], 1);
	assert_int_equal(seen[2], 1);
	assert_int_equal(seen[3], 1);
	assert_int_equal(seen[4], 0);
	assert_int_equal(seen[7], 1);
	assert_true(td_expr_size(e) >= 9);
	td_expr_free(e);
}

/* The planner's walk: an unknown condition visits both branches, a known
 * one the branch taken, and available(X) counts as 1 (X's slots visited).
 * The value returned is the planning value: known slots (here only ZERO)
 * and available() give one, anything reading an unknown slot gives NaN. */
static void test_foreach_live_slot(void **state)
{
	static const struct {
		const char *src, *visits; /* visits: slots a b c d e NA ZERO Child */
		double value;
	} cases[] = {
		{ "a if NA > 1 else b", "11000100", NAN },
		{ "a if ZERO else b", "01000010", NAN },
		{ "a + b if available(c / d) else e", "11110000", NAN },
		{ "a if not available(NA) else b", "01000100", NAN },
		{ "available(a) + (c if available(NA) else d)", "10100100", NAN },
		{ "available(a / b)", "11000000", 1 },
		{ "ZERO + 2 if available(NA) else a", "00000110", 2 },
		{ "a if ZERO else ZERO + 1", "00000010", 1 },
		{ "ZERO if b else ZERO", "01000010", NAN }, /* both ways: unknown */
		{ "available(a) * 3 + ZERO", "10000010", 3 },
	};
	double known[8] = { NAN, NAN, NAN, NAN, NAN, NAN, 0, NAN };

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct td_expr *e = NULL;
		td_err err;
		int seen[8] = { 0 };
		char got[9];

		if (td_expr_compile(cases[i].src, resolve, NULL, &e, &err))
			fail_msg("'%s' failed to compile: %s", cases[i].src, err.msg);
		double v = td_expr_foreach_live_slot(e, known, collect, seen);
		for (int s = 0; s < 8; s++)
			got[s] = seen[s] ? '1' : '0';
		got[8] = '\0';
		if (strcmp(got, cases[i].visits))
			fail_msg("'%s': visited %s, expected %s", cases[i].src, got, cases[i].visits);
		if (isnan(cases[i].value) ? !isnan(v) : v != cases[i].value)
			fail_msg("'%s': planning value %g, expected %g", cases[i].src, v, cases[i].value);
		td_expr_free(e);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_numbers_and_names),
		cmocka_unit_test(test_precedence),
		cmocka_unit_test(test_comparisons_and_logic),
		cmocka_unit_test(test_conditional),
		cmocka_unit_test(test_min_max),
		cmocka_unit_test(test_available),
		cmocka_unit_test(test_na_propagation),
		cmocka_unit_test(test_errors_with_columns),
		cmocka_unit_test(test_nesting_limits),
		cmocka_unit_test(test_foreach_slot),
		cmocka_unit_test(test_foreach_live_slot),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
