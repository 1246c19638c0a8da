/* import_perf_script: `perf script` output as a session's hotspots, so
 * that samples taken on a machine with a PMU (or with perf's own options)
 * can be read here: a new session (kind import) with one interval, its
 * sampling row (the event perf names) and samples_hot and samples_stack
 * rows per thread, function and call stack. Reads the fields of
 *   perf script -F comm,pid,tid,time,event,ip,sym,dso
 * (perf's default output has them too), with or without call stacks
 * (perf record -g). perf gives no source lines (file, line: NULL); its
 * clock is not the epoch's, so the interval ends at the import and lasts
 * as long as the samples spanned. */
#ifndef TD_IMPORT_PERF_SCRIPT_H
#define TD_IMPORT_PERF_SCRIPT_H

#include <stdint.h>

#include "base/util.h"
#include "store/store.h"

struct td_perf_script_result {
	int64_t session;
	uint64_t samples;
	int lines, skipped; /* lines read; lines neither a sample nor a frame of one */
	char event[128];    /* the first sample's event */
};

/* Import path ("-": standard input). -1 with a line in err (nothing
 * usable, a sample line without pid/tid, the database). */
int td_import_perf_script(struct td_store *s, const char *path, struct td_perf_script_result *res, td_err *err);

#endif
