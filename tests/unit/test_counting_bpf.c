/* Unit tests for the BPF counting mode's user-space half (counting.h), live
 * on this process: the names of the modes; a thread's sums (CPU time from
 * the per-CPU clock, its switches) against what the thread measured of
 * itself (CLOCK_THREAD_CPUTIME_ID, its own sleeps); exited threads' sums
 * given back once read, their slots taken by the next threads; a map too
 * small counts what it lost; two views with
 * the same events share one program and keep to their own processes; a
 * cgroup's sums hold what ran in it and below it, not what ran outside
 * (test_counting_bpf_cgroup). Each binary skips as a whole where the
 * program does not load (and the cgroup one where no cgroup v2 group can
 * be made). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <mntent.h>
#include <dirent.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "collect/counting.h"

/* Two binaries from this file: test_counting_bpf runs the cases of the
 * threads and processes, test_counting_bpf_cgroup (TD_TEST_CGROUP) the
 * cgroup case; each leaves the other's functions unused. */
#pragma GCC diagnostic ignored "-Wunused-function"

static bool bpf_loads;
static td_err bpf_why;

static void test_mode_names(void **state)
{
	enum td_counting_mode m = TD_COUNTING_AUTO;

	(void)state;
	assert_int_equal(td_counting_mode_parse("bpf", &m), 0);
	assert_int_equal(m, TD_COUNTING_BPF);
	assert_int_equal(td_counting_mode_parse("per-thread", &m), 0);
	assert_int_equal(m, TD_COUNTING_PER_THREAD);
	assert_int_equal(td_counting_mode_parse("auto", &m), 0);
	assert_int_equal(m, TD_COUNTING_AUTO);
	assert_int_equal(td_counting_mode_parse("perthread", &m), -1);
	assert_int_equal(td_counting_mode_parse("", &m), -1);
	assert_int_equal(m, TD_COUNTING_AUTO); /* untouched by a refusal */
	assert_string_equal(td_counting_mode_name(TD_COUNTING_PER_THREAD), "per-thread");
	assert_string_equal(td_counting_mode_name(TD_COUNTING_BPF), "bpf");
}

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

#define SLEEPS 5

struct worker {
	pid_t tid;
	uint64_t cpu_ns; /* its CPU time just before it ends, as it measured it */
};

/* 20 ms of CPU, then SLEEPS sleeps of 1 ms (each a voluntary switch), its own CPU time, the end. */
static void *work(void *arg)
{
	struct worker *w = arg;
	struct timespec ms = { 0, 1000000 };
	uint64_t start = thread_cpu_ns();

	w->tid = (pid_t)syscall(SYS_gettid);
	while (thread_cpu_ns() - start < 20000000)
		;
	for (int i = 0; i < SLEEPS; i++)
		nanosleep(&ms, NULL);
	w->cpu_ns = thread_cpu_ns();
	return NULL;
}

/* The time the program gave to nobody: after switches it did not see
 * (counting.bpf.c: the time since its base, or the time a followed thread
 * ran after it was switched in unseen, which the kernel accounts for
 * fair-class threads, as every thread here is). A thread's sums may lack
 * up to that much. */
static uint64_t unseen_ns(const struct td_bpf_counting *b)
{
	struct td_bpf_counting_stats st;

	td_bpf_counting_stats(b, &st);
	assert_int_equal(st.unseen_untimed, 0);
	return st.unseen_ns;
}

/* The time the hypervisor has stolen from every CPU so far (/proc/stat, in
 * whole 1/USER_HZ units), ns. The program's clocks (the per-CPU CPU_CLOCK,
 * bpf_ktime_get_ns) run on through it; a thread's own CPU time
 * (CLOCK_THREAD_CPUTIME_ID) leaves it out (PARAVIRT_TIME_ACCOUNTING). */
static uint64_t steal_ns(void)
{
	unsigned long long f[8] = { 0 };
	FILE *p = fopen("/proc/stat", "r");
	long hz = sysconf(_SC_CLK_TCK);

	if (!p)
		return 0;
	if (fscanf(p, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &f[0], &f[1], &f[2], &f[3], &f[4], &f[5], &f[6],
		   &f[7]) != 8)
		f[7] = 0;
	fclose(p);
	return f[7] * (1000000000ull / (uint64_t)hz);
}

/* A worker's sums hold its CPU time as it measured it: short by at most
 * half a millisecond and what the program gave to nobody, over by at most
 * half a millisecond (its exit) and what may have been stolen since
 * steal0 (a reading of 0 may hide one unit of 10 ms). */
