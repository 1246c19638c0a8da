/* perf_map: a JIT's symbols as perf reads them, /tmp/perf-PID.map — one
 * "START SIZE NAME" line per function (hex START and SIZE, with or without
 * 0x; perf's tools/perf/Documentation/jit-interface.txt), read again when
 * the file has changed. */
#ifndef TD_PERF_MAP_H
#define TD_PERF_MAP_H

#include <stdint.h>
#include <sys/types.h>

struct td_perf_map;

/* The map of pid (nothing read yet); NULL only when out of memory. dir:
 * where the file is ("/tmp" unless a test says otherwise). */
struct td_perf_map *td_perf_map_new(pid_t pid, const char *dir);
/* The name of the function holding addr, or NULL (no file, not in it).
 * The file is read again when its size or modification time changed. */
const char *td_perf_map_find(struct td_perf_map *m, uint64_t addr);
void td_perf_map_free(struct td_perf_map *m);

#endif
