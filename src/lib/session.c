/* session: runs one monitoring session (run or attach) end to end. */
#include "session.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "catalog.h"
#include "collector.h"
#include "encode.h"
#include "evpack.h"
#include "live_metrics.h"
#include "model.h"
#include "planner.h"
#include "pmu.h"
#include "procfs.h"
#include "store.h"
#include "syswide.h"

#define SPEC_SOFTWARE 0
#define SPEC_HARDWARE 1

static const char *const proc_event_names[2] = { "VOLUNTARY_SWITCHES", "INVOLUNTARY_SWITCHES" };
static const char *const proc_event_specs[2] = { "proc:voluntary_ctxt_switches", "proc:nonvoluntary_ctxt_switches" };

struct run_state {
	const struct td_session_opts *o;
	struct td_caps caps;
	struct td_evgroup_spec specs[TD_MAX_SPECS];
	char spec_files[TD_MAX_SPECS][64];
	char spec_events[TD_MAX_SPECS][TD_GROUP_MAX][256];
	int nspecs;
	struct td_store *store;
	struct td_collector *col;
	int64_t session;
	int64_t event_ids[TD_MAX_SPECS][TD_GROUP_MAX];
	struct td_live *live;                          /* metric values per interval */
	int spec_live[TD_MAX_SPECS];                   /* live file of a spec, -1 none */
	int spec_group[TD_MAX_SPECS];                  /* the spec's group among its file's groups */
	char plan_note[1024];                          /* what the plan multiplexes or leaves out */
	const char *encode_model;                      /* --pmu MODEL other than the host's, else NULL */
	int spec_alias[TD_MAX_SPECS][TD_GROUP_MAX];    /* alias of each member in that file */
	int64_t proc_event_ids[2];
	int64_t interval_id;
	int seq;
	uint64_t interval_start;
	bool write_failed;
	pid_t child;
	int go_fd, exec_err_fd;
	int *error_exit;
	bool reported_failures;
	FILE *raw_dump;
	struct td_syswide *sys;                        /* record --system */
	int64_t core_ids[64][64], socket_ids[64];      /* aggregate targets of cores and sockets */
	int cg_fd;                                     /* record --cgroup: the cgroup directory, else -1 */
	char cg_path[512];
	int64_t cg_target;
	struct td_count cg_sum[TD_MAX_SPECS][TD_GROUP_MAX]; /* this interval, summed over CPUs */
	bool cg_have[TD_MAX_SPECS];
};

/* ---- event groups from the events files -------------------------------- */

/* Which group each event of cat goes into: one group, or with --counters N
 * the simple packing of evpack.h. Returns the number of groups or -1. */
static int split_events(const struct run_state *rs, const struct td_catalog *cat, int *group, td_err *err)
{
	struct td_model *m;
	int n;

	if (rs->o->counters <= 0) {
		for (int i = 0; i < cat->nevents; i++)
			group[i] = 0;
		return cat->nevents > 0 ? 1 : 0;
	}
	if (td_model_compile(cat, &m, err))
		return -1;
	n = td_evpack(m, rs->o->counters, group);
	td_model_free(m);
	return n;
}

/* Open ngroups new, empty specs for file; returns the first one's index or -1. */
static int new_specs(struct run_state *rs, const char *file, const char *what, int ngroups, td_err *err)
{
	int first = rs->nspecs;

	if (first + ngroups > TD_MAX_SPECS) {
		td_err_set(err, "%s needs more perf groups than the %d tdctl can open: give a lower -l, fewer --nodes or "
			   "a larger --counters", what, TD_MAX_SPECS);
		return -1;
	}
	for (int g = 0; g < ngroups; g++) {
		memset(&rs->specs[first + g], 0, sizeof(rs->specs[0]));
		snprintf(rs->spec_files[first + g], sizeof(rs->spec_files[0]), "%s", file);
		rs->spec_group[first + g] = g;
	}
	rs->nspecs += ngroups;
	return first;
}

/* Add event i of cat to spec g, encoded for rs->encode_model. */
static int spec_add_event(struct run_state *rs, int g, const struct td_catalog *cat, int i, td_err *err)
{
	struct td_encoding enc;
	struct td_evgroup_spec *spec = &rs->specs[g];
	td_err e;

	if (td_encode(cat->events[i].spec, rs->encode_model, rs->caps.kernel_allowed, &enc, &e)) {
		td_err_set(err, "%s:%d: %s", cat->name, cat->events[i].line, e.msg);
		return -1;
	}
	snprintf(rs->spec_events[g][spec->n], sizeof(rs->spec_events[0][0]), "%s", cat->events[i].spec);
	if (td_evgroup_spec_add(spec, cat->events[i].alias, &enc.attr)) {
		td_err_set(err, "%s: more than %d events in one group", cat->name, TD_GROUP_MAX);
		return -1;
	}
	return 0;
}

