/* daemon_export: what the exporter serves at a scrape — each schedule entry's
 * latest values (its running run's, else its last run's), the newest
 * export_top attached sessions', each group watch mode follows
 * (target="watch:GROUP"), and the daemon's health (sessions, intervals
 * written and lost, runs missed, CPU time, the database's size, the changes
 * watch mode found). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "daemon_impl.h"
#include "metrics_export.h"

static long long store_bytes(const char *db)
{
	char wal[4096];
	struct stat st;
	long long n;

	if (stat(db, &st) < 0)
		return -1;
	n = st.st_size;
	snprintf(wal, sizeof(wal), "%s-wal", db);
	if (stat(wal, &st) == 0)
		n += st.st_size;
	return n;
}

/* A scrape: every schedule entry (its running run's latest interval, else
 * its last run's) and the newest export_top attached processes. */
void daemon_fill_metrics(void *ctx, struct td_om *om)
{
	struct daemon *d = ctx;
	struct td_export_target *t = calloc((size_t)d->cfg.nschedule + (size_t)d->ns + 1, sizeof(*t));
	char(*names)[96] = calloc((size_t)d->cfg.nschedule + (size_t)d->ns + 1, sizeof(*names));
	struct td_workload *wl = calloc((size_t)d->ns + 1, sizeof(*wl));
	struct td_export_health h = { .scrape_seconds = d->scrape_seconds };
	uint64_t t0 = td_now_ns();
	struct rusage ru;
	int n = 0, attached = 0;

	if (!t || !names || !wl) {
		free(t);
		free(names);
		free(wl);
		om->failed = true;
		return;
	}
	for (int k = 0; k < d->cfg.nschedule; k++) {
		const struct sched_state *st = &d->sched[k];
		const struct dsession *run = st->running ? daemon_find_running(d, st->running) : NULL;
		snprintf(names[n], sizeof(names[n]), "schedule:%s", d->cfg.schedule[k].name);
		if (run && run->snap.seq >= 0)
			t[n] = (struct td_export_target){ .target = names[n],
							  .session = run->id,
							  .rung = run->rung,
							  .model = run->model,
							  .events_file = run->events_file,
							  .snap = &run->snap };
		else if (st->last.seq >= 0)
			t[n] = (struct td_export_target){ .target = names[n],
							  .session = st->last_session,
							  .rung = st->rung,
							  .model = st->model,
							  .events_file = st->events_file,
							  .snap = &st->last };
		else
			continue;
		n++;
	}
	for (int i = d->ns - 1; i >= 0 && attached < d->cfg.export_top; i--) {
		const struct dsession *ds = d->s[i];
		if (ds->entry >= 0 || ds->watch)
			continue;
		attached++;
		snprintf(names[n], sizeof(names[n]), "pid:%d", (int)ds->pid);
		t[n] = (struct td_export_target){ .target = names[n],
						  .comm = d->cfg.export_comm ? ds->comm : NULL,
						  .session = ds->id,
						  .rung = ds->rung,
						  .model = ds->model,
						  .events_file = ds->events_file,
						  .snap = &ds->snap };
		n++;
	}
	/* every watched group: as many series as groups, which [watch] chose (its drill-downs are not exported) */
	for (int i = 0; i < d->ns; i++) {
		const struct dsession *ds = d->s[i];
		if (!ds->watch || strcmp(ds->watch, "watch") || ds->snap.seq < 0)
			continue;
		/* its workload as its path says (a systemd unit, a pod, a container): labels beside target */
		if (ds->cgroup)
			td_workload_of(ds->cgroup, &wl[i]);
		t[n++] = (struct td_export_target){ .target = ds->entry_name,
						    .workload = ds->cgroup ? &wl[i] : NULL,
						    .session = ds->id,
						    .rung = ds->rung,
						    .model = ds->model,
						    .events_file = ds->events_file,
						    .snap = &ds->snap };
	}
	h.watch_changes = d->nchanges;
	h.watch_held = d->changes_held;
	for (int i = 0; i < d->ns; i++) {
		if (d->s[i]->entry >= 0)
			h.schedule_running++;
		else if (!d->s[i]->watch)
			h.attach_running++;
	}
	h.sessions_started = d->sessions_started;
	h.intervals_written = d->intervals_written;
	h.intervals_lost = d->intervals_lost;
	h.periods_missed = d->periods_missed;
	for (int i = 0; i < d->ns; i++) {
		h.intervals_lost += td_session_failed_writes(d->s[i]->s);
		h.periods_missed += (long long)td_session_missed_periods(d->s[i]->s);
	}
	h.runs_missed = d->missed_runs;
	if (getrusage(RUSAGE_SELF, &ru) == 0)
		h.cpu_seconds = (double)ru.ru_utime.tv_sec + (double)ru.ru_stime.tv_sec +
				((double)ru.ru_utime.tv_usec + (double)ru.ru_stime.tv_usec) / 1e6;
	h.store_bytes = store_bytes(d->cfg.db_path);
	h.clients = td_rclients_count(d->clients);
	td_export_render(om, t, n, &h);
	d->scrape_seconds = (double)(td_now_ns() - t0) / 1e9;
	free(t);
	free(names);
	free(wl);
}
