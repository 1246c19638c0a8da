/* td-demo: a small multi-threaded workload to try topdown on and to test it
 * with. Worker threads run different kinds of work (dependent arithmetic,
 * pointer chasing through memory, unpredictable branches, short sleeps), some
 * threads start late and some exit early, so that every part of the
 * collector (threads born and gone, switches, faults) has something to see.
 *
 *   td-demo [-t N] [-l N] [-L MS] [-e N] [-s SEC] [-w] [-r FILE] [-R FILE]
 *   -t N    worker threads started at once (default 4)
 *   -l N    worker threads started later (default 2) ...
 *   -L MS   ... this many ms after work begins (default 500)
 *   -e N    of the first workers, N exit at half time (default 1)
 *   -s SEC  seconds of work (default 2)
 *   -w      wait for SIGUSR1 before working (to attach first)
 *   -r FILE write FILE once every first thread exists (then wait or work)
 *   -R FILE at its end, each thread appends "TID RUNTIME_NS SWITCHES" from its
 *           own /proc/self/task/TID/schedstat (the kernel's count of its CPU
 *           time) and, read just before, its voluntary and involuntary
 *           switches so far (/proc/self/task/TID/status: the kernel's count)
 *   -c RATE churn instead: start RATE short-lived threads a second for -s
 *           seconds, each sleeping 10 ms to -m MS (default 490), then idle
 *           -i MS (default 1000)
 *   -T FILE with -c: each thread appends "TID START_NS END_NS" (CLOCK_REALTIME)
 *   -b N    bursts instead: -t long threads busy for -s seconds, and at a
 *           third and two thirds of that time N threads each busy for 5 ms
 *           of CPU, started together; with -R FILE the process writes
 *           "CPU_NS START END": its CPU time (CLOCK_PROCESS_CPUTIME_ID,
 *           every thread's, the exited ones' too) when the work starts
 *           and when it is done, then exits at once (_exit: no exit
 *           handler, a sanitizer's leak check among them, runs after)
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define CHASE_ENTRIES (4u << 20) /* 32 MiB of 8-byte links */

static size_t *chase;
static const char *runtime_file;
static pthread_mutex_t report_lock = PTHREAD_MUTEX_INITIALIZER;
static volatile uint64_t sink_value;

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void report_runtime(void)
{
	char path[128], buf[128];
	FILE *f;
	pid_t tid = (pid_t)syscall(SYS_gettid);
	uint64_t runtime = 0, switches = 0, n;

	if (!runtime_file)
		return;
	snprintf(path, sizeof(path), "/proc/self/task/%d/status", (int)tid);
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(buf, sizeof(buf), f))
		if (sscanf(buf, "voluntary_ctxt_switches: %" SCNu64, &n) == 1 ||
		    sscanf(buf, "nonvoluntary_ctxt_switches: %" SCNu64, &n) == 1)
			switches += n;
	fclose(f);
	snprintf(path, sizeof(path), "/proc/self/task/%d/schedstat", (int)tid);
	f = fopen(path, "r");
	if (!f)
		return;
	if (fgets(buf, sizeof(buf), f))
		sscanf(buf, "%" SCNu64, &runtime);
	fclose(f);
	pthread_mutex_lock(&report_lock);
	f = fopen(runtime_file, "a");
	if (f) {
		fprintf(f, "%d %" PRIu64 " %" PRIu64 "\n", (int)tid, runtime, switches);
		fclose(f);
	}
	pthread_mutex_unlock(&report_lock);
}

/* A random single cycle through the table: every load depends on the last. */
static void build_chase(void)
{
	uint64_t x = 88172645463325252ull;

	chase = malloc(CHASE_ENTRIES * sizeof(*chase));
	if (!chase) {
		perror("td-demo: malloc");
		exit(1);
	}
	for (size_t i = 0; i < CHASE_ENTRIES; i++)
		chase[i] = i;
	for (size_t i = CHASE_ENTRIES - 1; i > 0; i--) { /* Sattolo's algorithm */
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		size_t j = (size_t)(x % i);
		size_t t = chase[i];
		chase[i] = chase[j];
		chase[j] = t;
	}
}

