/* pmu_sim.so: an emulated x86 core PMU for the suite — a test double of the
 * kernel's side of perf_event_open(2), preloaded into tdctl/topdownd
 * (LD_PRELOAD). It intercepts syscall(SYS_perf_event_open, ...) (the
 * collector's call: src/collect/perf_group.c), read, ioctl and close on the
 * descriptors it hands out, for the host tree's hardware events
 * (PERF_TYPE_HARDWARE, PERF_TYPE_RAW and the cpu PMU's sysfs type); every
 * other event (software, tracepoints) goes to the real kernel.
 *
 *   TD_PMU_SIM_HOST=DIR    a tests/data/hosts/ tree: the CPU (cpuinfo's
 *                          vendor/family/model), SMT (smt/active), the cpu
 *                          PMU's type, format/ and events/, perf_event_paranoid
 *                          and nmi_watchdog. tdctl reads the same tree
 *                          through TD_SYSROOT.
 *   TD_PMU_SIM_TRACE=FILE  a `perf stat -x` file (as tdctl import reads it):
 *                          the rate of every event, per cycle
 *   TD_PMU_SIM_EVENTS=FILE the encodings of the trace's event names
 *                          (tests/data/pmu_sim/MODEL.events, written from
 *                          Intel's event lists by make-events.py there);
 *                          sysfs names (slots, topdown-*), rNNNN and
 *                          cpu/TERMS/ need none
 *   TD_PMU_SIM_FREQ=HZ     the emulated core clock (default: the trace's
 *                          cycles / its run time, else 1 GHz)
 *   TD_PMU_SIM_CPU_CLOCK=wall  a CPU-wide event's CPU is busy all the time
 *                          (CLOCK_MONOTONIC), not as /proc/stat says: its
 *                          USER_HZ ticks are too coarse for exact ratios
 *                          between groups read microseconds apart, and the
 *                          host tree's CPUs need not exist here
 *   TD_PMU_SIM_LOG=FILE    appends one line per open (and why it failed) and
 *                          the trace events it could not encode
 *
 * Everything the emulator decides is written from Linux's source, linux
 * 6.12.117 (Debian's linux-source-6.12 6.12.117-1~deb12u1; a Debian source
 * package carries no git commit, the version is the reference), never from
 * our planner's tables:
 *
 * Open (kernel/events/core.c, arch/x86/events/core.c, intel/core.c):
 *  - perf_event_open: exclude_kernel == 0 needs perf_allow_kernel()
 *    (core.c:12859-12862, 13670-13675: paranoid > 1 without CAP_PERFMON ->
 *    -EACCES); a CPU-wide event (pid == -1) needs perf_allow_cpu()
 *    (core.c:4933, include/linux/perf_event.h:1681: paranoid > 0 -> -EACCES).
 *  - PERF_TYPE_HARDWARE ids map through intel_perfmon_event_map
 *    (intel/core.c:32) or amd_zen4_perfmon_event_map (amd/core.c:276).
 *  - extra registers: config1 outside the MSR's valid mask -> -EINVAL
 *    (arch/x86/events/core.c:174).
 *  - PERF_METRICS (intel_pmu_hw_config, intel/core.c:4195-4230): slots and
 *    topdown-* with config1/config2 or any of X86_ALL_EVENT_FLAGS -> -EINVAL;
 *    a metric event that samples, or whose leader is not SLOTS, or a sampling
 *    SLOTS leader -> -EINVAL. Metric events above num_topdown_events
 *    (INTEL_TD_METRIC_AVAILABLE_MAX, intel/core.c:3935) are not metric events
 *    for that check.
 *  - validate_group (arch/x86/events/core.c:2394): collect_events ->
 *    collect_event (core.c:1140-1150: more than counters + fixed counters,
 *    metric events aside, -> -EINVAL), then x86_schedule_events (core.c:983)
 *    on a fake cpuc: a group no assignment fits -> -EINVAL. Constraints are
 *    looked up as x86_get_event_constraints does (first match in the model's
 *    table, else any general-purpose counter), fixed-counter constraints
 *    widened to the general-purpose counters unless they are a pseudo
 *    encoding, topdown ones not (intel_pmu_check_event_constraints,
 *    intel/core.c:6318-6360). The kernel assigns greedily by weight with
 *    backtracking (perf_assign_events); the emulator finds any complete
 *    matching (the two agree on the tables below, which have no overlapping
 *    constraints).
 *  - shared extra registers (__intel_shared_reg_get_constraints,
 *    intel/core.c:3300; intel_alt_er, 3256): a second distinct offcore
 *    response value takes the other OFFCORE_RSP MSR (PMU_FL_HAS_RSP_1); a
 *    third, or a second distinct MSR_PEBS_FRONTEND value, gets the empty
 *    constraint: the group cannot be scheduled -> -EINVAL at open, and groups
 *    that conflict in a context are never scheduled together.
 *
 * Counting: an event counts while its target runs: a thread's CPU time
 * (CLOCK_THREAD_CPUTIME of the tid, else /proc/TID/schedstat), a process's
 * for an inherited event on a thread-group leader (its CPU clock covers the
 * threads it makes), and for a CPU-wide event the busy time /proc/stat gives
 * that CPU (an approximation: USER_HZ ticks; an emulated CPU the machine
 * lacks is idle). cycles = CPU ns x frequency; every event advances at
 * (its trace count / the trace's cycles) x cycles; an event the trace lacks
 * counts 0. The emulated work is all user mode: an event with exclude_user
 * counts nothing (tdctl's read-cost measurement counts kernel mode only).
 * Metric events read slots x byte / 0xff, the byte being the
 * trace's fraction as the 8-bit PERF_METRICS field holds it
 * (icl_get_metrics_event_value, intel/core.c:2662).
 *
 * Multiplexing: each target is one context; its groups are scheduled in
 * order until the first that cannot be added (merge_sched_in,
 * kernel/events/core.c:3967-3990: *can_add_hw = 0 after a group fails), the
 * NMI watchdog's pinned cycles event first (Intel: fixed counter 1, AMD: a
 * general-purpose counter) when the tree's nmi_watchdog is 1. Every
 * perf_event_mux_interval_ms (the tree's cpu/perf_event_mux_interval_ms, else
 * PERF_CPU_HRTIMER = 1000/HZ = 4 ms at HZ=250, core.c:1132) of the target's
 * CPU time, when a group could not go on, the first active group moves to
 * the tail (perf_rotate_context/rotate_ctx, core.c:4353-4380). time_enabled
 * advances while the group is enabled and its target runs, time_running
 * while it is also scheduled. Reads follow the read_format ABI
 * (include/uapi/linux/perf_event.h:342-360); a buffer shorter than the
 * read size -> -ENOSPC (core.c:5854). ioctl ENABLE, DISABLE, RESET (with
 * PERF_IOC_FLAG_GROUP: the whole group of the event's leader,
 * perf_event_for_each, core.c:5952) and ID. Closing a leader makes its
 * siblings singleton groups (perf_group_detach, core.c:2242).
 *
 * Counters per model (CPUID leaf 0xA, Intel SDM vol. 3B 20.2; AMD:
 * AMD64_NUM_COUNTERS_CORE, arch/x86/include/asm/perf_event.h:130): Skylake
 * 4 general-purpose per thread with SMT on, 8 with SMT off, fixed 0-2; Ice
 * Lake and Sapphire Rapids 8, fixed 0-3 (3 = SLOTS); Zen 4 6, no fixed.
 *
 * Not instrumented (like fault_inject.so): it is preloaded into sanitized
 * binaries too. The unit test links this file into its own binary. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <ctype.h>
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "pmu_sim.h"

/* ---- the models' constraint tables (linux 6.12.117) ---- */

