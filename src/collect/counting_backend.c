/* counting_backend: what the counting backends (counting_backend.h) share:
 * a thread's switch pair and how perf_event_open says a machine cannot
 * count an event. Calls nothing of the collector or the backends. */
#include "counting_backend.h"

#include <errno.h>

bool td_switch_pair_delta(const struct td_switch_pair *p, struct td_count *d)
{
	uint64_t span;

	if (!p->have || p->ns <= p->prev_ns)
		return false;
	/* /proc's and the program's counters are exact: counted for all the time between the two reads */
	span = p->ns - p->prev_ns;
	for (int k = 0; k < 2; k++) {
		d[k].value = p->last[k] >= p->prev[k] ? p->last[k] - p->prev[k] : 0;
		d[k].enabled = d[k].running = span;
	}
	return true;
}

void td_switch_pair_commit(struct td_switch_pair *p)
{
	if (!p->have)
		return;
	p->prev[0] = p->last[0];
	p->prev[1] = p->last[1];
	p->prev_ns = p->ns;
}

bool td_counting_cannot_count(int err)
{
	return err == ENOENT || err == EOPNOTSUPP || err == EINVAL || err == ENODEV;
}