enum kind {
	K_COMPUTE,
	K_MEMORY,
	K_BRANCHY,
	K_SLEEPY,
	K_N
};
static const char *const kind_name[K_N] = { "compute", "memory", "branchy", "sleepy" };

/* One function per kind, never inlined: `tdctl run --hotspots` names
 * each thread's (tests/integration/hotspots.sh checks it). */
static __attribute__((noinline)) uint64_t compute_chunk(uint64_t state)
{
	for (int i = 0; i < 200000; i++)
		state = state * 6364136223846793005ull + 1442695040888963407ull;
	return state;
}

static __attribute__((noinline)) uint64_t memory_chunk(uint64_t state)
{
	for (int i = 0; i < 20000; i++)
		state = chase[state % CHASE_ENTRIES];
	return state;
}

static __attribute__((noinline)) uint64_t branchy_chunk(uint64_t state)
{
	for (int i = 0; i < 100000; i++) {
		state ^= state << 13, state ^= state >> 7, state ^= state << 17;
		if (state & 1)
			sink_value += state >> 3;
		else
			sink_value ^= state;
	}
	return state;
}

static __attribute__((noinline)) uint64_t sleepy_chunk(uint64_t state)
{
	struct timespec ts = { 0, 1000000 };

	for (int i = 0; i < 1000000; i++)
		state = state * 2862933555777941757ull + 3037000493ull;
	nanosleep(&ts, NULL);
	return state;
}

static uint64_t work_chunk(enum kind k, uint64_t state)
{
	switch (k) {
	case K_COMPUTE:
		return compute_chunk(state);
	case K_MEMORY:
		return memory_chunk(state);
	case K_BRANCHY:
		return branchy_chunk(state);
	case K_SLEEPY:
		return sleepy_chunk(state);
	default:
		return state;
	}
}

struct worker {
	pthread_t thread;
	enum kind kind;
	double seconds;
	int index;
};

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	char name[16];
	uint64_t end = now_ns() + (uint64_t)(w->seconds * 1e9), state = (uint64_t)w->index + 1;

	snprintf(name, sizeof(name), "%s-%d", kind_name[w->kind], w->index);
	pthread_setname_np(pthread_self(), name);
	while (now_ns() < end)
		state = work_chunk(w->kind, state);
	sink_value += state;
	report_runtime();
	return NULL;
}

/* Workers created before the start wait here. */
static pthread_mutex_t start_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t start_cond = PTHREAD_COND_INITIALIZER;
static int started;

static void *waiting_worker(void *arg)
{
	pthread_mutex_lock(&start_lock);
	while (!started)
		pthread_cond_wait(&start_cond, &start_lock);
	pthread_mutex_unlock(&start_lock);
	return worker_main(arg);
}

/* Tell a waiting test that the threads it should see exist: our PID in FILE. */
static void write_ready(const char *file)
{
	FILE *f;

	if (!file || !(f = fopen(file, "w")))
		return;
	fprintf(f, "%d\n", (int)getpid());
	fclose(f);
}

static long arg_long(const char *s, long lo, long hi, const char *what)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (*end || v < lo || v > hi) {
		fprintf(stderr, "td-demo: bad %s '%s' (%ld..%ld)\n", what, s, lo, hi);
		exit(2);
	}
	return v;
}

/* ---- churn mode: many short-lived threads ------------------------------- */

static const char *lifetime_file;
static volatile int churn_live;

