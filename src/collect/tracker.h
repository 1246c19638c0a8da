/* tracker: tells the collector which threads of the monitored processes
 * were born or have gone since the last poll, following child processes.
 * This is the seam for the BPF tracker (tp_btf sched_process_fork/exit,
 * design.md): today's backend rescans /proc; a BPF backend will deliver the
 * same td_task_event stream through the same calls. */
#ifndef TD_TRACKER_H
#define TD_TRACKER_H

#include <stdbool.h>
#include <sys/types.h>

enum td_task_change { TD_TASK_BORN, TD_TASK_GONE };

/* How often the collector rescans /proc for threads and child processes
 * unless told otherwise (tdctl's --scan-ms). */
#define TD_TRACKER_SCAN_MS 20

struct td_task_event {
	enum td_task_change change;
	pid_t pid, tid;
};

struct td_tracker;

struct td_tracker *td_tracker_new(bool follow_children);
void td_tracker_free(struct td_tracker *t);
/* Start following a process: its current threads are reported as born by
 * the next poll. With children followed, only processes started after the
 * first call count as its children: those already running are not followed
 * (attach follows a process and what it starts later). Returns 0 or -errno
 * (-ESRCH: no such process). */
int td_tracker_add_process(struct td_tracker *t, pid_t pid);
/* Also follow the descendants pid has now (children, theirs, ...): attach
 * --children. Call after td_tracker_add_process(pid). 0 or -errno. */
int td_tracker_add_descendants(struct td_tracker *t, pid_t pid);
/* Changes since the last poll, into a malloc'd array owned by the tracker
 * (valid until the next poll). Returns the count or -errno. */
int td_tracker_poll(struct td_tracker *t, const struct td_task_event **events);
/* Number of processes still followed (0 once all have exited). */
int td_tracker_process_count(const struct td_tracker *t);

#endif