static void cpu_agrees(const struct td_bpf_counting *b, const struct td_bpf_thread_sums *s, const struct worker *w,
		       uint64_t steal0)
{
	uint64_t half_ms = 500000, unseen = unseen_ns(b),
		 stolen = steal_ns() - steal0 + 1000000000ull / (uint64_t)sysconf(_SC_CLK_TCK);

	if (s->value[0] + half_ms + unseen < w->cpu_ns || s->value[0] > w->cpu_ns + half_ms + stolen)
		fail_msg("thread %d: %llu ns counted, %llu ns of CPU measured by itself (%llu ns given to nobody, "
			 "at most %llu ns stolen meanwhile)",
			 (int)w->tid, (unsigned long long)s->value[0], (unsigned long long)w->cpu_ns,
			 (unsigned long long)unseen, (unsigned long long)stolen);
}

static void wait_gone(pid_t tid)
{
	char path[64];
	struct timespec ms = { 0, 1000000 };

	snprintf(path, sizeof(path), "/proc/self/task/%d", (int)tid);
	for (int i = 0; i < 5000 && access(path, F_OK) == 0; i++)
		nanosleep(&ms, NULL);
	assert_int_not_equal(access(path, F_OK), 0);
}

/* Read until tid's sums are final: its last switch out comes a moment
 * after its /proc entry is gone (release_task() is before do_task_dead()). */
static const struct td_bpf_thread_sums *read_final(struct td_bpf_counting *b, pid_t tid)
{
	const struct td_bpf_thread_sums *s = NULL;
	struct timespec ms = { 0, 1000000 };

	for (int i = 0; i < 5000; i++) {
		assert_true(td_bpf_counting_read(b) >= 1);
		if ((s = td_bpf_counting_find(b, tid)) && (s->flags & TD_BPF_SUMS_EXITED))
			return s;
		nanosleep(&ms, NULL);
	}
	fail_msg("thread %d: no last switch out seen in 5 s", (int)tid);
	return NULL;
}

/* grouped: the two events one perf group per CPU (as a plan's group is), else one each */
static struct td_bpf_counting *counting_as(int map_entries, bool grouped, unsigned what)
{
	struct perf_event_attr a[2] = {
		{ .type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_TASK_CLOCK },
		{ .type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_CONTEXT_SWITCHES },
	};
	const bool leads[2] = { true, !grouped };
	struct td_bpf_counting *b;
	td_err why;

	if (!(b = td_bpf_counting_new(a, leads, 2, what, map_entries, &why)))
		fail_msg("%s", why.msg);
	assert_int_equal(td_bpf_counting_follow(b, getpid()), 0);
	return b;
}

static struct td_bpf_counting *counting(int map_entries)
{
	return counting_as(map_entries, false, 0);
}

static bool keep_none(void *ctx, pid_t tid)
{
	(void)ctx, (void)tid;
	return false;
}

static void thread_sums(bool grouped)
{
	struct td_bpf_counting *b;
	const struct td_bpf_thread_sums *s;
	struct td_bpf_counting_stats st;
	struct worker w = { 0 };
	pthread_t th;
	uint64_t half_ms = 500000, steal0;

	b = counting_as(64, grouped, 0);
	steal0 = steal_ns();
	assert_int_equal(pthread_create(&th, NULL, work, &w), 0);
	pthread_join(th, NULL);
	wait_gone(w.tid);
	s = read_final(b, w.tid);
	assert_int_equal(s->pid, getpid());
	/* its CPU time: what it measured, up to its last instructions after that */
	cpu_agrees(b, s, &w, steal0);
	/* the program's own clock agrees; a software counter always runs */
	assert_true(s->oncpu_ns + half_ms >= s->value[0] && s->oncpu_ns <= s->value[0] + half_ms);
	assert_true(s->enabled[0] == s->running[0]);
	assert_true(s->running[0] + half_ms >= s->value[0]);
	/* the other event counted all the time it was enabled, as long as the first (read a
	 * moment later at each switch: the same time to a few microseconds). A member that
	 * joined its group after the leader was enabled would never be scheduled in:
	 * running 0. Grouped, its times are its group's (the sums hold them by group) */
	if (grouped) {
		assert_true(s->enabled[1] == 0 && s->running[1] == 0); /* one group, one pair of times */
		assert_true(s->value[1] >= SLEEPS);		       /* a member counting: its switches */
	} else {
		assert_true(s->running[1] == s->enabled[1] && s->enabled[1] > 0);
		assert_true(s->enabled[1] + half_ms >= s->enabled[0] && s->enabled[1] <= s->enabled[0] + half_ms);
	}
	/* each sleep is a voluntary switch, and the exit one more */
	assert_true(s->voluntary >= SLEEPS);
	/* read once, gone: deleted, nothing lost */
	assert_true(td_bpf_counting_drop_exited(b, keep_none, NULL) >= 1);
	td_bpf_counting_read(b);
	assert_null(td_bpf_counting_find(b, w.tid));
	td_bpf_counting_stats(b, &st);
	assert_int_equal(st.lost_switches, 0);
	assert_int_equal(st.read_errors, 0);
	assert_int_equal(st.seq_errors, 0);
	assert_int_equal(st.map_entries, 64);
	assert_true(st.kernel_bytes > 0);
	td_bpf_counting_free(b);
}

