/* test_pmu_sim: the emulated PMU (tests/tools/pmu_sim.c, linked in) against
 * values derived by hand from Linux 6.12.117's rules: rates from a trace,
 * multiplexing, PERF_METRICS, and the errno of groups the kernel refuses.
 * The CPU time the emulator sees is the test's own clock, so every figure is
 * exact; test_burst alone reads the real one (its own thread's CPU time). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "../tools/pmu_sim.h"

static int64_t fake_ns;	  /* the CPU time of every thread */
static int64_t cpu_ns[8]; /* the busy time of each CPU */

static int64_t fake_clock(bool cpu_wide, bool process, int target)
{
	return cpu_wide ? cpu_ns[target] : fake_ns;
}

static char trace_path[256];

/* Use host tree NAME and a trace of "COUNT;;EVENT;RUNTIME;100.00;;" lines. */
static void host(const char *name, const char *trace)
{
	char dir[1024];
	FILE *f;

	snprintf(dir, sizeof(dir), "%s/tests/data/hosts/%s", getenv("TD_SRCDIR") ? getenv("TD_SRCDIR") : "..", name);
	setenv("TD_PMU_SIM_HOST", dir, 1);
	snprintf(trace_path, sizeof(trace_path), "/tmp/test_pmu_sim.%d.csv", (int)getpid());
	f = fopen(trace_path, "w");
	assert_non_null(f);
	fputs(trace, f);
	fclose(f);
	setenv("TD_PMU_SIM_TRACE", trace_path, 1);
	setenv("TD_PMU_SIM_FREQ", "3000000000", 1); /* 3 cycles per ns */
	pmu_sim_reset();
	pmu_sim_set_clock(fake_clock);
	fake_ns = 1000000; /* anything: counting starts at open */
}

static int open_ev(uint32_t type, uint64_t config, uint64_t config1, int group)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = type;
	a.config = config;
	a.config1 = config1;
	a.exclude_kernel = 1;
	a.read_format =
		PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID;
	return (int)syscall(SYS_perf_event_open, &a, 0, -1, group, 0);
}

/* read a group: v[0] = nr, v[1] enabled, v[2] running, then value, id pairs */
static void read_group(int fd, uint64_t *v, size_t n)
{
	ssize_t got = read(fd, v, n * sizeof(uint64_t));
	assert_true(got > 0);
}

static const char *trace_1to2 = "1000000000;;cycles;1000000000;100.00;;\n"
				"2000000000;;instructions;1000000000;100.00;;\n";

/* cycles = CPU ns x 3; instructions advance at 2e9 / 1e9 per cycle */
static void test_rates(void **state)
{
	uint64_t v[16];

	host("skl-bare", trace_1to2);
	int l = open_ev(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 0, -1);
	assert_true(l >= 0);
	int m = open_ev(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 0, l);
	assert_true(m >= 0);
	int r = open_ev(4, 0x01a2, 0, l); /* in no trace: counts 0 */
	assert_true(r >= 0);
	fake_ns += 10000000; /* 10 ms of CPU */
	read_group(l, v, 16);
	assert_int_equal(v[0], 3);
	assert_int_equal(v[1], 10000000);
	assert_int_equal(v[2], 10000000);
	assert_int_equal(v[3], 30000000); /* 10e6 ns x 3 cycles/ns */
	assert_int_equal(v[5], 60000000); /* x 2 */
	assert_int_equal(v[7], 0);
	uint64_t id;
	assert_int_equal(ioctl(m, PERF_EVENT_IOC_ID, &id), 0);
	assert_int_equal(v[6], id);
	/* disabled for 5 ms: neither counts nor time advances */
	assert_int_equal(ioctl(l, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP), 0);
	fake_ns += 5000000;
	assert_int_equal(ioctl(l, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP), 0);
	fake_ns += 1000000;
	read_group(l, v, 16);
	assert_int_equal(v[1], 11000000);
	assert_int_equal(v[3], 33000000);
	/* a buffer shorter than the read: ENOSPC (perf_read) */
	errno = 0;
	assert_int_equal(read(l, v, 16), -1);
	assert_int_equal(errno, ENOSPC);
	close(r);
	close(m);
	close(l);
}

/* Skylake with SMT: 4 general-purpose counters, fixed 0-2, fixed 1 taken by the NMI watchdog (skl-bare's
 * nmi_watchdog is 1). A group of 5 general-purpose events cannot be scheduled: EINVAL at the fifth. */
