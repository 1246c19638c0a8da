/* daemon_downsample: watch mode's retention. The watch sessions' intervals
 * (schedule "watch:GROUP" and "watch-process:...", running or ended) that
 * ended more than [watch] full_resolution ago are merged per bucket of
 * downsample (analysis/downsample.c: the counts summed, the values
 * evaluated again, one transaction a call), through the daemon's own
 * database handle, between the wake-ups' writes. A pass runs every
 * full_resolution / 6, at most every 10 x downsample (a call's fixed cost,
 * ~2.5 ms on our hosts, shared by 10 buckets or more), each session from where
 * the previous pass left it; a pass stops after PASS_NS of work and goes on
 * at the next wake-up. The drill-down sessions are not touched: they are
 * the detail a change opened. */
#include <limits.h>
#include <stdlib.h>

#include "analysis/downsample.h"
#include "daemon_impl.h"

#define PASS_NS 20000000ull /* of work a wake-up gives a pass at most */
#define CALL_BUCKETS 64	    /* buckets one call (one transaction) merges at most */

/* Where a session's next pass starts. */
struct ds_cursor {
	int64_t session;
	int next_seq;
};

struct ds_state {
	struct ds_cursor *c; /* in session order */
	int n;
	int64_t *ids;		   /* this pass's sessions, in order */
	int nids, at;		   /* ... and the next one to look at */
	uint64_t next_pass_ns;	   /* monotonic */
	bool failed_said;	   /* a failure is logged once until a pass succeeds */
	long long merged, buckets; /* this pass's: intervals as read merged into buckets (logged at its end) */
};

void daemon_downsample_free(struct daemon *d)
{
	if (!d->downsampling)
		return;
	free(d->downsampling->c);
	free(d->downsampling->ids);
	free(d->downsampling);
	d->downsampling = NULL;
}

static int add_id(void *ctx, int64_t id)
{
	struct ds_state *st = ctx;
	int64_t *p = td_array_push(&st->ids, &st->nids, sizeof(*st->ids));

	if (!p)
		return -1;
	*p = id;
	return 0;
}

static struct ds_cursor *cursor_of(struct ds_state *st, int64_t session)
{
	struct ds_cursor *c;

	for (int i = 0; i < st->n; i++)
		if (st->c[i].session == session)
			return &st->c[i];
	if (!(c = td_array_push(&st->c, &st->n, sizeof(*st->c))))
		return NULL;
	*c = (struct ds_cursor){ session, INT_MIN };
	return c;
}

/* A new pass's sessions (the cursors of sessions deleted since dropped):
 * 0, or -1 (logged). */
static int list_sessions(struct daemon *d, struct ds_state *st)
{
	int kept = 0;

	st->nids = st->at = 0;
	if (td_store_sessions_scheduled(d->store, "watch:*", add_id, st) ||
	    td_store_sessions_scheduled(d->store, "watch-process:*", add_id, st)) {
		if (!st->failed_said)
			daemon_log(d, "watch: cannot list the watch sessions to downsample: %s",
				   td_store_errmsg(d->store));
		st->failed_said = true;
		st->nids = 0;
		return -1;
	}
	for (int i = 0; i < st->n; i++)
		for (int j = 0; j < st->nids; j++)
			if (st->ids[j] == st->c[i].session) {
				st->c[kept++] = st->c[i];
				break;
			}
	st->n = kept;
	return 0;
}

void daemon_downsample_step(struct daemon *d)
{
	const struct td_watch_config *c = &d->cfg.watch;
	uint64_t now = td_now_ns(), deadline = now + PASS_NS, wall = td_wall_ns();
	/* a call's fixed part (its statements, the events files read) paid for 10 buckets or more */
	uint64_t period =
		c->full_resolution_ns / 6 > 10 * c->downsample_ns ? c->full_resolution_ns / 6 : 10 * c->downsample_ns;
	struct ds_state *st = d->downsampling;

	if (!d->watching || !d->store || !c->downsample_ns || wall < c->full_resolution_ns)
		return;
	if (!st && !(st = d->downsampling = calloc(1, sizeof(*st))))
		return;		  /* out of memory: tried again next wake-up */
	if (st->at >= st->nids) { /* no pass under way */
		if (now < st->next_pass_ns)
			return;
		st->next_pass_ns = now + period;
		if (list_sessions(d, st))
			return;
	}
	while (st->at < st->nids && td_now_ns() < deadline) {
		struct ds_cursor *cur = cursor_of(st, st->ids[st->at]);
		struct td_downsample_result r;
		td_err err;
		if (!cur)
			return; /* out of memory: this session again next wake-up */
		if (td_downsample(d->store, cur->session, d->cfg.events_dir, cur->next_seq,
				  wall - c->full_resolution_ns, c->downsample_ns, CALL_BUCKETS, &r, &err)) {
			if (!st->failed_said)
				daemon_log(d, "watch: cannot downsample: %s (tried again every %g s)", err.msg,
					   (double)period / 1e9);
			st->failed_said = true;
			st->at = st->nids; /* the rest at the next pass */
			return;
		}
		st->merged += r.intervals + r.buckets;
		st->buckets += r.buckets;
		if (r.next_seq <= cur->next_seq)
			st->at++; /* nothing more due in this one */
		else
			cur->next_seq = r.next_seq;
	}
	if (st->at >= st->nids) { /* the pass is over */
		if (st->buckets)
			daemon_log(d, "watch: downsampled %lld intervals older than %g s into %lld of %g s", st->merged,
				   (double)c->full_resolution_ns / 1e9, st->buckets, (double)c->downsample_ns / 1e9);
		st->merged = st->buckets = 0;
		st->failed_said = false;
	}
}
