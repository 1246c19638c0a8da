/* tdctl report: one session as text, CSV, JSON or a self-contained HTML
 * file (thin over src/lib/report.h); parses its options, including the
 * --from/--to time window. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "control/protocol.h"
#include "daemon_client.h"
#include "report/report.h"
#include "report/report_hotspots.h"
#include "tdctl.h"
#include "base/util.h"

#define USAGE                                                                                             \
	"usage: tdctl report [SESSION] [-d DB] [-l LEVEL] [--node PATH] [--thread TID | --process PID | " \
	"--cpu N] [--from T] [--to T] [--format text|csv|json|html] [--intervals] [-o FILE] "             \
	"[--color auto|always|never] [--what-if COMPONENT=FACTOR[,...]] [--repeats] [--socket PATH]\n"    \
	"       tdctl report [SESSION] --hotspots [--thread TID|0] [--from T] [--to T] [--format "        \
	"text|csv|json|folded] "                                                                          \
	"[-o FILE]\n"                                                                                     \
	"       tdctl report --change N [-d DB | --socket PATH]"

static int parse_format(const char *arg, enum td_report_format *fmt)
{
	static const char *const names[] = { "text", "csv", "json", "html" };

	for (int i = 0; i < 4; i++)
		if (!strcmp(arg, names[i])) {
			*fmt = (enum td_report_format)i;
			return 0;
		}
	tdctl_error("report: bad --format '%s': give text, csv, json or html", arg);
	return -1;
}

static int parse_color(const char *arg, int *color)
{
	if (!strcmp(arg, "auto"))
		*color = -1;
	else if (!strcmp(arg, "always"))
		*color = 1;
	else if (!strcmp(arg, "never"))
		*color = 0;
	else {
		tdctl_error("report: bad --color '%s': give auto, always or never", arg);
		return -1;
	}
	return 0;
}

/* The SESSION operand, or the latest session when none is given. */
static int pick_session(struct td_store *st, const char *arg, int64_t *session)
{
	if (arg)
		return tdctl_session_arg("report", arg, session);
	if ((*session = td_store_latest_session(st)) <= 0) {
		tdctl_error("report: the database has no session: record one with 'tdctl run' or 'tdctl import'");
		return -1;
	}
	return 0;
}

/* What run() renders of a session. */
enum what {
	WHAT_TREE,
	WHAT_REPEATS,
	WHAT_HOTSPOTS,
	WHAT_FOLDED
};

/* The session arg names (the latest without one) of database db, rendered
 * to path (stdout without one): its tree (report.h), its repeats'
 * statistics, or its hot functions (report_hotspots.h), as text or folded
 * stacks. 0, or 1 after a one-line error. */
static int run(const char *db, const char *arg, struct td_report_opts *o, int color, const char *path, enum what w)
{
	struct td_hotspots_opts ho = { .format = o->format,
				       .folded = w == WHAT_FOLDED,
				       .per_thread = o->filter.kind == TD_RF_THREAD,
				       .tid = o->filter.kind == TD_RF_THREAD ? o->filter.id : 0,
				       .window = &o->filter };
	struct td_store *st;
	FILE *out;
	int64_t session;
	td_err err;
	int rc = -1;

	if (tdctl_open_store(db, TD_STORE_READ, &st))
		return 1;
	if (pick_session(st, arg, &session))
		goto done;
	if (!(out = tdctl_open_output("report", path)))
		goto done;
	o->color = o->format == TD_REPORT_TEXT && (color == 1 || (color == -1 && isatty(fileno(out))));
	o->db_path = db;
	if (w == WHAT_HOTSPOTS || w == WHAT_FOLDED)
		rc = td_report_hotspots(st, session, &ho, out, &err);
	else if (w == WHAT_REPEATS)
		rc = td_report_repeats(st, session, o->events_dir, out, &err);
	else
		rc = td_report(st, session, o, out, &err);
	if (rc)
		tdctl_error("report: %s", err.msg);
	rc = tdctl_close_output("report", out, path, rc);
done:
	td_store_close(st);
	return rc ? 1 : 0;
}

/* --socket: topdownd reads its database (one a user cannot open) and
 * answers with the sessions of theirs, as text or JSON. */
