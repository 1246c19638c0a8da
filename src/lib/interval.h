/* interval: deltas between two cumulative group readings and the scaling of
 * a count by its enabled/running times (perf's rule: running == 0 means
 * "not counted", never a number scaled from zero). */
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

/* value * enabled / running; NaN when running == 0 (not counted). */
double td_scale(uint64_t value, uint64_t enabled, uint64_t running);
/* Fraction of the enabled time the event was counted: running / enabled (NaN if enabled == 0). */
double td_coverage(uint64_t enabled, uint64_t running);

#endif
