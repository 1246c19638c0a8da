/* expr: the expression language of events/NAME.td (docs/td-format.md,
 * "Expression language") — parsed once into a flat bytecode array whose
 * names are resolved to slot indices by the caller, then evaluated per
 * interval against an array of doubles. "Not available" (NA) is NaN: a
 * division by zero, an NA slot or an NA operand gives NA. No I/O here. */
#ifndef TD_EXPR_H
#define TD_EXPR_H

#include <math.h>
#include <stdbool.h>

#include "base/util.h"

#define TD_NA ((double)NAN)
static inline bool td_is_na(double v)
{
	return isnan(v);
}

/* Limits: parentheses/operators nested deeper than TD_EXPR_MAX_DEPTH, or an
 * expression needing more than TD_EXPR_MAX_STACK values at once, is refused
 * at compile time so evaluation never overflows its fixed stack. */
#define TD_EXPR_MAX_DEPTH 48
#define TD_EXPR_MAX_STACK 64

/* Resolve a name to a slot index (>= 0). Return -1 if the name is not
 * defined; the resolver may put the reason in why->msg (else expr says
 * "unknown name"). */
typedef int (*td_expr_resolver)(void *ctx, const char *name, td_err *why);

struct td_expr;

/* Compile src. On error returns -1 and err reads "column N: what, expected X"
 * (N counts from 1 in src); the caller prefixes FILE:LINE. */
int td_expr_compile(const char *src, td_expr_resolver resolve, void *ctx, struct td_expr **out, td_err *err);
/* The same, for callers that place the column themselves (events files map it
 * to a physical line): on error err holds the message without "column N: "
 * and *col is N. */
int td_expr_compile_at(const char *src, td_expr_resolver resolve, void *ctx, struct td_expr **out, td_err *err,
		       int *col);
void td_expr_free(struct td_expr *e);

/* Evaluate against slots (indexed by what the resolver returned). Comparisons,
 * and/or/not give 1 or 0; and/or evaluate both sides (an NA side gives NA);
 * `A if C else B` evaluates C and only the branch taken (NA C gives NA);
 * available(X) gives 1 if X is a number, 0 if X is NA (never NA itself). */
double td_expr_eval(const struct td_expr *e, const double *slots);

/* Call fn for every slot the expression reads (both branches of every
 * conditional; a slot read twice is reported twice). */
void td_expr_foreach_slot(const struct td_expr *e, void (*fn)(void *ctx, int slot), void *ctx);

/* Call fn for every slot the expression reads when the slots known in
 * `known` (not NaN: consts, params) take those values: a conditional whose
 * condition is known visits only the branch taken; one whose condition is
 * unknown (it reads an event or any NaN slot) visits both. available(X) is
 * taken as 1 whatever X reads: what the planner plans will be counted, so
 * `A if available(X) else B` plans X's and A's events, not B's. A slot read
 * twice is reported twice. For the planner: SMT_on decides which clocks are
 * needed. Returns the expression's value under the same assumptions (NaN
 * when it depends on an unknown slot): fn may store it in `known` for the
 * formula's slot before it is read, so a let such as `PM = available(X)` or
 * `W2 = W * 2` decides the conditionals that read it. */
double td_expr_foreach_live_slot(const struct td_expr *e, const double *known, void (*fn)(void *ctx, int slot),
				 void *ctx);

/* Number of instructions (for tests and the benchmark's curiosity). */
int td_expr_size(const struct td_expr *e);

#endif