static uint64_t wall_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void *churn_thread(void *arg)
{
	long ms = (long)(intptr_t)arg;
	uint64_t start = wall_ns();
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
	if (lifetime_file) {
		uint64_t end = wall_ns();
		pthread_mutex_lock(&report_lock);
		FILE *f = fopen(lifetime_file, "a");
		if (f) {
			fprintf(f, "%d %" PRIu64 " %" PRIu64 "\n", (int)syscall(SYS_gettid), start, end);
			fclose(f);
		}
		pthread_mutex_unlock(&report_lock);
	}
	__atomic_sub_fetch(&churn_live, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

static int churn(long rate, double seconds, long idle_ms, long max_ms)
{
	pthread_attr_t attr;
	uint64_t start = now_ns(), end = start + (uint64_t)(seconds * 1e9);
	uint64_t period = 1000000000ull / (uint64_t)rate, next = start, x = 2463534242ull;
	long nstarted = 0;

	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	while (now_ns() < end) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		long ms = 10 + (long)(x % (uint64_t)(max_ms - 9));
		pthread_t t;
		__atomic_add_fetch(&churn_live, 1, __ATOMIC_SEQ_CST);
		if (pthread_create(&t, &attr, churn_thread, (void *)(intptr_t)ms)) {
			__atomic_sub_fetch(&churn_live, 1, __ATOMIC_SEQ_CST);
			perror("td-demo: pthread_create");
			return 1;
		}
		nstarted++;
		next += period;
		uint64_t now = now_ns();
		if (next > now) {
			struct timespec ts = { 0, (long)(next - now) };
			nanosleep(&ts, NULL);
		}
	}
	while (__atomic_load_n(&churn_live, __ATOMIC_SEQ_CST) > 0)
		usleep(1000);
	struct timespec idle = { idle_ms / 1000, (idle_ms % 1000) * 1000000L };
	nanosleep(&idle, NULL);
	printf("td-demo: churn started %ld threads\n", nstarted);
	return 0;
}

/* ---- burst mode: long threads and bursts of 5 ms threads ----------------- */

static uint64_t cpu_ns(clockid_t clock)
{
	struct timespec ts;
	clock_gettime(clock, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Busy until this thread has used arg nanoseconds of CPU. */
static void *busy_thread(void *arg)
{
	uint64_t until = cpu_ns(CLOCK_THREAD_CPUTIME_ID) + (uint64_t)(uintptr_t)arg, state = 3;

	while (cpu_ns(CLOCK_THREAD_CPUTIME_ID) < until)
		for (int i = 0; i < 1000; i++)
			state = state * 6364136223846793005ull + 1442695040888963407ull;
	sink_value += state;
	return NULL;
}

static int burst(int nlong, int nshort, double seconds)
{
	pthread_t *t = calloc((size_t)(nlong + nshort), sizeof(*t));
	uint64_t start_cpu = cpu_ns(CLOCK_PROCESS_CPUTIME_ID), t0 = now_ns();

	if (!t)
		return 1;
	/* long threads: CPU time for the whole run, shared by the CPUs there are */
	for (int i = 0; i < nlong; i++)
		if (pthread_create(&t[i], NULL, busy_thread, (void *)(uintptr_t)(uint64_t)(seconds * 1e9 / nlong))) {
			perror("td-demo: pthread_create");
			return 1;
		}
	for (int round = 1; round <= 2; round++) {
		uint64_t at = t0 + (uint64_t)(seconds * 1e9 * round / 3);
		while (now_ns() < at)
			usleep(1000);
		for (int i = 0; i < nshort; i++)
			if (pthread_create(&t[nlong + i], NULL, busy_thread, (void *)(uintptr_t)5000000u)) {
				perror("td-demo: pthread_create");
				return 1;
			}
		for (int i = 0; i < nshort; i++)
			pthread_join(t[nlong + i], NULL);
	}
	for (int i = 0; i < nlong; i++)
		pthread_join(t[i], NULL);
	if (runtime_file) {
		FILE *f = fopen(runtime_file, "w");
		if (!f ||
		    fprintf(f, "CPU_NS %" PRIu64 " %" PRIu64 "\n", start_cpu, cpu_ns(CLOCK_PROCESS_CPUTIME_ID)) < 0 ||
		    fclose(f)) {
			perror("td-demo: -R");
			return 1;
		}
	}
	printf("td-demo: %d long threads and 2 bursts of %d short ones done\n", nlong, nshort);
	free(t);
	/* nothing may run after the CPU time just written: a sanitizer build's exit-time
	 * leak check would add tens of milliseconds the file does not hold */
	fflush(stdout);
	_exit(0);
}

int main(int argc, char **argv)
{
	int nfirst = 4, nlate = 2, nearly = 1, opt;
	long late_ms = 500;
	double seconds = 2;
	int wait_signal = 0;
	long churn_rate = 0, idle_ms = 1000, max_ms = 490, nburst = 0;
	const char *ready_file = NULL;
	struct worker *w;
	sigset_t usr1;

	while ((opt = getopt(argc, argv, "t:l:L:e:s:wr:R:c:T:i:m:b:h")) != -1) {
		switch (opt) {
		case 't':
			nfirst = (int)arg_long(optarg, 1, 4096, "thread count");
			break;
		case 'l':
			nlate = (int)arg_long(optarg, 0, 4096, "late thread count");
			break;
		case 'L':
			late_ms = arg_long(optarg, 0, 3600000, "delay");
			break;
		case 'e':
			nearly = (int)arg_long(optarg, 0, 4096, "early exit count");
			break;
		case 's':
			seconds = (double)arg_long(optarg, 1, 3600, "seconds");
			break;
		case 'w':
			wait_signal = 1;
			break;
		case 'r':
			ready_file = optarg;
			break;
		case 'R':
			runtime_file = optarg;
			break;
		case 'c':
			churn_rate = arg_long(optarg, 1, 100000, "churn rate");
			break;
		case 'T':
			lifetime_file = optarg;
			break;
		case 'i':
			idle_ms = arg_long(optarg, 0, 3600000, "idle time");
			break;
		case 'm':
			max_ms = arg_long(optarg, 10, 3600000, "longest lifetime");
			break;
		case 'b':
			nburst = arg_long(optarg, 1, 100000, "burst size");
			break;
		default:
			fprintf(stderr, "usage: td-demo [-t N] [-l N] [-L MS] [-e N] [-s SEC] [-w] [-r FILE] [-R FILE] "
					"[-c RATE [-T FILE] [-i MS] [-m MS]] [-b N]\n");
			return 2;
		}
	}
	if (churn_rate || nburst) {
		write_ready(ready_file);
		if (wait_signal) {
			sigset_t set;
			int sig;
			sigemptyset(&set);
			sigaddset(&set, SIGUSR1);
			pthread_sigmask(SIG_BLOCK, &set, NULL);
			sigwait(&set, &sig);
		}
		return nburst ? burst(nfirst, (int)nburst, seconds) : churn(churn_rate, seconds, idle_ms, max_ms);
	}
	if (nearly > nfirst)
		nearly = nfirst;
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &usr1, NULL); /* every thread inherits the block */
	w = calloc((size_t)(nfirst + nlate), sizeof(*w));
	if (!w)
		return 1;
	for (int i = 0; i < nfirst + nlate; i++) {
		w[i].index = i;
		w[i].kind = (enum kind)(i % K_N);
		w[i].seconds = i < nearly ? seconds / 2 : (i < nfirst ? seconds : seconds - late_ms / 1000.0);
		if (w[i].seconds < 0.1)
			w[i].seconds = 0.1;
	}
	for (int i = 0; i < nfirst; i++)
		if (pthread_create(&w[i].thread, NULL, waiting_worker, &w[i])) {
			perror("td-demo: pthread_create");
			return 1;
		}
	write_ready(ready_file);
	if (wait_signal) {
		int sig;
		sigwait(&usr1, &sig);
	}
	build_chase(); /* after the start: a collector attached before it sees this work too */
	pthread_mutex_lock(&start_lock);
	started = 1;
	pthread_cond_broadcast(&start_cond);
	pthread_mutex_unlock(&start_lock);
	/* the main thread works too until the late threads are due */
	uint64_t late_at = now_ns() + (uint64_t)late_ms * 1000000ull, state = 7;
	while (now_ns() < late_at)
		state = work_chunk(K_COMPUTE, state);
	sink_value += state;
	for (int i = nfirst; i < nfirst + nlate; i++)
		if (pthread_create(&w[i].thread, NULL, worker_main, &w[i])) {
			perror("td-demo: pthread_create");
			return 1;
		}
	for (int i = 0; i < nfirst + nlate; i++)
		pthread_join(w[i].thread, NULL);
	report_runtime();
	printf("td-demo: %d threads of work done (%d at start, %d late, %d exited early)\n", nfirst + nlate, nfirst,
	       nlate, nearly);
	free(w);
	free(chase);
	return 0;
}
