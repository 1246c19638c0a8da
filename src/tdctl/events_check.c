/* events_check: 'tdctl events --check' — every event of an events file set
 * against libpfm4: a raw form (cpu/event=...,umask=.../) is compared with the
 * encoding libpfm4 gives the event its description names (perfmon's
 * NAME.UMASK as libpfm4's NAME:UMASK, with the raw form's cmask/edge/inv as
 * :c= :e= :i=; OCR.A.B.C as OCR:A_B_C), config and config1 (the offcore-response,
 * frontend and load-latency extra registers), for the file's PMU model; a libpfm4
 * string is libpfm4's encoding by construction. A raw form whose extra register
 * libpfm4's table leaves out (same config, no config1) is "unknown" (raw, not in
 * libpfm4), not a mismatch. One line per event: ok, mismatch (both configs),
 * known (a libpfm4-differs line of the file says why libpfm4 is wrong), or
 * unknown to libpfm4 (with the description naming the source). */
#include "events_check.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "machine/encode.h"
#include "machine/pmu.h"
#include "model/catalog.h"

/* The value of TERM=V in the raw form spec ("cpu/event=0x9c,umask=0x1,cmask=4/"), or -1. */
static long raw_term(const char *spec, const char *term)
{
	size_t len = strlen(term);

	for (const char *p = strchr(spec, '/'); p && *p; p++) {
		if ((*p == '/' || *p == ',') && !strncmp(p + 1, term, len) && p[1 + len] == '=')
			return strtol(p + 2 + len, NULL, 0);
		if ((*p == '/' || *p == ',') && !strncmp(p + 1, term, len) && (p[1 + len] == ',' || p[1 + len] == '/'))
			return 1; /* a bare flag: "edge" */
	}
	return -1;
}

/* The event name a description starts with ("TOPDOWN.BACKEND_BOUND_SLOTS, slots ..."), as libpfm4
 * spells it ("TOPDOWN:BACKEND_BOUND_SLOTS"), with the raw form's modifiers appended; false when
 * the description names no event (its first word is not NAME.UMASK of letters, digits, '_'). */
static bool libpfm_name(const struct td_cat_event *e, char *out, size_t len)
{
	char name[128];
	size_t n = 0;
	bool dot = false;

	for (const char *p = e->desc; *p && *p != ',' && !isspace((unsigned char)*p); p++) {
		char c = *p;
		if (c == '.') {
			if (n == 0 || name[n - 1] == ':' || name[n - 1] == '_')
				return false;
			/* perfmon's OCR.DEMAND_RFO.L3_HIT.SNOOP_HITM is libpfm4's OCR:DEMAND_RFO_L3_HIT_SNOOP_HITM */
			c = dot ? '_' : ':';
			dot = true;
		} else if (!isalnum((unsigned char)c) && c != '_') {
			return false;
		}
		if (n + 1 >= sizeof(name))
			return false;
		name[n++] = (char)toupper((unsigned char)c);
	}
	name[n] = '\0';
	if (!dot || name[n - 1] == ':' || name[n - 1] == '_')
		return false;
	long cmask = raw_term(e->spec, "cmask"), edge = raw_term(e->spec, "edge"), inv = raw_term(e->spec, "inv");
	int w = snprintf(out, len, "%s%s", name, cmask > 0 ? ":c=" : "");
	if (cmask > 0)
		w += snprintf(out + w, len > (size_t)w ? len - (size_t)w : 0, "%ld", cmask);
	if (edge > 0)
		w += snprintf(out + w, len > (size_t)w ? len - (size_t)w : 0, ":e=1");
	if (inv > 0)
		w += snprintf(out + w, len > (size_t)w ? len - (size_t)w : 0, ":i=1");
	return w > 0 && (size_t)w < len;
}