static void test_group_too_big(void **state)
{
	int fd[5];

	host("skl-bare", trace_1to2);
	fd[0] = open_ev(4, 0x01a2, 0, -1);
	assert_true(fd[0] >= 0);
	for (int i = 1; i < 4; i++) {
		fd[i] = open_ev(4, 0x01a2 + (uint64_t)i * 0x100, 0, fd[0]);
		assert_true(fd[i] >= 0);
	}
	errno = 0;
	assert_int_equal(open_ev(4, 0x10a2, 0, fd[0]), -1);
	assert_int_equal(errno, EINVAL);
	/* INST_RETIRED.ANY (0x00c0) still fits: fixed counter 0 */
	fd[4] = open_ev(4, 0x00c0, 0, fd[0]);
	assert_true(fd[4] >= 0);
	/* cycles (0x003c) opens: validate_group schedules on a fake cpuc that holds no watchdog event. But
	 * fixed 1 is the watchdog's and the 4 GP counters are the group's: the group never runs */
	int cyc = open_ev(4, 0x003c, 0, fd[0]);
	assert_true(cyc >= 0);
	fake_ns += 8000000;
	uint64_t v[16];
	read_group(fd[0], v, 16);
	assert_int_equal(v[0], 6);
	assert_int_equal(v[1], 8000000);
	assert_int_equal(v[2], 0);
	close(cyc);
	fake_ns += 8000000; /* without it, it runs again */
	read_group(fd[0], v, 16);
	assert_int_equal(v[1], 16000000);
	assert_int_equal(v[2], 8000000);
	for (int i = 4; i >= 0; i--)
		close(fd[i]);

	/* SMT off: 8 counters, but MEM_LOAD_RETIRED (0xd1) only on the bottom 4 (intel_skl_event_constraints):
	 * a fifth 0xd1 event is refused */
	host("skl-bare-smtoff", trace_1to2);
	int l = open_ev(4, 0x01d1, 0, -1), k;
	assert_true(l >= 0);
	for (k = 1; k < 4; k++)
		assert_true(open_ev(4, 0x01d1 + (uint64_t)k * 0x100, 0, l) >= 0);
	errno = 0;
	assert_int_equal(open_ev(4, 0x20d1, 0, l), -1);
	assert_int_equal(errno, EINVAL);
	assert_true(open_ev(4, 0x01a2, 0, l) >= 0); /* an unconstrained one takes counter 4 */
}

/* Five single-event groups on 4 counters: every 4 ms of CPU the first active group goes to the tail
 * (rotate_ctx), so over 5 slices each group misses one: running 16 of 20 ms. */
static void test_rotation(void **state)
{
	int fd[5];
	uint64_t v[8];

	host("skl-bare", "1000000000;;cycles;1000000000;100.00;;\n1000000000;;r01a2;1000000000;100.00;;\n");
	for (int i = 0; i < 5; i++) {
		fd[i] = open_ev(4, 0x01a2, 0, -1);
		assert_true(fd[i] >= 0);
	}
	fake_ns += 20000000;
	for (int i = 0; i < 5; i++) {
		read_group(fd[i], v, 8);
		assert_int_equal(v[0], 1);
		assert_int_equal(v[1], 20000000);
		assert_int_equal(v[2], 16000000);
		assert_int_equal(v[3], 48000000); /* 16e6 ns x 3 cycles/ns x 1 per cycle */
	}
	for (int i = 0; i < 5; i++)
		close(fd[i]);
}

/* Offcore response: a second distinct value takes the other MSR (intel_alt_er), a third cannot be
 * scheduled (empty constraint): EINVAL; the same value again shares its MSR. */
static void test_offcore(void **state)
{
	host("skl-bare", trace_1to2);
	int l = open_ev(4, 0x01b7, 0x10001, -1);
	assert_true(l >= 0);
	assert_true(open_ev(4, 0x01b7, 0x10002, l) >= 0);
	errno = 0;
	assert_int_equal(open_ev(4, 0x01bb, 0x10004, l), -1);
	assert_int_equal(errno, EINVAL);
	assert_true(open_ev(4, 0x01bb, 0x10001, l) >= 0);
	/* a value outside OFFCORE_RSP's valid mask (0x3fffff8fff on Skylake): EINVAL */
	errno = 0;
	assert_int_equal(open_ev(4, 0x01b7, 1ULL << 12, -1), -1);
	assert_int_equal(errno, EINVAL);
}

