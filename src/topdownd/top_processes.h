/* top_processes: which processes used the CPUs — CPU time from
 * /proc/PID/stat at the start and at the end (source 'proc'): during a
 * scheduled system profile, a process that exited before the end is not
 * seen, one born during the profile counts its whole life, and the N
 * largest are stored with the session (top_processes table); for watch
 * mode, the processes in both snapshots, busiest first. */
#ifndef TD_TOP_PROCESSES_H
#define TD_TOP_PROCESSES_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/util.h"

struct td_top_snapshot;

/* Every process's CPU time now; NULL when out of memory. */
struct td_top_snapshot *td_top_snapshot_take(void);
void td_top_snapshot_free(struct td_top_snapshot *t);
/* Compare with now and store the n largest for session in the database at
 * db_path. 0, or -1 with err. */
int td_top_record(const char *db_path, int64_t session, const struct td_top_snapshot *start, int n, td_err *err);

/* A process's CPU time between two snapshots. */
struct td_top_proc {
	pid_t pid;
	long long start; /* its start time (clock ticks after boot): a PID reused is another process */
	uint64_t cpu_ns;
};
/* The processes in both start and end (the same: its start time) that used
 * CPU time in between, busiest first, into *out (malloc'd, the caller
 * frees it; NULL when none). Their count, or -1 when out of memory. */
int td_top_busiest(const struct td_top_snapshot *start, const struct td_top_snapshot *end, struct td_top_proc **out);
/* Is pid (started at start) in t? */
bool td_top_has(const struct td_top_snapshot *t, pid_t pid, long long start);

#endif
