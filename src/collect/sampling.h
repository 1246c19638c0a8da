/* sampling: perf_event_open sampling beside the counting — one ring buffer
 * per online CPU, the sampled event opened on every thread of a process per
 * CPU with inherit (threads and children born later write to the same
 * buffers), the buffers drained by the caller's loop (each interval: no
 * wake-ups, no thread of its own), samples handed to a callback, and what
 * the kernel could not write (PERF_RECORD_LOST, PERF_RECORD_LOST_SAMPLES)
 * and its throttling counted. Knows nothing of symbols or of the store. */
#ifndef TD_SAMPLING_H
#define TD_SAMPLING_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/util.h"

struct td_sampling;

struct td_sampling_opts {
	uint32_t type; /* perf_event_attr.type and .config: the event sampled */
	uint64_t config, config1;
	uint64_t period;     /* a sample every PERIOD events (cpu-clock: nanoseconds) ... */
	bool freq;	     /* ... or PERIOD samples a second, the kernel adjusting the period */
	bool exclude_kernel; /* user-space IPs only (perf_event_paranoid, or a client's limit) */
	bool enable_on_exec; /* run: the events start when the command is executed */
	int callchain;	     /* > 0: each sample's call stack too, at most this many frames (frame
			      * pointers in user space: a binary built without them gives its leaf
			      * and what the walk finds) */
	int pages;	     /* data pages per CPU ring buffer, a power of two (0: TD_SAMPLING_PAGES) */
};
#define TD_SAMPLING_PAGES 64
#define TD_SAMPLING_MAX_STACK \
	64 /* frames kept: kernel_frames has a bit each */ /* 256 KiB a CPU: seconds of samples at the default rate */

struct td_sample {
	pid_t pid, tid;
	uint64_t ip;
	bool kernel; /* the IP is in the kernel (PERF_RECORD_MISC_KERNEL) */
	/* with callchain: the frames, leaf first (chain[0] is the sampled IP),
	 * kernel frames flagged in kernel_frames (bit i: chain[i]); valid
	 * during the callback only */
	const uint64_t *chain;
	int nchain;
	uint64_t kernel_frames;
};
typedef void (*td_sample_fn)(void *ctx, const struct td_sample *s);

struct td_sampling_stats {
	uint64_t samples;   /* handed to the callback */
	uint64_t lost;	    /* samples the kernel could not write: a ring buffer was full (read from
			     * each event, PERF_FORMAT_LOST; its records alone before Linux 6.0) */
	uint64_t throttled; /* times the kernel throttled the event (too many samples a tick) */
	int cpus, events;   /* ring buffers, and events opened (threads x CPUs) */
};

/* Open the event on pid (a process: with attach, every thread it has now,
 * rescanned until none is new; for a command not yet executed, pid alone)
 * on every online CPU. -1 with a line in err: what perf_event_open refused
 * and what to do. */
int td_sampling_open(const struct td_sampling_opts *o, pid_t pid, bool all_threads, struct td_sampling **out,
		     td_err *err);
/* Open the event on every task of a cgroup (cgroup_fd: its directory, kept
 * by the caller), per online CPU: samples of any process in it. */
int td_sampling_open_cgroup(const struct td_sampling_opts *o, int cgroup_fd, struct td_sampling **out, td_err *err);
/* Hand every sample written so far to fn; what was lost is counted. */
void td_sampling_drain(struct td_sampling *s, td_sample_fn fn, void *ctx);
void td_sampling_stats(const struct td_sampling *s, struct td_sampling_stats *st);
void td_sampling_free(struct td_sampling *s);

#endif
