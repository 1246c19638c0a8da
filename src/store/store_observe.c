/* store_observe: the counts written through a handle, kept from their write
 * to their transaction's end and handed to the handle's observer only once
 * it committed (td_store_observe_counts) — so that what the observer sums
 * is what the database holds, a failed write included. */
#include <stdlib.h>
#include <string.h>

#include "store_impl.h"

void td_store_observe_counts(struct td_store *s, td_committed_fn fn, void *ctx)
{
	s->observed.fn = fn;
	s->observed.ctx = ctx;
	s->observed.nrows = s->observed.nivs = s->observed.mark_rows = s->observed.mark_ivs = 0;
	s->observed.lost = s->observed.mark_lost = false;
}

/* Room for one more of n items of size sz in *p (capacity *cap). */
static bool room(void *p, size_t *cap, size_t n, size_t sz)
{
	void **pp = p, *q;
	size_t c;

	if (n < *cap)
		return true;
	c = *cap ? 2 * *cap : 64;
	if (!(q = realloc(*pp, c * sz)))
		return false;
	*pp = q;
	*cap = c;
	return true;
}

void observe_interval(struct td_store *s, int64_t id, int64_t session, int seq, uint64_t start_ns, uint64_t end_ns)
{
	struct observed *o = &s->observed;

	if (!o->fn || id <= 0)
		return;
	if (!room(&o->ivs, &o->cap_ivs, o->nivs, sizeof(*o->ivs))) {
		o->lost = true;
		return;
	}
	o->ivs[o->nivs].id = id;
	o->ivs[o->nivs].session = session;
	o->ivs[o->nivs].seq = seq;
	o->ivs[o->nivs].start_ns = start_ns;
	o->ivs[o->nivs].end_ns = end_ns;
	o->nivs++;
}

void observe_counts(struct td_store *s, int64_t interval, int64_t target, const struct td_store_count *c, int n)
{
	struct observed *o = &s->observed;
	size_t iv = o->nivs;

	if (!o->fn)
		return;
	while (iv > 0 && o->ivs[iv - 1].id != interval) /* the interval just added, as a rule */
		iv--;
	if (iv == 0) { /* an interval not added through this handle in this transaction */
		o->lost = true;
		return;
	}
	for (int i = 0; i < n; i++) {
		if (!room(&o->rows, &o->cap_rows, o->nrows, sizeof(*o->rows))) {
			o->lost = true;
			return;
		}
		o->rows[o->nrows] = (struct observed_row){
			.r = { .interval = interval,
			       .target = target,
			       .event = c[i].event,
			       .seq = o->ivs[iv - 1].seq,
			       .start_ns = o->ivs[iv - 1].start_ns,
			       .end_ns = o->ivs[iv - 1].end_ns,
			       .value = c[i].value,
			       .enabled = c[i].enabled,
			       .running = c[i].running },
			.iv = iv - 1,
			.ord = o->nrows,
		};
		o->nrows++;
	}
}

void observe_begin(struct td_store *s)
{
	struct observed *o = &s->observed;

	o->mark_rows = o->nrows;
	o->mark_ivs = o->nivs;
	o->mark_lost = o->lost;
}

void observe_rollback(struct td_store *s, bool savepoint)
{
	struct observed *o = &s->observed;

	if (savepoint) {
		o->nrows = o->mark_rows;
		o->nivs = o->mark_ivs;
		o->lost = o->mark_lost;
	} else {
		o->nrows = o->nivs = o->mark_rows = o->mark_ivs = 0;
		o->lost = o->mark_lost = false;
	}
}

/* td_store_counts' order: interval, target, event (then as written). */
static int cmp_row(const void *a, const void *b)
{
	const struct observed_row *x = a, *y = b;

	if (x->iv != y->iv)
		return x->iv < y->iv ? -1 : 1;
	if (x->r.target != y->r.target)
		return x->r.target < y->r.target ? -1 : 1;
	if (x->r.event != y->r.event)
		return x->r.event < y->r.event ? -1 : 1;
	return (x->ord > y->ord) - (x->ord < y->ord);
}

void observe_committed(struct td_store *s)
{
	struct observed *o = &s->observed;
	size_t i = 0;

	if (!o->fn)
		return;
	/* written in that order as a rule (every commit of a 1,000-thread session
	 * was): the sort, n log n comparisons where n is every row of the commit,
	 * only when one is out of place */
	for (size_t k = 1; k < o->nrows; k++)
		if (cmp_row(&o->rows[k - 1], &o->rows[k]) > 0) {
			qsort(o->rows, o->nrows, sizeof(*o->rows), cmp_row);
			break;
		}
	for (size_t iv = 0; iv < o->nivs; iv++) {
		struct td_committed_counts c = { .session = o->ivs[iv].session, .lost = o->lost };
		size_t n = 0;
		for (size_t j = i; j < o->nrows && o->rows[j].iv == iv; j++)
			n++;
		if (n > o->cap_out) {
			struct td_count_row *q = realloc(o->out, n * sizeof(*q));
			if (!q) {
				c.lost = true;
				n = 0;
			} else {
				o->out = q;
				o->cap_out = n;
			}
		}
		for (size_t j = 0; j < n; j++)
			o->out[j] = o->rows[i + j].r;
		while (i < o->nrows && o->rows[i].iv == iv)
			i++;
		c.rows = o->out;
		c.n = n;
		o->lost = false;
		o->fn(o->ctx, s, &c);
	}
	if (o->lost && o->nivs == 0) /* rows lost, no interval to say it with */
		o->fn(o->ctx, s, &(struct td_committed_counts){ .session = 0, .lost = true });
	o->nrows = o->nivs = o->mark_rows = o->mark_ivs = 0;
	o->lost = o->mark_lost = false;
}

void observe_free(struct td_store *s)
{
	free(s->observed.rows);
	free(s->observed.ivs);
	free(s->observed.out);
	memset(&s->observed, 0, sizeof(s->observed));
}
