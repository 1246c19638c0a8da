/* summary: the end-of-session summary of `tdctl run` / `tdctl attach` —
 * per process and per thread: CPU time, utilisation, context switches,
 * migrations and faults per second (and IPC where cycles and instructions
 * were counted), as analysis/summary_data reads and evaluates them.
 * Anything not counted prints as "n/c". */
#ifndef TD_SUMMARY_H
#define TD_SUMMARY_H

#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>

#include "analysis/summary_data.h"

/* The end of `tdctl run`/`attach`/`stat` prints at most this many processes
 * and threads per process, those with the most CPU time; a line says how
 * many more there are, their CPU time, and how to see them. Reports print all. */
#define TD_SUMMARY_END_PROCESSES 20
#define TD_SUMMARY_END_THREADS 50

/* Print sum (db_path: named in the header line): at most max_processes
 * processes (or CPU sets, cgroups) and max_threads members of each, those
 * with the most CPU time (0: all). */
void td_summary_write(FILE *f, const struct td_summary *sum, const char *db_path, int max_processes, int max_threads);
/* PREFIX"topdown used 12.3 ms of CPU (0.6 % of the target's 2.05 s), 4 counter
 * reads and 69 read/write system calls per interval": what the collector's
 * intervals recorded, against the CPU time of what it counted. false (and
 * nothing printed) when no interval recorded it. */
bool td_summary_cost(FILE *f, const struct td_summary *sum, const char *prefix);

/* Load session's summary (events_dir NULL: td_events_dir(); filter NULL:
 * everything, see td_summary_load) and print it (max_processes, max_threads:
 * as td_summary_write). -1 with err when the session cannot be read. */
int td_summary_print(FILE *f, struct td_store *s, int64_t session, const char *events_dir,
		     const struct td_report_filter *filter, const char *db_path, int max_processes, int max_threads,
		     td_err *err);

#endif
