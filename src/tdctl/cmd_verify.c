/* tdctl verify: run each known-answer kernel (src/verify/td-kernels.c) under a
 * normal session, as `tdctl run` does (stored like any run), and say per
 * kernel whether the measured bottleneck is the node the kernel makes
 * dominate here (events/verify.kernels): PASS, FAIL, or SKIP with the reason
 * (no hardware PMU, the node not in this CPU's tree, its group not counted).
 * Beside each, perf stat's level 1 of the same kernel where perf can print it
 * (verify_perf.c). Exits 1 when a kernel FAILs. */
#include <errno.h>
#include <fnmatch.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analysis/report_data.h"
#include "base/json.h"
#include "base/util.h"
#include "machine/pmu.h"
#include "model/catalog.h"
#include "session/session.h"
#include "store/store.h"
#include "tdctl.h"
#include "verify_perf.h"

#ifndef TOPDOWN_KERNELS
#define TOPDOWN_KERNELS "/usr/local/libexec/topdown/td-kernels"
#endif

static const char usage[] =
	"usage: tdctl verify [-l LEVEL] [--json] [-d DB] [--seconds SEC] [--counting MODE] [--events-dir DIR]\n"
	"  runs each known-answer kernel under a session and checks that the measured bottleneck is the\n"
	"  node the kernel makes dominate (events/verify.kernels); exits 1 when a kernel fails\n"
	"  -l, --level LEVEL   collect the tree to LEVEL (default: as tdctl run)\n"
	"  --json              one JSON object instead of the text\n"
	"  -d, --database DB   SQLite file the sessions are stored in (default ./topdown.db)\n"
	"  --seconds SEC       CPU seconds each kernel runs (default 2)\n"
	"  --counting MODE     as tdctl run: auto, bpf or per-thread\n"
	"  --events-dir DIR    read events/*.td files (and verify.kernels) from DIR\n"
	"  --no-perf           do not run the kernels under perf stat too\n";

enum verdict {
	V_PASS,
	V_FAIL,
	V_SKIP
};
static const char *const verdict_name[] = { "PASS", "FAIL", "SKIP" };

struct kernel_result {
	char name[32];
	char expected[512]; /* the expected node(s) as compared (at the level collected) */
	char measured[256]; /* the bottleneck path, "" none */
	double value, conf; /* the bottleneck's value and confidence (fractions; NaN: not available) */
	double level1[4];   /* ours: Frontend_Bound, Bad_Speculation, Backend_Bound, Retiring */
	struct td_perf_level1 perf;
	int64_t session;
	enum verdict verdict;
	char reason[1024];
};

static const char *const level1_names[4] = { "Frontend_Bound", "Bad_Speculation", "Backend_Bound", "Retiring" };

/* The td-kernels program: $TD_KERNELS, the build tree's when this tdctl is
 * the build tree's (as the events files: catalog.c), else the installed one. */
static char *kernels_path(char *buf, size_t len)
{
	const char *env = getenv("TD_KERNELS");
	if (env && *env) {
		snprintf(buf, len, "%s", env);
		return buf;
	}
#ifdef TOPDOWN_BUILD_DIR
	{
		char exe[PATH_MAX];
		ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
		size_t blen = strlen(TOPDOWN_BUILD_DIR);
		if (n > 0 && (size_t)n < sizeof(exe) - 1) {
			exe[n] = '\0';
			if (!strncmp(exe, TOPDOWN_BUILD_DIR, blen) && exe[blen] == '/') {
				snprintf(buf, len, "%s/src/verify/td-kernels", TOPDOWN_BUILD_DIR);
				return buf;
			}
		}
	}
#endif
	snprintf(buf, len, "%s", TOPDOWN_KERNELS);
	return buf;
}

/* The kernels td-kernels has, in its order ('td-kernels list', run without a
 * shell). -1 after an error. */
