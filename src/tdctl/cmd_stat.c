/* tdctl stat: perf stat's habits on top of run, attach and record — -p PID
 * [,PID], -a, -G CGROUP, -- CMD; -I MS prints each interval's values as they
 * are measured (level 1 of the tree, or --nodes, and software.td's metrics),
 * -x SEP as machine-readable lines, --per-thread / -A per thread / per CPU.
 * Everything is stored as by run, attach and record; the summary follows at
 * the end. -C and -e map onto record --cpus and -e; -t, which does not map
 * onto a topdown session, is refused with what to use instead. */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "session/sampler_priority.h"
#include "eval/evaluator.h"
#include "model/model.h"
#include "report/summary.h"
#include "session/session.h"
#include "store/store.h"
#include "tdctl.h"

static const char usage[] =
	"usage: tdctl stat [-I MS] [-x SEP] [--per-thread] [-A] (-p PID[,PID...] | -a | -G CGROUP | [--] CMD "
	"[ARGS...])\n"
	"                  [OPTIONS]\n"
	"  -p, --pid PIDS      count these running processes (as tdctl attach)\n"
	"  -a, --all-cpus      count every online CPU (as tdctl record --system)\n"
	"  -G, --cgroup PATH   count one cgroup's tasks on every CPU (as tdctl record --cgroup)\n"
	"  -C, --cpu LIST      with -a or -G: only these CPUs, e.g. 0-3,6 (as tdctl record --cpus)\n"
	"  -I, --interval MS   read every MS milliseconds and print each interval's values as measured\n"
	"  -x, --field-separator SEP  print interval values as lines TIME SEP TARGET SEP NAME SEP VALUE SEP UNIT (TIME "
	"in seconds, to the microsecond)\n"
	"  --per-thread        print each thread's values too (evaluated from its counts)\n"
	"  -A, --no-aggr       with -a: print each CPU's values too\n"
	"  --duration SEC      stop after SEC seconds\n" TDCTL_COLLECT_HELP;

struct printer {
	const char *sep;   /* -x: machine-readable; NULL: aligned text */
	const char *nodes; /* --nodes LIST: print these nodes instead of level 1 */
	double elapsed;	   /* seconds since the start, at the end of the interval printed */
};

static bool listed(const char *list, const char *path)
{
	size_t n = strlen(path);

	for (const char *p = list; p && *p;) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		if (len == n && !strncmp(p, path, n))
			return true;
		p = end ? end + 1 : NULL;
	}
	return false;
}

static void target_name(const struct td_live_value *v, char *buf, size_t len)
{
	if (!strcmp(v->kind, "process"))
		snprintf(buf, len, "process %d (%s)", (int)v->pid, v->comm);
	else if (!strcmp(v->kind, "thread") && v->tid == 0)
		snprintf(buf, len, "unlisted threads of %d", (int)v->pid);
	else if (!strcmp(v->kind, "thread"))
		snprintf(buf, len, "thread %d (%s)", (int)v->tid, v->comm);
	else if (!strcmp(v->kind, "cpu"))
		snprintf(buf, len, "cpu %d", v->cpu);
	else if (!strcmp(v->kind, "cpus"))
		snprintf(buf, len, "all counted CPUs");
	else
		snprintf(buf, len, "%s", v->kind);
}

/* One value: "NAME VALUE UNIT" in text, a line with -x. NaN: <not counted>. */
static void print_value(struct printer *p, const char *target, const char *name, double v, const char *unit, bool pct)
{
	bool na = isnan(v) || isinf(v);

	if (p->sep) {
		printf("%.6f%s%s%s%s%s", p->elapsed, p->sep, target, p->sep, name, p->sep);
		if (na)
			printf("<not counted>");
		else
			printf("%.4g", pct ? 100 * v : v);
		printf("%s%s\n", p->sep, unit);
		return;
	}
	if (na)
		printf("  %s <not counted>", name);
	else if (pct)
		printf("  %s %.1f %%", name, 100 * v);
	else
		printf("  %s %.4g %s", name, v, unit);
}

