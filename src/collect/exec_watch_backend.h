/* exec_watch_backend: the BPF backend of exec_watch (exec_watch_bpf.c, or
 * exec_watch_nobpf.c in a build without BPF), as exec_watch.c calls it. */
#ifndef TD_EXEC_WATCH_BACKEND_H
#define TD_EXEC_WATCH_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "exec_list.h"
#include "exec_watch.h"

struct td_bpf_exec_watch;

/* NULL with err when the programs do not load. */
struct td_bpf_exec_watch *td_bpf_exec_watch_new(td_err *err);
void td_bpf_exec_watch_free(struct td_bpf_exec_watch *w);
const char *td_bpf_exec_watch_flavour(const struct td_bpf_exec_watch *w);
int td_bpf_exec_watch_fd(const struct td_bpf_exec_watch *w);
/* Records since the last call pushed onto l. 0 or -errno: a thin wrapper of
 * the system call (the ring buffer poll). */
int td_bpf_exec_watch_drain(struct td_bpf_exec_watch *w, struct td_exec_list *l);
uint64_t td_bpf_exec_watch_lost(const struct td_bpf_exec_watch *w);

#endif
