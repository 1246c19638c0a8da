/* sampling: the sampled event on a process's threads, one ring buffer per
 * online CPU, drained by the caller (sampling.h). The kernel's side, as read
 * from Debian's linux-source-6.12:
 *  - include/uapi/linux/perf_event.h:734 (struct perf_event_mmap_page): the
 *    kernel writes data_head, user space data_tail; records follow the first
 *    page, each a perf_event_header, wrapping at the end of the data pages;
 *  - kernel/events/core.c:6660: an inherited event opened with cpu == -1
 *    cannot be mmapped, so each event is opened per CPU;
 *  - kernel/events/core.c:12680: PERF_EVENT_IOC_SET_OUTPUT only between
 *    events of one CPU: a thread's event on CPU c writes to CPU c's buffer;
 *  - kernel/events/ring_buffer.c:169: inherited events (threads and
 *    children born later) write to their parent's buffer;
 *  - include/uapi/linux/perf_event.h:898 PERF_RECORD_LOST {id, lost},
 *    :1112 PERF_RECORD_LOST_SAMPLES {lost}, :931 PERF_RECORD_THROTTLE;
 *  - kernel/events/ring_buffer.c:160-181, 262-264: a sample that finds the
 *    buffer full is counted in the (parent) event's lost_samples, and the
 *    PERF_RECORD_LOST saying so is written only at the next sample that
 *    finds room — after the last drain, never; so the loss is read from
 *    each event with read_format PERF_FORMAT_LOST (core.c:5816, Linux 6.0;
 *    on older kernels the records alone count it);
 *    :1042 PERF_RECORD_SAMPLE with sample_type IP|TID[|CALLCHAIN]: {u64 ip;
 *    u32 pid, tid; [u64 nr; u64 ips[nr]]}, the callchain's entries at or
 *    above PERF_CONTEXT_MAX (:1266) marking where kernel and user frames
 *    begin;
 *  - kernel/events/core.c:12895-12901, 12939: with PERF_FLAG_PID_CGROUP
 *    the pid argument is a cgroup directory's fd and the event per CPU:
 *    it counts (samples) whichever of the cgroup's tasks runs there. */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "machine/host.h"
#include "machine/procfs.h"
#include "sampling.h"

struct ring {
	int cpu;
	int fd; /* the first event opened on the CPU: the one mmapped */
	struct perf_event_mmap_page *page;
	size_t data_size;
};

struct td_sampling {
	struct ring *rings;
	int nrings;
	int *fds; /* every event opened (the rings' first ones among them) */
	int nfds;
	size_t map_len;
	struct td_sampling_stats st;
	unsigned char *scratch; /* a record that wraps round the end of the buffer, copied whole */
	bool callchain;
	bool lost_readable;    /* the events were opened with PERF_FORMAT_LOST */
	uint64_t lost_records; /* what PERF_RECORD_LOST and _LOST_SAMPLES said */
	uint64_t chain[TD_SAMPLING_MAX_STACK];
	int map_errno;	     /* the event opened but its ring buffer could not be mapped (0: none) */
	unsigned long flags; /* perf_event_open's: PERF_FLAG_PID_CGROUP for a cgroup */
};

/* thin wrapper of the system call: the descriptor or -errno */
static int event_open(struct perf_event_attr *a, pid_t pid, int cpu, int group, unsigned long flags)
{
	long fd = syscall(SYS_perf_event_open, a, pid, cpu, group, PERF_FLAG_FD_CLOEXEC | flags);
	return fd < 0 ? -errno : (int)fd;
}