static void print_interval(void *ctx, const struct td_live_value *v)
{
	struct printer *p = ctx;
	const struct td_model *m = v->model;
	char target[160];
	int shown = 0;

	/* the interval's own end: an interval before it may have printed nothing */
	p->elapsed = v->elapsed;
	target_name(v, target, sizeof(target));
	if (!p->sep)
		printf("%9.3f  %-28s %-12s", p->elapsed, target, v->file);
	if (m->nnodes > 0) {
		for (int i = 0; i < m->nnodes; i++)
			if (p->nodes ? listed(p->nodes, m->nodes[i].path) : m->nodes[i].level == 1) {
				char unit[32];
				snprintf(unit, sizeof(unit), "%% %s", m->nodes[i].domain);
				print_value(p, target, m->nodes[i].path, v->ev->node[i], unit, true);
				shown++;
			}
	} else {
		for (int i = 0; i < m->ninfos; i++, shown++)
			print_value(p, target, m->infos[i].name, v->ev->info[i], m->infos[i].unit, false);
	}
	if (!p->sep)
		printf("%s\n", shown ? "" : "  (nothing to show)");
	fflush(stdout);
}

/* Does argv[*i] spell option s (short, "-p") or l (long, "--pid")? 1 with
 * *val its value (the next argument, "-pVALUE" or "--pid=VALUE"; NULL when
 * missing), 0 when it is another option. */
static int opt_value(int argc, char **argv, int *i, const char *s, const char *l, const char **val)
{
	const char *a = argv[*i];
	size_t ll = strlen(l);

	*val = NULL;
	if (!strcmp(a, s) || !strcmp(a, l)) {
		if (*i + 1 < argc)
			*val = argv[++*i];
		return 1;
	}
	if (a[1] != '-' && a[1] == s[1] && a[2]) {
		*val = a + 2;
		return 1;
	}
	if (!strncmp(a, l, ll) && a[ll] == '=') {
		*val = a + ll + 1;
		return 1;
	}
	return 0;
}

/* Does the shared option a (run, attach, record) take its value from the
 * next argument? */
static bool takes_value(const char *a)
{
	static const char *const with_value[] = {
		"-I",	    "-d",	  "-l",		  "-e",	       "--event",    "--interval",	  "--database",
		"--level",  "--duration", "--events-dir", "--scan-ms", "--max-age",  "--max-size",	  "--counters",
		"--rotate", "--nodes",	  "--pmu",	  "--tracker", "--counting", "--bpf-map-entries", "--unlisted"
	};

	for (size_t k = 0; k < sizeof(with_value) / sizeof(with_value[0]); k++)
		if (!strcmp(a, with_value[k]))
			return true;
	return false;
}

/* perf's spelling into tdctl's: the options stat handles itself are taken
 * out, -a and -G become --system and --cgroup, the rest pass through to the
 * options run, attach and record share. The command (after --, or the first
 * operand) is kept at the end. Returns the new argc, or -1 after an error. */
static int translate(int argc, char **argv, char **out, const char **pids, struct printer *p, bool *per_thread,
		     bool *per_cpu)
{
	static const struct {
		const char *s, *l, *why;
	} refused[] = {
		{ "-t", "--tid",
		  "-t TID is not supported: topdown counts whole processes; give -p PID and select the "
		  "thread in the report (tdctl report --thread TID)" },
	};
	static char system_opt[] = "--system", cgroup_opt[] = "--cgroup", cpus_opt[] = "--cpus", dashdash[] = "--";
	int n = 0;

	out[n++] = argv[0];
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *val;
		int k;
		if (!strcmp(a, "--") || a[0] != '-') { /* perf stat [--] CMD: the command starts here */
			out[n++] = dashdash;
			i += !strcmp(a, "--");
			while (i < argc)
				out[n++] = argv[i++];
			break;
		}
		for (k = 0; k < (int)(sizeof(refused) / sizeof(refused[0])); k++)
			if (opt_value(argc, argv, &i, refused[k].s, refused[k].l, &val)) {
				tdctl_error("stat: %s", refused[k].why);
				return -1;
			}
		if (opt_value(argc, argv, &i, "-p", "--pid", &val))
			*pids = val;
		else if (opt_value(argc, argv, &i, "-x", "--field-separator", &val))
			p->sep = val;
		else if (opt_value(argc, argv, &i, "-C", "--cpu", &val)) {
			out[n++] = cpus_opt;
			out[n++] = (char *)val;
		} else if (opt_value(argc, argv, &i, "-G", "--cgroup", &val)) {
			out[n++] = cgroup_opt;
			out[n++] = (char *)val;
		} else if (!strcmp(a, "-a") || !strcmp(a, "--all-cpus")) {
			out[n++] = system_opt;
			continue;
		} else if (!strcmp(a, "--per-thread")) {
			*per_thread = true;
			continue;
		} else if (!strcmp(a, "-A") || !strcmp(a, "--no-aggr")) {
			*per_cpu = true;
			continue;
		} else {
			if (!strcmp(a, "--nodes") && i + 1 < argc)
				p->nodes = argv[i + 1];
			else if (!strncmp(a, "--nodes=", 8))
				p->nodes = a + 8;
			out[n++] = argv[i];
			if (takes_value(a) && i + 1 < argc)
				out[n++] = argv[++i]; /* its value, which may not start with '-' */
			continue;
		}
		if (!val || !*val) {
			tdctl_error("stat: %s needs a value; see 'tdctl stat --help'", a);
			return -1;
		}
	}
	out[n] = NULL;
	return n;
}

