/* hotspots_data: a stored session's hotspots (schema v9's sampling and
 * samples_hot) read back for a report: per node (NULL: time-based samples,
 * no node) — and per thread when asked — the functions by samples, most
 * first, each with its source lines by samples. */
#ifndef TD_HOTSPOTS_DATA_H
#define TD_HOTSPOTS_DATA_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/util.h"
#include "store/store.h"

struct td_hot_line {
	char *file; /* NULL: no line information */
	int line;
	uint64_t samples;
};

struct td_hot_function {
	char *function, *module;
	uint64_t samples;
	struct td_hot_line *lines; /* most samples first */
	int nlines;
};

/* The samples of one node (and one thread with per_thread). */
struct td_hot_group {
	char *node;	/* NULL: time-based, no node */
	pid_t pid, tid; /* 0: every thread */
	char comm[64];
	uint64_t samples;
	struct td_hot_function *fns; /* most samples first */
	int nfns;
};

/* A folded call stack and its samples, summed over the session's threads. */
struct td_hot_stack {
	char *node;  /* NULL: time-based */
	char *stack; /* outermost frame first, ';' between */
	uint64_t samples;
};

struct td_hotspots {
	bool sampled;		 /* false: the session was recorded without --hotspots */
	int first_seq, last_seq; /* the intervals loaded (last_seq -1: to the end) */
	struct td_sampling_row s;
	uint64_t stored;	     /* samples in the groups (the selected threads') */
	struct td_hot_group *groups; /* node by node (time-based first), threads by samples */
	int ngroups;
	struct td_hot_stack *stacks; /* with_stacks: most samples first */
	int nstacks;
};

/* Load session's hotspots; per_thread: a group per thread; tid > 0: only
 * that thread's samples. -1 with a line in err. */
int td_hotspots_load(struct td_store *st, int64_t session, bool per_thread, long tid, struct td_hotspots *h,
		     td_err *err);
/* The same for the intervals with seq in [first, last] (last < 0: to the
 * end): samples are stored per interval (those drained at its end). */
int td_hotspots_load_range(struct td_store *st, int64_t session, bool per_thread, long tid, int first, int last,
			   struct td_hotspots *h, td_err *err);
/* The intervals of session whose midpoint lies in f's --from/--to window
 * (report_data's rule: td_report_filter_keeps_interval), as a seq range
 * into *first and *last (every interval when f has no window): 0; 1 when
 * none lies in it, with a line in err saying so; -1 with err on an error. */
struct td_report_filter;
int td_hotspots_window(struct td_store *st, int64_t session, const struct td_report_filter *f, int *first, int *last,
		       td_err *err);
/* The session's call stacks too (for a flame graph), into h->stacks. */
int td_hotspots_load_stacks(struct td_store *st, int64_t session, struct td_hotspots *h, td_err *err);
void td_hotspots_free(struct td_hotspots *h);

#endif
