/* free_pid: a PID that no process has now, asked of the kernel rather than
 * guessed (PID 4000000 is a real PID where pid_max is 4194304 and the machine
 * is busy): a child started and reaped. PIDs are handed out in increasing
 * order, so it is not reused until pid_max wraps around. */
#ifndef TD_TEST_FREE_PID_H
#define TD_TEST_FREE_PID_H

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

static inline pid_t free_pid(void)
{
	for (;;) {
		pid_t pid = fork();
		if (pid < 0)
			abort();
		if (pid == 0)
			_exit(0);
		if (waitpid(pid, NULL, 0) != pid)
			abort();
		/* after the wait nothing has this PID, unless it was already reused */
		if (kill(pid, 0) < 0 && errno == ESRCH)
			return pid;
	}
}

#endif
