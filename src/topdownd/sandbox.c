/* sandbox: the unprivileged processes' confinement (see sandbox.h): the
 * credentials, the capabilities, no new privileges, and a seccomp filter
 * written as classic BPF (an allow-list; the architecture checked first so
 * that no other ABI's numbers slip through; tgkill only to the process
 * itself, for abort()). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/audit.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pwd.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "sandbox.h"

#if defined(__x86_64__)
#define TD_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define TD_AUDIT_ARCH AUDIT_ARCH_AARCH64
#endif

int td_sandbox_resolve(const char *user, int fallback, uid_t *uid, gid_t *gid, char *said, size_t saidlen, td_err *err)
{
	struct passwd *pw = getpwnam(user);

	said[0] = '\0';
	if (pw) {
		*uid = pw->pw_uid;
		*gid = pw->pw_gid;
	} else if (fallback) {
		*uid = 65534;
		*gid = 65534;
		snprintf(said, saidlen, "no user '%s' here: the front and the exporter run as nobody (65534)", user);
	} else {
		td_err_set(err, "no user '%s': create it (the package does: adduser --system %s) or set [daemon] user",
			   user, user);
		return -1;
	}
	if (*uid == 0 || *gid == 0) {
		td_err_set(err, "user '%s' is root: give topdownd an unprivileged user in [daemon] user", user);
		return -1;
	}
	return 0;
}

bool td_sandbox_has_filter(void)
{
#ifdef TD_AUDIT_ARCH
	return true;
#else
	return false;
#endif
}

#ifdef TD_AUDIT_ARCH
/* The system calls a front or an exporter makes once confined. */
static const int allowed[] = {
	SYS_read,
	SYS_write,
	SYS_writev,
	SYS_readv,
	SYS_close,
	SYS_ppoll,
#ifdef SYS_poll
	SYS_poll,
#endif
#ifdef SYS_epoll_wait
	SYS_epoll_wait,
#endif
	SYS_epoll_pwait,
	SYS_epoll_ctl,
	SYS_recvmsg,
	SYS_sendmsg,
	SYS_recvfrom,
	SYS_sendto,
#ifdef SYS_accept
	SYS_accept,
#endif
	SYS_accept4,
	SYS_getsockopt,
	SYS_setsockopt,
	SYS_getsockname,
	SYS_getpeername,
	SYS_shutdown,
	SYS_fcntl,
	SYS_brk,
	SYS_mmap,
	SYS_munmap,
	SYS_mremap,
	SYS_madvise,
	SYS_mprotect,
	SYS_futex,
	SYS_clock_gettime,
	SYS_clock_getres,
	SYS_gettimeofday,
	SYS_nanosleep,
	SYS_clock_nanosleep,
	SYS_exit,
	SYS_exit_group,
	SYS_rt_sigreturn,
	SYS_rt_sigprocmask,
	SYS_getpid,
	SYS_gettid,
	SYS_getrandom,
	SYS_restart_syscall,
	SYS_fstat,
	SYS_newfstatat,
	SYS_lseek,
	SYS_sched_yield,
	SYS_sigaltstack, /* its own signal stack: the sanitizers' runtime sets and unsets one at exit */
#ifdef SYS_time
	SYS_time,
#endif
#ifdef SYS_sendfile
	SYS_sendfile,
#endif
};
#define NALLOWED (sizeof(allowed) / sizeof(allowed[0]))

/* What a report's renderer makes besides: SQLite's reads of the database
 * and its -wal and -shm, all opened before the drop (pread64, the locks
 * through fcntl, the -shm's mapping), and the events files read by their
 * path (openat for reading only: checked below). */
static const int render_allowed[] = {
	SYS_pread64,	SYS_fsync, SYS_getuid, SYS_geteuid, SYS_getcwd, SYS_readlink, SYS_readlinkat, SYS_faccessat,
#ifdef SYS_faccessat2
	SYS_faccessat2,
#endif
	SYS_getdents64,
#ifdef SYS_access
	SYS_access, /* SQLite: does a -wal or hot journal exist? */
#endif
#ifdef SYS_stat
	SYS_stat,	SYS_lstat,
#endif
};
#define NRENDER (sizeof(render_allowed) / sizeof(render_allowed[0]))

/* What a symbolizer makes besides a renderer's: sysinfo, which glibc's
 * qsort calls (sysconf(_SC_PHYS_PAGES)) as libdwfl sorts a module's
 * symbols; socketpair, a pair of sockets joined to each other and to
 * nothing else, which libcurl makes when libdwfl, looking for a module's
 * debug file, starts a debuginfod client (elfutils 0.188 loads
 * libdebuginfod and calls debuginfod_begin whatever the environment; with
 * no DEBUGINFOD_URLS, which privsep.c does not pass, it asks no server:
 * socket and connect stay forbidden). */
