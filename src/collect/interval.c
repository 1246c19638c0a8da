/* interval: per-interval deltas of group readings. */
#include "interval.h"

void td_reading_delta(const struct td_reading *prev, const struct td_reading *cur, int n, struct td_count *d)
{
	for (int i = 0; i < n; i++) {
		uint64_t pv = prev ? prev->value[i] : 0, pe = prev ? prev->enabled : 0, pr = prev ? prev->running : 0;
		/* counters only go up; a smaller value would be a reset: count from zero */
		d[i].value = cur->value[i] >= pv ? cur->value[i] - pv : cur->value[i];
		d[i].enabled = cur->enabled >= pe ? cur->enabled - pe : cur->enabled;
		d[i].running = cur->running >= pr ? cur->running - pr : cur->running;
	}
}
