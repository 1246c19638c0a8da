/* tdctl plan: the pre-flight view of a collection — the perf groups a tree
 * level or a node list needs on a PMU model (events with encodings, the
 * nodes each group serves), whether the kernel will multiplex and each
 * group's share of time, what is not collectable and why, and how many
 * groups each level would need (text or JSON). Thin over planner.h. */
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/catalog.h"
#include "machine/encode.h"
#include "base/json.h"
#include "model/model.h"
#include "plan/planner.h"
#include "machine/pmu.h"
#include "tdctl.h"

#define USAGE                                                                                      \
	"usage: tdctl plan [--pmu MODEL] [-l LEVEL | --nodes LIST] [--counters N] [--smt on|off] " \
	"[--watchdog on|off] [--events-dir DIR] [--json]"
#define MAX_NODES 64

struct plan_opts {
	const char *model, *dir, *nodes;
	char host[64];
	int level;	   /* 0: not given */
	int smt, watchdog; /* 1, 0, or -1: default */
	int counters;
	bool json;
	bool host_smt_known;
};

/* ---- options ---------------------------------------------------------------- */

static int on_off(const char *opt, const char *v, int *out)
{
	if (!strcmp(v, "on") || !strcmp(v, "off")) {
		*out = !strcmp(v, "on");
		return 0;
	}
	tdctl_error("plan: %s takes on or off, got '%s'", opt, v);
	return -1;
}

static int number(const char *opt, const char *v, long min, long max, int *out)
{
	long n;

	if (td_parse_long(v, min, max, &n)) {
		tdctl_error("plan: %s needs a number from %ld to %ld, got '%s'", opt, min, max, v);
		return -1;
	}
	*out = (int)n;
	return 0;
}

