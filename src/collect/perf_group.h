/* perf_group: one perf_event group on one thread or CPU — open (leader first),
 * read with PERF_FORMAT_GROUP | TOTAL_TIME_ENABLED | TOTAL_TIME_RUNNING | ID,
 * close — the split of a group the kernel refuses as unschedulable into
 * smaller groups (perf stat's weak groups, done with fewer groups), and the
 * user-facing explanation of perf_event_open errors. */
#ifndef TD_PERF_GROUP_H
#define TD_PERF_GROUP_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#define TD_GROUP_MAX \
	24 /* the largest group x86 takes: Sapphire Rapids 8 + 4 fixed + 8 PERF_METRICS events (linux 6.12.117 arch/x86/events/core.c:1147, collect_event) */

/* What to open: the events of one group, leader first. sub[i]: the perf
 * group member i is opened in — 0 for every member (one group) unless the
 * kernel refused the group and td_perf_group_split divided it: then the
 * members of each part are consecutive, numbered 0, 1, ... in order, and
 * each part's first member leads its own group. */
struct td_perf_group_spec {
	int n;
	char names[TD_GROUP_MAX][64];
	struct perf_event_attr attrs[TD_GROUP_MAX];
	uint8_t sub[TD_GROUP_MAX];
};

struct td_perf_group {
	int n;
	int fd[TD_GROUP_MAX];
	uint64_t id[TD_GROUP_MAX];
	uint8_t sub[TD_GROUP_MAX]; /* the spec's, as opened */
	bool split;		   /* more than one part */
};

/* Cumulative counts of one group as the kernel reports them. A split
 * group's parts run in their own time windows: member i's enabled and
 * running are its part's, m_enabled[i] and m_running[i] (enabled and
 * running are then the first part's). */
struct td_reading {
	uint64_t enabled, running;
	uint64_t value[TD_GROUP_MAX];
	bool split;
	uint64_t m_enabled[TD_GROUP_MAX], m_running[TD_GROUP_MAX];
};

/* ENABLE_ON_EXEC: the leader starts disabled and is enabled when the thread
 * execs; DISABLED: the leader starts disabled (enabled later by ioctl). */
/* CGROUP: tid is the fd of a cgroup directory (PERF_FLAG_PID_CGROUP; cpu >= 0). */
/* TD_OPEN_INHERIT: the group is inherited by threads and processes the
 * task creates from then on; reading it gives theirs summed in (live and
 * exited), from their first instruction. */
enum {
	TD_OPEN_ENABLE_ON_EXEC = 1,
	TD_OPEN_DISABLED = 2,
	TD_OPEN_CGROUP = 4,
	TD_OPEN_INHERIT = 8
};

/* Add an event to a spec. Returns 0 or -1 when the group is full. */
int td_perf_group_spec_add(struct td_perf_group_spec *s, const char *name, const struct perf_event_attr *attr);

/* Open every member on tid (pid semantics of perf_event_open) and cpu, in
 * the parts s->sub says (each part's leader gets the flags meant for the
 * leader). Returns 0, or -errno with *failed set to the member that failed:
 * a thin wrapper of the system call (perf_event_open; td_perf_strerror says
 * it to the user). */
int td_perf_group_open(struct td_perf_group *g, const struct td_perf_group_spec *s, pid_t tid, int cpu, unsigned flags,
		       int *failed);
/* Group reads this process has made so far (each one read(2) of a leader). */
uint64_t td_perf_group_reads(void);
/* Read the group. Returns 0 or -errno (-ENODATA for a short read): a thin
 * wrapper of the system call (read). */
int td_perf_group_read(const struct td_perf_group *g, struct td_reading *r);
void td_perf_group_close(struct td_perf_group *g);
/* Enable or disable the whole group (PERF_EVENT_IOC_ENABLE/DISABLE on the
 * leader with PERF_IOC_FLAG_GROUP). Returns 0 or -errno: a thin wrapper of
 * the system call (ioctl). */
int td_perf_group_enable(const struct td_perf_group *g, bool on);
int td_perf_group_fd_count(const struct td_perf_group *g);

/* The number of groups a spec is opened as (1 + its last sub). */
int td_perf_group_parts(const struct td_perf_group_spec *s);

/* Does -err refused at member `failed` (0 = the leader) say the group is not
 * schedulable, rather than the event not countable? The x86 kernel checks
 * a group each time a member is added (validate_group, linux 6.12.117
 * arch/x86/events/core.c:2394, called from x86_pmu_event_init at :2465 for a
 * member that is not its own leader), and refuses with EINVAL when its
 * events cannot all have counters at once (x86_schedule_events); ENOSPC
 * where a PMU has no slot for the member. A leader refused alone is the
 * event itself. */
bool td_perf_group_unschedulable(int err, int failed);

/* Try members [first, first + n) of s as one group (opened and closed
 * again): 0, or -errno with *failed the member refused, counted from first
 * (0 .. n-1). */
typedef int (*td_group_try_fn)(void *ctx, const struct td_perf_group_spec *s, int first, int n, int *failed);

/* The kernel refused s as one group (td_perf_group_unschedulable): divide
 * it into the fewest groups of consecutive members that each open, keeping
 * the plan's order — each part the longest run from its first member the
 * kernel takes (it checks a group member by member, so the members before
 * the refused one form a group it takes, and any run of fewer members does
 * too: a subset of schedulable events is schedulable). perf stat instead
 * reopens every member of a failed weak group as its own leader
 * (tools/perf/builtin-stat.c:775-781, evlist__reset_weak_group in
 * util/evlist.c:1907, reopened at builtin-stat.c:815). Sets s->sub and
 * returns the number of parts, or -errno with *failed the member refused
 * even where it leads its part (the event itself cannot be counted; s->sub
 * then unchanged): perf_event_open's own, passed on as by a thin wrapper of
 * the system call, for its caller to tell apart (td_perf_strerror). */
int td_perf_group_split(struct td_perf_group_spec *s, td_group_try_fn try_open, void *ctx, int *failed);
/* A td_group_try_fn's work: members [first, first + n) of s as one group
 * on tid (pid semantics of perf_event_open) and cpu, opened disabled
 * (nothing counts; flags beside TD_OPEN_DISABLED as for td_perf_group_open)
 * and closed again. 0, or -errno with *failed the member refused, as
 * td_perf_group_open (a thin wrapper of the system call). */
int td_perf_group_try_part(const struct td_perf_group_spec *s, int first, int n, pid_t tid, int cpu, unsigned flags,
			   int *failed);

/* "2 groups of 4 and 4 events": the parts s (split: its sub set) is opened
 * in. TD_GROUP_MAX (24) parts of two digits fit in 128 bytes. */
void td_perf_group_parts_say(const struct td_perf_group_spec *s, char *buf, size_t len);
/* Why s (split: its sub set) is counted in parts, in one line: "the kernel
 * refused it: Invalid argument (EINVAL) at its event 5 of 8, NAME (...);
 * counted as 2 groups of 4 and 4 events". err and at: the refusal of the
 * whole group. */
void td_perf_group_split_why(const struct td_perf_group_spec *s, int err, int at, char *buf, size_t len);

/* One line saying why perf_event_open failed for event and what to do. */
void td_perf_strerror(int err, const char *event, int paranoid, char *buf, size_t len);

#endif
