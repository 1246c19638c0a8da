/* interval: per-interval deltas of group readings. */
#include "interval.h"

void td_reading_delta(const struct td_reading *prev, const struct td_reading *cur, int n, struct td_count *d)
{
	for (int i = 0; i < n; i++) {
		/* a split group's members run in their part's time window */
		uint64_t ce = cur->split ? cur->m_enabled[i] : cur->enabled,
			 cr = cur->split ? cur->m_running[i] : cur->running;
		uint64_t pv = prev ? prev->value[i] : 0;
		uint64_t pe = !prev ? 0 : prev->split ? prev->m_enabled[i] : prev->enabled;
		uint64_t pr = !prev ? 0 : prev->split ? prev->m_running[i] : prev->running;
		/* counters only go up; a smaller value would be a reset: count from zero */
		d[i].value = cur->value[i] >= pv ? cur->value[i] - pv : cur->value[i];
		d[i].enabled = ce >= pe ? ce - pe : ce;
		d[i].running = cr >= pr ? cr - pr : cr;
	}
}
