/* switch_cost: the cost counting adds to a context switch, measured on this
 * host (switch_cost.h). Owns the measuring pair of processes. */
#include "switch_cost.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define ROUNDS 7
#define ROUND_TRIPS 250		      /* a phase: 500 switches */
#define ANSWER_MS 10000		      /* a phase that takes longer: the pair is stuck */
#define BUDGET_NS (2 * 1000000000ull) /* the whole measure, wall time: beyond it the host is too busy */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double td_switch_cost_median_diff(const double *on, const double *off, int n)
{
	double d[ROUNDS * 4];

	if (n < 1 || n > (int)(sizeof(d) / sizeof(d[0])))
		return 0;
	for (int i = 0; i < n; i++)
		d[i] = on[i] - off[i];
	qsort(d, (size_t)n, sizeof(d[0]), cmp_double);
	return n % 2 ? d[n / 2] : (d[n / 2 - 1] + d[n / 2]) / 2;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static bool full_write(int fd, const void *p, size_t n)
{
	return send(fd, p, n, MSG_NOSIGNAL) == (ssize_t)n;
}

/* Process A of the pair (after fork: system calls only). ctl: its end of the
 * control socket; rt: the caller samples at real-time priority. It pins
 * itself to the CPU it runs on, forks B there, tells B's pid, then for each
 * count of round trips asked times them and answers the ns; at the control
 * socket's end it ends B and itself.
 *
 * The pair runs at SCHED_FIFO 1 when the caller does (its reset-on-fork
 * gave the pair SCHED_OTHER): at SCHED_OTHER on a CPU with hundreds of busy
 * threads each hand-over waits its turn behind them, and the measure took
 * tens of seconds and timed the run queue (295 us "a switch" beside 1,000
 * busy threads), not the switch. A real-time wake-up preempts them, so a
 * switch is timed as on an idle CPU; the cost counting adds to it is in the
 * switch path (the tracepoint, the perf context switch), the same for
 * either class. Otherwise SCHED_OTHER, nice 0, and the wall budget. */
static void pair_main(int ctl, bool rt)
{
	int ab[2], ba[2], cpu = sched_getcpu();
	struct sched_param sp = { 0 };
	cpu_set_t set;
	pid_t b;
	uint32_t n;
	char c = 0;

	sp.sched_priority = rt ? 1 : 0;
	if (!rt || sched_setscheduler(0, SCHED_FIFO, &sp)) {
		sp.sched_priority = 0;
		sched_setscheduler(0, SCHED_OTHER, &sp);
		setpriority(PRIO_PROCESS, 0, 0);
	}
	CPU_ZERO(&set);
	CPU_SET(cpu < 0 ? 0 : cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) || pipe2(ab, O_CLOEXEC) || pipe2(ba, O_CLOEXEC))
		_exit(1);
	if ((b = fork()) < 0)
		_exit(1);
	if (b == 0) {
		close(ctl);
		close(ab[1]);
		close(ba[0]);
		while (read(ab[0], &c, 1) == 1)
			if (write(ba[1], &c, 1) != 1)
				break;
		_exit(0);
	}
	close(ab[0]);
	close(ba[1]);
	if (!full_write(ctl, &b, sizeof(b)))
		_exit(1);
	while (read(ctl, &n, sizeof(n)) == (ssize_t)sizeof(n)) {
		uint64_t t0 = mono_ns(), t;
		for (uint32_t i = 0; i < n; i++)
			if (write(ab[1], &c, 1) != 1 || read(ba[0], &c, 1) != 1)
				_exit(1);
		t = mono_ns() - t0;
		if (!full_write(ctl, &t, sizeof(t)))
			break;
	}
	close(ab[1]); /* B reads its end */
	waitpid(b, NULL, 0);
	_exit(0);
}

static bool answer(int fd, void *p, size_t n)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	return poll(&pfd, 1, ANSWER_MS) == 1 && recv(fd, p, n, MSG_WAITALL) == (ssize_t)n;
}

/* ns a switch took over one phase, or -1 when the pair did not answer. */
static double phase(int ctl)
{
	uint32_t n = ROUND_TRIPS;
	uint64_t t;

	if (!full_write(ctl, &n, sizeof(n)) || !answer(ctl, &t, sizeof(t)))
		return -1;
	return (double)t / (2.0 * ROUND_TRIPS);
}

