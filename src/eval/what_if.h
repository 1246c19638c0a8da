/* what_if: projections from the interval CPI stack. The stack makes each
 * miss event a cost in cycles per instruction; "what if this component
 * were FACTOR times what it is" gives CPI' = CPI - sum(c_i * (1 - f_i)),
 * the cycles for the same instructions CPI'/CPI as many, and a speed-up of
 * CPI/CPI'. The model's assumptions, stated wherever a projection is
 * printed: components are independent (shrinking one does not grow
 * another) and their overlap is already resolved by the stack (each cycle
 * is charged once), so the projection is first order. */
#ifndef TD_WHAT_IF_H
#define TD_WHAT_IF_H

#include <stdbool.h>

#include "evaluator.h"
#include "model/model.h"
#include "base/util.h"

/* One change: component comp (an index of m->cpis, or TD_WHAT_IF_OTHER)
 * multiplied by factor (0: removed, 0.5: halved, 2: doubled). */
#define TD_WHAT_IF_OTHER (-1)
struct td_what_if {
	int comp;
	double factor;
};

/* "NAME=FACTOR[,NAME=FACTOR...]" against m's components (and Other) into a
 * malloc'd array *out of *n changes. 0, or -1 with a one-line err naming
 * what is wrong and what the components are. */
int td_what_if_parse(const struct td_model *m, const char *spec, struct td_what_if **out, int *n, td_err *err);

struct td_what_if_result {
	double cpi, projected; /* measured CPI and CPI' */
	double cycles_ratio;   /* CPI'/CPI: cycles for the same instructions */
	double speedup;	       /* CPI/CPI' */
};

/* Project e (an evaluation of m with a valid CPI stack). 0, or -1 with err
 * when a changed component was not available or the stack is not valid. */
int td_what_if_project(const struct td_model *m, const struct td_evaluation *e, const struct td_what_if *w, int n,
		       struct td_what_if_result *r, td_err *err);

/* The component's name (Other for TD_WHAT_IF_OTHER). */
const char *td_what_if_name(const struct td_model *m, int comp);

#endif
