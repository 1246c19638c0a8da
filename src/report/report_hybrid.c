/* report_hybrid: the report of a hybrid CPU's session (PMU model adl_glc+adl_grt) — each core
 * PMU's tree as its own events file reads the counts (text: headed by the PMU; CSV/JSON: the
 * E-core tree's names prefixed "cpu_atom:", as recompute stores them), then level 1 combined
 * over the core types, weighted by their slots (eval/combine.h says the rule). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eval/combine.h"
#include "machine/pmu.h"
#include "model/model_spec.h"
#include "report.h"

static void print_combined(FILE *out, const struct td_combined_node *c, int nc, double slots)
{
	fprintf(out, "\n== all core types: level 1 as a share of all issue slots (%.0f) ==\n", slots);
	fprintf(out, "   each node = sum over core types of node x SLOTS / sum of SLOTS\n");
	for (int i = 0; i < nc; i++) {
		if (isnan(c[i].value))
			fprintf(out, "  %-20s %8s %% Slots\n", c[i].path, "n/a");
		else
			fprintf(out, "  %-20s %8.2f %% Slots\n", c[i].path, 100.0 * c[i].value);
	}
}

int td_report_hybrid(struct td_store *s, int64_t session, const struct td_report_opts *o, FILE *out, bool *trees,
		     td_err *err)
{
	char models[TD_MODEL_SPEC_MAX][TD_MODEL_NAME_MAX], spec[64], prefix[TD_MODEL_SPEC_MAX][40];
	struct td_report_data d[TD_MODEL_SPEC_MAX];
	const struct td_model *ms[TD_MODEL_SPEC_MAX];
	const struct td_evaluation *evs[TD_MODEL_SPEC_MAX];
	struct td_combined_node *comb = NULL;
	int n, loaded = 0, rc = -1, nc = 0, ntrees = 0;
	double slots = NAN;
	bool text = o->format == TD_REPORT_TEXT;

	*trees = false;
	if (o->format == TD_REPORT_HTML || o->what_if) {
		td_err_set(err,
			   "session %lld is a hybrid CPU's (one tree per core PMU): --format text, csv or json "
			   "only, without --what-if",
			   (long long)session);
		return -1;
	}
	memset(d, 0, sizeof(d));
	if (td_report_data_load(s, session, &o->filter, o->events_dir, &d[0], err))
		return -1;
	snprintf(spec, sizeof(spec), "%s", d[0].h.pmu_model);
	td_report_data_free(&d[0]);
	if ((n = td_model_spec_split(spec, models)) < 0) {
		td_err_set(err, "session %lld: PMU model '%s' names no core PMUs", (long long)session, spec);
		return -1;
	}
	for (; loaded < n; loaded++) {
		const char *pmu = td_hybrid_pmu_of_model(models[loaded]);
		if (td_report_data_load_model(s, session, &o->filter, o->events_dir, models[loaded], &d[loaded], err))
			goto out;
		snprintf(prefix[loaded], sizeof(prefix[loaded]), "%s:", pmu ? pmu : models[loaded]);
		d[loaded].name_prefix = loaded ? prefix[loaded] : NULL;
		if (text) {
			fprintf(out, "%s== %s (PMU model %s, %s) ==\n", loaded ? "\n" : "", pmu ? pmu : "core PMU",
				models[loaded], d[loaded].model_file[0] ? d[loaded].model_file : "no events file");
			td_report_text(out, &d[loaded], o);
		}
		if (td_report_has_tree(&d[loaded])) {
			ms[ntrees] = d[loaded].model;
			evs[ntrees++] = &d[loaded].whole.v;
		} else if (text) {
			fprintf(out, "no %s tree: level 1 cannot be combined\n", pmu ? pmu : "core PMU");
		}
	}
	*trees = ntrees > 0;
	if (ntrees == n) {
		if (!(comb = calloc((size_t)ms[0]->nnodes + 1, sizeof(*comb)))) {
			td_err_set(err, "out of memory");
			goto out;
		}
		if ((nc = td_combine_level1(ms, evs, n, comb, &slots)) < 0) {
			td_err_set(err,
				   "session %lld: an events file of '%s' has no SLOTS info metric to weigh its tree by",
				   (long long)session, spec);
			goto out;
		}
	}
	if (text && nc > 0)
		print_combined(out, comb, nc, slots);
	else if (!text)
		td_report_table_hybrid(out, d, n, comb, nc, o);
	rc = 0;
out:
	free(comb);
	for (int i = 0; i < loaded && i < n; i++)
		td_report_data_free(&d[i]);
	return rc;
}
