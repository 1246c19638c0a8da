/* recompute: derives a stored session's metric values again from its raw
 * counts, with the events files of the session (possibly newer ones from
 * another directory): the file serving its PMU model and, for live
 * sessions, software.td and generic.td — each reading the events rows it
 * planned (schema 3 records the file; older live sessions: all rows).
 * Each row is matched to a catalog alias by encoding. Per interval and
 * target the scaled counts are kept per perf group (live sessions; imports:
 * one group, several rows of one alias averaged) and evaluated as live
 * collection does (group_counts.h), then summed into the session's
 * aggregate targets — a thread's process, a CPU's core and socket — and
 * evaluated for them; a session without aggregate targets (imports) gets
 * the sum of its targets as `whole` when an interval has several. A target
 * that a process, core or socket covers is written only with each_target
 * (as live collection writes it only with --thread-metrics). */
#ifndef TD_RECOMPUTE_H
#define TD_RECOMPUTE_H

#include <stdbool.h>
#include <stdint.h>

#include "store/store.h"

struct td_recompute_result {
	char *events_file; /* the files evaluated: "intel-skl.td", "soft-tree.td + software.td"; NULL: none */
	int events_matched, events_unmatched;
	char *unmatched;     /* names of every unmatched event, space separated; NULL: none */
	int64_t evaluations; /* interval x target evaluations written */
};

/* s must be open for writing; runs in one transaction. res is filled from
 * empty (its strings allocated): td_recompute_result_free it after, whatever
 * the return. */
int td_recompute(struct td_store *s, int64_t session, const char *events_dir, bool each_target,
		 struct td_recompute_result *res, td_err *err);
/* The metric values of the intervals [first_seq, last_seq] only (their
 * old ones deleted), inside the caller's transaction (nothing is committed
 * or rolled back here), each target written as a live session writes it
 * (without --thread-metrics); the events rows' aliases are left as they
 * are. res as for td_recompute. */
int td_recompute_range(struct td_store *s, int64_t session, const char *events_dir, int first_seq, int last_seq,
		       struct td_recompute_result *res, td_err *err);
void td_recompute_result_free(struct td_recompute_result *res);

#endif
