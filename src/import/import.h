/* import: `perf stat -x SEP` output (CSV with `,` or `;`, detected) into a
 * session of kind `import` — totals or `-I` intervals (leading timestamp),
 * per CPU (`-A`: CPUn column) or per thread (`--per-thread`: COMM-TID
 * column), events in any spelling perf prints (matched to the catalog by
 * encoding, see event_identity.h) — with its targets, events, raw counts, and the
 * metric values computed from them (recompute.h).
 *
 * perf prints scaled counts: VALUE;UNIT;EVENT;RUN-TIME;PERCENT where
 * RUN-TIME is the time the counter ran (ns) and PERCENT = 100 * running /
 * enabled. Stored: running = RUN-TIME, enabled = round(RUN-TIME * 100 /
 * PERCENT), value = round(VALUE * PERCENT / 100) (the raw count), so
 * value * enabled / running gives VALUE back (to rounding). `msec` values
 * (task-clock) are stored in ns. `<not counted>` / `<not supported>`:
 * value 0, running 0 (not counted). Without RUN-TIME / PERCENT columns:
 * enabled = running = 1 (fully counted, time unknown). `duration_time`
 * gives the interval's length instead of an event. Lines that cannot be
 * used are reported as FILE:LINE: what, and skipped. */
#ifndef TD_IMPORT_H
#define TD_IMPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis/recompute.h"
#include "store/store.h"

struct td_import_opts {
	const char *path;	/* "-": standard input */
	const char *pmu_model;	/* libpfm4 model whose events file reads the counts */
	const char *events_dir; /* NULL: td_events_dir() */
	int smt;		/* 1 on, 0 off, -1 unknown (the file's param default) */
	FILE *diag;		/* line messages; NULL: none */
	int max_messages;	/* 0: 20 */
	bool no_metrics;	/* store the counts only: no metric values (tdctl recompute adds them) */
};

struct td_import_result {
	int64_t session;
	int lines, used, skipped;
	int intervals, targets, events;
	struct td_recompute_result metrics;
};

/* Does o->path name standard input ("-", as perf and most tools spell it)? */
static inline bool td_import_from_stdin(const struct td_import_opts *o)
{
	return o->path[0] == '-' && o->path[1] == '\0';
}

/* Import o->path into s (open for writing). -1 with a one-line err when
 * nothing was imported: unreadable or empty file, no usable line, no events
 * file for the model, database errors. */
int td_import(struct td_store *s, const struct td_import_opts *o, struct td_import_result *res, td_err *err);
/* The parse alone, nothing written: buf (len bytes followed by a NUL; modified)
 * read as td_import reads a file named o->path (o->pmu_model encodes the
 * events), counting lines, used, skipped, intervals, targets and events in
 * res. 0, or -1 with a one-line err when no line is usable. For the import
 * fuzz target (tests/fuzz/fuzz_import.c). */
int td_import_parse(const struct td_import_opts *o, char *buf, size_t len, struct td_import_result *res, td_err *err);

#endif
