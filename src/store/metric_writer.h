/* metric_writer: writes one evaluation of a model (td_metrics) to the store
 * as metric values of an interval and a target — every tree node (value,
 * confidence, flagged, bottleneck), every info metric, and the CPI stack
 * (each component's CPI, Other and CPI itself). Resolves the metric ids once,
 * so the collector can call it every interval. */
#ifndef TD_METRIC_WRITER_H
#define TD_METRIC_WRITER_H

#include <stdbool.h>
#include <stdint.h>

#include "eval/evaluator.h"
#include "store.h"

struct td_metric_writer;

int td_metric_writer_new(struct td_store *s, const struct td_model *m, struct td_metric_writer **out, td_err *err);
/* The same with every metric name prefixed (a hybrid CPU's second tree: "cpu_atom:Frontend_Bound"). */
int td_metric_writer_new_prefixed(struct td_store *s, const struct td_model *m, const char *prefix,
				  struct td_metric_writer **out, td_err *err);
void td_metric_writer_free(struct td_metric_writer *w);

/* Write one evaluation for (interval, target), each value with its
 * confidence and spans flag; call inside the interval's transaction.
 * *spans (may be NULL) gets how many written formulas read several perf
 * groups. */
int td_metric_writer_write(struct td_metric_writer *w, int64_t interval, int64_t target, const struct td_evaluation *e,
			   int *spans);

#endif
