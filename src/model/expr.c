/* expr: tokenizer, recursive-descent compiler to position-independent
 * bytecode (jumps are relative, so a compiled operand can be moved — needed
 * because `A if C else B` must run C before A), and the evaluator. */
#include "expr.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum op {
	OP_CONST,
	OP_LOAD,
	OP_NEG,
	OP_NOT,
	OP_ADD,
	OP_SUB,
	OP_MUL,
	OP_DIV,
	OP_LT,
	OP_LE,
	OP_GT,
	OP_GE,
	OP_EQ,
	OP_NE,
	OP_AND,
	OP_OR,
	OP_MIN,
	OP_MAX,
	OP_AVAIL,  /* 1 if the value is a number, 0 if NA (never NA) */
	OP_JFALSE, /* pop cond; false: pc += arg; NA: push NA, go where the JMP before pc+arg goes */
	OP_JMP,	   /* pc += arg */
};

struct insn {
	int op;
	int arg;  /* slot for LOAD, relative target for jumps */
	double k; /* value for CONST */
};

struct td_expr {
	struct insn *code;
	int n;
};

enum tok {
	T_END,
	T_NUM,
	T_NAME,
	T_OP,
	T_LP,
	T_RP,
	T_COMMA,
	T_BAD
};

struct parser {
	const char *src, *p;
	enum tok tok;
	const char *tstart;
	size_t tlen;
	double num;
	struct insn *code;
	int n, cap;
	int depth, sp, maxsp;
	td_expr_resolver resolve;
	void *ctx;
	td_err *err; /* the message, without its column... */
	int err_col; /* ...which is here */
	bool failed;
};

/* ---- tokens ------------------------------------------------------------ */

static bool name_start(int c)
{
	return isalpha(c) || c == '_';
}
static bool name_char(int c)
{
	return isalnum(c) || c == '_';
}

static void scan_number(struct parser *ps)
{
	const char *q = ps->p;

	while (isdigit((unsigned char)*q))
		q++;
	if (*q == '.')
		for (q++; isdigit((unsigned char)*q); q++)
			;
	if ((*q == 'e' || *q == 'E') &&
	    (isdigit((unsigned char)q[1]) || ((q[1] == '+' || q[1] == '-') && isdigit((unsigned char)q[2])))) {
		for (q += 2; isdigit((unsigned char)*q); q++)
			;
	}
	char buf[64];
	size_t len = (size_t)(q - ps->p);
	snprintf(buf, sizeof(buf), "%.*s", (int)(len < 63 ? len : 63), ps->p);
	ps->num = strtod(buf, NULL);
	ps->tok = T_NUM;
	ps->p = q;
}

static void scan_name(struct parser *ps)
{
	const char *q = ps->p;

	for (;;) {
		while (name_char((unsigned char)*q))
			q++;
		/* a path component after a dot may start with a digit (TMA's 4K_Aliasing) */
		if (*q == '.' && name_char((unsigned char)q[1]))
			q++;
		else
			break;
	}
	ps->tok = T_NAME;
	ps->p = q;
}

static void next(struct parser *ps)
{
	while (isspace((unsigned char)*ps->p))
		ps->p++;
	ps->tstart = ps->p;
	int c = (unsigned char)*ps->p;
	if (!c)
		ps->tok = T_END;
	else if (isdigit(c) || (c == '.' && isdigit((unsigned char)ps->p[1])))
		scan_number(ps);
	else if (name_start(c))
		scan_name(ps);
	else if (c == '(' || c == ')' || c == ',') {
		ps->tok = c == '(' ? T_LP : c == ')' ? T_RP : T_COMMA;
		ps->p++;
	} else if (strchr("+-*/", c)) {
		ps->tok = T_OP;
		ps->p++;
	} else if (strchr("<>=!", c)) {
		ps->tok = ps->p[1] == '=' ? T_OP : (c == '<' || c == '>') ? T_OP : T_BAD;
		ps->p += ps->p[1] == '=' ? 2 : 1;
	} else {
		ps->tok = T_BAD;
		ps->p++;
	}
	ps->tlen = (size_t)(ps->p - ps->tstart);
}

static bool is_word(const struct parser *ps, const char *w)
{
	return ps->tok == T_NAME && ps->tlen == strlen(w) && !strncmp(ps->tstart, w, ps->tlen);
}

static bool is_op(const struct parser *ps, const char *o)
{
	return ps->tok == T_OP && ps->tlen == strlen(o) && !strncmp(ps->tstart, o, ps->tlen);
}