static const int symbolizer_allowed[] = {
	SYS_sysinfo,
	SYS_socketpair,
};
#define NSYMBOLIZER (sizeof(symbolizer_allowed) / sizeof(symbolizer_allowed[0]))
#endif

static int install_filter(bool render, bool symbolizer, td_err *err)
{
#ifdef TD_AUDIT_ARCH
	struct sock_filter f[8 + 2 * NALLOWED + 2 * NRENDER + 2 * NSYMBOLIZER + 16];
	unsigned n = 0;
	pid_t self = getpid();

	f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch));
	f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, TD_AUDIT_ARCH, 1, 0);
	f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);
	f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
#if defined(__x86_64__)
	/* the x32 ABI's numbers (bit 30) are another table: refused */
	f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u, 0, 1);
	f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);
#endif
	for (size_t i = 0; i < NALLOWED; i++) {
		f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)allowed[i], 0, 1);
		f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	}
	for (size_t i = 0; render && i < NRENDER; i++) {
		f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)render_allowed[i], 0, 1);
		f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	}
	for (size_t i = 0; symbolizer && i < NSYMBOLIZER; i++) {
		f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)symbolizer_allowed[i], 0, 1);
		f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	}
	if (render) {
		/* openat(dirfd, path, flags): for reading only, nothing created or
		 * truncated; refused with EACCES (SQLite then says why), not killed:
		 * the user's own reach besides is nobody's */
		f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_openat, 0, 4);
		f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[2]));
		f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K,
						      (unsigned)(O_ACCMODE | O_CREAT | O_TRUNC | O_APPEND), 0, 1);
		f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EACCES & SECCOMP_RET_DATA));
		f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
		/* the number reloaded for what follows */
		f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
	}
	/* tgkill(self, ...): abort() */
	f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_tgkill, 0, 3);
	f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0]));
	f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)self, 0, 1);
	f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);

	struct sock_fprog prog = { .len = (unsigned short)n, .filter = f };
	if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) != 0) {
		td_err_set(err, "cannot install the seccomp filter: %s", strerror(errno));
		return -1;
	}
	return 0;
#else
	(void)render;
	(void)symbolizer;
	(void)err; /* no filter written for this architecture: td_sandbox_has_filter says so */
	return 0;
#endif
}

static int enter(uid_t uid, gid_t gid, bool render, bool symbolizer, td_err *err)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3, .pid = 0 };
	struct __user_cap_data_struct data[2];

	/* the time zone read now (libmicrohttpd dates its replies): no file is opened once confined */
	tzset();
	/* the bounding set first, while CAP_SETPCAP is still ours */
	for (int cap = 0; cap <= 63; cap++)
		if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0 && errno != EINVAL && errno != EPERM)
			break;
	if (setgroups(0, NULL) != 0 || setresgid(gid, gid, gid) != 0 || setresuid(uid, uid, uid) != 0) {
		td_err_set(err, "cannot become uid %u gid %u: %s", (unsigned)uid, (unsigned)gid, strerror(errno));
		return -1;
	}
	/* leaving uid 0 cleared the permitted and effective sets; the rest too */
	memset(data, 0, sizeof(data));
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0 && errno != EINVAL) {
		td_err_set(err, "cannot clear the ambient capabilities: %s", strerror(errno));
		return -1;
	}
	if (syscall(SYS_capset, &hdr, data) != 0 || syscall(SYS_capget, &hdr, data) != 0 || data[0].effective ||
	    data[0].permitted || data[0].inheritable || data[1].effective || data[1].permitted || data[1].inheritable) {
		td_err_set(err, "cannot drop every capability");
		return -1;
	}
	if (uid != 0 && setuid(0) == 0) {
		td_err_set(err, "uid 0 could be taken back after dropping it");
		return -1;
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
		td_err_set(err, "cannot set no_new_privs: %s", strerror(errno));
		return -1;
	}
	return install_filter(render, symbolizer, err);
}

int td_sandbox_enter(uid_t uid, gid_t gid, td_err *err)
{
	if (uid == 0) {
		td_err_set(err, "the front and the exporter do not run as uid 0");
		return -1;
	}
	return enter(uid, gid, false, false, err);
}

int td_sandbox_enter_render(uid_t uid, gid_t gid, td_err *err)
{
	if (uid == 0) {
		td_err_set(err, "a report is not rendered as uid 0");
		return -1;
	}
	return enter(uid, gid, true, false, err);
}

int td_sandbox_enter_symbolizer(uid_t uid, gid_t gid, td_err *err)
{
	return enter(uid, gid, true, true, err);
}
