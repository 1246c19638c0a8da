/* read_cost: what one read of a perf group adds to the counts of the task
 * it counts — the counts attributable to topdown's own reads (issue 19),
 * measured on this host, as microbenchmark tools measure an empty read loop.
 *
 * Reading a counter whose task runs on another CPU makes the kernel
 * interrupt that CPU and read it there (perf_event_read's IPI): the
 * interrupt's instructions, cycles, ... land in the task's kernel-mode
 * counts. Nothing else of a read lands there: the read(2) runs in topdown's
 * thread, an interrupt is no context switch, migration or page fault, and
 * time on the CPU is the task's either way. So only hardware events that
 * count kernel mode are affected, and only when the task runs at the moment
 * of the read. The measurement counts, kernel mode only, a thread of ours
 * spinning in user space on another CPU: a quiet window gives the
 * background (timer ticks), a burst of reads adds the reads' cost. */
#ifndef TD_READ_COST_H
#define TD_READ_COST_H

#include <stdbool.h>
#include <stdint.h>

#include "perf_group.h"

struct td_read_cost {
	bool measured;		       /* per_read holds the measured values */
	double per_read[TD_GROUP_MAX]; /* per event of the spec: counts one read adds to a target
					 * running on another CPU; NAN: not affected (software, user space only) */
	char why[300];		       /* measured false: why, in one line */
};

/* Does a read add to event k of spec (a hardware event counting kernel mode)? */
bool td_read_cost_affects(const struct td_perf_group_spec *spec, int k);
/* The reads' share of a burst: (burst - quiet * burst_ns / quiet_ns) / reads,
 * at least 0 (a background that happened to be larger hides nothing). */
double td_read_cost_estimate(double quiet, uint64_t quiet_ns, double burst, uint64_t burst_ns, int reads);
/* Measure spec's events (about 40 ms, a CPU busy meanwhile; a group
 * measured before in this process is not measured again). Fills out
 * either way: measured, or why not (no event is affected; one CPU only,
 * where every per_read is 0 since a target never runs while it is read; the
 * kernel refuses to count kernel mode). Returns 0, or -1 out of memory. */
int td_read_cost_measure(const struct td_perf_group_spec *spec, struct td_read_cost *out);

#endif