#define IDX_FIXED 32  /* INTEL_PMC_IDX_FIXED, arch/x86/include/asm/perf_event.h:13 */
#define IDX_METRIC 48 /* INTEL_PMC_IDX_METRIC_BASE, perf_event.h:364 */
#define EVSEL_EVENT 0xffULL
#define ARCH_EVENT_MASK 0xffffULL /* INTEL_ARCH_EVENT_MASK: event | umask */
#define EVSEL_EDGE (1ULL << 18)
#define EVSEL_PIN (1ULL << 19)
#define EVSEL_ANY (1ULL << 21)
#define EVSEL_INV (1ULL << 23)
#define EVSEL_CMASK 0xff000000ULL
#define HSW_IN_TX (1ULL << 32)
#define HSW_IN_TX_CP (1ULL << 33)
/* X86_RAW_EVENT_MASK (perf_event.h:89) and FIXED_EVENT_FLAGS, the match mask of a fixed-counter constraint */
#define RAW_EVENT_MASK (EVSEL_EVENT | 0xff00ULL | EVSEL_EDGE | EVSEL_INV | EVSEL_CMASK | EVSEL_PIN)
#define FIXED_FLAGS (RAW_EVENT_MASK | HSW_IN_TX | HSW_IN_TX_CP)
/* X86_ALL_EVENT_FLAGS, perf_event.h:95 */
#define ALL_EVENT_FLAGS (EVSEL_EDGE | EVSEL_INV | EVSEL_CMASK | EVSEL_ANY | EVSEL_PIN | HSW_IN_TX | HSW_IN_TX_CP)
#define TD_SLOTS 0x0400ULL	  /* INTEL_TD_SLOTS, perf_event.h:386 */
#define TD_METRIC_FIRST 0x8000ULL /* INTEL_TD_METRIC_RETIRING, :388 */
#define TD_METRIC_LAST 0x8700ULL  /* INTEL_TD_METRIC_MAX, :398 */

enum ckind {
	C_FIXED,
	C_EVENT,
	C_UEVENT,
	C_RANGE,
	C_METRIC
};
struct constraint {
	enum ckind kind;
	uint64_t code, end; /* end: C_RANGE's last event code */
	uint64_t mask;	    /* counter bits as the table gives them (fixed n: its index) */
};
#define FIXED(c, n)              \
	{                        \
		C_FIXED, c, 0, n \
	}
#define EVENT(c, m)              \
	{                        \
		C_EVENT, c, 0, m \
	}
#define UEVENT(c, m)              \
	{                         \
		C_UEVENT, c, 0, m \
	}
#define RANGE(s, e, m)           \
	{                        \
		C_RANGE, s, e, m \
	}
#define METRIC(c, n)              \
	{                         \
		C_METRIC, c, 0, n \
	}
#define END                      \
	{                        \
		C_EVENT, 0, 0, 0 \
	}

/* intel_skl_event_constraints, arch/x86/events/intel/core.c:234-249 */
static const struct constraint skl_constraints[] = {
	FIXED(0x00c0, 0), FIXED(0x003c, 1), FIXED(0x0300, 2), UEVENT(0x1c0, 0x2), EVENT(0xd0, 0xf),
	EVENT(0xd1, 0xf), EVENT(0xd2, 0xf), EVENT(0xcd, 0xf), EVENT(0xc6, 0xf),	  END,
};
/* intel_icl_event_constraints, intel/core.c:286-312 */
static const struct constraint icl_constraints[] = {
	FIXED(0x00c0, 0),
	FIXED(0x01c0, 0),
	FIXED(0x0100, 0),
	FIXED(0x003c, 1),
	FIXED(0x0300, 2),
	FIXED(0x0400, 3),
	METRIC(0x8000, 0),
	METRIC(0x8100, 1),
	METRIC(0x8200, 2),
	METRIC(0x8300, 3),
	RANGE(0x03, 0x0a, 0xf),
	RANGE(0x1f, 0x28, 0xf),
	EVENT(0x32, 0xf),
	RANGE(0x48, 0x56, 0xf),
	RANGE(0x60, 0x8b, 0xf),
	UEVENT(0x04a3, 0xff),
	UEVENT(0x10a3, 0xff),
	UEVENT(0x14a3, 0xff),
	EVENT(0xa3, 0xf),
	RANGE(0xa8, 0xb0, 0xf),
	RANGE(0xb7, 0xbd, 0xf),
	RANGE(0xd0, 0xe6, 0xf),
	EVENT(0xef, 0xf),
	RANGE(0xf0, 0xf4, 0xf),
	END,
};
/* intel_glc_event_constraints, intel/core.c:332-370 (Sapphire Rapids: intel_pmu_init_glc, :6442) */
static const struct constraint glc_constraints[] = {
	FIXED(0x00c0, 0),	FIXED(0x0100, 0),	 FIXED(0x003c, 1),
	FIXED(0x0300, 2),	FIXED(0x013c, 2),	 FIXED(0x0400, 3),
	METRIC(0x8000, 0),	METRIC(0x8100, 1),	 METRIC(0x8200, 2),
	METRIC(0x8300, 3),	METRIC(0x8400, 4),	 METRIC(0x8500, 5),
	METRIC(0x8600, 6),	METRIC(0x8700, 7),	 EVENT(0x2e, 0xff),
	EVENT(0x3c, 0xff),	RANGE(0x01, 0x8f, 0xf),	 UEVENT(0x01a3, 0xf),
	UEVENT(0x02a3, 0xf),	UEVENT(0x08a3, 0xf),	 UEVENT(0x04a4, 0x1),
	UEVENT(0x08a4, 0x1),	UEVENT(0x02cd, 0x1),	 EVENT(0xce, 0x1),
	RANGE(0xd0, 0xdf, 0xf), RANGE(0x90, 0xfe, 0xff), END,
};

/* Extra registers: INTEL_UEVENT_EXTRA_REG(event, msr, valid_mask, idx). */
enum xreg {
	X_RSP0,
	X_RSP1,
	X_LDLAT,
	X_FE
};
struct extra_reg {
	uint64_t event; /* event | umask */
	uint64_t valid_mask;
	enum xreg idx;
};
/* intel_skl_extra_regs, intel/core.c:274-284 */
static const struct extra_reg skl_xregs[] = {
	{ 0x01b7, 0x3fffff8fffULL, X_RSP0 },
	{ 0x01bb, 0x3fffff8fffULL, X_RSP1 },
	{ 0x01cd, 0xffff, X_LDLAT },
	{ 0x01c6, 0x7fff17, X_FE },
	{ 0, 0, 0 },
};
/* intel_icl_extra_regs, intel/core.c:314-320 */
static const struct extra_reg icl_xregs[] = {
	{ 0x01b7, 0x3fffffbfffULL, X_RSP0 },
	{ 0x01bb, 0x3fffffbfffULL, X_RSP1 },
	{ 0x01cd, 0xffff, X_LDLAT },
	{ 0x01c6, 0x7fff17, X_FE },
	{ 0, 0, 0 },
};
/* intel_glc_extra_regs, intel/core.c:322-330 */
static const struct extra_reg glc_xregs[] = {
	{ 0x012a, 0x3fffffffffULL, X_RSP0 },
	{ 0x012b, 0x3fffffffffULL, X_RSP1 },
	{ 0x01cd, 0xffff, X_LDLAT },
	{ 0x01c6, 0x7fff1f, X_FE },
	{ 0x40ad, 0x7, X_FE },
	{ 0x04c2, 0x8, X_FE },
	{ 0, 0, 0 },
};

struct model {
	const char *name;
	bool amd;
	int gp_smt_on, gp_smt_off; /* general-purpose counters per thread */
	int fixed;		   /* fixed counters */
	int topdown_events;	   /* x86_pmu.num_topdown_events (0: no PERF_METRICS) */
	const struct constraint *constraints;
	const struct extra_reg *xregs;
};
static const struct model models[] = {
	/* intel_pmu_init case INTEL_SKYLAKE..., intel/core.c:7009-7032 */
	{ "skl", false, 4, 8, 3, 0, skl_constraints, skl_xregs },
	/* case INTEL_ICELAKE_L..., intel/core.c:7067-7097 (num_topdown_events = 4) */
	{ "icl", false, 8, 8, 4, 4, icl_constraints, icl_xregs },
	/* case INTEL_SAPPHIRERAPIDS_X..., intel/core.c:7106; intel_pmu_init_glc :6442-6454 (num_topdown_events = 8) */
	{ "spr", false, 8, 8, 4, 8, glc_constraints, glc_xregs },
	/* amd_core_pmu_init, amd/core.c:1432-1442 (6 core counters); family >= 0x17: PMU_FL_PAIR, :1466-1483 */
	{ "zen4", true, 6, 6, 0, 0, NULL, NULL },
};

