/* report: one stored session as a human or machine report — text (the tree
 * in toplev's vocabulary, the CPI stack, info metrics), CSV and JSON (one row
 * per node, stable columns below), and a self-contained HTML file; and
 * `diff`, two sessions' trees side by side. Values come from report_data
 * (counts summed over the session, then evaluated).
 *
 * CSV columns (header line, then per scope one line per node, then — unless
 * --node picks a subtree — one per info metric and CPI component; new
 * columns are appended, never inserted):
 *   scope,node,level,value,unit,threshold,bottleneck,confidence,spans,
 *   kind,start_ns,end_ns,seconds,target
 * scope: `session` (the aggregate) or the interval's seq (--intervals);
 * node: the full dotted path; value: percent of the unit's domain, empty =
 * not available; unit: `% Slots`, `% Clocks`, ...; threshold: `above` (the
 * node and every ancestor pass their threshold), `below`, or empty when the
 * value is not available; bottleneck: 1 on toplev's `<==` node, else 0;
 * confidence: percent (least running/enabled of the events read), empty =
 * unknown; spans: 1 when the value read events of several perf groups (their
 * time windows differ, td_metrics_eval_groups), else 0. kind: `node`,
 * `info` (node: the metric's name, level empty, value in its unit, not
 * percent; confidence as for nodes) or `cpi` (node: the component, `Other`
 * or `CPI`; unit `CPI`: cycles per instruction); start_ns, end_ns: the
 * scope's wall-clock span (ns since the epoch), seconds: its measured
 * length (all three empty when not recorded, e.g. an import without -I); target: what was summed — `all`, `thread TID`, `process PID`,
 * `cpu N` (--thread/--process/--cpu). JSON: {"session": ID,
 * "nodes": [{"scope", "node", "level", "value", "unit", "threshold",
 * "bottleneck", "confidence", "spans"}...], "scopes": [{"scope", "start_ns",
 * "end_ns", "seconds", "target", "bottleneck" (node path or null), "info": {NAME:
 * value...}, "cpi": {COMPONENT: CPI..., "Other", "CPI"}}...]}, null where CSV
 * is empty or a value is not available, spans true/false, plus
 * "unavailable": "why" (and no "scopes") when the session has no tree.
 * A hybrid CPU's session (report_hybrid.c): the P-core tree's rows, the E-core tree's with
 * names "cpu_atom:NODE" (its JSON scope with "tree": "cpu_atom"), then level 1 over both as
 * rows "combined:NODE". */
#ifndef TD_REPORT_H
#define TD_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis/report_data.h"

enum td_report_format {
	TD_REPORT_TEXT,
	TD_REPORT_CSV,
	TD_REPORT_JSON,
	TD_REPORT_HTML
};

struct td_report_opts {
	enum td_report_format format;
	int level;	  /* deepest level shown; 0 = all */
	const char *node; /* show only this node's subtree; NULL = all */
	struct td_report_filter filter;
	bool intervals;		/* CSV/JSON/text: per interval too */
	bool color;		/* text: bars and colour */
	const char *events_dir; /* NULL: td_events_dir() */
	const char *db_path;	/* for the software summary's hints */
	const char *what_if;	/* text: --what-if COMPONENT=FACTOR[,...] projected from the CPI stack; NULL none */
};

int td_report(struct td_store *s, int64_t session, const struct td_report_opts *o, FILE *out, td_err *err);
/* td_report's trees of a hybrid CPU's session (PMU model adl_glc+adl_grt): each core PMU's tree,
 * then level 1 over all core types weighted by slots (report_hybrid.c; text, CSV, JSON); *trees:
 * some core PMU's tree was shown (else the text report's caller prints the software summary). */
int td_report_hybrid(struct td_store *s, int64_t session, const struct td_report_opts *o, FILE *out, bool *trees,
		     td_err *err);

struct td_what_if;
struct td_what_if_result;
/* The --what-if section under the text report (report_text.c). */
void td_report_what_if(FILE *out, const struct td_model *m, const struct td_what_if *w, int n,
		       const struct td_what_if_result *r);

/* Text and the two machine formats of loaded data (report_text.c, report_table.c). */
void td_report_text(FILE *out, const struct td_report_data *d, const struct td_report_opts *o);
void td_report_table(FILE *out, const struct td_report_data *d, const struct td_report_opts *o);
struct td_combined_node;
/* The same for a hybrid session's trees d[0..n-1] (names of d[k] prefixed by d[k].name_prefix),
 * then its combined level 1 (nc rows, node "combined:PATH", unit % Slots, no threshold, confidence
 * or bottleneck of its own; JSON scopes of a tree other than the first carry "tree": its PMU). */
void td_report_table_hybrid(FILE *out, const struct td_report_data *d, int n, const struct td_combined_node *c, int nc,
			    const struct td_report_opts *o);
/* HTML (report_html.c). */
void td_report_html(FILE *out, const struct td_report_data *d, const struct td_report_opts *o);

/* Shared helpers (report_format.c). */
/* Is node i shown under o's --level and --node? */
bool td_report_node_shown(const struct td_model *m, int i, const struct td_report_opts *o);
/* The model's nodes in tree order (depth first, children in declaration
 * order) into order (m->nnodes entries). */
void td_report_tree_order(const struct td_model *m, int *order);
/* "Slots" -> "% Slots". */
void td_report_unit(const struct td_node *n, char *out, size_t len);
/* The header lines, each prefixed by prefix. */
void td_report_header_text(FILE *out, const struct td_report_data *d, const char *prefix);
/* s written as HTML text (&, <, > and " escaped); NULL writes nothing. */
void td_report_html_escape(FILE *out, const char *s);
/* One line: why top-down is unavailable. */
void td_report_why_no_tree(const struct td_report_data *d, char *out, size_t len);

/* diff (report_diff.c): A's and B's session aggregates, node by node. */
/* tdctl report --repeats: the statistics of the repeat group session
 * belongs to; tdctl diff --repeats: two groups, metric by metric
 * (report_repeats.c). 0, or -1 with err. */
int td_report_repeats(struct td_store *s, int64_t session, const char *events_dir, FILE *out, td_err *err);
int td_report_diff_repeats(struct td_store *s, int64_t a, int64_t b, const char *events_dir, FILE *out, td_err *err);

/* The error when a filter names no target of the session: what it could name
 * (report_format.c). */
void td_report_no_such_target(const struct td_report_data *d, int64_t session, const struct td_report_filter *f,
			      td_err *err);
/* tdctl report --change: a watch session's tree over its baseline's intervals
 * (seqs[0] to seqs[1]) beside the tree over its latest window's (seqs[2] to
 * seqs[3]), as diff's rows (text). 0, or -1 with err (an interval range no
 * longer stored among them). */
int td_report_change_trees(struct td_store *s, int64_t session, const int seqs[4], const char *events_dir, FILE *out,
			   td_err *err);
/* what_if (NULL: none): also project A's CPI stack and compare it with B (text). */
int td_report_diff(struct td_store *s, int64_t a, int64_t b, const struct td_report_filter *f,
		   enum td_report_format fmt, const char *events_dir, const char *what_if, FILE *out, td_err *err);

#endif
