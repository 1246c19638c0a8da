/* downsample: old intervals merged, their values evaluated again (see downsample.h). */
#include "downsample.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "recompute.h"

int td_downsample(struct td_store *s, int64_t session, const char *events_dir, int from_seq, uint64_t before_ns,
		  uint64_t width_ns, int max_buckets, struct td_downsample_result *res, td_err *err)
{
	size_t room = (size_t)(max_buckets > 0 ? max_buckets : 1);
	struct td_ds_bucket *b = calloc(room, sizeof(*b));
	bool *merged = calloc(room, sizeof(*merged));
	struct td_recompute_result rr = { 0 };
	int n = 0, first = 0, last = 0, rc = -1;

	memset(res, 0, sizeof(*res));
	res->next_seq = from_seq;
	err->msg[0] = '\0';
	if (!b || !merged) {
		td_err_set(err, "out of memory downsampling session %lld", (long long)session);
		goto out;
	}
	if ((n = td_store_downsample_due(s, session, from_seq, before_ns, width_ns, b, max_buckets)) <= 0) {
		rc = n; /* 0: nothing due */
		goto out;
	}
	if (td_store_begin(s))
		goto out;
	rc = td_store_downsample_merge(s, session, b, n, merged);
	for (int i = 0; i < n && rc == 0; i++) {
		if (!merged[i]) {
			res->kept += b[i].n > 1; /* a bucket of one is merged already, or was never more */
			continue;
		}
		if (!res->buckets++)
			first = b[i].first_seq;
		last = b[i].first_seq;
		res->intervals += b[i].n - 1;
	}
	/* the merged intervals' values, from their counts (those between them,
	 * left as they were, are evaluated again too: the same counts give the
	 * same values) */
	if (rc == 0 && res->buckets)
		rc = td_recompute_range(s, session, events_dir, first, last, &rr, err);
	td_recompute_result_free(&rr);
	if (rc == 0 && td_store_commit(s) == 0)
		res->next_seq = b[n - 1].last_seq + 1;
	else {
		td_store_rollback(s);
		rc = -1;
	}
out:
	if (rc < 0) {
		if (!err->msg[0])
			td_err_set(err, "cannot downsample session %lld: %s", (long long)session, td_store_errmsg(s));
		memset(res, 0, sizeof(*res));
		res->next_seq = from_seq;
	}
	free(b);
	free(merged);
	return rc < 0 ? -1 : 0;
}