/* ---- state ---- */

#define MAX_FD 65536
#define MAX_GROUP 64
#define MAX_TRACE 1024

struct sim_event;
struct sim_group;
struct sim_ctx {
	bool cpu_wide;
	int target;			  /* tid, or CPU */
	bool process;			  /* count the whole process (inherit on a thread-group leader) */
	int64_t last_ns;		  /* target's CPU time last advanced to */
	int64_t slice_left_ns;		  /* CPU time until the next rotation */
	int64_t sampled_wall, sampled_ns; /* the clock's last sample (now_ns) */
	struct sim_group *groups[4096];
	int ngroups;
	struct sim_ctx *next;
};
struct sim_group {
	struct sim_ctx *ctx;
	struct sim_event *ev[MAX_GROUP]; /* [0] the leader */
	int n;
	bool scheduled;
	bool read_in_burst; /* read in its context's current burst of reads (now_ns) */
};
struct sim_event {
	int fd;
	struct perf_event_attr attr;
	uint64_t config; /* the hardware encoding */
	uint64_t config1;
	int metric; /* -1, or its PERF_METRICS byte index */
	bool slots;
	bool enabled;
	uint64_t id;
	long double rate; /* per cycle */
	unsigned metric_byte;
	long double running_cycles; /* cycles this event was scheduled */
	uint64_t enabled_ns, running_ns;
	uint64_t base; /* count at the last reset */
	struct sim_group *group;
};

struct named_event {
	char name[160];
	uint64_t config, config1;
};
struct trace_event {
	char name[160];
	uint64_t config, config1;
	bool ok;
	long double count;
};

static struct {
	bool loaded;
	const struct model *model;
	int pmu_type;
	bool smt;
	int paranoid;
	bool watchdog;
	int mux_ms;
	char root[1024];
	struct trace_event trace[MAX_TRACE];
	int ntrace;
	struct named_event named[MAX_TRACE];
	int nnamed;
	long double cycles_per_ns;
	long double trace_cycles;
	uint64_t next_id;
	struct sim_event *fds[MAX_FD];
	struct sim_ctx *ctxs;
	int64_t (*clock)(bool cpu_wide, bool process, int target);
} S;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static const char *env(const char *name)
{
	const char *v = getenv(name);

	return v && *v ? v : NULL;
}

static long raw(long nr, long a, long b, long c, long d, long e, long f)
{
	static long (*real)(long, ...);

	if (!real)
		real = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
	return real(nr, a, b, c, d, e, f);
}

__attribute__((format(printf, 1, 2))) static void sim_log(const char *fmt, ...)
{
	const char *file = env("TD_PMU_SIM_LOG");
	char line[512];
	va_list ap;
	int n, fd;

	if (!file)
		return;
	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(line) - 1)
		n = (int)sizeof(line) - 2; /* a log line, cut visibly */
	line[n++] = '\n';
	fd = (int)raw(SYS_openat, AT_FDCWD, (long)file, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644, 0, 0);
	if (fd >= 0) {
		raw(SYS_write, fd, (long)line, n, 0, 0, 0);
		raw(SYS_close, fd, 0, 0, 0, 0, 0);
	}
}

/* Read a small file of the host tree into buf; -1 when missing. */
static int tree_read(const char *rel, char *buf, size_t len)
{
	char path[1400];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", S.root, rel);
	if (!(f = fopen(path, "re")))
		return -1;
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
	return (int)n;
}

static int tree_int(const char *rel, int dflt)
{
	char b[64];

	return tree_read(rel, b, sizeof(b)) > 0 ? atoi(b) : dflt;
}

/* ---- encodings: the cpu PMU's format/ and events/ ---- */

/* Set term NAME=VALUE through format/NAME ("config:0-7,32-35", "config1:0-63"). 0 or -1.
 * As perf does: its bits are ORed into the field and none is cleared, so a term
 * given twice (toplev's "cpu/exe_activity.3_ports_util,umask=0x80/", umask 0x08
 * from the name, 0x80 from the term) means both: pmu_format_value() clears a bit
 * only with `zero`, which perf_pmu__config() takes from
 * pmu->perf_event_attr_init_default, set by no x86 core PMU
 * (linux 6.12.117 tools/perf/util/pmu.c:1282-1297, 1512). */
static int apply_term(const char *name, uint64_t value, uint64_t *config, uint64_t *config1)
{
	char rel[256], spec[128], *p;

	snprintf(rel, sizeof(rel), "sys/bus/event_source/devices/cpu/format/%s", name);
	if (tree_read(rel, spec, sizeof(spec)) <= 0)
		return -1;
	uint64_t *dst = !strncmp(spec, "config1:", 8) ? config1 : config;
	p = strchr(spec, ':');
	if (!p)
		return -1;
	p++;
	int shift = 0;
	while (*p && *p != '\n') {
		int lo = (int)strtol(p, &p, 10), hi = lo;
		if (*p == '-')
			hi = (int)strtol(p + 1, &p, 10);
		for (int b = lo; b <= hi; b++, shift++)
			if (value >> shift & 1)
				*dst |= 1ULL << b;
		if (*p == ',')
			p++;
	}
	return 0;
}

