/* perf_group: open, read and close one perf_event group; explain open errors. */
#include "perf_group.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

int td_perf_group_spec_add(struct td_perf_group_spec *s, const char *name, const struct perf_event_attr *attr)
{
	if (s->n >= TD_GROUP_MAX)
		return -1;
	snprintf(s->names[s->n], sizeof(s->names[s->n]), "%s", name);
	s->attrs[s->n] = *attr;
	s->n++;
	return 0;
}

static int perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd, unsigned long flags)
{
	return (int)syscall(SYS_perf_event_open, attr, pid, cpu, group_fd, flags);
}

int td_perf_group_open(struct td_perf_group *g, const struct td_perf_group_spec *s, pid_t tid, int cpu, unsigned flags,
		    int *failed)
{
	memset(g, 0, sizeof(*g));
	for (int i = 0; i < s->n; i++) {
		struct perf_event_attr a = s->attrs[i];
		a.size = sizeof(a);
		a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING |
				PERF_FORMAT_ID;
		a.disabled = 0;
		a.inherit = (flags & TD_OPEN_INHERIT) ? 1 : 0;
		if (i == 0 && (flags & TD_OPEN_DISABLED)) {
			a.disabled = 1;
		} else if (i == 0 && (flags & TD_OPEN_ENABLE_ON_EXEC)) {
			a.disabled = 1;
			a.enable_on_exec = 1;
		}
		int fd = perf_event_open(&a, tid, cpu, i == 0 ? -1 : g->fd[0],
					 PERF_FLAG_FD_CLOEXEC | ((flags & TD_OPEN_CGROUP) ? PERF_FLAG_PID_CGROUP : 0));
		if (fd < 0) {
			int err = errno;
			if (failed)
				*failed = i;
			td_perf_group_close(g);
			return -err;
		}
		g->fd[g->n] = fd;
		if (ioctl(fd, PERF_EVENT_IOC_ID, &g->id[g->n]) != 0)
			g->id[g->n] = 0;
		g->n++;
	}
	return 0;
}

/* Every group read this process made (tdctl's cost per interval). */
static _Atomic uint64_t reads;

uint64_t td_perf_group_reads(void)
{
	return reads;
}

int td_perf_group_read(const struct td_perf_group *g, struct td_reading *r)
{
	uint64_t buf[3 + 2 * TD_GROUP_MAX];
	ssize_t want = (ssize_t)((3 + 2 * (size_t)g->n) * sizeof(uint64_t));
	ssize_t got;

	if (g->n == 0)
		return -EBADF;
	reads++;
	do
		got = read(g->fd[0], buf, sizeof(buf));
	while (got < 0 && errno == EINTR);
	if (got < 0)
		return -errno;
	if (got < want || buf[0] != (uint64_t)g->n)
		return -ENODATA;
	memset(r, 0, sizeof(*r));
	r->enabled = buf[1];
	r->running = buf[2];
	for (int k = 0; k < g->n; k++) {
		uint64_t value = buf[3 + 2 * k], id = buf[4 + 2 * k];
		int slot = k;
		for (int m = 0; m < g->n; m++) /* members come back in the kernel's order: map by id */
			if (g->id[m] && g->id[m] == id) {
				slot = m;
				break;
			}
		r->value[slot] = value;
	}
	return 0;
}

void td_perf_group_close(struct td_perf_group *g)
{
	for (int i = g->n - 1; i >= 0; i--)
		if (g->fd[i] >= 0)
			close(g->fd[i]);
	g->n = 0;
}

int td_perf_group_enable(const struct td_perf_group *g, bool on)
{
	if (g->n == 0)
		return -EBADF;
	if (ioctl(g->fd[0], on ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP) != 0)
		return -errno;
	return 0;
}

int td_perf_group_fd_count(const struct td_perf_group *g)
{
	return g->n;
}

void td_perf_strerror(int err, const char *event, int paranoid, char *buf, size_t len)
{
	switch (err) {
	case ENOENT:
		snprintf(buf, len, "event %s does not exist on this machine (ENOENT): the kernel exposes no PMU that "
			 "counts it; run 'tdctl doctor' to see what can be measured", event);
		break;
	case EOPNOTSUPP:
		snprintf(buf, len, "event %s is not supported here (EOPNOTSUPP): the PMU cannot count it in this "
			 "mode; run 'tdctl doctor'", event);
		break;
	case EACCES:
	case EPERM:
		snprintf(buf, len, "not allowed to count %s (%s): perf_event_paranoid is %d; run as root, grant "
			 "CAP_PERFMON, or lower kernel.perf_event_paranoid (2 allows your own processes in user mode)",
			 event, err == EACCES ? "EACCES" : "EPERM", paranoid);
		break;
	case ESRCH:
		snprintf(buf, len, "the target thread exited before %s could be opened (ESRCH)", event);
		break;
	case EMFILE:
	case ENFILE:
		snprintf(buf, len, "out of file descriptors opening %s (%s): raise 'ulimit -n' or monitor fewer "
			 "threads/events", event, err == EMFILE ? "EMFILE" : "ENFILE");
		break;
	case EINVAL:
		snprintf(buf, len, "the kernel rejected event %s (EINVAL): its encoding or group is invalid on "
			 "this CPU; check the events file with 'tdctl events'", event);
		break;
	case EBUSY:
		snprintf(buf, len, "event %s is busy (EBUSY): another tool holds the counter exclusively", event);
		break;
	case ENOSPC:
		snprintf(buf, len, "no room for event %s (ENOSPC): the kernel has no free slot for it (breakpoint or "
			 "PMU resources in use by other tools); count fewer events or stop the other tool", event);
		break;
	default:
		snprintf(buf, len, "cannot open event %s: %s", event, strerror(err));
	}
}
