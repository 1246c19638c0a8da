/* metrics_export: the exposition of topdown's values (see metrics_export.h).
 * Families, in order: the daemon's health, then per target topdown_info,
 * topdown_session_id, topdown_interval_seq, topdown_interval_seconds,
 * topdown_node_ratio, topdown_node_confidence_ratio, topdown_metric,
 * topdown_ipc, topdown_cpi, topdown_cpi_component. Node values are fractions
 * of the node's domain (0.25 = 25 % of slots); a value not measured has no
 * sample. */
#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "metrics_export.h"

/* extra label pairs a family adds at most (topdown_node_ratio's node, level,
 * parent, domain) */
#define MAX_EXTRA 4
/* target and comm, the workload's, the family's, and the NULL after them */
#define MAX_LABELS (2 * (2 + TD_WORKLOAD_PAIRS + MAX_EXTRA) + 1)

/* Labels: the target's, its workload's, then extra pairs, NULL-terminated. */
static void labels(const struct td_export_target *t, const char **out, const char *const *extra)
{
	int n = 0;

	out[n++] = "target";
	out[n++] = t->target;
	if (t->comm) {
		out[n++] = "comm";
		out[n++] = t->comm;
	}
	if (t->workload)
		n += td_workload_labels(t->workload, out + n);
	for (int i = 0; extra && extra[i]; i += 2) {
		assert(n + 2 < MAX_LABELS); /* MAX_EXTRA pairs at most */
		out[n++] = extra[i];
		out[n++] = extra[i + 1];
	}
	out[n] = NULL;
}

static void health(struct td_om *om, const struct td_export_health *h)
{
	const char *attach[] = { "kind", "attach", NULL }, *sched[] = { "kind", "schedule", NULL };

	td_om_family(om, "topdown_sessions", TD_OM_GAUGE, "", "Sessions topdownd runs now, by kind.");
	td_om_sample(om, "topdown_sessions", TD_OM_GAUGE, attach, h->attach_running);
	td_om_sample(om, "topdown_sessions", TD_OM_GAUGE, sched, h->schedule_running);
	td_om_family(om, "topdown_sessions_started", TD_OM_COUNTER, "", "Sessions started since topdownd started.");
	td_om_sample(om, "topdown_sessions_started", TD_OM_COUNTER, NULL, (double)h->sessions_started);
	td_om_family(om, "topdown_intervals_written", TD_OM_COUNTER, "",
		     "Intervals evaluated and written, every session.");
	td_om_sample(om, "topdown_intervals_written", TD_OM_COUNTER, NULL, (double)h->intervals_written);
	td_om_family(om, "topdown_intervals_lost", TD_OM_COUNTER, "",
		     "Interval writes that failed (their counts went into the next interval written).");
	td_om_sample(om, "topdown_intervals_lost", TD_OM_COUNTER, NULL, (double)h->intervals_lost);
	td_om_family(om, "topdown_interval_periods_missed", TD_OM_COUNTER, "",
		     "Interval periods the sampler read late (the intervals that absorbed them are longer).");
	td_om_sample(om, "topdown_interval_periods_missed", TD_OM_COUNTER, NULL, (double)h->periods_missed);
	td_om_family(om, "topdown_schedule_runs_missed", TD_OM_COUNTER, "",
		     "Scheduled runs not started (the previous still ran, the daemon was late, or the start failed).");
	td_om_sample(om, "topdown_schedule_runs_missed", TD_OM_COUNTER, NULL, (double)h->runs_missed);
	td_om_family(om, "topdown_collector_cpu_seconds", TD_OM_COUNTER, "seconds",
		     "CPU time topdownd used, user and system, since it started.");
	td_om_sample(om, "topdown_collector_cpu_seconds", TD_OM_COUNTER, NULL, h->cpu_seconds);
	if (h->store_bytes >= 0) {
		td_om_family(om, "topdown_store_bytes", TD_OM_GAUGE, "bytes",
			     "Size of the database and its write-ahead log.");
		td_om_sample(om, "topdown_store_bytes", TD_OM_GAUGE, NULL, (double)h->store_bytes);
	}
	td_om_family(om, "topdown_watch_changes", TD_OM_COUNTER, "",
		     "Changes watch mode found and kept (tdctl changes), since topdownd started.");
	td_om_sample(om, "topdown_watch_changes", TD_OM_COUNTER, NULL, (double)h->watch_changes);
	td_om_family(om, "topdown_watch_changes_held", TD_OM_COUNTER, "",
		     "Changes watch mode found but held back (workload_every, changes_per_hour).");
	td_om_sample(om, "topdown_watch_changes_held", TD_OM_COUNTER, NULL, (double)h->watch_held);
	td_om_family(om, "topdown_clients", TD_OM_GAUGE, "", "Control socket clients connected.");
	td_om_sample(om, "topdown_clients", TD_OM_GAUGE, NULL, h->clients);
	if (h->scrape_seconds >= 0) {
		td_om_family(om, "topdown_scrape_duration_seconds", TD_OM_GAUGE, "seconds",
			     "How long rendering the previous scrape took.");
		td_om_sample(om, "topdown_scrape_duration_seconds", TD_OM_GAUGE, NULL, h->scrape_seconds);
	}
}

