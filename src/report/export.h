/* export: one stored session's raw counts and metric values as CSV or JSON,
 * with stable column names (docs/schema.md, man tdctl):
 *
 * CSV, one header line, then one line per count and per metric value:
 *   record,interval,start_ns,end_ns,target,name,alias,value,enabled,running,confidence,flagged,bottleneck
 * record: count, node, info or cpi. interval: the interval's seq. target:
 * thread:COMM-TID, process:COMM-PID, cpu:N, cgroup:PATH or whole. count
 * lines: name = the event as recorded, alias = the catalog alias its counts
 * feed (empty if none), value/enabled/running = raw integers; confidence,
 * flagged, bottleneck empty. metric lines: name = node path, info metric or
 * CPI component (Other, CPI), alias/enabled/running empty, value (a fraction
 * for nodes; empty = not available), confidence (0..1, empty = unknown),
 * flagged and bottleneck 0/1. Fields with `,` or `"` are quoted (RFC 4180).
 *
 * JSON: {"session": ID, "counts": [{"interval", "start_ns", "end_ns",
 * "target", "name", "alias", "value", "enabled", "running"}...],
 * "metrics": [{"interval", "start_ns", "end_ns", "target", "kind", "name",
 * "value", "confidence", "flagged", "bottleneck"}...]}; null for NULL. */
#ifndef TD_EXPORT_H
#define TD_EXPORT_H

#include <stdint.h>
#include <stdio.h>

#include "base/util.h"

struct td_store;

enum td_export_format {
	TD_EXPORT_CSV,
	TD_EXPORT_JSON
};

int td_export(struct td_store *s, int64_t session, enum td_export_format fmt, FILE *out, td_err *err);

#endif