static bool is_keyword(const struct parser *ps)
{
	static const char *const kw[] = { "if", "else", "and", "or", "not", "min", "max", "available" };

	for (size_t i = 0; i < sizeof(kw) / sizeof(kw[0]); i++)
		if (is_word(ps, kw[i]))
			return true;
	return false;
}

static void describe(const struct parser *ps, char *buf, size_t len)
{
	if (ps->tok == T_END)
		snprintf(buf, len, "end of expression");
	else if (ps->tok == T_NAME && !is_keyword(ps))
		snprintf(buf, len, "name '%.*s'", (int)ps->tlen, ps->tstart);
	else if (ps->tok == T_NUM)
		snprintf(buf, len, "number %.*s", (int)ps->tlen, ps->tstart);
	else
		snprintf(buf, len, "'%.*s'", (int)ps->tlen, ps->tstart);
}

static int column(const struct parser *ps)
{
	return (int)(ps->tstart - ps->src) + 1;
}

/* Report "expected WHAT" at the current token; returns -1 for chaining. */
static int expected(struct parser *ps, const char *what)
{
	char got[96];

	if (ps->failed)
		return -1;
	describe(ps, got, sizeof(got));
	td_err_set(ps->err, "expected %s, got %s", what, got);
	ps->err_col = column(ps);
	ps->failed = true;
	return -1;
}

static int fail_at(struct parser *ps, int col, const char *msg)
{
	if (!ps->failed) {
		td_err_set(ps->err, "%s", msg);
		ps->err_col = col;
	}
	ps->failed = true;
	return -1;
}

/* ---- code emission ----------------------------------------------------- */

static int emit(struct parser *ps, int op, int arg, double k)
{
	static const signed char effect[] = {
		[OP_CONST] = 1, [OP_LOAD] = 1,	  [OP_NEG] = 0,	 [OP_NOT] = 0, [OP_ADD] = -1, [OP_SUB] = -1,
		[OP_MUL] = -1,	[OP_DIV] = -1,	  [OP_LT] = -1,	 [OP_LE] = -1, [OP_GT] = -1,  [OP_GE] = -1,
		[OP_EQ] = -1,	[OP_NE] = -1,	  [OP_AND] = -1, [OP_OR] = -1, [OP_MIN] = -1, [OP_MAX] = -1,
		[OP_AVAIL] = 0, [OP_JFALSE] = -1, [OP_JMP] = -1, /* JMP: the else branch pushes its own value */
	};

	if (ps->n == ps->cap) {
		int cap = ps->cap ? ps->cap * 2 : 16;
		struct insn *c = realloc(ps->code, (size_t)cap * sizeof(*c));
		if (!c)
			return fail_at(ps, column(ps), "out of memory");
		ps->code = c;
		ps->cap = cap;
	}
	ps->code[ps->n++] = (struct insn){ op, arg, k };
	ps->sp += effect[op];
	if (ps->sp > ps->maxsp)
		ps->maxsp = ps->sp;
	if (ps->sp > TD_EXPR_MAX_STACK)
		return fail_at(ps, column(ps), "expression too large to evaluate (operand stack limit)");
	return 0;
}

/* ---- grammar (lowest precedence first) --------------------------------- */

static int parse_expr(struct parser *ps);

static int enter(struct parser *ps)
{
	if (++ps->depth > TD_EXPR_MAX_DEPTH) {
		char msg[96];
		snprintf(msg, sizeof(msg), "expression nested too deeply (more than %d levels)", TD_EXPR_MAX_DEPTH);
		return fail_at(ps, column(ps), msg);
	}
	return 0;
}

static int parse_name(struct parser *ps)
{
	char name[160];
	td_err why = { "" };
	int col = column(ps);

	if (ps->tlen >= sizeof(name))
		return fail_at(ps, col, "name too long");
	memcpy(name, ps->tstart, ps->tlen);
	name[ps->tlen] = '\0';
	int slot = ps->resolve(ps->ctx, name, &why);
	if (slot < 0) {
		char msg[sizeof(why.msg)];
		if (why.msg[0])
			snprintf(msg, sizeof(msg), "%s", why.msg);
		else
			snprintf(msg, sizeof(msg), "unknown name '%s'", name);
		return fail_at(ps, col, msg);
	}
	next(ps);
	return emit(ps, OP_LOAD, slot, 0);
}