/* The perf-name lines in perf's raw form (cpu/NAME,cmask=1/, cpu/exe_activity.3_ports_util,umask=0x80/):
 * what perf makes of the string — a JSON event name expanded to its encoding, every term ORed in
 * (machine/encode.c, after tools/perf/util/pmu.c) — must be the event's own encoding, since import
 * reads a count so named as that event. libpfm4 gives a JSON name's encoding: where the file says
 * libpfm4's table is wrong for the event (libpfm4-differs), a difference is known, not a mismatch.
 * Prints one line per such name; returns the mismatches. */
static int check_perf_names(const struct td_catalog *cat, const char *model)
{
	int bad = 0, n = 0;

	for (int i = 0; i < cat->nperf_names; i++) {
		const struct td_cat_perf_name *pn = &cat->perf_names[i];
		const struct td_cat_event *e = &cat->events[pn->event];
		struct td_encoding ours, perf;
		td_err err;

		if (!strchr(pn->name, '/'))
			continue;
		if (!n++)
			printf("perf-name lines in perf's raw form, as perf parses them:\n");
		if (td_encode(e->spec, model, false, &ours, &err)) {
			printf("  perf-name %-44s cannot encode %s: %s\n", pn->name, e->alias, err.msg);
			bad++;
		} else if (td_encode(pn->name, model, false, &perf, &err)) {
			printf("  perf-name %-44s unknown: %s\n", pn->name, err.msg);
		} else if (perf.attr.config != ours.attr.config || perf.attr.config1 != ours.attr.config1) {
			bool known = e->pfm_differs[0] != '\0';
			printf("  perf-name %-44s %s perf makes config=0x%" PRIx64 " config1=0x%" PRIx64
			       " of it, %s is "
			       "config=0x%" PRIx64 " config1=0x%" PRIx64 "%s\n",
			       pn->name, known ? "known   " : "MISMATCH", (uint64_t)perf.attr.config,
			       (uint64_t)perf.attr.config1, e->alias, (uint64_t)ours.attr.config,
			       (uint64_t)ours.attr.config1,
			       known ? " (libpfm4-differs: libpfm4 gave the name's encoding)" : "");
			bad += !known;
		} else {
			printf("  perf-name %-44s ok       config=0x%" PRIx64 " = %s\n", pn->name,
			       (uint64_t)perf.attr.config, e->alias);
		}
	}
	return bad;
}

