/* metrics_export: what topdownd exposes to Prometheus — the metric families,
 * their names, units and labels (man 8 topdownd, EXPORTER) — from the
 * exported targets' latest snapshots and the daemon's own health. Label
 * cardinality is bounded by the caller (the schedule entries and at most
 * top N followed processes); no thread ever becomes a series. Pure. */
#ifndef TD_METRICS_EXPORT_H
#define TD_METRICS_EXPORT_H

#include <stdint.h>

#include "openmetrics.h"
#include "snapshot.h"
#include "workload.h"

struct td_export_target {
	const char *target; /* label: "schedule:NAME", "pid:PID" or "watch:GROUP" */
	const char *comm;   /* label comm, NULL: not exported (the default) */
	int64_t session;
	const char *rung, *model, *events_file;
	const struct td_snapshot *snap;
	/* a watched group's workload, as its path says (workload.h): its labels
	 * after target's; NULL: none */
	const struct td_workload *workload;
};

struct td_export_health {
	int attach_running, schedule_running;
	long long sessions_started, intervals_written, intervals_lost, runs_missed;
	long long periods_missed; /* interval periods read late (sampler starved) */
	double cpu_seconds;	  /* the daemon's user + system time */
	long long store_bytes;	  /* the database and its WAL; < 0 not known */
	double scrape_seconds;	  /* the previous scrape's rendering; < 0 none yet */
	int clients;
	long long watch_changes, watch_held; /* watch mode's changes kept, and held back by its limits */
};

void td_export_render(struct td_om *om, const struct td_export_target *t, int n, const struct td_export_health *h);

#endif
