/* metrics: evaluating a compiled model on one interval (or one aggregate) —
 * every node's value and flagged state, the bottleneck, every info metric,
 * and the CPI stack. Pure arithmetic over doubles: no I/O, no perf_event.
 * NA ("not available") is NaN throughout (td_is_na()). */
#ifndef TD_METRICS_H
#define TD_METRICS_H

#include <stdbool.h>

#include "model.h"

struct td_cpi_stack {
	bool valid;            /* false: no cpi lines, or CPI itself is NA */
	double cycles, instructions;
	double cpi;            /* cycles / instructions */
	double *comp;          /* per model cpi component: fraction * CPI (after scaling); NA if its fraction is NA */
	double other;          /* cpi - sum(non-NA comp): components + other == cpi */
	bool scaled;           /* the fractions summed to more than 1 and were scaled down to sum to 1 */
	double scale;          /* factor applied to every fraction (1 when not scaled) */
};

/* An evaluator for one model: holds the slot array and the results, so the
 * per-interval call allocates nothing. */
struct td_metrics {
	const struct td_model *model;
	double *slots;         /* model->nslots */
	double *node;          /* per node: value (fraction) or NA */
	bool *flagged;         /* per node: own threshold holds and every ancestor is flagged */
	double *info;          /* per info metric */
	int bottleneck;        /* node index or -1 */
	struct td_cpi_stack cpi;
};

struct td_metrics *td_metrics_new(const struct td_model *m);
void td_metrics_free(struct td_metrics *mx);

/* Override a param (SMT_on, ...) or a built-in (DURATION, NUM_CPUS) for the
 * following evaluations. -1 with err set if name is not a param/built-in
 * (consts cannot be overridden). DURATION and NUM_CPUS start as NA. */
int td_metrics_set(struct td_metrics *mx, const char *name, double value, td_err *err);

/* Evaluate one interval. counts: model->cat->nevents values in alias order;
 * NaN = not counted. Results land in mx->node/flagged/info/bottleneck/cpi.
 *
 * Thresholds: an NA node, or an NA threshold, is not flagged.
 * Bottleneck (toplev's "<=="): start among the level-1 nodes; take the
 * flagged one with the largest value (the first declared on a tie); then
 * repeat among its children; stop when no child is flagged. The node
 * reached is the bottleneck; -1 when no level-1 node is flagged. Values of
 * siblings are compared as they are, whatever their domain.
 *
 * CPI stack: CPI = cycles / instructions. Each component's CPI is its
 * fraction times CPI. If the non-NA fractions sum to more than 1 they are
 * all scaled by 1/sum and `scaled` is set. Other = CPI - sum of non-NA
 * components, so the non-NA components plus Other equal CPI (to rounding). */
void td_metrics_eval(struct td_metrics *mx, const double *counts);

/* Value of any named slot after td_metrics_eval (alias, let, info, node path, ...). */
double td_metrics_value(const struct td_metrics *mx, const char *name);

/* Aggregation: sum counts across intervals or threads first, then evaluate
 * the sum once. td_counts_add adds counts into sum (n values); a value that
 * is NA in any addend makes the sum NA (an event not counted for part of
 * the time has no honest total). Start from td_counts_zero. DURATION of an
 * aggregate is the caller's choice (wall time covered, not a sum over threads). */
void td_counts_zero(double *sum, int n);
void td_counts_add(double *sum, const double *counts, int n);

#endif
