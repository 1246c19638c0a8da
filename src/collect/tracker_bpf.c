/* tracker_bpf: the user-space half of the BPF lifecycle tracker. It takes
 * tracker.bpf.c's programs from the collector's BPF object (bpf_object.h):
 * those a counting instance loaded with its own for this session, else it
 * loads the object's tracker half alone — the tp_btf programs, else the
 * raw_tp ones. It puts the processes
 * to follow in the kernel's `tracked` map, and turns the ring buffer's
 * records into td_task_events at each poll. The kernel side follows child
 * processes by itself; user space keeps the list of followed processes
 * (their count ends a session) and drops records of anything else. */
#include <linux/types.h> /* before tracker_event.h and the skeleton */
#include <bpf/libbpf.h>

#include "bpf_common.h"
#include "bpf_object.h"
#include "kernel_types.h"
#include "tracker_backend.h"
#include "tracker_event.h"
#include "machine/procfs.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct td_bpf_tracker {
	struct td_bpf_object *obj; /* a count of it */
	struct ring_buffer *rb;
	const char *flavour;
	bool with_counting; /* obj was a counting instance's, taken */
	bool follow_children;
	pid_t *procs; /* followed processes, as user space knows them */
	int nprocs;
	struct td_task_events events;
	bool delivered;	       /* events were handed out by the last poll: clear before adding */
	int64_t mono_to_wall;  /* CLOCK_REALTIME - CLOCK_MONOTONIC */
	uint64_t lost_checked; /* lost events already answered by a liveness check */
	int error;	       /* -errno from the ring buffer callback */
};

/* libbpf's own messages: the last warning is kept for the reason a load
 * failed, nothing is printed (a fallback is not an error). */
/* CLOCK_REALTIME - CLOCK_MONOTONIC, for the events' times: the wall clock
 * read between two monotonic reads, the tightest of a few tries (a single
 * pair of reads is off by however long the thread was preempted between). */
static int64_t mono_to_wall(void)
{
	int64_t best = 0;
	uint64_t window = UINT64_MAX;

	for (int i = 0; i < 8; i++) {
		uint64_t m1 = td_now_ns(), w = td_wall_ns(), m2 = td_now_ns();
		if (m2 - m1 < window) {
			window = m2 - m1;
			best = (int64_t)w - (int64_t)(m1 + (m2 - m1) / 2);
		}
	}
	return best;
}

static int find_proc(const struct td_bpf_tracker *t, pid_t pid)
{
	for (int i = 0; i < t->nprocs; i++)
		if (t->procs[i] == pid)
			return i;
	return -1;
}

static int follow(struct td_bpf_tracker *t, pid_t pid)
{
	__u32 key = (__u32)pid;
	__u8 one = 1;
	pid_t *slot;

	if (find_proc(t, pid) >= 0)
		return 0;
	if (bpf_map__update_elem(t->obj->skel->maps.tracked, &key, sizeof(key), &one, sizeof(one), BPF_ANY))
		return -errno;
	if (!(slot = td_array_push(&t->procs, &t->nprocs, sizeof(*t->procs))))
		return -ENOMEM;
	*slot = pid;
	return 0;
}

static void unfollow(struct td_bpf_tracker *t, int i)
{
	__u32 key = (__u32)t->procs[i];

	bpf_map__delete_elem(t->obj->skel->maps.tracked, &key, sizeof(key), 0); /* the kernel may have done it */
	t->procs[i] = t->procs[--t->nprocs];
}

static void begin_batch(struct td_bpf_tracker *t)
{
	if (t->delivered) {
		t->events.n = 0;
		t->delivered = false;
	}
}

static int push(struct td_bpf_tracker *t, enum td_task_change change, const struct td_bpf_event *e, pid_t tid)
{
	struct td_task_event ev = { .change = change, .pid = (pid_t)e->pid, .tid = tid };

	if (change == TD_TASK_BORN)
		ev.parent = (pid_t)e->parent_tid;
	memcpy(ev.comm, e->comm, sizeof(ev.comm));
	ev.comm[sizeof(ev.comm) - 1] = '\0';
	ev.time_ns = (uint64_t)((int64_t)e->time_ns + t->mono_to_wall);
	if (e->kind == TD_BPF_GONE && change == TD_TASK_GONE) {
		ev.have_usage = true;
		ev.usage = (struct td_task_usage){ e->runtime_ns, e->nvcsw,   e->nivcsw,
						   e->min_flt,	  e->maj_flt, e->migrations };
	}
	return td_task_events_push(&t->events, &ev);
}

