/* top_processes: CPU time per process between two /proc snapshots (see
 * top_processes.h). */
#include <stdlib.h>
#include <string.h>

#include "machine/procfs.h"
#include "store/store.h"
#include "top_processes.h"

#define proc_time td_top_proc

struct td_top_snapshot {
	struct proc_time *p;
	int n;
};

struct td_top_snapshot *td_top_snapshot_take(void)
{
	struct td_top_snapshot *t = calloc(1, sizeof(*t));
	pid_t *pids = NULL;
	int n;

	if (!t)
		return NULL;
	n = td_proc_pids(&pids);
	for (int i = 0; i < n; i++) {
		struct proc_time pt = { .pid = pids[i] };
		if (td_proc_cpu_time(pids[i], &pt.cpu_ns, &pt.start))
			continue; /* gone since the listing */
		struct proc_time *slot = td_array_push(&t->p, &t->n, sizeof(*slot));
		if (!slot) {
			free(pids);
			td_top_snapshot_free(t);
			return NULL;
		}
		*slot = pt;
	}
	free(pids);
	return t;
}

void td_top_snapshot_free(struct td_top_snapshot *t)
{
	if (!t)
		return;
	free(t->p);
	free(t);
}

static int by_pid(const void *a, const void *b)
{
	const struct proc_time *x = a, *y = b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

static int by_cpu_desc(const void *a, const void *b)
{
	const struct proc_time *x = a, *y = b;

	if (x->cpu_ns != y->cpu_ns)
		return x->cpu_ns < y->cpu_ns ? 1 : -1;
	return by_pid(a, b);
}

int td_top_record(const char *db_path, int64_t session, const struct td_top_snapshot *start, int n, td_err *err)
{
	struct td_top_snapshot *end = td_top_snapshot_take();
	struct td_store *st;
	int rc = 0;

	if (!end) {
		td_err_set(err, "out of memory");
		return -1;
	}
	/* start's PIDs come sorted from td_proc_pids; the delta replaces end's total */
	for (int i = 0; i < end->n; i++) {
		struct proc_time key = { .pid = end->p[i].pid };
		const struct proc_time *was = bsearch(&key, start->p, (size_t)start->n, sizeof(key), by_pid);
		if (was && was->start == end->p[i].start)
			end->p[i].cpu_ns = end->p[i].cpu_ns >= was->cpu_ns ? end->p[i].cpu_ns - was->cpu_ns : 0;
	}
	qsort(end->p, (size_t)end->n, sizeof(*end->p), by_cpu_desc);
	if (td_store_open(db_path, TD_STORE_WRITE, &st, err)) {
		td_top_snapshot_free(end);
		return -1;
	}
	td_store_begin(st);
	for (int i = 0; i < n && i < end->n && rc == 0; i++) {
		char comm[64] = "";
		if (end->p[i].cpu_ns == 0)
			break;
		td_proc_comm(end->p[i].pid, end->p[i].pid, comm, sizeof(comm));
		rc = td_store_top_process_add(st, session, i + 1, end->p[i].pid, comm, end->p[i].cpu_ns, "proc");
	}
	if (rc || td_store_commit(st)) {
		td_store_describe_error(st, err);
		td_store_rollback(st);
		rc = -1;
	}
	td_store_close(st);
	td_top_snapshot_free(end);
	return rc;
}

bool td_top_has(const struct td_top_snapshot *t, pid_t pid, long long start)
{
	struct proc_time key = { .pid = pid };
	const struct proc_time *p = bsearch(&key, t->p, (size_t)t->n, sizeof(key), by_pid);

	return p && p->start == start;
}

int td_top_busiest(const struct td_top_snapshot *start, const struct td_top_snapshot *end, struct td_top_proc **out)
{
	int n = 0;

	*out = NULL;
	/* both snapshots' PIDs come sorted from td_proc_pids */
	for (int i = 0; i < end->n; i++) {
		struct proc_time key = { .pid = end->p[i].pid }, *slot;
		const struct proc_time *was = bsearch(&key, start->p, (size_t)start->n, sizeof(key), by_pid);
		if (!was || was->start != end->p[i].start || end->p[i].cpu_ns <= was->cpu_ns)
			continue;
		if (!(slot = td_array_push(out, &n, sizeof(*slot)))) {
			free(*out);
			*out = NULL;
			return -1;
		}
		*slot = (struct proc_time){ end->p[i].pid, end->p[i].start, end->p[i].cpu_ns - was->cpu_ns };
	}
	if (n)
		qsort(*out, (size_t)n, sizeof(**out), by_cpu_desc);
	return n;
}
