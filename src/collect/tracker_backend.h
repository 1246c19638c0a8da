/* tracker_backend: what tracker.c (the interface and the choice of
 * backend) calls in the /proc backend (tracker_proc.c) and the BPF one
 * (tracker_bpf.c), and the helpers they share (tracker_shared.c). Internal
 * to collect/. */
#ifndef TD_TRACKER_BACKEND_H
#define TD_TRACKER_BACKEND_H

#include "tracker.h"

/* The events a poll returns: appended by the backends. */
struct td_task_events {
	struct td_task_event *v;
	int n, cap;
};
/* Append one; 0 or -ENOMEM. */
int td_task_events_push(struct td_task_events *e, const struct td_task_event *ev);

/* Every descendant of root that runs now (children, theirs, ...), into a
 * malloc'd array: count or -errno (a thin wrapper of the system call:
 * the /proc reads). */
int td_proc_descendants(pid_t root, pid_t **out);

struct td_proc_tracker;
struct td_proc_tracker *td_proc_tracker_new(bool follow_children);
void td_proc_tracker_free(struct td_proc_tracker *t);
int td_proc_tracker_add_process(struct td_proc_tracker *t, pid_t pid);
int td_proc_tracker_add_descendants(struct td_proc_tracker *t, pid_t pid);
int td_proc_tracker_poll(struct td_proc_tracker *t, const struct td_task_event **events);
int td_proc_tracker_process_count(const struct td_proc_tracker *t);

struct td_bpf_tracker;
/* NULL with err (one line) when the programs do not load. */
struct td_bpf_tracker *td_bpf_tracker_new(bool follow_children, td_err *err);
void td_bpf_tracker_free(struct td_bpf_tracker *t);
/* "tp_btf" or "raw_tp" (a static string): the program type that loaded. */
const char *td_bpf_tracker_flavour(const struct td_bpf_tracker *t);
/* Its programs are those a BPF counting instance loaded in its object (bpf_object.h). */
bool td_bpf_tracker_with_counting(const struct td_bpf_tracker *t);
int td_bpf_tracker_add_process(struct td_bpf_tracker *t, pid_t pid);
int td_bpf_tracker_add_descendants(struct td_bpf_tracker *t, pid_t pid);
int td_bpf_tracker_poll(struct td_bpf_tracker *t, const struct td_task_event **events);
int td_bpf_tracker_process_count(const struct td_bpf_tracker *t);
void td_bpf_tracker_stats(const struct td_bpf_tracker *t, struct td_tracker_stats *st);

#endif
