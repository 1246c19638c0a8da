/* top_processes: which processes used the CPUs during a scheduled system
 * profile — CPU time from /proc/PID/stat at the start and at the end (source
 * 'proc'): a process that exited before the end is not seen, one born during
 * the profile counts its whole life. The N largest are stored with the
 * session (top_processes table). */
#ifndef TD_TOP_PROCESSES_H
#define TD_TOP_PROCESSES_H

#include <stdint.h>

#include "base/util.h"

struct td_top_snapshot;

/* Every process's CPU time now; NULL when out of memory. */
struct td_top_snapshot *td_top_snapshot_take(void);
void td_top_snapshot_free(struct td_top_snapshot *t);
/* Compare with now and store the n largest for session in the database at
 * db_path. 0, or -1 with err. */
int td_top_record(const char *db_path, int64_t session, const struct td_top_snapshot *start, int n, td_err *err);

#endif