static int load_spec(struct run_state *rs, const char *file, td_err *err)
{
	char path[1024];
	struct td_catalog *cat;
	int group[256], ngroups, rc, first;

	snprintf(path, sizeof(path), "%s/%s", td_events_dir(rs->o->events_dir), file);
	if (td_catalog_load(path, &cat, err))
		return -1;
	if (cat->nevents > 256 || (ngroups = split_events(rs, cat, group, err)) < 0) {
		if (cat->nevents > 256)
			td_err_set(err, "%s: more than 256 events", cat->name);
		td_catalog_free(cat);
		return -1;
	}
	rc = (first = new_specs(rs, file, cat->name, ngroups, err)) < 0 ? -1 : 0;
	for (int i = 0; i < cat->nevents && !rc; i++)
		rc = spec_add_event(rs, first + group[i], cat, i, err);
	td_catalog_free(cat);
	return rc;
}

/* ---- the model file's tree: the planner's groups ------------------------- */

/* Split "A,B C" into at most max names (in place). */
static int split_list(char *list, const char **names, int max)
{
	int n = 0;
	char *save = NULL;

	for (char *tok = strtok_r(list, ", ", &save); tok && n < max; tok = strtok_r(NULL, ", ", &save))
		names[n++] = tok;
	return n;
}

/* The plan for -l, --nodes, or by default the deepest level that fits in
 * one group (no multiplexing; level 1 when even that needs several). */
static int make_plan(struct run_state *rs, const struct td_model *m, char *nodes_buf, struct td_plan **plan,
		     td_err *err)
{
	const char *names[64];
	struct td_plan_request rq = {
		.smt = rs->caps.smt_on == 1,
		.watchdog = !rs->encode_model && rs->caps.nmi_watchdog == 1,
		.counters = rs->o->counters,
	};

	if (rs->o->nodes) {
		rq.nodes = names;
		rq.nnodes = split_list(nodes_buf, names, 64);
		return td_plan_make(m, &rq, plan, err);
	}
	if (rs->o->level > 0) {
		rq.level = rs->o->level;
		return td_plan_make(m, &rq, plan, err);
	}
	*plan = NULL;
	for (int level = 1; level <= td_plan_max_level(m); level++) {
		struct td_plan *p;
		rq.level = level;
		if (td_plan_make(m, &rq, &p, err)) {
			td_plan_free(*plan);
			return -1;
		}
		if (*plan && p->ngroups > 1) {
			td_plan_free(p);
			break;
		}
		td_plan_free(*plan);
		*plan = p;
		if (p->ngroups > 1)
			break;
	}
	if (!*plan)
		td_err_set(err, "%s has no metric tree to plan", m->cat->name);
	return *plan ? 0 : -1;
}

/* What the plan leaves out or multiplexes, said once the groups are open
 * and count (where nothing of it counts, the summary says why, once). */
static void plan_notes(struct run_state *rs, const struct td_plan *p, const char *file)
{
	size_t len = 0, cap = sizeof(rs->plan_note);
	int shown = 0;

	if (p->multiplex)
		len += (size_t)snprintf(rs->plan_note + len, cap - len,
					"tdctl: note: %s needs %d perf groups: the kernel multiplexes them, each counts "
					"about %.0f%% of the time ('tdctl plan' shows them)\n", file, p->ngroups,
					100 * p->share);
	for (int i = 0; i < p->nitems && shown < 3 && len < cap; i++)
		if (p->items[i].status == TD_PLAN_NOT_COLLECTABLE) {
			len += (size_t)snprintf(rs->plan_note + len, cap - len, "tdctl: note: %s is not collected: %s\n",
						p->items[i].name, p->items[i].reason);
			shown++;
		}
	if (p->nnot_collectable > shown && len < cap)
		snprintf(rs->plan_note + len, cap - len, "tdctl: note: %d more nodes not collected ('tdctl plan' says "
			 "why)\n", p->nnot_collectable - shown);
}

static const char *spec_disabled(const struct run_state *rs, int g);

static void print_plan_notes(const struct run_state *rs)
{
	bool counting = false;

	for (int g = 0; g < rs->nspecs && !counting; g++)
		counting = !strcmp(rs->spec_files[g], rs->caps.events_file) && !spec_disabled(rs, g);
	if (counting && !rs->o->quiet)
		fputs(rs->plan_note, stderr);
}

/* The model events file's tree as the planner packs it: one spec per group. */
static int load_planned(struct run_state *rs, const char *file, td_err *err)
{
	char path[1024], nodes_buf[1024];
	struct td_catalog *cat;
	struct td_model *m = NULL;
	struct td_plan *plan = NULL;
	int rc = -1, first;

	snprintf(path, sizeof(path), "%s/%s", td_events_dir(rs->o->events_dir), file);
	snprintf(nodes_buf, sizeof(nodes_buf), "%s", rs->o->nodes ? rs->o->nodes : "");
	if (td_catalog_load(path, &cat, err))
		return -1;
	if (td_model_compile(cat, &m, err) || make_plan(rs, m, nodes_buf, &plan, err))
		goto out;
	/* members in the plan's order (a topdown group's leader first); an
	 * event the plan carries in several groups (fixed counters) is opened
	 * in each */
	rc = (first = new_specs(rs, file, cat->name, plan->ngroups, err)) < 0 ? -1 : 0;
	for (int g = 0; g < plan->ngroups && !rc; g++)
		for (int k = 0; k < plan->groups[g].nevents && !rc; k++)
			rc = spec_add_event(rs, first + g, cat, plan->groups[g].events[k], err);
	if (!rc)
		plan_notes(rs, plan, file);
out:
	td_plan_free(plan);
	td_model_free(m);
	td_catalog_free(cat);
	return rc;
}

