/* perf_fault.so: an LD_PRELOAD shim that counts a process's perf_event_open
 * calls (the collector makes them through syscall(SYS_perf_event_open, ...):
 * src/collect/perf_group.c) and makes the Nth of them fail — the kernel
 * refusing a counter in the middle of a session. Used by
 * tests/integration/collector_faults.sh. Style of fault_inject.c.
 *   TD_PERF_FAULT_N=N       the Nth call (from 1) fails; 0 or unset: none
 *   TD_PERF_FAULT_STICKY=1  every call after the Nth fails too (descriptors
 *                           or counters that stay exhausted)
 *   TD_PERF_FAULT_ERRNO=E   EMFILE (default), ENOSPC, EBUSY, or a number
 *   TD_PERF_FAULT_LOG=FILE  appends "INDEX PID GROUP_FD RESULT" for every
 *                           call (PID: the thread it counts; GROUP_FD -1 for a
 *                           group's leader; RESULT: "ok" when the kernel gave
 *                           a descriptor, "refused" when it did not, "failed"
 *                           when the shim failed it): the descriptors handed
 *                           out are the "ok" lines
 * The count is per process and kept under a lock (the daemon opens from more
 * than one thread). The shim is not instrumented: it is preloaded into
 * sanitized binaries too. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static long counted; /* perf_event_open calls so far in this process */
static pthread_mutex_t count_lock = PTHREAD_MUTEX_INITIALIZER;

static const char *env(const char *name)
{
	const char *v = getenv(name);

	return v && *v ? v : NULL;
}

static int fault_errno(void)
{
	const char *e = env("TD_PERF_FAULT_ERRNO");

	if (!e || !strcmp(e, "EMFILE"))
		return EMFILE;
	if (!strcmp(e, "ENOSPC"))
		return ENOSPC;
	if (!strcmp(e, "EBUSY"))
		return EBUSY;
	return atoi(e) > 0 ? atoi(e) : EMFILE;
}

/* Raw system calls for the shim's log: never counted. */
static void log_call(long index, long pid, long group_fd, const char *result)
{
	const char *file = env("TD_PERF_FAULT_LOG");
	char line[128];
	int fd, n;

	if (!file)
		return;
	n = snprintf(line, sizeof(line), "%ld %ld %ld %s\n", index, pid, group_fd, result);
	if (n < 0 || (size_t)n >= sizeof(line))
		return;
	fd = (int)syscall(SYS_openat, AT_FDCWD, file, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd >= 0) {
		syscall(SYS_write, fd, line, (size_t)n);
		syscall(SYS_close, fd);
	}
}

/* Count a perf_event_open call: its index (from 1). */
static long count_call(void)
{
	long index;

	pthread_mutex_lock(&count_lock);
	index = ++counted;
	pthread_mutex_unlock(&count_lock);
	return index;
}

static bool to_fail(long index)
{
	const char *ns = env("TD_PERF_FAULT_N");
	long n = ns ? atol(ns) : 0;

	return n > 0 && (index == n || (index > n && env("TD_PERF_FAULT_STICKY")));
}

/* syscall(2) with up to six arguments, as the C library's wrapper takes them. */
long syscall(long number, ...)
{
	static long (*real)(long, ...);
	long a[6];
	va_list ap;

	va_start(ap, number);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (!real)
		real = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
	if (number == SYS_perf_event_open) {
		long index = count_call(), rc;

		if (to_fail(index)) {
			log_call(index, a[1], a[3], "failed");
			errno = fault_errno();
			return -1;
		}
		rc = real(number, a[0], a[1], a[2], a[3], a[4], a[5]);
		int saved = errno; /* the kernel's, for the caller */
		log_call(index, a[1], a[3], rc >= 0 ? "ok" : "refused");
		errno = saved;
		return rc;
	}
	return real(number, a[0], a[1], a[2], a[3], a[4], a[5]);
}
