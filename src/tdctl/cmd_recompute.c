/* tdctl recompute: derive a session's metric values again from its raw
 * counts, e.g. with a newer events file. */
#include <getopt.h>
#include <stdio.h>

#include "analysis/recompute.h"
#include "tdctl.h"

#define USAGE "usage: tdctl recompute SESSION [-d DB] [--events-dir DIR] [--threads]"

int cmd_recompute(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "database", required_argument, NULL, 'd' },
		{ "events-dir", required_argument, NULL, 'E' },
		{ "threads", no_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *db = "topdown.db", *dir = NULL;
	bool threads = false;
	struct td_recompute_result res;
	struct td_store *st;
	int64_t session;
	td_err err;
	int c, rc;

	optind = 1;
	while ((c = getopt_long(argc, argv, "d:h", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			db = optarg;
			break;
		case 'E':
			dir = optarg;
			break;
		case 'T':
			threads = true;
			break;
		case 'h':
			printf("%s\n", USAGE);
			return 0;
		default:
			tdctl_error("recompute: %s", USAGE);
			return 2;
		}
	}
	if (optind < argc - 1) {
		tdctl_error("recompute: one SESSION only; %s", USAGE);
		return 2;
	}
	if (tdctl_session_arg("recompute", optind < argc ? argv[optind] : NULL, &session))
		return 2;
	if (tdctl_open_store(db, TD_STORE_WRITE, &st))
		return 1;
	rc = td_recompute(st, session, dir, threads, &res, &err);
	if (rc)
		tdctl_error("recompute: %s", err.msg);
	else
		printf("session %lld: %lld evaluation%s with %s (%d event%s read, %d not)\n", (long long)session,
		       (long long)res.evaluations, res.evaluations == 1 ? "" : "s",
		       res.events_file ? res.events_file : "no events file", res.events_matched,
		       res.events_matched == 1 ? "" : "s", res.events_unmatched);
	td_recompute_result_free(&res);
	td_store_close(st);
	return rc ? 1 : 0;
}
