/* interval: deltas between two cumulative group readings and the scaling of
 * a count by its enabled/running times (perf's rule: enabled but never
 * running means "not counted", never a number scaled from zero). */
#ifndef TD_INTERVAL_H
#define TD_INTERVAL_H

#include <stdint.h>

#include "evgroup.h"

/* Raw delta of one event in one interval, as stored. */
struct td_count {
	uint64_t value, enabled, running;
};

/* d[i] = cur - prev for each of n members (prev may be NULL: all zero). */
void td_reading_delta(const struct td_reading *prev, const struct td_reading *cur, int n, struct td_count *d);

/* value * enabled / running; NaN when running == 0 while enabled > 0 (the
 * event was enabled but never counted: multiplexed out). Both 0: the event
 * was never enabled in the interval — a per-thread counter of a thread that
 * did not run — and its value (0) is the count. */
double td_scale(uint64_t value, uint64_t enabled, uint64_t running);
/* Fraction of the enabled time the event was counted: running / enabled (NaN if enabled == 0). */
double td_coverage(uint64_t enabled, uint64_t running);

#endif