static void test_thread_sums(void **state)
{
	(void)state;
	thread_sums(false);
}

/* The same with the two events in one perf group per CPU, as a plan's groups are opened. */
static void test_thread_sums_grouped(void **state)
{
	(void)state;
	thread_sums(true);
}

static void test_map_full(void **state)
{
	struct td_bpf_counting *b;
	struct td_bpf_counting_stats st;
	struct worker w[3] = { { 0 } };
	pthread_t th[3];

	(void)state;
	b = counting(1); /* one thread's sums: the others' are lost, and counted */
	for (int i = 0; i < 3; i++)
		assert_int_equal(pthread_create(&th[i], NULL, work, &w[i]), 0);
	for (int i = 0; i < 3; i++)
		pthread_join(th[i], NULL);
	assert_int_equal(td_bpf_counting_read(b), 1);
	td_bpf_counting_stats(b, &st);
	assert_int_equal(st.peak_entries, 1);
	/* at least two of the three workers had no room: each slept SLEEPS times */
	assert_true(st.lost_switches >= 2 * SLEEPS);
	/* ... and ran 20 ms each (the one with room may be another thread of this process) */
	assert_true(st.lost_oncpu_ns >= 2 * 19000000ull);
	td_bpf_counting_free(b);
}

/* A slot given back is the next thread's: two slots (this thread's and a
 * worker's) serve worker after worker, nothing lost, each worker's sums
 * its own (none of the one before in them). */
static void test_slot_reuse(void **state)
{
	struct td_bpf_counting *b;
	struct td_bpf_counting_stats st;
	uint64_t steal0;

	(void)state;
	b = counting(2);
	for (int round = 0; round < 4; round++) {
		struct worker w = { 0 };
		const struct td_bpf_thread_sums *s;
		pthread_t th;
		steal0 = steal_ns();
		assert_int_equal(pthread_create(&th, NULL, work, &w), 0);
		pthread_join(th, NULL);
		wait_gone(w.tid);
		s = read_final(b, w.tid);
		cpu_agrees(b, s, &w, steal0);
		if (s->voluntary < SLEEPS + 1 || s->voluntary > 4 * SLEEPS) /* said with its figure, should it fail */
			fail_msg("round %d, thread %d: %llu voluntary switches, %d sleeps and its exit made", round,
				 (int)w.tid, (unsigned long long)s->voluntary, SLEEPS);
		assert_true(td_bpf_counting_drop_exited(b, keep_none, NULL) >= 1);
		td_bpf_counting_read(b);
		assert_null(td_bpf_counting_find(b, w.tid));
	}
	td_bpf_counting_stats(b, &st);
	assert_int_equal(st.lost_switches, 0);
	assert_true(st.peak_entries <= 2);
	assert_int_equal(st.seq_errors, 0);
	td_bpf_counting_free(b);
}

/* A child process: 20 ms of CPU (in cgroup `cgroup` first, when not NULL),
 * then waits for its parent to close fd. */