static int on_record(void *ctx, void *data, size_t size)
{
	struct td_bpf_tracker *t = ctx;
	const struct td_bpf_event *e = data;
	int rc = 0, i;

	if (size < sizeof(*e))
		return 0;
	switch (e->kind) {
	case TD_BPF_BORN:
		if (e->flags & TD_BPF_NEW_PROCESS) {
			/* a child the kernel could not follow is left to the unlisted remainder (stats say so) */
			if (!t->follow_children || (e->flags & TD_BPF_NOT_FOLLOWED) ||
			    find_proc(t, (pid_t)e->parent_pid) < 0)
				return 0;
			pid_t *slot = td_array_push(&t->procs, &t->nprocs, sizeof(*t->procs));
			if (!slot)
				rc = -ENOMEM;
			else
				*slot = (pid_t)e->pid;
		} else if (find_proc(t, (pid_t)e->pid) < 0) {
			return 0;
		}
		rc = rc ? rc : push(t, TD_TASK_BORN, e, (pid_t)e->tid);
		break;
	case TD_BPF_EXEC:
		if (find_proc(t, (pid_t)e->pid) < 0)
			return 0;
		/* exec from a thread other than the leader: that thread takes the leader's TID */
		if (e->parent_tid && e->parent_tid != e->tid) {
			if (!(rc = push(t, TD_TASK_GONE, e, (pid_t)e->parent_tid)))
				rc = push(t, TD_TASK_BORN, e, (pid_t)e->tid);
		} else {
			rc = push(t, TD_TASK_RENAMED, e, (pid_t)e->tid);
		}
		break;
	case TD_BPF_RENAME:
		if (find_proc(t, (pid_t)e->pid) >= 0)
			rc = push(t, TD_TASK_RENAMED, e, (pid_t)e->tid);
		break;
	case TD_BPF_GONE:
		if ((i = find_proc(t, (pid_t)e->pid)) < 0)
			return 0;
		rc = push(t, TD_TASK_GONE, e, (pid_t)e->tid);
		if (e->flags & TD_BPF_LAST_THREAD)
			unfollow(t, i);
		break;
	}
	if (rc)
		t->error = rc;
	return rc;
}

/* Open, load and attach one flavour of the object's tracker half alone:
 * the tp_btf programs or the raw_tp ones. NULL with why set and *err
 * (-errno) when it fails. */
static struct td_bpf_object *load(bool btf, bool follow_children, td_err *why, int *err)
{
	struct td_bpf_object *o;
	const char *step = "load";
	int rc;

	td_bpf_warning_clear();
	if (!(o = td_bpf_object_open(TD_BPF_HALF_TRACKER, btf, false, why, err)))
		return NULL;
	o->skel->rodata->track_children = follow_children;
	if ((rc = td_bpf_object_load(o)) == 0) {
		step = "attach";
		if ((rc = td_bpf_object_attach(o, TD_BPF_HALF_TRACKER)) == 0)
			return o;
	}
	*err = rc;
	td_bpf_step_failed(why, btf, step, rc);
	td_bpf_object_put(o);
	return NULL;
}

/* The tracker half a counting instance loaded for this session, attached;
 * NULL when there is none or it does not attach (then loaded alone). */
static struct td_bpf_object *take(bool follow_children)
{
	struct td_bpf_object *o = td_bpf_object_take_tracker(follow_children);

	if (o && td_bpf_object_attach(o, TD_BPF_HALF_TRACKER)) {
		td_bpf_object_put(o);
		return NULL;
	}
	return o;
}

struct td_bpf_tracker *td_bpf_tracker_new(bool follow_children, td_err *err)
{
	struct td_bpf_tracker *t;
	td_err why_btf = { "" }, why_raw = { "" };
	int err_btf = 0, err_raw = 0;

