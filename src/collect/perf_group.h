/* perf_group: one perf_event group on one thread or CPU — open (leader first),
 * read with PERF_FORMAT_GROUP | TOTAL_TIME_ENABLED | TOTAL_TIME_RUNNING | ID,
 * close — and the user-facing explanation of perf_event_open errors. */
#ifndef TD_PERF_GROUP_H
#define TD_PERF_GROUP_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#define TD_GROUP_MAX 24 /* the largest group x86 takes: Sapphire Rapids 8 + 4 fixed + 8 PERF_METRICS events (linux 6.12.117 arch/x86/events/core.c:1147, collect_event) */

/* What to open: the events of one group, leader first. */
struct td_perf_group_spec {
	int n;
	char names[TD_GROUP_MAX][64];
	struct perf_event_attr attrs[TD_GROUP_MAX];
};

struct td_perf_group {
	int n;
	int fd[TD_GROUP_MAX];
	uint64_t id[TD_GROUP_MAX];
};

/* Cumulative counts of one group as the kernel reports them. */
struct td_reading {
	uint64_t enabled, running;
	uint64_t value[TD_GROUP_MAX];
};

/* ENABLE_ON_EXEC: the leader starts disabled and is enabled when the thread
 * execs; DISABLED: the leader starts disabled (enabled later by ioctl). */
/* CGROUP: tid is the fd of a cgroup directory (PERF_FLAG_PID_CGROUP; cpu >= 0). */
/* TD_OPEN_INHERIT: the group is inherited by threads and processes the
 * task creates from then on; reading it gives theirs summed in (live and
 * exited), from their first instruction. */
enum { TD_OPEN_ENABLE_ON_EXEC = 1, TD_OPEN_DISABLED = 2, TD_OPEN_CGROUP = 4, TD_OPEN_INHERIT = 8 };

/* Add an event to a spec. Returns 0 or -1 when the group is full. */
int td_perf_group_spec_add(struct td_perf_group_spec *s, const char *name, const struct perf_event_attr *attr);

/* Open every member on tid (pid semantics of perf_event_open) and cpu.
 * Returns 0, or -errno with *failed set to the member that failed. */
int td_perf_group_open(struct td_perf_group *g, const struct td_perf_group_spec *s, pid_t tid, int cpu, unsigned flags,
		    int *failed);
/* Group reads this process has made so far (each one read(2) of a leader). */
uint64_t td_perf_group_reads(void);
/* Read the group. Returns 0 or -errno (-ENODATA for a short read). */
int td_perf_group_read(const struct td_perf_group *g, struct td_reading *r);
void td_perf_group_close(struct td_perf_group *g);
/* Enable or disable the whole group (PERF_EVENT_IOC_ENABLE/DISABLE on the
 * leader with PERF_IOC_FLAG_GROUP). Returns 0 or -errno. */
int td_perf_group_enable(const struct td_perf_group *g, bool on);
int td_perf_group_fd_count(const struct td_perf_group *g);

/* One line saying why perf_event_open failed for event and what to do. */
void td_perf_strerror(int err, const char *event, int paranoid, char *buf, size_t len);

#endif
