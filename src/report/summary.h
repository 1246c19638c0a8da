/* summary: the end-of-session summary of `tdctl run` / `tdctl attach`, read
 * back from the store — per process and per thread: CPU time, utilisation,
 * context switches, migrations and faults per second (and IPC where cycles
 * and instructions were counted). Anything not counted prints as "n/c". */
#ifndef TD_SUMMARY_H
#define TD_SUMMARY_H

#include <stdint.h>
#include <stdio.h>

#include "store/store.h"

int td_summary_print(FILE *f, struct td_store *s, int64_t session, const char *db_path);

#endif
