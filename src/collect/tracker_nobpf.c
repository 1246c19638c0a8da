/* tracker_nobpf: the BPF backend of a build without BPF (configure
 * --disable-bpf, or no bpftool or clang found): it never loads, and says
 * why; the tracker then rescans /proc. */
#include "tracker_backend.h"

#include <errno.h>
#include <stdio.h>

struct td_bpf_tracker *td_bpf_tracker_new(bool follow_children, td_err *err)
{
	(void)follow_children;
	td_err_set(err, "this tdctl was built without BPF (configure found no bpftool or clang, or --disable-bpf)");
	return NULL;
}
void td_bpf_tracker_free(struct td_bpf_tracker *t)
{
	(void)t;
}
const char *td_bpf_tracker_flavour(const struct td_bpf_tracker *t)
{
	(void)t;
	return "";
}

bool td_bpf_tracker_with_counting(const struct td_bpf_tracker *t)
{
	(void)t;
	return false;
}
int td_bpf_tracker_add_process(struct td_bpf_tracker *t, pid_t pid)
{
	(void)t, (void)pid;
	return -ENOSYS;
}
int td_bpf_tracker_add_descendants(struct td_bpf_tracker *t, pid_t pid)
{
	(void)t, (void)pid;
	return -ENOSYS;
}
int td_bpf_tracker_poll(struct td_bpf_tracker *t, const struct td_task_event **events)
{
	(void)t, (void)events;
	return -ENOSYS;
}
int td_bpf_tracker_process_count(const struct td_bpf_tracker *t)
{
	(void)t;
	return 0;
}
void td_bpf_tracker_stats(const struct td_bpf_tracker *t, struct td_tracker_stats *st)
{
	(void)t, (void)st;
}