/* PERF_METRICS on Ice Lake: metric events read slots x (8-bit fraction) / 0xff, need SLOTS as leader and no
 * flags; beyond the 4 metrics Ice Lake has, topdown-heavy-ops is no metric event. */
static void test_metrics(void **state)
{
	uint64_t v[16];

	host("icl-perfmetrics", "1000000000;;cycles;1000000000;100.00;;\n"
				"5000000000;;slots;1000000000;100.00;;\n"
				"1250000000;;topdown-retiring;1000000000;100.00;;\n"
				"1000000000;;topdown-be-bound;1000000000;100.00;;\n");
	int l = open_ev(4, 0x0400, 0, -1);
	assert_true(l >= 0);
	assert_true(open_ev(4, 0x8000, 0, l) >= 0);
	assert_true(open_ev(4, 0x8300, 0, l) >= 0);
	errno = 0;
	assert_int_equal(open_ev(4, 0x8000 | (1ULL << 24), 0, l), -1); /* cmask on a metric event */
	assert_int_equal(errno, EINVAL);
	fake_ns += 1000000; /* 3e6 cycles: slots 1.5e7 */
	read_group(l, v, 16);
	assert_int_equal(v[3], 15000000);
	/* retiring 0.25 -> byte round(63.75) = 64; be-bound 0.2 -> 51 */
	assert_int_equal(v[5], 15000000ULL * 64 / 255);
	assert_int_equal(v[7], 15000000ULL * 51 / 255);
	/* a metric event whose leader is not SLOTS: EINVAL */
	int c = open_ev(4, 0x003c, 0, -1);
	assert_true(c >= 0);
	errno = 0;
	assert_int_equal(open_ev(4, 0x8100, 0, c), -1);
	assert_int_equal(errno, EINVAL);
	/* SLOTS with config1: EINVAL */
	errno = 0;
	assert_int_equal(open_ev(4, 0x0400, 1, -1), -1);
	assert_int_equal(errno, EINVAL);
}

/* exclude_kernel = 0 under perf_event_paranoid 2 (skl-bare): EACCES without CAP_PERFMON/CAP_SYS_ADMIN. */
static void test_paranoid(void **state)
{
	struct perf_event_attr a;

	host("skl-bare", trace_1to2);
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_HARDWARE;
	a.config = PERF_COUNT_HW_CPU_CYCLES;
	errno = 0;
	int fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
	if (geteuid() == 0) {
		assert_true(fd >= 0);
		close(fd);
		/* as nobody (no capabilities left): refused, and exclude_kernel = 1 is allowed */
		pid_t child = fork();
		assert_true(child >= 0);
		if (child == 0) {
			if (setgid(65534) != 0 || setuid(65534) != 0)
				_exit(3);
			errno = 0;
			if (syscall(SYS_perf_event_open, &a, 0, -1, -1, 0) != -1 || errno != EACCES)
				_exit(1);
			a.exclude_kernel = 1;
			_exit(syscall(SYS_perf_event_open, &a, 0, -1, -1, 0) >= 0 ? 0 : 2);
		}
		int status = 0;
		assert_int_equal(waitpid(child, &status, 0), child);
		assert_true(WIFEXITED(status));
		assert_int_equal(WEXITSTATUS(status), 0);
	} else {
		assert_int_equal(fd, -1);
		assert_int_equal(errno, EACCES);
	}
}

/* Zen 4 (epyc-2s-256): 6 general-purpose counters, no fixed ones (amd_core_pmu_init): a seventh event in a
 * group is refused. The Large Increment event 0x003 takes an even counter with its odd neighbour
 * (pair_constraint): three fill the 6 counters, a fourth event of any kind is refused. */
