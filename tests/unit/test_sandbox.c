/* Unit tests for the confinement of topdownd's front and exporter
 * (src/topdownd/sandbox.c), each in a child process that enters it: the
 * kernel's view of the child (/proc/PID/status, read by the parent) shows
 * uid 65534, no capability in any set, no_new_privs and a seccomp filter;
 * the calls a poll loop makes still work (write, poll, memory, clocks),
 * while opening a file, making a socket, executing, tracing, signalling
 * another process or calling through the x32 ABI kill the child with
 * SIGSYS, and abort() still aborts; a symbolizer's confinement as uid 0
 * (a root-owned target's) reads root's files and changes none. Needs root (it changes uid): skipped
 * otherwise, and where no filter is written for the architecture. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <errno.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "topdownd/sandbox.h"

enum act {
	ACT_ALLOWED,
	ACT_OPEN,
	ACT_SOCKET,
	ACT_EXEC,
	ACT_PTRACE,
	ACT_KILL_OTHER,
	ACT_X32,
	ACT_ABORT
};

/* A child confined, then doing act; how it ended. The parent reads its
 * status file while it waits on a pipe, confined already. */
static int run(enum act act, char *status, size_t len)
{
	int go[2], ready[2], st;
	pid_t pid;
	char path[64];

	assert_int_equal(pipe(go), 0);
	assert_int_equal(pipe(ready), 0);
	if ((pid = fork()) == 0) {
		td_err err;
		char c = 0;
		close(go[1]);
		close(ready[0]);
		if (td_sandbox_enter(65534, 65534, &err))
			_exit(100);
		if (write(ready[1], &c, 1) != 1 || read(go[0], &c, 1) != 1)
			_exit(101);
		switch (act) {
		case ACT_ALLOWED: {
			struct pollfd p = { .fd = go[0], .events = POLLIN };
			struct timespec ts;
			char *big = malloc(1 << 24); /* mmap */
			if (!big || poll(&p, 1, 0) < 0 || clock_gettime(CLOCK_MONOTONIC, &ts))
				_exit(102);
			memset(big, 1, 1 << 24);
			free(big);
			_exit(0);
		}
		case ACT_OPEN:
			open("/etc/hostname", O_RDONLY);
			break;
		case ACT_SOCKET:
			socket(AF_UNIX, SOCK_STREAM, 0);
			break;
		case ACT_EXEC:
			execl("/bin/true", "true", (char *)NULL);
			break;
		case ACT_PTRACE:
			ptrace(PTRACE_ATTACH, getppid(), NULL, NULL);
			break;
		case ACT_KILL_OTHER:
			kill(getppid(), 0);
			break;
		case ACT_X32:
			syscall(0x40000000 | SYS_getpid);
			break;
		case ACT_ABORT:
			abort();
		}
		_exit(103); /* the call returned: not refused */
	}
	close(go[0]);
	close(ready[1]);
	char c;
	assert_int_equal(read(ready[0], &c, 1), 1);
	if (status) {
		snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
		FILE *f = fopen(path, "r");
		size_t n = f ? fread(status, 1, len - 1, f) : 0;
		status[n] = '\0';
		if (f)
			fclose(f);
	}
	assert_int_equal(write(go[1], &c, 1), 1);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	close(go[1]);
	close(ready[0]);
	return st;
}

static bool premise(void)
{
	if (geteuid() != 0) {
		skip(); /* changing uid needs root */
		return false;
	}
	if (!td_sandbox_has_filter()) {
		skip(); /* no filter for this architecture */
		return false;
	}
	return true;
}

static void has(const char *status, const char *line)
{
	if (!strstr(status, line))
		fail_msg("/proc/PID/status has no '%s'", line);
}

static void test_the_kernel_sees_it_confined(void **state)
{
	static char status[8192];
	int st;

	(void)state;
	if (!premise())
		return;
	st = run(ACT_ALLOWED, status, sizeof(status));
	has(status, "\nUid:\t65534\t65534\t65534\t65534\n");
	has(status, "\nGid:\t65534\t65534\t65534\t65534\n");
	/* no supplementary group: nothing but blanks after the tab */
	const char *g = strstr(status, "\nGroups:\t");
	assert_non_null(g);
	for (g += strlen("\nGroups:\t"); *g && *g != '\n'; g++)
		assert_int_equal(*g, ' ');
	has(status, "\nCapInh:\t0000000000000000\n");
	has(status, "\nCapPrm:\t0000000000000000\n");
	has(status, "\nCapEff:\t0000000000000000\n");
	has(status, "\nCapAmb:\t0000000000000000\n");
	has(status, "\nNoNewPrivs:\t1\n");
	has(status, "\nSeccomp:\t2\n");
	/* and what a poll loop does still works */
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
}

