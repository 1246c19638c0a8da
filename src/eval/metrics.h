/* metrics: evaluating a compiled model on one interval (or one aggregate) —
 * every node's value and flagged state, the bottleneck, every info metric,
 * and the CPI stack. Pure arithmetic over doubles: no I/O, no perf_event.
 * NA ("not available") is NaN throughout (td_is_na()). */
#ifndef TD_METRICS_H
#define TD_METRICS_H

#include <stdbool.h>

#include "model/model.h"

struct td_cpi_stack {
	bool valid; /* false: no cpi lines, or CPI itself is NA */
	double cycles, instructions;
	double cpi;   /* cycles / instructions */
	double *comp; /* per model cpi component: fraction * CPI (after scaling); NA if its fraction is NA */
	double other; /* cpi - sum(non-NA comp): components + other == cpi */
	bool scaled;  /* the fractions summed to more than 1 and were scaled down to sum to 1 */
	double scale; /* factor applied to every fraction (1 when not scaled) */
};

/* An evaluator for one model: holds the slot array and the results, so the
 * per-interval call allocates nothing. */
struct td_metrics {
	const struct td_model *model;
	double *slots;	/* model->nslots */
	double *conf;	/* per slot: confidence of a formula's value (0..1): the least running/enabled
	                        * of the counted events it read; NaN when unknown or the value is NA */
	bool *spans;	/* per slot: the value mixes events counted in different perf groups */
	double *node;	/* per node: value (fraction) or NA */
	bool *flagged;	/* per node: own threshold holds and every ancestor is flagged */
	double *info;	/* per info metric */
	int bottleneck; /* node index or -1 */
	struct td_cpi_stack cpi;
	double *gslots; /* scratch for td_metrics_eval_groups: one slot array per group */
	int gcap;	/* groups gslots has room for */
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
 * repeat among its children; stop when no child is flagged, or when one
 * of the siblings is NA (a value not measured might be the largest: no
 * child can be named). The node reached is the bottleneck; -1 when no
 * level-1 node is flagged or one is NA. Values of siblings are compared as
 * they are, whatever their domain.
 *
 * CPI stack: CPI = cycles / instructions. Each component's CPI is its
 * fraction times CPI. If the non-NA fractions sum to more than 1 they are
 * all scaled by 1/sum and `scaled` is set. Other = CPI - sum of non-NA
 * components, so the non-NA components plus Other equal CPI (to rounding). */
void td_metrics_eval(struct td_metrics *mx, const double *counts);

/* Evaluate counts that come from several perf groups, each group counting
 * in its own time window (live collection: one event may be counted in
 * several groups, as the planner carries fixed counters into every group).
 * counts and coverage hold ngroups vectors of model->cat->nevents values:
 * group g's scaled count of each alias (NaN: not counted in g) and its
 * running / enabled (coverage may be NULL: confidence unknown).
 *
 * Every formula reads ONE group where it can, so a ratio never mixes time
 * windows: its value is its value evaluated on that group's counts alone,
 * taking, of the groups where that value is available, the one whose
 * events the formula reads were counted longest (highest least coverage;
 * the first on a tie). conf[slot] is that least coverage. A formula that is
 * not available in a group holding every event of it that was counted
 * anywhere stays not available (its own window says so: a zero
 * denominator is not made up from other windows). A formula whose events
 * only several groups hold between them is evaluated on each event's mean
 * over the groups that counted it, with the other formulas' chosen values;
 * it is flagged spans[slot] when available, and its confidence is the product,
 * over the groups its events were taken from (each event from the group
 * that counted it longest), of the least coverage there — what the groups
 * would share if scheduled independently. Thresholds, the bottleneck, info
 * metrics and the CPI stack then follow from the chosen values as in
 * td_metrics_eval. With one group this is td_metrics_eval plus confidence.
 * Returns 0, or -1 when scratch memory cannot be had (mx unchanged). */
int td_metrics_eval_groups(struct td_metrics *mx, const double *counts, const double *coverage, int ngroups);

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
