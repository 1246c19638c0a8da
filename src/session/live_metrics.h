/* live_metrics: metric values computed while collecting. For every events
 * file whose groups are open (software.td always; generic.td or a model file
 * when its hardware groups count), the counts one interval delivers are
 * scaled per event (value * enabled / running; running == 0 is NA), the
 * file's model is evaluated per thread and per process (the process's thread
 * counts summed first, then evaluated once) and the results are written with
 * metric_writer in the interval's transaction. Counts are kept per perf
 * group (group_counts.h): each formula reads one group's time window where
 * it can, with that group's coverage as its confidence; a formula whose
 * events only several groups hold together is flagged as spanning, with the
 * product of their coverages (td_metrics_eval_groups). */
#ifndef TD_LIVE_METRICS_H
#define TD_LIVE_METRICS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "collect/interval.h"
#include "store/store.h"
#include "base/util.h"

struct td_catalog;
struct td_model;

struct td_live;
struct td_model;
struct td_evaluation;

/* One target's values of one interval as they are evaluated, for printing
 * while collecting (tdctl stat -I). kind: process, thread, cpu (one CPU),
 * cpus (every CPU counted, summed), cgroup, tree (every process summed). */
struct td_live_value {
	int seq;	  /* the interval */
	double seconds;	  /* its length */
	double elapsed;	  /* the session's time at its end: every interval's length summed, those
				       * with nothing to print (no thread of the target ran) too */
	const char *file; /* the events file's name, e.g. software.td */
	const struct td_model *model;
	const struct td_evaluation *ev;
	const char *kind;
	pid_t pid, tid; /* process, thread */
	int cpu;	/* cpu */
	const char *comm;
};
typedef void (*td_live_print_fn)(void *ctx, const struct td_live_value *v);

/* smt and num_cpus: the facts stored with the session (sessions.smt,
 * sessions.num_cpus), so that recompute and reports evaluate as live did.
 * each_target: also write every thread's and CPU's own values. */
struct td_live *td_live_new(struct td_store *s, int64_t session, int smt, int num_cpus, bool each_target);
/* Also hand every interval's values to fn: each process (the cgroup, all
 * CPUs summed) and, with leaves, each thread (each CPU) — evaluated for it
 * even when not stored. */
void td_live_set_printer(struct td_live *l, td_live_print_fn fn, void *ctx, bool leaves);
/* Also hand the printer, each interval, every process summed (kind "tree"):
 * an attach --children as one target (topdownd's exporter). */
void td_live_print_tree(struct td_live *l);
/* Also hand every process's values of every interval to fn, printed or
 * not (a session's hotspots watch the bottleneck: session_hotspots.c). */
void td_live_set_watch(struct td_live *l, td_live_print_fn fn, void *ctx);
void td_live_free(struct td_live *l);

/* Add the events file at path (catalog, model, writer), whose events are
 * counted in ngroups perf groups. Returns its index (for td_live_count) or
 * -1 with err. */
int td_live_add_file(struct td_live *l, const char *path, int ngroups, td_err *err);
/* The same with its metric values named PREFIX + name (a hybrid CPU's E-core tree: "cpu_atom:"),
 * as recompute names them. */
int td_live_add_file_prefixed(struct td_live *l, const char *path, const char *prefix, int ngroups, td_err *err);
/* The same for an events file already parsed (its path cat->path), and compiled when model is not
 * NULL: both taken over (freed by td_live_free, or here on an error). */
int td_live_add_catalog(struct td_live *l, struct td_catalog *cat, struct td_model *model, const char *prefix,
			int ngroups, td_err *err);
/* The same for an events file's text in memory (the -e events), named name. */
int td_live_add_text(struct td_live *l, const char *name, char *text, int ngroups, td_err *err);
/* Event alias index of name in file, or -1. */
int td_live_alias(const struct td_live *l, int file, const char *name);

/* One event's delta for one thread target in the current interval: alias of
 * file, counted in the file's perf group `group` (0 .. ngroups-1). */
int td_live_count(struct td_live *l, int file, int64_t thread, pid_t pid, pid_t tid, const char *comm, int alias,
		  int group, const struct td_count *c);
/* The same for a target that is not a thread (a CPU, cpu >= 0; a cgroup, -1): its counts are also
 * summed into up to two aggregate targets (e.g. its core and its socket;
 * 0: none), each evaluated once per interval. */
int td_live_count_agg(struct td_live *l, int file, int64_t target, int cpu, const int64_t agg[2], int alias, int group,
		      const struct td_count *c);
/* Evaluate and write everything counted since the last flush for interval
 * (seq: its index; duration: its length), then forget it. A file no target
 * counted for in the interval is written for the other files' targets, all
 * n/a (as recompute and reports evaluate it). -1 on a store error. */
int td_live_flush(struct td_live *l, int64_t interval, int seq, double seconds);
/* The intervals flushed so far are committed: a rollback goes back to here. */
void td_live_committed(struct td_live *l);
/* The interval's transaction, or its group's, failed: forget what was
 * counted since the last flush (it is delivered again with the next
 * interval, which begins where the failed ones did), the process targets
 * made in it (ids above `above`), and the failed intervals' lengths in the
 * elapsed time printed (the next interval's length covers them again). */
void td_live_rollback(struct td_live *l, int64_t above);
/* Formulas seen spanning groups so far (for the end-of-run note). */
int td_live_spanning(const struct td_live *l);

#endif
