/* counting: the choice between the two ways the collector counts the
 * threads of a process, and the BPF-aggregated one's interface.
 * - per-thread: one perf_event group per thread per group spec, read with
 *   read(2) every interval (counting_perf.c);
 * - bpf (counting_sums.c, counting_bpf.c + counting.bpf.c, after bperf): one counter per CPU
 *   per event, read by a BPF program at every context switch and summed
 *   per thread in slots of an array the collector maps and reads in place
 *   each interval (only the slots that changed are copied); context
 *   switches and CPU time per thread come from the same
 *   program. Each group of the plan is one perf group per CPU (hardware
 *   groups the kernel multiplexes when they outnumber the counters: the
 *   program sums enabled and running too, so scaling still holds).
 * TD_COUNTING_AUTO takes bpf where it loads, else per-thread, and says why. */
#ifndef TD_COUNTING_H
#define TD_COUNTING_H

#include <linux/perf_event.h>
#include <linux/types.h> /* before counting_event.h */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/util.h"
#include "counting_event.h"

enum td_counting_mode {
	TD_COUNTING_AUTO,
	TD_COUNTING_PER_THREAD,
	TD_COUNTING_BPF
};

/* Threads the BPF sums map holds unless told otherwise (--bpf-map-entries). */
#define TD_BPF_MAP_ENTRIES_DEFAULT 8192
#define TD_BPF_MAP_ENTRIES_MAX (1 << 22)

/* "auto", "bpf", "per-thread" */
const char *td_counting_mode_name(enum td_counting_mode m);
/* 0 and *out, or -1 when s names no mode. */
int td_counting_mode_parse(const char *s, enum td_counting_mode *out);

struct td_bpf_counting_stats {
	uint64_t lost_switches;	  /* switches out of followed threads the map had no room for (every view's) */
	uint64_t lost_oncpu_ns;	  /* ... and the CPU time they ran (counted, given to no thread) */
	uint64_t read_errors;	  /* counter reads that failed in the program */
	uint64_t seq_errors;	  /* slots two writers wrote at once (never: counting.bpf.c) */
	uint64_t unseen_switches; /* switches the program did not see, found (every view's) */
	uint64_t unseen_ns;	  /* ... and the followed threads' time they hid, given to no thread or process */
	uint64_t unseen_untimed;  /* ... of which this many hid a time not known (not in unseen_ns) */
	int map_entries;	  /* thread slots (--bpf-map-entries) */
	int peak_entries;	  /* most slots in use at once (every view's) */
	uint64_t kernel_bytes;	  /* the slots' maps' memory as the kernel accounts it (0: unknown) */
	uint64_t user_bytes;	  /* the view's copy of the slots and its index */
};

struct td_bpf_counting;

/* Batch reads of the sums (td_bpf_counting_read calls) this process has
 * made so far: BPF counting's counter reads, beside td_perf_group_reads(). */
uint64_t td_bpf_counting_reads(void);
/* counting_bpf.c: one more of them. */
void td_bpf_counting_note_read(void);

/* A batch of reads (the daemon's watch sessions, read in one wake-up):
 * between td_bpf_counting_batch_begin and _end, the first
 * td_bpf_counting_read of a loaded program brings every view of it up to
 * that moment at once (one flush on each CPU, one walk of the per-process
 * and per-cgroup sums, one pass over the slots handing each view its
 * threads'), and the other views' reads in the batch take what it read:
 * one batch read of the sums instead of one a view. Outside a batch, each
 * read is its view's own. Batches do not nest. */
void td_bpf_counting_batch_begin(void);
void td_bpf_counting_batch_end(void);
/* counting_bpf.c: the batch open now (1, 2, ... a new number each), 0 none. */
uint64_t td_bpf_counting_batch(void);

/* What a program is loaded to do besides summing the followed processes'
 * threads (td_bpf_counting_new's `what`, bits): follow the processes they
 * fork; sum cgroups (td_bpf_counting_follow_cgroup). A program loaded
 * without cgroup sums leaves that code out for the verifier: it loads in
 * half the time (5 against 11 ms here). */
#define TD_BPF_FOLLOW_CHILDREN 1u
#define TD_BPF_SUM_CGROUPS 2u
/* ... and load the BPF tracker's programs in the same object (one parse of
 * the kernel's BTF for both), offered to the next BPF tracker made
 * (tracker_bpf.c); a view asking it shares an instance as one that does not */
#define TD_BPF_WITH_TRACKER 4u

/* A view of the program: load it (tp_btf, else raw_tp) and open every
 * event of attrs (n at most TD_BPF_COUNT_MAX, in at most TD_BPF_GROUP_MAX
 * groups) on every CPU, as perf
 * groups: event k leads a new group where leads[k] (leads[0] must be),
 * else joins the one before — or share the program and counters that
 * this process loaded already for a view with the same events, `what`
 * and map size (the daemon's sessions). Each view follows its own
 * processes and reads their threads' sums; one thread uses them all. NULL
 * with err set (one line: why) when it cannot. */
