/* exec_watch: every program executed on the system, as it happens, for
 * topdownd's auto-attach rules. Two backends deliver the same td_exec
 * stream:
 * - bpf (exec_watch_bpf.c + exec_watch.bpf.c): tp_btf (else raw_tp)
 *   sched_process_exec through a ring buffer: every exec, with the file
 *   executed as given to exec;
 * - proc: a rescan of /proc every TD_EXEC_WATCH_SCAN_MS: a process is
 *   seen when it is new or its name changed since the last scan, with the
 *   file from /proc/PID/exe; one shorter than a scan period, or an exec
 *   that keeps the name, is not seen.
 * TD_TRACKER_AUTO takes bpf where it loads and proc otherwise, and says
 * why (the same choice, and the same TD_TRACKER variable, as the thread
 * tracker's). */
#ifndef TD_EXEC_WATCH_H
#define TD_EXEC_WATCH_H

#include <stdint.h>
#include <sys/types.h>

#include "base/util.h"
#include "tracker.h"

#define TD_EXEC_WATCH_SCAN_MS 250

struct td_exec {
	pid_t pid, ppid; /* ppid 0: unknown */
	char comm[TD_TRACKER_COMM_LEN];
	const char *path; /* the file executed; "" when unknown (the process is gone) */
};

struct td_exec_watch;

/* A watcher of the given mode; NULL with err when BPF was demanded and does
 * not load, or out of memory. */
struct td_exec_watch *td_exec_watch_new(enum td_tracker_mode mode, td_err *err);
void td_exec_watch_free(struct td_exec_watch *w);
/* One line for the user: the backend and, for proc under AUTO, why. */
const char *td_exec_watch_describe(const struct td_exec_watch *w);
/* A descriptor readable when execs are waiting (a ring buffer, or the
 * proc scan's timer). */
int td_exec_watch_fd(const struct td_exec_watch *w);
/* The processes running now, as if each had just executed its program:
 * rules then also match what was started before the watcher (topdownd
 * started or reloaded after its targets). Same array rules as poll. */
int td_exec_watch_existing(struct td_exec_watch *w, const struct td_exec **execs);
/* Execs since the last poll, in order, into an array owned by the watcher
 * (valid until the next call). Returns their number or -errno: a thin wrapper of
 * the system call (the ring buffer poll or the /proc reads). */
int td_exec_watch_poll(struct td_exec_watch *w, const struct td_exec **execs);
/* Execs the BPF ring buffer had no room for (0 with proc). */
uint64_t td_exec_watch_lost(const struct td_exec_watch *w);

#endif
