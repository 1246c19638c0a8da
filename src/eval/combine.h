/* combine: a hybrid CPU's level-1 top-down view over its core types. perf counts a thread on
 * each core PMU (cpu_core, cpu_atom) and reports each tree apart; the combined view is the
 * share of ALL the issue slots the thread had, on whichever core type:
 *
 *     combined(N) = sum_k N_k * SLOTS_k / sum_k SLOTS_k
 *
 * with N_k the level-1 node N of core type k (a fraction of that type's slots) and SLOTS_k its
 * info metric SLOTS (Golden Cove: TOPDOWN.SLOTS, 6 a cycle; Gracemont: 5 * CPU_CLK_UNHALTED.CORE).
 * It follows from TMA's definition of a level-1 node as a fraction of issue slots (Yasin, "A
 * Top-Down Method for Performance Analysis and Counters Architecture", ISPASS 2014): the slots
 * lost to N on both types over the slots of both. So the combined nodes add up to 1 when each
 * type's do. A core type with SLOTS = 0 (the thread never ran there) weighs nothing. */
#ifndef TD_COMBINE_H
#define TD_COMBINE_H

#include "evaluator.h"
#include "model/model.h"

struct td_combined_node {
	const char *path; /* the level-1 node (points into models[0]) */
	double value;	  /* NaN: not available (a node or SLOTS NA on a type that ran) */
};

/* The level-1 nodes of models[0] that every model has, combined over the n evaluations
 * (evs[k] of models[k]) into out (room for models[0]->nnodes). Returns how many, and the
 * slots of all types in *slots (NaN when some type's SLOTS is NA); -1 when a model has no
 * info metric SLOTS. */
int td_combine_level1(const struct td_model *const *models, const struct td_evaluation *const *evs, int n,
		      struct td_combined_node *out, double *slots);

#endif
