/* tracker_proc: the /proc backend of the tracker. It rescans /proc/PID/task
 * of every followed process and, when following children, the new entries
 * of /proc whose parent is followed. Only PIDs not present at the previous
 * poll have their parent read, so a poll costs one readdir of /proc plus
 * one per process. Threads born and gone between two polls are not seen.
 * The helpers both backends share (descendants, event arrays) are
 * tracker_shared.c. */
#include "tracker_backend.h"
#include "base/util.h"
#include "machine/procfs.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct followed {
	pid_t pid;
	pid_t *tids; /* sorted, as of the previous poll */
	int ntids;
};

struct td_proc_tracker {
	bool follow_children;
	struct followed *procs;
	int nprocs;
	pid_t *prev_pids; /* sorted /proc listing of the previous poll */
	int nprev;
	struct td_task_events events;
};

struct td_proc_tracker *td_proc_tracker_new(bool follow_children)
{
	struct td_proc_tracker *t = calloc(1, sizeof(*t));

	if (t)
		t->follow_children = follow_children;
	return t;
}

void td_proc_tracker_free(struct td_proc_tracker *t)
{
	if (!t)
		return;
	for (int i = 0; i < t->nprocs; i++)
		free(t->procs[i].tids);
	free(t->procs);
	free(t->prev_pids);
	free(t->events.v);
	free(t);
}

static bool contains(const pid_t *arr, int n, pid_t x)
{
	int lo = 0, hi = n - 1;

	while (lo <= hi) {
		int mid = (lo + hi) / 2;
		if (arr[mid] == x)
			return true;
		if (arr[mid] < x)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return false;
}

static struct followed *find_proc(struct td_proc_tracker *t, pid_t pid)
{
	for (int i = 0; i < t->nprocs; i++)
		if (t->procs[i].pid == pid)
			return &t->procs[i];
	return NULL;
}

static int follow(struct td_proc_tracker *t, pid_t pid)
{
	if (find_proc(t, pid))
		return 0;
	struct followed *np = td_array_push(&t->procs, &t->nprocs, sizeof(*t->procs));
	if (!np)
		return -ENOMEM;
	np->pid = pid;
	return 0;
}

int td_proc_tracker_add_process(struct td_proc_tracker *t, pid_t pid)
{
	pid_t ppid;
	int rc = td_proc_stat(pid, &ppid, NULL);

	if (rc < 0)
		return rc == -ENOENT ? -ESRCH : rc;
	/* what runs now is not "new": only processes started from here on are
	 * children to follow (attach 1 must not follow every daemon init started) */
	if (t->follow_children && !t->prev_pids) {
		int n = td_proc_pids(&t->prev_pids);
		if (n < 0)
			return n;
		t->nprev = n;
	}
	return follow(t, pid);
}

int td_proc_tracker_add_descendants(struct td_proc_tracker *t, pid_t pid)
{
	pid_t *desc;
	int n = td_proc_descendants(pid, &desc), rc = 0;

	if (n < 0)
		return n;
	for (int i = 0; i < n && rc == 0; i++)
		rc = follow(t, desc[i]);
	free(desc);
	return rc;
}

int td_proc_tracker_process_count(const struct td_proc_tracker *t)
{
	return t->nprocs;
}

static int emit(struct td_proc_tracker *t, enum td_task_change change, pid_t pid, pid_t tid)
{
	struct td_task_event ev = { .change = change, .pid = pid, .tid = tid };

	return td_task_events_push(&t->events, &ev);
}

static int find_new_children(struct td_proc_tracker *t)
{
	pid_t *pids = NULL;
	int n = td_proc_pids(&pids);

	if (n < 0)
		return n;
	for (int i = 0; i < n; i++) {
		pid_t ppid;
		if (contains(t->prev_pids, t->nprev, pids[i]) || find_proc(t, pids[i]))
			continue;
		if (td_proc_stat(pids[i], &ppid, NULL) == 0 && find_proc(t, ppid) && follow(t, pids[i])) {
			free(pids);
			return -ENOMEM;
		}
	}
	free(t->prev_pids);
	t->prev_pids = pids;
	t->nprev = n;
	return 0;
}

static int rescan(struct td_proc_tracker *t, struct followed *p)
{
	pid_t *tids = NULL;
	int n = td_proc_tasks(p->pid, &tids);

	if (n < 0)
		n = 0; /* the process is gone: every thread left */
	for (int i = 0; i < n; i++)
		if (!contains(p->tids, p->ntids, tids[i]) && emit(t, TD_TASK_BORN, p->pid, tids[i]))
			goto oom;
	for (int i = 0; i < p->ntids; i++)
		if (!contains(tids, n, p->tids[i]) && emit(t, TD_TASK_GONE, p->pid, p->tids[i]))
			goto oom;
	free(p->tids);
	p->tids = tids;
	p->ntids = n;
	return 0;
oom:
	free(tids);
	return -ENOMEM;
}

int td_proc_tracker_poll(struct td_proc_tracker *t, const struct td_task_event **events)
{
	int rc;

	t->events.n = 0;
	/* the walk of /proc finds children of the processes followed: none
	 * followed (a system or cgroup session), nothing to walk for */
	if (t->follow_children && t->nprocs > 0 && (rc = find_new_children(t)) < 0)
		return rc;
	for (int i = 0; i < t->nprocs; i++)
		if ((rc = rescan(t, &t->procs[i])) < 0)
			return rc;
	/* forget processes with no thread left */
	for (int i = 0; i < t->nprocs;) {
		if (t->procs[i].ntids == 0 && td_proc_stat(t->procs[i].pid, NULL, NULL) != 0) {
			free(t->procs[i].tids);
			t->procs[i] = t->procs[--t->nprocs];
		} else {
			i++;
		}
	}
	*events = t->events.v;
	return t->events.n;
}
