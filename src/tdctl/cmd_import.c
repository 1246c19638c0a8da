/* tdctl import: read perf stat -x output into a new session (kind import)
 * with its counts and the metrics computed from them. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "import/import.h"
#include "import/import_perf_script.h"
#include "machine/pmu.h"
#include "tdctl.h"

#define USAGE                                                                                                      \
	"usage: tdctl import [--pmu MODEL] [-d DB] [--smt on|off] [--events-dir DIR] [--no-metrics] [-q] FILE|-\n" \
	"       tdctl import --perf-script [-d DB] [-q] FILE|-   (perf script -F comm,pid,tid,time,event,ip,sym,dso)"

/* --perf-script: perf script's samples as a session's hotspots. */
static int import_perf_script(const char *db, const char *path, bool quiet)
{
	struct td_perf_script_result res;
	struct td_store *st;
	td_err err;
	int rc;

	if (tdctl_open_store(db, TD_STORE_WRITE, &st))
		return 1;
	rc = td_import_perf_script(st, path, &res, &err);
	if (rc)
		tdctl_error("import: %s", err.msg);
	else if (!quiet)
		fprintf(stderr,
			"tdctl: session %lld: %llu samples of %s from %d lines (%d skipped); 'tdctl report %lld "
			"--hotspots' shows them\n",
			(long long)res.session, (unsigned long long)res.samples, res.event, res.lines, res.skipped,
			(long long)res.session);
	td_store_close(st);
	return rc ? 1 : 0;
}

static int parse_smt(const char *arg, int *smt)
{
	if (!strcmp(arg, "on"))
		*smt = 1;
	else if (!strcmp(arg, "off"))
		*smt = 0;
	else {
		tdctl_error("import: bad --smt '%s': give on or off", arg);
		return -1;
	}
	return 0;
}

static void report(const struct td_import_opts *o, const struct td_import_result *r)
{
	printf("imported %s as session %lld: %d of %d lines used, %d skipped; %d interval%s, %d target%s, %d event%s\n",
	       o->path, (long long)r->session, r->used, r->lines, r->skipped, r->intervals,
	       r->intervals == 1 ? "" : "s", r->targets, r->targets == 1 ? "" : "s", r->events,
	       r->events == 1 ? "" : "s");
	if (o->no_metrics) {
		printf("metrics: not stored (--no-metrics): reports compute them from the counts; 'tdctl recompute "
		       "%lld' "
		       "stores them\n",
		       (long long)r->session);
		return;
	}
	printf("metrics: %s (PMU model %s) reads %d of the events; %lld evaluation%s written\n",
	       r->metrics.events_file ? r->metrics.events_file : "no events file", o->pmu_model,
	       r->metrics.events_matched, (long long)r->metrics.evaluations, r->metrics.evaluations == 1 ? "" : "s");
	if (r->metrics.events_unmatched)
		printf("not read by %s: %s\n", r->metrics.events_file, r->metrics.unmatched);
}

int cmd_import(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "pmu", required_argument, NULL, 'p' },
		{ "database", required_argument, NULL, 'd' },
		{ "smt", required_argument, NULL, 's' },
		{ "events-dir", required_argument, NULL, 'E' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "no-metrics", no_argument, NULL, 'M' },
		{ "help", no_argument, NULL, 'h' },
		{ "perf-script", no_argument, NULL, 'S' },
		{ NULL, 0, NULL, 0 },
	};
	struct td_import_opts o = { .smt = -1, .diag = stderr };
	struct td_import_result res;
	struct td_caps caps;
	const char *db = "topdown.db";
	struct td_store *st;
	bool quiet = false, perf_script = false;
	td_err err;
	int c, rc;

	optind = 1;
	while ((c = getopt_long(argc, argv, "d:qh", opts, NULL)) != -1) {
		switch (c) {
		case 'p':
			o.pmu_model = optarg;
			break;
		case 'd':
			db = optarg;
			break;
		case 's':
			if (parse_smt(optarg, &o.smt))
				return 2;
			break;
		case 'E':
			o.events_dir = optarg;
			break;
		case 'q':
			quiet = true;
			break;
		case 'M':
			o.no_metrics = true;
			break;
		case 'S':
			perf_script = true;
			break;
		case 'h':
			printf("%s\n", USAGE);
			return 0;
		default:
			tdctl_error("import: %s", USAGE);
			return 2;
		}
	}
	if (optind != argc - 1) {
		tdctl_error("import: give exactly one FILE; %s", USAGE);
		return 2;
	}
	o.path = argv[optind];
	if (perf_script && (o.pmu_model || o.smt >= 0 || o.events_dir || o.no_metrics)) {
		tdctl_error(
			"import: --perf-script reads samples: leave out --pmu, --smt, --events-dir and --no-metrics");
		return 2;
	}
	if (perf_script)
		return import_perf_script(db, o.path, quiet);
	if (!o.pmu_model) {
		td_caps_detect(&caps);
		o.pmu_model = caps.pfm_model;
	}
	if (tdctl_open_store(db, TD_STORE_WRITE, &st))
		return 1;
	rc = td_import(st, &o, &res, &err);
	if (rc)
		tdctl_error("import: %s", err.msg);
	else if (!quiet)
		report(&o, &res);
	td_recompute_result_free(&res.metrics);
	td_store_close(st);
	return rc ? 1 : 0;
}
