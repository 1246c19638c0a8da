/* tracker: the interface the collector uses, and the choice of backend —
 * bpf where it loads (or where it is demanded), else the /proc rescan —
 * with the line that tells the user which, and why. */
#include "tracker_backend.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

struct td_tracker {
	enum td_tracker_mode mode; /* PROC or BPF */
	struct td_proc_tracker *proc;
	struct td_bpf_tracker *bpf;
	char describe[600];
};

struct td_tracker *td_tracker_new(bool follow_children, enum td_tracker_mode mode, td_err *err)
{
	struct td_tracker *t = calloc(1, sizeof(*t));
	td_err why = { "" };

	if (!t) {
		td_err_set(err, "out of memory");
		return NULL;
	}
	if (mode != TD_TRACKER_PROC && (t->bpf = td_bpf_tracker_new(follow_children, &why))) {
		t->mode = TD_TRACKER_BPF;
		snprintf(t->describe, sizeof(t->describe),
			 "threads tracked by BPF (%s sched_process_fork/exec/exit, "
			 "task_rename%s)",
			 td_bpf_tracker_flavour(t->bpf),
			 td_bpf_tracker_with_counting(t->bpf) ? "; loaded with the counting program" : "");
		return t;
	}
	if (mode == TD_TRACKER_BPF) {
		td_err_set(err, "the BPF thread tracker does not load: %s; use --tracker=auto or --tracker=proc",
			   why.msg);
		free(t);
		return NULL;
	}
	if (!(t->proc = td_proc_tracker_new(follow_children))) {
		td_err_set(err, "out of memory");
		free(t);
		return NULL;
	}
	t->mode = TD_TRACKER_PROC;
	if (mode == TD_TRACKER_PROC)
		snprintf(t->describe, sizeof(t->describe), "threads tracked by rescanning /proc (--tracker=proc)");
	else
		snprintf(t->describe, sizeof(t->describe), "threads tracked by rescanning /proc: BPF did not load (%s)",
			 why.msg);
	return t;
}

void td_tracker_free(struct td_tracker *t)
{
	if (!t)
		return;
	td_proc_tracker_free(t->proc);
	td_bpf_tracker_free(t->bpf);
	free(t);
}

enum td_tracker_mode td_tracker_mode(const struct td_tracker *t)
{
	return t->mode;
}

const char *td_tracker_describe(const struct td_tracker *t)
{
	return t->describe;
}

int td_tracker_add_process(struct td_tracker *t, pid_t pid)
{
	return t->bpf ? td_bpf_tracker_add_process(t->bpf, pid) : td_proc_tracker_add_process(t->proc, pid);
}

int td_tracker_add_descendants(struct td_tracker *t, pid_t pid)
{
	return t->bpf ? td_bpf_tracker_add_descendants(t->bpf, pid) : td_proc_tracker_add_descendants(t->proc, pid);
}

int td_tracker_poll(struct td_tracker *t, const struct td_task_event **events)
{
	return t->bpf ? td_bpf_tracker_poll(t->bpf, events) : td_proc_tracker_poll(t->proc, events);
}

int td_tracker_process_count(const struct td_tracker *t)
{
	return t->bpf ? td_bpf_tracker_process_count(t->bpf) : td_proc_tracker_process_count(t->proc);
}

void td_tracker_stats(const struct td_tracker *t, struct td_tracker_stats *st)
{
	*st = (struct td_tracker_stats){ 0 };
	if (t->bpf)
		td_bpf_tracker_stats(t->bpf, st);
}

const char *td_tracker_bpf_probe(td_err *err)
{
	struct td_bpf_tracker *b = td_bpf_tracker_new(false, err);
	const char *flavour;

	if (!b)
		return NULL;
	flavour = td_bpf_tracker_flavour(b);
	td_bpf_tracker_free(b);
	return flavour;
}