/* Terms "event=0x3c,umask=1,cmask=1" onto config/config1. */
static int apply_terms(char *terms, uint64_t *config, uint64_t *config1)
{
	char *save = NULL;

	for (char *t = strtok_r(terms, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(t, '=');
		uint64_t v = 1;
		if (eq) {
			*eq = '\0';
			v = strtoull(eq + 1, NULL, 0);
		}
		if (apply_term(t, v, config, config1) != 0)
			return -1;
	}
	return 0;
}

/* A sysfs event of the host tree (events/NAME). */
static int sysfs_event(const char *name, uint64_t *config, uint64_t *config1)
{
	char rel[300], spec[256];

	if (strchr(name, '/'))
		return -1;
	snprintf(rel, sizeof(rel), "sys/bus/event_source/devices/cpu/events/%s", name);
	if (tree_read(rel, spec, sizeof(spec)) <= 0)
		return -1;
	spec[strcspn(spec, "\n")] = '\0';
	*config = *config1 = 0;
	return apply_terms(spec, config, config1);
}

/* An event of the TD_PMU_SIM_EVENTS table (tests/data/pmu_sim/MODEL.events, from Intel's event lists). */
static int table_event(const char *name, uint64_t *config, uint64_t *config1)
{
	for (int i = 0; i < S.nnamed; i++)
		if (!strcasecmp(S.named[i].name, name)) {
			*config = S.named[i].config;
			*config1 = S.named[i].config1;
			return 0;
		}
	return -1;
}

static void load_table(const char *file)
{
	FILE *f = fopen(file, "re");
	char line[512];

	if (!f) {
		sim_log("events table %s: %s", file, strerror(errno));
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		char name[160];
		unsigned long long c, c1;
		if (line[0] == '#' || sscanf(line, "%159s %llx %llx", name, &c, &c1) != 3)
			continue;
		if (S.nnamed == MAX_TRACE) {
			sim_log("events table %s: more than %d events, the rest left out", file, MAX_TRACE);
			break;
		}
		snprintf(S.named[S.nnamed].name, sizeof(S.named[0].name), "%s", name);
		S.named[S.nnamed].config = c;
		S.named[S.nnamed].config1 = c1;
		S.nnamed++;
	}
	fclose(f);
}

/* A trace's event string: a sysfs name, rNNNN, cpu/TERMS/ (its first term may be a name), or a name of the
 * events table. */
static int encode_name(const char *name, uint64_t *config, uint64_t *config1)
{
	char buf[200];

	*config = *config1 = 0;
	if (!strcmp(name, "cycles") || !strcmp(name, "cpu-cycles"))
		return *config = S.model->amd ? 0x76 : 0x3c, 0; /* the perfmon event maps, see hw_config */
	if (!strcmp(name, "instructions"))
		return *config = 0xc0, 0;
	if (name[0] == 'r' && isxdigit((unsigned char)name[1])) {
		char *end;
		*config = strtoull(name + 1, &end, 16);
		if (!*end)
			return 0;
	}
	if (sysfs_event(name, config, config1) == 0)
		return 0;
	if (!strncmp(name, "cpu/", 4)) {
		snprintf(buf, sizeof(buf), "%s", name + 4);
		char *end = strrchr(buf, '/');
		if (!end)
			return -1;
		*end = '\0';
		char *terms = buf, *comma = strchr(buf, ',');
		char first[160];
		snprintf(first, sizeof(first), "%.*s", comma ? (int)(comma - buf) : (int)strlen(buf), buf);
		if (!strchr(first, '=')) { /* a named event with modifiers */
			if (sysfs_event(first, config, config1) != 0 && table_event(first, config, config1) != 0)
				return -1;
			terms = comma ? comma + 1 : buf + strlen(buf);
		}
		return *terms ? apply_terms(terms, config, config1) : 0;
	}
	/* NAME:MODIFIERS (perf's modifier_event [ukhpPGHSDIWebR]{1,16}, tools/perf/util/parse-events.l:254):
	 * the modifiers say which privilege levels the trace counted, not which event it was: the event
	 * select is the name's */
	const char *colon = strrchr(name, ':');
	if (colon && colon > name && colon[1] && strspn(colon + 1, "ukhpPGHSDIWebR") == strlen(colon + 1) &&
	    strlen(colon + 1) <= 16) {
		snprintf(buf, sizeof(buf), "%.*s", (int)(colon - name), name);
		return table_event(buf, config, config1);
	}
	return table_event(name, config, config1);
}

/* The bits of config the emulator matches on: the event selector without
 * the privilege-level, interrupt and enable bits (perf sets them). */
static uint64_t match_bits(uint64_t config)
{
	return config & ~((1ULL << 16) | (1ULL << 17) | (1ULL << 20) | (1ULL << 22));
}

/* ---- loading the host and the trace ---- */

static void load_trace(const char *file)
{
	FILE *f = fopen(file, "re");
	char line[1024];

	if (!f) {
		sim_log("trace %s: %s", file, strerror(errno));
		return;
	}
	long double cyc = 0, cyc_time = 0;
	while (fgets(line, sizeof(line), f)) {
		char *fields[8] = { 0 };
		int nf = 0;
		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '#' || !line[0])
			continue;
		char sep = strchr(line, ';') ? ';' : ',';
		for (char *p = line; p && nf < 8; nf++) {
			fields[nf] = p;
			p = strchr(p, sep);
			if (p)
				*p++ = '\0';
		}
		if (nf < 3 || !isdigit((unsigned char)fields[0][0]))
			continue; /* "<not counted>", headers */
		struct trace_event *t = NULL;
		for (int i = 0; i < S.ntrace; i++)
			if (!strcmp(S.trace[i].name, fields[2]))
				t = &S.trace[i];
		if (t)
			continue; /* toplev repeats an event in several groups: the first reading serves */
		if (S.ntrace == MAX_TRACE) {
			sim_log("trace %s: more than %d events; %s and the rest count nothing", file, MAX_TRACE,
				fields[2]);
			break;
		}
		t = &S.trace[S.ntrace++];
		snprintf(t->name, sizeof(t->name), "%s", fields[2]);
		t->count = strtold(fields[0], NULL);
		t->ok = encode_name(t->name, &t->config, &t->config1) == 0;
		if (!t->ok)
			sim_log("trace event %s: no encoding on this host; it counts nothing", t->name);
		uint64_t cycles_code = S.model->amd ? 0x76 : 0x3c;
		if (t->ok && match_bits(t->config) == cycles_code && cyc == 0) {
			cyc = t->count;
			cyc_time = nf > 3 ? strtold(fields[3], NULL) : 0;
		}
	}
	fclose(f);
	S.trace_cycles = cyc;
	if (cyc > 0 && cyc_time > 0)
		S.cycles_per_ns = cyc / cyc_time;
	if (cyc <= 0)
		sim_log("trace %s has no cycles event: every event counts nothing", file);
}

static void load(void)
{
	char b[4096];
	const char *host = env("TD_PMU_SIM_HOST");

	if (S.loaded)
		return;
	S.loaded = true;
	S.next_id = 1000;
	S.cycles_per_ns = 1.0L;
	S.mux_ms = 4;
	if (!host)
		return;
	snprintf(S.root, sizeof(S.root), "%s", host);
	if (tree_read("proc/cpuinfo", b, sizeof(b)) <= 0)
		return;
	bool amd = strstr(b, "AuthenticAMD") != NULL;
	char *fam = strstr(b, "cpu family"), *mod = strstr(b, "\nmodel\t");
	int family = fam ? atoi(strchr(fam, ':') + 1) : 0, model = mod ? atoi(strchr(mod, ':') + 1) : 0;
	const char *name = NULL;
	if (!amd && family == 6 && (model == 0x4e || model == 0x5e || model == 0x55 || model == 0x8e || model == 0x9e))
		name = "skl";
	else if (!amd && family == 6 && (model == 0x7d || model == 0x7e || model == 0x6a || model == 0x6c))
		name = "icl";
	else if (!amd && family == 6 && (model == 0x8f || model == 0xcf))
		name = "spr";
	else if (amd && family == 0x19) /* Zen 3 parts too (family 19h): they would differ in ref-cycles' map only */
		name = "zen4";
	for (size_t i = 0; name && i < sizeof(models) / sizeof(models[0]); i++)
		if (!strcmp(models[i].name, name))
			S.model = &models[i];
	if (!S.model) {
		sim_log("host %s: family %d model %d is not a model the emulator knows (skl, icl, spr, zen4)", host,
			family, model);
		return;
	}
	S.pmu_type = tree_int("sys/bus/event_source/devices/cpu/type", -1);
	S.smt = tree_int("sys/devices/system/cpu/smt/active", 0) == 1;
	S.paranoid = tree_int("proc/sys/kernel/perf_event_paranoid", 2);
	S.watchdog = tree_int("proc/sys/kernel/nmi_watchdog", 0) == 1;
	S.mux_ms = tree_int("sys/bus/event_source/devices/cpu/perf_event_mux_interval_ms", 4);
	const char *table = env("TD_PMU_SIM_EVENTS");
	if (table)
		load_table(table);
	const char *trace = env("TD_PMU_SIM_TRACE");
	if (trace)
		load_trace(trace);
	const char *freq = env("TD_PMU_SIM_FREQ");
	if (freq)
		S.cycles_per_ns = strtold(freq, NULL) / 1e9L;
	sim_log("host %s: %s, %d general-purpose counters, %d fixed, SMT %s, cpu type %d, paranoid %d, watchdog %d, "
		"%.6Lf cycles/ns",
		host, S.model->name, S.smt ? S.model->gp_smt_on : S.model->gp_smt_off, S.model->fixed,
		S.smt ? "on" : "off", S.pmu_type, S.paranoid, S.watchdog, S.cycles_per_ns);
}

/* ---- the clock of a target ---- */

#define THREAD_CPUCLOCK(tid) ((clockid_t)((~(unsigned)(tid)) << 3) | 6) /* MAKE_THREAD_CPUCLOCK(tid, SCHED) */
#define PROCESS_CPUCLOCK(pid) ((clockid_t)((~(unsigned)(pid)) << 3) | 2)

static int64_t schedstat_ns(int tid)
{
	char path[64], b[128];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/schedstat", tid);
	if (!(f = fopen(path, "re")))
		return -1;
	size_t n = fread(b, 1, sizeof(b) - 1, f);
	fclose(f);
	b[n] = '\0';
	return n ? strtoll(b, NULL, 10) : -1;
}

