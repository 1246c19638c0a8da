/* sandbox: what topdownd's front and exporter give up once their socket is
 * bound — every privilege: the dedicated user's uid and gid (no
 * supplementary groups), no capability in any set (effective, permitted,
 * inheritable, ambient, the bounding set dropped where allowed),
 * PR_SET_NO_NEW_PRIVS, and a seccomp filter allowing only the system calls
 * of a process that polls, reads and writes the descriptors it already has,
 * accepts connections and allocates memory; any other kills the process
 * (the monitor starts it anew). */
#ifndef TD_SANDBOX_H
#define TD_SANDBOX_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "base/util.h"

#define TD_SANDBOX_USER "topdown" /* the default unprivileged user */

/* Who to become: user's uid and gid; when user does not exist and
 * fallback is set, nobody (65534) — said in said (for the log). 0, or -1
 * with err. */
int td_sandbox_resolve(const char *user, int fallback, uid_t *uid, gid_t *gid, char *said, size_t saidlen, td_err *err);

/* Is there a seccomp filter for this architecture (x86-64, arm64)? Where
 * not, the processes are confined but for it, and say so. */
bool td_sandbox_has_filter(void);

/* Become uid/gid with no capability, no new privileges and the filter.
 * 0, or -1 with err (the caller must then exit). */
int td_sandbox_enter(uid_t uid, gid_t gid, td_err *err);
/* The same for a report's renderer (report_job.h), whose filter allows
 * besides SQLite's reads of the files it already has open (pread64, its
 * fcntl locks, the -shm's mapping) and openat for reading only (the events
 * files); an openat to write fails with EACCES. */
int td_sandbox_enter_render(uid_t uid, gid_t gid, td_err *err);
/* The same filter for a symbolizer (symbolizer_proc.h), which becomes a
 * target's owner: uid 0 too for a root-owned target — without any
 * capability, and with openat for reading only and no call that writes to
 * a file by its name, root's uid reads root's files and changes none. */
int td_sandbox_enter_symbolizer(uid_t uid, gid_t gid, td_err *err);

#endif
