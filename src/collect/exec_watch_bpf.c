/* exec_watch_bpf: the user-space half of the BPF exec watcher. It loads
 * exec_watch.bpf.c through its skeleton (exec_watch.skel.h, generated at
 * build time) — the tp_btf program, else the raw_tp one — and turns the
 * ring buffer's records into td_execs. A path longer than the record holds
 * is read from /proc/PID/exe instead (never cut). */
#include <linux/types.h> /* before exec_record.h and the skeleton */
#include <bpf/libbpf.h>

#include "bpf_common.h"
#include "exec_record.h"
#include "exec_watch_backend.h"
#include "machine/procfs.h"
#include "collect/exec_watch.skel.h" /* generated at build time (Makefile.am) */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct td_bpf_exec_watch {
	struct exec_watch_bpf *skel;
	struct ring_buffer *rb;
	const char *flavour;
	struct td_exec_list *into; /* during a drain */
	int error;
};

static int on_record(void *ctx, void *data, size_t size)
{
	struct td_bpf_exec_watch *w = ctx;
	const struct td_exec_record *r = data;
	char comm[TD_EXEC_COMM_LEN + 1], path[TD_EXEC_PATH_LEN + 1], *exe = NULL;
	int rc;

	if (size < sizeof(*r))
		return 0;
	memcpy(comm, r->comm, TD_EXEC_COMM_LEN);
	comm[TD_EXEC_COMM_LEN] = '\0';
	memcpy(path, r->path, TD_EXEC_PATH_LEN);
	path[TD_EXEC_PATH_LEN] = '\0';
	if (r->path_truncated && td_proc_exe((pid_t)r->pid, &exe) != 0)
		exe = NULL; /* gone: its path is unknown rather than cut */
	rc = td_exec_list_push(w->into, (pid_t)r->pid, (pid_t)r->ppid, comm,
			       r->path_truncated ? (exe ? exe : "") : path);
	free(exe);
	if (rc)
		w->error = rc;
	return rc;
}

static struct exec_watch_bpf *load(bool btf, td_err *why, int *err)
{
	struct exec_watch_bpf *skel;
	const char *step = "load";
	int rc;

	td_bpf_warning_clear();
	if (!(skel = exec_watch_bpf__open())) {
		*err = -errno;
		td_err_set(why, "cannot open the BPF object: %s", strerror(errno));
		return NULL;
	}
	bpf_program__set_autoload(btf ? skel->progs.exec_raw : skel->progs.exec_btf, false);
	if ((rc = exec_watch_bpf__load(skel)) == 0) {
		step = "attach";
		if ((rc = exec_watch_bpf__attach(skel)) == 0)
			return skel;
	}
	*err = rc;
	td_bpf_step_failed(why, btf, step, rc);
	exec_watch_bpf__destroy(skel);
	return NULL;
}

struct td_bpf_exec_watch *td_bpf_exec_watch_new(td_err *err)
{
	struct td_bpf_exec_watch *w;
	td_err why_btf = { "" }, why_raw = { "" };
	int err_btf = 0, err_raw = 0;

	if (td_bpf_no_btf(err))
		return NULL;
	td_bpf_quiet();
	if (!(w = calloc(1, sizeof(*w)))) {
		td_err_set(err, "out of memory");
		return NULL;
	}
	w->flavour = "tp_btf";
	/* TD_TRACKER_BPF_TYPE=raw_tp: the second choice only (tests run it where tp_btf loads) */
	if (!td_bpf_raw_tp_only("TD_TRACKER_BPF_TYPE", &why_btf))
		w->skel = load(true, &why_btf, &err_btf);
	if (!w->skel) {
		w->flavour = "raw_tp";
		w->skel = load(false, &why_raw, &err_raw);
	}
	if (!w->skel) {
		td_bpf_neither(err, err_btf, &why_btf, err_raw, &why_raw);
		free(w);
		return NULL;
	}
	if (!(w->rb = ring_buffer__new(bpf_map__fd(w->skel->maps.execs), on_record, w, NULL))) {
		td_err_set(err, "cannot map the BPF ring buffer: %s", strerror(errno));
		td_bpf_exec_watch_free(w);
		return NULL;
	}
	return w;
}

void td_bpf_exec_watch_free(struct td_bpf_exec_watch *w)
{
	if (!w)
		return;
	ring_buffer__free(w->rb);
	exec_watch_bpf__destroy(w->skel);
	free(w);
}

const char *td_bpf_exec_watch_flavour(const struct td_bpf_exec_watch *w)
{
	return w->flavour;
}

int td_bpf_exec_watch_fd(const struct td_bpf_exec_watch *w)
{
	return ring_buffer__epoll_fd(w->rb);
}

int td_bpf_exec_watch_drain(struct td_bpf_exec_watch *w, struct td_exec_list *l)
{
	int rc;

	w->into = l;
	w->error = 0;
	rc = ring_buffer__consume(w->rb);
	w->into = NULL;
	if (w->error)
		return w->error;
	return rc < 0 ? rc : 0;
}

uint64_t td_bpf_exec_watch_lost(const struct td_bpf_exec_watch *w)
{
	return w->skel->bss->lost_execs;
}
