/* tdctl export: a session's raw counts and metric values as CSV or JSON
 * (columns: src/lib/export.h, man tdctl). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "report/export.h"
#include "tdctl.h"

#define USAGE "usage: tdctl export SESSION [-d DB] --format csv|json [-o FILE]"

static int parse_format(const char *arg, enum td_export_format *fmt)
{
	if (!strcmp(arg, "csv"))
		*fmt = TD_EXPORT_CSV;
	else if (!strcmp(arg, "json"))
		*fmt = TD_EXPORT_JSON;
	else {
		tdctl_error("export: bad --format '%s': give csv or json", arg);
		return -1;
	}
	return 0;
}

static int run(const char *db, int64_t session, enum td_export_format fmt, const char *path)
{
	struct td_store *st;
	FILE *out;
	td_err err;
	int rc;

	if (tdctl_open_store(db, TD_STORE_READ, &st))
		return 1;
	if (!(out = tdctl_open_output("export", path))) {
		td_store_close(st);
		return 1;
	}
	if ((rc = td_export(st, session, fmt, out, &err)))
		tdctl_error("export: %s", err.msg);
	rc = tdctl_close_output("export", out, path, rc);
	td_store_close(st);
	return rc ? 1 : 0;
}

int cmd_export(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "database", required_argument, NULL, 'd' },
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *db = "topdown.db", *path = NULL;
	enum td_export_format fmt = TD_EXPORT_CSV;
	bool have_fmt = false;
	int64_t session;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "d:f:o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			db = optarg;
			break;
		case 'f':
			if (parse_format(optarg, &fmt))
				return 2;
			have_fmt = true;
			break;
		case 'o':
			path = optarg;
			break;
		case 'h':
			printf("%s\n", USAGE);
			return 0;
		default:
			tdctl_error("export: %s", USAGE);
			return 2;
		}
	}
	if (!have_fmt) {
		tdctl_error("export: no --format: give --format csv or --format json");
		return 2;
	}
	if (optind < argc - 1) {
		tdctl_error("export: one SESSION only; %s", USAGE);
		return 2;
	}
	if (tdctl_session_arg("export", optind < argc ? argv[optind] : NULL, &session))
		return 2;
	return run(db, session, fmt, path);
}
