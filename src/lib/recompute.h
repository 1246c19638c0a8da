/* recompute: derives a stored session's metric values again from its raw
 * counts, with the events file serving the session's PMU model (possibly a
 * newer one from another directory). Each events row is matched to a
 * catalog alias by encoding; per interval and target the scaled counts of an
 * alias are combined (several rows of one alias — perf counting the same
 * event in several groups — are measurements of the same quantity and are
 * averaged; not-counted rows are left out; none counted = NaN), the model is
 * evaluated, and nodes, info metrics and the CPI stack are written. When an
 * interval has several targets, their alias values are also summed (NaN if
 * any is NaN) and evaluated for the session's `whole` target. */
#ifndef TD_RECOMPUTE_H
#define TD_RECOMPUTE_H

#include <stdint.h>

#include "store.h"

struct td_recompute_result {
	char events_file[64];
	int events_matched, events_unmatched;
	char unmatched[512];     /* names of unmatched events, space separated (truncated) */
	int64_t evaluations;     /* interval x target evaluations written */
};

/* s must be open for writing; runs in one transaction. */
int td_recompute(struct td_store *s, int64_t session, const char *events_dir, struct td_recompute_result *res,
		 td_err *err);

#endif