static void fill_attr(const struct td_sampling_opts *o, struct perf_event_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = o->type;
	a->config = o->config;
	a->config1 = o->config1;
	a->sample_period = o->period; /* a union with sample_freq */
	a->freq = o->freq;
	a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | (o->callchain > 0 ? PERF_SAMPLE_CALLCHAIN : 0);
	if (o->callchain > 0) {
		a->sample_max_stack =
			(uint16_t)(o->callchain < TD_SAMPLING_MAX_STACK ? o->callchain : TD_SAMPLING_MAX_STACK);
		a->exclude_callchain_kernel = o->exclude_kernel;
	}
	a->disabled = o->enable_on_exec;
	a->enable_on_exec = o->enable_on_exec;
	a->inherit = 1;
	a->exclude_kernel = o->exclude_kernel;
	a->exclude_hv = 1;
	a->exclude_guest = 1;
	a->read_format = PERF_FORMAT_LOST;
}

static int open_on(struct td_sampling *s, struct perf_event_attr *a, pid_t tid)
{
	for (int r = 0; r < s->nrings; r++) {
		struct ring *ring = &s->rings[r];
		int fd = event_open(a, tid, ring->cpu, -1, s->flags);
		if (fd == -EINVAL && a->read_format) { /* before Linux 6.0: no PERF_FORMAT_LOST */
			a->read_format = 0;
			fd = event_open(a, tid, ring->cpu, -1, s->flags);
		}
		if (fd < 0)
			return fd;
		s->lost_readable = a->read_format != 0;
		int *slot = td_array_push(&s->fds, &s->nfds, sizeof(int));
		if (!slot) {
			close(fd);
			return -ENOMEM;
		}
		*slot = fd;
		if (ring->fd < 0) {
			void *p = mmap(NULL, s->map_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
			if (p == MAP_FAILED)
				return -(s->map_errno = errno);
			ring->fd = fd;
			ring->page = p;
		} else if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, ring->fd) != 0) {
			return -errno;
		}
	}
	return 0;
}

static bool opened(const pid_t *done, int n, pid_t tid)
{
	for (int i = 0; i < n; i++)
		if (done[i] == tid)
			return true;
	return false;
}

/* Every thread of pid, rescanned until a scan finds none new, at most
 * OPEN_ROUNDS times (a thread born from a thread already opened inherits
 * the event: a second scan finds those born from the others meanwhile; the
 * bound keeps a process that makes threads all the time from holding us). */
#define OPEN_ROUNDS 4
static int open_threads(struct td_sampling *s, struct perf_event_attr *a, pid_t pid)
{
	pid_t *done = NULL;
	int ndone = 0, rc = 0;
	bool added = true;

	for (int round = 0; added && rc == 0 && round < OPEN_ROUNDS; round++) {
		pid_t *tids = NULL;
		int n = td_proc_tasks(pid, &tids);
		added = false;
		if (n < 0) {
			rc = n;
			break;
		}
		for (int i = 0; i < n && rc == 0; i++) {
			if (opened(done, ndone, tids[i]))
				continue;
			pid_t *slot = td_array_push(&done, &ndone, sizeof(pid_t));
			if (!slot) {
				rc = -ENOMEM;
				break;
			}
			*slot = tids[i];
			added = true;
			rc = open_on(s, a, tids[i]);
			if (rc == -ESRCH) /* gone meanwhile */
				rc = 0;
		}
		free(tids);
	}
	free(done);
	return rc;
}

/* A sampling of o's event on pid (cgroup: the fd of a cgroup's directory):
 * its rings, one per online CPU, and every event opened. */
static int sampling_open(const struct td_sampling_opts *o, pid_t pid, bool all_threads, bool cgroup,
			 struct td_sampling **out, td_err *err)
{
	struct td_sampling *s = calloc(1, sizeof(*s));
	struct perf_event_attr a;
	int *cpus = NULL, ncpus, pages = o->pages ? o->pages : TD_SAMPLING_PAGES, rc;
	long psz = sysconf(_SC_PAGESIZE);
	char what[32];

