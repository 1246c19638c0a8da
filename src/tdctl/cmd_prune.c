/* tdctl prune: delete the oldest sessions (and then the oldest intervals)
 * until the database is within an age and a size, and shrink the file. */
#include <getopt.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tdctl.h"

#define USAGE "usage: tdctl prune [-d DB] [--max-age AGE] [--max-size MB] [--dry-run]"

int cmd_prune(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "database", required_argument, NULL, 'd' }, { "max-age", required_argument, NULL, 'a' },
		{ "max-size", required_argument, NULL, 's' }, { "dry-run", no_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },	      { NULL, 0, NULL, 0 },
	};
	const char *db = "topdown.db";
	uint64_t age = 0, size = 0;
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
	if (!age && !size) {
		tdctl_error("prune: no limit given: give --max-age AGE and/or --max-size MB");
		return 2;
	}
	if (tdctl_open_store(db, TD_STORE_WRITE, &st))
		return 1;
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
