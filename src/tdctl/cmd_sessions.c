/* tdctl sessions: list the sessions of a database (runs, attaches and
 * imports) with their status, threads or CPUs, intervals and target. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "store/store.h"
#include "tdctl.h"

static int print_row(const struct td_session_row *r, void *ctx)
{
	char when[32];
	time_t t = (time_t)(r->started_ns / 1000000000ull);
	struct tm tm;
	double secs = r->ended_ns > r->started_ns ? (double)(r->ended_ns - r->started_ns) / 1e9 : 0;

	(void)ctx;
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", localtime_r(&t, &tm));
	printf("%4lld  %-6s %-11s %s %8.1f s %4d %s %5d int  %s\n", (long long)r->id, r->kind, r->status, when, secs,
	       r->ncpus ? r->ncpus : r->nthreads, r->ncpus ? "cpu" : "thr", r->nintervals, r->command);
	if (!strcmp(r->status, "interrupted") || !strcmp(r->status, "failed"))
		printf("      %s\n", r->message);
	return 0;
}

int cmd_sessions(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "database", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *db = "topdown.db";
	struct td_store *st;
	td_err err;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "d:h", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			db = optarg;
			break;
		case 'h':
			printf("usage: tdctl sessions [-d DB]\n");
			return 0;
		default:
			tdctl_error("sessions: usage: tdctl sessions [-d DB]");
			return 2;
		}
	}
	/* a listing never creates a database (a typo in -d is an error, not a new file); it
	 * opens an existing one for writing only to mark sessions whose collector died as
	 * interrupted, and reads it anyway where it cannot write */
	if (td_store_open(db, TD_STORE_READ, &st, &err)) {
		tdctl_error("%s", err.msg);
		return 1;
	}
	td_store_close(st);
	if (td_store_open(db, TD_STORE_WRITE, &st, &err) == 0) {
		td_store_recover(st);
		td_store_close(st);
	}
	if (td_store_open(db, TD_STORE_READ, &st, &err)) {
		tdctl_error("%s", err.msg);
		return 1;
	}
	printf("%4s  %-6s %-11s %-19s %10s %8s %9s  %s\n", "ID", "KIND", "STATUS", "STARTED", "DURATION", "THREADS",
	       "INTERVALS", "TARGET");
	int rc = td_store_sessions(st, print_row, NULL);
	if (rc < 0) {
		td_store_describe_error(st, &err);
		tdctl_error("%s", err.msg);
	}
	td_store_close(st);
	return rc < 0 ? 1 : 0;
}