	*out = NULL;
	if (pages & (pages - 1))
		pages = TD_SAMPLING_PAGES;
	if (!s) {
		td_err_set(err, "out of memory");
		return -1;
	}
	ncpus = td_host_online_cpus(&cpus);
	if (ncpus <= 0) {
		td_err_set(err, "cannot list the online CPUs (/sys/devices/system/cpu/online) to sample on");
		free(s);
		return -1;
	}
	s->rings = calloc((size_t)ncpus, sizeof(*s->rings));
	s->map_len = (size_t)(pages + 1) * (size_t)psz;
	s->scratch = malloc((size_t)pages * (size_t)psz);
	if (!s->rings || !s->scratch) {
		free(cpus);
		td_sampling_free(s);
		td_err_set(err, "out of memory");
		return -1;
	}
	for (int i = 0; i < ncpus; i++)
		s->rings[i] = (struct ring){ .cpu = cpus[i], .fd = -1, .data_size = (size_t)pages * (size_t)psz };
	s->nrings = ncpus;
	free(cpus);
	if (cgroup)
		snprintf(what, sizeof(what), "the cgroup");
	else
		snprintf(what, sizeof(what), "process %d", (int)pid);
	fill_attr(o, &a);
	if (cgroup) {
		/* the cgroup's fd as pid, an event per CPU (core.c:12900, 12939); no task to inherit from */
		s->flags = PERF_FLAG_PID_CGROUP;
		a.inherit = 0;
	}
	rc = all_threads ? open_threads(s, &a, pid) : open_on(s, &a, pid);
	if (rc < 0) {
		if (s->map_errno)
			td_err_set(err,
				   "cannot map a ring buffer of %zu KiB to sample %s for --hotspots: %s: the "
				   "event opened, its buffer did not map; raise kernel.perf_event_mlock_kb or "
				   "'ulimit -l'",
				   s->map_len / 1024, what, strerror(s->map_errno));
		else if (rc == -ENOENT || rc == -ENODEV || rc == -EOPNOTSUPP || rc == -EINVAL)
			td_err_set(err,
				   "cannot sample %s for --hotspots: %s: this machine has no PMU that samples "
				   "the event; give --hotspots alone for time-based hotspots (cpu-clock)",
				   what, strerror(-rc));
		else if (rc == -EACCES || rc == -EPERM)
			td_err_set(err,
				   "cannot sample %s for --hotspots: %s: perf_event_paranoid or the ptrace "
				   "permission forbids it; run as the process's owner, lower "
				   "/proc/sys/kernel/perf_event_paranoid, or grant CAP_PERFMON",
				   what, strerror(-rc));
		else
			td_err_set(err, "cannot sample %s for --hotspots: %s", what, strerror(-rc));
		td_sampling_free(s);
		return -1;
	}
	s->callchain = o->callchain > 0;
	s->st.cpus = s->nrings;
	s->st.events = s->nfds;
	*out = s;
	return 0;
}

int td_sampling_open(const struct td_sampling_opts *o, pid_t pid, bool all_threads, struct td_sampling **out,
		     td_err *err)
{
	return sampling_open(o, pid, all_threads, false, out, err);
}

int td_sampling_open_cgroup(const struct td_sampling_opts *o, int cgroup_fd, struct td_sampling **out, td_err *err)
{
	return sampling_open(o, cgroup_fd, false, true, out, err);
}

/* The callchain at p (u64 nr, then nr entries) into smp: the frames
 * without the context markers, leaf first, kernel ones flagged. */
static void chain_of(struct td_sampling *s, const unsigned char *p, size_t len, struct td_sample *smp)
{
	uint64_t nr, v;
	bool kernel = false;
	int n = 0;

	memcpy(&nr, p, 8);
	if (nr > (len - 8) / 8)
		return;
	for (uint64_t i = 0; i < nr && n < TD_SAMPLING_MAX_STACK; i++) {
		memcpy(&v, p + 8 + 8 * i, 8);
		if (v >= (uint64_t)PERF_CONTEXT_MAX) {
			kernel = v == (uint64_t)PERF_CONTEXT_KERNEL;
			continue;
		}
		if (kernel)
			smp->kernel_frames |= 1ull << n;
		s->chain[n++] = v;
	}
	smp->chain = s->chain;
	smp->nchain = n;
}

