/* switch_cost: what counting adds to each context switch of the threads it
 * counts — the cost to the target (issue 37), measured on this host at a
 * session's start, as perf bench sched pipe measures a switch: two
 * processes of ours pinned to one CPU hand a byte to each other through
 * pipes (two switches a round trip), alternately alone and counted as the
 * session counts its target (the caller's attach and detach), round after
 * round; the cost is the median of the rounds' differences per switch. */
#ifndef TD_SWITCH_COST_H
#define TD_SWITCH_COST_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/util.h"

struct td_switch_cost {
	bool measured;	      /* ns holds the measured value */
	double ns;	      /* ns each switch of a counted thread gains (the median of the rounds' differences) */
	double alone;	      /* ns a switch took alone (the median of the rounds) */
	int rounds, switches; /* rounds, and switches in each phase of one */
	uint64_t cpu_ns;      /* the CPU time of the measuring pair (tdctl's children, not in its own) */
	char why[300];	      /* measured false: why, in one line */
};

/* Count processes pids[0] and pids[1] as the session counts its target:
 * 0 with *probe (what detach gives back), or -1 with err. */
typedef int (*td_switch_attach_fn)(void *ctx, const pid_t pids[2], void **probe, td_err *err);
typedef void (*td_switch_detach_fn)(void *ctx, void *probe);

/* The median of the per-round differences (on[r] - off[r]), n of them. */
double td_switch_cost_median_diff(const double *on, const double *off, int n);
/* Measure (ROUNDS rounds of SWITCHES switches alone then counted; a few
 * tens of ms on an idle host). Fills out either way: measured, or why not
 * (the pair could not start, attach failed, the rounds took over 2 s of
 * wall time, the difference was not above zero: the host's noise hid it).
 * The pair runs at SCHED_FIFO 1 when the caller runs at a real-time class. Returns 0, or -1 out of memory. */
int td_switch_cost_measure(td_switch_attach_fn attach, td_switch_detach_fn detach, void *ctx,
			   struct td_switch_cost *out);

#endif
