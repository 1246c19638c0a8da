/* daemon_schedule: the [schedule NAME] entries — each one's next run, a run
 * started as a system-wide (or cgroup) session, runs missed counted and
 * logged rather than stacked, the poll timeout until the next run, and the
 * entries' state carried over a reload. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "daemon_impl.h"

int daemon_start_scheduled(struct daemon *d, int k, td_err *err)
{
	const struct td_schedule_entry *e = &d->cfg.schedule[k];
	struct dsession *ds = calloc(1, sizeof(*ds));
	struct td_session_opts o;

	if (!ds) {
		td_err_set(err, "out of memory");
		return -1;
	}
	memset(&o, 0, sizeof(o));
	ds->entry = k;
	ds->top_n = e->top;
	if (daemon_dup_opt(&ds->entry_name, e->name) || daemon_dup_opt(&ds->nodes, e->nodes) ||
	    daemon_dup_opt(&ds->cgroup, e->cgroup)) {
		daemon_session_free(ds);
		td_err_set(err, "out of memory");
		return -1;
	}
	o.system = !e->cgroup;
	o.interval_ms = e->interval_ms;
	o.duration_ms = (int)(e->duration_ns / 1000000ull);
	o.level = e->level;
	if (e->top > 0)
		ds->top = td_top_snapshot_take();
	if (daemon_start_session(d, ds, &o, err)) {
		daemon_session_free(ds);
		return -1;
	}
	d->sched[k].running = ds->id;
	d->sched[k].runs++;
	daemon_log(d, "schedule %s: session %lld started (%s, %.3g s)", e->name, (long long)ds->id,
		   e->cgroup ? e->cgroup : "system-wide", (double)e->duration_ns / 1e9);
	return 0;
}

/* Runs due now; a run still going, or several periods passed at once (the
 * system was busy, the clock jumped), is logged as missed, not stacked. */
void daemon_run_schedule(struct daemon *d)
{
	uint64_t now = td_now_ns();

	for (int k = 0; k < d->cfg.nschedule; k++) {
		struct sched_state *st = &d->sched[k];
		const struct td_schedule_entry *e = &d->cfg.schedule[k];
		td_err err;
		if (now < st->next_ns)
			continue;
		uint64_t behind = (now - st->next_ns) / e->every_ns;
		st->next_ns += (behind + 1) * e->every_ns;
		if (behind > 0) {
			st->missed += (int)behind;
			d->missed_runs += (long long)behind;
			daemon_log(d, "schedule %s: %llu run%s missed (the daemon was late)", e->name,
				   (unsigned long long)behind, behind == 1 ? "" : "s");
		}
		if (st->running) {
			st->missed++;
			d->missed_runs++;
			daemon_log(d, "schedule %s: run missed, session %lld still runs", e->name,
				   (long long)st->running);
			continue;
		}
		if (daemon_start_scheduled(d, k, &err)) {
			st->missed++;
			d->missed_runs++;
			daemon_log(d, "schedule %s: run missed: %s", e->name, err.msg);
		}
	}
}

int daemon_schedule_timeout_ms(const struct daemon *d)
{
	uint64_t now = td_now_ns();
	int t = -1;

	for (int k = 0; k < d->cfg.nschedule; k++) {
		int left = d->sched[k].next_ns <= now ? 0 : (int)((d->sched[k].next_ns - now) / 1000000ull) + 1;
		if (t < 0 || left < t)
			t = left;
	}
	return t;
}

/* A new schedule: entries kept by name keep their cadence and run. */
int daemon_adopt_schedule(struct daemon *d, struct td_config *c, td_err *err)
{
	struct sched_state *st = calloc((size_t)c->nschedule + 1, sizeof(*st));
	uint64_t now = td_now_ns();

	if (!st) {
		td_err_set(err, "out of memory");
		return -1;
	}
	for (int k = 0; k < c->nschedule; k++) {
		st[k].next_ns = now;
		td_snapshot_init(&st[k].last);
		for (int j = 0; d->sched && j < d->cfg.nschedule; j++)
			if (!strcmp(d->cfg.schedule[j].name, c->schedule[k].name) &&
			    d->cfg.schedule[j].every_ns == c->schedule[k].every_ns) {
				st[k] = d->sched[j];
				td_snapshot_init(&d->sched[j].last); /* moved */
			}
	}
	for (int j = 0; d->sched && j < d->cfg.nschedule; j++)
		td_snapshot_free(&d->sched[j].last);
	free(d->sched);
	d->sched = st;
	return 0;
}
