/* fail_writes.so: an LD_PRELOAD shim that makes writes to one database fail
 * with ENOSPC ("disk full") while a flag file exists, so that a test can
 * fail a running session's interval writes and let them succeed again.
 *   TD_FAIL_DB=PATH     the database: writes to PATH, PATH-wal, PATH-journal fail
 *   TD_FAIL_FLAG=FILE   they fail only while FILE exists
 * write, pwrite and pwrite64 are interposed (SQLite's unix VFS writes with
 * pwrite64); every other descriptor is untouched. Used by
 * tests/integration/write_fail.sh. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

static bool failing(int fd)
{
	const char *db = getenv("TD_FAIL_DB"), *flag = getenv("TD_FAIL_FLAG");
	char link[64], path[PATH_MAX];
	ssize_t n;
	size_t len;

	if (!db || !flag || access(flag, F_OK) != 0)
		return false;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	if ((n = readlink(link, path, sizeof(path) - 1)) < 0)
		return false;
	path[n] = '\0';
	len = strlen(db);
	return !strncmp(path, db, len) &&
	       (!path[len] || !strcmp(path + len, "-wal") || !strcmp(path + len, "-journal"));
}

/* The next definition of a libc function after this library. */
static void *next(const char *name)
{
	return dlsym(RTLD_NEXT, name);
}

ssize_t write(int fd, const void *buf, size_t n)
{
	static ssize_t (*real)(int, const void *, size_t);

	if (failing(fd)) {
		errno = ENOSPC;
		return -1;
	}
	if (!real)
		*(void **)&real = next("write");
	return real(fd, buf, n);
}

ssize_t pwrite(int fd, const void *buf, size_t n, off_t off)
{
	static ssize_t (*real)(int, const void *, size_t, off_t);

	if (failing(fd)) {
		errno = ENOSPC;
		return -1;
	}
	if (!real)
		*(void **)&real = next("pwrite");
	return real(fd, buf, n, off);
}

ssize_t pwrite64(int fd, const void *buf, size_t n, off64_t off)
{
	static ssize_t (*real)(int, const void *, size_t, off64_t);

	if (failing(fd)) {
		errno = ENOSPC;
		return -1;
	}
	if (!real)
		*(void **)&real = next("pwrite64");
	return real(fd, buf, n, off);
}
