/* fault_inject.so: an LD_PRELOAD shim that counts the write, fsync and
 * open-for-writing calls a process makes on files under one path prefix (a
 * database, its -wal, -shm and -journal files) and makes the Nth of them fail
 * with ENOSPC or EIO — SQLite's I/O fault injection, from outside the
 * program. Used by tests/integration/store_faults.sh.
 *   TD_FAULT_PATH=PREFIX  the files: every path starting with PREFIX (required)
 *   TD_FAULT_CALLS=LIST   which calls count: write (write, pwrite, pwrite64,
 *                         writev, pwritev), fsync (fsync, fdatasync), open
 *                         (open, open64, openat, creat with O_CREAT, O_WRONLY
 *                         or O_RDWR); comma-separated, default all three
 *   TD_FAULT_N=N          the Nth counted call (from 1) fails; 0 or unset: none
 *   TD_FAULT_STICKY=1     every counted call after the Nth fails too (a disk
 *                         that stays full); default: only the Nth
 *   TD_FAULT_ERRNO=E      ENOSPC (default), EIO, or a number
 *   TD_FAULT_LOG=FILE     appends "INDEX CALL PATH ok|failed" for every
 *                         counted call: its last index is the total
 *   TD_FAULT_SNAPSHOT=DIR when the first fault is injected, copies PREFIX and
 *                         PREFIX-wal as they are at that moment to DIR/snap.db
 *                         and DIR/snap.db-wal: what a crash then would leave,
 *                         i.e. every transaction committed before the fault
 *                         (SQLite's own recovery reads it back)
 * The count is per process (a forked child starts from its parent's). The
 * shim is not instrumented: it is preloaded into sanitized binaries too. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

enum kind {
	K_WRITE = 1,
	K_FSYNC = 2,
	K_OPEN = 4
};

static long counted; /* calls counted so far in this process */
static int failed;   /* faults injected so far */

static const char *env(const char *name)
{
	const char *v = getenv(name);

	return v && *v ? v : NULL;
}

static bool under_prefix(const char *path)
{
	const char *prefix = env("TD_FAULT_PATH");

	return prefix && path && !strncmp(path, prefix, strlen(prefix));
}

static bool fd_under_prefix(int fd, char *path, size_t len)
{
	char link[64];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	if ((n = readlink(link, path, len - 1)) < 0)
		return false;
	path[n] = '\0';
	return under_prefix(path);
}

static bool kind_counted(enum kind k)
{
	const char *calls = env("TD_FAULT_CALLS");
	const char *name = k == K_WRITE ? "write" : k == K_FSYNC ? "fsync" : "open";
	size_t len = strlen(name);

	if (!calls)
		return true;
	for (const char *p = calls; *p;) {
		size_t n = strcspn(p, ",");
		if (n == len && !strncmp(p, name, len))
			return true;
		p += n + (p[n] == ',');
	}
	return false;
}

static int fault_errno(void)
{
	const char *e = env("TD_FAULT_ERRNO");

	if (!e || !strcmp(e, "ENOSPC"))
		return ENOSPC;
	if (!strcmp(e, "EIO"))
		return EIO;
	return atoi(e) > 0 ? atoi(e) : ENOSPC;
}

/* Raw system calls for the shim's own files: never counted, never interposed. */
static void copy_file(const char *from, const char *to)
{
	char buf[65536];
	int in = (int)syscall(SYS_openat, AT_FDCWD, from, O_RDONLY | O_CLOEXEC), out;
	ssize_t n;

	if (in < 0)
		return;
	out = (int)syscall(SYS_openat, AT_FDCWD, to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out >= 0) {
		while ((n = syscall(SYS_read, in, buf, sizeof(buf))) > 0)
			if (syscall(SYS_write, out, buf, (size_t)n) != n)
				break;
		syscall(SYS_close, out);
	}
	syscall(SYS_close, in);
}

static void snapshot(void)
{
	const char *dir = env("TD_FAULT_SNAPSHOT"), *prefix = env("TD_FAULT_PATH");
	char from[PATH_MAX], to[PATH_MAX];

	if (!dir || !prefix)
		return;
	snprintf(to, sizeof(to), "%s/snap.db", dir);
	copy_file(prefix, to);
	snprintf(from, sizeof(from), "%s-wal", prefix);
	snprintf(to, sizeof(to), "%s/snap.db-wal", dir);
	copy_file(from, to);
}

static void log_call(long index, const char *call, const char *path, bool fail)
{
	const char *file = env("TD_FAULT_LOG");
	char line[PATH_MAX + 64];
	int fd, n;

	if (!file)
		return;
	n = snprintf(line, sizeof(line), "%ld %s %s %s\n", index, call, path, fail ? "failed" : "ok");
	if (n < 0 || (size_t)n >= sizeof(line))
		return;
	fd = (int)syscall(SYS_openat, AT_FDCWD, file, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd >= 0) {
		syscall(SYS_write, fd, line, (size_t)n);
		syscall(SYS_close, fd);
	}
}

/* Count a call on path; true when it is to fail (errno is then set). */
static bool inject(enum kind k, const char *call, const char *path)
{
	const char *nv = env("TD_FAULT_N");
	long n = nv ? atol(nv) : 0, index;
	bool fail;

	if (!kind_counted(k))
		return false;
	index = __atomic_add_fetch(&counted, 1, __ATOMIC_SEQ_CST);
	fail = n > 0 && (index == n || (index > n && env("TD_FAULT_STICKY")));
	if (fail && __atomic_fetch_add(&failed, 1, __ATOMIC_SEQ_CST) == 0)
		snapshot();
	log_call(index, call, path, fail);
	if (fail)
		errno = fault_errno();
	return fail;
}