int td_events_check(const struct td_catalog *cat, const char *model, struct td_check_counts *counts)
{
	bool model_known = td_pfm_has_model(model);

	memset(counts, 0, sizeof(*counts));
	printf("%s: encodings checked against libpfm4 for PMU model %s%s\n", cat->name, model,
	       model_known ? "" : " (this libpfm4 has no tables for that model: raw events are unknown to it)");
	/* the vendor source the file follows: a generated file's version line names the perfmon files,
	 * their versions and commit (tools/gen-td.py --compare says what changed upstream since) */
	printf("%s: source %s\n", cat->name, cat->version[0] ? cat->version : "not stated (no version line)");
	for (int i = 0; i < cat->nevents; i++) {
		const struct td_cat_event *e = &cat->events[i];
		struct td_encoding ours, theirs;
		char name[200];
		td_err err;

		if (td_encode(e->spec, model, false, &ours, &err)) {
			printf("  %-20s cannot encode  %s\n", e->alias, err.msg);
			counts->cannot_encode++;
			continue;
		}
		if (!ours.raw_form) {
			printf("  %-20s ok             %s is a libpfm4 event: config=0x%" PRIx64 " is libpfm4's\n",
			       e->alias, e->spec, (uint64_t)ours.attr.config);
			counts->ok++;
			continue;
		}
		if (!libpfm_name(e, name, sizeof(name))) {
			printf("  %-20s unknown        raw %s (config=0x%" PRIx64 "): its description names no "
			       "libpfm4 event; source: %s\n",
			       e->alias, e->spec, (uint64_t)ours.attr.config, e->desc);
			counts->unknown++;
			continue;
		}
		/* libpfm4 bakes a counter mask into some umasks (CYCLES_WITH_DATA_RD is c=1) and refuses
		 * it again: then the bare name, whose encoding must still be ours */
		char *mod = strchr(strchr(name, ':') + 1, ':');
		bool found = model_known && td_encode(name, model, false, &theirs, &err) == 0;
		if (!found && model_known && mod) {
			*mod = '\0';
			found = td_encode(name, model, false, &theirs, &err) == 0;
		}
		if (!found) {
			printf("  %-20s unknown        raw %s (config=0x%" PRIx64
			       "): libpfm4 has no %s::%s; source: %s\n",
			       e->alias, e->spec, (uint64_t)ours.attr.config, model, name, e->desc);
			counts->unknown++;
			continue;
		}
		/* an extra register (offcore_rsp, frontend, ldlat: config1) libpfm4's table does not set for
		 * an event it otherwise encodes alike: not comparable, so not a mismatch */
		if (ours.attr.config1 && !theirs.attr.config1 && ours.attr.config == theirs.attr.config) {
			printf("  %-20s unknown        raw %s (config=0x%" PRIx64 " config1=0x%" PRIx64
			       "): raw, not in "
			       "libpfm4: %s::%s has config=0x%" PRIx64 " but no extra register (config1); source: %s\n",
			       e->alias, e->spec, (uint64_t)ours.attr.config, (uint64_t)ours.attr.config1, model, name,
			       (uint64_t)theirs.attr.config, e->desc);
			counts->unknown++;
			continue;
		}
		bool differs = ours.attr.config != theirs.attr.config || ours.attr.config1 != theirs.attr.config1;
		if (differs && e->pfm_differs[0]) {
			char ours1[40] = "", theirs1[40] = ""; /* the extra registers, where either has one */
			if (ours.attr.config1 || theirs.attr.config1) {
				snprintf(ours1, sizeof(ours1), " config1=0x%" PRIx64, (uint64_t)ours.attr.config1);
				snprintf(theirs1, sizeof(theirs1), " config1=0x%" PRIx64,
					 (uint64_t)theirs.attr.config1);
			}
			printf("  %-20s known          ours %s config=0x%" PRIx64 "%s, libpfm4 %s::%s config=0x%" PRIx64
			       "%s: the file says why (libpfm4-differs): %s\n",
			       e->alias, e->spec, (uint64_t)ours.attr.config, ours1, model, name,
			       (uint64_t)theirs.attr.config, theirs1, e->pfm_differs);
			counts->known++;
			continue;
		}
		if (differs) {
			printf("  %-20s MISMATCH       ours %s config=0x%" PRIx64 " config1=0x%" PRIx64
			       ", libpfm4 %s::%s "
			       "config=0x%" PRIx64 " config1=0x%" PRIx64 "\n",
			       e->alias, e->spec, (uint64_t)ours.attr.config, (uint64_t)ours.attr.config1, model, name,
			       (uint64_t)theirs.attr.config, (uint64_t)theirs.attr.config1);
			counts->mismatch++;
			continue;
		}
		char extra[40] = "";
		if (ours.attr.config1)
			snprintf(extra, sizeof(extra), " config1=0x%" PRIx64, (uint64_t)ours.attr.config1);
		printf("  %-20s ok             raw %s config=0x%" PRIx64 "%s = libpfm4 %s::%s%s\n", e->alias, e->spec,
		       (uint64_t)ours.attr.config, extra, model, name,
		       e->pfm_differs[0] ? " (this libpfm4 agrees: its libpfm4-differs line is out of date)" : "");
		counts->ok++;
	}
	counts->perf_name_mismatch = check_perf_names(cat, model);
	printf("%d ok, %d mismatch%s, %d known to differ (libpfm4-differs), %d unknown to libpfm4%s", counts->ok,
	       counts->mismatch, counts->mismatch == 1 ? "" : "es", counts->known, counts->unknown,
	       counts->cannot_encode ? ", " : "\n");
	if (counts->cannot_encode)
		printf("%d cannot be encoded\n", counts->cannot_encode);
	return counts->mismatch || counts->cannot_encode || counts->perf_name_mismatch ? 1 : 0;
}
