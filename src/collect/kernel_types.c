/* kernel_types: this boot's kernel types for the collector's BPF object,
 * made by bpftool and kept in a file (kernel_types.h says why). Owns the
 * file's name, its making and the descriptor it is read through. */
#include <linux/types.h> /* before the skeleton */
#include <bpf/libbpf.h>

#include "config.h"
#include "kernel_types.h"
#include "base/util.h"
#include "counting_event.h"	  /* before the skeleton: its read-only data holds a thread's sums */
#include "collect/collect.skel.h" /* the object's bytes: what the file is made for */

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef TD_BPFTOOL_PATH
#define TD_BPFTOOL_PATH "/usr/sbin/bpftool"
#endif

static int taken_fd = -1;
static char taken_path[64];
static char taken_name[4096]; /* the file's name, to remove it when a load with it fails */
static uint64_t made_cpu_ns;  /* bpftool's CPU time, when this process made the file */

const char *td_kernel_types_bpftool(void)
{
	const char *env = getenv("TD_BPFTOOL");

	return env && *env ? env : TD_BPFTOOL_PATH;
}

/* A hash of the object's bytes (FNV-1a's steps over 8 bytes at a time, a
 * shift folding the high bits down: ~20 us for its ~90 KB, a byte at a time
 * took 150 us of every start): a file made for another build's object is
 * another file. */
static uint64_t object_hash(void)
{
	size_t n = 0;
	const unsigned char *p = collect_bpf__elf_bytes(&n);
	uint64_t h = 0xcbf29ce484222325ull ^ n;

	for (size_t i = 0; i < n; i += 8) {
		uint64_t w = 0;
		memcpy(&w, p + i, n - i < 8 ? n - i : 8);
		h = (h ^ w) * 0x100000001b3ull;
		h ^= h >> 29;
	}
	return h;
}

/* dir's file for this boot and object into out: 0, or -1 (no boot id, or too long). */
static int name_of(const char *dir, char *out, size_t len)
{
	char boot[64];
	int n;

	if (td_read_file("/proc/sys/kernel/random/boot_id", boot, sizeof(boot)) < 0)
		return -1;
	boot[strcspn(boot, "-\n")] = 0; /* its first part: 32 bits of a random id */
	if (!boot[0])
		return -1;
	n = snprintf(out, len, "%s/topdown-kernel-types-%s-%016llx.btf", dir, boot, (unsigned long long)object_hash());
	return n > 0 && (size_t)n < len ? 0 : -1;
}

/* A descriptor of path when it is a file of ours nobody else can write
 * (td_open_own) and not empty, else -1. */
