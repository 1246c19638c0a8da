/* exec_watch: the choice of backend and the /proc rescan backend (see
 * exec_watch.h); the list of execs both fill is exec_list.c. */
#include "exec_watch.h"
#include "exec_watch_backend.h"
#include "machine/procfs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timerfd.h>
#include <unistd.h>

/* A process as the last /proc scan saw it. */
struct seen_proc {
	pid_t pid;
	long long start; /* tells a reused PID */
	char comm[TD_TRACKER_COMM_LEN];
};

struct td_exec_watch {
	struct td_bpf_exec_watch *bpf; /* NULL: the /proc rescan */
	int timer_fd;		       /* proc: fires every TD_EXEC_WATCH_SCAN_MS */
	struct seen_proc *seen;	       /* proc: sorted by pid */
	int nseen;
	bool scanned; /* proc: seen holds a first scan */
	struct td_exec_list list;
	char describe[600];
};

/* ---- the /proc rescan ---------------------------------------------------- */

/* Push pid with the file it executes (unknown when it is gone or not ours to read). */
static int push_proc(struct td_exec_list *l, pid_t pid, pid_t ppid, const char *comm)
{
	char *exe = NULL;
	int rc;

	td_proc_exe(pid, &exe);
	rc = td_exec_list_push(l, pid, ppid, comm, exe);
	free(exe);
	return rc;
}

static const struct seen_proc *find_seen(const struct td_exec_watch *w, pid_t pid)
{
	int lo = 0, hi = w->nseen - 1;

	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2;
		if (w->seen[mid].pid == pid)
			return &w->seen[mid];
		if (w->seen[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return NULL;
}

/* One scan: every process into a new seen list; pushed: all of them with
 * report_all, else (after a first scan) the new ones and the renamed ones
 * (an exec changes the name, as a rule). */
static int scan(struct td_exec_watch *w, bool report_all)
{
	pid_t *pids = NULL;
	struct seen_proc *next;
	int n = td_proc_pids(&pids), k = 0, rc = 0;

	if (n < 0)
		return n;
	if (!(next = calloc((size_t)n + 1, sizeof(*next)))) {
		free(pids);
		return -ENOMEM;
	}
	for (int i = 0; i < n && rc == 0; i++) {
		struct seen_proc *p = &next[k];
		const struct seen_proc *before;
		pid_t ppid;
		p->pid = pids[i];
		if (td_proc_identity(p->pid, &ppid, &p->start, p->comm, sizeof(p->comm)))
			continue; /* gone meanwhile */
		k++;
		before = find_seen(w, p->pid);
		if (report_all ||
		    (w->scanned && (!before || before->start != p->start || strcmp(before->comm, p->comm))))
			rc = push_proc(&w->list, p->pid, ppid, p->comm);
	}
	free(pids);
	if (rc) {
		free(next);
		return rc;
	}
	free(w->seen);
	w->seen = next; /* td_proc_pids sorts: so is next */
	w->nseen = k;
	w->scanned = true;
	return 0;
}

/* ---- the watcher ------------------------------------------------------- */

struct td_exec_watch *td_exec_watch_new(enum td_tracker_mode mode, td_err *err)
{
	struct td_exec_watch *w = calloc(1, sizeof(*w));
	td_err why = { "" };

	if (!w) {
		td_err_set(err, "out of memory");
		return NULL;
	}
	w->timer_fd = -1;
	if (mode != TD_TRACKER_PROC && (w->bpf = td_bpf_exec_watch_new(&why))) {
		snprintf(w->describe, sizeof(w->describe), "execs watched by BPF (%s sched_process_exec)",
			 td_bpf_exec_watch_flavour(w->bpf));
		return w;
	}
	if (mode == TD_TRACKER_BPF) {
		td_err_set(err,
			   "the BPF exec watcher does not load: %s: run as root, or watch by /proc (TD_TRACKER=proc)",
			   why.msg);
		free(w);
		return NULL;
	}
	w->timer_fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	struct itimerspec every = { .it_interval = { 0, TD_EXEC_WATCH_SCAN_MS * 1000000L },
				    .it_value = { 0, TD_EXEC_WATCH_SCAN_MS * 1000000L } };
	if (w->timer_fd < 0 || timerfd_settime(w->timer_fd, 0, &every, NULL)) {
		td_err_set(err, "cannot start the exec watcher's timer: %s", strerror(errno));
		td_exec_watch_free(w);
		return NULL;
	}
	if (mode == TD_TRACKER_PROC)
		snprintf(w->describe, sizeof(w->describe),
			 "execs watched by rescanning /proc every %d ms (as asked: proc)", TD_EXEC_WATCH_SCAN_MS);
	else
		snprintf(w->describe, sizeof(w->describe),
			 "execs watched by rescanning /proc every %d ms: BPF did not load (%.400s)",
			 TD_EXEC_WATCH_SCAN_MS, why.msg);
	return w;
}

void td_exec_watch_free(struct td_exec_watch *w)
{
	if (!w)
		return;
	td_bpf_exec_watch_free(w->bpf);
	if (w->timer_fd >= 0)
		close(w->timer_fd);
	free(w->seen);
	td_exec_list_free(&w->list);
	free(w);
}

const char *td_exec_watch_describe(const struct td_exec_watch *w)
{
	return w->describe;
}

int td_exec_watch_fd(const struct td_exec_watch *w)
{
	return w->bpf ? td_bpf_exec_watch_fd(w->bpf) : w->timer_fd;
}

int td_exec_watch_existing(struct td_exec_watch *w, const struct td_exec **execs)
{
	int rc;

	td_exec_list_clear(&w->list);
	if ((rc = scan(w, true)) < 0)
		return rc;
	*execs = w->list.v;
	return w->list.n;
}

int td_exec_watch_poll(struct td_exec_watch *w, const struct td_exec **execs)
{
	int rc;

	td_exec_list_clear(&w->list);
	if (w->bpf) {
		rc = td_bpf_exec_watch_drain(w->bpf, &w->list);
	} else {
		uint64_t expirations;
		if (read(w->timer_fd, &expirations, sizeof(expirations)) < 0 && errno != EAGAIN)
			return -errno;
		/* the first scan only learns what runs (td_exec_watch_existing reports it) */
		rc = scan(w, false);
	}
	if (rc < 0)
		return rc;
	*execs = w->list.v;
	return w->list.n;
}

uint64_t td_exec_watch_lost(const struct td_exec_watch *w)
{
	return w->bpf ? td_bpf_exec_watch_lost(w->bpf) : 0;
}
