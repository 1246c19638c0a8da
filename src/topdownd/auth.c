/* auth: client identity from the socket and the kernel's answer to "may
 * this user count that process" (see auth.h). */
#include <errno.h>
#include <grp.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "auth.h"

#ifndef SO_PEERGROUPS
#define SO_PEERGROUPS 59
#endif

/* Is gid among the peer's groups (its gid or supplementary ones)? */
static bool peer_in_group(int fd, gid_t primary, gid_t gid)
{
	gid_t *groups = NULL;
	socklen_t len = 0;
	bool found = primary == gid;

	/* SO_PEERGROUPS: the groups at connect time; ERANGE tells the size */
	if (!found && getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, NULL, &len) < 0 && errno == ERANGE && len > 0 &&
	    (groups = malloc(len)) && getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, groups, &len) == 0)
		for (size_t i = 0; i < len / sizeof(gid_t); i++)
			if (groups[i] == gid)
				found = true;
	free(groups);
	return found;
}

int td_peer_identify(int fd, const char *admin_group, struct td_peer *p, td_err *err)
{
	struct ucred cred;
	socklen_t len = sizeof(cred);

	memset(p, 0, sizeof(*p));
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) < 0) {
		td_err_set(err, "cannot tell who the client is: %s", strerror(errno));
		return -1;
	}
	p->pid = cred.pid;
	p->uid = cred.uid;
	p->gid = cred.gid;
	p->admin = cred.uid == 0;
	if (!p->admin && admin_group) {
		struct group *g = getgrnam(admin_group);
		if (g)
			p->admin = peer_in_group(fd, cred.gid, g->gr_gid);
	}
	return 0;
}

bool td_auth_may_see(const struct td_peer *p, long long owner)
{
	return p->admin || (owner >= 0 && (uid_t)owner == p->uid);
}

/* In the child: with the client's credentials, open a task-clock counter
 * on pid, counting the kernel too or not. errno on failure. */
static int try_open(pid_t pid, bool kernel)
{
	struct perf_event_attr a;
	long fd;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	a.disabled = 1;
	a.exclude_kernel = !kernel;
	a.exclude_hv = 1;
	fd = syscall(SYS_perf_event_open, &a, pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return errno;
	close((int)fd);
	return 0;
}

enum {
	ASK_FULL = 0,
	ASK_USER_ONLY = 1,
	ASK_NO_IDENTITY = 2,
	ASK_ERRNO = 16
};

static void child(const struct td_peer *p, pid_t pid)
{
	int e;

	if (setgroups(0, NULL) || setresgid(p->gid, p->gid, p->gid) || setresuid(p->uid, p->uid, p->uid))
		_exit(ASK_NO_IDENTITY);
	if ((e = try_open(pid, true)) == 0)
		_exit(ASK_FULL);
	if ((e == EACCES || e == EPERM) && (e = try_open(pid, false)) == 0)
		_exit(ASK_USER_ONLY);
	_exit(ASK_ERRNO + (e > 0 && e < 200 ? e : EINVAL));
}

int td_auth_may_count(const struct td_peer *p, pid_t pid, bool *user_only, td_err *err)
{
	pid_t c;
	int status, code;

	*user_only = false;
	if (p->admin)
		return 0;
	if ((c = fork()) < 0) {
		td_err_set(err, "cannot check the client's access: %s", strerror(errno));
		return -1;
	}
	if (c == 0)
		child(p, pid);
	while (waitpid(c, &status, 0) < 0)
		if (errno != EINTR) {
			td_err_set(err, "cannot check the client's access: %s", strerror(errno));
			return -1;
		}
	code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	if (code == ASK_FULL)
		return 0;
	if (code == ASK_USER_ONLY) {
		*user_only = true;
		return 0;
	}
	if (code == ASK_NO_IDENTITY) {
		td_err_set(err,
			   "topdownd cannot take uid %u to ask the kernel (it needs CAP_SETUID and CAP_SETGID): "
			   "ask the administrator",
			   (unsigned)p->uid);
		return -1;
	}
	code -= ASK_ERRNO;
	if (code == ESRCH)
		td_err_set(err, "no process %d: give the PID of a running process (see 'ps')", (int)pid);
	else if (code == EACCES || code == EPERM)
		td_err_set(err,
			   "uid %u may not count process %d: the kernel refuses (another user's process, one that "
			   "is not dumpable, or perf_event_paranoid forbids it): attach to your own processes or ask "
			   "an administrator",
			   (unsigned)p->uid, (int)pid);
	else
		td_err_set(err, "the kernel refuses to let uid %u count process %d: %s", (unsigned)p->uid, (int)pid,
			   code > 0 ? strerror(code) : "the check failed");
	return -1;
}