/* One record of the ring at offset off (its header read), copied whole
 * into scratch when it wraps round the end of the data pages. */
static const unsigned char *record_at(struct td_sampling *s, const struct ring *r, uint64_t off, size_t len)
{
	const unsigned char *data = (const unsigned char *)r->page + sysconf(_SC_PAGESIZE);
	size_t at = (size_t)(off % r->data_size);

	if (at + len <= r->data_size)
		return data + at;
	memcpy(s->scratch, data + at, r->data_size - at);
	memcpy(s->scratch + (r->data_size - at), data, len - (r->data_size - at));
	return s->scratch;
}

static void drain_ring(struct td_sampling *s, struct ring *r, td_sample_fn fn, void *ctx)
{
	uint64_t head = __atomic_load_n(&r->page->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = r->page->data_tail;

	while (tail + sizeof(struct perf_event_header) <= head) {
		struct perf_event_header h;
		memcpy(&h, record_at(s, r, tail, sizeof(h)), sizeof(h));
		if (h.size < sizeof(h) || tail + h.size > head)
			break;
		const unsigned char *rec = record_at(s, r, tail, h.size);
		const unsigned char *body = rec + sizeof(h);
		size_t blen = h.size - sizeof(h);
		uint64_t v;
		uint32_t pt[2];
		switch (h.type) {
		case PERF_RECORD_SAMPLE:
			if (blen >= 16) {
				struct td_sample smp;
				memcpy(&smp.ip, body, 8);
				memcpy(pt, body + 8, 8);
				smp.pid = (pid_t)pt[0];
				smp.tid = (pid_t)pt[1];
				smp.kernel = (h.misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL;
				smp.chain = NULL;
				smp.nchain = 0;
				smp.kernel_frames = 0;
				if (s->callchain && blen >= 24)
					chain_of(s, body + 16, blen - 16, &smp);
				s->st.samples++;
				fn(ctx, &smp);
			}
			break;
		case PERF_RECORD_LOST: /* {u64 id; u64 lost} */
			if (blen >= 16) {
				memcpy(&v, body + 8, 8);
				s->lost_records += v;
			}
			break;
		case PERF_RECORD_LOST_SAMPLES: /* {u64 lost} */
			if (blen >= 8) {
				memcpy(&v, body, 8);
				s->lost_records += v;
			}
			break;
		case PERF_RECORD_THROTTLE:
			s->st.throttled++;
			break;
		default:
			break;
		}
		tail += h.size;
	}
	__atomic_store_n(&r->page->data_tail, tail, __ATOMIC_RELEASE);
}

void td_sampling_drain(struct td_sampling *s, td_sample_fn fn, void *ctx)
{
	for (int i = 0; s && i < s->nrings; i++)
		if (s->rings[i].page)
			drain_ring(s, &s->rings[i], fn, ctx);
}

void td_sampling_stats(const struct td_sampling *s, struct td_sampling_stats *st)
{
	uint64_t lost = 0, v[2];

	memset(st, 0, sizeof(*st));
	if (!s)
		return;
	*st = s->st;
	/* each event's lost_samples (an inherited thread's count in its parent's) */
	for (int i = 0; s->lost_readable && i < s->nfds; i++)
		if (read(s->fds[i], v, sizeof(v)) == (ssize_t)sizeof(v))
			lost += v[1];
	st->lost = lost > s->lost_records ? lost : s->lost_records;
}

void td_sampling_free(struct td_sampling *s)
{
	if (!s)
		return;
	for (int i = 0; i < s->nrings; i++)
		if (s->rings[i].page)
			munmap(s->rings[i].page, s->map_len);
	for (int i = 0; i < s->nfds; i++)
		close(s->fds[i]);
	free(s->fds);
	free(s->rings);
	free(s->scratch);
	free(s);
}