static int through_daemon(const char *sock, const char *arg, const struct td_report_opts *o, bool repeats)
{
	struct td_request r = { .op = TD_OP_REPORT, .id = 1 };
	json_t *rep, *report;
	td_err err;

	if (!arg) {
		tdctl_error("report: --socket needs the SESSION ('tdctl sessions' or 'tdctl list' shows them)");
		return 2;
	}
	if ((o->format != TD_REPORT_TEXT && o->format != TD_REPORT_JSON) || repeats || o->what_if || o->node ||
	    o->level || o->intervals || o->filter.kind != TD_RF_ALL || o->filter.window) {
		tdctl_error(
			"report: through topdownd only the whole session as text or JSON: leave out the other options");
		return 2;
	}
	if (tdctl_session_arg("report", arg, &r.session))
		return 2;
	snprintf(r.format, sizeof(r.format), "%s", o->format == TD_REPORT_JSON ? "json" : "text");
	if (!(rep = tdctl_daemon_request(sock, &r, &err))) {
		tdctl_error("report: %s", err.msg);
		return 1;
	}
	report = json_object_get(rep, "report");
	if (json_is_string(report)) {
		fputs(json_string_value(report), stdout);
	} else {
		char *text = json_dumps(report, JSON_COMPACT);
		if (text)
			printf("%s\n", text);
		free(text);
	}
	json_decref(rep);
	return 0;
}

struct change_find {
	long n;
	json_t *found;
};

static int change_found(void *ctx, const struct td_store_change *c)
{
	struct change_find *f = ctx;

	if (c->id != f->n)
		return 0;
	f->found =
		json_pack("{s:I, s:s, s:s, s:s, s:f, s:i, s:i, s:I}", "change", (json_int_t)c->id, "group", c->workload,
			  "node", c->node, "kind", c->threshold ? "threshold" : "moved", "after", c->after, "n_before",
			  c->n_before, "n_after", c->n_after, "session", (json_int_t)c->session);
	if (f->found) {
		const int seqs[4] = { c->before_first, c->before_last, c->after_first, c->after_last };
		/* not known: null, as topdownd's reply */
		json_object_set_new(f->found, "before", isnan(c->before) ? json_null() : json_real(c->before));
		json_object_set_new(f->found, "p", isnan(c->p) ? json_null() : json_real(c->p));
		json_object_set_new(f->found, "drill_session", c->drill ? json_integer(c->drill) : json_null());
		for (int k = 0; k < 4; k++)
			json_object_set_new(f->found, td_change_seq_keys[k],
					    seqs[k] >= 0 ? json_integer(seqs[k]) : json_null());
	}
	return 1;
}

/* Change n as the database holds it, wrapped as topdownd's reply; NULL after
 * a one-line error. */
static json_t *change_from_db(const char *db, long n)
{
	struct change_find f = { .n = n };
	struct td_store *st;
	json_t *rep;

	if (tdctl_open_store(db, TD_STORE_READ, &st))
		return NULL;
	if (td_store_changes(st, change_found, &f) < 0) {
		td_err err;
		td_store_describe_error(st, &err);
		tdctl_error("report: reading the changes of %s: %s", db, err.msg);
		td_store_close(st);
		return NULL;
	}
	td_store_close(st);
	rep = json_pack("{s:[]}", "changes");
	if (rep && f.found)
		json_array_append_new(json_object_get(rep, "changes"), f.found);
	return rep;
}

/* The trees of change ch's watch session over its baseline and over its
 * latest window, side by side, from database db (NULL: not readable here:
 * a line says so); nothing for a change stored without its intervals. */
static void change_trees(const char *db, json_t *ch, const struct td_report_opts *o)
{
	int seqs[4];
	struct td_store *st;
	td_err err;

	for (int k = 0; k < 4; k++) {
		json_t *v = json_object_get(ch, td_change_seq_keys[k]);
		if (!json_is_integer(v)) {
			printf("(no trees before and after: the change was stored without its intervals, before "
			       "schema version 12)\n\n");
			return;
		}
		seqs[k] = (int)json_integer_value(v);
	}
	if (!db) {
		printf("(the trees before and after: give -d DB, the daemon's database, to read them)\n\n");
		return;
	}
	if (tdctl_open_store(db, TD_STORE_READ, &st))
		return;
	if (td_report_change_trees(st, json_integer_value(json_object_get(ch, "session")), seqs, o->events_dir, stdout,
				   &err))
		printf("(no trees before and after: %s)\n", err.msg);
	td_store_close(st);
	putchar('\n');
}

/* Did the drill-down session (arg) of database db sample hotspots
 * (topdownd's [watch] drill_hotspots)? */
