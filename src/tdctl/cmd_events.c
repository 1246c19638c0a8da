/* tdctl events: shows the events file serving a PMU model — the metric tree
 * with domains, formulas and thresholds, each event alias with its
 * perf_event encoding, the info metrics and the CPI stack (text or JSON);
 * with --check, the encodings against libpfm4's (events_check.c). */
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
#include "events_check.h"
#include "tdctl.h"

#define USAGE "usage: tdctl events [--pmu MODEL] [--json | --check] [--events-dir DIR]"

struct shown {
	const char *model;
	struct td_catalog *cat;
	struct td_model *m;
	int encode_failed;	 /* events that cannot be encoded... */
	char first_failure[600]; /* ...and the first one's FILE:LINE message */
};

/* An event the output shows as not encodable: remembered for one stderr line at the end. */
static void encode_failure(struct shown *s, const struct td_cat_event *e, const char *why)
{
	static const char already[] = "cannot encode ";

	if (s->encode_failed++ > 0)
		return;
	if (!strncmp(why, already, strlen(already))) /* libpfm4's own "cannot encode event '...' ..." */
		snprintf(s->first_failure, sizeof(s->first_failure), "%s:%d: %s (alias %s)", s->cat->name, e->line, why,
			 e->alias);
	else
		snprintf(s->first_failure, sizeof(s->first_failure), "%s:%d: cannot encode %s: %s", s->cat->name,
			 e->line, e->alias, why);
}

/* ---- text ------------------------------------------------------------------ */

