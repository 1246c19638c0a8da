/* Options shared by `tdctl run` and `tdctl attach`, and the code both use to
 * run a session and print its summary. */
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "session/sampler_priority.h"
#include "collect/perf_group.h"
#include "session/session.h"
#include "store/store.h"
#include "report/summary.h"
#include "tdctl.h"
#include "collect/counting.h"
#include "collect/kernel_types.h"
#include "collect/tracker.h"

/* -q: notes are not said; warnings always are. */
static bool quiet;

/* What the session says goes to stderr as "tdctl: [note: ]LINE". */
static void say(void *ctx, enum td_say kind, const char *line)
{
	(void)ctx;
	if (kind == TD_SAY_WARNING)
		fprintf(stderr, "tdctl: %s\n", line);
	else if (!quiet)
		fprintf(stderr, "tdctl: note: %s\n", line);
}

/* arg as a number from lo to hi into *out; otherwise say fmt (its %s: arg) and -1. */
static int int_arg(const char *arg, long lo, long hi, int *out, const char *fmt) __attribute__((format(printf, 5, 0)));
static int int_arg(const char *arg, long lo, long hi, int *out, const char *fmt)
{
	long v;

	if (td_parse_long(arg, lo, hi, &v)) {
		tdctl_error(fmt, arg);
		return -1;
	}
	*out = (int)v;
	return 0;
}

/* A non-empty arg into *out; otherwise say if_empty and -1. */
static int text_arg(const char *arg, const char **out, const char *if_empty)
{
	if (!*arg) {
		tdctl_error("%s", if_empty);
		return -1;
	}
	*out = arg;
	return 0;
}

/* --tracker=auto|bpf|proc (or TD_TRACKER=...) into *out; otherwise say so and -1. */
static int tracker_arg(const char *arg, const char *as, enum td_tracker_mode *out)
{
	if (!strcmp(arg, "auto"))
		*out = TD_TRACKER_AUTO;
	else if (!strcmp(arg, "bpf"))
		*out = TD_TRACKER_BPF;
	else if (!strcmp(arg, "proc"))
		*out = TD_TRACKER_PROC;
	else {
		tdctl_error("bad '%s%s': give auto (BPF where it loads, else /proc), bpf or proc", as, arg);
		return -1;
	}
	return 0;
}

/* --counting=auto|bpf|per-thread (or TD_COUNTING=...) into *out; otherwise say so and -1. */
static int counting_arg(const char *arg, const char *as, enum td_counting_mode *out)
{
	if (td_counting_mode_parse(arg, out) == 0)
		return 0;
	tdctl_error("bad '%s%s': give auto (BPF where it loads, else per-thread groups), bpf or per-thread", as, arg);
	return -1;
}

/* Where tdctl keeps this boot's switch costs (session_cost_cache.c):
 * $TD_SWITCH_COST_CACHE (empty: nowhere), else /run/tdctl-switch-cost for
 * root (a tmpfs: gone with the boot; not in /run/topdown, topdownd's socket
 * directory, which a first run would otherwise make 0700 before the daemon,
 * shutting its users out), else $XDG_RUNTIME_DIR's, else nowhere. */
static const char *switch_cost_cache_path(void)
{
	static char path[4096];
	const char *env = getenv("TD_SWITCH_COST_CACHE"), *run = getenv("XDG_RUNTIME_DIR");

	if (env)
		return *env ? env : NULL;
	if (geteuid() == 0)
		return "/run/tdctl-switch-cost";
	if (run && *run == '/' && snprintf(path, sizeof(path), "%s/topdown-switch-cost", run) < (int)sizeof(path))
		return path;
	return NULL;
}

/* Where tdctl keeps this boot's kernel types file (kernel_types.h):
 * $TD_KERNEL_TYPES_CACHE (a directory; empty: nowhere), else /run for root
 * (a tmpfs), else $XDG_RUNTIME_DIR, else nowhere. */
static const char *kernel_types_dir(void)
{
	const char *env = getenv("TD_KERNEL_TYPES_CACHE"), *run = getenv("XDG_RUNTIME_DIR");

	if (env)
		return env;
	if (geteuid() == 0)
		return "/run";
	return run && *run == '/' ? run : NULL;
}

const char *tdctl_kernel_types_dir(void)
{
	return kernel_types_dir();
}

