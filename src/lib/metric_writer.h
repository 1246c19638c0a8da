/* metric_writer: writes one evaluation of a model (td_metrics) to the store
 * as metric values of an interval and a target — every tree node (value,
 * confidence, flagged, bottleneck), every info metric, and the CPI stack
 * (each component's CPI, Other and CPI itself). Resolves the metric ids once,
 * so the collector can call it every interval. */
#ifndef TD_METRIC_WRITER_H
#define TD_METRIC_WRITER_H

#include <stdbool.h>
#include <stdint.h>

#include "metrics.h"
#include "store.h"

struct td_metric_writer;

int td_metric_writer_new(struct td_store *s, const struct td_model *m, struct td_metric_writer **out, td_err *err);
void td_metric_writer_free(struct td_metric_writer *w);

/* Write mx's results for (interval, target); call inside the interval's
 * transaction. coverage: per event alias (model->cat->nevents), the fraction
 * of the interval the event was counted (running / enabled, NaN unknown), or
 * NULL. A node's confidence is the least coverage of the counted events its
 * formula reads (NULL when unknown or when the node is not available). */
int td_metric_writer_write(struct td_metric_writer *w, int64_t interval, int64_t target, const struct td_metrics *mx,
			   const double *coverage);

/* As td_metric_writer_write, for live collection where each event's count
 * comes from one perf group: group[alias] is that group's index (-1: not
 * opened). Confidence rule: the events a formula reads that lie in one
 * group share one time window, so that group's coverage is its running /
 * enabled; a formula whose events come from several groups (it "spans")
 * has confidence = the PRODUCT of its groups' coverages — the fraction of
 * time all its groups would have counted together if the kernel (or our
 * rotation) scheduled them independently; under strict round-robin they
 * never count together, so the product is an upper bound, never an
 * overstatement of the min rule. *spans (may be NULL) gets how many
 * written formulas span groups this call. */
int td_metric_writer_write_grouped(struct td_metric_writer *w, int64_t interval, int64_t target,
				   const struct td_metrics *mx, const double *coverage, const int *group, int *spans);
/* Does formula f read events of more than one opened group (group >= 0)? */
bool td_formula_spans(const struct td_formula *f, const int *group);

#endif
