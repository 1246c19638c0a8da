/* session_plan: a session's perf group specs from the events files —
 * software.td split (--counters) by counter_packing, the model file's tree packed by
 * the planner (-l, --nodes, or the deepest level without multiplexing),
 * generic.td where no model file applies — and which model file that is
 * (the host's, or --pmu MODEL's). */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/catalog.h"
#include "machine/encode.h"
#include "plan/counter_packing.h"
#include "model/model.h"
#include "plan/planner.h"
#include "session_impl.h"

/* ---- event groups from the events files -------------------------------- */

/* Which group each event of cat goes into: one group, or with --counters N
 * the simple packing of counter_packing.h. Returns the number of groups or -1. */
static int split_events(const struct td_session *rs, const struct td_catalog *cat, int *group, td_err *err)
{
	struct td_model *m;
	int n;

	if (rs->o.counters <= 0) {
		for (int i = 0; i < cat->nevents; i++)
			group[i] = 0;
		return cat->nevents > 0 ? 1 : 0;
	}
	if (td_model_compile(cat, &m, err))
		return -1;
	n = td_counter_packing(m, rs->o.counters, group);
	td_model_free(m);
	return n;
}

/* Open ngroups new, empty specs for file; returns the first one's index or -1. */
static int new_specs(struct td_session *rs, const char *file, const char *what, int ngroups, td_err *err)
{
	int first = rs->nspecs;

	if (first + ngroups > TD_MAX_SPECS) {
		td_err_set(err,
			   "%s needs more perf groups than the %d tdctl can open: give a lower -l, fewer --nodes or "
			   "a larger --counters",
			   what, TD_MAX_SPECS);
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
static int spec_add_event(struct td_session *rs, int g, const struct td_catalog *cat, int i, td_err *err)
{
	struct td_encoding enc;
	struct td_perf_group_spec *spec = &rs->specs[g];
	td_err e;

	if (td_encode(cat->events[i].spec, rs->encode_model, rs->caps.kernel_allowed, &enc, &e)) {
		td_err_set(err, "%s:%d: %s", cat->name, cat->events[i].line, e.msg);
		return -1;
	}
	snprintf(rs->spec_events[g][spec->n], sizeof(rs->spec_events[0][0]), "%s", cat->events[i].spec);
	if (td_perf_group_spec_add(spec, cat->events[i].alias, &enc.attr)) {
		td_err_set(err, "%s: more than %d events in one group", cat->name, TD_GROUP_MAX);
		return -1;
	}
	return 0;
}

/* Keep file's catalog and model (may be NULL) for live evaluation; freed when there is no room. */
static void keep_file(struct td_session *rs, const char *file, struct td_catalog *cat, struct td_model *model)
{
	const int max = (int)(sizeof(rs->plan_files) / sizeof(rs->plan_files[0]));
	struct plan_file *k = &rs->plan_files[rs->nplan_files];

	if (rs->nplan_files == max) { /* live evaluation reads it again */
		td_model_free(model);
		td_catalog_free(cat);
		return;
	}
	snprintf(k->name, sizeof(k->name), "%s", file);
	k->cat = cat;
	k->model = model;
	rs->nplan_files++;
}

void session_plan_files_free(struct td_session *rs)
{
	for (int i = 0; i < rs->nplan_files; i++) {
		td_model_free(rs->plan_files[i].model);
		td_catalog_free(rs->plan_files[i].cat);
	}
	rs->nplan_files = 0;
}

static int load_spec(struct td_session *rs, const char *file, td_err *err)
{
	char path[1024];
	struct td_catalog *cat;
	int group[256], ngroups, rc, first;

	snprintf(path, sizeof(path), "%s/%s", td_events_dir(rs->o.events_dir), file);
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
	if (rc)
		td_catalog_free(cat);
	else
		keep_file(rs, file, cat, NULL);
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
static int make_plan(struct td_session *rs, const struct td_model *m, char *nodes_buf, struct td_plan **plan,
		     td_err *err)
{
	const char *names[64];
	struct td_plan_request rq = {
		.smt = rs->caps.smt_on == 1,
		.watchdog = !rs->encode_model && rs->caps.nmi_watchdog == 1,
		.counters = rs->o.counters,
	};

	if (rs->o.nodes) {
		rq.nodes = names;
		rq.nnodes = split_list(nodes_buf, names, 64);
		return td_plan_make(m, &rq, plan, err);
	}
	if (rs->o.level > 0) {
		rq.level = rs->o.level;
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

/* A note to say once the groups count. -1 when out of memory. */
static int plan_note(struct td_session *rs, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int plan_note(struct td_session *rs, const char *fmt, ...)
{
	char **slot = td_array_push(&rs->plan_notes, &rs->nplan_notes, sizeof(*rs->plan_notes));
	va_list ap;
	int n;

	if (!slot)
		return -1;
	va_start(ap, fmt);
	n = vasprintf(slot, fmt, ap);
	va_end(ap);
	if (n < 0) {
		*slot = NULL;
		return -1;
	}
	return 0;
}

/* What the plan leaves out or multiplexes, said once the groups are open
 * and count (where nothing of it counts, the summary says why, once). */
static int plan_notes(struct td_session *rs, const struct td_plan *p, const char *file)
{
	int shown = 0;

	if (p->multiplex && plan_note(rs,
				      "%s needs %d perf groups: the kernel multiplexes them, each counts "
				      "about %.0f%% of the time ('tdctl plan' shows them)",
				      file, p->ngroups, 100 * p->share))
		return -1;
	for (int i = 0; i < p->nitems && shown < 3; i++)
		if (p->items[i].status == TD_PLAN_NOT_COLLECTABLE) {
			if (plan_note(rs, "%s is not collected: %s", p->items[i].name, p->items[i].reason))
				return -1;
			shown++;
		}
	if (p->nnot_collectable > shown &&
	    plan_note(rs, "%d more nodes not collected ('tdctl plan' says why)", p->nnot_collectable - shown))
		return -1;
	return 0;
}

/* The parts spec g is opened in past its first (a split at open or by the probe). */
static int extra_parts(const struct td_session *rs, int g)
{
	return rs->specs[g].n ? rs->specs[g].sub[rs->specs[g].n - 1] : 0;
}

void session_print_plan_notes(const struct td_session *rs)
{
	bool counting = false;

	for (int g = 0; g < rs->nspecs && !counting; g++)
		counting = !strcmp(rs->spec_files[g], rs->caps.events_file) && !session_spec_disabled(rs, g);
	for (int i = 0; counting && i < rs->nplan_notes; i++)
		if (rs->plan_notes[i])
			session_say(rs, TD_SAY_NOTE, "%s", rs->plan_notes[i]);
	/* the kernel's groups, where the model file's were split (session_number_groups) */
	int planned = 0, opened = 0;
	for (int g = 0; counting && g < rs->nspecs; g++)
		if (!strcmp(rs->spec_files[g], rs->caps.events_file) && !session_spec_disabled(rs, g)) {
			planned++;
			opened += 1 + extra_parts(rs, g);
		}
	if (opened > planned)
		session_say(rs, TD_SAY_NOTE, "%s is counted in %d perf groups after the splits above (planned: %d)",
			    rs->caps.events_file, opened, planned);
}

/* The model events file's tree as the planner packs it: one spec per group. */
static int load_planned(struct td_session *rs, const char *file, td_err *err)
{
	char path[1024], nodes_buf[1024];
	struct td_catalog *cat;
	struct td_model *m = NULL;
	struct td_plan *plan = NULL;
	int rc = -1, first;

	snprintf(path, sizeof(path), "%s/%s", td_events_dir(rs->o.events_dir), file);
	snprintf(nodes_buf, sizeof(nodes_buf), "%s", rs->o.nodes ? rs->o.nodes : "");
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
	if (!rc && plan_notes(rs, plan, file)) {
		td_err_set(err, "out of memory");
		rc = -1;
	}
out:
	td_plan_free(plan);
	if (!rc)
		keep_file(rs, file, cat, m);
	else {
		td_model_free(m);
		td_catalog_free(cat);
	}
	return rc;
}

/* Why spec g does not count (NULL: it counts), whichever opened it. */
const char *session_spec_disabled(const struct td_session *rs, int g)
{
	return rs->sys ? td_syswide_disabled(rs->sys, g) : td_collector_disabled(rs->col, g);
}

/* The parts spec g is counted in past its first (0: one group). */

void session_number_groups(struct td_session *rs)
{
	int extra = 0;

	for (int g = 0; g < rs->nspecs; g++) {
		const uint8_t *sub;
		const char *why = rs->sys ? td_syswide_split(rs->sys, g, &sub) : td_collector_split(rs->col, g, &sub);

		memcpy(rs->specs[g].sub, sub, sizeof(rs->specs[g].sub));
		rs->split_note[g][0] = '\0';
		if (why) {
			snprintf(rs->split_note[g], sizeof(rs->split_note[g]), "group %d of %s split: %s",
				 rs->spec_group[g] + 1, rs->spec_files[g], why);
			session_say(rs, TD_SAY_NOTE, "%s", rs->split_note[g]);
		}
		/* the store: parts past the first numbered after every spec */
		for (int i = 0; i < rs->specs[g].n; i++)
			rs->event_group[g][i] = sub[i] ? rs->nspecs + extra + sub[i] - 1 : g;
		extra += extra_parts(rs, g);
	}
	/* live evaluation: a file's parts numbered after its specs, in spec order */
	for (int g = 0; g < rs->nspecs; g++) {
		int specs = 0, parts = 0, before = 0;
		for (int k = 0; k < rs->nspecs; k++)
			if (!strcmp(rs->spec_files[k], rs->spec_files[g])) {
				specs++;
				parts += extra_parts(rs, k);
				before += k < g ? extra_parts(rs, k) : 0;
			}
		rs->file_groups[g] = specs + parts;
		for (int i = 0; i < rs->specs[g].n; i++)
			rs->live_group[g][i] =
				rs->specs[g].sub[i] ? specs + before + rs->specs[g].sub[i] - 1 : rs->spec_group[g];
	}
}

/* A hybrid host's second core PMU (cpu_atom): a thread is counted on both, each core type's
 * groups counting only while it runs there (as perf does), when the session follows threads
 * and plans levels; its file, metric prefix and the session's model spec into rs. Otherwise
 * the P-cores' file alone, with a note. -1 only when out of memory. */
static int choose_hybrid(struct td_session *rs, const char *dir)
{
	const struct td_core_pmu *second = &rs->caps.core_pmus[1];
	const char *pmu = td_hybrid_pmu_of_model(second->model);

	if (rs->caps.ncore_pmus != 2 || !rs->caps.events_file[0] ||
	    strcmp(rs->caps.core_pmus[0].model, rs->caps.pfm_model) || !pmu ||
	    td_catalog_find(dir, second->model, rs->hybrid_file, sizeof(rs->hybrid_file)))
		return 0;
	if (rs->o.system || rs->o.cgroup || rs->o.nodes) {
		rs->hybrid_file[0] = '\0';
		return plan_note(rs,
				 "this hybrid CPU's %s (CPUs %s) is not counted %s: only %s's tree is; give --pmu %s "
				 "for it",
				 second->name, second->cpus[0] ? second->cpus : "?",
				 rs->o.nodes ? "with --nodes" : "system-wide or per cgroup", rs->caps.core_pmus[0].name,
				 second->model)
			       ? -1
			       : 0;
	}
	snprintf(rs->hybrid_prefix, sizeof(rs->hybrid_prefix), "%s:", pmu);
	snprintf(rs->hybrid_spec, sizeof(rs->hybrid_spec), "%s+%s", rs->caps.pfm_model, second->model);
	return 0;
}

/* The model events file: --pmu MODEL's (encoded for MODEL when it is not
 * the host's), else the one serving the host's libpfm4 model, if any. */
int session_choose_model(struct td_session *rs, td_err *err)
{
	const char *dir = td_events_dir(rs->o.events_dir);

	if (rs->o.pmu_model) {
		if (td_catalog_find(dir, rs->o.pmu_model, rs->caps.events_file, sizeof(rs->caps.events_file))) {
			td_err_set(err,
				   "no events file in %s serves PMU model '%s': 'tdctl events --pmu MODEL' shows the "
				   "models with files",
				   dir, rs->o.pmu_model);
			return -1;
		}
		if (strcmp(rs->o.pmu_model, rs->caps.pfm_model) != 0)
			rs->encode_model = rs->o.pmu_model;
		snprintf(rs->caps.pfm_model, sizeof(rs->caps.pfm_model), "%s", rs->o.pmu_model);
	} else if (rs->caps.pfm_model[0]) {
		td_catalog_find(dir, rs->caps.pfm_model, rs->caps.events_file, sizeof(rs->caps.events_file));
	}
	if (!rs->o.pmu_model && choose_hybrid(rs, dir))
		return -1;
	if ((rs->o.level > 0 || rs->o.nodes) && !rs->caps.events_file[0]) {
		td_err_set(err,
			   "-l/--nodes need a model events file and none serves this CPU (PMU model '%s'): run without "
			   "them, or name a model with --pmu MODEL; 'tdctl doctor' says why",
			   rs->caps.pfm_model[0] ? rs->caps.pfm_model : "none");
		return -1;
	}
	return 0;
}

/* ---- -e EVENTS: counted beside the files' groups ----------------------- */

/* The next item of a perf -e list: commas inside a pmu/.../ term or {...}
 * belong to it. Returns its length (0 at the end). */
static size_t next_item(const char *p)
{
	int slashes = 0, braces = 0;
	size_t n = 0;

	for (; p[n] && (p[n] != ',' || slashes % 2 || braces); n++) {
		slashes += p[n] == '/';
		braces += p[n] == '{' ? 1 : p[n] == '}' ? -1 : 0;
	}
	return n;
}

/* Append printf output to the growable text *t (length *len). */
static int text_add(char **t, size_t *len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int text_add(char **t, size_t *len, const char *fmt, ...)
{
	va_list ap;
	int n;
	char *grown;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || !(grown = realloc(*t, *len + (size_t)n + 1)))
		return -1;
	*t = grown;
	va_start(ap, fmt);
	vsnprintf(*t + *len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	*len += (size_t)n;
	return 0;
}

/* Each -e event in a group of its own (perf counts them so too: one that
 * cannot be counted takes no other with it), file "-e", named by its
 * spelling (spec_group: its index i, E<i+1> in the text), and the text of an
 * events file for live evaluation: event E<i> SPELLING, info NAME Count = E<i>
 * (NAME: the spelling with every other character than letters, digits and
 * '_' made '_'). An event libpfm4 cannot encode is an error. */
static int load_extra(struct td_session *rs, td_err *err)
{
	size_t len = 0;
	int i = 0;

	if (text_add(&rs->extra_td, &len, "pmu perf\ntitle Events given with -e\nversion command line\n"))
		goto oom;
	for (const char *p = rs->o.extra_events; *p; i++) {
		size_t n = next_item(p);
		char spell[256], name[sizeof(spell) + 2];
		struct td_encoding enc;
		td_err e;
		int g;
		if (n == 0 || n >= sizeof(spell)) {
			td_err_set(err,
				   n ? "-e: event '%.40s...' is longer than %zu characters"
				     : "-e: an empty event in '%s'",
				   n ? p : rs->o.extra_events, sizeof(spell) - 1);
			return -1;
		}
		snprintf(spell, sizeof(spell), "%.*s", (int)n, p);
		p += n + (p[n] == ',');
		if (td_encode(spell, rs->encode_model, rs->caps.kernel_allowed, &enc, &e)) {
			td_err_set(err, "-e %s: %s", spell, e.msg);
			return -1;
		}
		snprintf(name, sizeof(name), "%s%s", isdigit((unsigned char)spell[0]) ? "E_" : "", spell);
		for (char *c = name; *c; c++)
			if (!isalnum((unsigned char)*c) && *c != '_')
				*c = '_';
		if ((g = new_specs(rs, "-e", "-e EVENTS", 1, err)) < 0)
			return -1;
		rs->spec_group[g] = i;
		snprintf(rs->spec_events[g][0], sizeof(rs->spec_events[0][0]), "%s", spell);
		char alias[16];
		snprintf(alias, sizeof(alias), "E%d", i + 1);
		if (strlen(spell) >= sizeof(rs->specs[g].names[0])) {
			td_err_set(err,
				   "-e %s: a name longer than %zu characters cannot be stored: give a shorter "
				   "spelling (libpfm4's name, or a raw cpu/event=...,umask=.../)",
				   spell, sizeof(rs->specs[g].names[0]) - 1);
			return -1;
		}
		/* the spelling names it (rows, messages); the events file reads it as E<i> */
		if (td_perf_group_spec_add(&rs->specs[g], spell, &enc.attr) ||
		    text_add(&rs->extra_td, &len,
			     "event %s %s | -e %s\ninfo %s Count = %s | %s, counted in each interval\n", alias, spell,
			     spell, name, alias, spell))
			goto oom;
	}
	return 0;
oom:
	td_err_set(err, "out of memory");
	return -1;
}

/* software.td on every thread; then the model file's tree when one applies (on a hybrid host
 * also the second core PMU's), else generic.td's cycles and instructions; then -e's events. Hardware
 * events are tried everywhere: where they fail the session says why, once. */
int session_load_events(struct td_session *rs, td_err *err)
{
	if (load_spec(rs, "software.td", err) ||
	    (rs->caps.events_file[0] ? load_planned(rs, rs->caps.events_file, err)
				     : load_spec(rs, "generic.td", err)) ||
	    (rs->hybrid_file[0] && load_planned(rs, rs->hybrid_file, err)))
		return -1;
	return rs->o.extra_events && *rs->o.extra_events ? load_extra(rs, err) : 0;
}