/* Busy ns of a CPU from /proc/stat (user nice system irq softirq steal), or 0 for a CPU the machine lacks. */
static int64_t cpu_busy_ns(int cpu)
{
	FILE *f = fopen("/proc/stat", "re");
	char line[512], want[32];
	int64_t ns = 0;

	if (!f)
		return 0;
	snprintf(want, sizeof(want), "cpu%d ", cpu);
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, want, strlen(want))) {
			unsigned long long v[8] = { 0 };
			sscanf(line + strlen(want), "%llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2],
			       &v[3], &v[4], &v[5], &v[6], &v[7]);
			unsigned long long busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
			ns = (int64_t)(busy * (1000000000ULL / (unsigned long long)sysconf(_SC_CLK_TCK)));
			break;
		}
	fclose(f);
	return ns;
}

static int64_t real_clock(bool cpu_wide, bool process, int target)
{
	struct timespec ts;

	if (cpu_wide) {
		const char *how = env("TD_PMU_SIM_CPU_CLOCK");
		if (how && !strcmp(how, "wall")) { /* the emulated CPU always busy */
			struct timespec w;
			clock_gettime(CLOCK_MONOTONIC, &w);
			return (int64_t)w.tv_sec * 1000000000LL + w.tv_nsec;
		}
		return cpu_busy_ns(target);
	}
	if (clock_gettime(process ? PROCESS_CPUCLOCK(target) : THREAD_CPUCLOCK(target), &ts) == 0)
		return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
	return schedstat_ns(target); /* the thread is gone: its last time, or -1 */
}

void pmu_sim_reset(void)
{
	pthread_mutex_lock(&lock);
	while (S.ctxs) {
		struct sim_ctx *c = S.ctxs;
		S.ctxs = c->next;
		for (int i = 0; i < c->ngroups; i++)
			free(c->groups[i]);
		free(c);
	}
	for (int fd = 0; fd < MAX_FD; fd++)
		if (S.fds[fd]) {
			struct sim_event *e = S.fds[fd];
			__atomic_store_n(&S.fds[fd], NULL, __ATOMIC_RELEASE);
			raw(SYS_close, fd, 0, 0, 0, 0, 0);
			free(e);
		}
	int64_t (*clock)(bool, bool, int) = S.clock;
	memset(&S, 0, sizeof(S));
	S.clock = clock;
	pthread_mutex_unlock(&lock);
}

void pmu_sim_set_clock(int64_t (*clock)(bool cpu_wide, bool process, int target))
{
	pthread_mutex_lock(&lock);
	S.clock = clock;
	pthread_mutex_unlock(&lock);
}

/* A target's CPU time now. The real clocks are sampled once per burst of reads: tdctl reads a target's
 * groups one after the other, microseconds apart, while the target runs on: each group's counts would cover a
 * slightly different window and ratios across groups would be off by as much (1e-5 at a 1-s interval), which
 * a real PMU does too but which no exact comparison survives. The emulator reads them all at one instant.
 * A burst is one pass over the context's groups (their opening and enabling one after the other too): it
 * ends when a group it read is read again, and READ_BURST_NS of wall time after its sample at the latest. The kernel has no such window (a read of a per-task event updates its
 * times to the moment of the read: perf_read -> __perf_read -> perf_read_group -> __perf_read_group_add
 * -> perf_event_read, Debian linux-source-6.12 6.12.117-1~deb12u1, kernel/events/core.c:5866-5880,
 * 5840-5864, 5759-5777, 5689, 4786-4857): a burst held by
 * wall time alone gave a session's last interval, read within the window of the one before, no hardware
 * movement while its software counters moved (tests/unit/test_pmu_sim.c test_burst). */
#define READ_BURST_NS 50000000LL
static void end_burst(struct sim_ctx *c)
{
	c->sampled_wall = 0;
	for (int i = 0; i < c->ngroups; i++)
		c->groups[i]->read_in_burst = false;
}

static int64_t now_ns(struct sim_ctx *c)
{
	struct timespec w;
	int64_t wall;

	if (S.clock)
		return S.clock(c->cpu_wide, c->process, c->target);
	clock_gettime(CLOCK_MONOTONIC, &w);
	wall = (int64_t)w.tv_sec * 1000000000LL + w.tv_nsec;
	if (c->sampled_wall && wall - c->sampled_wall < READ_BURST_NS)
		return c->sampled_ns;
	end_burst(c);
	c->sampled_wall = wall;
	c->sampled_ns = real_clock(c->cpu_wide, c->process, c->target);
	return c->sampled_ns;
}

/* ---- constraints and scheduling ---- */

static int gp_count(void)
{
	return S.smt ? S.model->gp_smt_on : S.model->gp_smt_off;
}

static uint64_t gp_mask(void)
{
	return (1ULL << gp_count()) - 1;
}

static bool is_metric_cfg(uint64_t config) /* is_metric_event, arch/x86/events/perf_event.h:94 */
{
	return !(config & EVSEL_EVENT) && (config & ARCH_EVENT_MASK) >= TD_METRIC_FIRST &&
	       (config & ARCH_EVENT_MASK) <= TD_METRIC_LAST;
}

static bool has_metrics(void)
{
	return S.model->topdown_events > 0;
}

/* x86_get_event_constraints with intel_pmu_check_event_constraints' widening; AMD family 19h:
 * amd_get_event_constraints_f17h (amd/core.c:1236): the Large Increment event 0x003 takes an even
 * counter with its odd neighbour (amd_is_pair_event_code, :351; pair_constraint, :1475). */
static uint64_t counter_mask(uint64_t config)
{
	if (S.model->amd) {
		unsigned code = (unsigned)(((config >> 24) & 0x0f00) | (config & 0xff)); /* amd_get_event_code, :346 */
		if (code == 0x003) {
			uint64_t even = 0;
			for (int i = 0; i < gp_count() - 1; i += 2)
				even |= 1ULL << i;
			return even;
		}
		return gp_mask();
	}
	for (const struct constraint *c = S.model->constraints; c->mask || c->kind != C_EVENT; c++) {
		uint64_t ev = config & EVSEL_EVENT;
		switch (c->kind) {
		case C_FIXED:
			if ((config & FIXED_FLAGS) != c->code)
				continue;
			if (c->code == TD_SLOTS) /* INTEL_PMC_MSK_TOPDOWN: not widened */
				return (int)c->mask < S.model->fixed ? 1ULL << (IDX_FIXED + c->mask) : 0;
			{
				uint64_t m = (int)c->mask < S.model->fixed ? 1ULL << (IDX_FIXED + c->mask) : 0;
				if (c->code & 0xff) /* !use_fixed_pseudo_encoding: widened to the GP counters */
					m |= gp_mask();
				return m;
			}
		case C_METRIC:
			if ((config & ARCH_EVENT_MASK) != c->code)
				continue;
			return 1ULL << (IDX_METRIC + c->mask);
		case C_EVENT:
			if (ev != c->code)
				continue;
			return c->mask & gp_mask();
		case C_UEVENT:
			if ((config & ARCH_EVENT_MASK) != c->code)
				continue;
			return c->mask & gp_mask();
		case C_RANGE:
			if (ev < c->code || ev > c->end)
				continue;
			return c->mask & gp_mask();
		}
	}
	return gp_mask(); /* unconstrained */
}

static const struct extra_reg *extra_reg_of(uint64_t config)
{
	if (!S.model->xregs)
		return NULL;
	for (const struct extra_reg *x = S.model->xregs; x->event; x++)
		if ((config & ARCH_EVENT_MASK) == x->event)
			return x;
	return NULL;
}

struct sched_item {
	uint64_t mask;
	uint64_t config, config1;
};

static bool try_assign(const struct sched_item *it, int n, int i, uint64_t *owner_used, int *owner, bool *seen)
{
	for (int b = 0; b < 64; b++) {
		if (!(it[i].mask >> b & 1) || seen[b])
			continue;
		seen[b] = true;
		if (!(*owner_used >> b & 1) || try_assign(it, n, owner[b], owner_used, owner, seen)) {
			*owner_used |= 1ULL << b;
			owner[b] = i;
			return true;
		}
	}
	return false;
}

