/* session_rows: a stored session's raw counts and metric values as rows
 * that name what they are about — the target as a label (thread:COMM-TID,
 * process:COMM-PID, cpu:N, cgroup:PATH, whole), the event as recorded and
 * the alias it feeds — in interval, target order. What `tdctl export`
 * writes out, read without evaluating anything. */
#ifndef TD_SESSION_ROWS_H
#define TD_SESSION_ROWS_H

#include <stdbool.h>
#include <stdint.h>

#include "base/util.h"
#include "store/store.h"

struct td_labelled_count {
	int seq; /* the interval's */
	uint64_t start_ns, end_ns;
	const char *target, *name;
	const char *alias; /* NULL: the row feeds no alias */
	uint64_t value, enabled, running;
};

struct td_labelled_metric {
	int seq;
	uint64_t start_ns, end_ns;
	const char *target, *kind, *name;
	double value, confidence; /* NaN: not available / unknown */
	bool flagged, bottleneck, spans;
};

typedef int (*td_labelled_count_fn)(const struct td_labelled_count *c, void *ctx);
typedef int (*td_labelled_metric_fn)(const struct td_labelled_metric *m, void *ctx);

struct td_session_rows;

/* -1 with err when there is no such session or it cannot be read. */
int td_session_rows_open(struct td_store *s, int64_t session, struct td_session_rows **out, td_err *err);
void td_session_rows_close(struct td_session_rows *r);
/* Every count, then (the other call) every metric value; -1 with err on a
 * store error or when fn fails. */
int td_session_rows_counts(struct td_session_rows *r, td_labelled_count_fn fn, void *ctx, td_err *err);
int td_session_rows_metrics(struct td_session_rows *r, td_labelled_metric_fn fn, void *ctx, td_err *err);

#endif