static void print_node_text(const struct td_model *m, int i)
{
	const struct td_node *n = &m->nodes[i];

	printf("  %*s%-*s %-10s = %s", 2 * (n->level - 1), "", 40 - 2 * (n->level - 1), n->name, n->domain, n->f.text);
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

static void json_node(struct td_json *j, const struct td_model *m, int i)
{
	const struct td_node *n = &m->nodes[i];

	td_json_object(j);
	td_json_kstring(j, "path", n->path);
	td_json_kstring(j, "name", n->name);
	td_json_kint(j, "level", n->level);
	td_json_kstring(j, "parent", n->parent >= 0 ? m->nodes[n->parent].path : NULL);
	td_json_kstring(j, "domain", n->domain);
	td_json_kstring(j, "formula", n->f.text);
	td_json_kstring(j, "threshold", n->threshold);
	td_json_kstring(j, "description", n->desc);
	td_json_key(j, "events");
	td_json_array(j);
	for (int e = 0; e < n->f.nevents; e++)
		td_json_string(j, m->cat->events[n->f.events[e]].alias);
	td_json_close(j);
	td_json_close(j);
}

static void json_event(struct td_json *j, struct shown *s, const struct td_cat_event *e)
{
	struct td_encoding enc;
	td_err err;

	td_json_object(j);
	td_json_kstring(j, "alias", e->alias);
	td_json_kstring(j, "event", e->spec);
	td_json_kstring(j, "description", e->desc[0] ? e->desc : NULL);
	if (td_encode(e->spec, s->model, false, &enc, &err)) {
		encode_failure(s, e, err.msg);
		td_json_kstring(j, "error", err.msg);
	} else {
		char hex[32];
		td_json_kstring(j, "pmu", enc.pmu);
		td_json_key(j, "type");
		if (enc.type_unknown)
			td_json_null(j);
		else
			td_json_uint(j, enc.attr.type);
		snprintf(hex, sizeof(hex), "0x%" PRIx64, (uint64_t)enc.attr.config);
		td_json_kstring(j, "config", hex);
		snprintf(hex, sizeof(hex), "0x%" PRIx64, (uint64_t)enc.attr.config1);
		td_json_kstring(j, "config1", enc.attr.config1 ? hex : NULL);
	}
	td_json_close(j);
}

static void json_named(struct td_json *j, const char *name, const char *kind_key, const char *kind,
		       const struct td_formula *f, const char *desc)
{
	td_json_object(j);
	td_json_kstring(j, "name", name);
	td_json_kstring(j, kind_key, kind);
	td_json_kstring(j, "formula", f->text);
	td_json_kstring(j, "description", desc);
	td_json_close(j);
}

static void print_json(struct shown *s)
{
	const struct td_catalog *cat = s->cat;
	const struct td_model *m = s->m;
	struct td_json j;

	td_json_init(&j, stdout, 0);
	td_json_object(&j);
	td_json_kstring(&j, "file", cat->name);
	td_json_kstring(&j, "title", cat->title);
	td_json_kstring(&j, "version", cat->version);
	td_json_kstring(&j, "model", s->model);
	td_json_key(&j, "models");
	td_json_array(&j);
	for (int i = 0; i < cat->nmodels; i++)
		td_json_string(&j, cat->models[i]);
	td_json_close(&j);
	td_json_key(&j, "nodes");
	td_json_array(&j);
	for (int i = 0; i < m->nnodes; i++)
		json_node(&j, m, i);
	td_json_close(&j);
	td_json_key(&j, "events");
	td_json_array(&j);
	for (int i = 0; i < cat->nevents; i++)
		json_event(&j, s, &cat->events[i]);
	td_json_close(&j);
	td_json_key(&j, "info");
	td_json_array(&j);
	for (int i = 0; i < m->ninfos; i++)
		json_named(&j, m->infos[i].name, "unit", m->infos[i].unit, &m->infos[i].f, m->infos[i].desc);
	td_json_close(&j);
	td_json_key(&j, "cpi");
	td_json_object(&j);
	td_json_kstring(&j, "cycles", m->has_cpi ? m->cpi_cycles.text : NULL);
	td_json_kstring(&j, "instructions", m->has_cpi ? m->cpi_instructions.text : NULL);
	td_json_key(&j, "components");
	td_json_array(&j);
	for (int i = 0; i < m->ncpis; i++)
		json_named(&j, m->cpis[i].name, "tag", td_cpi_tag_name(m->cpis[i].tag), &m->cpis[i].f, m->cpis[i].desc);
	td_json_finish(&j);
	putchar('\n');
}

/* ---- command ----------------------------------------------------------------- */

int cmd_events(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "pmu", required_argument, NULL, 'p' },
		{ "json", no_argument, NULL, 'j' },
		{ "events-dir", required_argument, NULL, 'E' },
		{ "help", no_argument, NULL, 'h' },
		{ "check", no_argument, NULL, 'c' },
		{ NULL, 0, NULL, 0 },
	};
	const char *model = NULL, *dir = NULL;
	char host[64];
	bool json = false, check = false;
	int c;
	td_err err;

	optind = 1;
	while ((c = getopt_long(argc, argv, "p:jh", opts, NULL)) != -1) {
		switch (c) {
		case 'p':
			model = optarg;
			break;
		case 'j':
			json = true;
			break;
		case 'E':
			dir = optarg;
			break;
		case 'c':
			check = true;
			break;
		case 'h':
			printf("%s\n"
			       "  --check  compare every event's encoding with libpfm4's for the model: ok, MISMATCH\n"
			       "           (both configs) or unknown to libpfm4; exits 1 on a mismatch\n",
			       USAGE);
			return 0;
		default:
			tdctl_error("events: bad option; %s", USAGE);
			return 2;
		}
	}
	if (optind < argc) {
		tdctl_error("events: unexpected argument '%s'; %s", argv[optind], USAGE);
		return 2;
	}
	if (json && check) {
		tdctl_error("events: --check prints a text report, not JSON: give one of --json and --check");
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
	if (check) {
		struct td_check_counts counts;
		int rc = td_events_check(s.cat, s.model, &counts);
		if (counts.mismatch)
			tdctl_error("events: %d encoding%s of %s differ%s from libpfm4's (see MISMATCH above): fix the "
				    "file's 'event' line%s or say in its description why libpfm4 is wrong",
				    counts.mismatch, counts.mismatch == 1 ? "" : "s", s.cat->name,
				    counts.mismatch == 1 ? "s" : "", counts.mismatch == 1 ? "" : "s");
		else if (counts.cannot_encode)
			tdctl_error(
				"events: %d event%s of %s cannot be encoded (see above): fix the file's 'event' lines",
				counts.cannot_encode, counts.cannot_encode == 1 ? "" : "s", s.cat->name);
		else if (counts.perf_name_mismatch)
			tdctl_error("events: %d perf-name line%s of %s name%s what perf parses as another event (see "
				    "MISMATCH above): fix the 'perf-name' or the 'event' line",
				    counts.perf_name_mismatch, counts.perf_name_mismatch == 1 ? "" : "s", s.cat->name,
				    counts.perf_name_mismatch == 1 ? "s" : "");
		td_model_free(s.m);
		td_catalog_free(s.cat);
		return rc;
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