/* Can these events be on the PMU at once? The counters (a complete matching) and the shared extra registers. */
static bool schedulable(const struct sched_item *it, int n)
{
	uint64_t used = 0;
	int owner[64];
	uint64_t rsp[2] = { 0 };
	int nrsp = 0;
	uint64_t fe = 0;
	bool have_fe = false;

	for (int i = 0; i < n; i++) {
		bool seen[64] = { 0 };
		if (!try_assign(it, n, i, &used, owner, seen))
			return false;
		const struct extra_reg *x = extra_reg_of(it[i].config);
		if (!x)
			continue;
		if (x->idx == X_RSP0 || x->idx == X_RSP1) {
			/* __intel_shared_reg_get_constraints: the same value shares the MSR; another takes the
			 * other OFFCORE_RSP MSR (intel_alt_er); a third has the empty constraint */
			bool same = false;
			for (int k = 0; k < nrsp; k++)
				same |= rsp[k] == it[i].config1;
			if (same)
				continue;
			if (nrsp == 2)
				return false;
			rsp[nrsp++] = it[i].config1;
		} else if (x->idx == X_FE) {
			if (have_fe && fe != it[i].config1)
				return false;
			fe = it[i].config1;
			have_fe = true;
		}
	}
	return true;
}

/* AMD's Large Increment per Cycle event takes an even counter and the odd one after it (PERF_X86_EVENT_PAIR:
 * perf_sched_find_counter marks idx + 1 used too, arch/x86/events/core.c). Other AMD events take any counter,
 * so the odd half is an item of its own on the odd counters: the matchings are the same. */
static bool is_pair(uint64_t config)
{
	return S.model->amd && (((config >> 24) & 0x0f00) | (config & 0xff)) == 0x003;
}

static int add_item(struct sched_item *it, int n, uint64_t config, uint64_t config1)
{
	it[n].mask = counter_mask(config);
	it[n].config = config;
	it[n].config1 = config1;
	n++;
	if (is_pair(config)) {
		it[n].mask = (it[n - 1].mask << 1) & gp_mask();
		it[n].config = it[n].config1 = 0;
		n++;
	}
	return n;
}

static int add_items(struct sched_item *it, int n, const struct sim_group *g, const struct sim_event *extra)
{
	for (int i = 0; i < g->n; i++)
		if (g->ev[i]->enabled || i == 0)
			n = add_item(it, n, g->ev[i]->config, g->ev[i]->config1);
	if (extra)
		n = add_item(it, n, extra->config, extra->config1);
	return n;
}

static int watchdog_items(struct sched_item *it)
{
	if (!S.watchdog)
		return 0;
	/* the NMI watchdog: a pinned PERF_COUNT_HW_CPU_CYCLES event (kernel/watchdog_perf.c) */
	it[0].config = S.model->amd ? 0x76 : 0x3c;
	it[0].config1 = 0;
	it[0].mask = S.model->amd ? gp_mask() : 1ULL << (IDX_FIXED + 1);
	return 1;
}

/* ---- contexts and counting ---- */

static struct sim_ctx *ctx_for(bool cpu_wide, bool process, int target)
{
	for (struct sim_ctx *c = S.ctxs; c; c = c->next)
		if (c->cpu_wide == cpu_wide && c->target == target && c->process == process)
			return c;
	struct sim_ctx *c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->cpu_wide = cpu_wide;
	c->process = process;
	c->target = target;
	c->last_ns = -1;
	c->slice_left_ns = (int64_t)S.mux_ms * 1000000;
	c->next = S.ctxs;
	S.ctxs = c;
	return c;
}

static bool group_enabled(const struct sim_group *g)
{
	return g->n > 0 && g->ev[0]->enabled;
}

/* Which groups are on the PMU: in order, until the first that does not fit (merge_sched_in). Returns whether
 * one did not (rotate_necessary). */
static bool schedule(struct sim_ctx *c)
{
	struct sched_item it[256];
	int n = watchdog_items(it);
	bool can_add = true, rotate = false;

	for (int i = 0; i < c->ngroups; i++) {
		struct sim_group *g = c->groups[i];
		g->scheduled = false;
		if (!group_enabled(g))
			continue;
		if (can_add && n + 2 * g->n <= 256) {
			int m = add_items(it, n, g, NULL);
			if (schedulable(it, m)) {
				n = m;
				g->scheduled = true;
				continue;
			}
		}
		can_add = false;
		rotate = true;
	}
	return rotate;
}

/* Advance a context's events by dt ns of its target's CPU time. */
static void run_for(struct sim_ctx *c, int64_t dt)
{
	for (int i = 0; i < c->ngroups; i++) {
		struct sim_group *g = c->groups[i];
		if (!group_enabled(g))
			continue;
		for (int k = 0; k < g->n; k++) {
			struct sim_event *e = g->ev[k];
			if (!e->enabled)
				continue;
			e->enabled_ns += (uint64_t)dt;
			if (g->scheduled) {
				e->running_ns += (uint64_t)dt;
				/* the emulated work is all user mode: an event excluding it counts nothing */
				if (!e->attr.exclude_user)
					e->running_cycles += (long double)dt * S.cycles_per_ns;
			}
		}
	}
}

static void advance(struct sim_ctx *c)
{
	int64_t now = now_ns(c);
	int64_t slice = (int64_t)S.mux_ms * 1000000;

	if (now < 0)
		return; /* the target is gone: its counts stay */
	if (c->last_ns < 0 || now < c->last_ns) {
		c->last_ns = now;
		return;
	}
	int64_t left = now - c->last_ns;
	while (left > 0) {
		bool rotate = schedule(c);
		int64_t step = left < c->slice_left_ns ? left : c->slice_left_ns;
		run_for(c, step);
		left -= step;
		c->slice_left_ns -= step;
		if (c->slice_left_ns <= 0) {
			c->slice_left_ns = slice;
			if (rotate && c->ngroups > 1) { /* the first active group to the tail (rotate_ctx) */
				int first = -1;
				for (int i = 0; i < c->ngroups && first < 0; i++)
					if (c->groups[i]->scheduled)
						first = i;
				if (first < 0)
					first = 0;
				struct sim_group *g = c->groups[first];
				memmove(&c->groups[first], &c->groups[first + 1],
					(size_t)(c->ngroups - first - 1) * sizeof(c->groups[0]));
				c->groups[c->ngroups - 1] = g;
			}
		}
	}
	schedule(c);
	c->last_ns = now;
}

/* An event's count: rate x the cycles it ran; a metric event, slots x its PERF_METRICS byte / 0xff. */
static uint64_t value_of(const struct sim_event *e)
{
	uint64_t v;

	if (e->metric >= 0) {
		const struct sim_event *lead = e->group->ev[0];
		uint64_t slots = (uint64_t)floorl(lead->rate * e->running_cycles);
		v = (uint64_t)(((unsigned __int128)slots * e->metric_byte) / 0xff); /* mul_u64_u32_div */
	} else {
		v = (uint64_t)floorl(e->rate * e->running_cycles);
	}
	return v - (v >= e->base ? e->base : v);
}

/* ---- the system calls ---- */

static bool is_sim_fd(int fd)
{
	return fd >= 0 && fd < MAX_FD && __atomic_load_n(&S.fds[fd], __ATOMIC_ACQUIRE) != NULL;
}

static bool perfmon_capable(void)
{
	struct {
		uint32_t version;
		int pid;
	} hdr = { 0x20080522, 0 }; /* _LINUX_CAPABILITY_VERSION_3 */
	struct {
		uint32_t effective, permitted, inheritable;
	} data[2] = { { 0 } };

	if (raw(SYS_capget, (long)&hdr, (long)data, 0, 0, 0, 0) != 0)
		return geteuid() == 0;
	/* perfmon_capable(): CAP_PERFMON (38) or CAP_SYS_ADMIN (21) */
	return (data[0].effective >> 21 & 1) || (data[1].effective >> (38 - 32) & 1);
}

