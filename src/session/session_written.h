/* session_written: what the intervals of an open group wrote, per target
 * and counter group (session_written.c). */
#ifndef TD_SESSION_WRITTEN_H
#define TD_SESSION_WRITTEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "collect/interval.h"

struct written_entry;

struct td_written {
	struct written_entry *slots; /* open addressing; target 0: empty */
	size_t cap;		     /* a power of 2, at least twice n (0 before the first) */
	size_t n;
	struct td_count *pool; /* the entries' counts, n of them each */
	size_t used, room;
};

/* The row of (target, group) whose first event is `event`: c, what the
 * collector read since the group of intervals began, less what the
 * group's earlier rows of it wrote, into d (n members); c is then what
 * they wrote. *again: the group wrote a row of it before and nothing
 * changed since (d all zero). 0, or -ENOMEM (nothing remembered). */
int td_written_row(struct td_written *w, int64_t target, int64_t event, const struct td_count *c, int n,
		   struct td_count *d, bool *again);
/* The group committed or rolled back: nothing written in it any more. */
void td_written_reset(struct td_written *w);
void td_written_free(struct td_written *w);

#endif
