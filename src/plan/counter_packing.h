/* counter_packing: splits an events file's events into groups of at most N members
 * for files the planner does not plan (no metric tree: software.td,
 * generic.td), so that `--counters N` and `--rotate` can be exercised on
 * any machine. The planner only places info metrics as extras of node
 * groups, so this is a separate, documented simple packing:
 *   1. info metrics in file order: the events of a metric not yet placed go
 *      together into the last group if they fit, else together into a new
 *      group if they fit one group, else one by one first-fit;
 *   2. events no info metric reads, in file order, first-fit.
 * Deterministic; group 0 holds the first info metric's events. No I/O. */
#ifndef TD_COUNTER_PACKING_H
#define TD_COUNTER_PACKING_H

#include "model/model.h"

/* group[alias] = group index for each of m->cat->nevents aliases. Returns
 * the number of groups (>= 1 when the file has events), or -1 if n < 1. */
int td_counter_packing(const struct td_model *m, int n, int *group);

#endif