static int open_trusted(const char *path)
{
	int fd = td_open_own(path);
	struct stat st;

	if (fd >= 0 && (fstat(fd, &st) || st.st_size <= 0)) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/* Write the object's bytes to a new file named from tmpl (mkstemp's): 0, or -1. */
static int write_object(char *tmpl)
{
	size_t n = 0;
	const char *p = collect_bpf__elf_bytes(&n);
	int fd = mkstemp(tmpl);

	if (fd < 0)
		return -1;
	for (size_t done = 0; done < n;) {
		ssize_t w = write(fd, p + done, n - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			close(fd);
			unlink(tmpl);
			return -1;
		}
		done += (size_t)w;
	}
	close(fd);
	return 0;
}

/* Run bpftool gen min_core_btf into out (a new file; the caller renames it):
 * 0, or -1 with why (bpftool's first line of complaint, or its exit). */
static int run_bpftool(const char *out, const char *obj, char *why, size_t len)
{
	const char *tool = td_kernel_types_bpftool();
	int pipefd[2], status = 0;
	char text[256] = "";
	size_t got = 0;
	pid_t pid;

	if (pipe2(pipefd, O_CLOEXEC))
		return snprintf(why, len, "pipe: %s", strerror(errno)), -1;
	if ((pid = fork()) < 0) {
		snprintf(why, len, "fork: %s", strerror(errno));
		close(pipefd[0]);
		close(pipefd[1]);
		return -1;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);
		if (null >= 0)
			dup2(null, 0), dup2(null, 1);
		dup2(pipefd[1], 2);
		execl(tool, tool, "gen", "min_core_btf", "/sys/kernel/btf/vmlinux", out, obj, (char *)NULL);
		dprintf(2, "cannot run %s: %s\n", tool, strerror(errno));
		_exit(127);
	}
	close(pipefd[1]);
	for (;;) { /* all of it read (a full pipe would stop bpftool), the first line kept */
		char buf[512];
		ssize_t r = read(pipefd[0], buf, sizeof(buf));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		for (ssize_t i = 0; i < r && got + 1 < sizeof(text); i++)
			text[got++] = buf[i];
	}
	close(pipefd[0]);
	struct rusage ru;
	while (wait4(pid, &status, 0, &ru) < 0) {
		if (errno != EINTR)
			return snprintf(why, len, "wait for %s: %s", tool, strerror(errno)), -1;
	}
	made_cpu_ns += (uint64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000u +
		       (uint64_t)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000u;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	text[strcspn(text, "\n")] = 0;
	if (text[0])
		snprintf(why, len, "%s: %s", tool, text);
	else if (WIFEXITED(status))
		snprintf(why, len, "%s exited with %d", tool, WEXITSTATUS(status));
	else
		snprintf(why, len, "%s ended by signal %d", tool, WTERMSIG(status));
	return -1;
}

/* Make path: 0, or -1 with why. Written beside it and renamed: a reader
 * never finds half a file, and two makers at once leave one whole. */
static int make(const char *path, char *why, size_t len)
{
	char obj[4200], out[4200];
	int rc;

	if (snprintf(obj, sizeof(obj), "%s.XXXXXX", path) >= (int)sizeof(obj) ||
	    snprintf(out, sizeof(out), "%s.new.%ld", path, (long)getpid()) >= (int)sizeof(out))
		return snprintf(why, len, "the directory's name is too long"), -1;
	if (write_object(obj))
		return snprintf(why, len, "cannot write the BPF object beside %s: %s", path, strerror(errno)), -1;
	rc = run_bpftool(out, obj, why, len);
	unlink(obj);
	if (rc == 0 && chmod(out, 0644) == 0 && rename(out, path) == 0)
		return 0;
	if (rc == 0)
		snprintf(why, len, "cannot put %s in place: %s", path, strerror(errno));
	unlink(out);
	return -1;
}

int td_kernel_types_take(const char *dir, char *said, size_t len)
{
	char path[4096];

	if (len)
		said[0] = 0;
	if (taken_fd >= 0)
		return 1;
	if (!dir || !*dir || name_of(dir, path, sizeof(path)))
		return 0;
	if ((taken_fd = open_trusted(path)) < 0) {
		if (access(td_kernel_types_bpftool(), X_OK))
			return 0; /* no bpftool: every start parses the kernel's BTF, as without the file */
		if (make(path, said, len))
			return 0;
		if ((taken_fd = open_trusted(path)) < 0)
			return snprintf(said, len, "%s made but not readable as ours", path), 0;
	}
	snprintf(taken_path, sizeof(taken_path), "/proc/self/fd/%d", taken_fd);
	snprintf(taken_name, sizeof(taken_name), "%s", path);
	return 1;
}

/* An offer not yet decided (td_kernel_types_offer) */
static struct {
	bool open, always, have_at;
	double seconds;
	char dir[4096];
	struct td_switch_reading at;
	long own; /* this process's switches then */
	char said[512];
} offer;

/* This process's context switches so far (all its threads'). */
static long own_switches(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_SELF, &ru) ? 0 : ru.ru_nvcsw + ru.ru_nivcsw;
}

void td_kernel_types_offer(const char *dir, double seconds, bool always)
{
	offer.open = dir && *dir;
	offer.always = always;
	offer.seconds = seconds;
	snprintf(offer.dir, sizeof(offer.dir), "%s", dir ? dir : "");
	offer.have_at = td_switch_read(&offer.at) == 0;
	offer.own = own_switches();
	offer.said[0] = 0;
}

const char *td_kernel_types_said(void)
{
	return offer.said;
}

/* Decide the offer: the machine's rate since it, less this process's own
 * switches (each one out and one back in), against the session's length. */
static void decide(void)
{
	struct td_switch_reading now, was = offer.at;

	offer.open = false;
	if (!offer.always) {
		if (td_switch_read(&now))
			return;
		unsigned long long mine = 2ull * (unsigned long long)(own_switches() - offer.own);
		if (offer.have_at && now.ctxt >= was.ctxt)
			was.ctxt += mine < now.ctxt - was.ctxt ? mine : now.ctxt - was.ctxt;
		if (!td_kernel_types_pays(offer.seconds, td_switch_rate(offer.have_at ? &was : NULL, &now)))
			return;
	}
	td_kernel_types_take(offer.dir, offer.said, sizeof(offer.said));
}

const char *td_kernel_types_path(void)
{
	if (offer.open)
		decide();
	return taken_fd >= 0 ? taken_path : NULL;
}

uint64_t td_kernel_types_made_cpu_ns(void)
{
	return made_cpu_ns;
}

void td_kernel_types_failed(void)
{
	struct stat a, b;

	/* removed (the next start makes it again) if it is still the file read */
	if (taken_fd >= 0 && fstat(taken_fd, &a) == 0 && lstat(taken_name, &b) == 0 && a.st_dev == b.st_dev &&
	    a.st_ino == b.st_ino)
		unlink(taken_name);
	if (taken_fd >= 0)
		close(taken_fd);
	taken_fd = -1;
}

bool td_kernel_types_cached(const char *dir, char *name, size_t len)
{
	int fd;

	if (!dir || !*dir || name_of(dir, name, len))
		return false;
	if ((fd = open_trusted(name)) < 0)
		return false;
	close(fd);
	return true;
}