	if (td_bpf_no_btf(err))
		return NULL;
	td_bpf_quiet();
	if (!(t = calloc(1, sizeof(*t)))) {
		td_err_set(err, "out of memory");
		return NULL;
	}
	t->follow_children = follow_children;
	t->mono_to_wall = mono_to_wall();
	if ((t->obj = take(follow_children))) {
		t->with_counting = true;
		t->flavour = t->obj->tracker_btf ? "tp_btf" : "raw_tp";
	} else {
		/* this boot's kernel types file taken (kernel_types.h): raw_tp first, the
		 * kernel's BTF never parsed */
		if (td_kernel_types_path()) {
			t->flavour = "raw_tp";
			t->obj = load(false, follow_children, &why_raw, &err_raw);
		}
		if (!t->obj)
			t->flavour = "tp_btf";
		/* TD_TRACKER_BPF_TYPE=raw_tp: the second choice only (tests run it where tp_btf loads) */
		if (!t->obj && !td_bpf_raw_tp_only("TD_TRACKER_BPF_TYPE", &why_btf))
			t->obj = load(true, follow_children, &why_btf, &err_btf);
		if (!t->obj) {
			t->flavour = "raw_tp";
			t->obj = load(false, follow_children, &why_raw, &err_raw);
		}
	}
	if (!t->obj) {
		td_bpf_neither(err, err_btf, &why_btf, err_raw, &why_raw);
		free(t);
		return NULL;
	}
	t->rb = ring_buffer__new(bpf_map__fd(t->obj->skel->maps.events), on_record, t, NULL);
	if (!t->rb) {
		td_err_set(err, "cannot map the BPF ring buffer: %s", strerror(errno));
		td_bpf_tracker_free(t);
		return NULL;
	}
	return t;
}

void td_bpf_tracker_free(struct td_bpf_tracker *t)
{
	if (!t)
		return;
	ring_buffer__free(t->rb);
	if (t->obj) {
		td_bpf_object_detach(t->obj, TD_BPF_HALF_TRACKER);
		td_bpf_object_put(t->obj);
	}
	free(t->procs);
	free(t->events.v);
	free(t);
}

const char *td_bpf_tracker_flavour(const struct td_bpf_tracker *t)
{
	return t->flavour;
}

bool td_bpf_tracker_with_counting(const struct td_bpf_tracker *t)
{
	return t->with_counting;
}

/* The threads a process has now, as born (the kernel reports later ones). */
static int list_threads(struct td_bpf_tracker *t, pid_t pid)
{
	pid_t *tids = NULL;
	int n = td_proc_tasks(pid, &tids), rc = 0;

	if (n < 0)
		return n == -ENOENT ? 0 : n; /* gone meanwhile: its exit was seen or comes */
	for (int i = 0; i < n && rc == 0; i++) {
		struct td_task_event ev = { .change = TD_TASK_BORN, .pid = pid, .tid = tids[i] };
		rc = td_task_events_push(&t->events, &ev);
	}
	free(tids);
	return rc;
}

int td_bpf_tracker_add_process(struct td_bpf_tracker *t, pid_t pid)
{
	int rc = td_proc_stat(pid, NULL, NULL);

	if (rc < 0)
		return rc == -ENOENT ? -ESRCH : rc;
	begin_batch(t);
	/* in the map first, then listed: a thread born in between is both
	 * listed and reported (the collector keeps one), none is missed */
	if ((rc = follow(t, pid)) < 0)
		return rc;
	return list_threads(t, pid);
}

int td_bpf_tracker_add_descendants(struct td_bpf_tracker *t, pid_t pid)
{
	pid_t *desc;
	int n = td_proc_descendants(pid, &desc), rc = 0;

	if (n < 0)
		return n;
	begin_batch(t);
	for (int i = 0; i < n && rc == 0; i++)
		if (find_proc(t, desc[i]) < 0 && (rc = follow(t, desc[i])) == 0)
			rc = list_threads(t, desc[i]);
	free(desc);
	return rc;
}

int td_bpf_tracker_poll(struct td_bpf_tracker *t, const struct td_task_event **events)
{
	uint64_t lost = t->obj->skel->bss->lost_events;
	int rc;

	begin_batch(t);
	t->error = 0;
	rc = ring_buffer__consume(t->rb);
	if (t->error)
		return t->error;
	if (rc < 0)
		return rc;
	/* a lost exit may hide a process's end: check the followed ones are alive */
	if (lost != t->lost_checked) {
		for (int i = 0; i < t->nprocs;)
			if (td_proc_stat(t->procs[i], NULL, NULL) != 0)
				unfollow(t, i);
			else
				i++;
		t->lost_checked = lost;
	}
	t->delivered = true;
	*events = t->events.v;
	return t->events.n;
}

int td_bpf_tracker_process_count(const struct td_bpf_tracker *t)
{
	return t->nprocs;
}

void td_bpf_tracker_stats(const struct td_bpf_tracker *t, struct td_tracker_stats *st)
{
	st->lost_events = t->obj->skel->bss->lost_events;
	st->unfollowed = t->obj->skel->bss->unfollowed_children;
}
