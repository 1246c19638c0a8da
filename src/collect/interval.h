/* interval: deltas between two cumulative group readings, as stored (their
 * scaling by enabled/running is evaluation's: eval/group_counts.h). */
#ifndef TD_INTERVAL_H
#define TD_INTERVAL_H

#include <stdint.h>

#include "perf_group.h"

/* Raw delta of one event in one interval, as stored. */
struct td_count {
	uint64_t value, enabled, running;
};

/* d[i] = cur - prev for each of n members (prev may be NULL: all zero). */
void td_reading_delta(const struct td_reading *prev, const struct td_reading *cur, int n, struct td_count *d);

#endif
