/* report: loading a session and dispatching to the format writers; helpers
 * the writers share (what is shown, units, the header, why no tree). */
#include "report.h"
#include "model/model_spec.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "summary.h"
#include "eval/what_if.h"

bool td_report_node_shown(const struct td_model *m, int i, const struct td_report_opts *o)
{
	const struct td_node *n = &m->nodes[i];

	if (o->level > 0 && n->level > o->level)
		return false;
	if (o->node && o->node[0]) {
		size_t len = strlen(o->node);
		if (strncmp(n->path, o->node, len) || (n->path[len] != '\0' && n->path[len] != '.'))
			return false;
	}
	return true;
}

static int visit(const struct td_model *m, int parent, int *order, int n)
{
	for (int i = 0; i < m->nnodes; i++)
		if (m->nodes[i].parent == parent) {
			order[n++] = i;
			n = visit(m, i, order, n);
		}
	return n;
}

void td_report_tree_order(const struct td_model *m, int *order)
{
	visit(m, -1, order, 0);
}

void td_report_unit(const struct td_node *n, char *out, size_t len)
{
	snprintf(out, len, "%% %s", n->domain[0] ? n->domain : "Slots");
}

static const char *or_unknown(const char *s)
{
	return s && s[0] ? s : "unknown";
}

void td_report_header_text(FILE *out, const struct td_report_data *d, const char *p)
{
	const struct td_session_header *h = &d->h;

	fprintf(out, "%sSession %lld (%s, %s)\n", p, (long long)h->id, h->kind, or_unknown(h->status));
	fprintf(out, "%sHost:     %s\n", p, or_unknown(h->host));
	fprintf(out, "%sCPU:      %s", p, or_unknown(h->cpu_name));
	if (h->uarch[0] || h->pmu_model[0])
		fprintf(out, " (%s%s%s)", h->uarch, h->uarch[0] && h->pmu_model[0] ? ", PMU " : "",
			h->pmu_model[0] ? h->pmu_model : "");
	fprintf(out, "\n%sKernel:   %s\n", p, or_unknown(h->kernel));
	fprintf(out, "%sTarget:   %s\n", p, or_unknown(h->command));
	if (d->whole.v.seconds > 0)
		fprintf(out, "%sDuration: %.3f s in %d interval%s", p, d->whole.v.seconds, d->nivs, d->nivs == 1 ? "" : "s");
	else
		fprintf(out, "%sDuration: n/a (not recorded) in %d interval%s", p, d->nivs, d->nivs == 1 ? "" : "s");
	if (h->interval_ms > 0)
		fprintf(out, " of %d ms", h->interval_ms);
	if (d->window.window) {
		fprintf(out, "\n%sWindow:   %.3f s to ", p, d->window.from);
		if (isinf(d->window.to))
			fputs("the end", out);
		else
			fprintf(out, "%.3f s", d->window.to);
		fputs(" after the first interval's start (--from/--to)", out);
	}
	fprintf(out, "\n%sRung:     %s", p, or_unknown(h->rung));
	if (h->rung_reason[0])
		fprintf(out, ": %s", h->rung_reason);
	fprintf(out, "\n%sEvents:   %s\n", p, d->cat ? d->cat->name : "none (see below)");
	for (int i = 0; i < d->nnotes; i++)
		fprintf(out, "%sNote:     %s\n", p, d->notes[i]);
}

void td_report_why_no_tree(const struct td_report_data *d, char *out, size_t len)
{
	const struct td_session_header *h = &d->h;

	if (!strcmp(h->rung, "software-only") || !strcmp(h->rung, "ipc-only") || !strcmp(h->rung, "none"))
		snprintf(out, len, "the session ran on the %s rung: %s", h->rung,
			 h->rung_reason[0] ? h->rung_reason : "no reason recorded");
	else if (!d->model)
		snprintf(out, len, "%s", d->why_no_model);
	else if (d->model->nnodes == 0)
		snprintf(out, len, "%s defines no top-down tree", d->cat->name);
	else
		snprintf(out, len, "none of the events the tree reads was counted in this session");
}

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
		td_err_set(err, "session %lld has no top-down tree to show --node '%s' of: %s", (long long)session, node,
			   d->why_no_model[0] ? d->why_no_model : "no events file serves its PMU model");
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

/* "session 4 has no thread 99: its threads are 4000, 4001" — at most 12
 * listed, then how many more. */
void td_report_no_such_target(const struct td_report_data *d, int64_t session, const struct td_report_filter *f,
			      td_err *err)
{
	const char *what = f->kind == TD_RF_THREAD ? "thread" : f->kind == TD_RF_CPU ? "cpu" : "process";
	char have[160];
	size_t used = 0;
	int shown = 0;

	have[0] = '\0';
	for (; shown < d->ncandidates && shown < 12 && used + 24 < sizeof(have); shown++)
		used += (size_t)snprintf(have + used, sizeof(have) - used, "%s%ld", shown ? ", " : "", d->candidates[shown]);
	if (d->ncandidates == 0)
		td_err_set(err, "session %lld has no %s %ld: it has no %s at all (see 'tdctl export %lld')",
			   (long long)session, what, f->id, f->kind == TD_RF_PROCESS ? "processes" : what[0] == 't' ?
			   "threads" : "CPUs", (long long)session);
	else
		td_err_set(err, "session %lld has no %s %ld: its %s are %s%s", (long long)session, what, f->id,
			   f->kind == TD_RF_PROCESS ? "processes" : what[0] == 't' ? "threads" : "CPUs", have,
			   shown < d->ncandidates ? " and more ('tdctl export' lists them)" : "");
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
		fprintf(out, "\nUnlisted: %.3f s of the %.3f s of CPU time (%.1f %%) ran in threads not listed (too short "
			     "to be listed, or no room in the BPF sums map):\n          counted by the BPF program's "
			     "per-process sums, software events only; the tree above covers the listed threads\n",
			unlisted, all, 100 * unlisted / all);
	else if (unlisted > 0 && all > 0)
		fprintf(out, "\nUnlisted: %.3f s of the %.3f s of CPU time (%.1f %%) ran in threads too short to be listed "
			     "(and in listed ones before they were):\n          counted by inherited software counters only; "
			     "the tree above covers the listed threads\n", unlisted, all, 100 * unlisted / all);
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
			td_err_set(err, "--node: session %lld is a hybrid CPU's, with a tree per core PMU: leave out --node",
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
	if (o->what_if && (!td_report_has_tree(&d) ? (td_err_set(err, "--what-if: session %lld has no CPI stack (no "
								     "top-down tree)", (long long)session), -1)
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
		if (td_report_has_tree(&d) ? print_unlisted(out, s, session, o, err)
					   : td_summary_print(out, s, session, o->events_dir, &o->filter, o->db_path, 0, 0, err)) {
			td_report_data_free(&d);
			return -1;
		}
		break;
	case TD_REPORT_CSV:
	case TD_REPORT_JSON:
		td_report_table(out, &d, o);
		break;
	case TD_REPORT_HTML:
		td_report_html(out, &d, o);
		break;
	}
	free(wi);
	td_report_data_free(&d);
	return 0;
}
