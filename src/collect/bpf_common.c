/* bpf_common: libbpf's messages, the checks before a load and the reasons a
 * load failed, for every BPF program of topdown (see bpf_common.h). */
#include <bpf/libbpf.h>

#include "bpf_common.h"

#include <errno.h>
#include <malloc.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

static char last_warning[256];

static int quiet_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	static int verbose = -1;

	if (verbose < 0)
		verbose = getenv("TD_BPF_VERBOSE") != NULL;
	if (verbose) {
		/* TD_BPF_VERBOSE: all of libbpf's messages (the verifier's log too), on stderr */
		va_list copy;
		va_copy(copy, ap);
		vfprintf(stderr, fmt, copy);
		va_end(copy);
	}
	if (level == LIBBPF_WARN) {
		size_t n;
		vsnprintf(last_warning, sizeof(last_warning), fmt, ap);
		n = strlen(last_warning);
		while (n && last_warning[n - 1] == '\n')
			last_warning[--n] = '\0';
	}
	return 0;
}

/* libbpf reads and parses the kernel's BTF (/sys/kernel/btf/vmlinux, ~5 MB
 * and 127,000 types here) for every object it loads, into fresh memory it
 * frees when the load ends: glibc maps blocks that large afresh each time
 * and unmaps them on free, so each parse pays ~1,200 page faults again. A
 * session loads one object (bpf_object.h), or two when its tracker and
 * counting program do not load as one; the daemon more (the exec watcher): with large blocks taken from the heap and the heap's top kept when
 * freed, the next parse reuses the memory (the second object of a session
 * loads 7 ms faster here: 20 against 13 ms of CPU). The price: up to
 * TD_BPF_KEEP_BYTES of freed memory stays with the process. */
#define TD_BPF_KEEP_BYTES (64 << 20)

static void keep_btf_memory(void)
{
	static bool done;

	if (done)
		return;
	done = true;
#if defined(M_MMAP_THRESHOLD) && defined(M_TRIM_THRESHOLD) /* glibc's */
	mallopt(M_MMAP_THRESHOLD, TD_BPF_KEEP_BYTES / 2);
	mallopt(M_TRIM_THRESHOLD, TD_BPF_KEEP_BYTES);
#endif
}

void td_bpf_quiet(void)
{
	libbpf_set_print(quiet_print);
	keep_btf_memory();
}

void td_bpf_warning_clear(void)
{
	last_warning[0] = '\0';
}

const char *td_bpf_warning(void)
{
	return last_warning;
}

bool td_bpf_no_btf(td_err *err)
{
	if (access("/sys/kernel/btf/vmlinux", R_OK) == 0)
		return false;
	td_err_set(err, "the kernel has no BTF (/sys/kernel/btf/vmlinux: %s)", strerror(errno));
	return true;
}

bool td_bpf_kernel_at_least(int major, int minor)
{
	struct utsname u;
	int ma = 0, mi = 0;

	if (uname(&u) || sscanf(u.release, "%d.%d", &ma, &mi) != 2)
		return false;
	return ma > major || (ma == major && mi >= minor);
}

bool td_bpf_raw_tp_only(const char *env, td_err *why_btf)
{
	const char *v = getenv(env);

	if (!v || strcmp(v, "raw_tp"))
		return false;
	td_err_set(why_btf, "tp_btf programs not tried (%s=raw_tp)", env);
	return true;
}

void td_bpf_step_failed(td_err *err, bool btf, const char *step, int rc)
{
	td_err_set(err, "%s programs did not %s: %s%s%.200s", btf ? "tp_btf" : "raw_tp", step, strerror(-rc),
		   last_warning[0] ? ": " : "", last_warning);
}

void td_bpf_neither(td_err *err, int err_btf, const td_err *why_btf, int err_raw, const td_err *why_raw)
{
	if (err_btf == -EPERM && err_raw == -EPERM)
		td_err_set(err, "the kernel refused to load BPF programs (EPERM): that needs root, or CAP_BPF and "
				"CAP_PERFMON");
	else
		td_err_set(err, "%s; %s", why_btf->msg, why_raw->msg);
}
