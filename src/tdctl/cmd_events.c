/* tdctl events: shows the events file serving a PMU model — the metric tree
 * with domains, formulas and thresholds, each event alias with its
 * perf_event encoding, the info metrics and the CPI stack (text or JSON). */
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
#include "machine/pmu.h"
#include "tdctl.h"

#define USAGE "usage: tdctl events [--pmu MODEL] [--json] [--events-dir DIR]"

struct shown {
	const char *model;
	struct td_catalog *cat;
	struct td_model *m;
	int encode_failed;          /* events that cannot be encoded... */
	char first_failure[600];    /* ...and the first one's FILE:LINE message */
};

/* An event the output shows as not encodable: remembered for one stderr line at the end. */
static void encode_failure(struct shown *s, const struct td_cat_event *e, const char *why)
{
	static const char already[] = "cannot encode ";

	if (s->encode_failed++ > 0)
		return;
	if (!strncmp(why, already, strlen(already))) /* libpfm4's own "cannot encode event '...' ..." */
		snprintf(s->first_failure, sizeof(s->first_failure), "%s:%d: %s (alias %s)", s->cat->name, e->line,
			 why, e->alias);
	else
		snprintf(s->first_failure, sizeof(s->first_failure), "%s:%d: cannot encode %s: %s", s->cat->name,
			 e->line, e->alias, why);
}

/* ---- text ------------------------------------------------------------------ */

static void print_node_text(const struct td_model *m, int i)
{
	const struct td_node *n = &m->nodes[i];

	printf("  %*s%-*s %-10s = %s", 2 * (n->level - 1), "", 40 - 2 * (n->level - 1), n->name, n->domain,
	       n->f.text);
	if (n->threshold)
		printf("  | %s", n->threshold);
	putchar('\n');
	for (int c = 0; c < m->nnodes; c++)
		if (m->nodes[c].parent == i)
			print_node_text(m, c);
}

static void print_encoding_text(struct shown *s, const struct td_cat_event *e)
{
	struct td_encoding enc;
	td_err err;

	printf("  %-20s %-44s", e->alias, e->spec);
	if (td_encode(e->spec, s->model, false, &enc, &err)) {
		printf(" cannot encode: %s\n", err.msg);
		encode_failure(s, e, err.msg);
		return;
	}
	if (enc.type_unknown)
		printf(" type=? (no %s PMU on this host) config=0x%" PRIx64, enc.pmu, (uint64_t)enc.attr.config);
	else
		printf(" type=%" PRIu32 " config=0x%" PRIx64, enc.attr.type, (uint64_t)enc.attr.config);
	if (enc.attr.config1)
		printf(" config1=0x%" PRIx64, (uint64_t)enc.attr.config1);
	putchar('\n');
}

static void print_text(struct shown *s)
{
	const struct td_catalog *cat = s->cat;
	const struct td_model *m = s->m;

	printf("%s: %s (PMU model %s)\n", cat->name, cat->title[0] ? cat->title : "untitled", s->model);
	if (cat->version[0])
		printf("version: %s\n", cat->version);
	printf("\nTree (%d nodes): path, domain, formula, threshold\n", m->nnodes);
	for (int i = 0; i < m->nnodes; i++)
		if (m->nodes[i].parent < 0)
			print_node_text(m, i);
	printf("\nEvents (%d): alias, event string, encoding\n", cat->nevents);
	for (int i = 0; i < cat->nevents; i++)
		print_encoding_text(s, &cat->events[i]);
	printf("\nInfo metrics (%d)\n", m->ninfos);
	for (int i = 0; i < m->ninfos; i++)
		printf("  %-24s %-8s = %s\n", m->infos[i].name, m->infos[i].unit, m->infos[i].f.text);
	if (!m->has_cpi)
		return;
	printf("\nCPI stack: cycles = %s, instructions = %s (+ Other = CPI - sum)\n", m->cpi_cycles.text,
	       m->cpi_instructions.text);
	for (int i = 0; i < m->ncpis; i++)
		printf("  %-24s %-9s = %s\n", m->cpis[i].name, td_cpi_tag_name(m->cpis[i].tag), m->cpis[i].f.text);
}

/* ---- JSON ------------------------------------------------------------------ */

static void json_kv(const char *key, const char *val, bool comma)
{
	printf("\"%s\":", key);
	td_json_str(stdout, val);
	if (comma)
		putchar(',');
}

static void json_node(const struct td_model *m, int i)
{
	const struct td_node *n = &m->nodes[i];

	putchar('{');
	json_kv("path", n->path, true);
	json_kv("name", n->name, true);
	printf("\"level\":%d,", n->level);
	json_kv("parent", n->parent >= 0 ? m->nodes[n->parent].path : NULL, true);
	json_kv("domain", n->domain, true);
	json_kv("formula", n->f.text, true);
	json_kv("threshold", n->threshold, true);
	json_kv("description", n->desc, true);
	printf("\"events\":[");
	for (int e = 0; e < n->f.nevents; e++) {
		printf("%s", e ? "," : "");
		td_json_str(stdout, m->cat->events[n->f.events[e]].alias);
	}
	printf("]}");
}

