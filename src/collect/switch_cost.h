/* switch_cost: what counting adds to each context switch of the threads it
 * counts — the cost to the target (issue 37), measured on this host at a
 * session's start, as perf bench sched pipe measures a switch: two
 * processes of ours pinned to one CPU hand a byte to each other through
 * pipes (two switches a round trip), alternately alone and counted as the
 * session counts its target (the caller's attach and detach), round after
 * round; the cost is the median of the rounds' differences per switch.
 * Where the counting also runs at the switches of threads it does not count
 * (the BPF program runs at every switch on every CPU), a phase alone carries
 * that too: the caller's idle says what it ran there (the program's run
 * time per run, the kernel's), added to the cost. */
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
	double idle;	      /* ns the counting ran at each switch of a phase alone (in ns; 0: none, or not known) */
	bool idle_unknown;    /* the caller runs there, and how long was not known: ns leaves it out */
	int rounds, switches; /* rounds, and switches in each phase of one */
	uint64_t cpu_ns;      /* the CPU time of the measuring pair (tdctl's children, not in its own) */
	char why[300];	      /* measured false: why, in one line */
};

/* Count processes pids[0] and pids[1] as the session counts its target:
 * 0 with *probe (what detach gives back), or -1 with err. */
typedef int (*td_switch_attach_fn)(void *ctx, const pid_t pids[2], void **probe, td_err *err);
typedef void (*td_switch_detach_fn)(void *ctx, void *probe);
/* What the counting runs at a switch of threads it does not count, as the
 * time it ran and the times it ran so far (cumulative, for the difference
 * over a phase alone): 0, or -1 when that is not known. TD_SWITCH_IDLE_START
 * before the rounds (the counting of that time begins), _READ around each
 * phase alone, _STOP after the rounds. */
enum td_switch_idle {
	TD_SWITCH_IDLE_START,
	TD_SWITCH_IDLE_READ,
	TD_SWITCH_IDLE_STOP
};
typedef int (*td_switch_idle_fn)(void *ctx, enum td_switch_idle what, uint64_t *ns, uint64_t *runs);

/* The median of the per-round differences (on[r] - off[r]), n of them. */
double td_switch_cost_median_diff(const double *on, const double *off, int n);
/* Measure (ROUNDS rounds of SWITCHES switches alone then counted; a few
 * tens of ms on an idle host). Fills out either way: measured, or why not
 * (the pair could not start, attach failed, the rounds took over 2 s of
 * wall time, the difference was not above zero: the host's noise hid it).
 * The pair runs at SCHED_FIFO 1 when the caller runs at a real-time class.
 * idle: NULL where the counting runs only at the switches it counts; else
 * the median over the phases alone of what it ran a run there is added to
 * ns (out->idle). Returns 0, or -1 out of memory. */
int td_switch_cost_measure(td_switch_attach_fn attach, td_switch_detach_fn detach, td_switch_idle_fn idle, void *ctx,
			   struct td_switch_cost *out);

#endif