static void test_zen4(void **state)
{
	host("epyc-2s-256", "1000000000;;cycles;1000000000;100.00;;\n");
	int l = open_ev(4, 0x76, 0, -1);
	assert_true(l >= 0);
	for (int i = 1; i < 6; i++)
		assert_true(open_ev(4, 0xc0 + (uint64_t)i, 0, l) >= 0);
	errno = 0;
	assert_int_equal(open_ev(4, 0xc2, 0, l), -1);
	assert_int_equal(errno, EINVAL);
	int p = open_ev(4, 0x0f03, 0, -1);
	assert_true(p >= 0);
	assert_true(open_ev(4, 0x0103, 0, p) >= 0);
	assert_true(open_ev(4, 0x0203, 0, p) >= 0);
	errno = 0;
	assert_int_equal(open_ev(4, 0x76, 0, p), -1);
	assert_int_equal(errno, EINVAL);
	/* those groups never run: with the NMI watchdog's counter (epyc-2s-256's nmi_watchdog is 1) 5 are left */
	fake_ns += 20000000;
	uint64_t v[16];
	read_group(l, v, 16);
	assert_int_equal(v[1], 20000000);
	assert_int_equal(v[2], 0);
	/* PERF_TYPE_HARDWARE cycles on AMD is 0x76 (amd_zen4_perfmon_event_map): counted at the trace's cycles rate */
	host("epyc-2s-256", "1000000000;;cycles;1000000000;100.00;;\n");
	int c = open_ev(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 0, -1);
	assert_true(c >= 0);
	fake_ns += 2000000;
	read_group(c, v, 16);
	assert_int_equal(v[3], 6000000);
}

/* A CPU-wide event (pid -1, cpu N) counts at the rates while CPU N is busy. It needs perf_event_paranoid <= 0
 * or CAP_PERFMON (perf_allow_cpu): skl-bare's paranoid is 2, so root only. */
static void test_cpu_wide(void **state)
{
	struct perf_event_attr a;
	uint64_t v[8];

	host("skl-bare", trace_1to2);
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_HARDWARE;
	a.config = PERF_COUNT_HW_INSTRUCTIONS;
	a.exclude_kernel = 1;
	a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	cpu_ns[2] = 1000;
	cpu_ns[3] = 1000;
	errno = 0;
	int fd2 = (int)syscall(SYS_perf_event_open, &a, -1, 2, -1, 0);
	if (geteuid() != 0) {
		assert_int_equal(fd2, -1);
		assert_int_equal(errno, EACCES);
		return;
	}
	assert_true(fd2 >= 0);
	int fd3 = (int)syscall(SYS_perf_event_open, &a, -1, 3, -1, 0);
	assert_true(fd3 >= 0);
	cpu_ns[2] += 5000000;
	cpu_ns[3] += 7000000;
	fake_ns += 1000000000; /* threads' time is not the CPUs' */
	read_group(fd2, v, 8);
	assert_int_equal(v[3], 30000000); /* 5e6 ns x 3 cycles/ns x 2 */
	read_group(fd3, v, 8);
	assert_int_equal(v[1], 7000000);
	assert_int_equal(v[3], 42000000);
	close(fd2);
	close(fd3);
}

/* This thread's CPU time (what the emulator's real clock reads for it). */
static int64_t thread_cpu_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (int64_t)t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* The real clock: a group read again starts the next burst of reads, so
 * that it sees the CPU time since, however soon after the first read it
 * comes (with the burst held 50 ms of wall time, a read 5 ms of CPU later
 * returned the first read's times: a session's last interval, read soon
 * after the one before, had software counts and no hardware movement). */
static void test_burst(void **state)
{
	uint64_t a[8], b[8];
	volatile uint64_t x = 0;

	(void)state;
	host("skl-bare", trace_1to2);
	pmu_sim_set_clock(NULL);
	int l = open_ev(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 0, -1);
	assert_true(l >= 0);
	read_group(l, a, 8);
	int64_t until = thread_cpu_ns() + 5000000; /* 5 ms of this thread's CPU */
	while (thread_cpu_ns() < until)
		x++;
	read_group(l, b, 8);
	/* at least the 5 ms burned, at 3 cycles per ns: the time since the first read's sample */
	assert_true(b[1] - a[1] >= 5000000);
	assert_true(b[3] - a[3] >= 15000000);
	assert_int_equal((b[3] - a[3]) % 3, 0);
	close(l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rates),	cmocka_unit_test(test_group_too_big), cmocka_unit_test(test_rotation),
		cmocka_unit_test(test_offcore), cmocka_unit_test(test_metrics),	      cmocka_unit_test(test_paranoid),
		cmocka_unit_test(test_zen4),	cmocka_unit_test(test_cpu_wide),      cmocka_unit_test(test_burst),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);

	pmu_sim_reset();
	unlink(trace_path);
	return rc;
}
