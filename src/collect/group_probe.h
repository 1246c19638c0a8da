/* group_probe: before a plan's hardware groups are opened on the targets,
 * each is run on a thread of ours to see that it goes on the PMU beside
 * what the kernel holds pinned there; a group that opens but never runs is
 * divided until its parts do (group_probe.c says why and how). Internal to
 * collect/ (the per-thread counting backend calls it at its first open). */
#ifndef TD_GROUP_PROBE_H
#define TD_GROUP_PROBE_H

#include <stdbool.h>

#include "perf_group.h"

#define TD_GROUP_PROBE_WHY 300

/* Has s an event a PMU counter counts (not software, tracepoint or
 * breakpoint)? Only those groups can be kept off by a pinned event. */
bool td_group_probe_wanted(const struct td_perf_group_spec *s);

/* Probe specs[i] for each i with probe[i], opened together (in the parts
 * their sub already says) on a thread of ours at normal priority; mux_ms:
 * the PMU's perf_event_mux_interval_ms. A part enabled a whole round of
 * turns with running 0 is halved (its sub renumbered) and the set probed
 * again, down to single events; why[i] then says so in one line ("the
 * kernel never ran it: ...; counted as 2 groups of 3 and 3 events") and
 * *split counts such specs. A spec that does not open on our thread is
 * not probed (left as it is). 0, or -1 when the probe could not run (no
 * memory, no thread, a reading failed): nothing is changed then, and
 * nothing is said (the groups are opened as planned). */
int td_group_probe(struct td_perf_group_spec *specs, int nspecs, const bool *probe, int mux_ms,
		   char (*why)[TD_GROUP_PROBE_WHY], int *split);

#endif