int td_switch_cost_measure(td_switch_attach_fn attach, td_switch_detach_fn detach, td_switch_idle_fn idle, void *ctx,
			   struct td_switch_cost *out)
{
	double on[ROUNDS], off[ROUNDS], sorted[ROUNDS], idle_ns[ROUNDS];
	int nidle = 0;
	bool idle_given = idle != NULL;
	uint64_t ns0, runs0, ns1, runs1;
	int sv[2];
	pid_t pids[2] = { 0, 0 };
	struct rusage ru;
	int policy = sched_getscheduler(0) & ~SCHED_RESET_ON_FORK;
	uint64_t start = mono_ns();

	memset(out, 0, sizeof(*out));
	out->rounds = ROUNDS;
	out->switches = 2 * ROUND_TRIPS;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv)) {
		snprintf(out->why, sizeof(out->why), "no socket pair for the measuring processes: %s", strerror(errno));
		return 0;
	}
	if ((pids[0] = fork()) < 0) {
		snprintf(out->why, sizeof(out->why), "the measuring processes could not start: %s", strerror(errno));
		close(sv[0]);
		close(sv[1]);
		return 0;
	}
	if (pids[0] == 0) {
		close(sv[0]);
		pair_main(sv[1], policy == SCHED_FIFO || policy == SCHED_RR);
	}
	close(sv[1]);
	if (idle && idle(ctx, TD_SWITCH_IDLE_START, &ns0, &runs0))
		idle = NULL;						     /* not known: the cost as without it */
	if (!answer(sv[0], &pids[1], sizeof(pids[1])) || phase(sv[0]) < 0) { /* a warm-up phase */
		snprintf(out->why, sizeof(out->why), "the measuring processes did not answer");
		goto end;
	}
	for (int r = 0; r < ROUNDS; r++) {
		void *probe = NULL;
		td_err err = { "" };
		bool read = idle && idle(ctx, TD_SWITCH_IDLE_READ, &ns0, &runs0) == 0;
		if ((off[r] = phase(sv[0])) < 0) {
			snprintf(out->why, sizeof(out->why), "the measuring processes did not answer");
			goto end;
		}
		/* every program run of the phase, on every CPU: the pair's switches and the others' */
		if (read && idle(ctx, TD_SWITCH_IDLE_READ, &ns1, &runs1) == 0 && runs1 > runs0 && ns1 >= ns0)
			idle_ns[nidle++] = (double)(ns1 - ns0) / (double)(runs1 - runs0);
		if (attach(ctx, pids, &probe, &err)) {
			snprintf(out->why, sizeof(out->why), "the measuring processes could not be counted: %.200s",
				 err.msg);
			goto end;
		}
		on[r] = phase(sv[0]);
		detach(ctx, probe);
		if (on[r] < 0) {
			snprintf(out->why, sizeof(out->why), "the measuring processes did not answer");
			goto end;
		}
		if (mono_ns() - start > BUDGET_NS) {
			snprintf(out->why, sizeof(out->why),
				 "the host was too busy: %d of %d rounds took over %.0f s (the measuring processes "
				 "wait behind its other threads; at real-time priority they would not)",
				 r + 1, ROUNDS, BUDGET_NS / 1e9);
			goto end;
		}
	}
	memcpy(sorted, off, sizeof(sorted));
	qsort(sorted, ROUNDS, sizeof(sorted[0]), cmp_double);
	out->alone = sorted[ROUNDS / 2];
	out->ns = td_switch_cost_median_diff(on, off, ROUNDS);
	out->idle_unknown = idle_given && nidle == 0;
	if (nidle > 0) { /* the median of the phases' */
		qsort(idle_ns, (size_t)nidle, sizeof(idle_ns[0]), cmp_double);
		out->idle = nidle % 2 ? idle_ns[nidle / 2] : (idle_ns[nidle / 2 - 1] + idle_ns[nidle / 2]) / 2;
		if (out->ns > 0)
			out->ns += out->idle;
	}
	if (out->ns > 0)
		out->measured = true;
	else
		snprintf(out->why, sizeof(out->why),
			 "a counted switch took no longer than one alone (%.0f ns, median of %d rounds): the "
			 "host's noise hid the cost",
			 out->alone, ROUNDS);
end:
	if (idle)
		idle(ctx, TD_SWITCH_IDLE_STOP, &ns0, &runs0);
	close(sv[0]); /* A ends B, then itself; a pair that stopped answering is ended */
	if (strstr(out->why, "did not answer"))
		kill(pids[0], SIGKILL); /* B reads the end of its pipe and ends */
	/* A's usage holds B's, which it waited for (wait4: the child's and its
	 * waited-for children's, as getrusage RUSAGE_BOTH) */
	if (wait4(pids[0], NULL, 0, &ru) == pids[0])
		out->cpu_ns = (uint64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000u +
			      (uint64_t)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000u;
	return 0;
}