/* -p A,B: one attach session per PID, sampled together. */
static int stat_pids(struct td_session_opts *o, const char *pids)
{
	struct td_session **s = NULL;
	struct td_session_result res;
	int n = 0, code = 0;
	sigset_t oldmask;
	td_err err;
	struct td_sampler_priority prio;
	char *copy = strdup(pids), *save = NULL;
	int sigfd;

	if (!copy)
		return 1;
	sigfd = td_session_block_signals(&oldmask);
	tdctl_priority_raise(o, &prio);
	tdctl_kernel_types(o);
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		long pid;
		struct td_session **ns;
		if (td_parse_long(tok, 1, 4194304, &pid)) {
			tdctl_error("stat: bad PID '%s' in '-p %s': give process IDs separated by commas", tok, pids);
			code = 2;
			break;
		}
		o->attach_pid = (pid_t)pid;
		if (!(ns = realloc(s, ((size_t)n + 1) * sizeof(*s)))) {
			code = 1;
			break;
		}
		s = ns;
		if (td_session_start(o, &s[n], &res, &err)) {
			tdctl_error("stat: %s", err.msg);
			code = 1;
			break;
		}
		n++;
	}
	if (code == 0)
		td_session_loop(s, n, sigfd);
	tdctl_kernel_types_note();
	for (int i = 0; i < n; i++) {
		struct td_store *st;
		if (td_session_finish(s[i], &res, &err)) {
			tdctl_error("stat: %s", err.msg);
			code = code ? code : 1;
			continue;
		}
		if (code == 0 && td_store_open(o->db_path, TD_STORE_READ, &st, &err) == 0) {
			if (td_summary_print(stderr, st, res.session_id, o->events_dir, NULL, o->db_path,
					     TD_SUMMARY_END_PROCESSES, TD_SUMMARY_END_THREADS, &err))
				tdctl_error("%s", err.msg);
			td_store_close(st);
		}
	}
	td_sampler_priority_restore(&prio);
	if (sigfd >= 0)
		close(sigfd);
	sigprocmask(SIG_SETMASK, &oldmask, NULL);
	free(s);
	free(copy);
	return code;
}

int cmd_stat(int argc, char **argv)
{
	struct printer p = { 0 };
	struct td_session_opts o;
	const char *pids = NULL;
	bool per_thread = false, per_cpu = false, interval_given = false;
	char **args = calloc((size_t)argc + 2, sizeof(*args));
	int n, first, code = 0;

	if (!args)
		return 1;
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		interval_given |= !strcmp(argv[i], "-I") || !strncmp(argv[i], "--interval", 10) ||
				  (!strncmp(argv[i], "-I", 2) && argv[i][2]);
	if ((n = translate(argc, argv, args, &pids, &p, &per_thread, &per_cpu)) < 0) {
		free(args);
		return 2;
	}
	first = tdctl_parse_collect_opts(n, args, usage, false, &o);
	if (first < 0) {
		free(args);
		return 2;
	}
	if (per_cpu && !o.system) {
		tdctl_error("stat: -A prints each CPU of -a: give -a too");
		code = 2;
	} else if ((pids != NULL) + o.system + (o.cgroup != NULL) + (first < n) > 1) {
		tdctl_error("stat: give one of -p PID, -a, -G CGROUP or a command");
		code = 2;
	} else if (!pids && !o.system && !o.cgroup && first >= n) {
		tdctl_error("stat: nothing to count: give -p PID, -a, -G CGROUP or a command; %s",
			    "see 'tdctl stat --help'");
		code = 2;
	} else if (o.rotate_ms && (o.system || o.cgroup)) {
		tdctl_error("stat: --rotate is for a command or -p PID; leave it out");
		code = 2;
	}
	if (code) {
		free(args);
		return code;
	}
	if (interval_given) {
		o.print_fn = print_interval;
		o.print_ctx = &p;
		o.print_leaves = per_thread || per_cpu;
	}
	if (pids) {
		code = stat_pids(&o, pids);
	} else {
		if (first < n)
			o.argv = args + first;
		if (tdctl_collect(&o, &code))
			code = code ? code : 1;
	}
	free(args);
	return code;
}
