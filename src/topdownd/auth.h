/* auth: who a client is and what it may count, by the kernel's rules.
 * The identity is the kernel's (SO_PEERCRED, SO_PEERGROUPS), never what a
 * request says. Whether a user may count a process is not guessed from
 * /proc either: a child process takes the client's uid and gid (no
 * supplementary groups, no capabilities) and asks the kernel to open a
 * task-clock counter on the target — with kernel-mode counting, then
 * user-space only — so ptrace access mode, dumpability, user namespaces and
 * perf_event_paranoid are all the kernel's own decision (man 8 topdownd). */
#ifndef TD_AUTH_H
#define TD_AUTH_H

#include <stdbool.h>
#include <sys/types.h>

#include "base/util.h"

struct td_peer {
	pid_t pid;
	uid_t uid;
	gid_t gid;
	bool admin; /* root, or a member of the configured admin group */
};

/* The client on connected socket fd; admin_group NULL: root only. 0 or -1
 * with err. */
int td_peer_identify(int fd, const char *admin_group, struct td_peer *p, td_err *err);

/* May p count process pid? Admins may count anything (*user_only false).
 * Others: 0 when the kernel lets them, with *user_only true when only
 * user-space counting is allowed (perf_event_paranoid); -1 with a one-line
 * reason. */
int td_auth_may_count(const struct td_peer *p, pid_t pid, bool *user_only, td_err *err);

/* May p see and control a session owned by owner (-1: no owner, i.e. the
 * daemon's own or tdctl's)? Admins see all. */
bool td_auth_may_see(const struct td_peer *p, long long owner);

#endif