void tdctl_kernel_types(const struct td_session_opts *o)
{
	const char *take = getenv("TD_KERNEL_TYPES_TAKE");

	if (o->tracker == TD_TRACKER_PROC && o->counting == TD_COUNTING_PER_THREAD)
		return; /* no BPF object */
	/* taken at the BPF object's load only where what the start saves outweighs what the
	 * raw_tp programs add to the machine's switches over the session, at the rate it
	 * switches meanwhile: never for an open-ended one (TD_KERNEL_TYPES_TAKE=always: any
	 * session; the tests' way to the file whatever the machine does meanwhile) */
	td_kernel_types_offer(kernel_types_dir(), o->duration_ms / 1000.0, take && !strcmp(take, "always"));
}

void tdctl_kernel_types_note(void)
{
	const char *said = td_kernel_types_said();

	if (said[0] && !quiet)
		fprintf(stderr,
			"tdctl: note: this boot's kernel types file was not made (%s): each start parses the kernel's "
			"BTF (see 'tdctl doctor')\n",
			said);
}

/* --tracker and --counting given on the command line by the last parse (not
 * from TD_TRACKER / TD_COUNTING): what an attach through topdownd refuses. */
static bool given_tracker, given_counting;

bool tdctl_collect_mode_given(void)
{
	return given_tracker || given_counting;
}