static bool inject_fd(enum kind k, const char *call, int fd)
{
	char path[PATH_MAX];

	return fd_under_prefix(fd, path, sizeof(path)) && inject(k, call, path);
}

static bool opens_for_writing(int flags)
{
	return (flags & (O_CREAT | O_WRONLY | O_RDWR)) != 0;
}

/* The functions interposed, as the next library defines them. */
typedef ssize_t write_fn(int, const void *, size_t);
typedef ssize_t pwrite_fn(int, const void *, size_t, off_t);
typedef ssize_t pwrite64_fn(int, const void *, size_t, off64_t);
typedef ssize_t writev_fn(int, const struct iovec *, int);
typedef ssize_t pwritev_fn(int, const struct iovec *, int, off_t);
typedef int fsync_fn(int);
typedef int open_fn(const char *, int, ...);
typedef int openat_fn(int, const char *, int, ...);
typedef int creat_fn(const char *, mode_t);

/* The next definition of a libc function after this library (looked up once per function). */
static void *next(void **cache, const char *name)
{
	if (!*cache)
		*cache = dlsym(RTLD_NEXT, name);
	return *cache;
}

ssize_t write(int fd, const void *buf, size_t n)
{
	static void *real;

	return inject_fd(K_WRITE, "write", fd) ? -1 : ((write_fn *)next(&real, "write"))(fd, buf, n);
}

ssize_t pwrite(int fd, const void *buf, size_t n, off_t off)
{
	static void *real;

	return inject_fd(K_WRITE, "pwrite", fd) ? -1 : ((pwrite_fn *)next(&real, "pwrite"))(fd, buf, n, off);
}

ssize_t pwrite64(int fd, const void *buf, size_t n, off64_t off)
{
	static void *real;

	return inject_fd(K_WRITE, "pwrite64", fd) ? -1 : ((pwrite64_fn *)next(&real, "pwrite64"))(fd, buf, n, off);
}

ssize_t writev(int fd, const struct iovec *iov, int cnt)
{
	static void *real;

	return inject_fd(K_WRITE, "writev", fd) ? -1 : ((writev_fn *)next(&real, "writev"))(fd, iov, cnt);
}

ssize_t pwritev(int fd, const struct iovec *iov, int cnt, off_t off)
{
	static void *real;

	return inject_fd(K_WRITE, "pwritev", fd) ? -1 : ((pwritev_fn *)next(&real, "pwritev"))(fd, iov, cnt, off);
}

int fsync(int fd)
{
	static void *real;

	return inject_fd(K_FSYNC, "fsync", fd) ? -1 : ((fsync_fn *)next(&real, "fsync"))(fd);
}

int fdatasync(int fd)
{
	static void *real;

	return inject_fd(K_FSYNC, "fdatasync", fd) ? -1 : ((fsync_fn *)next(&real, "fdatasync"))(fd);
}

/* open's mode is there only with O_CREAT or O_TMPFILE */
static mode_t mode_arg(int flags, va_list ap)
{
	return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE ? (mode_t)va_arg(ap, int) : 0;
}

/* an open of path (relative to the working directory or dirfd: resolved only
 * when absolute or AT_FDCWD, which is what SQLite passes) */
static bool inject_open(const char *call, int dirfd, const char *path, int flags)
{
	char full[PATH_MAX];

	if (!opens_for_writing(flags))
		return false;
	if (path[0] != '/') {
		if (dirfd != AT_FDCWD || !getcwd(full, sizeof(full) - strlen(path) - 2))
			return false;
		strcat(full, "/");
		strcat(full, path);
		path = full;
	}
	return under_prefix(path) && inject(K_OPEN, call, path);
}

int open(const char *path, int flags, ...)
{
	va_list ap;
	mode_t mode;

	static void *real;

	va_start(ap, flags);
	mode = mode_arg(flags, ap);
	va_end(ap);
	return inject_open("open", AT_FDCWD, path, flags) ? -1 : ((open_fn *)next(&real, "open"))(path, flags, mode);
}

int open64(const char *path, int flags, ...)
{
	va_list ap;
	mode_t mode;

	static void *real;

	va_start(ap, flags);
	mode = mode_arg(flags, ap);
	va_end(ap);
	return inject_open("open64", AT_FDCWD, path, flags) ? -1
							    : ((open_fn *)next(&real, "open64"))(path, flags, mode);
}

int openat(int dirfd, const char *path, int flags, ...)
{
	va_list ap;
	mode_t mode;

	static void *real;

	va_start(ap, flags);
	mode = mode_arg(flags, ap);
	va_end(ap);
	return inject_open("openat", dirfd, path, flags)
		       ? -1
		       : ((openat_fn *)next(&real, "openat"))(dirfd, path, flags, mode);
}

int creat(const char *path, mode_t mode)
{
	static void *real;

	return inject_open("creat", AT_FDCWD, path, O_CREAT | O_WRONLY | O_TRUNC)
		       ? -1
		       : ((creat_fn *)next(&real, "creat"))(path, mode);
}
