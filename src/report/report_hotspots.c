/* report_hotspots: hotspots_data as text, CSV or JSON (report_hotspots.h). */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/hotspots_data.h"
#include "base/json.h"
#include "report.h"
#include "report_hotspots.h"

#define LINES_SHOWN 3 /* text: a function's hottest lines, then how many more */

static double share(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

/* "Window: FROM s to TO s" (or "to the end") of --from/--to, the line's start. */
static void window_from_to(FILE *out, const struct td_report_filter *win)
{
	fprintf(out, "Window: %.3f s to ", win->from);
	if (isinf(win->to))
		fputs("the end", out);
	else
		fprintf(out, "%.3f s", win->to);
}

static void text_header(FILE *out, int64_t session, const struct td_hotspots *h, const struct td_report_filter *win)
{
	const struct td_sampling_row *s = &h->s;

	if (s->period)
		fprintf(out, "Hotspots of session %lld: %s, a sample every %" PRIu64 "%s", (long long)session, s->event,
			s->period,
			!strcmp(s->event, "cpu-clock") || !strcmp(s->event, "task-clock") ? " ns" : " events");
	else
		fprintf(out, "Hotspots of session %lld: %s", (long long)session, s->event);
	fprintf(out, "%s%s\n", s->note[0] ? " — " : "", s->note);
	fprintf(out,
		"%" PRIu64 " samples, %" PRIu64 " lost (ring buffer full), %" PRIu64 " at an address without a symbol",
		s->samples, s->lost, s->unresolved);
	if (s->throttled)
		fprintf(out, ", throttled %" PRIu64 " times by the kernel", s->throttled);
	fprintf(out, "\n");
	if (win && win->window) {
		window_from_to(out, win);
		fprintf(out, " (--from/--to): intervals %d to %d, %" PRIu64 " samples stored in them\n", h->first_seq,
			h->last_seq, h->stored);
	}
}

static void text_group(FILE *out, const struct td_hot_group *g, int top)
{
	int shown = g->nfns < top ? g->nfns : top;
	uint64_t rest = 0;

	fprintf(out, "\n%s", g->node ? g->node : "time-based (every node: where the CPU time goes)");
	if (g->tid)
		fprintf(out, " — thread %d %s", (int)g->tid, g->comm[0] ? g->comm : "?");
	fprintf(out, ": %" PRIu64 " samples\n", g->samples);
	fprintf(out, "   share  samples  function (module)  hottest lines\n");
	for (int i = 0; i < shown; i++) {
		const struct td_hot_function *f = &g->fns[i];
		fprintf(out, "  %5.1f%% %8" PRIu64 "  %s (%s) ", share(f->samples, g->samples), f->samples, f->function,
			f->module);
		int nl = f->nlines < LINES_SHOWN ? f->nlines : LINES_SHOWN;
		for (int k = 0; k < nl; k++) {
			if (f->lines[k].file)
				fprintf(out, " %s:%d", base_name(f->lines[k].file), f->lines[k].line);
			else
				fprintf(out, " (no line information)");
			fprintf(out, " %.0f%%", share(f->lines[k].samples, f->samples));
		}
		if (f->nlines > nl)
			fprintf(out, " +%d more", f->nlines - nl);
		fprintf(out, "\n");
	}
	for (int i = shown; i < g->nfns; i++)
		rest += g->fns[i].samples;
	if (g->nfns > shown)
		fprintf(out, "  %5.1f%% %8" PRIu64 "  %d more functions (--format csv lists all)\n",
			share(rest, g->samples), rest, g->nfns - shown);
}

static void csv_int_or_empty(FILE *out, long v, bool have)
{
	if (have)
		fprintf(out, "%ld", v);
}

static void csv(FILE *out, const struct td_hotspots *h)
{
	fprintf(out, "node,pid,tid,comm,function,module,function_samples,function_share,file,line,line_samples\n");
	for (int i = 0; i < h->ngroups; i++) {
		const struct td_hot_group *g = &h->groups[i];
		for (int k = 0; k < g->nfns; k++) {
			const struct td_hot_function *f = &g->fns[k];
			for (int j = 0; j < f->nlines; j++) {
				const struct td_hot_line *ln = &f->lines[j];
				td_csv_field(out, g->node ? g->node : "");
				fputc(',', out);
				csv_int_or_empty(out, g->pid, g->tid != 0);
				fputc(',', out);
				csv_int_or_empty(out, g->tid, g->tid != 0);
				fputc(',', out);
				td_csv_field(out, g->tid ? g->comm : "");
				fputc(',', out);
				td_csv_field(out, f->function);
				fputc(',', out);
				td_csv_field(out, f->module);
				fprintf(out, ",%" PRIu64 ",%.2f,", f->samples, share(f->samples, g->samples));
				td_csv_field(out, ln->file ? ln->file : "");
				fputc(',', out);
				csv_int_or_empty(out, ln->line, ln->file != NULL);
				fprintf(out, ",%" PRIu64 "\n", ln->samples);
			}
		}
	}
}

static int json(FILE *out, int64_t session, const struct td_hotspots *h, const struct td_report_filter *win)
{
	struct td_json j;

	td_json_init(&j, out, 0);
	td_json_object(&j);
	td_json_kint(&j, "session", session);
	td_json_kstring(&j, "event", h->s.event);
	td_json_kstring(&j, "node", h->s.node[0] ? h->s.node : NULL);
	td_json_key(&j, "period");
	if (h->s.period)
		td_json_uint(&j, h->s.period);
	else
		td_json_null(&j);
	td_json_kuint(&j, "samples", h->s.samples);
	td_json_kuint(&j, "lost", h->s.lost);
	td_json_kuint(&j, "throttled", h->s.throttled);
	td_json_kuint(&j, "unresolved", h->s.unresolved);
	td_json_key(&j, "window");
	if (win && win->window) {
		td_json_object(&j);
		td_json_kdouble(&j, "from", win->from);
		td_json_key(&j, "to");
		if (isinf(win->to))
			td_json_null(&j);
		else
			td_json_double(&j, win->to);
		td_json_kint(&j, "first_interval", h->first_seq);
		td_json_kint(&j, "last_interval", h->last_seq);
		td_json_kuint(&j, "samples", h->stored);
		td_json_close(&j);
	} else {
		td_json_null(&j);
	}
	td_json_key(&j, "groups");
	td_json_array(&j);
	for (int i = 0; i < h->ngroups; i++) {
		const struct td_hot_group *g = &h->groups[i];
		td_json_object(&j);
		td_json_kstring(&j, "node", g->node);
		td_json_key(&j, "pid");
		g->tid ? td_json_int(&j, g->pid) : td_json_null(&j);
		td_json_key(&j, "tid");
		g->tid ? td_json_int(&j, g->tid) : td_json_null(&j);
		td_json_kstring(&j, "comm", g->tid ? g->comm : NULL);
		td_json_kuint(&j, "samples", g->samples);
		td_json_key(&j, "functions");
		td_json_array(&j);
		for (int k = 0; k < g->nfns; k++) {
			const struct td_hot_function *f = &g->fns[k];
			td_json_object(&j);
			td_json_kstring(&j, "function", f->function);
			td_json_kstring(&j, "module", f->module);
			td_json_kuint(&j, "samples", f->samples);
			td_json_kdouble(&j, "share", share(f->samples, g->samples));
			td_json_key(&j, "lines");
			td_json_array(&j);
			for (int n = 0; n < f->nlines; n++) {
				td_json_object(&j);
				td_json_kstring(&j, "file", f->lines[n].file);
				td_json_key(&j, "line");
				f->lines[n].file ? td_json_int(&j, f->lines[n].line) : td_json_null(&j);
				td_json_kuint(&j, "samples", f->lines[n].samples);
				td_json_close(&j);
			}
			td_json_close(&j);
			td_json_close(&j);
		}
		td_json_close(&j);
		td_json_close(&j);
	}
	td_json_close(&j);
	td_json_close(&j);
	return td_json_finish(&j);
}

struct folded {
	FILE *out;
	long tid; /* > 0: this thread's only */
};

static int folded_line(const char *node, pid_t tid, const char *comm, const char *stack, uint64_t count, void *ctx)
{
	const struct folded *f = ctx;
	FILE *out = f->out;

	if (f->tid > 0 && tid != f->tid)
		return 0;
	if (node)
		fprintf(out, "%s;", node);
	if (tid)
		fprintf(out, "%s-%d;", comm[0] ? comm : "?", (int)tid);
	fprintf(out, "%s %" PRIu64 "\n", stack, count);
	return 0;
}

int td_report_hotspots(struct td_store *s, int64_t session, const struct td_hotspots_opts *o, FILE *out, td_err *err)
{
	struct td_hotspots h;
	int rc = 0, first, last;

	if (o->format == TD_REPORT_HTML) {
		td_err_set(err, "--hotspots is reported as text, CSV or JSON: give --format text, csv or json");
		return -1;
	}
	if (td_hotspots_window(s, session, o->window, &first, &last, err) ||
	    td_hotspots_load_range(s, session, o->per_thread || o->tid > 0, o->tid, first, last, &h, err))
		return -1;
	if (!h.sampled) {
		td_err_set(err,
			   "session %lld has no hotspots: it was recorded without sampling; record one with "
			   "'tdctl run --hotspots' (or attach --hotspots)",
			   (long long)session);
		return -1;
	}
	if (o->folded) {
		td_hotspots_free(&h);
		struct folded f = { out, o->tid };
		if (td_store_hot_stacks(s, session, first, last, o->per_thread || o->tid > 0, folded_line, &f) < 0) {
			td_err_set(err, "cannot read the call stacks of session %lld: %s", (long long)session,
				   td_store_errmsg(s));
			return -1;
		}
		return 0;
	}
	if (o->tid > 0 && h.ngroups == 0) {
		td_err_set(err,
			   "session %lld has no samples of thread %ld: 'tdctl report --hotspots --thread 0' lists "
			   "the threads sampled",
			   (long long)session, o->tid);
		td_hotspots_free(&h);
		return -1;
	}
	switch (o->format) {
	case TD_REPORT_CSV:
		csv(out, &h);
		break;
	case TD_REPORT_JSON:
		rc = json(out, session, &h, o->window);
		break;
	default:
		text_header(out, session, &h, o->window);
		if (!h.ngroups)
			fprintf(out, "\nno samples stored (the target ran too briefly, or on no CPU while sampled)\n");
		for (int i = 0; i < h.ngroups; i++)
			text_group(out, &h.groups[i], o->top > 0 ? o->top : 10);
		break;
	}
	td_hotspots_free(&h);
	if (rc)
		td_err_set(err, "cannot write the hotspots report");
	return rc ? -1 : 0;
}

/* One function of the diff: its share of the node's samples in A and B. */
struct diff_fn {
	const char *function, *module;
	double a, b; /* percent */
};

static int by_change(const void *x, const void *y)
{
	const struct diff_fn *p = x, *q = y;
	double dp = fabs(p->b - p->a), dq = fabs(q->b - q->a);

	if (dp != dq)
		return dp < dq ? 1 : -1;
	return strcmp(p->function, q->function);
}

static const struct td_hot_group *group_named(const struct td_hotspots *h, const char *node)
{
	for (int i = 0; i < h->ngroups; i++)
		if (h->groups[i].node == node || (h->groups[i].node && node && !strcmp(h->groups[i].node, node)))
			return &h->groups[i];
	return NULL;
}

static int diff_group(FILE *out, const struct td_hot_group *ga, const struct td_hot_group *gb, int top)
{
	struct diff_fn *d = calloc((size_t)(ga->nfns + gb->nfns) + 1, sizeof(*d));
	int n = 0;

	if (!d)
		return -1;
	for (int i = 0; i < ga->nfns; i++)
		d[n++] = (struct diff_fn){ ga->fns[i].function, ga->fns[i].module,
					   share(ga->fns[i].samples, ga->samples), 0 };
	for (int i = 0; i < gb->nfns; i++) {
		int k = 0;
		while (k < n &&
		       !(!strcmp(d[k].function, gb->fns[i].function) && !strcmp(d[k].module, gb->fns[i].module)))
			k++;
		if (k == n)
			d[n++] = (struct diff_fn){ gb->fns[i].function, gb->fns[i].module, 0, 0 };
		d[k].b = share(gb->fns[i].samples, gb->samples);
	}
	qsort(d, (size_t)n, sizeof(*d), by_change);
	fprintf(out, "\n%s: %" PRIu64 " samples in A, %" PRIu64 " in B\n",
		ga->node ? ga->node : "time-based (every node: where the CPU time goes)", ga->samples, gb->samples);
	fprintf(out, "       A       B  change  function (module)\n");
	for (int i = 0; i < n && i < top; i++)
		fprintf(out, "  %5.1f%%  %5.1f%%  %+5.1f  %s (%s)\n", d[i].a, d[i].b, d[i].b - d[i].a, d[i].function,
			d[i].module);
	if (n > top)
		fprintf(out, "  %d more functions changed less\n", n - top);
	free(d);
	return 0;
}

/* Session's hotspots over the intervals in win (every interval without one). */
static int load_window(struct td_store *s, int64_t session, const struct td_report_filter *win, struct td_hotspots *h,
		       td_err *err)
{
	int first, last;

	if (td_hotspots_window(s, session, win, &first, &last, err))
		return -1;
	return td_hotspots_load_range(s, session, false, 0, first, last, h, err);
}

int td_report_hotspots_diff(struct td_store *s, int64_t a, int64_t b, const struct td_report_filter *win, int top,
			    FILE *out, td_err *err)
{
	struct td_hotspots ha, hb;
	int rc = 0;

	if (load_window(s, a, win, &ha, err))
		return -1;
	if (load_window(s, b, win, &hb, err)) {
		td_hotspots_free(&ha);
		return -1;
	}
	if (!ha.sampled || !hb.sampled) {
		td_err_set(err,
			   "session %lld has no hotspots: it was recorded without sampling; record it with "
			   "'tdctl run --hotspots'",
			   (long long)(ha.sampled ? b : a));
		rc = -1;
		goto done;
	}
	fprintf(out, "Hotspots: session %lld (A, %s) against session %lld (B, %s): share of each node's samples\n",
		(long long)a, ha.s.event, (long long)b, hb.s.event);
	if (win && win->window) {
		window_from_to(out, win);
		fprintf(out, " of each (--from/--to): A's intervals %d to %d, B's %d to %d\n", ha.first_seq,
			ha.last_seq, hb.first_seq, hb.last_seq);
	}
	for (int i = 0; i < ha.ngroups && !rc; i++) {
		const struct td_hot_group *gb = group_named(&hb, ha.groups[i].node);
		if (gb)
			rc = diff_group(out, &ha.groups[i], gb, top > 0 ? top : 15);
		else
			fprintf(out, "\n%s: sampled in A only\n", ha.groups[i].node ? ha.groups[i].node : "time-based");
	}
	for (int i = 0; i < hb.ngroups; i++)
		if (!group_named(&ha, hb.groups[i].node))
			fprintf(out, "\n%s: sampled in B only\n", hb.groups[i].node ? hb.groups[i].node : "time-based");
	if (rc)
		td_err_set(err, "out of memory");
done:
	td_hotspots_free(&ha);
	td_hotspots_free(&hb);
	return rc;
}

/* ---- HTML --------------------------------------------------------------------------- */

static void html_table(FILE *out, const struct td_hot_group *g)
{
	fprintf(out, "<div class=\"scroll\"><table class=\"hot\"><tr><th>function</th><th>module</th><th>share</th>"
		     "<th>samples</th><th>hottest lines</th></tr>\n");
	for (int i = 0; i < g->nfns; i++) {
		const struct td_hot_function *f = &g->fns[i];
		fputs("<tr><td>", out);
		td_report_html_escape(out, f->function);
		fputs("</td><td>", out);
		td_report_html_escape(out, f->module);
		fprintf(out, "</td><td>%.1f %%</td><td>%" PRIu64 "</td><td>", share(f->samples, g->samples),
			f->samples);
		for (int k = 0; k < f->nlines && k < LINES_SHOWN; k++) {
			if (!f->lines[k].file) {
				fputs("no line information", out);
				continue;
			}
			td_report_html_escape(out, base_name(f->lines[k].file));
			fprintf(out, ":%d (%.0f %%) ", f->lines[k].line, share(f->lines[k].samples, f->samples));
		}
		if (f->nlines > LINES_SHOWN)
			fprintf(out, "+%d more", f->nlines - LINES_SHOWN);
		fputs("</td></tr>\n", out);
	}
	fputs("</table></div>\n", out);
}

static void flame_graph(FILE *out, const struct td_hotspots *h, const char *node);

void td_report_html_hot_node(FILE *out, const struct td_hotspots *h, const char *node)
{
	for (int i = 0; h && node && i < h->ngroups; i++)
		if (h->groups[i].node && !strcmp(h->groups[i].node, node)) {
			fprintf(out, "<div class=\"hotnode\" data-hot=\"");
			td_report_html_escape(out, node);
			fprintf(out, "\"><p>Hot functions (%s, %" PRIu64 " samples)</p>\n", h->s.event,
				h->groups[i].samples);
			html_table(out, &h->groups[i]);
			flame_graph(out, h, node);
			fputs("</div>\n", out);
		}
}

/* A frame of the flame graph: its name, samples and callees. */
struct frame_node {
	char *name;
	uint64_t samples;
	struct frame_node *kids;
	int nkids;
};

static void frames_free(struct frame_node *f)
{
	for (int i = 0; i < f->nkids; i++)
		frames_free(&f->kids[i]);
	free(f->kids);
	free(f->name);
}

/* stack (modified: split at ';') added under root. */
static int frames_add(struct frame_node *root, char *stack, uint64_t n)
{
	struct frame_node *cur = root;

	root->samples += n;
	for (char *name = strtok(stack, ";"); name; name = strtok(NULL, ";")) {
		struct frame_node *k = NULL;
		for (int i = 0; i < cur->nkids; i++)
			if (!strcmp(cur->kids[i].name, name))
				k = &cur->kids[i];
		if (!k) {
			if (!(k = td_array_push(&cur->kids, &cur->nkids, sizeof(*k))) || !(k->name = strdup(name)))
				return -1;
		}
		k->samples += n;
		cur = k;
	}
	return 0;
}

static int by_samples(const void *a, const void *b)
{
	const struct frame_node *x = a, *y = b;
	return x->samples != y->samples ? (x->samples < y->samples ? 1 : -1) : strcmp(x->name, y->name);
}

/* An icicle graph: each frame as wide as its share of its caller's samples, callees below. */
static void frames_html(FILE *out, struct frame_node *f, uint64_t total, int depth)
{
	qsort(f->kids, (size_t)f->nkids, sizeof(*f->kids), by_samples);
	for (int i = 0; i < f->nkids; i++) {
		struct frame_node *k = &f->kids[i];
		fprintf(out, "<div class=\"fg\" style=\"width:%.3f%%\"><div class=\"fgf\" title=\"",
			100.0 * (double)k->samples / (double)f->samples);
		td_report_html_escape(out, k->name);
		fprintf(out, ": %" PRIu64 " samples, %.1f %%\">", k->samples, share(k->samples, total));
		td_report_html_escape(out, k->name);
		fputs("</div>", out);
		if (k->nkids && depth < 128) {
			fputs("<div class=\"fgk\">", out);
			frames_html(out, k, total, depth + 1);
			fputs("</div>", out);
		}
		fputs("</div>", out);
	}
}

static void flame_graph(FILE *out, const struct td_hotspots *h, const char *node)
{
	struct frame_node root = { 0 };
	bool oom = false;

	for (int i = 0; i < h->nstacks && !oom; i++) {
		const char *sn = h->stacks[i].node;
		if (!(sn == node || (sn && node && !strcmp(sn, node))))
			continue;
		char *copy = strdup(h->stacks[i].stack);
		oom = !copy || frames_add(&root, copy, h->stacks[i].samples);
		free(copy);
	}
	if (oom)
		fputs("<p class=\"unavailable\">Flame graph: out of memory</p>\n", out);
	else if (!root.samples)
		fputs("<p>No call stacks sampled.</p>\n", out);
	else {
		fprintf(out,
			"<p>Flame graph of %" PRIu64
			" sampled call stacks (outermost frame on top; hover for the samples):</p>\n"
			"<div class=\"flame\" id=\"flame\">",
			root.samples);
		frames_html(out, &root, root.samples, 0);
		fputs("</div>\n", out);
	}
	frames_free(&root);
}

void td_report_html_hotspots(FILE *out, const struct td_hotspots *h)
{
	if (!h || !h->sampled)
		return;
	fputs("<h2>Hotspots</h2>\n<section id=\"hotspots\">\n<p>", out);
	td_report_html_escape(out, h->s.event);
	fprintf(out,
		": %" PRIu64 " samples, %" PRIu64 " lost (ring buffer full), %" PRIu64
		" at an address without a symbol",
		h->s.samples, h->s.lost, h->s.unresolved);
	if (h->s.note[0]) {
		fputs(" &mdash; ", out);
		td_report_html_escape(out, h->s.note);
	}
	fputs(".</p>\n", out);
	for (int i = 0; i < h->ngroups; i++) {
		if (h->groups[i].node) {
			fputs("<p>Samples of ", out);
			td_report_html_escape(out, h->groups[i].node);
			fputs(": under the node in the tree above.</p>\n", out);
			continue;
		}
		fprintf(out, "<h3>Where the CPU time goes (time-based, every node: %" PRIu64 " samples)</h3>\n",
			h->groups[i].samples);
		html_table(out, &h->groups[i]);
		flame_graph(out, h, NULL);
	}
	fputs("</section>\n", out);
}