int tdctl_parse_collect_opts(int argc, char **argv, const char *usage, bool attach, struct td_session_opts *o)
{
	static const struct option opts[] = {
		{ "interval", required_argument, NULL, 'I' },
		{ "database", required_argument, NULL, 'd' },
		{ "duration", required_argument, NULL, 'D' },
		{ "events-dir", required_argument, NULL, 'E' },
		{ "scan-ms", required_argument, NULL, 'S' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "max-age", required_argument, NULL, 'a' },
		{ "max-size", required_argument, NULL, 'z' },
		{ "counters", required_argument, NULL, 'n' },
		{ "rotate", required_argument, NULL, 'o' },
		{ "level", required_argument, NULL, 'l' },
		{ "nodes", required_argument, NULL, 'N' },
		{ "pmu", required_argument, NULL, 'p' },
		{ "system", no_argument, NULL, 'y' },
		{ "cgroup", required_argument, NULL, 'g' },
		{ "thread-metrics", no_argument, NULL, 'T' },
		{ "children", no_argument, NULL, 'C' },
		{ "cpus", required_argument, NULL, 'U' },
		{ "event", required_argument, NULL, 'e' },
		{ "repeat", required_argument, NULL, 'r' },
		{ "warmup", required_argument, NULL, 'W' },
		{ "tracker", required_argument, NULL, 'K' },
		{ "no-priority", no_argument, NULL, 'P' },
		{ "counting", required_argument, NULL, 'B' },
		{ "bpf-map-entries", required_argument, NULL, 'M' },
		{ "hotspots", optional_argument, NULL, 'H' },
		{ "hotspots-hz", required_argument, NULL, 'F' },
		{ "unlisted", required_argument, NULL, 'L' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool tracker_given = false, counting_given = false;
	long v;
	int c;

	memset(o, 0, sizeof(*o));
	o->db_path = "topdown.db";
	o->say = say;
	o->interval_ms = 1000;
	o->scan_ms = 0; /* the session chooses (session_loop.c: the interval with BPF, else TD_TRACKER_SCAN_MS) */
	/* TD_TRACKER sets the default, so that a test suite can run everything with either backend */
	if (getenv("TD_TRACKER") && tracker_arg(getenv("TD_TRACKER"), "TD_TRACKER=", &o->tracker))
		return -1;
	o->bpf_map_entries = TD_BPF_MAP_ENTRIES_DEFAULT;
	o->switch_cost_cache = switch_cost_cache_path();
	/* TD_COUNTING likewise for the counting mode */
	if (getenv("TD_COUNTING") && counting_arg(getenv("TD_COUNTING"), "TD_COUNTING=", &o->counting))
		return -1;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+I:d:l:e:r:qh", opts, NULL)) != -1) {
		switch (c) {
		case 'I':
			if (int_arg(optarg, 10, 3600000, &o->interval_ms,
				    "bad interval '-I %s': give milliseconds between 10 and 3600000"))
				return -1;
			break;
		case 'd':
			if (text_arg(optarg, &o->db_path, "empty database path: give -d FILE"))
				return -1;
			break;
		case 'D': {
			char *end;
			double secs = strtod(optarg, &end);
			if (*end || !(secs > 0) || secs > 31536000) {
				tdctl_error("bad duration '--duration %s': give seconds, e.g. --duration 10", optarg);
				return -1;
			}
			o->duration_ms = (int)(secs * 1000);
			if (o->duration_ms < 1)
				o->duration_ms = 1;
			break;
		}
		case 'E':
			o->events_dir = optarg;
			break;
		case 'S':
			if (int_arg(optarg, 1, 10000, &o->scan_ms,
				    "bad '--scan-ms %s': give milliseconds between 1 and 10000"))
				return -1;
			break;
		case 'q':
			quiet = true;
			break;
		case 'a':
			if (tdctl_parse_age("--max-age", optarg, &o->max_age_ns))
				return -1;
			break;
		case 'z':
			if (tdctl_parse_size("--max-size", optarg, &o->max_bytes))
				return -1;
			break;
		case 'n':
			if (td_parse_long(optarg, 1, TD_GROUP_MAX, &v)) {
				tdctl_error("bad '--counters %s': give the events per group, 1 to %d", optarg,
					    TD_GROUP_MAX);
				return -1;
			}
			o->counters = (int)v;
			break;
		case 'o':
			if (int_arg(optarg, 1, 3600000, &o->rotate_ms,
				    "bad '--rotate %s': give milliseconds between 1 and 3600000"))
				return -1;
			break;
		case 'l':
			if (int_arg(optarg, 1, 9, &o->level, "bad level '-l %s': give a tree level from 1 to 9"))
				return -1;
			break;
		case 'N':
			if (text_arg(optarg, &o->nodes, "empty node list: give --nodes NODE[,NODE...]"))
				return -1;
			break;
		case 'p':
			if (text_arg(optarg, &o->pmu_model,
				     "empty PMU model: give --pmu MODEL (e.g. skl; 'tdctl events --pmu' lists them)"))
				return -1;
			break;
		case 'y':
			if (attach) {
				tdctl_error("--system is an option of 'tdctl record': use 'tdctl record --system'");
				return -1;
			}
			o->system = true;
			break;
		case 'g':
			if (attach || !*optarg) {
				tdctl_error(attach ? "--cgroup is an option of 'tdctl record': use 'tdctl record "
						     "--cgroup PATH'"
						   : "empty cgroup path: give --cgroup PATH");
				return -1;
			}
			o->cgroup = optarg;
			break;
		case 'T':
			o->thread_metrics = true;
			break;
		case 'r':
			if (int_arg(optarg, 1, 1000, &o->repeats,
				    "bad '-r %s': give the number of measured runs, 1 to 1000"))
				return -1;
			break;
		case 'W':
			if (int_arg(optarg, 0, 1000, &o->warmups,
				    "bad '--warmup %s': give the runs to discard first, 0 to 1000"))
				return -1;
			break;
		case 'e':
			if (text_arg(optarg, &o->extra_events, "empty event list: give -e EVENT[,EVENT...]"))
				return -1;
			break;
		case 'U':
			if (attach || !*optarg) {
				tdctl_error(attach ? "--cpus is an option of 'tdctl record': use 'tdctl record "
						     "--system --cpus LIST'"
						   : "empty CPU list: give --cpus LIST, e.g. 0-3,6");
				return -1;
			}
			o->cpus = optarg;
			break;
		case 'C':
			if (!attach) {
				tdctl_error(
					"--children is an option of 'tdctl attach' (run follows every child already)");
				return -1;
			}
			o->attach_children = true;
			break;
		case 'K':
			if (tracker_arg(optarg, "--tracker=", &o->tracker))
				return -1;
			tracker_given = true;
			break;
		case 'P':
			o->no_priority = true;
			break;
		case 'L':
			if (!strcmp(optarg, "on") || !strcmp(optarg, "off")) {
				o->unlisted_off = !strcmp(optarg, "off");
				break;
			}
			tdctl_error(
				"bad '--unlisted=%s': give on (count what threads too short to be listed ran) or off "
				"(count the listed threads only, as perf stat -p does)",
				optarg);
			return -1;
		case 'B':
			if (counting_arg(optarg, "--counting=", &o->counting))
				return -1;
			counting_given = true;
			break;
		case 'M':
			if (int_arg(optarg, 1, TD_BPF_MAP_ENTRIES_MAX, &o->bpf_map_entries,
				    "bad '--bpf-map-entries %s': give the number of threads the BPF sums map holds, 1 "
				    "to 4194304"))
				return -1;
			break;
		case 'H':
			o->hotspots = optarg ? optarg : "";
			break;
		case 'F':
			if (int_arg(optarg, 1, 10000, &o->hotspots_hz,
				    "bad '--hotspots-hz %s': give samples a second per busy CPU, 1 to 10000"))
				return -1;
			break;
		case 'h':
			printf("%s", usage);
			exit(0);
		default:
			fprintf(stderr, "%s", usage);
			return -1;
		}
	}
	given_tracker = tracker_given;
	given_counting = counting_given;
	if (tracker_given && (o->system || o->cgroup)) {
		tdctl_error("--tracker chooses how the threads of a process are found: record --system and --cgroup "
			    "count CPUs, not threads; leave it out");
		return -1;
	}
	if (counting_given && o->system) {
		tdctl_error(
			"--counting chooses how the threads of a process (or a cgroup) are counted: record --system "
			"counts CPUs; leave it out");
		return -1;
	}
	if (o->cpus && !o->system && !o->cgroup) {
		tdctl_error("--cpus chooses CPUs of --system or --cgroup: give one of them too");
		return -1;
	}
	if ((o->repeats || o->warmups) && (attach || o->system || o->cgroup)) {
		tdctl_error("-r and --warmup repeat a command: they are options of 'tdctl run'");
		return -1;
	}
	if (o->hotspots_hz && !o->hotspots) {
		tdctl_error("--hotspots-hz sets the rate of --hotspots: give --hotspots too");
		return -1;
	}
	if (o->hotspots && o->system) {
		tdctl_error("--hotspots samples a process or a cgroup: give it to 'tdctl run', 'tdctl attach' or "
			    "'tdctl record --cgroup', not with --system");
		return -1;
	}
	if (o->level && o->nodes) {
		tdctl_error("give -l LEVEL or --nodes LIST, not both");
		return -1;
	}
	return optind;
}

void tdctl_priority_raise(struct td_session_opts *o, struct td_sampler_priority *p)
{
	memset(p, 0, sizeof(*p));
	if (o->no_priority)
		return;
	td_sampler_priority_raise(p);
	o->priority_said = p->said; /* the session says it at its end (an error stays one line) */
}

/* The whole process's CPU time so far (user + system of every thread). */
static uint64_t self_cpu_ns(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru))
		return 0;
	return (uint64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000u +
	       (uint64_t)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000u;
}