static void json_event(struct shown *s, const struct td_cat_event *e)
{
	struct td_encoding enc;
	td_err err;

	putchar('{');
	json_kv("alias", e->alias, true);
	json_kv("event", e->spec, true);
	json_kv("description", e->desc[0] ? e->desc : NULL, true);
	if (td_encode(e->spec, s->model, false, &enc, &err)) {
		encode_failure(s, e, err.msg);
		json_kv("error", err.msg, false);
	} else {
		char hex[32];
		json_kv("pmu", enc.pmu, true);
		if (enc.type_unknown)
			printf("\"type\":null,");
		else
			printf("\"type\":%" PRIu32 ",", enc.attr.type);
		snprintf(hex, sizeof(hex), "0x%" PRIx64, (uint64_t)enc.attr.config);
		json_kv("config", hex, true);
		snprintf(hex, sizeof(hex), "0x%" PRIx64, (uint64_t)enc.attr.config1);
		json_kv("config1", enc.attr.config1 ? hex : NULL, false);
	}
	putchar('}');
}

static void json_named(const char *name, const char *kind_key, const char *kind, const struct td_formula *f,
		       const char *desc)
{
	putchar('{');
	json_kv("name", name, true);
	json_kv(kind_key, kind, true);
	json_kv("formula", f->text, true);
	json_kv("description", desc, false);
	putchar('}');
}

static void print_json(struct shown *s)
{
	const struct td_catalog *cat = s->cat;
	const struct td_model *m = s->m;

	putchar('{');
	json_kv("file", cat->name, true);
	json_kv("title", cat->title, true);
	json_kv("version", cat->version, true);
	json_kv("model", s->model, true);
	printf("\"models\":[");
	for (int i = 0; i < cat->nmodels; i++) {
		printf("%s", i ? "," : "");
		td_json_str(stdout, cat->models[i]);
	}
	printf("],\"nodes\":[");
	for (int i = 0; i < m->nnodes; i++) {
		printf("%s", i ? "," : "");
		json_node(m, i);
	}
	printf("],\"events\":[");
	for (int i = 0; i < cat->nevents; i++) {
		printf("%s", i ? "," : "");
		json_event(s, &cat->events[i]);
	}
	printf("],\"info\":[");
	for (int i = 0; i < m->ninfos; i++) {
		printf("%s", i ? "," : "");
		json_named(m->infos[i].name, "unit", m->infos[i].unit, &m->infos[i].f, m->infos[i].desc);
	}
	printf("],\"cpi\":{");
	json_kv("cycles", m->has_cpi ? m->cpi_cycles.text : NULL, true);
	json_kv("instructions", m->has_cpi ? m->cpi_instructions.text : NULL, true);
	printf("\"components\":[");
	for (int i = 0; i < m->ncpis; i++) {
		printf("%s", i ? "," : "");
		json_named(m->cpis[i].name, "tag", td_cpi_tag_name(m->cpis[i].tag), &m->cpis[i].f, m->cpis[i].desc);
	}
	printf("]}}\n");
}

/* ---- command ----------------------------------------------------------------- */

int cmd_events(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "pmu", required_argument, NULL, 'p' },   { "json", no_argument, NULL, 'j' },
		{ "events-dir", required_argument, NULL, 'E' }, { "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *model = NULL, *dir = NULL;
	char host[64];
	bool json = false;
	int c;
	td_err err;

	optind = 1;
	while ((c = getopt_long(argc, argv, "p:jh", opts, NULL)) != -1) {
		switch (c) {
		case 'p': model = optarg; break;
		case 'j': json = true; break;
		case 'E': dir = optarg; break;
		case 'h': printf("%s\n", USAGE); return 0;
		default: tdctl_error("events: bad option; %s", USAGE); return 2;
		}
	}
	if (optind < argc) {
		tdctl_error("events: unexpected argument '%s'; %s", argv[optind], USAGE);
		return 2;
	}
	if (!model && tdctl_host_model("events", host, sizeof(host)))
		return 1;
	struct shown s = { .model = model ? model : host };
	if (tdctl_find_catalog("events", td_events_dir(dir), s.model, &s.cat))
		return 1;
	if (td_model_compile(s.cat, &s.m, &err)) {
		tdctl_error("%s", err.msg);
		td_catalog_free(s.cat);
		return 1;
	}
	if (json)
		print_json(&s);
	else
		print_text(&s);
	if (s.encode_failed > 1)
		tdctl_error("%s; and %d more event%s cannot be encoded (see the output): fix the file's 'event' lines",
			    s.first_failure, s.encode_failed - 1, s.encode_failed == 2 ? "" : "s");
	else if (s.encode_failed)
		tdctl_error("%s; fix the file's 'event' line", s.first_failure);
	td_model_free(s.m);
	td_catalog_free(s.cat);
	return s.encode_failed ? 1 : 0;
}
