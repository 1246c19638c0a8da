/* downsample: a session's old intervals made coarser — each bucket of
 * width of the wall clock that ended before an age merged into one
 * interval (store/store_downsample.c: its counts the sums of theirs, what
 * one read over the bucket would have given) and that interval's metric
 * values evaluated again from them (recompute.c), all in one transaction:
 * a crash leaves either the intervals as they were or the merged one with
 * its values. topdownd's watch sessions (watch mode's retention) and
 * `tdctl prune --downsample` use it. */
#ifndef TD_DOWNSAMPLE_H
#define TD_DOWNSAMPLE_H

#include <stdint.h>

#include "base/util.h"
#include "store/store.h"

struct td_downsample_result {
	int buckets;	   /* merged */
	int kept;	   /* due but left as they were (store_downsample.c says when) */
	int64_t intervals; /* intervals merged away (a bucket of n intervals: n - 1) */
	int next_seq;	   /* the first interval not looked at: the next call's from_seq */
};

/* At most max_buckets of session's buckets, from the interval from_seq on,
 * that are over before before_ns (wall clock). 0 (res says what was done;
 * nothing due is 0 with res->buckets 0), or -1 with err (nothing changed). */
int td_downsample(struct td_store *s, int64_t session, const char *events_dir, int from_seq, uint64_t before_ns,
		  uint64_t width_ns, int max_buckets, struct td_downsample_result *res, td_err *err);

#endif
