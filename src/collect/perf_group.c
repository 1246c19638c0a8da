/* perf_group: open, read and close one perf_event group (in parts when the
 * kernel refused it whole: td_perf_group_split); explain open errors. */
#include "perf_group.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
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
	int leader = -1;

	memset(g, 0, sizeof(*g));
	for (int i = 0; i < s->n; i++) {
		struct perf_event_attr a = s->attrs[i];
		bool leads = i == 0 || s->sub[i] != s->sub[i - 1];
		a.size = sizeof(a);
		a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING |
				PERF_FORMAT_ID;
		a.disabled = 0;
		a.inherit = (flags & TD_OPEN_INHERIT) ? 1 : 0;
		if (leads && (flags & TD_OPEN_DISABLED)) {
			a.disabled = 1;
		} else if (leads && (flags & TD_OPEN_ENABLE_ON_EXEC)) {
			a.disabled = 1;
			a.enable_on_exec = 1;
		}
		int fd = perf_event_open(&a, tid, cpu, leads ? -1 : g->fd[leader],
					 PERF_FLAG_FD_CLOEXEC | ((flags & TD_OPEN_CGROUP) ? PERF_FLAG_PID_CGROUP : 0));
		if (fd < 0) {
			int err = errno;
			if (failed)
				*failed = i;
			td_perf_group_close(g);
			return -err;
		}
		if (leads)
			leader = i;
		g->fd[g->n] = fd;
		g->sub[g->n] = s->sub[i];
		g->split |= s->sub[i] != 0;
		if (ioctl(fd, PERF_EVENT_IOC_ID, &g->id[g->n]) != 0)
			g->id[g->n] = 0;
		g->n++;
	}
	return 0;
}

int td_perf_group_parts(const struct td_perf_group_spec *s)
{
	return s->n > 0 ? s->sub[s->n - 1] + 1 : 0;
}

bool td_perf_group_unschedulable(int err, int failed)
{
	return failed > 0 && (err == EINVAL || err == ENOSPC);
}

int td_perf_group_split(struct td_perf_group_spec *s, td_group_try_fn try_open, void *ctx, int *failed)
{
	uint8_t sub[TD_GROUP_MAX];
	int first = 0, part = 0;

	while (first < s->n) {
		int bad = 0, rc = try_open(ctx, s, first, s->n - first, &bad);
		int take = rc == 0 ? s->n - first : bad;
		if (rc != 0 && !td_perf_group_unschedulable(-rc, bad)) {
			*failed = first + bad;
			return rc < 0 ? rc : -EINVAL;
		}
		/* the members before the refused one: a group the kernel took */
		for (int i = first; i < first + take; i++)
			sub[i] = (uint8_t)part;
		first += take;
		part++;
	}
	/* the same number of parts, as even as they come (the first ones a
	 * member longer), where each opens: a part the kernel takes with a
	 * counter to spare still runs when one is held elsewhere (the NMI
	 * watchdog's: validate_group checks against an empty PMU) */
	if (part > 1) {
		uint8_t even[TD_GROUP_MAX];
		bool ok = true;
		for (int p = 0, at = 0; p < part && ok; p++) {
			int len = s->n / part + (p < s->n % part), bad;
			ok = try_open(ctx, s, at, len, &bad) == 0;
			memset(even + at, p, (size_t)len);
			at += len;
		}
		if (ok)
			memcpy(sub, even, (size_t)s->n);
	}
	memcpy(s->sub, sub, (size_t)s->n);
	return part;
}

/* Every group read this process made (tdctl's cost per interval). */
static _Atomic uint64_t reads;

uint64_t td_perf_group_reads(void)
{
	return reads;
}

/* Read the part led by member `lead` (its members lead .. end-1) into r. */
static int read_part(const struct td_perf_group *g, int lead, int end, struct td_reading *r)
{
	uint64_t buf[3 + 2 * TD_GROUP_MAX];
	int n = end - lead;
	ssize_t want = (ssize_t)((3 + 2 * (size_t)n) * sizeof(uint64_t));
	ssize_t got;

	reads++;
	do
		got = read(g->fd[lead], buf, sizeof(buf));
	while (got < 0 && errno == EINTR);
	if (got < 0)
		return -errno;
	if (got < want || buf[0] != (uint64_t)n)
		return -ENODATA;
	if (lead == 0) {
		r->enabled = buf[1];
		r->running = buf[2];
	}
	for (int k = 0; k < n; k++) {
		uint64_t value = buf[3 + 2 * k], id = buf[4 + 2 * k];
		int slot = lead + k;
		for (int m = lead; m < end; m++) /* members come back in the kernel's order: map by id */
			if (g->id[m] && g->id[m] == id) {
				slot = m;
				break;
			}
		r->value[slot] = value;
	}
	for (int m = lead; m < end; m++) {
		r->m_enabled[m] = buf[1];
		r->m_running[m] = buf[2];
	}
	return 0;
}

