/* tdctl prune: delete the oldest sessions (and then the oldest intervals)
 * until the database is within an age and a size, and shrink the file;
 * with --downsample, first merge every session's intervals older than
 * --full-resolution into intervals of that width (analysis/downsample). */
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/downsample.h"
#include "tdctl.h"

#define USAGE                                                                                         \
	"usage: tdctl prune [-d DB] [--max-age AGE] [--max-size MB] [--dry-run] [--downsample WIDTH " \
	"[--full-resolution AGE] [--events-dir DIR]]"

struct ids {
	int64_t *v;
	int n;
};

static int add_id(const struct td_session_row *r, void *ctx)
{
	struct ids *x = ctx;
	int64_t *id = td_array_push(&x->v, &x->n, sizeof(*x->v));

	if (!id)
		return -1;
	*id = r->id;
	return 0;
}

/* Every session's intervals that ended before the age, bucket by bucket. */
static int downsample(struct td_store *st, const char *db, uint64_t width, uint64_t age, const char *events_dir)
{
	uint64_t before = td_wall_ns() > age ? td_wall_ns() - age : 0;
	struct ids v = { 0 };
	int rc = td_store_sessions(st, add_id, &v) ? -1 : 0, buckets = 0, kept = 0;
	int64_t merged = 0;
	td_err err;

	if (rc)
		tdctl_error("prune: cannot list the sessions of %s: %s", db, td_store_errmsg(st));
	for (int i = 0; i < v.n && rc == 0; i++) {
		struct td_downsample_result r = { .next_seq = 0 };
		int from = INT_MIN;
		do {
			from = r.next_seq > from ? r.next_seq : from;
			if ((rc = td_downsample(st, v.v[i], events_dir, from, before, width, 256, &r, &err)))
				tdctl_error("prune: %s", err.msg);
			buckets += r.buckets;
			kept += r.kept;
			merged += r.intervals;
		} while (rc == 0 && r.next_seq > from);
	}
	free(v.v);
	if (rc == 0)
		printf("downsampled %s: %lld interval%s merged into %d of %.3g s%s", db, (long long)(merged + buckets),
		       merged + buckets == 1 ? "" : "s", buckets, (double)width / 1e9, kept ? "" : "\n");
	if (rc == 0 && kept)
		printf("; %d bucket%s kept as %s (a count missing, or a change decided on it)\n", kept,
		       kept == 1 ? "" : "s", kept == 1 ? "it was" : "they were");
	return rc;
}

int cmd_prune(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "database", required_argument, NULL, 'd' },
		{ "max-age", required_argument, NULL, 'a' },
		{ "max-size", required_argument, NULL, 's' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "downsample", required_argument, NULL, 'w' },
		{ "full-resolution", required_argument, NULL, 'f' },
		{ "events-dir", required_argument, NULL, 'e' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *db = "topdown.db", *events_dir = NULL;
	uint64_t age = 0, size = 0, width = 0, full = 3600ull * 1000000000ull;
	bool dry_run = false;
	struct td_prune_result res;
	struct td_store *st;
	td_err err;
	int c, rc;

	optind = 1;
	while ((c = getopt_long(argc, argv, "d:h", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			db = optarg;
			break;
		case 'a':
			if (tdctl_parse_age("--max-age", optarg, &age))
				return 2;
			break;
		case 's':
			if (tdctl_parse_size("--max-size", optarg, &size))
				return 2;
			break;
		case 'n':
			dry_run = true;
			break;
		case 'w':
			if (tdctl_parse_age("--downsample", optarg, &width))
				return 2;
			break;
		case 'f':
			if (tdctl_parse_age("--full-resolution", optarg, &full))
				return 2;
			break;
		case 'e':
			events_dir = optarg;
			break;
		case 'h':
			printf("%s\n", USAGE);
			return 0;
		default:
			tdctl_error("prune: %s", USAGE);
			return 2;
		}
	}
	if (optind < argc) {
		tdctl_error("prune: unexpected '%s'; %s", argv[optind], USAGE);
		return 2;
	}
	if (!age && !size && !width) {
		tdctl_error("prune: no limit given: give --max-age AGE, --max-size MB and/or --downsample WIDTH");
		return 2;
	}
	if (width && dry_run) {
		tdctl_error("prune: --dry-run cannot show what --downsample would merge: leave one of them out");
		return 2;
	}
	if (tdctl_open_store(db, TD_STORE_WRITE, &st))
		return 1;
	if (width && downsample(st, db, width, full, events_dir)) {
		td_store_close(st);
		return 1;
	}
	if (!age && !size) {
		td_store_close(st);
		return 0;
	}
	rc = dry_run ? td_store_prune_dry_run(st, age, size, &res, &err) : td_store_prune(st, age, size, &res, &err);
	if (rc)
		tdctl_error("%s", err.msg);
	else if (dry_run)
		printf("would prune %s: %d session%s and %lld interval%s, %.1f KiB -> about %.1f KiB; nothing was "
		       "deleted\n",
		       db, res.sessions_deleted, res.sessions_deleted == 1 ? "" : "s", (long long)res.intervals_deleted,
		       res.intervals_deleted == 1 ? "" : "s", res.bytes_before / 1024.0, res.bytes_after / 1024.0);
	else
		printf("pruned %s: %d session%s and %lld interval%s deleted, %.1f KiB -> %.1f KiB\n", db,
		       res.sessions_deleted, res.sessions_deleted == 1 ? "" : "s", (long long)res.intervals_deleted,
		       res.intervals_deleted == 1 ? "" : "s", res.bytes_before / 1024.0, res.bytes_after / 1024.0);
	td_store_close(st);
	return rc ? 1 : 0;
}