/* min(a, b, ...) / max(...): folded pairwise so the stack stays shallow. */
static int parse_minmax(struct parser *ps, int op)
{
	int nargs = 0;

	next(ps);
	if (ps->tok != T_LP)
		return expected(ps, "'(' after min/max");
	do {
		next(ps);
		if (parse_expr(ps))
			return -1;
		if (++nargs > 1 && emit(ps, op, 0, 0))
			return -1;
	} while (ps->tok == T_COMMA);
	if (ps->tok != T_RP)
		return expected(ps, "',' or ')' in min/max arguments");
	next(ps);
	return 0;
}

/* available(X): whether X has a value (events counted, no division by zero). */
static int parse_available(struct parser *ps)
{
	next(ps);
	if (ps->tok != T_LP)
		return expected(ps, "'(' after available");
	next(ps);
	if (parse_expr(ps))
		return -1;
	if (ps->tok != T_RP)
		return expected(ps, "')' closing available(...)");
	next(ps);
	return emit(ps, OP_AVAIL, 0, 0);
}

static int parse_primary(struct parser *ps)
{
	if (ps->tok == T_NUM) {
		double v = ps->num;
		next(ps);
		return emit(ps, OP_CONST, 0, v);
	}
	if (is_word(ps, "min"))
		return parse_minmax(ps, OP_MIN);
	if (is_word(ps, "max"))
		return parse_minmax(ps, OP_MAX);
	if (is_word(ps, "available"))
		return parse_available(ps);
	if (ps->tok == T_NAME && !is_keyword(ps))
		return parse_name(ps);
	if (ps->tok == T_LP) {
		next(ps);
		if (parse_expr(ps))
			return -1;
		if (ps->tok != T_RP)
			return expected(ps, "')'");
		next(ps);
		return 0;
	}
	return expected(ps, "a number, a name, '(' or '-'");
}

static int parse_unary(struct parser *ps)
{
	if (is_op(ps, "-") || is_op(ps, "+")) {
		bool neg = is_op(ps, "-");
		next(ps);
		if (enter(ps) || parse_unary(ps))
			return -1;
		ps->depth--;
		return neg ? emit(ps, OP_NEG, 0, 0) : 0;
	}
	return parse_primary(ps);
}

static int parse_binary_level(struct parser *ps, int (*operand)(struct parser *), const char *const *ops,
			      const int *codes)
{
	if (operand(ps))
		return -1;
	for (;;) {
		int i = 0;
		while (ops[i] && !(ops[i][0] >= 'a' ? is_word(ps, ops[i]) : is_op(ps, ops[i])))
			i++;
		if (!ops[i])
			return 0;
		next(ps);
		if (operand(ps) || emit(ps, codes[i], 0, 0))
			return -1;
	}
}

static int parse_term(struct parser *ps)
{
	static const char *const ops[] = { "*", "/", NULL };
	static const int codes[] = { OP_MUL, OP_DIV };
	return parse_binary_level(ps, parse_unary, ops, codes);
}

static int parse_sum(struct parser *ps)
{
	static const char *const ops[] = { "+", "-", NULL };
	static const int codes[] = { OP_ADD, OP_SUB };
	return parse_binary_level(ps, parse_term, ops, codes);
}

static int comparison_op(const struct parser *ps)
{
	static const char *const ops[] = { "<", "<=", ">", ">=", "==", "!=" };
	static const int codes[] = { OP_LT, OP_LE, OP_GT, OP_GE, OP_EQ, OP_NE };

	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (is_op(ps, ops[i]))
			return codes[i];
	return -1;
}

/* One comparison at most: `a < b < c` is refused rather than given a meaning
 * that differs from Python's chaining. */
static int parse_comparison(struct parser *ps)
{
	if (parse_sum(ps))
		return -1;
	int op = comparison_op(ps);
	if (op < 0)
		return 0;
	next(ps);
	if (parse_sum(ps) || emit(ps, op, 0, 0))
		return -1;
	if (comparison_op(ps) >= 0)
		return fail_at(ps, column(ps), "chained comparison: write 'a < b and b < c'");
	return 0;
}

static int parse_not(struct parser *ps)
{
	if (is_word(ps, "not")) {
		next(ps);
		if (enter(ps) || parse_not(ps))
			return -1;
		ps->depth--;
		return emit(ps, OP_NOT, 0, 0);
	}
	return parse_comparison(ps);
}

