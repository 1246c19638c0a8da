/* report_hotspots: `tdctl report --hotspots` — a session's hot functions
 * per node (time-based samples: "where the time goes"), with their share
 * of the node's samples and their hottest source lines; per thread with
 * --thread (one thread: --thread TID). Text shows the top functions of
 * each group and says how many more there are; CSV and JSON show all.
 *
 * CSV, one row per (group, function, line), most samples first (new
 * columns are appended, never inserted):
 *   node,pid,tid,comm,function,module,function_samples,function_share,file,line,line_samples
 * node: empty for time-based samples; pid, tid, comm: empty unless per
 * thread; function_share: percent of the group's samples; file and line:
 * empty where the binary has no line information.
 * JSON: {"session", "event", "node", "period" (null: a frequency), "samples",
 * "lost", "throttled", "unresolved" (the session's), "window" (null, or
 * {"from", "to" (null: the end), "first_interval", "last_interval",
 * "samples"}: --from/--to, the intervals kept and their samples), "groups": [{"node", "pid", "tid",
 * "comm", "samples", "functions": [{"function", "module", "samples",
 * "share", "lines": [{"file", "line", "samples"}...]}...]}...]}. */
#ifndef TD_REPORT_HOTSPOTS_H
#define TD_REPORT_HOTSPOTS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "report.h"

struct td_hotspots_opts {
	enum td_report_format format; /* text, CSV or JSON */
	bool per_thread;
	long tid;    /* > 0: that thread only (per_thread implied) */
	int top;     /* text: functions shown per group (0: 10) */
	bool folded; /* instead of format: the call stacks in the folded form flamegraph.pl and speedscope
		      * read, one "FRAME;FRAME;... COUNT" line per stack (outermost first), prefixed by
		      * the node where the samples locate one and by "COMM-TID" per thread */
	const struct td_report_filter *window; /* --from/--to: the intervals whose midpoint lies in it
						* (NULL or no window: every interval) */
};

int td_report_hotspots(struct td_store *s, int64_t session, const struct td_hotspots_opts *o, FILE *out, td_err *err);
/* `tdctl diff A B --hotspots` (text): per node both sessions sampled, each
 * function's share of the node's samples in A and in B and the change,
 * biggest change first (top functions, then how many more); a node only
 * one session sampled is said so. win (--from/--to, NULL for none): the
 * same window of each session, from its own start (the intervals whose
 * midpoint lies in it). */
/* The HTML report's parts (report_html.c calls them): a node's hot
 * functions inside its <details> (shown when it is opened), and the
 * section of time-based samples with a flame graph of the call stacks. */
struct td_hotspots;
void td_report_html_hot_node(FILE *out, const struct td_hotspots *h, const char *node);
void td_report_html_hotspots(FILE *out, const struct td_hotspots *h);
int td_report_hotspots_diff(struct td_store *s, int64_t a, int64_t b, const struct td_report_filter *win, int top,
			    FILE *out, td_err *err);

#endif
