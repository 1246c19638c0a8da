/* credentials: this thread taking a user's uid and gid for a moment, so that
 * the kernel itself decides whether that user may open a counter on a task
 * (perf_event_open's ptrace-mode check and perf_event_paranoid apply to the
 * caller's credentials). topdownd opens the counters of a client's session
 * this way: a thread born in a process the client may not count — after a
 * setuid exec, say — is refused by the kernel, not by a guess of ours. */
#ifndef TD_CREDENTIALS_H
#define TD_CREDENTIALS_H

#include <sys/types.h>

#include "base/util.h"

/* Take uid and gid as real and effective ids of the calling thread only (raw
 * system calls: glibc's wrappers change every thread), keeping saved ids so
 * td_creds_leave can return. Effective capabilities are dropped with the
 * uid, as the kernel does. 0, or -1 with err set (no CAP_SETUID/CAP_SETGID). */
int td_creds_enter(uid_t uid, gid_t gid, td_err *err);
/* Back to the ids the thread had before td_creds_enter. Aborts if it cannot:
 * a thread left with another user's ids must not go on. */
void td_creds_leave(void);

#endif
