/* interval: per-interval deltas of group readings and their scaling. */
#include "interval.h"

#include <math.h>

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

double td_scale(uint64_t value, uint64_t enabled, uint64_t running)
{
	if (running == 0)
		return enabled == 0 ? (double)value : NAN; /* never enabled: a task that did not run counted nothing */
	if (running >= enabled)
		return (double)value;
	return (double)value * ((double)enabled / (double)running);
}

double td_coverage(uint64_t enabled, uint64_t running)
{
	if (enabled == 0)
		return NAN;
	return running >= enabled ? 1.0 : (double)running / (double)enabled;
}
