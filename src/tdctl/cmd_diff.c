/* tdctl diff: two sessions' top-down trees side by side with the change of
 * every node, biggest first (thin over td_report_diff, report/report.h);
 * the report's filters select the same targets and window in both. */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "report/report.h"
#include "report/report_hotspots.h"
#include "tdctl.h"

#define USAGE                                                                                                   \
	"usage: tdctl diff A B [-d DB] [--thread TID | --process PID | --cpu N] [--from T] [--to T] [--format " \
	"text|html] [-o FILE] [--what-if COMPONENT=FACTOR[,...]] [--repeats]\n"                                 \
	"       tdctl diff A B --hotspots [-d DB] [--from T] [--to T] [-o FILE]"

static int run(const char *db, int64_t a, int64_t b, const struct td_report_filter *f, enum td_report_format fmt,
	       const char *events_dir, const char *what_if, const char *path)
{
	struct td_store *st;
	FILE *out;
	td_err err;
	int rc;

	if (tdctl_open_store(db, TD_STORE_READ, &st))
		return 1;
	if (!(out = tdctl_open_output("diff", path))) {
		td_store_close(st);
		return 1;
	}
	if ((rc = td_report_diff(st, a, b, f, fmt, events_dir, what_if, out, &err)))
		tdctl_error("diff: %s", err.msg);
	rc = tdctl_close_output("diff", out, path, rc);
	td_store_close(st);
	return rc ? 1 : 0;
}

int cmd_diff(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "database", required_argument, NULL, 'd' }, { "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },   { "events-dir", required_argument, NULL, 'e' },
		{ "thread", required_argument, NULL, 'T' },   { "process", required_argument, NULL, 'P' },
		{ "cpu", required_argument, NULL, 'C' },      { "from", required_argument, NULL, 'F' },
		{ "to", required_argument, NULL, 'U' },	      { "help", no_argument, NULL, 'h' },
		{ "what-if", required_argument, NULL, 'w' },  { "repeats", no_argument, NULL, 'R' },
		{ "hotspots", no_argument, NULL, 'H' },	      { NULL, 0, NULL, 0 },
	};
	struct td_report_filter filter = { .kind = TD_RF_ALL };
	const char *from = NULL, *to = NULL, *what_if = NULL;
	bool repeats = false, hotspots = false;
	const char *db = "topdown.db", *path = NULL, *events_dir = NULL;
	enum td_report_format fmt = TD_REPORT_TEXT;
	int64_t a, b;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "d:f:o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			db = optarg;
			break;
		case 'f':
			if (!strcmp(optarg, "text"))
				fmt = TD_REPORT_TEXT;
			else if (!strcmp(optarg, "html"))
				fmt = TD_REPORT_HTML;
			else {
				tdctl_error("diff: bad --format '%s': give text or html", optarg);
				return 2;
			}
			break;
		case 'o':
			path = optarg;
			break;
		case 'e':
			events_dir = optarg;
			break;
		case 'T':
		case 'P':
		case 'C':
			if (tdctl_filter_target("diff", c, optarg, &filter))
				return 2;
			break;
		case 'F':
			from = optarg;
			break;
		case 'U':
			to = optarg;
			break;
		case 'w':
			what_if = optarg;
			break;
		case 'R':
			repeats = true;
			break;
		case 'H':
			hotspots = true;
			break;
		case 'h':
			printf("%s\n", USAGE);
			return 0;
		default:
			tdctl_error("diff: %s", USAGE);
			return 2;
		}
	}
	if (argc - optind != 2) {
		tdctl_error("diff: give two sessions; %s", USAGE);
		return 2;
	}
	if (tdctl_session_arg("diff", argv[optind], &a) || tdctl_session_arg("diff", argv[optind + 1], &b) ||
	    tdctl_filter_window("diff", &filter, from, to))
		return 2;
	if (hotspots) {
		struct td_store *st;
		FILE *out;
		td_err err;
		int rc = -1;
		if (repeats || what_if || fmt != TD_REPORT_TEXT || filter.kind != TD_RF_ALL) {
			tdctl_error("diff: --hotspots compares the two sessions' hot functions as text: leave out the "
				    "other options (but -d, -o and --from/--to)");
			return 2;
		}
		if (tdctl_open_store(db, TD_STORE_READ, &st))
			return 1;
		if ((out = tdctl_open_output("diff", path)) != NULL) {
			if ((rc = td_report_hotspots_diff(st, a, b, &filter, 0, out, &err)))
				tdctl_error("diff: %s", err.msg);
			rc = tdctl_close_output("diff", out, path, rc);
		}
		td_store_close(st);
		return rc ? 1 : 0;
	}
	if (repeats) {
		struct td_store *st;
		td_err err;
		int rc;
		if (what_if || fmt != TD_REPORT_TEXT || filter.kind != TD_RF_ALL || filter.window || path) {
			tdctl_error("diff: --repeats compares two repeat groups as text: leave out the other options "
				    "(but -d "
				    "and --events-dir)");
			return 2;
		}
		if (tdctl_open_store(db, TD_STORE_READ, &st))
			return 1;
		if ((rc = td_report_diff_repeats(st, a, b, events_dir, stdout, &err)))
			tdctl_error("diff: %s", err.msg);
		td_store_close(st);
		return rc ? 1 : 0;
	}
	if (what_if && fmt != TD_REPORT_TEXT) {
		tdctl_error("diff: --what-if prints with the text diff: leave out --format");
		return 2;
	}
	return run(db, a, b, &filter, fmt, events_dir, what_if, path);
}