/* The hardware encoding of a hardware event, or -errno (x86_pmu_hw_config / x86_setup_perfctr). */
static int hw_encoding(const struct perf_event_attr *a, uint64_t *config)
{
	if (a->type == PERF_TYPE_HARDWARE) {
		/* intel_perfmon_event_map (intel/core.c:32-42); Zen 4: amd_zen4_perfmon_event_map (amd/core.c:
		 * 276-286, chosen by amd_pmu_event_map for X86_FEATURE_ZEN4, :288-292). An id the map leaves 0 is
		 * -ENOENT, one beyond it -EINVAL (x86_setup_perfctr, arch/x86/events/core.c:499-510) */
		static const uint64_t intel_map[] = { 0x003c, 0x00c0, 0x4f2e, 0x412e, 0x00c4,
						      0x00c5, 0x013c, 0,      0,      0x0300 };
		static const uint64_t amd_map[] = { 0x0076, 0x00c0, 0xff60, 0x0964, 0x00c2,
						    0x00c3, 0,	    0x00a9, 0,	    0x100000120ULL };
		uint64_t id = a->config & 0xffffffffULL;
		if (id >= 10)
			return -EINVAL;
		*config = S.model->amd ? amd_map[id] : intel_map[id];
		return *config ? 0 : -ENOENT;
	}
	*config = a->config;
	return 0;
}

static long sim_open(struct perf_event_attr *uattr, long pid, long cpu, long group_fd, unsigned long flags)
{
	struct perf_event_attr a;
	uint64_t config;
	int rc;

	memset(&a, 0, sizeof(a));
	memcpy(&a, uattr, uattr->size && uattr->size < sizeof(a) ? uattr->size : sizeof(a));
	/* perf_event_open, kernel/events/core.c:12850-12863 */
	if (!a.exclude_kernel && S.paranoid > 1 && !perfmon_capable())
		return -EACCES;
	if (pid == -1 && cpu < 0)
		return -EINVAL;
	if (pid == -1 && S.paranoid > 0 && !perfmon_capable()) /* perf_allow_cpu, core.c:4933 */
		return -EACCES;
	if ((rc = hw_encoding(&a, &config)) != 0)
		return rc;
	int target = (int)pid;
	bool cpu_wide = pid == -1 || (flags & PERF_FLAG_PID_CGROUP);
	if (cpu_wide)
		target = (int)cpu;
	else if (pid == 0)
		target = (int)raw(SYS_gettid, 0, 0, 0, 0, 0, 0);
	else {
		char path[64];
		snprintf(path, sizeof(path), "/proc/%d/stat", target);
		if (access(path, F_OK) != 0)
			return -ESRCH;
	}
	bool process = false;
	if (!cpu_wide && a.inherit) {
		char path[64];
		snprintf(path, sizeof(path), "/proc/%d/task/%d", target, target);
		process = access(path, F_OK) == 0; /* a thread-group leader: its process clock covers its threads */
	}
	/* extra registers: x86_pmu_extra_regs, arch/x86/events/core.c:160-180 */
	const struct extra_reg *x = S.model->amd ? NULL : extra_reg_of(config);
	if (x && (a.config1 & ~x->valid_mask))
		return -EINVAL;
	struct sim_group *leader_g = NULL;
	if (group_fd >= 0) {
		if (!is_sim_fd((int)group_fd))
			return -EINVAL; /* a hardware event in a group the emulator does not hold: not emulated */
		struct sim_event *l = S.fds[group_fd];
		leader_g = l->group;
		if (leader_g->ev[0] != l)
			return -EINVAL; /* group_fd must be a leader */
		if (leader_g->ctx->cpu_wide != cpu_wide || leader_g->ctx->target != target)
			return -EINVAL; /* a group on one task and CPU (perf_event_open's group checks) */
	}
	/* PERF_METRICS: intel_pmu_hw_config, intel/core.c:4195-4230 */
	bool metric = false, slots = false;
	if (has_metrics() && (is_metric_cfg(config) || (config & ARCH_EVENT_MASK) == TD_SLOTS)) {
		if (a.config1 || a.config2)
			return -EINVAL;
		if (config & ALL_EVENT_FLAGS)
			return -EINVAL;
		slots = (config & ARCH_EVENT_MASK) == TD_SLOTS;
		if (!slots &&
		    (config & ARCH_EVENT_MASK) <= TD_METRIC_FIRST + ((uint64_t)(S.model->topdown_events - 1) << 8)) {
			metric = true;
			if (a.sample_period)
				return -EINVAL;
			if (!leader_g || (leader_g->ev[0]->config & ARCH_EVENT_MASK) != TD_SLOTS)
				return -EINVAL;
			if (leader_g->ev[0]->attr.sample_period)
				return -EINVAL;
		}
	}
	if (leader_g && leader_g->n >= MAX_GROUP)
		return -EINVAL;
	/* validate_group: collect_events (counters + fixed + metric events), then x86_schedule_events */
	struct sim_event tmp = { .config = config, .config1 = a.config1, .enabled = true };
	struct sched_item it[2 * (MAX_GROUP + 1)];
	int n = 0, nmetric = metric;
	int nevents = 1;
	if (leader_g) {
		n = add_items(it, 0, leader_g, &tmp);
		for (int i = 0; i < leader_g->n; i++) {
			nmetric += has_metrics() && is_metric_cfg(leader_g->ev[i]->config);
			nevents += leader_g->ev[i]->enabled || i == 0;
		}
	} else {
		n = add_items(it, 0, &(struct sim_group){ .n = 0 }, &tmp);
	}
	if (nevents > gp_count() + S.model->fixed + nmetric) /* collect_event, arch/x86/events/core.c:1147 */
		return -EINVAL;
	if (!schedulable(it, n)) /* validate_group -> x86_schedule_events, core.c:2394-2440 */
		return -EINVAL;

	int fd = (int)raw(SYS_openat, AT_FDCWD, (long)"/dev/null", O_RDONLY | O_CLOEXEC, 0, 0, 0);
	if (fd < 0)
		return -errno;
	if (fd >= MAX_FD) {
		raw(SYS_close, fd, 0, 0, 0, 0, 0);
		return -EMFILE; /* beyond the emulator's descriptor table: said, not dropped */
	}
	struct sim_event *e = calloc(1, sizeof(*e));
	struct sim_ctx *c = leader_g ? leader_g->ctx : ctx_for(cpu_wide, process, target);
	struct sim_group *g = leader_g ? leader_g : calloc(1, sizeof(*g));
	if (!e || !c || !g || (!leader_g && c->ngroups >= (int)(sizeof(c->groups) / sizeof(c->groups[0])))) {
		free(e);
		if (!leader_g)
			free(g);
		raw(SYS_close, fd, 0, 0, 0, 0, 0);
		return -ENOMEM;
	}
	advance(c); /* what ran so far ran without it */
	e->fd = fd;
	e->attr = a;
	e->config = config;
	e->config1 = a.config1;
	e->slots = slots;
	e->metric = metric ? (int)(((config & ARCH_EVENT_MASK) - TD_METRIC_FIRST) >> 8) : -1;
	e->enabled = !a.disabled || a.enable_on_exec; /* enable_on_exec: the target execs at once (tdctl run) */
	e->id = S.next_id++;
	e->group = g;
	/* the rate: the trace's event of the same encoding */
	for (int i = 0; i < S.ntrace; i++) {
		struct trace_event *t = &S.trace[i];
		if (!t->ok || match_bits(t->config) != match_bits(config) || t->config1 != e->config1)
			continue;
		if (S.trace_cycles > 0)
			e->rate = t->count / S.trace_cycles;
		if (metric) {
			/* the PERF_METRICS byte: the trace's fraction of its slots */
			long double tslots = 0;
			for (int k = 0; k < S.ntrace; k++)
				if (S.trace[k].ok && (S.trace[k].config & ARCH_EVENT_MASK) == TD_SLOTS)
					tslots = S.trace[k].count;
			e->metric_byte = tslots > 0 ? (unsigned)llroundl(t->count / tslots * 255.0L) : 0;
		}
		break;
	}
	if (!leader_g)
		c->groups[c->ngroups++] = g;
	g->ctx = c;
	g->ev[g->n++] = e;
	__atomic_store_n(&S.fds[fd], e, __ATOMIC_RELEASE);
	schedule(c);
	return fd;
}