struct td_bpf_counting *td_bpf_counting_new(const struct perf_event_attr *attrs, const bool *leads, int n,
					    unsigned what, int map_entries, td_err *err);
void td_bpf_counting_free(struct td_bpf_counting *b);
/* "tp_btf" or "raw_tp". */
const char *td_bpf_counting_flavour(const struct td_bpf_counting *b);
/* Its object relocated against this boot's kernel types file (kernel_types.h). */
bool td_bpf_counting_own_types(const struct td_bpf_counting *b);
/* How many of its events the program counts itself instead of reading them: a CPU's clock and its
 * switches in a software group (counting.bpf.c's clocks and switches). */
int td_bpf_counting_self_counted(const struct td_bpf_counting *b);
/* Count the threads of process pid from now on. 0 or -errno (a thin wrapper of the system call, the
 * BPF map update): -EEXIST
 * when another view of the program follows it (its sums are that view's). */
int td_bpf_counting_follow(struct td_bpf_counting *b, pid_t pid);
/* Sum what runs in cgroup v2 `id` and in the cgroups below it from now on
 * (record --cgroup; perf's cgroup events count the same), `level` being
 * its depth below the root (1 for a child of it). 0, or -EEXIST (another
 * view sums it), -E2BIG (TD_BPF_COUNT_CGROUPS already, or deeper than
 * TD_BPF_CGROUP_LEVELS), -EOPNOTSUPP (b was made without
 * TD_BPF_SUM_CGROUPS), -errno: a thin wrapper of the system call (the BPF
 * map update). */
int td_bpf_counting_follow_cgroup(struct td_bpf_counting *b, uint64_t id, int level);
/* The sums of a cgroup b follows, as of b's last read (in a batch, the
 * batch's read; else looked up now). 0 or -errno: a thin wrapper of the
 * system call (the BPF map lookup). */
int td_bpf_counting_cgroup(const struct td_bpf_counting *b, uint64_t id, struct td_bpf_thread_sums *out);
/* Did b join a program another view had loaded? How many other views
 * share it now? */
bool td_bpf_counting_joined(const struct td_bpf_counting *b);
int td_bpf_counting_sharers(const struct td_bpf_counting *b);
/* Give b a program and counters of its own (before it follows anything:
 * for a process another view follows). 0, or -1 with err set. */
int td_bpf_counting_unshare(struct td_bpf_counting *b, td_err *err);
/* Bring the running threads' sums up to now (the program run on each
 * CPU) and copy the view's threads' sums that changed since its last read
 * (its copy is what find and drop_exited see): how many threads of the
 * view have sums, or -errno: a thin wrapper of the system call (the BPF
 * map reads). */
int td_bpf_counting_read(struct td_bpf_counting *b);
/* Every followed process's counts summed (per event), as of the last read
 * and read before its threads': listed or not, with room in the map or not. */
const uint64_t *td_bpf_counting_totals(const struct td_bpf_counting *b);
/* tid's sums as of the last read, NULL when it had none. */
const struct td_bpf_thread_sums *td_bpf_counting_find(const struct td_bpf_counting *b, pid_t tid);
/* Give back the slots of threads that exited (as of the last read: their
 * sums are final) unless keep(ctx, tid) says they are still wanted: their
 * sums are gone, their slots the next threads'. Returns how many went. */
int td_bpf_counting_drop_exited(struct td_bpf_counting *b, bool (*keep)(void *ctx, pid_t tid), void *ctx);
void td_bpf_counting_stats(const struct td_bpf_counting *b, struct td_bpf_counting_stats *st);

/* The switch program's run time (ns) and runs so far, as the kernel
 * counts them while run-time statistics are on (td_bpf_run_stats): 0, or
 * -errno (a thin wrapper of the system call, BPF_OBJ_GET_INFO_BY_FD). */
int td_bpf_counting_switch_runs(const struct td_bpf_counting *b, uint64_t *ns, uint64_t *runs);
/* The switch program's tag (the kernel's hash of its instructions as
 * loaded, BPF_OBJ_GET_INFO_BY_FD's): 16 hex digits into out (len >= 17).
 * 0, or -errno (a thin wrapper of the system call). */
int td_bpf_counting_switch_tag(const struct td_bpf_counting *b, char *out, size_t len);
/* The kernel's run-time statistics of BPF programs on (BPF_ENABLE_STATS,
 * for every program of the host until the descriptor is closed): the
 * descriptor, or -errno (a thin wrapper of the system call). */
int td_bpf_run_stats(void);

/* Whether the BPF counting mode loads here, tried for real with one
 * software event (loaded, attached, unloaded): 0 with what loads in
 * err->msg (one line for doctor), or -1 with why not in it. */
int td_bpf_counting_probe(td_err *err);

#endif