static int parse_and(struct parser *ps)
{
	static const char *const ops[] = { "and", NULL };
	static const int codes[] = { OP_AND };
	return parse_binary_level(ps, parse_not, ops, codes);
}

static int parse_or(struct parser *ps)
{
	static const char *const ops[] = { "or", NULL };
	static const int codes[] = { OP_OR };
	return parse_binary_level(ps, parse_and, ops, codes);
}

/* Move the condition's code (emitted after A) in front of A. */
static int rotate_condition(struct parser *ps, int a0, int a1)
{
	int alen = a1 - a0, clen = ps->n - a1;
	struct insn *tmp = malloc((size_t)(alen ? alen : 1) * sizeof(*tmp));

	if (!tmp)
		return fail_at(ps, column(ps), "out of memory");
	memcpy(tmp, ps->code + a0, (size_t)alen * sizeof(*tmp));
	memmove(ps->code + a0, ps->code + a1, (size_t)clen * sizeof(*tmp));
	ps->n = a0 + clen;
	int sp = ps->sp;
	int rc = emit(ps, OP_JFALSE, 0, 0);
	for (int i = 0; i < alen && !rc; i++)
		rc = emit(ps, tmp[i].op, tmp[i].arg, tmp[i].k);
	ps->sp = sp - 1; /* C popped by JFALSE, A's value pushed: net one less than "A and C" */
	free(tmp);
	return rc;
}

/* A if C else B: emitted as C JFALSE(else) A JMP(end) else: B end: */
static int parse_expr(struct parser *ps)
{
	if (enter(ps))
		return -1;
	int a0 = ps->n;
	if (parse_or(ps))
		return -1;
	if (is_word(ps, "if")) {
		int a1 = ps->n;
		next(ps);
		if (parse_or(ps))
			return -1;
		if (!is_word(ps, "else"))
			return expected(ps, "'else' of 'A if C else B'");
		next(ps);
		if (rotate_condition(ps, a0, a1))
			return -1;
		int jf = ps->n - 1 - (a1 - a0);
		if (emit(ps, OP_JMP, 0, 0))
			return -1;
		int jmp = ps->n - 1;
		ps->code[jf].arg = ps->n - jf;
		if (parse_expr(ps))
			return -1;
		ps->code[jmp].arg = ps->n - jmp;
	}
	ps->depth--;
	return 0;
}

int td_expr_compile(const char *src, td_expr_resolver resolve, void *ctx, struct td_expr **out, td_err *err)
{
	td_err e;
	int col;

	if (td_expr_compile_at(src, resolve, ctx, out, &e, &col) == 0)
		return 0;
	td_err_set(err, "column %d: %s", col, e.msg);
	return -1;
}

int td_expr_compile_at(const char *src, td_expr_resolver resolve, void *ctx, struct td_expr **out, td_err *err,
		       int *col)
{
	struct parser ps = { .src = src, .p = src, .resolve = resolve, .ctx = ctx, .err = err, .err_col = 1 };

	*out = NULL;
	next(&ps);
	if (ps.tok == T_END)
		expected(&ps, "an expression");
	else if (!parse_expr(&ps) && ps.tok != T_END)
		expected(&ps, "an operator or end of expression");
	struct td_expr *e = ps.failed ? NULL : malloc(sizeof(*e));
	if (!e) {
		if (!ps.failed)
			td_err_set(err, "out of memory");
		*col = ps.err_col;
		free(ps.code);
		return -1;
	}
	e->code = ps.code;
	e->n = ps.n;
	*out = e;
	return 0;
}

void td_expr_free(struct td_expr *e)
{
	if (!e)
		return;
	free(e->code);
	free(e);
}

/* ---- evaluation -------------------------------------------------------- */

static double cmp(int op, double a, double b)
{
	if (td_is_na(a) || td_is_na(b))
		return TD_NA;
	switch (op) {
	case OP_LT:
		return a < b;
	case OP_LE:
		return a <= b;
	case OP_GT:
		return a > b;
	case OP_GE:
		return a >= b;
	case OP_EQ:
		return a == b;
	default:
		return a != b;
	}
}

static double binary(int op, double a, double b)
{
	switch (op) {
	case OP_ADD:
		return a + b;
	case OP_SUB:
		return a - b;
	case OP_MUL:
		return a * b;
	case OP_DIV:
		return b == 0 ? TD_NA : a / b;
	case OP_AND:
		return td_is_na(a) || td_is_na(b) ? TD_NA : (a != 0 && b != 0);
	case OP_OR:
		return td_is_na(a) || td_is_na(b) ? TD_NA : (a != 0 || b != 0);
	case OP_MIN:
		return td_is_na(a) || td_is_na(b) ? TD_NA : (b < a ? b : a);
	case OP_MAX:
		return td_is_na(a) || td_is_na(b) ? TD_NA : (b > a ? b : a);
	default:
		return cmp(op, a, b);
	}
}

