/* report: loading a session and dispatching to the format writers. The
 * helpers the writers share are report_format.c: the dispatcher calls the
 * formats, the formats call only the helpers. */
#include "report.h"
#include "analysis/hotspots_data.h"
#include "model/model_spec.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "summary.h"
#include "eval/what_if.h"

/* --from/--to on a session without interval times, or keeping no
 * interval: why, in one line. */
static bool window_bad(const struct td_report_data *d, td_err *err)
{
	const struct td_session_header *h = &d->h;
	char to[32];

	if (h->last_ns <= h->first_ns) {
		td_err_set(err, "session %lld recorded no interval times: --from/--to need them", (long long)h->id);
		return true;
	}
	if (d->nivs > 0)
		return false;
	if (isinf(d->window.to))
		snprintf(to, sizeof(to), "the end");
	else
		snprintf(to, sizeof(to), "%.3f s", d->window.to);
	td_err_set(err, "session %lld has no interval between %.3f s and %s: its intervals cover 0 to %.3f s",
		   (long long)h->id, d->window.from, to, (double)(h->last_ns - h->first_ns) / 1e9);
	return true;
}

/* --node must name a node of the session's tree: say which exist, never
 * print a report that silently shows nothing. 0, or -1 with err set. */
static int node_bad(const struct td_report_data *d, int64_t session, const char *node, td_err *err)
{
	char have[512] = "";
	size_t used = 0;
	const char *tail;

	if (!d->model) {
		td_err_set(err, "session %lld has no top-down tree to show --node '%s' of: %s", (long long)session,
			   node, d->why_no_model[0] ? d->why_no_model : "no events file serves its PMU model");
		return -1;
	}
	for (int i = 0; i < d->model->nnodes; i++)
		if (!strcmp(d->model->nodes[i].path, node))
			return 0;
	/* a node named by its last part: offer its full path */
	for (int i = 0; i < d->model->nnodes; i++) {
		tail = strrchr(d->model->nodes[i].path, '.');
		if (!strcmp(tail ? tail + 1 : d->model->nodes[i].path, node)) {
			td_err_set(err, "'%s' is not a node path of %s: did you mean --node %s?", node, d->model_file,
				   d->model->nodes[i].path);
			return -1;
		}
	}
	for (int i = 0; i < d->model->nnodes && used + 2 < sizeof(have); i++)
		if (d->model->nodes[i].level == 1)
			used += (size_t)snprintf(have + used, sizeof(have) - used, "%s%s", used ? ", " : "",
						 d->model->nodes[i].path);
	td_err_set(err, "%s has no node '%s': its level-1 nodes are %s ('tdctl events --pmu MODEL' lists every path)",
		   d->model_file, node, have);
	return -1;
}

/* Under a tree: how much of the CPU time the tree does not cover — what ran
 * in threads too short to list, counted only by the inherited software
 * group (collector.h) — and what collecting cost (the summary says both
 * for sessions without a tree). */
static int print_unlisted(FILE *out, struct td_store *s, int64_t session, const struct td_report_opts *o, td_err *err)
{
	struct td_summary sum;
	double unlisted = 0, all = 0;

	if (td_summary_load(s, session, o->events_dir, &o->filter, &sum, err))
		return -1;
	for (int i = 0; i < sum.nrows; i++) {
		const struct td_summary_row *r = &sum.rows[i];
		if (r->thread == 0 && r->counted && !isnan(r->v[TD_SUM_CPU_TIME]))
			all += r->v[TD_SUM_CPU_TIME];
		else if (r->kind == TD_SUM_THREAD && r->tid == 0 && r->counted && !isnan(r->v[TD_SUM_CPU_TIME]))
			unlisted += r->v[TD_SUM_CPU_TIME];
	}
	if (unlisted > 0 && all > 0 && !strcmp(sum.counting, "bpf"))
		fprintf(out,
			"\nUnlisted: %.3f s of the %.3f s of CPU time (%.1f %%) ran in threads not listed (too short "
			"to be listed, or no room in the BPF sums map):\n          counted by the BPF program's "
			"per-process sums, software events only; the tree above covers the listed threads\n",
			unlisted, all, 100 * unlisted / all);
	else if (unlisted > 0 && all > 0)
		fprintf(out,
			"\nUnlisted: %.3f s of the %.3f s of CPU time (%.1f %%) ran in threads too short to be listed "
			"(and in listed ones before they were):\n          counted by inherited software counters "
			"only; "
			"the tree above covers the listed threads\n",
			unlisted, all, 100 * unlisted / all);
	else if (sum.unlisted_off)
		fputs("\nUnlisted: not counted (--unlisted=off): what ran in threads too short to be listed is in no "
		      "row; the tree above covers the listed threads\n",
		      out);
	if (td_summary_cost(out, &sum, "\nOverhead: "))
		fputc('\n', out);
	td_summary_free(&sum);
	return 0;
}

