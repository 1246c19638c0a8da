/* session_counts: a stored session's raw counts as one events file reads
 * them, the starting point of every evaluation after the fact (recompute,
 * report data). One rule binds events rows to the file's aliases: a row
 * another file planned (events.file names a different file) is left out;
 * the others are matched by encoding (type, config, config1:
 * model/event_identity), so an event counts as what it is whatever it was
 * called; their perf groups become 0..n-1 (imports: one group, where
 * group_idx only tells repeated rows of one event apart). The walk then
 * hands over each (interval, target)'s bound counts as scaled group_counts
 * (docs/schema.md, "How metric values are computed"). */
#ifndef TD_SESSION_COUNTS_H
#define TD_SESSION_COUNTS_H

#include <stdbool.h>
#include <stdint.h>

#include "base/util.h"
#include "eval/group_counts.h"
#include "model/catalog.h"
#include "store/store.h"

/* One events row of the session. */
struct td_session_event {
	int64_t id;	    /* events.id (rows are kept in id order) */
	int alias;	    /* index of the catalog alias it feeds, -1: none */
	int group;	    /* dense perf group (0 when alias < 0) */
	char *name;	    /* as recorded */
	char *stored_alias; /* events.alias as recorded, NULL if none */
	bool failed;	    /* the kernel refused it: never counted */
};

struct td_session_counts {
	const struct td_catalog *cat; /* NULL: nothing bound */
	struct td_session_event *evs;
	int nevs;
	int ngroups; /* dense groups of the bound rows (at least 1) */
	int bound;   /* rows bound to an alias */
};

/* Read session's events rows and bind them to cat (the events file called
 * file; pmu_model: the model its aliases are encoded for, NULL for files of
 * portable events). cat NULL: no file, every row unbound (its raw counts are
 * still walked). -1 with err on a store error or when out of memory. */
int td_session_counts_bind(struct td_session_counts *sc, struct td_store *s, int64_t session,
			   const struct td_catalog *cat, const char *file, const char *pmu_model, td_err *err);
void td_session_counts_free(struct td_session_counts *sc);

/* The row with this events id, or NULL. */
const struct td_session_event *td_session_event_of(const struct td_session_counts *sc, int64_t id);

/* What a walk calls, in interval, target order. All may be NULL but target. */
struct td_count_walk {
	/* Only the intervals for which this returns true are walked. */
	bool (*keep_interval)(void *ctx, uint64_t start_ns, uint64_t end_ns);
	/* Every row walked, bound or not (e for an unknown event id: NULL). */
	int (*row)(void *ctx, const struct td_count_row *r, const struct td_session_event *e);
	/* One target's counts in one interval: the bound rows, scaled, per group (a target
	 * with no bound row in the interval is not handed over, unless no target of
	 * the interval has one: then each is, after the others, with nothing counted). */
	int (*target)(void *ctx, const struct td_count_row *r, int64_t target, const struct td_group_counts *c);
	/* After the last target of interval (r: any row of it). */
	int (*interval_end)(void *ctx, const struct td_count_row *r);
};

/* Walk the session's counts. Returns 0, or -1 when a callback failed, the
 * store could not be read or memory ran out. */
int td_session_counts_walk(const struct td_session_counts *sc, struct td_store *s, int64_t session,
			   const struct td_count_walk *w, void *ctx);
/* The same walk over the intervals whose seq is within [first_seq, last_seq]. */
int td_session_counts_walk_range(const struct td_session_counts *sc, struct td_store *s, int64_t session, int first_seq,
				 int last_seq, const struct td_count_walk *w, void *ctx);
/* n walks in one read of the session's counts: walk k binds sc[k] and calls
 * w[k] with ctx[k], each exactly as td_session_counts_walk would (the calls
 * of different walks interleave). What reading the counts costs is paid once. */
int td_session_counts_walk_n(const struct td_session_counts *const *sc, int n, struct td_store *s, int64_t session,
			     const struct td_count_walk *const *w, void *const *ctx);

/* The same walk fed row by row, as the rows come (a session's committed
 * intervals, one after another, each in td_store_counts' order: target,
 * event): what td_session_counts_walk calls for those rows, in the same
 * order. td_count_walker_end ends the interval fed last (the next row
 * of another interval ends it too). NULL when out of memory. */
struct td_count_walker;
struct td_count_walker *td_count_walker_new(const struct td_session_counts *sc, const struct td_count_walk *w,
					    void *ctx);
int td_count_walker_row(struct td_count_walker *k, const struct td_count_row *r);
int td_count_walker_end(struct td_count_walker *k);
void td_count_walker_free(struct td_count_walker *k);

#endif
