/* tid_map: TID-keyed hash map (tid_map.h). */
#include "tid_map.h"

#include <errno.h>
#include <stdlib.h>

static uint32_t home(uint32_t key, uint32_t cap)
{
	return (key * 2654435761u) & (cap - 1); /* Knuth's multiplicative hash */
}

/* Where key is, or the empty place it would go. */
static uint32_t place(const struct td_tid_map *m, uint32_t key)
{
	uint32_t i = home(key, m->cap);

	while (m->keys[i] && m->keys[i] != key)
		i = (i + 1) & (m->cap - 1);
	return i;
}

static int grow(struct td_tid_map *m)
{
	struct td_tid_map g = { .cap = m->cap ? 2 * m->cap : 64, .n = m->n };

	if (g.cap < m->cap || !(g.keys = calloc(g.cap, sizeof(*g.keys))) ||
	    !(g.values = malloc(g.cap * sizeof(*g.values)))) {
		free(g.keys);
		return -ENOMEM;
	}
	for (uint32_t k = 0; k < m->cap; k++)
		if (m->keys[k]) {
			uint32_t i = place(&g, m->keys[k]);
			g.keys[i] = m->keys[k];
			g.values[i] = m->values[k];
		}
	free(m->keys);
	free(m->values);
	*m = g;
	return 0;
}

int td_tid_map_put(struct td_tid_map *m, uint32_t key, uintptr_t value)
{
	uint32_t i;

	if (2 * ((uint64_t)m->n + 1) > m->cap && grow(m))
		return -ENOMEM;
	i = place(m, key);
	m->n += !m->keys[i];
	m->keys[i] = key;
	m->values[i] = value;
	return 0;
}

uintptr_t td_tid_map_get(const struct td_tid_map *m, uint32_t key)
{
	uint32_t i;

	if (!m->n || !key)
		return 0;
	i = place(m, key);
	return m->keys[i] ? m->values[i] : 0;
}

void td_tid_map_del(struct td_tid_map *m, uint32_t key)
{
	uint32_t mask = m->cap - 1, i, j;

	if (!m->n || !key || !m->keys[i = place(m, key)])
		return;
	m->keys[i] = 0;
	m->n--;
	for (j = (i + 1) & mask; m->keys[j]; j = (j + 1) & mask) {
		uint32_t h = home(m->keys[j], m->cap);
		/* the entry at j may move up to i when its home is not in (i, j], cyclically */
		if (i <= j ? (h <= i || h > j) : (h <= i && h > j)) {
			m->keys[i] = m->keys[j];
			m->values[i] = m->values[j];
			m->keys[j] = 0;
			i = j;
		}
	}
}

void td_tid_map_free(struct td_tid_map *m)
{
	free(m->keys);
	free(m->values);
	*m = (struct td_tid_map){ 0 };
}

size_t td_tid_map_bytes(const struct td_tid_map *m)
{
	return (size_t)m->cap * (sizeof(*m->keys) + sizeof(*m->values));
}
