/* tracker: tells the collector which threads of the monitored processes
 * were born, renamed or gone since the last poll, following child
 * processes. Two backends deliver the same td_task_event stream:
 * - bpf (tracker_bpf.c + tracker.bpf.c): tp_btf (else raw_tp)
 *   sched_process_fork/exec/exit and task_rename through a ring buffer:
 *   every thread, however short, with its name and creator from the event;
 * - proc (tracker_proc.c): a rescan of /proc every scan period: threads
 *   shorter than that are not seen, names are read from /proc.
 * TD_TRACKER_AUTO takes bpf where it loads (root or CAP_BPF+CAP_PERFMON,
 * kernel BTF, a build with BPF) and proc otherwise, and says why. */
#ifndef TD_TRACKER_H
#define TD_TRACKER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/util.h"

enum td_task_change {
	TD_TASK_BORN,
	TD_TASK_GONE,
	TD_TASK_RENAMED, /* a new comm (exec, prctl PR_SET_NAME, /proc/.../comm): bpf only */
};

enum td_tracker_mode {
	TD_TRACKER_AUTO,
	TD_TRACKER_PROC,
	TD_TRACKER_BPF
};

/* How often the collector rescans /proc for threads and child processes
 * unless told otherwise (tdctl's --scan-ms); with bpf, how often the ring
 * buffer is read. */
#define TD_TRACKER_SCAN_MS 20
#define TD_TRACKER_COMM_LEN 16

/* What the kernel accounted to a thread over its whole life, at its exit. */
struct td_task_usage {
	uint64_t runtime_ns;		 /* CPU time (se.sum_exec_runtime) */
	uint64_t voluntary, involuntary; /* context switches */
	uint64_t minor_faults, major_faults;
	uint64_t migrations;
};

struct td_task_event {
	enum td_task_change change;
	pid_t pid, tid;
	pid_t parent;			/* BORN: the thread that created it; 0 unknown (/proc) */
	char comm[TD_TRACKER_COMM_LEN]; /* BORN, RENAMED (and GONE with bpf): its name then; "" unknown */
	uint64_t time_ns;		/* when it happened (CLOCK_REALTIME); 0 unknown (/proc) */
	bool have_usage;		/* GONE from bpf: usage is the thread's life */
	struct td_task_usage usage;
};

struct td_tracker_stats {
	uint64_t lost_events; /* bpf: events the ring buffer had no room for */
	uint64_t unfollowed;  /* bpf: child processes the followed map had no room for */
};

struct td_tracker;

/* A tracker of the given mode. AUTO never fails for want of BPF (it falls
 * back to proc; td_tracker_describe says why); BPF fails with a one-line
 * message in err when the BPF programs do not load. NULL on failure. */
struct td_tracker *td_tracker_new(bool follow_children, enum td_tracker_mode mode, td_err *err);
void td_tracker_free(struct td_tracker *t);
/* TD_TRACKER_PROC or TD_TRACKER_BPF: the backend in use. */
enum td_tracker_mode td_tracker_mode(const struct td_tracker *t);
/* One line for the user: the backend in use and, for proc under AUTO, why
 * BPF is not used. */
const char *td_tracker_describe(const struct td_tracker *t);
/* Start following a process: its current threads are reported as born by
 * the next poll. With children followed, only processes started after the
 * first call count as its children: those already running are not followed
 * (attach follows a process and what it starts later). Returns 0 or -errno, passed on as by a thin wrapper of the system call (the BPF
 * map update, or the /proc read: -ESRCH for a process that is gone)
 * (-ESRCH: no such process). */
int td_tracker_add_process(struct td_tracker *t, pid_t pid);
/* Also follow the descendants pid has now (children, theirs, ...): attach
 * --children. Call after td_tracker_add_process(pid). 0 or -errno: a thin wrapper of the
 * system call (the /proc reads). */
int td_tracker_add_descendants(struct td_tracker *t, pid_t pid);
/* Changes since the last poll, in the order they happened, into an array
 * owned by the tracker (valid until the next call on it). Returns the
 * count or -errno: a thin wrapper of the system call (the ring buffer
 * poll or the /proc reads). */
int td_tracker_poll(struct td_tracker *t, const struct td_task_event **events);
/* Number of processes still followed (0 once all have exited). */
int td_tracker_process_count(const struct td_tracker *t);
void td_tracker_stats(const struct td_tracker *t, struct td_tracker_stats *st);

/* Whether the bpf backend loads here, tried for real (load and attach, then
 * unloaded; `tdctl doctor`): the program type that loads ("tp_btf" or
 * "raw_tp", a static string), or NULL with err saying why not. */
const char *td_tracker_bpf_probe(td_err *err);

#endif
