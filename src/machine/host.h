/* host: where facts about this machine are read from. Every description of
 * the host (/proc/cpuinfo, /sys/devices/system/cpu, /sys/bus/event_source,
 * /proc/sys/kernel/perf_event_*, mounts, BTF, the CPUID hypervisor leaf) is
 * read under a root that tests replace with a recorded host tree
 * (TD_SYSROOT=tests/data/hosts/NAME), and the libpfm4 model can be forced
 * (TD_PFM_MODEL). Live process state (/proc/PID) is not a host description
 * and is always read from the real /proc. */
#ifndef TD_HOST_H
#define TD_HOST_H

#include <stdbool.h>
#include <stddef.h>

#include "base/util.h"

/* The root host facts are read under: $TD_SYSROOT, or "" for this host. */
const char *td_host_root(void);
/* Is a recorded host tree standing in for this host? */
bool td_host_is_fixture(void);
/* buf = root + path (path absolute). 0, or -ENAMETOOLONG when it does not fit. */
int td_host_path(char *buf, size_t len, const char *path);
/* The libpfm4 model forced by $TD_PFM_MODEL ("none": libpfm4 knows no model
 * here), or NULL when libpfm4's own detection decides. Under a host tree
 * without TD_PFM_MODEL the model is "none": the real CPU is not the tree's. */
const char *td_host_forced_pfm_model(void);

/* The longest perf_event_mux_interval_ms of the host's PMUs: how much of a
 * context's time passes between two rotations of its flexible groups; the
 * kernel's default is 1000 / HZ (PERF_CPU_HRTIMER, linux 6.12.117
 * kernel/events/core.c). Unreadable: TD_MUX_INTERVAL_UNKNOWN_MS, HZ=100's,
 * the longest default. */
#define TD_MUX_INTERVAL_UNKNOWN_MS 10
int td_host_mux_interval_ms(void);

/* The online CPUs (sysfs list syntax, e.g. "0-3,5") as a malloc'd array in
 * *cpus. Returns their number, or -errno: a thin wrapper of the system call
 * (reading /sys/devices/system/cpu/online; -EINVAL if it is no CPU list). */
int td_host_online_cpus(int **cpus);
/* A topology attribute of a CPU (core_id, physical_package_id), -1 if unknown. */
int td_host_cpu_topology(int cpu, const char *what);
/* Parse a CPU list ("0-3,5": sysfs's syntax, or the user's --cpu) into a
 * malloc'd array. Their count, or -1 with err (NULL: none wanted) naming the
 * list and where it went wrong. */
int td_parse_cpu_list(const char *list, int **cpus, td_err *err);

#endif
