/* privsep: starting and ending the monitor's unprivileged processes (see
 * privsep.h). */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "front.h"
#include "privsep.h"

extern char **environ;

/* The monitor's environment but DEBUGINFOD_URLS: no unprivileged process
 * connects anywhere (a symbolizer's libdwfl starts a debuginfod client
 * when it looks for a module's debug file, which asks the servers that
 * variable names: its filter would kill it there). The strings are the
 * monitor's. NULL: out of memory. */
static char **child_environment(void)
{
	size_t n = 0, k = 0;
	char **envp;

	while (environ && environ[n])
		n++;
	if (!(envp = calloc(n + 1, sizeof(*envp))))
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (strncmp(environ[i], "DEBUGINFOD_URLS=", 16) != 0)
			envp[k++] = environ[i];
	return envp;
}

int td_child_spawn(struct td_child *k, const char *exe, uid_t uid, gid_t gid, td_err *err)
{
	char flag[32], ids[32], **envp;
	int sv[2];
	pid_t parent = getpid(), pid;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0) {
		td_err_set(err, "cannot make the %s's channel: %s", k->role, strerror(errno));
		return -1;
	}
	snprintf(flag, sizeof(flag), "--privsep-%s", k->role);
	snprintf(ids, sizeof(ids), "%u:%u", (unsigned)uid, (unsigned)gid);
	if (!(envp = child_environment())) {
		td_err_set(err, "cannot start the %s: out of memory", k->role);
		close(sv[0]);
		close(sv[1]);
		return -1;
	}
	if ((pid = fork()) < 0) {
		td_err_set(err, "cannot start the %s: %s", k->role, strerror(errno));
		free(envp);
		close(sv[0]);
		close(sv[1]);
		return -1;
	}
	if (pid == 0) {
		sigset_t none;
		char *const argv[] = { "topdownd", flag, ids, NULL };
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)
			_exit(127);
		/* the channel on fd 3 and nothing else of the monitor's above stderr */
		if (dup2(sv[1], TD_PRIVSEP_FD) < 0 || close_range(TD_PRIVSEP_FD + 1, ~0u, 0) != 0)
			_exit(127);
		execve(exe ? exe : "/proc/self/exe", argv, envp);
		_exit(127);
	}
	free(envp);
	close(sv[1]);
	if (!(k->ch = td_chan_new(sv[0]))) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		td_err_set(err, "out of memory");
		return -1;
	}
	k->pid = pid;
	k->ready = false;
	k->port = 0;
	k->restart_ns = 0;
	k->started_ns = td_now_ns();
	return 0;
}

void td_child_end(struct td_child *k, char *how, size_t len)
{
	int status = 0;

	if (how && len)
		how[0] = '\0';
	td_chan_free(k->ch);
	k->ch = NULL;
	if (k->pid <= 0)
		return;
	/* gone already, or ended now: either way reaped here */
	if (waitpid(k->pid, &status, WNOHANG) == 0) {
		kill(k->pid, SIGKILL);
		while (waitpid(k->pid, &status, 0) < 0 && errno == EINTR)
			;
	}
	if (how && len) {
		if (WIFEXITED(status))
			snprintf(how, len, "exited with status %d", WEXITSTATUS(status));
		else if (WIFSIGNALED(status))
			snprintf(how, len, "killed by signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
	}
	k->pid = 0;
	k->ready = false;
}