static pid_t spinning_child_in(const char *cgroup, int *release)
{
	int p[2];
	pid_t pid;
	char c;

	assert_int_equal(pipe(p), 0);
	if ((pid = fork()) == 0) {
		struct timespec ts;
		uint64_t start;
		close(p[1]);
		if (cgroup) {
			char path[600];
			FILE *f;
			snprintf(path, sizeof(path), "%s/cgroup.procs", cgroup);
			if (!(f = fopen(path, "w")) || fprintf(f, "%d\n", (int)getpid()) < 0 || fclose(f))
				_exit(2);
		}
		if (read(p[0], &c, 1) != 1) /* start_spinning: followed by now */
			_exit(1);
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
		start = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
		do
			clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
		while ((uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec - start < 20000000);
		if (read(p[0], &c, 1) < 0)
			_exit(1);
		_exit(0);
	}
	assert_true(pid > 0);
	close(p[0]);
	*release = p[1];
	return pid;
}

static pid_t spinning_child(int *release)
{
	return spinning_child_in(NULL, release);
}

/* The child spins once told to: after it is followed (a child that spun at
 * once ran up to milliseconds unfollowed when this process waited its turn
 * after the fork, under CI's load: 19 ms asserted, fewer counted). Closing
 * release afterwards lets it end. */
static void start_spinning(int release)
{
	assert_int_equal(write(release, "s", 1), 1);
}

/* A spinning child has spun its 20 ms once it waits in read() again: its
 * state says it sleeps and its schedstat that it ran 20 ms (5 s at most;
 * before it starts it sleeps too, in its first read). */
static void wait_asleep(pid_t child)
{
	for (int i = 0; i < 5000; i++) {
		char path[64], st[256] = "";
		unsigned long long ran = 0;
		FILE *f;
		snprintf(path, sizeof(path), "/proc/%d/stat", (int)child);
		if ((f = fopen(path, "r"))) {
			if (!fgets(st, sizeof(st), f))
				st[0] = '\0';
			fclose(f);
		}
		snprintf(path, sizeof(path), "/proc/%d/schedstat", (int)child);
		if ((f = fopen(path, "r"))) {
			if (fscanf(f, "%llu", &ran) != 1)
				ran = 0;
			fclose(f);
		}
		if (strstr(st, ") S ") && ran >= 20000000ull)
			return;
		usleep(1000);
	}
}

/* Two views with the same events share one program: each follows its own
 * process, reads only its threads and totals, cannot take the other's
 * process, and goes on alone when the other is freed. */
static void test_shared_views(void **state)
{
	struct perf_event_attr a[2] = {
		{ .type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_TASK_CLOCK },
		{ .type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_CONTEXT_SWITCHES },
	};
	const bool leads[2] = { true, true };
	struct td_bpf_counting *mine, *other, *own;
	const struct td_bpf_thread_sums *s;
	struct worker w = { 0 }, late = { 0 };
	pthread_t th;
	td_err why;
	int release, status;
	pid_t child;
	uint64_t steal0;

	(void)state;
	mine = counting(64); /* follows this process */
	if (!(other = td_bpf_counting_new(a, leads, 2, 0, 64, &why)))
		fail_msg("%s", why.msg);
	assert_false(td_bpf_counting_joined(mine));
	assert_true(td_bpf_counting_joined(other));
	assert_int_equal(td_bpf_counting_sharers(mine), 1);
	assert_int_equal(td_bpf_counting_sharers(other), 1);
	assert_int_equal(td_bpf_counting_follow(other, getpid()), -EEXIST);
	child = spinning_child(&release);
	assert_int_equal(td_bpf_counting_follow(other, child), 0);
	start_spinning(release);
	steal0 = steal_ns();
	assert_int_equal(pthread_create(&th, NULL, work, &w), 0);
	pthread_join(th, NULL);
	wait_gone(w.tid);
	wait_asleep(child);

	assert_true(td_bpf_counting_read(mine) >= 1);
	assert_non_null(s = td_bpf_counting_find(mine, w.tid));
	cpu_agrees(mine, s, &w, steal0);
	assert_null(td_bpf_counting_find(mine, child));
	/* this process's total holds the worker's time, not the child's 20 ms on top */
	assert_true(td_bpf_counting_totals(mine)[0] >= s->value[0]);

	assert_int_equal(td_bpf_counting_read(other), 1);
	assert_null(td_bpf_counting_find(other, w.tid));
	assert_non_null(s = td_bpf_counting_find(other, child));
	assert_true(s->value[0] + unseen_ns(other) >= 19000000ull);
	/* the other's total is its one process: the child's one thread */
	assert_int_equal(td_bpf_counting_totals(other)[0], s->value[0]);

	/* freed, the first view's process is followed no more, by anyone */
	td_bpf_counting_free(mine);
	assert_int_equal(td_bpf_counting_sharers(other), 0);
	assert_int_equal(pthread_create(&th, NULL, work, &late), 0);
	pthread_join(th, NULL);
	assert_int_equal(td_bpf_counting_read(other), 1);
	assert_null(td_bpf_counting_find(other, late.tid));
	assert_non_null(td_bpf_counting_find(other, child));

	/* a view may take a program of its own (for a process another view follows) */
	if (!(own = td_bpf_counting_new(a, leads, 2, 0, 64, &why)))
		fail_msg("%s", why.msg);
	assert_true(td_bpf_counting_joined(own));
	assert_int_equal(td_bpf_counting_unshare(own, &why), 0);
	assert_false(td_bpf_counting_joined(own));
	assert_int_equal(td_bpf_counting_sharers(own), 0);
	assert_int_equal(td_bpf_counting_sharers(other), 0);
	assert_int_equal(td_bpf_counting_follow(own, child), 0);
	td_bpf_counting_free(own);

	close(release);
	assert_int_equal(waitpid(child, &status, 0), child);
	td_bpf_counting_free(other);
}

/* ---- a whole planned level: 40 events in 10 groups per CPU, 1,000 threads ---- */

#define WIDE_THREADS 1000
#define WIDE_GROUPS 10
#define WIDE_PER_GROUP 4
#define WIDE_EVENTS (WIDE_GROUPS * WIDE_PER_GROUP)
#define WIDE_KINDS 8
#define WIDE_PAGES 64
#define WIDE_SPIN_NS 500000

/* The software events the wide plan is made of (a level's groups carry
 * some events in several groups, as this plan does: each is in five). */
static const __u64 wide_kinds[WIDE_KINDS] = {
	PERF_COUNT_SW_TASK_CLOCK,      PERF_COUNT_SW_PAGE_FAULTS,      PERF_COUNT_SW_CONTEXT_SWITCHES,
	PERF_COUNT_SW_PAGE_FAULTS_MIN, PERF_COUNT_SW_CPU_CLOCK,	       PERF_COUNT_SW_PAGE_FAULTS_MAJ,
	PERF_COUNT_SW_CPU_MIGRATIONS,  PERF_COUNT_SW_ALIGNMENT_FAULTS,
};

/* Event k of the wide plan: kind (g * 3 + j) % 8 for member j of group g, so
 * that leaders and positions vary. */
static int wide_kind(int k)
{
	return (k / WIDE_PER_GROUP * 3 + k % WIDE_PER_GROUP) % WIDE_KINDS;
}

/* A thread's own perf group of the eight kinds (per-thread counting, as
 * counting_perf.c opens it): values and the group's times, read at the
 * start and at the end of the measured window. */
struct wide_worker {
	pid_t tid;
	int fd[WIDE_KINDS];
	uint64_t ref[2][2 + WIDE_KINDS]; /* per read: enabled, running, values by kind */
	bool ok;
};

static pthread_barrier_t wide_bar[4];

static uint64_t unseen_switches(const struct td_bpf_counting *b)
{
	struct td_bpf_counting_stats st;

	td_bpf_counting_stats(b, &st);
	return st.unseen_switches;
}

static uint64_t wide_scaled(uint64_t v, uint64_t enabled, uint64_t running)
{
	return running ? (uint64_t)((double)v * (double)enabled / (double)running + 0.5) : 0;
}

static bool wide_read(struct wide_worker *w, uint64_t *out)
{
	uint64_t buf[3 + WIDE_KINDS]; /* nr, enabled, running, values (PERF_FORMAT_GROUP) */

	if (read(w->fd[0], buf, sizeof(buf)) != (ssize_t)sizeof(buf) || buf[0] != WIDE_KINDS)
		return false;
	memcpy(out, buf + 1, sizeof(uint64_t) * (2 + WIDE_KINDS));
	return true;
}

/* Opens its group, reads it, waits while the main thread reads the BPF
 * sums (barriers 0 and 1), touches WIDE_PAGES new pages and runs
 * WIDE_SPIN_NS of CPU, reads its group again, waits for the second read of
 * the sums (barriers 2 and 3). The faults of both windows are the same
 * ones; the CPU time differs by the barriers' passages. */
static void *wide_work(void *arg)
{
	struct wide_worker *w = arg;
	long page = sysconf(_SC_PAGESIZE);
	char *mem = mmap(NULL, (size_t)(WIDE_PAGES * page), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint64_t start;

	w->tid = (pid_t)syscall(SYS_gettid);
	w->ok = mem != MAP_FAILED;
	for (int i = 0; i < WIDE_KINDS; i++) {
		struct perf_event_attr a = { .size = sizeof(a), .type = PERF_TYPE_SOFTWARE, .config = wide_kinds[i] };
		a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
		w->fd[i] = (int)syscall(SYS_perf_event_open, &a, 0, -1, i ? w->fd[0] : -1, PERF_FLAG_FD_CLOEXEC);
		w->ok = w->ok && w->fd[i] >= 0;
	}
	thread_cpu_ns(); /* the clock's pages in before the window */
	w->ok = w->ok && wide_read(w, w->ref[0]);
	pthread_barrier_wait(&wide_bar[0]);
	pthread_barrier_wait(&wide_bar[1]);
	for (int i = 0; w->ok && i < WIDE_PAGES; i++)
		mem[(long)i * page] = 1;
	start = thread_cpu_ns();
	while (thread_cpu_ns() - start < WIDE_SPIN_NS)
		;
	w->ok = w->ok && wide_read(w, w->ref[1]);
	pthread_barrier_wait(&wide_bar[2]);
	pthread_barrier_wait(&wide_bar[3]);
	for (int i = 0; i < WIDE_KINDS; i++)
		if (w->fd[i] >= 0)
			close(w->fd[i]);
	if (mem != MAP_FAILED)
		munmap(mem, (size_t)(WIDE_PAGES * page));
	return NULL;
}

static int fds_open(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	assert_non_null(d);
	while (readdir(d))
		n++;
	closedir(d);
	return n - 3; /* ".", ".." and the directory's own */
}

/* A whole planned level in BPF mode (issue 32): 40 software events in 10
 * perf groups per CPU, with their times read from the kernel
 * (TD_COUNTING_BPF_TIMES: each leader by bpf_perf_event_read_value, as a
 * hardware group's are), on 1,000 threads at once. The descriptors are
 * the counters', CPUs x events, none per thread; each thread's sums over a
 * window, scaled by its own group times, are what its own per-thread
 * group of the same events gives over the same window: the faults
 * exactly, the CPU clocks within 1 % + the barriers' passages (100 us) +
 * the time stolen meanwhile. The context switches and migrations are left
 * out: the per-CPU counters give a switch (a migration) to the thread
 * switched in (running), a thread's own counter to the one switched out. */
static void test_wide_plan(void **state)
{
	struct perf_event_attr a[WIDE_EVENTS] = { { 0 } };
	bool leads[WIDE_EVENTS] = { false };
	static struct wide_worker w[WIDE_THREADS];
	static struct td_bpf_thread_sums s0[WIDE_THREADS];
	static pthread_t th[WIDE_THREADS];
	long cpus = sysconf(_SC_NPROCESSORS_CONF), online = sysconf(_SC_NPROCESSORS_ONLN);
	struct rlimit rl;
	struct td_bpf_counting *b;
	struct td_bpf_counting_stats st;
	pthread_attr_t pa;
	td_err why;
	int before, counters, need = WIDE_THREADS * WIDE_KINDS + 256;
	uint64_t steal0, stolen, unseen0;

	(void)state;
	/* the reference groups hold 8 descriptors a thread */
	assert_int_equal(getrlimit(RLIMIT_NOFILE, &rl), 0);
	if (rl.rlim_cur < (rlim_t)need) {
		if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < (rlim_t)need)
			fail_msg("the per-thread reference needs %d descriptors, the hard limit is %llu: raise it "
				 "(ulimit -Hn)",
				 need, (unsigned long long)rl.rlim_max);
		rl.rlim_cur = (rlim_t)need;
		assert_int_equal(setrlimit(RLIMIT_NOFILE, &rl), 0);
	}
	for (int k = 0; k < WIDE_EVENTS; k++) {
		a[k] = (struct perf_event_attr){ .type = PERF_TYPE_SOFTWARE, .config = wide_kinds[wide_kind(k)] };
		leads[k] = k % WIDE_PER_GROUP == 0;
	}
	before = fds_open();
	setenv("TD_COUNTING_BPF_TIMES", "1", 1);
	b = td_bpf_counting_new(a, leads, WIDE_EVENTS, 0, 2 * WIDE_THREADS, &why);
	unsetenv("TD_COUNTING_BPF_TIMES");
	if (!b)
		fail_msg("%s", why.msg);
	assert_int_equal(td_bpf_counting_follow(b, getpid()), 0);
	counters = fds_open() - before;
	if (counters < online * WIDE_EVENTS || counters > cpus * WIDE_EVENTS + 64)
		fail_msg("%d descriptors for %d events on %ld CPUs (%ld online): want CPUs x events + 64 at most",
			 counters, WIDE_EVENTS, cpus, online);

	for (int i = 0; i < 4; i++)
		assert_int_equal(pthread_barrier_init(&wide_bar[i], NULL, WIDE_THREADS + 1), 0);
	assert_int_equal(pthread_attr_init(&pa), 0);
	assert_int_equal(pthread_attr_setstacksize(&pa, 256 * 1024), 0);
	steal0 = steal_ns();
	unseen0 = unseen_switches(b);
	for (int t = 0; t < WIDE_THREADS; t++)
		assert_int_equal(pthread_create(&th[t], &pa, wide_work, &w[t]), 0);
	pthread_barrier_wait(&wide_bar[0]);
	/* 1,000 threads counted: their own reference groups' descriptors, none of BPF's */
	assert_int_equal(fds_open() - before - counters, WIDE_THREADS * WIDE_KINDS);
	assert_true(td_bpf_counting_read(b) >= WIDE_THREADS);
	for (int t = 0; t < WIDE_THREADS; t++) {
		const struct td_bpf_thread_sums *s = td_bpf_counting_find(b, w[t].tid);
		if (!s)
			fail_msg("thread %d: no sums", (int)w[t].tid);
		s0[t] = *s;
	}
	pthread_barrier_wait(&wide_bar[1]);
	pthread_barrier_wait(&wide_bar[2]);
	assert_true(td_bpf_counting_read(b) >= WIDE_THREADS);
	stolen = steal_ns() - steal0 + 1000000000ull / (uint64_t)sysconf(_SC_CLK_TCK);

	/* a thread whose switch in the program did not see lost that run's counts (they went to
	 * no one, and the program says so: unseen switches): at most one thread short each */
	uint64_t unseen = unseen_switches(b) - unseen0, shorts = 0;
	double worst = 0;
	int checked = 0;
	for (int t = 0; t < WIDE_THREADS; t++) {
		const struct td_bpf_thread_sums *s = td_bpf_counting_find(b, w[t].tid);
		const uint64_t *r0 = w[t].ref[0], *r1 = w[t].ref[1];
		bool is_short = false;
		if (!w[t].ok)
			fail_msg("thread %d: its own group of %d software events did not open or read", (int)w[t].tid,
				 WIDE_KINDS);
		assert_non_null(s);
		for (int k = 0; k < WIDE_EVENTS; k++) {
			int g = k / WIDE_PER_GROUP, kind = wide_kind(k);
			__u64 c = wide_kinds[kind];
			uint64_t en = s->enabled[g] - s0[t].enabled[g], run = s->running[g] - s0[t].running[g];
			uint64_t mine = wide_scaled(s->value[k] - s0[t].value[k], en, run);
			uint64_t ref = wide_scaled(r1[2 + kind] - r0[2 + kind], r1[0] - r0[0], r1[1] - r0[1]);
			uint64_t diff = mine > ref ? mine - ref : ref - mine, slack;
			if (en != run) /* a software group always runs: its times are equal */
				fail_msg("thread %d, group %d: enabled %llu, running %llu", (int)w[t].tid, g,
					 (unsigned long long)en, (unsigned long long)run);
			if (c == PERF_COUNT_SW_CONTEXT_SWITCHES || c == PERF_COUNT_SW_CPU_MIGRATIONS)
				continue;
			if (c == PERF_COUNT_SW_TASK_CLOCK || c == PERF_COUNT_SW_CPU_CLOCK)
				slack = ref / 100 + 100000 + stolen;
			else
				slack = ref / 100;
			if (c == PERF_COUNT_SW_PAGE_FAULTS_MIN && ref < WIDE_PAGES)
				fail_msg("thread %d: %llu minor faults in its own group, %d pages touched",
					 (int)w[t].tid, (unsigned long long)ref, WIDE_PAGES);
			if (diff > slack && mine < ref && unseen) {
				is_short = true;
				continue;
			}
			if (diff > slack)
				fail_msg("thread %d, event %d (group %d, software event %llu): %llu in BPF mode, %llu "
					 "in its own group (%llu allowed; %llu ns on a CPU in BPF mode, its group's "
					 "times "
					 "%llu ns)",
					 (int)w[t].tid, k, g, (unsigned long long)c, (unsigned long long)mine,
					 (unsigned long long)ref, (unsigned long long)slack,
					 (unsigned long long)(s->oncpu_ns - s0[t].oncpu_ns), (unsigned long long)en);
			if (c != PERF_COUNT_SW_TASK_CLOCK && c != PERF_COUNT_SW_CPU_CLOCK && ref &&
			    (double)diff / (double)ref > worst)
				worst = (double)diff / (double)ref;
			checked++;
		}
		shorts += is_short;
	}
	if (shorts > unseen)
		fail_msg("%llu threads short, %llu switches unseen", (unsigned long long)shorts,
			 (unsigned long long)unseen);
	/* 5 groups each hold a switch count, 5 a migration count */
	assert_true(checked >= (WIDE_THREADS - (int)shorts) * (WIDE_EVENTS - 10));
	fprintf(stderr,
		"wide plan: %d events in %d groups, %d descriptors on %ld CPUs; %d threads: faults at most %.3f %% "
		"off their own groups', %llu short after %llu unseen switches\n",
		WIDE_EVENTS, WIDE_GROUPS, counters, online, WIDE_THREADS, 100 * worst, (unsigned long long)shorts,
		(unsigned long long)unseen);
	pthread_barrier_wait(&wide_bar[3]);
	for (int t = 0; t < WIDE_THREADS; t++)
		pthread_join(th[t], NULL);
	pthread_attr_destroy(&pa);
	for (int i = 0; i < 4; i++)
		pthread_barrier_destroy(&wide_bar[i]);
	td_bpf_counting_stats(b, &st);
	assert_int_equal(st.lost_switches, 0);
	assert_int_equal(st.read_errors, 0);
	assert_int_equal(st.seq_errors, 0);
	td_bpf_counting_free(b);
}

/* The cgroup v2 mount, or NULL. */
static const char *cgroup2_mount(char *buf, size_t len)
{
	FILE *m = setmntent("/proc/self/mounts", "r");
	struct mntent *e;
	const char *found = NULL;

	while (m && (e = getmntent(m)))
		if (!strcmp(e->mnt_type, "cgroup2")) {
			snprintf(buf, len, "%s", e->mnt_dir);
			found = buf;
			break;
		}
	if (m)
		endmntent(m);
	return found;
}

/* A cgroup, and one below it with a process in it spinning 20 ms: both
 * sums hold its 20 ms (the upper one counts what runs below it), and not
 * this process's work meanwhile (it runs outside). */
static void test_cgroup_sums(void **state)
{
	char mnt[256], top[400], low[480];
	struct td_bpf_counting *b;
	struct td_bpf_thread_sums top_sums, low_sums;
	struct stat st_top, st_low;
	struct timespec ts;
	uint64_t steal0, start, mine = 0, before = 0;
	int release, status;
	pid_t child;

	(void)state;
	assert_non_null(cgroup2_mount(mnt, sizeof(mnt)));
	snprintf(top, sizeof(top), "%s/td-unit-%d", mnt, (int)getpid());
	snprintf(low, sizeof(low), "%s/below", top);
	assert_int_equal(mkdir(top, 0755), 0);
	assert_int_equal(mkdir(low, 0755), 0);
	assert_int_equal(stat(top, &st_top), 0);
	assert_int_equal(stat(low, &st_low), 0);
	/* a program loaded without cgroup sums refuses to follow one */
	b = counting(64);
	assert_int_equal(td_bpf_counting_follow_cgroup(b, st_top.st_ino, 1), -EOPNOTSUPP);
	td_bpf_counting_free(b);
	b = counting_as(64, false, TD_BPF_SUM_CGROUPS);
	/* a cgroup's id is its directory's inode number; its level, its depth below the root */
	assert_int_equal(td_bpf_counting_follow_cgroup(b, st_top.st_ino, 1), 0);
	assert_int_equal(td_bpf_counting_follow_cgroup(b, st_low.st_ino, 2), 0);
	assert_int_equal(td_bpf_counting_follow_cgroup(b, st_low.st_ino, 2), 0); /* again: the same */
	assert_int_equal(td_bpf_counting_follow_cgroup(b, 1, TD_BPF_CGROUP_LEVELS), -E2BIG);

	steal0 = steal_ns();
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	before = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	child = spinning_child_in(low, &release);
	start_spinning(release);
	wait_asleep(child);
	/* meanwhile this process works 10 ms outside the cgroups */
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	start = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	do
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	while ((uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec - start < 10000000);
	assert_true(td_bpf_counting_read(b) >= 0);
	assert_int_equal(td_bpf_counting_cgroup(b, st_top.st_ino, &top_sums), 0);
	assert_int_equal(td_bpf_counting_cgroup(b, st_low.st_ino, &low_sums), 0);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	mine = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec - before;
	{
		uint64_t half_ms = 500000, unseen = unseen_ns(b),
			 stolen = steal_ns() - steal0 + 1000000000ull / (uint64_t)sysconf(_SC_CLK_TCK);
		/* the child's 20 ms (and its start: the fork's child half, its write to cgroup.procs) */
		if (low_sums.value[0] + unseen < 19000000ull || low_sums.value[0] > 20000000ull + 2 * half_ms + stolen)
			fail_msg("cgroup below: %llu ns counted; its process spun 20 ms (%llu ns given to nobody, at "
				 "most "
				 "%llu ns stolen)",
				 (unsigned long long)low_sums.value[0], (unsigned long long)unseen,
				 (unsigned long long)stolen);
		/* the upper cgroup holds the same: nothing else ran in it */
		assert_true(top_sums.value[0] + half_ms >= low_sums.value[0] &&
			    top_sums.value[0] <= low_sums.value[0] + half_ms);
		/* this process's own 10 ms and more (mine) are not in it */
		assert_true(mine >= 10000000ull);
		assert_true(top_sums.enabled[0] == top_sums.running[0]);
	}
	close(release);
	assert_int_equal(waitpid(child, &status, 0), child);
	td_bpf_counting_free(b);
	assert_int_equal(rmdir(low), 0);
	assert_int_equal(rmdir(top), 0);
}

/* The cgroup case's premise: a cgroup v2 hierarchy where this process can make a group. */
static bool cgroups_usable(char *why, size_t len)
{
	char mnt[256], probe[320];

	if (!cgroup2_mount(mnt, sizeof(mnt))) {
		snprintf(why, len, "no cgroup v2 hierarchy is mounted");
		return false;
	}
	snprintf(probe, sizeof(probe), "%s/td-unit-probe-%d", mnt, (int)getpid());
	if (mkdir(probe, 0755)) {
		snprintf(why, len, "cannot create a cgroup under %s: %s", mnt, strerror(errno));
		return false;
	}
	rmdir(probe);
	return true;
}

/* Each binary skips as a whole where its premise is missing (a cmocka
 * skip() reads as a failure under automake's TAP driver). */
int main(void)
{
#ifdef TD_TEST_CGROUP
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cgroup_sums),
	};
	char why[300];
#else
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mode_names),	    cmocka_unit_test(test_thread_sums),
		cmocka_unit_test(test_thread_sums_grouped), cmocka_unit_test(test_map_full),
		cmocka_unit_test(test_slot_reuse),	    cmocka_unit_test(test_shared_views),
		cmocka_unit_test(test_wide_plan),
	};
#endif

	bpf_loads = td_bpf_counting_probe(&bpf_why) == 0;
	if (!bpf_loads) {
		printf("1..0 # SKIP the BPF counting program does not load here: %s\n", bpf_why.msg);
		return 0;
	}
#ifdef TD_TEST_CGROUP
	if (!cgroups_usable(why, sizeof(why))) {
		printf("1..0 # SKIP %s\n", why);
		return 0;
	}
#endif
	return cmocka_run_group_tests(tests, NULL, NULL);
}
