/* evaluator: the one place scaled counts become metric values. It holds a
 * compiled model and the facts of the session it measures (SMT on or off,
 * online CPUs); td_evaluate turns the counts of one evaluation — one
 * interval and target, or a sum over intervals or targets (group_counts.h:
 * sum first, then evaluate once; never average ratios) — over a wall time
 * into a td_evaluation: every node's value, confidence, spans and flagged
 * state, the bottleneck, every info metric and the CPI stack.
 *
 * Live collection (session/live_metrics), recompute and report data
 * (analysis/) all evaluate through here, with the same rules:
 *   SMT_on   = the session's SMT state when known (-1: the file's default),
 *   NUM_CPUS = its online CPUs (0: NA),
 *   DURATION = the wall time the counts cover (<= 0: NA),
 * and every formula read from one perf group's window (td_metrics_eval_groups).
 * So a stored session shows the same numbers live, after recompute and in a
 * report (tests/integration/eval_same.sh checks it bit for bit). */
#ifndef TD_EVALUATOR_H
#define TD_EVALUATOR_H

#include <stdbool.h>

#include "group_counts.h"
#include "metrics.h"
#include "model/model.h"

/* One evaluation's results. Arrays sized by the model; NaN = not available
 * (or, for confidence, unknown). */
struct td_evaluation {
	double seconds;	     /* wall time the counts cover (DURATION) */
	double *node, *conf; /* per node: value (fraction) and confidence 0..1 */
	bool *spans;	     /* per node: the value read events of several perf groups */
	bool *flagged;	     /* per node: own threshold holds and every ancestor is flagged */
	int bottleneck;	     /* node index or -1 */
	int nvalid;	     /* nodes with a value */
	double *info, *info_conf;
	bool *info_spans;
	bool cpi_valid;		     /* false: no CPI lines, or CPI itself not available */
	double cpi, other;	     /* cycles per instruction; CPI minus the available components */
	double *cpi_comp, *cpi_conf; /* per CPI component: its CPI (NaN: not available) and confidence */
	bool *cpi_spans;
};

/* Arrays for model m, values not available. -1 when out of memory (then
 * td_evaluation_free is still safe). */
int td_evaluation_init(struct td_evaluation *e, const struct td_model *m);
void td_evaluation_free(struct td_evaluation *e);

struct td_evaluator;

/* An evaluator of m for a session whose SMT state is smt (1 on, 0 off, -1
 * unknown: the file's default) with num_cpus online CPUs (<= 0: unknown).
 * m must outlive it. NULL when out of memory. */
struct td_evaluator *td_evaluator_new(const struct td_model *m, int smt, int num_cpus);
void td_evaluator_free(struct td_evaluator *ev);
const struct td_model *td_evaluator_model(const struct td_evaluator *ev);

/* Evaluate c, counted over `seconds` of wall time, into out (initialised
 * for the same model). 0, or -1 when out of memory (out unchanged). */
int td_evaluate(struct td_evaluator *ev, const struct td_group_counts *c, double seconds, struct td_evaluation *out);

#endif
