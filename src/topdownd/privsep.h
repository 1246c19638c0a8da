/* privsep: the monitor's unprivileged processes as processes — each started
 * from the monitor's own executable (`--privsep-front UID:GID`,
 * `--privsep-exporter UID:GID`) with a SOCK_SEQPACKET socketpair on fd 3 and
 * no other descriptor of the monitor's (no counter, map, database or
 * signalfd reaches it), the signal mask cleared, the monitor's environment
 * without DEBUGINFOD_URLS (none of them connects anywhere), killed if the
 * monitor dies; ended and reaped. What they say is the daemon's business
 * (daemon_privsep.c). */
#ifndef TD_PRIVSEP_H
#define TD_PRIVSEP_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/util.h"
#include "chan.h"

struct td_child {
	const char *role; /* "front", "exporter" or "symbolizer" */
	pid_t pid;	  /* 0: not running */
	struct td_chan *ch;
	bool ready;	     /* it said so */
	int port;	     /* the exporter's */
	uint64_t started_ns; /* monotonic: when it was started */
	uint64_t restart_ns; /* monotonic: start it again then (0: not due) */
	int restarts;
};

/* Start k's process: exe (NULL: /proc/self/exe). 0, or -1 with err. */
int td_child_spawn(struct td_child *k, const char *exe, uid_t uid, gid_t gid, td_err *err);
/* End k's process (SIGKILL) and reap it; how it ended, in how (for the
 * log: "exited with status 1", "killed by signal 9"), when not NULL. */
void td_child_end(struct td_child *k, char *how, size_t len);

#endif
