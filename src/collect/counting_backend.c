/* counting_backend: what the counting backends (counting_backend.h) share:
 * a thread's switch pair, how perf_event_open says a machine cannot count
 * an event, the measure of what a backend adds to a context switch
 * (switch_cost.h, through the backend's probe ops), and which of the plan's
 * specs a rotation counts. Calls nothing of the
 * collector, and of the backends only their ops. */
#include "counting_backend.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

bool td_switch_pair_delta(const struct td_switch_pair *p, struct td_count *d)
{
	const uint64_t *from = p->sent_valid ? p->sent : p->prev;
	uint64_t from_ns = p->sent_valid ? p->sent_ns : p->prev_ns, span;

	if (!p->have || p->ns <= from_ns)
		return false;
	/* /proc's and the program's counters are exact: counted for all the time between the two reads */
	span = p->ns - from_ns;
	for (int k = 0; k < 2; k++) {
		d[k].value = p->last[k] >= from[k] ? p->last[k] - from[k] : 0;
		d[k].enabled = d[k].running = span;
	}
	return true;
}

void td_switch_pair_sent(struct td_switch_pair *p)
{
	p->sent[0] = p->last[0];
	p->sent[1] = p->last[1];
	p->sent_ns = p->ns;
	p->sent_valid = true;
}

void td_switch_pair_commit(struct td_switch_pair *p)
{
	/* A read labelled before the baseline gave no row (td_switch_pair_delta):
	 * a thread the tracker reported born after the interval's end was taken
	 * (its ring buffer is read after that time is), whose baseline is its
	 * birth. The baseline stays: its next row spans from its birth, with its
	 * switches since, never from before it was born. */
	if (p->sent_valid && p->sent_ns > p->prev_ns) {
		p->prev[0] = p->sent[0];
		p->prev[1] = p->sent[1];
		p->prev_ns = p->sent_ns;
	}
	p->sent_valid = false;
}

void td_switch_pair_forget(struct td_switch_pair *p)
{
	p->sent_valid = false;
}

bool td_counting_cannot_count(int err)
{
	return err == ENOENT || err == EOPNOTSUPP || err == EINVAL || err == ENODEV;
}

static int switch_probe_attach(void *ctx, const pid_t pids[2], void **probe, td_err *err)
{
	struct td_counting *b = ctx;

	return b->ops->probe_attach(b, pids, probe, err);
}

static void switch_probe_detach(void *ctx, void *probe)
{
	struct td_counting *b = ctx;

	b->ops->probe_detach(b, probe);
}

static int switch_probe_idle(void *ctx, enum td_switch_idle what, uint64_t *ns, uint64_t *runs)
{
	struct td_counting *b = ctx;

	return b->ops->probe_idle(b, what, ns, runs);
}

int td_counting_switch_cost(struct td_counting *b, struct td_switch_cost *out)
{
	if (!b->ops->probe_attach) {
		memset(out, 0, sizeof(*out));
		snprintf(out->why, sizeof(out->why), "this counting mode cannot count a measuring pair");
		return 0;
	}
	return td_switch_cost_measure(switch_probe_attach, switch_probe_detach,
				      b->ops->probe_idle ? switch_probe_idle : NULL, b, out);
}

void td_counting_plan_set_rotation(struct td_counting_plan *p, int ref_spec, const bool *rotated)
{
	p->current = -1;
	for (int g = 0; g < p->nspecs; g++) {
		p->rotated[g] = rotated[g] && g != ref_spec;
		if (p->rotated[g] && p->current < 0)
			p->current = g;
	}
}

int td_counting_plan_next_rotated(const struct td_counting_plan *p, int from)
{
	for (int k = 1; k <= p->nspecs; k++) {
		int g = (from + k) % p->nspecs;
		if (p->rotated[g] && !p->disabled[g][0])
			return g;
	}
	return -1;
}