/* Why spec g does not count (NULL: it counts), whichever opened it. */
static const char *spec_disabled(const struct run_state *rs, int g)
{
	return rs->sys ? td_syswide_disabled(rs->sys, g) : td_collector_disabled(rs->col, g);
}

/* The model events file: --pmu MODEL's (encoded for MODEL when it is not
 * the host's), else the one serving the host's libpfm4 model, if any. */
static int choose_model(struct run_state *rs, td_err *err)
{
	const char *dir = td_events_dir(rs->o->events_dir);

	if (rs->o->pmu_model) {
		if (td_catalog_find(dir, rs->o->pmu_model, rs->caps.events_file, sizeof(rs->caps.events_file))) {
			td_err_set(err, "no events file in %s serves PMU model '%s': 'tdctl events --pmu MODEL' shows the "
				   "models with files", dir, rs->o->pmu_model);
			return -1;
		}
		if (strcmp(rs->o->pmu_model, rs->caps.pfm_model) != 0)
			rs->encode_model = rs->o->pmu_model;
		snprintf(rs->caps.pfm_model, sizeof(rs->caps.pfm_model), "%s", rs->o->pmu_model);
	} else if (rs->caps.pfm_model[0]) {
		td_catalog_find(dir, rs->caps.pfm_model, rs->caps.events_file, sizeof(rs->caps.events_file));
	}
	if ((rs->o->level > 0 || rs->o->nodes) && !rs->caps.events_file[0]) {
		td_err_set(err, "-l/--nodes need a model events file and none serves this CPU (PMU model '%s'): run without "
			   "them, or name a model with --pmu MODEL; 'tdctl doctor' says why",
			   rs->caps.pfm_model[0] ? rs->caps.pfm_model : "none");
		return -1;
	}
	return 0;
}

/* ---- the sink: collector results into SQLite ---------------------------- */

static int ensure_thread_row(struct run_state *rs, struct td_thread *t)
{
	if (t->store_id > 0)
		return 0;
	t->store_id = td_store_thread_add(rs->store, rs->session, t->pid, t->tid, t->comm, t->first_seen_ns);
	return t->store_id > 0 ? 0 : -1;
}

static int sink_counts(void *ctx, const struct td_thread *ct, int spec, const struct td_count *c, int n)
{
	struct run_state *rs = ctx;
	struct td_thread *t = (struct td_thread *)ct;

	if (ensure_thread_row(rs, t))
		return -1;
	for (int i = 0; i < n; i++) {
		int64_t ev = spec == TD_SPEC_PROC ? rs->proc_event_ids[i] : rs->event_ids[spec][i];
		if (td_store_count_add(rs->store, rs->interval_id, t->store_id, ev, c[i].value, c[i].enabled,
				       c[i].running))
			return -1;
		if (spec != TD_SPEC_PROC && rs->live && rs->spec_live[spec] >= 0 &&
		    td_live_count(rs->live, rs->spec_live[spec], t->store_id, t->pid, t->comm, rs->spec_alias[spec][i],
				  rs->spec_group[spec], &c[i]))
			return -1;
	}
	/* threads may rename themselves at any time (pools, workers): keep comm current */
	if (spec == SPEC_SOFTWARE && !t->gone) {
		td_proc_comm(t->pid, t->tid, t->comm, sizeof(t->comm));
		return td_store_thread_seen(rs->store, t->store_id, t->comm, t->last_seen_ns, false);
	}
	return 0;
}

static int sink_gone(void *ctx, struct td_thread *t)
{
	struct run_state *rs = ctx;

	if (ensure_thread_row(rs, t))
		return -1;
	return td_store_thread_seen(rs->store, t->store_id, t->comm, t->last_seen_ns, true);
}

/* Target of a core or socket aggregate (created on first use); 0 if unknown. */
static int64_t cpu_aggregate(struct run_state *rs, int core, int socket)
{
	int64_t *id;

	if (socket < 0 || socket >= 64 || core >= 64)
		return 0;
	id = core >= 0 ? &rs->core_ids[socket][core] : &rs->socket_ids[socket];
	if (*id == 0)
		*id = td_store_cpu_add(rs->store, rs->session, -1, core, socket);
	return *id;
}

