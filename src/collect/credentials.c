/* credentials: a thread's uid and gid changed for a moment and restored
 * (see credentials.h). */
#include "credentials.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static __thread uid_t saved_ruid, saved_euid;
static __thread gid_t saved_rgid, saved_egid;
static __thread int entered;

int td_creds_enter(uid_t uid, gid_t gid, td_err *err)
{
	if (entered) {
		td_err_set(err, "credentials already changed on this thread");
		return -1;
	}
	uid_t suid;
	gid_t sgid;

	if (getresuid(&saved_ruid, &saved_euid, &suid) || getresgid(&saved_rgid, &saved_egid, &sgid)) {
		td_err_set(err, "cannot read this thread's ids: %s", strerror(errno));
		return -1;
	}
	/* gid first, while the thread is still privileged; saved ids stay what they were */
	if (syscall(SYS_setresgid, gid, gid, (gid_t)-1) != 0) {
		td_err_set(err, "cannot take gid %u to open counters as the client: %s (topdownd needs CAP_SETGID)",
			   (unsigned)gid, strerror(errno));
		return -1;
	}
	if (syscall(SYS_setresuid, uid, uid, (uid_t)-1) != 0) {
		int e = errno;
		if (syscall(SYS_setresgid, saved_rgid, saved_egid, (gid_t)-1) != 0)
			abort();
		td_err_set(err, "cannot take uid %u to open counters as the client: %s (topdownd needs CAP_SETUID)",
			   (unsigned)uid, strerror(e));
		return -1;
	}
	entered = 1;
	return 0;
}

void td_creds_leave(void)
{
	if (!entered)
		return;
	/* the saved uid (root) lets the thread return; capabilities come back with euid 0 */
	if (syscall(SYS_setresuid, saved_ruid, saved_euid, (uid_t)-1) != 0 ||
	    syscall(SYS_setresgid, saved_rgid, saved_egid, (gid_t)-1) != 0)
		abort();
	entered = 0;
}
