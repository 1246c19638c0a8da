/* session_written: what the intervals of an open group of intervals wrote,
 * per target and counter group, so that each interval's row holds its own
 * counts.
 *
 * A session commits its intervals a group at a time (session_sink.c: about
 * a second of them in one transaction). The collector is committed only
 * with the group (td_collector_commit moves its baselines on): until then
 * each interval's reading runs from the group's start, as after a write
 * that failed, so that a group that fails to commit loses nothing — the
 * next interval written spans it. A row is that reading less what the
 * group's earlier rows of the same target and counter group wrote, which
 * this map keeps: its sum over the group is the group's reading, and a
 * reading that did not move gives no second row (the collector gives none
 * for a thread with nothing new). */
#include "session_written.h"

#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct written_entry {
	int64_t target, event;
	size_t at; /* its counts: pool[at .. at + n) */
	int n;
};

static size_t slot_of(const struct td_written *w, int64_t target, int64_t event)
{
	uint64_t h = (uint64_t)target * 0x9E3779B97F4A7C15ull ^ (uint64_t)event * 0xC2B2AE3D27D4EB4Full;

	return (size_t)(h ^ (h >> 29)) & (w->cap - 1);
}

static struct written_entry *find(const struct td_written *w, int64_t target, int64_t event)
{
	if (!w->cap)
		return NULL;
	for (size_t i = slot_of(w, target, event);; i = (i + 1) & (w->cap - 1)) {
		struct written_entry *e = &w->slots[i];
		if (!e->target)
			return NULL;
		if (e->target == target && e->event == event)
			return e;
	}
}

static int grow(struct td_written *w)
{
	size_t cap = w->cap ? w->cap * 2 : 256;
	struct written_entry *slots = calloc(cap, sizeof(*slots)), *old = w->slots;
	size_t oldcap = w->cap;

	if (!slots)
		return -ENOMEM;
	w->slots = slots;
	w->cap = cap;
	for (size_t i = 0; i < oldcap; i++)
		if (old[i].target) {
			size_t j = slot_of(w, old[i].target, old[i].event);
			while (slots[j].target)
				j = (j + 1) & (cap - 1);
			slots[j] = old[i];
		}
	free(old);
	return 0;
}

static struct written_entry *add(struct td_written *w, int64_t target, int64_t event, int n)
{
	struct written_entry *e;
	size_t i;

	if ((w->n + 1) * 2 > w->cap && grow(w))
		return NULL;
	if (w->used + (size_t)n > w->room) {
		size_t room = w->room ? w->room * 2 : 1024;
		struct td_count *p;
		while (room < w->used + (size_t)n)
			room *= 2;
		if (!(p = realloc(w->pool, room * sizeof(*p))))
			return NULL;
		w->pool = p;
		w->room = room;
	}
	for (i = slot_of(w, target, event); w->slots[i].target; i = (i + 1) & (w->cap - 1))
		;
	e = &w->slots[i];
	*e = (struct written_entry){ target, event, w->used, n };
	w->used += (size_t)n;
	w->n++;
	return e;
}

int td_written_row(struct td_written *w, int64_t target, int64_t event, const struct td_count *c, int n,
		   struct td_count *d, bool *again)
{
	struct written_entry *e;
	bool moved = false;

	assert(target > 0);
	*again = false;
	if (!(e = find(w, target, event))) {
		if (!(e = add(w, target, event, n)))
			return -ENOMEM;
		memcpy(&w->pool[e->at], c, (size_t)n * sizeof(*c));
		memcpy(d, c, (size_t)n * sizeof(*c));
		return 0;
	}
	assert(e->n == n);
	for (int i = 0; i < n; i++) {
		struct td_count *was = &w->pool[e->at + (size_t)i];
		/* a reading since the group began only grows: the collector's
		 * baselines stay where the group began (the unlisted remainder's
		 * too: collector.c's deliver_unlisted) */
		assert(c[i].value >= was->value && c[i].enabled >= was->enabled && c[i].running >= was->running);
		d[i].value = c[i].value > was->value ? c[i].value - was->value : 0;
		d[i].enabled = c[i].enabled > was->enabled ? c[i].enabled - was->enabled : 0;
		d[i].running = c[i].running > was->running ? c[i].running - was->running : 0;
		moved |= d[i].value || d[i].enabled || d[i].running;
		was->value += d[i].value;
		was->enabled += d[i].enabled;
		was->running += d[i].running;
	}
	*again = !moved;
	return 0;
}

void td_written_reset(struct td_written *w)
{
	if (w->n)
		memset(w->slots, 0, w->cap * sizeof(*w->slots));
	w->n = 0;
	w->used = 0;
}

void td_written_free(struct td_written *w)
{
	free(w->slots);
	free(w->pool);
	memset(w, 0, sizeof(*w));
}