static int sink_cpu(void *ctx, struct td_cpu_slot *cpu, int spec, const struct td_count *c, int n)
{
	struct run_state *rs = ctx;
	int64_t agg[2];

	if (cpu->store_id <= 0 &&
	    (cpu->store_id = td_store_cpu_add(rs->store, rs->session, cpu->cpu, cpu->core, cpu->socket)) < 0)
		return -1;
	agg[0] = cpu->core >= 0 ? cpu_aggregate(rs, cpu->core, cpu->socket) : 0;
	agg[1] = cpu_aggregate(rs, -1, cpu->socket);
	if (agg[0] < 0 || agg[1] < 0)
		return -1;
	for (int i = 0; i < n; i++) {
		if (td_store_count_add(rs->store, rs->interval_id, cpu->store_id, rs->event_ids[spec][i], c[i].value,
				       c[i].enabled, c[i].running))
			return -1;
		if (rs->live && rs->spec_live[spec] >= 0 &&
		    td_live_count_agg(rs->live, rs->spec_live[spec], cpu->store_id, agg, rs->spec_alias[spec][i],
				      rs->spec_group[spec],
				      &c[i]))
			return -1;
	}
	return 0;
}

/* record --cgroup: the cgroup's counts on each CPU, summed over the CPUs. */
static int sink_cgroup_cpu(void *ctx, struct td_cpu_slot *cpu, int spec, const struct td_count *c, int n)
{
	struct run_state *rs = ctx;

	(void)cpu;
	for (int i = 0; i < n; i++) {
		rs->cg_sum[spec][i].value += c[i].value;
		rs->cg_sum[spec][i].enabled += c[i].enabled;
		rs->cg_sum[spec][i].running += c[i].running;
	}
	rs->cg_have[spec] = true;
	return 0;
}

static int write_cgroup_counts(struct run_state *rs)
{
	static const int64_t none[2] = { 0, 0 };

	if (rs->cg_target <= 0 &&
	    (rs->cg_target = td_store_target_add(rs->store, rs->session, "cgroup", 0, NULL, rs->cg_path)) < 0)
		return -1;
	for (int g = 0; g < rs->nspecs; g++) {
		if (!rs->cg_have[g])
			continue;
		for (int i = 0; i < rs->specs[g].n; i++) {
			const struct td_count *c = &rs->cg_sum[g][i];
			if (td_store_count_add(rs->store, rs->interval_id, rs->cg_target, rs->event_ids[g][i], c->value,
					       c->enabled, c->running))
				return -1;
			if (rs->live && rs->spec_live[g] >= 0 &&
			    td_live_count_agg(rs->live, rs->spec_live[g], rs->cg_target, none, rs->spec_alias[g][i],
					      rs->spec_group[g], c))
				return -1;
		}
	}
	memset(rs->cg_sum, 0, sizeof(rs->cg_sum));
	memset(rs->cg_have, 0, sizeof(rs->cg_have));
	return 0;
}

static const struct td_sink *sink_for(struct run_state *rs)
{
	static struct td_sink sink;

	sink.ctx = rs;
	sink.thread_born = NULL; /* rows are written with the interval that first counts them */
	sink.thread_gone = sink_gone;
	sink.counts = sink_counts;
	return &sink;
}

/* Keep the database within the run's retention limits: at the start and
 * then about once a minute. */
static void enforce_retention(struct run_state *rs)
{
	struct td_prune_result pr;
	td_err err;
	int every = 60000 / rs->o->interval_ms;

	if (!rs->o->max_age_ns && !rs->o->max_bytes)
		return;
	if (every < 1)
		every = 1;
	if (rs->seq % every != 0)
		return;
	if (td_store_prune(rs->store, rs->o->max_age_ns, rs->o->max_bytes, &pr, &err) && !rs->o->quiet)
		fprintf(stderr, "tdctl: retention: %s\n", err.msg);
}

/* Read everything and write one interval, in one transaction. */
static int write_interval(struct run_state *rs, bool final)
{
	uint64_t now = td_wall_ns();

	if (td_store_begin(rs->store))
		goto fail;
	rs->interval_id = td_store_interval_add(rs->store, rs->session, rs->seq, rs->interval_start, now);
	if (rs->interval_id < 0)
		goto fail_tx;
	if ((final ? td_collector_finish(rs->col, now, sink_for(rs)) : td_collector_sample(rs->col, now, sink_for(rs))))
		goto fail_tx;
	if (rs->sys && td_syswide_sample(rs->sys, rs->cg_fd >= 0 ? sink_cgroup_cpu : sink_cpu, rs))
		goto fail_tx;
	if (rs->sys && rs->cg_fd >= 0 && write_cgroup_counts(rs))
		goto fail_tx;
	if (rs->live && td_live_flush(rs->live, rs->interval_id, (double)(now - rs->interval_start) / 1e9))
		goto fail_tx;
	if (td_store_commit(rs->store))
		goto fail_tx;
	rs->seq++;
	rs->interval_start = now;
	if (!final)
		enforce_retention(rs);
	return 0;
fail_tx:
	td_store_rollback(rs->store);
fail:
	if (!rs->write_failed)
		fprintf(stderr, "tdctl: cannot write interval %d to the database: %s\n", rs->seq,
			td_store_errmsg(rs->store));
	rs->write_failed = true;
	return -1;
}

