/* kernel_types_nobpf: without BPF there is no object and no file of its
 * kernel types (kernel_types.h): never taken, never made. */
#include "kernel_types.h"

int td_kernel_types_take(const char *dir, char *said, size_t len)
{
	(void)dir;
	if (len)
		said[0] = 0;
	return 0;
}

void td_kernel_types_offer(const char *dir, double seconds, bool always)
{
	(void)dir;
	(void)seconds;
	(void)always;
}

const char *td_kernel_types_said(void)
{
	return "";
}

const char *td_kernel_types_path(void)
{
	return NULL;
}

uint64_t td_kernel_types_made_cpu_ns(void)
{
	return 0;
}

void td_kernel_types_failed(void)
{
}

bool td_kernel_types_cached(const char *dir, char *name, size_t len)
{
	(void)dir;
	if (len)
		name[0] = 0;
	return false;
}

const char *td_kernel_types_bpftool(void)
{
	return "bpftool";
}