double td_expr_eval(const struct td_expr *e, const double *slots)
{
	double st[TD_EXPR_MAX_STACK + 1];
	int sp = 0;
	const struct insn *c = e->code;

	for (int pc = 0; pc < e->n; pc++) {
		switch (c[pc].op) {
		case OP_CONST:
			st[sp++] = c[pc].k;
			break;
		case OP_LOAD:
			st[sp++] = slots[c[pc].arg];
			break;
		case OP_NEG:
			st[sp - 1] = -st[sp - 1];
			break;
		case OP_NOT:
			st[sp - 1] = td_is_na(st[sp - 1]) ? TD_NA : (st[sp - 1] == 0);
			break;
		case OP_AVAIL:
			st[sp - 1] = !td_is_na(st[sp - 1]);
			break;
		case OP_JMP:
			pc += c[pc].arg - 1;
			break;
		case OP_JFALSE: {
			double cond = st[--sp];
			int target = pc + c[pc].arg;
			if (td_is_na(cond)) {
				st[sp++] = TD_NA;
				pc = target - 1 + c[target - 1].arg - 1;
			} else if (cond == 0) {
				pc = target - 1;
			}
			break;
		}
		default:
			sp--;
			st[sp - 1] = binary(c[pc].op, st[sp - 1], st[sp]);
		}
	}
	return st[0];
}

void td_expr_foreach_slot(const struct td_expr *e, void (*fn)(void *ctx, int slot), void *ctx)
{
	for (int i = 0; i < e->n; i++)
		if (e->code[i].op == OP_LOAD)
			fn(ctx, e->code[i].arg);
}

/* Like td_expr_eval over partly known slots, but an unknown (NA) condition
 * walks A, drops A's value at A's closing JMP, walks B, and marks the
 * result unknown at the end of B; available(X) is 1 (the events X reads are
 * visited, and will be counted if planned). `open` holds the closing JMPs of the
 * conditionals being walked both ways, `ends` where their B parts end. */
double td_expr_foreach_live_slot(const struct td_expr *e, const double *known, void (*fn)(void *ctx, int slot),
				 void *ctx)
{
	double st[TD_EXPR_MAX_STACK + 1];
	int open[TD_EXPR_MAX_DEPTH + 1], ends[TD_EXPR_MAX_DEPTH + 1];
	int sp = 0, nopen = 0, nends = 0;
	const struct insn *c = e->code;

	for (int pc = 0; pc < e->n; pc++) {
		for (; nends > 0 && ends[nends - 1] == pc; nends--)
			st[sp - 1] = TD_NA;
		switch (c[pc].op) {
		case OP_CONST:
			st[sp++] = c[pc].k;
			break;
		case OP_LOAD:
			fn(ctx, c[pc].arg);
			st[sp++] = known[c[pc].arg];
			break;
		case OP_NEG:
			st[sp - 1] = -st[sp - 1];
			break;
		case OP_NOT:
			st[sp - 1] = td_is_na(st[sp - 1]) ? TD_NA : (st[sp - 1] == 0);
			break;
		case OP_AVAIL:
			st[sp - 1] = 1;
			break; /* the planner plans what it reads as counted */
		case OP_JMP:
			if (nopen > 0 && open[nopen - 1] == pc) {
				nopen--;
				sp--; /* A's value; B pushes the result */
				ends[nends++] = pc + c[pc].arg;
			} else {
				pc += c[pc].arg - 1;
			}
			break;
		case OP_JFALSE: {
			double cond = st[--sp];
			int target = pc + c[pc].arg;
			if (td_is_na(cond))
				open[nopen++] = target - 1; /* fall into A, then on into B */
			else if (cond == 0)
				pc = target - 1;
			break;
		}
		default:
			sp--;
			st[sp - 1] = binary(c[pc].op, st[sp - 1], st[sp]);
		}
	}
	for (; nends > 0 && ends[nends - 1] == e->n; nends--)
		st[sp - 1] = TD_NA;
	return st[0];
}

int td_expr_size(const struct td_expr *e)
{
	return e->n;
}