static int register_events(struct run_state *rs)
{
	for (int g = 0; g < rs->nspecs; g++) {
		const char *why = spec_disabled(rs, g);
		for (int i = 0; i < rs->specs[g].n; i++) {
			rs->event_ids[g][i] = td_store_event_add(rs->store, rs->session, rs->specs[g].names[i],
								 rs->spec_events[g][i], g, rs->specs[g].attrs[i].type,
								 rs->specs[g].attrs[i].config, why ? "failed" : "counting",
								 why, rs->spec_files[g]);
			if (rs->event_ids[g][i] < 0)
				return -1;
		}
	}
	for (int k = 0; k < 2; k++)
		if ((rs->proc_event_ids[k] = td_store_event_add(rs->store, rs->session, proc_event_names[k],
								proc_event_specs[k], -1, 0, 0, "counting", NULL, "proc")) < 0)
			return -1;
	return 0;
}

/* The models evaluated every interval: each events file with a group that
 * counts (software.td always; hardware files only where their groups open). */
static int setup_live(struct run_state *rs, td_err *err)
{
	if (!(rs->live = td_live_new(rs->store, rs->session, (int)sysconf(_SC_NPROCESSORS_ONLN)))) {
		td_err_set(err, "out of memory");
		return -1;
	}
	for (int g = 0; g < rs->nspecs; g++) {
		rs->spec_live[g] = -1;
		if (spec_disabled(rs, g))
			continue;
		for (int k = 0; k < g && rs->spec_live[g] < 0; k++)
			if (!strcmp(rs->spec_files[k], rs->spec_files[g]))
				rs->spec_live[g] = rs->spec_live[k];
		if (rs->spec_live[g] < 0) {
			char path[1024];
			int ngroups = 0;
			for (int k = 0; k < rs->nspecs; k++)
				ngroups += !strcmp(rs->spec_files[k], rs->spec_files[g]);
			snprintf(path, sizeof(path), "%s/%s", td_events_dir(rs->o->events_dir), rs->spec_files[g]);
			if ((rs->spec_live[g] = td_live_add_file(rs->live, path, ngroups, err)) < 0)
				return -1;
		}
		for (int i = 0; i < rs->specs[g].n; i++)
			rs->spec_alias[g][i] = td_live_alias(rs->live, rs->spec_live[g], rs->specs[g].names[i]);
	}
	return 0;
}

/* --rotate: every group but the first (software.td's group with TASK_CLOCK,
 * the always-on reference) takes turns. TD_DEBUG_RAW=FILE dumps what the
 * kernel reported for every delivered group (tests compare it with the DB). */
static int setup_rotation(struct run_state *rs, td_err *err)
{
	const char *dump = getenv("TD_DEBUG_RAW");

	if (dump && *dump) {
		if (!(rs->raw_dump = fopen(dump, "we"))) {
			td_err_set(err, "cannot write TD_DEBUG_RAW file '%s': %s", dump, strerror(errno));
			return -1;
		}
		td_collector_dump_raw(rs->col, rs->raw_dump);
	}
	if (rs->o->rotate_ms > 0) {
		bool rotated[TD_MAX_SPECS] = { false };
		for (int g = 1; g < rs->nspecs; g++)
			rotated[g] = true;
		td_collector_set_rotation(rs->col, 0, rotated);
	}
	return 0;
}

/* ---- targets ------------------------------------------------------------- */

