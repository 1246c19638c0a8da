/* kernel_types_pays: whether a session pays less with this boot's kernel
 * types file than without (kernel_types.h): what it saves at the start
 * against what its raw_tp programs add to the machine's context switches,
 * at the machine's rate read from /proc/stat. Built with and without BPF
 * (without, the file is never taken anyway). */
#include "kernel_types.h"
#include "machine/procfs.h"

#include <stdint.h>
#include <time.h>

bool td_kernel_types_pays(double seconds, double switches_per_s)
{
	if (!(seconds > 0) || !(switches_per_s >= 0))
		return false; /* open-ended, or the machine's rate unknown */
	return seconds * switches_per_s * TD_KERNEL_TYPES_SWITCH_EXTRA_NS <= TD_KERNEL_TYPES_START_SAVED_NS;
}

int td_switch_read(struct td_switch_reading *r)
{
	struct timespec ts;
	uint64_t n;

	if (td_proc_switches(&n) || clock_gettime(CLOCK_BOOTTIME, &ts))
		return -1;
	r->ctxt = n;
	r->at = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
	return 0;
}

double td_switch_rate(const struct td_switch_reading *a, const struct td_switch_reading *b)
{
	if (a && b->at - a->at >= TD_SWITCH_WINDOW_MIN_S && b->ctxt >= a->ctxt)
		return (double)(b->ctxt - a->ctxt) / (b->at - a->at);
	return b->at > 0 ? (double)b->ctxt / b->at : -1;
}
