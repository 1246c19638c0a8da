/* report_format: the helpers the report's writers share (report_text.c,
 * report_table.c, report_html.c, report_diff.c) and the dispatcher
 * (report.c) uses too: what is shown, units, the header, why no tree, the
 * error for a filter naming no target. It calls no other file of report/. */
#include "report.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

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
		fprintf(out, "%sDuration: %.3f s in %d interval%s", p, d->whole.v.seconds, d->nivs,
			d->nivs == 1 ? "" : "s");
	else
		fprintf(out, "%sDuration: n/a (not recorded) in %d interval%s", p, d->nivs, d->nivs == 1 ? "" : "s");
	if (h->interval_ms > 0)
		fprintf(out, " of %d ms", h->interval_ms);
	if (h->merged) /* tdctl prune --downsample, topdownd's watch sessions */
		fprintf(out, " (%d of them downsampled: %d intervals as read merged)", h->merged, h->merged_from);
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
		used += (size_t)snprintf(have + used, sizeof(have) - used, "%s%ld", shown ? ", " : "",
					 d->candidates[shown]);
	if (d->ncandidates == 0)
		td_err_set(err, "session %lld has no %s %ld: it has no %s at all (see 'tdctl export %lld')",
			   (long long)session, what, f->id,
			   f->kind == TD_RF_PROCESS ? "processes"
			   : what[0] == 't'	    ? "threads"
						    : "CPUs",
			   (long long)session);
	else
		td_err_set(err, "session %lld has no %s %ld: its %s are %s%s", (long long)session, what, f->id,
			   f->kind == TD_RF_PROCESS ? "processes"
			   : what[0] == 't'	    ? "threads"
						    : "CPUs",
			   have, shown < d->ncandidates ? " and more ('tdctl export' lists them)" : "");
}

void td_report_html_escape(FILE *out, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '<':
			fputs("&lt;", out);
			break;
		case '>':
			fputs("&gt;", out);
			break;
		case '&':
			fputs("&amp;", out);
			break;
		case '"':
			fputs("&quot;", out);
			break;
		default:
			fputc(*s, out);
		}
	}
}
