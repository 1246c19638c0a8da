/* encode: turns an event string of an events file into a perf_event_attr —
 * libpfm4 strings (optionally for another PMU model than the host's), perf's
 * raw PMU form `cpu/event=0x9c,umask=0x1,cmask=4/` resolved through sysfs
 * format files (with built-in x86 and Arm formats when the host has no such
 * PMU), and perf's `rNNNN` raw form. */
#ifndef TD_ENCODE_H
#define TD_ENCODE_H

#include <linux/perf_event.h>
#include <stdbool.h>

#include "base/util.h"

struct td_encoding {
	struct perf_event_attr attr;
	char pmu[64];	   /* libpfm4 PMU or sysfs PMU name that encoded it */
	bool raw_form;	   /* came from a PMU/term=val/ or rNNNN string */
	bool type_unknown; /* a dynamic PMU (msr) absent here: attr.type is TD_TYPE_UNKNOWN */
};

#define TD_TYPE_UNKNOWN 0xffffffffu

/* Encode evstr. model: libpfm4 model to encode for (NULL or "" = as the host
 * would; a raw cpu/.../ form for an AMD model, amd64_*, takes AMD's kernel
 * format whatever the host's sysfs says); kernel: count kernel mode too.
 * Returns 0, or -1 with err set. */
int td_encode(const char *evstr, const char *model, bool kernel, struct td_encoding *enc, td_err *err);

/* Root of the sysfs PMU tree; tests point it at a fixture directory. */
void td_encode_set_sysfs_root(const char *dir);

#endif