/* TD_DEBUG_SUMMARY: what keeping the summary's totals cost, CPU ns: making the
 * accumulator (its events files read) and feeding it every committed interval. */
static struct {
	uint64_t make_ns, feed_ns, first_ns;
	int feeds;
} live_cost;

static void timed_feed(void *ctx, struct td_store *s, const struct td_committed_counts *c)
{
	uint64_t t0 = td_process_cpu_ns();

	td_summary_live_feed(ctx, s, c);
	live_cost.feed_ns += td_process_cpu_ns() - t0;
	if (!live_cost.feeds++)
		live_cost.first_ns = live_cost.feed_ns; /* it binds the session's events */
}

/* The end-of-run summary of the session res names, with what the whole
 * command cost up to it: getrusage once the summary is read, before it is
 * written out. */
static int end_summary(const struct td_session_opts *o, const struct td_session_result *res,
		       struct td_summary_live *live, td_err *err)
{
	struct td_summary sum;
	struct td_store *st;
	uint64_t before = td_process_cpu_ns();
	int rc = 0;

	if (td_store_open(o->db_path, TD_STORE_READ, &st, err)) {
		tdctl_error("session %lld is stored, but its summary cannot be read back: %s",
			    (long long)res->session_id, err->msg);
		return 0;
	}
	if (live ? td_summary_load_live(live, st, res->session_id, &sum, err)
		 : td_summary_load(st, res->session_id, o->events_dir, NULL, &sum, err))
		rc = -1;
	else if (td_summary_load_confidence(st, res->session_id, &sum, err)) {
		td_summary_free(&sum);
		rc = -1;
	}
	if (!rc) {
		sum.summary_ns = td_process_cpu_ns() - before;
		if (live && getenv("TD_DEBUG_SUMMARY")) /* tests: which way it was built */
			fprintf(stderr,
				"tdctl: debug: summary %s%s (keeping them: %.2f ms at the start, %.2f ms in %d "
				"intervals, the first %.2f ms)\n",
				td_summary_live_read_back(live) ? "read back: "
								: "from the committed intervals' totals",
				td_summary_live_read_back(live) ? td_summary_live_read_back(live) : "",
				(double)live_cost.make_ns / 1e6, (double)live_cost.feed_ns / 1e6, live_cost.feeds,
				(double)live_cost.first_ns / 1e6);
		/* bpftool's, at the object's load: a child's, in no figure of the session's */
		sum.types_ns = td_kernel_types_made_cpu_ns();
		sum.whole_ns = self_cpu_ns() + res->helper_cpu_ns + sum.types_ns;
		sum.helper_ns = res->helper_cpu_ns;
		sum.start_ns = res->start_cpu_ns + sum.types_ns;
		if (res->switch_cost_kept_ns > 0 && isnan(sum.switch_cost_ns)) {
			sum.switch_cost_ns = res->switch_cost_kept_ns;
			sum.switch_cost_kept = res->switch_cost_kept;
		}
		td_summary_write(stderr, &sum, o->db_path, TD_SUMMARY_END_PROCESSES, TD_SUMMARY_END_THREADS);
		td_summary_free(&sum);
	}
	td_store_close(st);
	return rc;
}