static int parse_opts(int argc, char **argv, struct plan_opts *o)
{
	static const struct option opts[] = {
		{ "pmu", required_argument, NULL, 'p' },
		{ "level", required_argument, NULL, 'l' },
		{ "nodes", required_argument, NULL, 'n' },
		{ "counters", required_argument, NULL, 'c' },
		{ "smt", required_argument, NULL, 's' },
		{ "watchdog", required_argument, NULL, 'w' },
		{ "events-dir", required_argument, NULL, 'E' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, rc = 0;

	optind = 1;
	while (!rc && (c = getopt_long(argc, argv, "p:l:jh", opts, NULL)) != -1) {
		switch (c) {
		case 'p':
			o->model = optarg;
			break;
		case 'l':
			rc = number("-l", optarg, 1, 99, &o->level);
			break;
		case 'n':
			o->nodes = optarg;
			break;
		case 'c':
			rc = number("--counters", optarg, 1, 32, &o->counters);
			break;
		case 's':
			rc = on_off("--smt", optarg, &o->smt);
			break;
		case 'w':
			rc = on_off("--watchdog", optarg, &o->watchdog);
			break;
		case 'E':
			o->dir = optarg;
			break;
		case 'j':
			o->json = true;
			break;
		case 'h':
			printf("%s\n", USAGE);
			return 1;
		default:
			tdctl_error("plan: bad option; %s", USAGE);
			return -1;
		}
	}
	if (rc)
		return -1;
	if (optind < argc) {
		tdctl_error("plan: unexpected argument '%s'; %s", argv[optind], USAGE);
		return -1;
	}
	if (o->level && o->nodes) {
		tdctl_error("plan: give -l LEVEL or --nodes LIST, not both");
		return -1;
	}
	return 0;
}

/* SMT and the NMI watchdog default to the host's when planning for the
 * host's own model (on a hybrid host, either core type's), else off. */
static void host_defaults(struct plan_opts *o)
{
	struct td_caps caps;

	if (o->smt >= 0 && o->watchdog >= 0)
		return;
	td_caps_detect(&caps);
	bool same = o->model && !strcmp(o->model, caps.pfm_model);
	for (int i = 0; o->model && i < caps.ncore_pmus; i++) /* a hybrid host's other core type */
		same |= !strcmp(o->model, caps.core_pmus[i].model);
	if (o->smt < 0)
		o->smt = same && caps.smt_on == 1;
	if (o->watchdog < 0)
		o->watchdog = same && caps.nmi_watchdog == 1;
}

/* Split "A,B C" into names (in place). */
static int split_nodes(char *list, const char **names)
{
	int n = 0;

	for (char *tok = strtok(list, ", "); tok && n < MAX_NODES; tok = strtok(NULL, ", "))
		names[n++] = tok;
	return n;
}

/* ---- text ------------------------------------------------------------------- */

static void print_event_text(const struct td_plan *p, const char *model, int alias, bool *enc_failed)
{
	const struct td_cat_event *e = &p->model->cat->events[alias];
	struct td_encoding enc;
	char cls[80];
	td_err err;

	printf("    %-18s %-20s %-44s", e->alias, td_plan_event_class(p, alias, cls, sizeof(cls)), e->spec);
	if (td_encode(e->spec, model, false, &enc, &err)) {
		printf(" cannot encode: %s\n", err.msg);
		*enc_failed = true;
		return;
	}
	if (enc.type_unknown)
		printf(" type=? config=0x%" PRIx64, (uint64_t)enc.attr.config);
	else
		printf(" type=%" PRIu32 " config=0x%" PRIx64, enc.attr.type, (uint64_t)enc.attr.config);
	if (enc.attr.config1) /* an extra register: offcore_rsp, frontend, ldlat */
		printf(" config1=0x%" PRIx64, (uint64_t)enc.attr.config1);
	printf("\n");
}

static void print_group_text(const struct td_plan *p, const char *model, int g, bool *enc_failed)
{
	const struct td_plan_group *grp = &p->groups[g];

	printf("\ngroup %d: %d events, %d general-purpose + %d fixed counters, about %.0f%% of the time\n", g + 1,
	       grp->nevents, grp->gp_used, grp->fixed_used, 100.0 * p->share);
	for (int i = 0; i < grp->nevents; i++)
		print_event_text(p, model, grp->events[i], enc_failed);
	printf("  serves:");
	for (int i = 0; i < grp->nitems; i++) {
		const struct td_plan_item *it = &p->items[grp->items[i]];
		printf("%s %s%s%s", i ? "," : "", it->kind == TD_PLAN_NODE ? "" : td_plan_kind_name(it->kind),
		       it->kind == TD_PLAN_NODE ? "" : " ", it->name);
		if (it->status == TD_PLAN_SPANS)
			printf(" (spans groups)");
	}
	putchar('\n');
}

static void count_kinds(const struct td_plan *p, int *n)
{
	memset(n, 0, 4 * sizeof(int));
	for (int i = 0; i < p->nitems; i++)
		n[p->items[i].kind]++;
}

static void print_problems(const struct td_plan *p)
{
	for (int s = TD_PLAN_SPANS; s <= TD_PLAN_NOT_COLLECTABLE; s++) {
		bool head = false;
		for (int i = 0; i < p->nitems; i++) {
			if ((int)p->items[i].status != s)
				continue;
			if (!head)
				printf("\n%s:\n", td_plan_status_name((enum td_plan_status)s));
			head = true;
			printf("  %s\n", p->items[i].reason);
		}
	}
}

/* Is the model's info metric or CPI component index i among the planned items? */
static bool planned(const struct td_plan *p, enum td_plan_kind kind, int i)
{
	for (int k = 0; k < p->nitems; k++)
		if (p->items[k].kind == kind && p->items[k].index == i)
			return true;
	return false;
}

/* The info metrics and CPI components the plan leaves out: their events are
 * not all in one group the chosen nodes opened (extras never open a group). */
static void print_left_out(const struct td_plan *p)
{
	const struct td_model *m = p->model;
	int n = 0;

	for (int i = 0; i < m->ninfos; i++)
		if (!planned(p, TD_PLAN_INFO, i))
			printf("%s info %s",
			       n++ ? ","
				   : "\nleft out (their events share no group the nodes open; a deeper "
				     "level or --nodes may bring them):\n ",
			       m->infos[i].name);
	for (int i = 0; i < m->ncpis; i++)
		if (!planned(p, TD_PLAN_CPI, i))
			printf("%s cpi %s",
			       n++ ? ","
				   : "\nleft out (their events share no group the nodes open; a deeper "
				     "level or --nodes may bring them):\n ",
			       m->cpis[i].name);
	if (n)
		putchar('\n');
}

static void print_levels_text(const int *levels, int max)
{
	printf("\nby level:");
	for (int l = 1; l <= max; l++) {
		if (levels[l] < 0)
			printf("%s level %d cannot be planned", l > 1 ? ";" : "", l);
		else if (levels[l] <= 1)
			printf("%s level %d fits in 1 group", l > 1 ? ";" : "", l);
		else
			printf("%s level %d needs %d groups (%.0f%% each)", l > 1 ? ";" : "", l, levels[l],
			       100.0 / levels[l]);
	}
	putchar('\n');
}

static void print_text(const struct td_plan *p, const struct plan_opts *o, const char *model, const int *levels,
		       int max, bool *enc_failed)
{
	int n[4];

	count_kinds(p, n);
	printf("%s (PMU model %s): ", p->model->cat->name, model);
	if (o->nodes)
		printf("nodes %s", o->nodes);
	else
		printf("level %d", o->level);
	printf(", SMT %s, NMI watchdog %s\n", o->smt ? "on" : "off", o->watchdog ? "counted" : "not counted");
	printf("counters per group: %s\n", p->budget.why);
	printf("planned: %d nodes, %d info metrics, %d cpi components%s\n", n[TD_PLAN_NODE], n[TD_PLAN_INFO],
	       n[TD_PLAN_CPI], n[TD_PLAN_CPI_BASE] ? " (with cpi-cycles/cpi-instructions)" : "");
	if (p->multiplex)
		printf("%d groups: the kernel multiplexes, each group counts about %.0f%% of the time\n", p->ngroups,
		       100.0 * p->share);
	else
		printf("%d group%s: no multiplexing\n", p->ngroups, p->ngroups == 1 ? "" : "s");
	for (int g = 0; g < p->ngroups; g++)
		print_group_text(p, model, g, enc_failed);
	print_problems(p);
	print_left_out(p);
	print_levels_text(levels, max);
}

/* ---- JSON ------------------------------------------------------------------- */

static void json_event(struct td_json *j, const struct td_plan *p, const char *model, int alias, bool *enc_failed)
{
	const struct td_cat_event *e = &p->model->cat->events[alias];
	struct td_encoding enc;
	char cls[80], hex[32];
	td_err err;

	td_json_object(j);
	td_json_kstring(j, "alias", e->alias);
	td_json_kstring(j, "event", e->spec);
	td_json_kstring(j, "class", td_plan_event_class(p, alias, cls, sizeof(cls)));
	if (td_encode(e->spec, model, false, &enc, &err)) {
		*enc_failed = true;
		td_json_kstring(j, "error", err.msg);
	} else {
		td_json_key(j, "type");
		if (enc.type_unknown)
			td_json_null(j);
		else
			td_json_uint(j, enc.attr.type);
		snprintf(hex, sizeof(hex), "0x%" PRIx64, (uint64_t)enc.attr.config);
		td_json_kstring(j, "config", hex);
		snprintf(hex, sizeof(hex), "0x%" PRIx64, (uint64_t)enc.attr.config1);
		td_json_kstring(j, "config1", enc.attr.config1 ? hex : NULL); /* an extra register, or null */
	}
	td_json_close(j);
}

static void json_group(struct td_json *j, const struct td_plan *p, const char *model, int g, bool *enc_failed)
{
	const struct td_plan_group *grp = &p->groups[g];

	td_json_object(j);
	td_json_kint(j, "group", g + 1);
	td_json_kdouble(j, "share", p->share);
	td_json_kint(j, "gp_used", grp->gp_used);
	td_json_kint(j, "fixed_used", grp->fixed_used);
	td_json_key(j, "events");
	td_json_array(j);
	for (int i = 0; i < grp->nevents; i++)
		json_event(j, p, model, grp->events[i], enc_failed);
	td_json_close(j);
	td_json_key(j, "serves");
	td_json_array(j);
	for (int i = 0; i < grp->nitems; i++)
		td_json_string(j, p->items[grp->items[i]].name);
	td_json_close(j);
	td_json_close(j);
}

static void json_item(struct td_json *j, const struct td_plan *p, int i)
{
	const struct td_plan_item *it = &p->items[i];

	td_json_object(j);
	td_json_kstring(j, "kind", td_plan_kind_name(it->kind));
	td_json_kstring(j, "name", it->name);
	td_json_kstring(j, "status", td_plan_status_name(it->status));
	td_json_key(j, "group");
	if (it->group >= 0)
		td_json_int(j, it->group + 1);
	else
		td_json_null(j);
	td_json_kstring(j, "reason", it->reason[0] ? it->reason : NULL);
	td_json_key(j, "events");
	td_json_array(j);
	for (int e = 0; e < it->nevents; e++)
		td_json_string(j, p->model->cat->events[it->events[e]].alias);
	td_json_close(j);
	td_json_close(j);
}

static void print_json(const struct td_plan *p, const struct plan_opts *o, const char *model, const int *levels,
		       int max, bool *enc_failed)
{
	struct td_json j;

	td_json_init(&j, stdout, 0);
	td_json_object(&j);
	td_json_kstring(&j, "file", p->model->cat->name);
	td_json_kstring(&j, "model", model);
	td_json_key(&j, "level");
	if (o->nodes)
		td_json_null(&j);
	else
		td_json_int(&j, o->level);
	td_json_kstring(&j, "nodes", o->nodes);
	td_json_kbool(&j, "smt", o->smt);
	td_json_kbool(&j, "watchdog", o->watchdog);
	td_json_key(&j, "budget");
	td_json_object(&j);
	td_json_kint(&j, "gp", p->budget.gp);
	td_json_key(&j, "fixed");
	td_json_array(&j);
	for (int k = 0; k < p->budget.nfixed; k++)
		if ((p->budget.fixed_mask >> k) & 1)
			td_json_int(&j, k);
	td_json_close(&j);
	td_json_kstring(&j, "why", p->budget.why);
	td_json_close(&j);
	td_json_kbool(&j, "multiplex", p->multiplex);
	td_json_kdouble(&j, "share", p->share);
	td_json_kint(&j, "not_collectable", p->nnot_collectable);
	td_json_kint(&j, "spans", p->nspans);
	td_json_key(&j, "groups");
	td_json_array(&j);
	for (int g = 0; g < p->ngroups; g++)
		json_group(&j, p, model, g, enc_failed);
	td_json_close(&j);
	td_json_key(&j, "items");
	td_json_array(&j);
	for (int i = 0; i < p->nitems; i++)
		json_item(&j, p, i);
	td_json_close(&j);
	td_json_key(&j, "left_out");
	td_json_array(&j);
	for (int i = 0; i < p->model->ninfos; i++)
		if (!planned(p, TD_PLAN_INFO, i))
			td_json_string(&j, p->model->infos[i].name);
	for (int i = 0; i < p->model->ncpis; i++)
		if (!planned(p, TD_PLAN_CPI, i))
			td_json_string(&j, p->model->cpis[i].name);
	td_json_close(&j);
	td_json_key(&j, "levels");
	td_json_array(&j);
	for (int l = 1; l <= max; l++) {
		td_json_object(&j);
		td_json_kint(&j, "level", l);
		td_json_kint(&j, "groups", levels[l]);
		td_json_close(&j);
	}
	td_json_finish(&j);
	putchar('\n');
}

/* ---- command ----------------------------------------------------------------- */

/* Groups each level needs with the same budget (-1 if it cannot be planned). */
static void plan_levels(const struct td_model *m, const struct td_plan_request *rq, int *levels, int max)
{
	for (int l = 1; l <= max; l++) {
		struct td_plan_request r = *rq;
		struct td_plan *p;
		td_err err;
		r.level = l;
		r.nodes = NULL;
		r.nnodes = 0;
		levels[l] = td_plan_make(m, &r, &p, &err) ? -1 : p->ngroups;
		td_plan_free(p);
	}
}

static int run_plan(const struct td_model *m, struct plan_opts *o, const char *model)
{
	const char *names[MAX_NODES];
	char *list = o->nodes ? strdup(o->nodes) : NULL;
	struct td_plan_request rq = {
		.level = o->level, .smt = o->smt, .watchdog = o->watchdog, .counters = o->counters
	};
	int max = td_plan_max_level(m), levels[100] = { 0 }, rc = 1;
	struct td_plan *p = NULL;
	bool enc_failed = false;
	td_err err;

	if (list) {
		rq.nnodes = split_nodes(list, names);
		rq.nodes = names;
	}
	if (td_plan_make(m, &rq, &p, &err)) {
		tdctl_error("plan: %s", err.msg);
		goto out;
	}
	plan_levels(m, &rq, levels, max < 99 ? max : 99);
	if (o->json)
		print_json(p, o, model, levels, max, &enc_failed);
	else
		print_text(p, o, model, levels, max, &enc_failed);
	rc = enc_failed ? 1 : 0;
out:
	td_plan_free(p);
	free(list);
	return rc;
}

/* Plan o->model's file (host defaults applied). */
static int plan_model(struct plan_opts *o)
{
	struct td_catalog *cat;
	struct td_model *m;
	td_err err;
	int rc;

	host_defaults(o);
	if (tdctl_find_catalog("plan", td_events_dir(o->dir), o->model, &cat))
		return 1;
	if (td_model_compile(cat, &m, &err)) {
		tdctl_error("%s", err.msg);
		td_catalog_free(cat);
		return 1;
	}
	rc = run_plan(m, o, o->model);
	td_model_free(m);
	td_catalog_free(cat);
	return rc;
}

/* A hybrid host without --pmu: one plan per core PMU (each core type counts its own groups
 * on a thread, only while the thread runs there), each headed by the PMU and its CPUs. */
static int plan_hybrid(struct plan_opts *o, const struct td_caps *caps)
{
	int rc = 0;

	if (o->json) {
		tdctl_error(
			"plan: this host has a core PMU per core type (%s, %s): with --json give --pmu %s or --pmu %s",
			caps->core_pmus[0].name, caps->core_pmus[1].name, caps->core_pmus[0].model,
			caps->core_pmus[1].model);
		return 2;
	}
	for (int i = 0; i < caps->ncore_pmus; i++) {
		const struct td_core_pmu *p = &caps->core_pmus[i];
		struct plan_opts one = *o;
		printf("%s== %s PMU (CPUs %s), type %d: PMU model %s ==\n", i ? "\n" : "", p->name,
		       p->cpus[0] ? p->cpus : "?", p->type, p->model[0] ? p->model : "none");
		fflush(stdout);
		if (!p->model[0]) {
			tdctl_error("plan: topdown knows no PMU model for %s on this CPU; give --pmu MODEL", p->name);
			rc = 1;
			continue;
		}
		one.model = p->model;
		if (plan_model(&one))
			rc = 1;
	}
	return rc;
}

int cmd_plan(int argc, char **argv)
{
	struct plan_opts o = { .smt = -1, .watchdog = -1 };
	struct td_caps caps;

	int rc = parse_opts(argc, argv, &o);
	if (rc)
		return rc > 0 ? 0 : 2;
	if (!o.level && !o.nodes)
		o.level = 1;
	if (!o.model) {
		td_caps_detect(&caps);
		if (caps.ncore_pmus > 1)
			return plan_hybrid(&o, &caps);
		if (tdctl_host_model("plan", o.host, sizeof(o.host)))
			return 1;
		o.model = o.host;
	}
	return plan_model(&o);
}