/* One family over every target's snapshot values: what picks the value. */
enum which {
	NODE,
	NODE_CONF,
	INFO,
	IPC,
	CPI,
	CPI_COMP,
	SEQ,
	SECONDS,
	SESSION
};

static void family(struct td_om *om, const struct td_export_target *t, int n, enum which w, const char *name,
		   const char *unit, const char *help)
{
	const char *l[MAX_LABELS];
	char level[16];

	td_om_family(om, name, TD_OM_GAUGE, unit, help);
	for (int k = 0; k < n; k++) {
		const struct td_snapshot *s = t[k].snap;
		if (w == SESSION) {
			labels(&t[k], l, NULL);
			td_om_sample(om, name, TD_OM_GAUGE, l, (double)t[k].session);
			continue;
		}
		if (!s || s->seq < 0)
			continue;
		if (w == SEQ || w == SECONDS) {
			labels(&t[k], l, NULL);
			td_om_sample(om, name, TD_OM_GAUGE, l, w == SEQ ? s->seq : s->seconds);
			continue;
		}
		for (int f = 0; f < s->nfiles; f++) {
			const struct td_snap_file *sf = &s->files[f];
			if (w == NODE || w == NODE_CONF)
				for (int i = 0; i < sf->nnodes; i++) {
					snprintf(level, sizeof(level), "%d", sf->nodes[i].level);
					const char *extra[] = { "node",	  sf->nodes[i].name, "level",
								level,	  "parent",	     sf->nodes[i].parent,
								"domain", sf->nodes[i].unit, NULL };
					labels(&t[k], l, extra);
					td_om_sample(om, name, TD_OM_GAUGE, l,
						     w == NODE ? sf->nodes[i].value : sf->nodes[i].conf);
				}
			if (w == INFO || w == IPC)
				for (int i = 0; i < sf->ninfos; i++) {
					if (w == IPC && strcmp(sf->infos[i].name, "IPC"))
						continue;
					const char *extra[] = { "metric", sf->infos[i].name, "unit", sf->infos[i].unit,
								"file",	  sf->file,	     NULL };
					labels(&t[k], l, w == INFO ? extra : NULL);
					td_om_sample(om, name, TD_OM_GAUGE, l, sf->infos[i].value);
				}
			if (w == CPI) {
				labels(&t[k], l, NULL);
				td_om_sample(om, name, TD_OM_GAUGE, l, sf->cpi);
			}
			if (w == CPI_COMP)
				for (int i = 0; i < sf->ncpis; i++) {
					const char *extra[] = { "component", sf->cpis[i].name, NULL };
					labels(&t[k], l, extra);
					td_om_sample(om, name, TD_OM_GAUGE, l, sf->cpis[i].value);
				}
		}
	}
}

void td_export_render(struct td_om *om, const struct td_export_target *t, int n, const struct td_export_health *h)
{
	const char *l[MAX_LABELS];

	health(om, h);
	td_om_family(om, "topdown", TD_OM_INFO, "", "What each exported target is measured with.");
	for (int k = 0; k < n; k++) {
		const char *extra[] = { "rung",	       t[k].rung ? t[k].rung : "",
					"model",       t[k].model ? t[k].model : "",
					"events_file", t[k].events_file ? t[k].events_file : "",
					NULL };
		labels(&t[k], l, extra);
		td_om_sample(om, "topdown", TD_OM_INFO, l, 1);
	}
	family(om, t, n, SESSION, "topdown_session_id", "", "The session (tdctl report SESSION) the values come from.");
	family(om, t, n, SEQ, "topdown_interval_seq", "", "The interval (seq) of the values exported.");
	family(om, t, n, SECONDS, "topdown_interval_seconds", "seconds", "Length of that interval.");
	family(om, t, n, NODE, "topdown_node_ratio", "ratio",
	       "Top-down node: fraction of its domain (slots, clocks) in the latest interval.");
	family(om, t, n, NODE_CONF, "topdown_node_confidence_ratio", "ratio",
	       "Least running/enabled time of the events the node read (1: counted all the time).");
	family(om, t, n, INFO, "topdown_metric", "", "An info metric of the events file, in its unit.");
	family(om, t, n, IPC, "topdown_ipc", "", "Instructions per cycle.");
	family(om, t, n, CPI, "topdown_cpi", "", "Cycles per instruction (the CPI stack's total).");
	family(om, t, n, CPI_COMP, "topdown_cpi_component", "",
	       "CPI stack component: cycles per instruction attributed to it (the interval model).");
	td_om_finish(om);
}