static ssize_t sim_read(struct sim_event *e, void *buf, size_t count)
{
	uint64_t out[3 + 3 * MAX_GROUP + 2];
	size_t n = 0;
	uint64_t rf = e->attr.read_format;
	struct sim_group *g = e->group;

	if (g->read_in_burst)
		end_burst(g->ctx); /* the next pass over the groups */
	advance(g->ctx);
	g->read_in_burst = true;
	if (rf & PERF_FORMAT_GROUP) {
		/* { nr; time_enabled; time_running; { value; id; lost; } cntr[nr] } of the leader's group */
		struct sim_event *l = g->ev[0];
		out[n++] = (uint64_t)g->n;
		if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
			out[n++] = l->enabled_ns;
		if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
			out[n++] = l->running_ns;
		for (int k = 0; k < g->n; k++) {
			out[n++] = value_of(g->ev[k]);
			if (rf & PERF_FORMAT_ID)
				out[n++] = g->ev[k]->id;
			if (rf & PERF_FORMAT_LOST)
				out[n++] = 0;
		}
	} else {
		out[n++] = value_of(e);
		if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
			out[n++] = e->enabled_ns;
		if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
			out[n++] = e->running_ns;
		if (rf & PERF_FORMAT_ID)
			out[n++] = e->id;
		if (rf & PERF_FORMAT_LOST)
			out[n++] = 0;
	}
	if (count < n * sizeof(uint64_t))
		return -ENOSPC; /* perf_read, kernel/events/core.c:5854 */
	memcpy(buf, out, n * sizeof(uint64_t));
	return (ssize_t)(n * sizeof(uint64_t));
}

static int sim_ioctl(struct sim_event *e, unsigned long req, unsigned long arg)
{
	struct sim_group *g = e->group;
	struct sim_event *only[1] = { e };
	struct sim_event **set = (arg & PERF_IOC_FLAG_GROUP) ? g->ev : only;
	int n = (arg & PERF_IOC_FLAG_GROUP) ? g->n : 1;

	advance(g->ctx);
	switch (req) {
	case PERF_EVENT_IOC_ENABLE:
	case PERF_EVENT_IOC_DISABLE:
		for (int i = 0; i < n; i++)
			set[i]->enabled = req == PERF_EVENT_IOC_ENABLE;
		break;
	case PERF_EVENT_IOC_RESET:
		for (int i = 0; i < n; i++) {
			set[i]->base = 0;
			set[i]->base = value_of(set[i]);
		}
		break;
	case PERF_EVENT_IOC_ID:
		if (!arg)
			return -EFAULT;
		memcpy((void *)arg, &e->id, sizeof(e->id));
		return 0;
	default:
		return -ENOTTY;
	}
	schedule(g->ctx);
	return 0;
}

static void sim_close(struct sim_event *e)
{
	struct sim_group *g = e->group;
	struct sim_ctx *c = g->ctx;

	advance(c);
	__atomic_store_n(&S.fds[e->fd], NULL, __ATOMIC_RELEASE);
	int at = 0;
	while (at < c->ngroups && c->groups[at] != g)
		at++;
	if (g->ev[0] == e) {
		/* perf_group_detach: the siblings become singleton groups, in the leader's place */
		int sib = g->n - 1;
		memmove(&c->groups[at], &c->groups[at + 1], (size_t)(c->ngroups - at - 1) * sizeof(c->groups[0]));
		c->ngroups--;
		for (int k = 1; k <= sib && c->ngroups < (int)(sizeof(c->groups) / sizeof(c->groups[0])); k++) {
			struct sim_group *s = calloc(1, sizeof(*s));
			if (!s)
				break;
			s->ctx = c;
			s->ev[0] = g->ev[k];
			s->n = 1;
			g->ev[k]->group = s;
			c->groups[c->ngroups++] = s;
		}
		free(g);
	} else {
		for (int k = 0; k < g->n; k++)
			if (g->ev[k] == e) {
				memmove(&g->ev[k], &g->ev[k + 1], (size_t)(g->n - k - 1) * sizeof(g->ev[0]));
				g->n--;
				break;
			}
	}
	free(e);
	schedule(c);
}

/* Is this an event the emulator presents (a hardware event of the host's cpu PMU)? */
static bool ours(const struct perf_event_attr *a)
{
	return S.model && (a->type == PERF_TYPE_HARDWARE || a->type == PERF_TYPE_RAW ||
			   (S.pmu_type >= 0 && a->type == (uint32_t)S.pmu_type));
}

long pmu_sim_perf_event_open(struct perf_event_attr *attr, long pid, long cpu, long group_fd, unsigned long flags)
{
	long rc;

	pthread_mutex_lock(&lock);
	load();
	if (!ours(attr) && !(group_fd >= 0 && is_sim_fd((int)group_fd))) {
		pthread_mutex_unlock(&lock);
		return raw(SYS_perf_event_open, (long)attr, pid, cpu, group_fd, (long)flags, 0);
	}
	if (!ours(attr)) {
		rc = -EINVAL; /* a software event in an emulated group: not emulated */
	} else {
		rc = sim_open(attr, pid, cpu, group_fd, flags);
	}
	sim_log("open type %u config %#llx config1 %#llx pid %ld cpu %ld group %ld: %s%ld", attr->type,
		(unsigned long long)attr->config, (unsigned long long)attr->config1, pid, cpu, group_fd,
		rc < 0 ? "errno " : "fd ", rc < 0 ? -rc : rc);
	pthread_mutex_unlock(&lock);
	if (rc < 0) {
		errno = (int)-rc;
		return -1;
	}
	return rc;
}

long syscall(long number, ...)
{
	long a[6];
	va_list ap;

	va_start(ap, number);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (number == SYS_perf_event_open)
		/* the kernel's pid, cpu and group_fd are ints: a caller passing int -1 leaves the upper half of the
		 * register undefined */
		return pmu_sim_perf_event_open((struct perf_event_attr *)a[0], (int)a[1], (int)a[2], (int)a[3],
					       (unsigned long)a[4]);
	return raw(number, a[0], a[1], a[2], a[3], a[4], a[5]);
}

ssize_t read(int fd, void *buf, size_t count)
{
	static ssize_t (*real)(int, void *, size_t);

	if (is_sim_fd(fd)) {
		pthread_mutex_lock(&lock);
		ssize_t rc = is_sim_fd(fd) ? sim_read(S.fds[fd], buf, count) : -EBADF;
		pthread_mutex_unlock(&lock);
		if (rc < 0) {
			errno = (int)-rc;
			return -1;
		}
		return rc;
	}
	if (!real)
		real = (ssize_t(*)(int, void *, size_t))dlsym(RTLD_NEXT, "read");
	return real(fd, buf, count);
}

int ioctl(int fd, unsigned long req, ...)
{
	static int (*real)(int, unsigned long, ...);
	va_list ap;
	unsigned long arg;

	va_start(ap, req);
	arg = va_arg(ap, unsigned long);
	va_end(ap);
	if (is_sim_fd(fd)) {
		pthread_mutex_lock(&lock);
		int rc = is_sim_fd(fd) ? sim_ioctl(S.fds[fd], req, arg) : -EBADF;
		pthread_mutex_unlock(&lock);
		if (rc < 0) {
			errno = -rc;
			return -1;
		}
		return rc;
	}
	if (!real)
		real = (int (*)(int, unsigned long, ...))dlsym(RTLD_NEXT, "ioctl");
	return real(fd, req, arg);
}

int close(int fd)
{
	static int (*real)(int);

	if (is_sim_fd(fd)) {
		pthread_mutex_lock(&lock);
		if (is_sim_fd(fd))
			sim_close(S.fds[fd]);
		pthread_mutex_unlock(&lock);
	}
	if (!real)
		real = (int (*)(int))dlsym(RTLD_NEXT, "close");
	return real(fd);
}