int td_report(struct td_store *s, int64_t session, const struct td_report_opts *o, FILE *out, td_err *err)
{
	struct td_report_data d;
	struct td_what_if *wi = NULL;
	struct td_what_if_result wr;
	int nwi = 0;

	if (td_report_data_load(s, session, &o->filter, o->events_dir, &d, err))
		return -1;
	if (o->filter.kind != TD_RF_ALL && d.selected_targets == 0) {
		td_report_no_such_target(&d, session, &o->filter, err);
		td_report_data_free(&d);
		return -1;
	}
	if (o->filter.window && window_bad(&d, err)) {
		td_report_data_free(&d);
		return -1;
	}
	if (td_model_spec_hybrid(d.h.pmu_model)) { /* a tree per core PMU */
		td_report_data_free(&d);
		if (o->node && o->node[0]) {
			td_err_set(err,
				   "--node: session %lld is a hybrid CPU's, with a tree per core PMU: leave out --node",
				   (long long)session);
			return -1;
		}
		bool trees;
		if (td_report_hybrid(s, session, o, out, &trees, err))
			return -1;
		if (o->format != TD_REPORT_TEXT)
			return 0;
		return trees ? print_unlisted(out, s, session, o, err)
			     : td_summary_print(out, s, session, o->events_dir, &o->filter, o->db_path, 0, 0, err);
	}
	if (o->node && o->node[0] && node_bad(&d, session, o->node, err)) {
		td_report_data_free(&d);
		return -1;
	}
	/* the projection first: a bad --what-if is an error before anything is printed */
	if (o->what_if &&
	    (!td_report_has_tree(&d) ? (td_err_set(err,
						   "--what-if: session %lld has no CPI stack (no "
						   "top-down tree)",
						   (long long)session),
					-1)
				     : td_what_if_parse(d.model, o->what_if, &wi, &nwi, err) ||
					       td_what_if_project(d.model, &d.whole.v, wi, nwi, &wr, err))) {
		free(wi);
		td_report_data_free(&d);
		return -1;
	}
	switch (o->format) {
	case TD_REPORT_TEXT:
		td_report_text(out, &d, o);
		if (o->what_if)
			td_report_what_if(out, d.model, wi, nwi, &wr);
		if (td_report_has_tree(&d)
			    ? print_unlisted(out, s, session, o, err)
			    : td_summary_print(out, s, session, o->events_dir, &o->filter, o->db_path, 0, 0, err)) {
			td_report_data_free(&d);
			return -1;
		}
		break;
	case TD_REPORT_CSV:
	case TD_REPORT_JSON:
		td_report_table(out, &d, o);
		break;
	case TD_REPORT_HTML: {
		struct td_hotspots hot;
		int first, last;
		/* the session's hotspots, where it sampled, of the report's window: each node's functions under it,
		 * the time-based ones and the flame graph in a section of their own */
		if (td_hotspots_window(s, session, &o->filter, &first, &last, err)) {
			td_report_data_free(&d);
			return -1;
		}
		if (td_hotspots_load_range(s, session, false, 0, first, last, &hot, err) ||
		    (hot.sampled && td_hotspots_load_stacks(s, session, &hot, err))) {
			td_hotspots_free(&hot);
			td_report_data_free(&d);
			return -1;
		}
		d.hot = hot.sampled ? &hot : NULL;
		td_report_html(out, &d, o);
		d.hot = NULL;
		td_hotspots_free(&hot);
		break;
	}
	}
	free(wi);
	td_report_data_free(&d);
	return 0;
}
