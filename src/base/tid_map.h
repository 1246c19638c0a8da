/* tid_map: a hash map from a thread or process ID (a positive 32-bit
 * number) to a non-zero value (a pointer or an index + 1), for the lookups
 * by TID that run for every thread every interval (the collector's threads,
 * the BPF counting view's slots). Open addressing with linear probing; a
 * deletion moves the entries after it up, so there are no tombstones and a
 * map that churns through threads stays as fast as a fresh one. */
#ifndef TD_TID_MAP_H
#define TD_TID_MAP_H

#include <stddef.h>
#include <stdint.h>

struct td_tid_map {
	uint32_t *keys; /* 0: empty */
	uintptr_t *values;
	uint32_t cap; /* a power of 2, at least twice n (0 before the first put) */
	uint32_t n;
};

/* Set key's value (key > 0, value != 0). 0, or -ENOMEM (the map unchanged). */
int td_tid_map_put(struct td_tid_map *m, uint32_t key, uintptr_t value);
/* key's value, 0 when it has none. */
uintptr_t td_tid_map_get(const struct td_tid_map *m, uint32_t key);
/* Remove key (nothing when it is not there). */
void td_tid_map_del(struct td_tid_map *m, uint32_t key);
void td_tid_map_free(struct td_tid_map *m);
/* The memory it holds. */
size_t td_tid_map_bytes(const struct td_tid_map *m);

#endif
