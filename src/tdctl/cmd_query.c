/* tdctl query: one read-only SQL statement on the database (opened
 * read-only with PRAGMA query_only); prints a header line and the rows,
 * columns separated by '|', NULL as empty. */
#include <getopt.h>
#include <stdio.h>

#include "tdctl.h"

#define USAGE "usage: tdctl query [-d DB] SQL"

static int print_row(int n, const char *const *names, const char *const *vals, void *ctx)
{
	bool *header = ctx;

	if (!*header) {
		for (int i = 0; i < n; i++)
			printf("%s%s", i ? "|" : "", names[i]);
		putchar('\n');
		*header = true;
	}
	for (int i = 0; i < n; i++)
		printf("%s%s", i ? "|" : "", vals[i] ? vals[i] : "");
	putchar('\n');
	return 0;
}

int cmd_query(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "database", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *db = "topdown.db";
	struct td_store *st;
	bool header = false;
	td_err err;
	int c, rc;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+d:h", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			db = optarg;
			break;
		case 'h':
			printf("%s\n", USAGE);
			return 0;
		default:
			tdctl_error("query: %s", USAGE);
			return 2;
		}
	}
	if (optind != argc - 1) {
		tdctl_error("query: give one SQL statement (quoted); %s", USAGE);
		return 2;
	}
	if (tdctl_open_store(db, TD_STORE_QUERY, &st))
		return 1;
	rc = td_store_query(st, argv[optind], print_row, &header, &err);
	if (rc)
		tdctl_error("query: %s", err.msg);
	td_store_close(st);
	return rc ? 1 : 0;
}