static int list_kernels(const char *prog, char (*names)[32], int max, int *n)
{
	char line[64];
	int fds[2], status;
	FILE *p;
	pid_t pid;

	*n = 0;
	if (access(prog, X_OK)) {
		tdctl_error("verify: cannot run the kernels program %s: %s (set TD_KERNELS=PATH)", prog,
			    strerror(errno));
		return -1;
	}
	if (pipe(fds)) {
		tdctl_error("verify: cannot run %s: %s", prog, strerror(errno));
		return -1;
	}
	pid = fork();
	if (pid == 0) {
		dup2(fds[1], 1);
		close(fds[0]);
		close(fds[1]);
		execl(prog, prog, "list", (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	p = pid > 0 ? fdopen(fds[0], "r") : NULL;
	if (!p) {
		tdctl_error("verify: cannot run %s: %s", prog, strerror(errno));
		close(fds[0]);
		if (pid > 0)
			waitpid(pid, &status, 0);
		return -1;
	}
	while (fgets(line, sizeof(line), p)) {
		char *s = td_trim(line);
		if (!*s || *n == max) /* more than max: an error below */
			continue;
		snprintf(names[(*n)++], 32, "%s", s);
	}
	fclose(p);
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0 || *n == 0 || *n == max) {
		tdctl_error("verify: '%s list' failed or listed no (or over %d) kernels: reinstall topdown (or set "
			    "TD_KERNELS=PATH)",
			    prog, max - 1);
		return -1;
	}
	return 0;
}

/* The expected nodes of kernel for events file `file` from DIR/verify.kernels
 * into out (the first matching line); 1 when no line matches, -1 after an error. */
static int expected_nodes(const char *dir, const char *kernel, const char *file, char *out, size_t len)
{
	char path[PATH_MAX], *text, *line, *save = NULL;
	size_t n;
	int lineno = 0, rc = 1, e;

	snprintf(path, sizeof(path), "%s/verify.kernels", dir);
	e = td_slurp(path, &text, &n);
	if (e < 0) {
		tdctl_error("verify: cannot read %s: %s (the kernels' expected nodes)", path, strerror(-e));
		return -1;
	}
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *hash = strchr(line, '#'), *s, *k, *f, *node;
		lineno++;
		if (hash)
			*hash = '\0';
		s = line;
		k = td_next_word(&s);
		if (!*k)
			continue;
		f = td_next_word(&s);
		node = td_next_word(&s);
		if (!*node || *td_trim(s)) {
			tdctl_error("verify: %s: a line '%s' is not KERNEL FILES NODE[|NODE...]", path, k);
			rc = -1;
			break;
		}
		if (!strcmp(k, kernel) && fnmatch(f, file, 0) == 0) {
			snprintf(out, len, "%s", node);
			rc = 0;
			break;
		}
	}
	(void)lineno;
	free(text);
	return rc;
}

/* path cut to its first `depth` components into out. */
static void truncate_path(const char *path, int depth, char *out, size_t len)
{
	int comps = 0;
	size_t i;

	snprintf(out, len, "%s", path);
	for (i = 0; out[i]; i++)
		if (out[i] == '.' && ++comps == depth) {
			out[i] = '\0';
			return;
		}
}

static int path_depth(const char *p)
{
	int d = 1;
	for (; *p; p++)
		d += *p == '.';
	return d;
}

/* Do a and b agree down to the shallower of the two? */
static bool agree(const char *a, const char *b)
{
	int d = path_depth(a) < path_depth(b) ? path_depth(a) : path_depth(b);
	char x[256], y[256];

	truncate_path(a, d, x, sizeof(x));
	truncate_path(b, d, y, sizeof(y));
	return !strcmp(x, y);
}

/* Judge kernel r from its stored session. */
static void judge(struct kernel_result *r, const char *db, const char *events_dir, const char *verify_dir, int level)
{
	struct td_store *st;
	struct td_report_data d;
	struct td_report_filter all = { .kind = TD_RF_ALL };
	char nodes[256], *save = NULL, *alt, primary[64];
	const struct td_evaluation *v;
	int depth = 0, e;
	size_t used;
	td_err err;

	if (td_store_open(db, TD_STORE_READ, &st, &err)) {
		r->verdict = V_FAIL;
		snprintf(r->reason, sizeof(r->reason), "the session cannot be read back: %s", err.msg);
		return;
	}
	memset(&d, 0, sizeof(d));
	if (td_report_header_read(st, r->session, &d.h, &err) == 0 && strchr(d.h.pmu_model, '+')) {
		/* a hybrid CPU: its first core PMU's tree (the P-cores) */
		snprintf(primary, sizeof(primary), "%s", d.h.pmu_model);
		*strchr(primary, '+') = '\0';
		e = td_report_data_load_model(st, r->session, &all, events_dir, primary, &d, &err);
	} else {
		e = td_report_data_load(st, r->session, &all, events_dir, &d, &err);
	}
	td_store_close(st);
	if (e) {
		r->verdict = V_FAIL;
		snprintf(r->reason, sizeof(r->reason), "the session cannot be read back: %s", err.msg);
		return;
	}
	if (!d.model) {
		r->verdict = V_SKIP;
		snprintf(r->reason, sizeof(r->reason), "no top-down tree for this CPU: %s", d.why_no_model);
		goto out;
	}
	v = &d.whole.v;
	for (int i = 0; i < d.model->nnodes; i++) {
		if (!isnan(v->node[i]) && d.model->nodes[i].level > depth)
			depth = d.model->nodes[i].level;
		for (int k = 0; k < 4; k++)
			if (!strcmp(d.model->nodes[i].path, level1_names[k]))
				r->level1[k] = v->node[i];
	}
	if (level > 0 && depth > level)
		depth = level;
	e = expected_nodes(verify_dir, r->name, d.model_file, nodes, sizeof(nodes));
	if (e) {
		r->verdict = e < 0 ? V_FAIL : V_SKIP;
		snprintf(r->reason, sizeof(r->reason),
			 e < 0 ? "verify.kernels cannot be read" : "verify.kernels names no node for %s", d.model_file);
		goto out;
	}
	if (depth == 0) {
		r->verdict = V_SKIP;
		snprintf(r->reason, sizeof(r->reason), "no node of %s was counted (its groups were not counted)",
			 d.model_file);
		goto out;
	}
	if (v->bottleneck >= 0) {
		snprintf(r->measured, sizeof(r->measured), "%s", d.model->nodes[v->bottleneck].path);
		r->value = v->node[v->bottleneck];
		r->conf = v->conf[v->bottleneck];
	}
	/* each alternative at the level collected; the first in the tree and counted is compared */
	r->verdict = V_SKIP;
	r->expected[0] = '\0';
	for (alt = strtok_r(nodes, "|", &save); alt; alt = strtok_r(NULL, "|", &save)) {
		char at[256];
		int idx;

		truncate_path(alt, depth, at, sizeof(at));
		idx = td_model_node(d.model, at);
		/* not counted at that depth (a deeper level than -l asked, or its group
		 * not counted): compared at its deepest counted ancestor */
		while (idx >= 0 && isnan(v->node[idx]) && d.model->nodes[idx].parent >= 0) {
			idx = d.model->nodes[idx].parent;
			snprintf(at, sizeof(at), "%s", d.model->nodes[idx].path);
		}
		used = strlen(r->expected);
		snprintf(r->expected + used, sizeof(r->expected) - used, "%s%s", used ? "|" : "", at);
		if (idx < 0) {
			if (r->verdict == V_SKIP)
				snprintf(r->reason, sizeof(r->reason), "%s is not in this CPU's tree (%s)", at,
					 d.model_file);
			continue;
		}
		if (isnan(v->node[idx])) {
			if (r->verdict == V_SKIP)
				snprintf(r->reason, sizeof(r->reason), "%s was not counted (its group was not counted)",
					 at);
			continue;
		}
		if (r->verdict == V_PASS)
			continue;
		if (v->bottleneck < 0) {
			r->verdict = V_FAIL;
			snprintf(r->reason, sizeof(r->reason), "no node is above its threshold (%s: %.1f %%)", at,
				 v->node[idx] * 100);
		} else if (agree(r->measured, at)) {
			r->verdict = V_PASS;
			r->reason[0] = '\0';
		} else {
			r->verdict = V_FAIL;
			snprintf(r->reason, sizeof(r->reason), "the bottleneck is not %s (%s: %.1f %%)", at, at,
				 v->node[idx] * 100);
		}
	}
out:
	td_report_data_free(&d);
}

/* The host's rung, as tdctl doctor decides it: false (with why) when no
 * hardware counter can be counted here. */
static bool host_has_pmu(const char *events_dir, td_err *why)
{
	struct td_caps caps;

	tdctl_host_caps(events_dir, &caps);
	if (caps.rung >= TD_RUNG_IPC)
		return true;
	td_err_set(why, "%s", caps.rung_reason);
	return false;
}

static void pct(FILE *f, double v)
{
	if (isnan(v))
		fprintf(f, "n/a");
	else
		fprintf(f, "%.1f %%", v * 100);
}

static void print_text(const struct kernel_result *rs, int n, const char *perf_note, const char *sysroot,
		       const char *no_pmu)
{
	if (no_pmu)
		printf("no hardware PMU here: %s\n", no_pmu);
	for (int i = 0; i < n; i++) {
		const struct kernel_result *r = &rs[i];
		printf("%-17s %s", r->name, verdict_name[r->verdict]);
		if (r->verdict == V_SKIP && !r->session) {
			printf(": %s\n", r->reason);
			continue;
		}
		printf("  expected %s; measured %s", r->expected[0] ? r->expected : "-",
		       r->measured[0] ? r->measured : "no bottleneck");
		if (r->measured[0]) {
			printf(" ");
			pct(stdout, r->value);
			if (isnan(r->conf))
				printf(" [conf n/a]");
			else
				printf(" [conf %.0f%%]", r->conf * 100);
		}
		printf("; session %lld", (long long)r->session);
		if (r->reason[0])
			printf(": %s", r->reason);
		printf("\n");
		if (r->perf.ok) {
			printf("  %-15s %10s %10s %10s\n", "level 1", "topdown", "perf", "difference");
			for (int k = 0; k < 4; k++) {
				printf("  %-15s ", level1_names[k]);
				if (isnan(r->level1[k]))
					printf("%10s", "n/a");
				else
					printf("%8.1f %%", r->level1[k] * 100);
				if (isnan(r->perf.v[k]))
					printf(" %10s", "n/a");
				else
					printf(" %8.1f %%", r->perf.v[k] * 100);
				if (isnan(r->level1[k]) || isnan(r->perf.v[k]))
					printf(" %10s\n", "n/a");
				else
					printf(" %+7.1f pts\n", (r->level1[k] - r->perf.v[k]) * 100);
			}
		} else if (r->perf.why[0]) {
			printf("  perf stat: %s\n", r->perf.why);
		}
	}
	if (perf_note[0])
		printf("perf stat: not compared: %s\n", perf_note);
	if (sysroot)
		printf("note: the host facts come from TD_SYSROOT=%s, not this machine: the counts are not this "
		       "CPU's; this shows the plumbing, not the hardware truth\n",
		       sysroot);
}

static void print_json(const struct kernel_result *rs, int n, const char *perf_note, const char *sysroot,
		       const char *no_pmu)
{
	struct td_json j;

	td_json_init(&j, stdout, 1);
	td_json_object(&j);
	td_json_kstring(&j, "no_pmu", no_pmu);
	td_json_kstring(&j, "sysroot", sysroot);
	td_json_kstring(&j, "perf_not_compared", perf_note[0] ? perf_note : NULL);
	td_json_key(&j, "kernels");
	td_json_array(&j);
	for (int i = 0; i < n; i++) {
		const struct kernel_result *r = &rs[i];
		td_json_object(&j);
		td_json_kstring(&j, "kernel", r->name);
		td_json_kstring(&j, "result", verdict_name[r->verdict]);
		td_json_kstring(&j, "reason", r->reason[0] ? r->reason : NULL);
		td_json_kstring(&j, "expected", r->expected[0] ? r->expected : NULL);
		td_json_kstring(&j, "measured", r->measured[0] ? r->measured : NULL);
		td_json_kdouble(&j, "value", r->value);
		td_json_kdouble(&j, "confidence", r->conf);
		td_json_key(&j, "session");
		if (r->session)
			td_json_int(&j, r->session);
		else
			td_json_null(&j);
		td_json_key(&j, "level1");
		td_json_object(&j);
		for (int k = 0; k < 4; k++)
			td_json_kdouble(&j, level1_names[k], r->level1[k]);
		td_json_close(&j);
		td_json_key(&j, "perf_level1");
		if (r->perf.ok) {
			td_json_object(&j);
			for (int k = 0; k < 4; k++)
				td_json_kdouble(&j, level1_names[k], r->perf.v[k]);
			td_json_close(&j);
		} else {
			td_json_null(&j);
		}
		td_json_kstring(&j, "perf_why", r->perf.why[0] ? r->perf.why : NULL);
		td_json_close(&j);
	}
	td_json_close(&j);
	td_json_close(&j);
	td_json_finish(&j);
}

int cmd_verify(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "level", required_argument, NULL, 'l' },
		{ "json", no_argument, NULL, 'j' },
		{ "database", required_argument, NULL, 'd' },
		{ "seconds", required_argument, NULL, 's' },
		{ "counting", required_argument, NULL, 'B' },
		{ "events-dir", required_argument, NULL, 'E' },
		{ "no-perf", no_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static char default_db[] = "topdown.db", default_secs[] = "2", a_verify[] = "verify", a_quiet[] = "-q",
		    a_interval[] = "-I", a_ms[] = "250", a_db[] = "-d", a_level[] = "-l", a_events[] = "--events-dir",
		    a_run[] = "run";
	char *level = NULL, *db = default_db, *counting = NULL, *events_dir = NULL, *secs = default_secs;
	const char *sysroot = getenv("TD_SYSROOT");
	char names[32][32], prog_buf[PATH_MAX], perf_note[512] = "";
	char *prog;
	struct kernel_result *rs;
	bool json = false, use_perf = true, failed = false;
	td_err why, perr;
	const char *no_pmu = NULL;
	int c, n;
	char *end;

	optind = 1;
	while ((c = getopt_long(argc, argv, "l:d:h", opts, NULL)) != -1) {
		switch (c) {
		case 'l':
			level = optarg;
			break;
		case 'j':
			json = true;
			break;
		case 'd':
			db = optarg;
			break;
		case 's':
			if (!(strtod(optarg, &end) > 0) || *end || strtod(optarg, NULL) > 600) {
				tdctl_error("verify: bad '--seconds %s': give CPU seconds per kernel, e.g. 2", optarg);
				return 2;
			}
			secs = optarg;
			break;
		case 'B':
			counting = optarg;
			break;
		case 'E':
			events_dir = optarg;
			break;
		case 'P':
			use_perf = false;
			break;
		case 'h':
			printf("%s", usage);
			return 0;
		default:
			fprintf(stderr, "%s", usage);
			return 2;
		}
	}
	if (optind < argc) {
		tdctl_error("verify: unexpected argument '%s'; usage: tdctl verify [-l LEVEL] [--json]", argv[optind]);
		return 2;
	}
	prog = kernels_path(prog_buf, sizeof(prog_buf));
	if (list_kernels(prog, names, 32, &n))
		return 1;
	rs = calloc((size_t)n, sizeof(*rs));
	if (!rs) {
		tdctl_error("verify: out of memory");
		return 1;
	}
	for (int i = 0; i < n; i++) {
		memcpy(rs[i].name, names[i], sizeof(rs[i].name));
		rs[i].value = rs[i].conf = NAN;
		for (int k = 0; k < 4; k++)
			rs[i].level1[k] = rs[i].perf.v[k] = NAN;
	}
	if (use_perf && td_perf_topdown_probe(&perr)) {
		snprintf(perf_note, sizeof(perf_note), "%s", perr.msg);
		use_perf = false;
	}
	if (!host_has_pmu(events_dir, &why)) {
		for (int i = 0; i < n; i++) {
			rs[i].verdict = V_SKIP;
			snprintf(rs[i].reason, sizeof(rs[i].reason), "no hardware PMU");
		}
		no_pmu = why.msg;
		goto print;
	}
	if (!use_perf && !perf_note[0])
		snprintf(perf_note, sizeof(perf_note), "--no-perf");
	for (int i = 0; i < n; i++) {
		struct kernel_result *r = &rs[i];
		char *opt_argv[16], *kargv[] = { prog, a_run, r->name, secs, NULL };
		char count_opt[64];
		struct td_session_opts o;
		int oc = 0, code = 0;

		opt_argv[oc++] = a_verify;
		opt_argv[oc++] = a_quiet;
		opt_argv[oc++] = a_interval;
		opt_argv[oc++] = a_ms;
		opt_argv[oc++] = a_db;
		opt_argv[oc++] = db;
		if (level) {
			opt_argv[oc++] = a_level;
			opt_argv[oc++] = level;
		}
		if (counting) {
			snprintf(count_opt, sizeof(count_opt), "--counting=%s", counting);
			opt_argv[oc++] = count_opt;
		}
		if (events_dir) {
			opt_argv[oc++] = a_events;
			opt_argv[oc++] = events_dir;
		}
		opt_argv[oc] = NULL;
		if (tdctl_parse_collect_opts(oc, opt_argv, usage, false, &o) < 0) {
			free(rs);
			return 2;
		}
		o.argv = kargv;
		if (!json)
			fprintf(stderr, "tdctl: verify: %s ...\n", r->name);
		if (tdctl_collect_session(&o, false, &code, &r->session) || r->session <= 0) {
			r->verdict = V_FAIL;
			snprintf(r->reason, sizeof(r->reason), "no session was recorded");
		} else if (code == 3) {
			r->verdict = V_SKIP;
			snprintf(r->reason, sizeof(r->reason), "the kernel cannot run here (td-kernels said why)");
		} else if (code != 0) {
			r->verdict = V_FAIL;
			snprintf(r->reason, sizeof(r->reason), "the kernel exited with status %d", code);
		} else {
			judge(r, db, events_dir, td_events_dir(events_dir), level ? atoi(level) : 0);
		}
		if (use_perf)
			td_perf_level1(kargv, &r->perf);
	}
print:
	for (int i = 0; i < n; i++)
		failed |= rs[i].verdict == V_FAIL;
	if (json)
		print_json(rs, n, perf_note, sysroot, no_pmu);
	else
		print_text(rs, n, perf_note, sysroot, no_pmu);
	free(rs);
	return failed ? 1 : 0;
}
