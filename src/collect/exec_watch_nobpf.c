/* exec_watch_nobpf: the BPF backend of the exec watcher in a build without
 * BPF: it never loads, and says why; the watcher then rescans /proc. */
#include "exec_watch_backend.h"

#include <errno.h>
#include <stdio.h>

struct td_bpf_exec_watch *td_bpf_exec_watch_new(td_err *err)
{
	td_err_set(err, "this program was built without BPF (configure found no bpftool or clang, or --disable-bpf)");
	return NULL;
}
void td_bpf_exec_watch_free(struct td_bpf_exec_watch *w)
{
	(void)w;
}
const char *td_bpf_exec_watch_flavour(const struct td_bpf_exec_watch *w)
{
	(void)w;
	return "";
}
int td_bpf_exec_watch_fd(const struct td_bpf_exec_watch *w)
{
	(void)w;
	return -1;
}
int td_bpf_exec_watch_drain(struct td_bpf_exec_watch *w, struct td_exec_list *l)
{
	(void)w, (void)l;
	return -ENOSYS;
}
uint64_t td_bpf_exec_watch_lost(const struct td_bpf_exec_watch *w)
{
	(void)w;
	return 0;
}