static void test_forbidden_calls_kill(void **state)
{
	static const enum act acts[] = { ACT_OPEN, ACT_SOCKET, ACT_EXEC, ACT_PTRACE, ACT_KILL_OTHER, ACT_X32 };
	int st;

	(void)state;
	if (!premise())
		return;
	for (size_t i = 0; i < sizeof(acts) / sizeof(acts[0]); i++) {
		st = run(acts[i], NULL, 0);
		if (!WIFSIGNALED(st) || WTERMSIG(st) != SIGSYS)
			fail_msg("act %d: status 0x%x, not killed by SIGSYS", (int)acts[i], st);
	}
	/* abort() signals the process itself: allowed, so an assertion still aborts */
	st = run(ACT_ABORT, NULL, 0);
	assert_true(WIFSIGNALED(st));
	assert_int_equal(WTERMSIG(st), SIGABRT);
}

/* A symbolizer of a root-owned target (symbolizer_proc.h): uid 0 but no
 * capability in any set, no_new_privs, the filter; a root-owned file it
 * may read (the owner's bits) it reads; opening it to write is refused
 * with EACCES, not done; sysinfo (glibc's qsort) and socketpair (libcurl's,
 * as libdwfl starts a debuginfod client) work; unlinking it kills
 * the process and the file stays. The front's and exporter's confinement
 * refuses uid 0 outright. */
static void test_symbolizer_as_root_changes_nothing(void **state)
{
	static char status[8192];
	char path[] = "/tmp/td-sandbox.XXXXXX", buf[16], c = 0;
	int fd, st, go[2], ready[2];
	pid_t pid;
	td_err err;

	(void)state;
	if (!premise())
		return;
	assert_int_equal(td_sandbox_enter(0, 0, &err), -1); /* refused before anything is dropped */
	assert_non_null(strstr(err.msg, "uid 0"));
	assert_true((fd = mkstemp(path)) >= 0);
	assert_int_equal(write(fd, "kept", 4), 4);
	close(fd);
	assert_int_equal(chmod(path, 0600), 0);
	assert_int_equal(pipe(go), 0);
	assert_int_equal(pipe(ready), 0);
	if ((pid = fork()) == 0) {
		struct sysinfo si;
		close(go[1]);
		close(ready[0]);
		if (td_sandbox_enter_symbolizer(0, 0, &err))
			_exit(100);
		if (write(ready[1], &c, 1) != 1 || read(go[0], &c, 1) != 1)
			_exit(101);
		if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0 || read(fd, buf, sizeof(buf)) != 4)
			_exit(102);
		close(fd);
		if (open(path, O_WRONLY | O_TRUNC) >= 0 || errno != EACCES)
			_exit(103);
		if (open(path, O_RDWR) >= 0 || errno != EACCES)
			_exit(104);
		if (sysinfo(&si) != 0)
			_exit(105);
		int sp[2];
		if (socketpair(AF_UNIX, SOCK_STREAM, 0, sp) != 0) /* libcurl's, joined to nothing else */
			_exit(107);
		unlink(path);
		_exit(106); /* the call returned: not refused */
	}
	close(go[0]);
	close(ready[1]);
	assert_int_equal(read(ready[0], &c, 1), 1);
	char spath[64];
	snprintf(spath, sizeof(spath), "/proc/%d/status", (int)pid);
	FILE *f = fopen(spath, "r");
	assert_non_null(f);
	status[fread(status, 1, sizeof(status) - 1, f)] = '\0';
	fclose(f);
	assert_int_equal(write(go[1], &c, 1), 1);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	close(go[1]);
	close(ready[0]);
	has(status, "\nUid:\t0\t0\t0\t0\n");
	has(status, "\nCapInh:\t0000000000000000\n");
	has(status, "\nCapPrm:\t0000000000000000\n");
	has(status, "\nCapEff:\t0000000000000000\n");
	has(status, "\nCapBnd:\t0000000000000000\n");
	has(status, "\nCapAmb:\t0000000000000000\n");
	has(status, "\nNoNewPrivs:\t1\n");
	has(status, "\nSeccomp:\t2\n");
	if (!WIFSIGNALED(st) || WTERMSIG(st) != SIGSYS)
		fail_msg("status 0x%x: not killed by SIGSYS at unlink (exit %d: a check before failed)", st,
			 WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	/* the file as it was */
	assert_true((fd = open(path, O_RDONLY)) >= 0);
	assert_int_equal(read(fd, buf, sizeof(buf)), 4);
	assert_memory_equal(buf, "kept", 4);
	close(fd);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_the_kernel_sees_it_confined),
		cmocka_unit_test(test_forbidden_calls_kill),
		cmocka_unit_test(test_symbolizer_as_root_changes_nothing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
