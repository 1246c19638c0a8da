/* repeats: a repeat group (tdctl run -r N --warmup K) read back — each
 * measured session evaluated as a report does (the tree's nodes and info
 * metrics where the session has a tree; the summary's CPU time, utilisation
 * and rates of its processes always), and per metric the statistics of its
 * values over the repeats (base/stats.h). A node is noisy when the spread of
 * its values (max - min) is larger than the distance from its median to its
 * threshold: whether it passes could be chance. Two groups are compared
 * metric by metric with the Mann–Whitney test. */
#ifndef TD_REPEATS_H
#define TD_REPEATS_H

#include <stdbool.h>
#include <stdint.h>

#include "base/stats.h"
#include "store/store.h"

struct td_repeat_metric {
	char *name;	  /* node path, info metric, or summary column */
	const char *kind; /* "node" (a fraction), "info", "summary" */
	char unit[32];
	bool has_threshold;
	double threshold; /* nodes with a simple "> X" / "< X" threshold */
	double *values;	  /* one per measured session, NaN where not available */
	struct td_stats st;
	bool noisy;
};

struct td_repeats {
	int64_t *sessions; /* the measured sessions, in repeat order */
	int nsessions, warmups;
	struct td_repeat_metric *m;
	int nm;
};

/* The group session belongs to. -1 with err when it is in none, or a
 * session cannot be read. */
int td_repeats_load(struct td_store *s, int64_t session, const char *events_dir, struct td_repeats *r, td_err *err);
void td_repeats_free(struct td_repeats *r);
/* The metric named name (and kind) in r, or NULL. */
const struct td_repeat_metric *td_repeats_find(const struct td_repeats *r, const char *kind, const char *name);

#endif
