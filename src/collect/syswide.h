/* syswide: system-wide counting — the same group specs opened once per
 * online CPU (pid = -1, cpu = N), each CPU's core and socket from sysfs
 * topology, read every interval into deltas handed to a callback. A group
 * other than the first that the machine cannot count (ENOENT, EOPNOTSUPP,
 * EINVAL, ENODEV) on the first CPU is disabled for all, with the reason;
 * one it refuses as not schedulable is opened in parts on every CPU. */
#ifndef TD_SYSWIDE_H
#define TD_SYSWIDE_H

#include <stdbool.h>
#include <stdint.h>

#include "collector.h"
#include "perf_group.h"
#include "interval.h"
#include "base/util.h"

struct td_cpu_slot {
	int cpu, core, socket; /* core/socket -1 when unknown */
	int64_t store_id;      /* the caller's handle (targets row) */
	struct td_perf_group groups[TD_MAX_SPECS];
	bool open[TD_MAX_SPECS];
	struct td_reading prev[TD_MAX_SPECS], last[TD_MAX_SPECS];
	bool have_last[TD_MAX_SPECS];
};

struct td_syswide;

/* One line saying why this process may not count system-wide, or NULL. */
const char *td_syswide_refusal(bool root, bool cap_perfmon, bool cap_sys_admin, int paranoid, char *buf, size_t len);

/* Open specs on every online CPU; cgroup_fd >= 0: count only tasks of that
 * cgroup (perf's cgroup mode: pid = the cgroup directory's fd,
 * PERF_FLAG_PID_CGROUP). -1 with a one-line err when the first group cannot
 * be opened. */
/* only[0..nonly) (NULL: every online CPU): the CPUs to count, each of
 * which must be online. */
int td_syswide_open(const struct td_perf_group_spec *specs, int nspecs, int paranoid, int cgroup_fd, const int *only,
		    int nonly, struct td_syswide **out, td_err *err);
/* The directory of a cgroup named by the user: an absolute path to it, or a
 * path inside the cgroup v2 mount (or the v1 perf_event mount) as perf -G
 * takes it. Returns an O_DIRECTORY fd, or -1 with a one-line err. */
int td_cgroup_open(const char *path, char *resolved, size_t len, td_err *err);
/* A cgroup named as td_cgroup_open takes it, as /proc/PID/cgroup names it:
 * the path inside the cgroup v2 mount, from '/', without a trailing '/'.
 * Only the text is resolved: the cgroup need not exist yet. 0, or -1 with err. */
int td_cgroup_relative(const char *path, char *out, size_t len, td_err *err);
void td_syswide_free(struct td_syswide *w);
int td_syswide_ncpus(const struct td_syswide *w);
struct td_cpu_slot *td_syswide_cpu(struct td_syswide *w, int i);
const char *td_syswide_disabled(const struct td_syswide *w, int spec);
/* Why spec is counted in parts (the first CPU's kernel refused it as one
 * group: td_perf_group_split), or NULL; *sub: each member's part. */
const char *td_syswide_split(const struct td_syswide *w, int spec, const uint8_t **sub);

typedef int (*td_cpu_counts_fn)(void *ctx, struct td_cpu_slot *cpu, int spec, const struct td_count *c, int n);
/* Read every CPU's groups and deliver the deltas since the last commit
 * (as the collector does: a failed write loses no count). */
int td_syswide_sample(struct td_syswide *w, td_cpu_counts_fn fn, void *ctx);
/* The caller kept the last sample: its readings become the baselines. */
void td_syswide_commit(struct td_syswide *w);
/* The caller could not keep it: store_ids above `above` go back to 0. */
void td_syswide_forget_ids(struct td_syswide *w, int64_t above);

#endif