static bool drill_sampled(const char *db, const char *arg)
{
	struct td_sampling_row row;
	struct td_store *st;
	long session;
	bool any;
	td_err err;

	if (td_parse_long(arg, 1, 0x7fffffffffffffffL, &session) || td_store_open(db, TD_STORE_READ, &st, &err))
		return false;
	any = td_store_sampling(st, session, &row) == 1 && row.samples > 0;
	td_store_close(st);
	return any;
}

/* --change N: watch mode's change N as the database holds it (or as
 * topdownd keeps it, with --socket), its watch session's trees over the
 * baseline and the latest window it was decided on (from the database),
 * then its drill-down session's report. */
static int run_change(const char *db, const char *trees_db, const char *sock, const char *arg, struct td_report_opts *o,
		      int color)
{
	struct td_request r = { .op = TD_OP_CHANGES, .id = 1, .limit = 100000 };
	json_t *rep, *ch, *found = NULL;
	char drill[32];
	long n;
	size_t i;
	td_err err;
	int rc;

	if (td_parse_long(arg, 1, 0x7fffffffL, &n)) {
		tdctl_error("report: bad --change '%s': give a change's number ('tdctl changes' lists them)", arg);
		return 2;
	}
	if (!sock) {
		if (!(rep = change_from_db(db, n)))
			return 1;
	} else if (!(rep = tdctl_daemon_request(tdctl_daemon_socket(sock), &r, &err))) {
		tdctl_error("report: %s", err.msg);
		return 1;
	}
	json_array_foreach(json_object_get(rep, "changes"), i, ch)
	{
		if (json_integer_value(json_object_get(ch, "change")) == n)
			found = ch;
	}
	if (!found || !json_is_integer(json_object_get(found, "drill_session"))) {
		tdctl_error(found ? "report: change %ld started no drill-down session (topdownd's log says why)"
				  : "report: no change %ld was found: 'tdctl changes' lists them",
			    n);
		json_decref(rep);
		return 1;
	}
	const char *kind = json_string_value(json_object_get(found, "kind"));
	char before[32] = "n/a", p[32] = "n/a";
	if (json_is_number(json_object_get(found, "before")))
		snprintf(before, sizeof(before), "%.1f%%", 100 * json_number_value(json_object_get(found, "before")));
	if (json_is_number(json_object_get(found, "p")))
		snprintf(p, sizeof(p), "%.2g", json_number_value(json_object_get(found, "p")));
	printf("change %ld: %s %s %s from %s to %.1f%% (medians of %lld and %lld intervals, p = %s), "
	       "watch session %lld; drill-down session %lld\n\n",
	       n, json_string_value(json_object_get(found, "group")), json_string_value(json_object_get(found, "node")),
	       kind && !strcmp(kind, "threshold") ? "went over its threshold" : "moved", before,
	       100 * json_number_value(json_object_get(found, "after")),
	       (long long)json_integer_value(json_object_get(found, "n_before")),
	       (long long)json_integer_value(json_object_get(found, "n_after")), p,
	       (long long)json_integer_value(json_object_get(found, "session")),
	       (long long)json_integer_value(json_object_get(found, "drill_session")));
	snprintf(drill, sizeof(drill), "%lld", (long long)json_integer_value(json_object_get(found, "drill_session")));
	change_trees(trees_db, found, o);
	printf("drill-down session %s:\n\n", drill);
	json_decref(rep);
	fflush(stdout);
	rc = sock ? through_daemon(sock, drill, o, false) : run(db, drill, o, color, NULL, WHAT_TREE);
	if (rc == 0 && trees_db && drill_sampled(trees_db, drill)) {
		printf("\ndrill-down session %s's hotspots:\n\n", drill);
		fflush(stdout);
		rc = run(trees_db, drill, o, color, NULL, WHAT_HOTSPOTS);
	}
	return rc;
}