int td_perf_group_read(const struct td_perf_group *g, struct td_reading *r)
{
	struct td_reading got;

	if (g->n == 0)
		return -EBADF;
	memset(&got, 0, sizeof(got));
	got.split = g->split;
	for (int lead = 0, end; lead < g->n; lead = end) {
		int rc;
		for (end = lead + 1; end < g->n && g->sub[end] == g->sub[lead]; end++)
			;
		if ((rc = read_part(g, lead, end, &got)) != 0)
			return rc;
	}
	*r = got;
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
	for (int i = 0; i < g->n; i++)
		if ((i == 0 || g->sub[i] != g->sub[i - 1]) &&
		    ioctl(g->fd[i], on ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP) != 0)
			return -errno;
	return 0;
}

int td_perf_group_fd_count(const struct td_perf_group *g)
{
	return g->n;
}

void td_perf_group_parts_say(const struct td_perf_group_spec *s, char *buf, size_t len)
{
	int parts = td_perf_group_parts(s), used = snprintf(buf, len, "%d groups of ", parts);

	for (int p = 0; p < parts && used > 0 && (size_t)used < len; p++) {
		int n = 0;
		for (int i = 0; i < s->n; i++)
			n += s->sub[i] == p;
		used += snprintf(buf + used, len - (size_t)used, "%d%s", n,
				 p == parts - 1	  ? " events"
				 : p == parts - 2 ? " and "
						  : ", ");
	}
}

void td_perf_group_split_why(const struct td_perf_group_spec *s, int err, int at, char *buf, size_t len)
{
	char parts[128];

	td_perf_group_parts_say(s, parts, sizeof(parts));
	snprintf(buf, len, "the kernel refused it: %s (%s at its event %d of %d, %.64s: %s); counted as %s",
		 strerror(err),
		 err == EINVAL	 ? "EINVAL"
		 : err == ENOSPC ? "ENOSPC"
				 : "errno",
		 at + 1, s->n, s->names[at],
		 err == EINVAL ? "its events cannot all have counters at once" : "the PMU had no slot for it", parts);
}

void td_perf_strerror(int err, const char *event, int paranoid, char *buf, size_t len)
{
	switch (err) {
	case ENOENT:
		snprintf(buf, len,
			 "event %s does not exist on this machine (ENOENT): the kernel exposes no PMU that "
			 "counts it; run 'tdctl doctor' to see what can be measured",
			 event);
		break;
	case EOPNOTSUPP:
		snprintf(buf, len,
			 "event %s is not supported here (EOPNOTSUPP): the PMU cannot count it in this "
			 "mode; run 'tdctl doctor'",
			 event);
		break;
	case EACCES:
	case EPERM:
		snprintf(buf, len,
			 "not allowed to count %s (%s): perf_event_paranoid is %d; run as root, grant "
			 "CAP_PERFMON, or lower kernel.perf_event_paranoid (2 allows your own processes in user mode)",
			 event, err == EACCES ? "EACCES" : "EPERM", paranoid);
		break;
	case ESRCH:
		snprintf(buf, len, "the target thread exited before %s could be opened (ESRCH)", event);
		break;
	case EMFILE:
	case ENFILE:
		snprintf(buf, len,
			 "out of file descriptors opening %s (%s): raise 'ulimit -n' or monitor fewer "
			 "threads/events",
			 event, err == EMFILE ? "EMFILE" : "ENFILE");
		break;
	case EINVAL:
		snprintf(buf, len,
			 "the kernel rejected event %s (EINVAL): its encoding or group is invalid on "
			 "this CPU; check the events file with 'tdctl events'",
			 event);
		break;
	case EBUSY:
		snprintf(buf, len, "event %s is busy (EBUSY): another tool holds the counter exclusively", event);
		break;
	case ENOSPC:
		snprintf(buf, len,
			 "no room for event %s (ENOSPC): the kernel has no free slot for it (breakpoint or "
			 "PMU resources in use by other tools); count fewer events or stop the other tool",
			 event);
		break;
	default:
		snprintf(buf, len, "cannot open event %s: %s", event, strerror(err));
	}
}

int td_perf_group_try_part(const struct td_perf_group_spec *s, int first, int n, pid_t tid, int cpu, unsigned flags,
			   int *failed)
{
	struct td_perf_group_spec *part = calloc(1, sizeof(*part)); /* TD_GROUP_MAX attrs: not on the stack */
	struct td_perf_group pg;
	int rc;

	if (!part)
		return -ENOMEM;
	part->n = n;
	memcpy(part->names, s->names + first, (size_t)n * sizeof(s->names[0]));
	memcpy(part->attrs, s->attrs + first, (size_t)n * sizeof(s->attrs[0]));
	rc = td_perf_group_open(&pg, part, tid, cpu, flags | TD_OPEN_DISABLED, failed);
	if (rc == 0)
		td_perf_group_close(&pg);
	free(part);
	return rc;
}