/* One session and its summary, at the raised priority: the final read and
 * the summary are as starved as the intervals on a saturated machine. */
static int collect_raised(const struct td_session_opts *o, bool summary, int *exit_code, int64_t *session)
{
	struct td_session_opts with = *o;
	struct td_session_result res;
	struct td_summary_live *live = NULL;
	td_err err;

	*session = 0;
	/* the summary's sums kept as each interval commits, not read back at the end
	 * (TD_SUMMARY_READBACK=1: read back, as tdctl report does) */
	uint64_t t0 = td_process_cpu_ns();
	if (summary && !getenv("TD_SUMMARY_READBACK") && td_summary_live_new(o->events_dir, &live) == 0) {
		with.counts_observer = getenv("TD_DEBUG_SUMMARY") ? timed_feed : td_summary_live_feed;
		with.counts_observer_ctx = live;
	}
	live_cost.make_ns = td_process_cpu_ns() - t0;
	tdctl_kernel_types(o);
	int failed = td_session_execute(&with, &res, &err);
	tdctl_kernel_types_note();
	if (failed) {
		tdctl_error("%s", err.msg);
		*exit_code = res.error_exit;
		*session = res.session_id;
		td_summary_live_free(live);
		return res.session_id ? 0 : -1; /* a failed session is marked so; its message says it all */
	} else {
		*exit_code = o->argv ? res.target_status : 0;
	}
	*session = res.session_id;
	if (summary && end_summary(o, &res, live, &err))
		tdctl_error("%s", err.msg);
	td_summary_live_free(live);
	return 0;
}

int tdctl_collect_session(const struct td_session_opts *o, bool summary, int *exit_code, int64_t *session)
{
	struct td_sampler_priority prio;
	struct td_session_opts raised = *o;
	int rc;

	tdctl_priority_raise(&raised, &prio);
	rc = collect_raised(&raised, summary, exit_code, session);
	td_sampler_priority_restore(&prio);
	return rc;
}

int tdctl_collect(const struct td_session_opts *o, int *exit_code)
{
	struct td_sampler_priority prio;
	struct td_session_opts raised = *o;
	int64_t session;

	/* tdctl exits next, still raised: back at normal priority, its exit would
	 * wait its turn behind every runnable thread of a saturated machine (1.2 s
	 * measured at 1,000 busy threads on 2 CPUs). Children never inherit it */
	tdctl_priority_raise(&raised, &prio);
	return collect_raised(&raised, true, exit_code, &session);
}