int cmd_report(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "database", required_argument, NULL, 'd' },	{ "level", required_argument, NULL, 'l' },
		{ "node", required_argument, NULL, 'n' },	{ "thread", required_argument, NULL, 'T' },
		{ "process", required_argument, NULL, 'P' },	{ "cpu", required_argument, NULL, 'C' },
		{ "format", required_argument, NULL, 'f' },	{ "intervals", no_argument, NULL, 'i' },
		{ "output", required_argument, NULL, 'o' },	{ "color", required_argument, NULL, 'c' },
		{ "events-dir", required_argument, NULL, 'e' }, { "from", required_argument, NULL, 'F' },
		{ "to", required_argument, NULL, 'U' },		{ "help", no_argument, NULL, 'h' },
		{ "what-if", required_argument, NULL, 'w' },	{ "socket", required_argument, NULL, 's' },
		{ "repeats", no_argument, NULL, 'R' },		{ "hotspots", no_argument, NULL, 'H' },
		{ "change", required_argument, NULL, 'K' },	{ NULL, 0, NULL, 0 },
	};
	struct td_report_opts o = { .format = TD_REPORT_TEXT };
	const char *db = "topdown.db", *path = NULL, *from = NULL, *to = NULL, *sock = NULL, *change = NULL;
	int c, color = -1;
	bool repeats = false, hotspots = false, folded = false, db_given = false;
	long v;

	optind = 1;
	while ((c = getopt_long(argc, argv, "d:l:f:o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			db = optarg;
			db_given = true;
			break;
		case 'l':
			if (td_parse_long(optarg, 1, 9, &v)) {
				tdctl_error("report: bad --level '%s': give 1 to 9", optarg);
				return 2;
			}
			o.level = (int)v;
			break;
		case 'n':
			o.node = optarg;
			break;
		case 'T':
		case 'P':
		case 'C':
			if (tdctl_filter_target("report", c, optarg, &o.filter))
				return 2;
			break;
		case 'f':
			if (!strcmp(optarg, "folded"))
				folded = true; /* --hotspots only */
			else if (parse_format(optarg, &o.format))
				return 2;
			break;
		case 'i':
			o.intervals = true;
			break;
		case 'o':
			path = optarg;
			break;
		case 'c':
			if (parse_color(optarg, &color))
				return 2;
			break;
		case 'e':
			o.events_dir = optarg;
			break;
		case 'F':
			from = optarg;
			break;
		case 'U':
			to = optarg;
			break;
		case 'w':
			o.what_if = optarg;
			break;
		case 'R':
			repeats = true;
			break;
		case 'H':
			hotspots = true;
			break;
		case 's':
			sock = optarg;
			break;
		case 'K':
			change = optarg;
			break;
		case 'h':
			printf("%s\n", USAGE);
			return 0;
		default:
			tdctl_error("report: %s", USAGE);
			return 2;
		}
	}
	if (optind < argc - 1) {
		tdctl_error("report: one SESSION only; %s", USAGE);
		return 2;
	}
	if (tdctl_filter_window("report", &o.filter, from, to))
		return 2;
	if (o.what_if && o.format != TD_REPORT_TEXT) {
		tdctl_error("report: --what-if prints with the text report: leave out --format");
		return 2;
	}
	if (o.format == TD_REPORT_HTML && !path) {
		tdctl_error("report: --format html writes a file: give -o FILE");
		return 2;
	}
	if (repeats && (o.format != TD_REPORT_TEXT || o.what_if || o.node || o.filter.kind != TD_RF_ALL ||
			o.filter.window || o.intervals)) {
		tdctl_error("report: --repeats prints its statistics as text, of the whole sessions: leave out the "
			    "other options (but -d and --events-dir)");
		return 2;
	}
	if (hotspots && (repeats || sock || o.what_if || o.node || o.level || o.intervals ||
			 (o.filter.kind != TD_RF_ALL && o.filter.kind != TD_RF_THREAD) || o.format == TD_REPORT_HTML)) {
		tdctl_error("report: --hotspots reports the session's samples as text, CSV or JSON, per thread "
			    "with --thread, of a time window with --from/--to: leave out the other options (but -d, -o "
			    "and --format)");
		return 2;
	}
	if (folded && !hotspots) {
		tdctl_error("report: --format folded gives the call stacks of --hotspots: add --hotspots");
		return 2;
	}
	if (change && (optind < argc || hotspots || repeats || path || o.what_if || o.node || o.level || o.intervals ||
		       o.filter.kind != TD_RF_ALL || o.filter.window || o.format != TD_REPORT_TEXT)) {
		tdctl_error("report: --change N reports a change and its drill-down session as text: leave out SESSION "
			    "and the other options (but -d or --socket)");
		return 2;
	}
	if (change)
		return run_change(db, sock && !db_given ? NULL : db, sock, change, &o, color);
	if (sock)
		return through_daemon(sock, optind < argc ? argv[optind] : NULL, &o, repeats);
	return run(db, optind < argc ? argv[optind] : NULL, &o, color, path,
		   hotspots  ? (folded ? WHAT_FOLDED : WHAT_HOTSPOTS)
		   : repeats ? WHAT_REPEATS
			     : WHAT_TREE);
}