static int find_command(const char *name, char *out, size_t len)
{
	const char *path = getenv("PATH");
	char *copy, *save = NULL;

	if (strchr(name, '/')) {
		struct stat st;
		snprintf(out, len, "%s", name);
		if (stat(name, &st) != 0)
			return -errno;
		if (!S_ISREG(st.st_mode))
			return -EISDIR;
		return access(name, X_OK) == 0 ? 0 : -errno;
	}
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	if (!(copy = strdup(path)))
		return -ENOMEM;
	for (char *dir = strtok_r(copy, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
		snprintf(out, len, "%s/%s", *dir ? dir : ".", name);
		if (access(out, X_OK) == 0) {
			free(copy);
			return 0;
		}
	}
	free(copy);
	return -ENOENT;
}

static int start_child(struct run_state *rs, td_err *err)
{
	int go[2], exec_err[2];
	char resolved[PATH_MAX];
	int rc = find_command(rs->o->argv[0], resolved, sizeof(resolved));

	if (rc == -ENOENT) {
		td_err_set(err, "command '%s' not found: check its name, or give its path", rs->o->argv[0]);
		*rs->error_exit = 127;
		return -1;
	}
	if (rc < 0) {
		td_err_set(err, "cannot execute '%s': %s: give an executable file", rs->o->argv[0],
			   rc == -EISDIR ? "not a regular file" : strerror(-rc));
		*rs->error_exit = 126;
		return -1;
	}
	if (pipe2(go, O_CLOEXEC) || pipe2(exec_err, O_CLOEXEC)) {
		td_err_set(err, "cannot create a pipe: %s", strerror(errno));
		return -1;
	}
	rs->child = fork();
	if (rs->child < 0) {
		td_err_set(err, "cannot fork: %s", strerror(errno));
		return -1;
	}
	if (rs->child == 0) {
		sigset_t none;
		char byte;
		int e;

		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		close(go[1]);
		close(exec_err[0]);
		/* wait until the counters are open, so the command is counted from its first instruction */
		if (read(go[0], &byte, 1) != 1)
			_exit(127);
		execvp(rs->o->argv[0], rs->o->argv);
		e = errno;
		if (write(exec_err[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(exec_err[1]);
	rs->go_fd = go[1];
	rs->exec_err_fd = exec_err[0];
	return 0;
}

/* Let the child exec; 0 when exec succeeded, else -errno. */
static int release_child(struct run_state *rs)
{
	int e = 0;
	ssize_t n;

	if (write(rs->go_fd, "g", 1) != 1)
		return -EPIPE;
	close(rs->go_fd);
	rs->go_fd = -1;
	do
		n = read(rs->exec_err_fd, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(rs->exec_err_fd);
	rs->exec_err_fd = -1;
	return n == (ssize_t)sizeof(e) ? -e : 0;
}

static int check_attach_target(pid_t pid, td_err *err)
{
	uid_t owner;

	if (pid <= 0) {
		td_err_set(err, "bad PID '%d': give the PID of a running process", (int)pid);
		return -1;
	}
	if (pid == getpid()) {
		td_err_set(err, "tdctl cannot attach to itself: give another PID");
		return -1;
	}
	if (kill(pid, 0) != 0 && errno == ESRCH) {
		td_err_set(err, "no process with PID %d: check the PID with 'ps -p %d'", (int)pid, (int)pid);
		return -1;
	}
	if (td_proc_uid(pid, &owner) == 0 && geteuid() != 0 && owner != geteuid()) {
		td_err_set(err, "not allowed to monitor PID %d: it belongs to uid %u; run tdctl as that user or as root "
			   "(or with CAP_PERFMON and CAP_SYS_PTRACE)", (int)pid, (unsigned)owner);
		return -1;
	}
	return 0;
}

static void raise_fd_limit(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

/* ---- the loop ------------------------------------------------------------ */

static int arm_timer(int fd, int ms)
{
	struct itimerspec its;

	its.it_value.tv_sec = its.it_interval.tv_sec = ms / 1000;
	its.it_value.tv_nsec = its.it_interval.tv_nsec = (long)(ms % 1000) * 1000000L;
	return timerfd_settime(fd, 0, &its, NULL);
}

static void drain(int fd)
{
	uint64_t v;

	if (read(fd, &v, sizeof(v)) < 0)
		return;
}

/* Say once, as it happens, that threads go uncounted, and why. */
static void report_open_failures(struct run_state *rs)
{
	struct td_collector_stats st;

	td_collector_stats(rs->col, &st);
	if (st.open_failures > 0 && !rs->reported_failures) {
		fprintf(stderr, "tdctl: some threads cannot be counted: %s\n", st.last_failure);
		rs->reported_failures = true;
	}
}

static int pidfd_open_compat(pid_t pid)
{
#ifdef SYS_pidfd_open
	return (int)syscall(SYS_pidfd_open, pid, 0);
#else
	(void)pid;
	errno = ENOSYS;
	return -1;
#endif
}

static int status_code(int wstatus)
{
	if (WIFEXITED(wstatus))
		return WEXITSTATUS(wstatus);
	if (WIFSIGNALED(wstatus))
		return 128 + WTERMSIG(wstatus);
	return 1;
}

static void loop(struct run_state *rs, struct td_session_result *res, int sigfd)
{
	int tick = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	int scan = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	int rot = rs->o->rotate_ms > 0 ? timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK) : -1;
	pid_t target = rs->child ? rs->child : rs->o->attach_pid;
	int pidfd = target > 0 ? pidfd_open_compat(target) : -1;
	uint64_t deadline = rs->o->duration_ms ? td_now_ns() + (uint64_t)rs->o->duration_ms * 1000000ull : 0;
	bool done = false;

	if (tick < 0 || scan < 0) {
		snprintf(res->stop_reason, sizeof(res->stop_reason), "cannot create timers: %s", strerror(errno));
		fprintf(stderr, "tdctl: %s\n", res->stop_reason);
		done = true;
	}
	arm_timer(tick, rs->o->interval_ms);
	arm_timer(scan, rs->o->scan_ms);
	if (rot >= 0)
		arm_timer(rot, rs->o->rotate_ms);
	while (!done) {
		struct pollfd pfd[5] = {
			{ .fd = tick, .events = POLLIN }, { .fd = scan, .events = POLLIN },
			{ .fd = sigfd, .events = POLLIN }, { .fd = rot, .events = POLLIN },
			{ .fd = pidfd, .events = POLLIN },
		};
		int timeout = -1;
		if (deadline) {
			uint64_t now = td_now_ns();
			timeout = now >= deadline ? 0 : (int)((deadline - now) / 1000000ull) + 1;
		}
		int n = poll(pfd, 5, pidfd >= 0 ? timeout : (timeout < 0 || timeout > 50 ? 50 : timeout));
		if (n < 0 && errno != EINTR)
			break;
		if (rot >= 0 && (pfd[3].revents & POLLIN)) {
			drain(rot);
			td_collector_rotate(rs->col);
		}
		if (pfd[1].revents & POLLIN) {
			drain(scan);
			td_collector_scan(rs->col, td_wall_ns(), sink_for(rs));
			report_open_failures(rs);
		}
		if (pfd[0].revents & POLLIN) {
			drain(tick);
			write_interval(rs, false);
		}
		if (pfd[2].revents & POLLIN) {
			struct signalfd_siginfo si;
			if (read(sigfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
				if (rs->child) {
					/* the terminal already sent SIGINT to the command; pass on what it did not get */
					if (si.ssi_signo != SIGINT || si.ssi_code != SI_KERNEL)
						kill(rs->child, (int)si.ssi_signo);
				} else {
					snprintf(res->stop_reason, sizeof(res->stop_reason), "stopped by %s",
						 strsignal((int)si.ssi_signo));
					done = true;
				}
			}
		}
		if (pidfd >= 0 && (pfd[4].revents & POLLIN)) {
			snprintf(res->stop_reason, sizeof(res->stop_reason), "target exited");
			done = true;
		}
		if (!rs->sys && pidfd < 0 && td_collector_process_count(rs->col) == 0) {
			snprintf(res->stop_reason, sizeof(res->stop_reason), "target exited");
			done = true;
		}
		if (deadline && td_now_ns() >= deadline) {
			snprintf(res->stop_reason, sizeof(res->stop_reason), "duration reached");
			done = true;
		}
	}
	write_interval(rs, true);
	if (rs->child) {
		int wstatus = 0;
		if (!strcmp(res->stop_reason, "duration reached"))
			kill(rs->child, SIGTERM);
		if (waitpid(rs->child, &wstatus, 0) == rs->child)
			res->target_status = status_code(wstatus);
	}
	close(tick);
	close(scan);
	if (rot >= 0)
		close(rot);
	if (pidfd >= 0)
		close(pidfd);
}

static void fill_session_info(const struct run_state *rs, struct td_session_info *si, char *command, size_t len,
			      char *host, size_t hlen)
{
	size_t used = 0;

	command[0] = '\0';
	if (rs->o->argv) {
		for (int i = 0; rs->o->argv[i] && used + 2 < len; i++)
			used += (size_t)snprintf(command + used, len - used, "%s%s", i ? " " : "", rs->o->argv[i]);
	} else if (rs->sys && rs->cg_fd >= 0) {
		snprintf(command, len, "cgroup %s (%d CPUs)", rs->cg_path, td_syswide_ncpus(rs->sys));
	} else if (rs->sys) {
		snprintf(command, len, "system-wide (%d CPUs)", td_syswide_ncpus(rs->sys));
	} else {
		char comm[64] = "";
		char cmdline_path[64];
		snprintf(cmdline_path, sizeof(cmdline_path), "/proc/%d/comm", (int)rs->o->attach_pid);
		td_read_file(cmdline_path, comm, sizeof(comm));
		snprintf(command, len, "%s (PID %d)", comm, (int)rs->o->attach_pid);
	}
	if (gethostname(host, hlen) != 0)
		snprintf(host, hlen, "unknown");
	memset(si, 0, sizeof(*si));
	si->kind = rs->o->argv ? "run" : rs->cg_fd >= 0 ? "cgroup" : rs->sys ? "system" : "attach";
	si->command = command;
	si->target_pid = rs->child ? rs->child : rs->o->attach_pid;
	si->host = host;
	si->kernel = rs->caps.kernel;
	si->cpu_vendor = rs->caps.vendor;
	si->cpu_family = rs->caps.family;
	si->cpu_model = rs->caps.model;
	si->cpu_name = rs->caps.cpu_name;
	si->uarch = rs->caps.uarch;
	si->pmu_model = rs->caps.pfm_model;
	si->rung = td_rung_name(rs->caps.rung);
	si->rung_reason = rs->caps.rung_reason;
	si->events_file = rs->caps.events_file;
	si->interval_ms = rs->o->interval_ms;
	si->kernel_counted = rs->caps.kernel_allowed;
	si->smt = rs->caps.smt_on;
	si->num_cpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
}

static int setup_signals(sigset_t *old)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGQUIT);
	sigprocmask(SIG_BLOCK, &set, old);
	signal(SIGPIPE, SIG_IGN);
	return signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
}

static void cleanup(struct run_state *rs)
{
	if (rs->child > 0 && rs->go_fd >= 0) {
		/* never started: let it die without running the command */
		kill(rs->child, SIGKILL);
		waitpid(rs->child, NULL, 0);
	}
	if (rs->go_fd >= 0)
		close(rs->go_fd);
	if (rs->exec_err_fd >= 0)
		close(rs->exec_err_fd);
	td_collector_free(rs->col);
	td_live_free(rs->live);
	td_syswide_free(rs->sys);
	if (rs->cg_fd >= 0)
		close(rs->cg_fd);
	if (rs->raw_dump)
		fclose(rs->raw_dump);
	td_store_close(rs->store);
}

int td_session_execute(const struct td_session_opts *o, struct td_session_result *res, td_err *err)
{
	struct run_state rs;
	char command[1024], host[256];
	struct td_session_info si;
	sigset_t oldmask;
	int sigfd, ret = -1;

	memset(&rs, 0, sizeof(rs));
	memset(res, 0, sizeof(*res));
	rs.o = o;
	rs.go_fd = rs.exec_err_fd = rs.cg_fd = -1;
	res->error_exit = 1;
	rs.error_exit = &res->error_exit;
	td_caps_detect(&rs.caps);
	if (choose_model(&rs, err))
		return -1;
	td_caps_decide_rung(&rs.caps);
	if (!rs.caps.counting_allowed) {
		td_err_set(err, "%s", rs.caps.rung_reason);
		return -1;
	}

	if (o->system || o->cgroup) {
		char why[256];
		if (td_syswide_refusal(rs.caps.is_root, rs.caps.cap_perfmon, rs.caps.cap_sys_admin, rs.caps.paranoid, why,
				       sizeof(why))) {
			td_err_set(err, "%s", why);
			return -1;
		}
	} else if (!o->argv && check_attach_target(o->attach_pid, err)) {
		return -1;
	}
	if (load_spec(&rs, "software.td", err))
		return -1;
	/* hardware events are tried everywhere: where they fail the session says
	 * why, once. The model file's tree when one applies, else cycles and
	 * instructions. */
	if (rs.caps.events_file[0] ? load_planned(&rs, rs.caps.events_file, err) : load_spec(&rs, "generic.td", err))
		return -1;
	raise_fd_limit();
	if (td_store_open(o->db_path, TD_STORE_WRITE, &rs.store, err))
		return -1;
	td_store_recover(rs.store);
	sigfd = setup_signals(&oldmask);
	if (!(rs.col = td_collector_new(rs.specs, rs.nspecs, true, rs.caps.paranoid))) {
		td_err_set(err, "out of memory");
		goto out;
	}
	if (setup_rotation(&rs, err))
		goto out;
	if (o->argv && start_child(&rs, err))
		goto out;
	if (o->cgroup && (rs.cg_fd = td_cgroup_open(o->cgroup, rs.cg_path, sizeof(rs.cg_path), err)) < 0)
		goto out;
	if (o->system || o->cgroup ? td_syswide_open(rs.specs, rs.nspecs, rs.caps.paranoid, rs.cg_fd, &rs.sys, err)
		      : td_collector_add_process(rs.col, o->argv ? rs.child : o->attach_pid,
						 o->argv ? TD_OPEN_ENABLE_ON_EXEC : 0, sink_for(&rs), err))
		goto out;
	print_plan_notes(&rs);
	fill_session_info(&rs, &si, command, sizeof(command), host, sizeof(host));
	if ((rs.session = td_store_session_begin(rs.store, &si, err)) < 0)
		goto out;
	res->session_id = rs.session;
	if (register_events(&rs)) {
		td_err_set(err, "cannot write to database '%s': %s", o->db_path, td_store_errmsg(rs.store));
		td_store_session_end(rs.store, rs.session, "failed", -1, err->msg);
		goto out;
	}
	if (setup_live(&rs, err)) {
		td_store_session_end(rs.store, rs.session, "failed", -1, err->msg);
		goto out;
	}
	rs.interval_start = td_wall_ns();
	enforce_retention(&rs);
	if (o->argv) {
		int rc = release_child(&rs);
		if (rc < 0) {
			td_err_set(err, "cannot execute '%s': %s: give an executable file", o->argv[0], strerror(-rc));
			res->error_exit = rc == -ENOENT ? 127 : 126;
			td_store_session_end(rs.store, rs.session, "failed", res->error_exit, err->msg);
			waitpid(rs.child, NULL, 0);
			rs.child = 0;
			goto out;
		}
	}
	loop(&rs, res, sigfd);
	if (!o->quiet && td_live_spanning(rs.live) > 0)
		fprintf(stderr, "tdctl: note: %d formula%s read events of several groups (different time windows): their "
			"confidence is the product of the groups' coverage\n", td_live_spanning(rs.live),
			td_live_spanning(rs.live) == 1 ? "" : "s");
	{
		struct td_collector_stats st;
		char message[400];
		td_collector_stats(rs.col, &st);
		if (st.open_failures)
			snprintf(message, sizeof(message), "%s; %d thread%s not counted: %s", res->stop_reason,
				 st.open_failures, st.open_failures == 1 ? "" : "s", st.last_failure);
		else
			snprintf(message, sizeof(message), "%s", res->stop_reason);
		td_store_session_end(rs.store, rs.session, rs.write_failed ? "failed" : "completed",
				     o->argv ? res->target_status : -1, message);
	}
	ret = rs.write_failed ? -1 : 0;
	if (rs.write_failed)
		td_err_set(err, "some intervals could not be written to '%s'; the session is marked failed", o->db_path);
out:
	cleanup(&rs);
	if (sigfd >= 0)
		close(sigfd);
	sigprocmask(SIG_SETMASK, &oldmask, NULL);
	return ret;
}
