/* session_loop: one poll() loop that drives any number of sessions at once
 * (the daemon runs many; tdctl run and attach run one): per session an
 * interval timerfd (read and write one interval), a scan timerfd (threads
 * born and gone), a rotation timerfd (--rotate) and the target's pidfd
 * (exit); for all of them one signalfd (Ctrl-C, SIGTERM: passed on to a
 * command that runs, or the end of an attach or record). Nothing blocks:
 * timers and counters are read without waiting. The daemon's sessions of
 * one wake-up read as a batch (td_session_batch_begin). */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "sampler_priority.h"
#include "session_impl.h"

#define FDS_PER_SESSION TD_SESSION_POLLFDS

static int arm_timer(int fd, int ms)
{
	struct itimerspec its;

	its.it_value.tv_sec = its.it_interval.tv_sec = ms / 1000;
	its.it_value.tv_nsec = its.it_interval.tv_nsec = (long)(ms % 1000) * 1000000L;
	return timerfd_settime(fd, 0, &its, NULL);
}

/* Read a timerfd: the periods that passed since it was last read (0 when
 * none, e.g. a spurious wake-up). */
static uint64_t drain(int fd)
{
	uint64_t v;

	if (read(fd, &v, sizeof(v)) != (ssize_t)sizeof(v))
		return 0;
	return v;
}

static int pidfd_open_compat(pid_t pid)
{
#ifdef SYS_pidfd_open
	return (int)syscall(SYS_pidfd_open, pid, 0);
#else
	(void)pid;
	errno = ENOSYS;
	return -1;
#endif
}

/* aligned: the first expiry on a multiple of ms of the monotonic clock,
 * at least half a period away (the first interval is 0.5 to 1.5 periods
 * long), the next ones every ms after it: timers of one period expire
 * together, and the loop reads them in one wake-up. */
static int arm_aligned(int fd, int ms)
{
	uint64_t period = (uint64_t)ms * 1000000ull, now = td_now_ns(), first = (now / period + 1) * period;
	struct itimerspec its;

	if (first - now < period / 2)
		first += period;
	its.it_interval.tv_sec = ms / 1000;
	its.it_interval.tv_nsec = (long)(ms % 1000) * 1000000L;
	its.it_value.tv_sec = (time_t)(first / 1000000000ull);
	its.it_value.tv_nsec = (long)(first % 1000000000ull);
	return timerfd_settime(fd, TFD_TIMER_ABSTIME, &its, NULL);
}

static int new_timer(int ms, bool aligned)
{
	int fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);

	if (fd >= 0 && (aligned ? arm_aligned(fd, ms) : arm_timer(fd, ms)) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* The scan period unless one was given: with threads both tracked and
 * counted by BPF, once an interval (the program counts a thread from its
 * birth and the tracker's events wait in its 1 MiB ring buffer: scanning
 * sooner lists nothing sooner that counts, and cost four wake-ups an
 * interval); else TD_TRACKER_SCAN_MS (a thread's groups are opened by the
 * scan that finds it; the /proc rescan lists only threads that live
 * through one). */
static int scan_ms(const struct td_session *s)
{
	int ms = TD_TRACKER_SCAN_MS;

	if (s->o.scan_ms > 0)
		return s->o.scan_ms;
	if (s->col && !s->sys && td_collector_counting_bpf(s->col) && td_collector_tracker_bpf(s->col) &&
	    s->o.interval_ms > TD_TRACKER_SCAN_MS)
		ms = s->o.interval_ms;
	/* --hotspots: the scan drains the sampling rings (session_hotspots_drain), which hold a few
	 * hundred samples a CPU where stacks are deep (64 pages: drained once an interval at 1,000 Hz,
	 * 193 of 5,850 samples were lost at -I 500, 2,735 of 6,000 at -I 1000): every 100 samples a
	 * CPU at the most */
	if (s->o.hotspots) {
		int hz = s->o.hotspots_hz > 0 ? s->o.hotspots_hz : TD_HOTSPOTS_HZ;
		int drain = hz > 0 ? 100000 / hz : ms;
		if (drain < 1)
			drain = 1;
		if (drain < ms)
			ms = drain;
	}
	return ms;
}

int session_loop_arm(struct td_session *s, td_err *err)
{
	pid_t target = s->child ? s->child : s->o.attach_pid;

	s->tick = new_timer(s->o.interval_ms, s->o.aligned);
	/* a scan as often as the interval comes with its tick: a second timer of the same
	 * period, started a moment later, woke the loop twice an interval (a poll and a
	 * read more each time, and the scan's kernel paths gone cold in between) */
	int every = scan_ms(s);

	s->scan_on_tick = every == s->o.interval_ms;
	s->scan = s->scan_on_tick ? -1 : new_timer(every, s->o.aligned);
	s->rot = s->o.rotate_ms > 0 ? new_timer(s->o.rotate_ms, false) : -1;
	if (s->tick < 0 || (!s->scan_on_tick && s->scan < 0) || (s->o.rotate_ms > 0 && s->rot < 0)) {
		td_err_set(err, "cannot create timers: %s", strerror(errno));
		return -1;
	}
	/* without a pidfd (old kernels) exits are seen by the scan */
	s->pidfd = target > 0 ? pidfd_open_compat(target) : -1;
	s->deadline = s->o.duration_ms ? td_now_ns() + (uint64_t)s->o.duration_ms * 1000000ull : 0;
	return 0;
}

uint64_t session_loop_take_periods(struct td_session *s)
{
	uint64_t periods = s->tick >= 0 ? drain(s->tick) : 0;

	/* more than one period since the last read: the sampler was late, and
	 * the interval written next covers the periods it missed */
	if (periods > 1) {
		if (!s->missed_periods)
			td_sampler_priority_describe(s->late_priority, sizeof(s->late_priority));
		s->missed_periods += periods - 1;
		if (s->nmissed && s->seq <= s->missed_latest.last + 1) {
			s->missed_latest.last = s->seq;
		} else {
			s->missed_latest.first = s->missed_latest.last = s->seq;
			s->nmissed++;
		}
		if (s->nmissed <= TD_MISSED_RANGES_KEPT)
			s->missed[s->nmissed - 1] = s->missed_latest;
	}
	return periods;
}

void session_loop_close(struct td_session *s)
{
	int *fds[] = { &s->tick, &s->scan, &s->rot, &s->pidfd };

	for (size_t i = 0; i < sizeof(fds) / sizeof(fds[0]); i++) {
		if (*fds[i] >= 0)
			close(*fds[i]);
		*fds[i] = -1;
	}
}

void td_session_stop(struct td_session *s, const char *why)
{
	if (s->done)
		return;
	snprintf(s->res.stop_reason, sizeof(s->res.stop_reason), "%s", why);
	s->done = true;
}

/* Say once, as it happens, that threads go uncounted, and why. */
static void report_open_failures(struct td_session *s)
{
	struct td_collector_stats st;

	if (s->reported_failures || td_collector_open_failures(s->col) == 0)
		return;
	td_collector_stats(s->col, &st);
	session_say(s, TD_SAY_WARNING, "some threads cannot be counted: %s", st.last_failure);
	s->reported_failures = true;
}

/* The session's descriptors to watch, into p (TD_SESSION_POLLFDS at most). */
int td_session_pollfds(const struct td_session *s, struct pollfd *p)
{
	const int fds[FDS_PER_SESSION] = { s->tick, s->scan, s->rot, s->pidfd };
	int n = 0;

	for (int i = 0; i < FDS_PER_SESSION; i++)
		if (fds[i] >= 0)
			p[n++] = (struct pollfd){ .fd = fds[i], .events = POLLIN };
	return n;
}

/* How long the loop may sleep for this session: until its deadline, and
 * at most 50 ms when no pidfd tells of the target's exit (a session with
 * no target process, --system or --cgroup, waits for its timers). */
int td_session_timeout_ms(const struct td_session *s)
{
	int t = -1;

	if (s->deadline) {
		uint64_t now = td_now_ns();
		t = now >= s->deadline ? 0 : (int)((s->deadline - now) / 1000000ull) + 1;
	}
	if (s->pidfd < 0 && (s->child || s->o.attach_pid) && (t < 0 || t > 50))
		t = 50;
	return t;
}

static bool ready(const struct pollfd *p, int n, int fd)
{
	for (int i = 0; fd >= 0 && i < n; i++)
		if (p[i].fd == fd)
			return (p[i].revents & (POLLIN | POLLHUP)) != 0;
	return false;
}

void td_session_dispatch(struct td_session *s, const struct pollfd *p, int n)
{
	if (ready(p, n, s->rot)) {
		drain(s->rot);
		td_collector_rotate(s->col);
	}
	bool tick = ready(p, n, s->tick);

	if (ready(p, n, s->scan) || (tick && s->scan_on_tick)) {
		if (s->scan >= 0)
			drain(s->scan);
		td_collector_scan(s->col, td_wall_ns(), &s->sink);
		session_hotspots_drain(s);
		report_open_failures(s);
	}
	if (tick) {
		session_loop_take_periods(s);
		/* the tick that ends the duration (the deadline was set a moment
		 * after the timer started, so it falls just after this tick): the
		 * session's last read is this interval's, not one more of a few
		 * microseconds after it */
		if (s->deadline && td_now_ns() + (uint64_t)s->o.interval_ms * 500000ull >= s->deadline)
			td_session_stop(s, "duration reached");
		else
			session_write_interval(s, false);
	}
	if (ready(p, n, s->pidfd))
		td_session_stop(s, "target exited");
	if (!s->sys && !s->cg_bpf && s->pidfd < 0 && td_collector_process_count(s->col) == 0)
		td_session_stop(s, "target exited");
	if (s->deadline && td_now_ns() >= s->deadline)
		td_session_stop(s, "duration reached");
}

void td_session_batch_begin(void)
{
	td_bpf_counting_batch_begin();
	session_costs_batch(true);
}

void td_session_batch_end(void)
{
	td_bpf_counting_batch_end();
	session_costs_batch(false);
}

/* A signal for every session: a command that runs gets it (Ctrl-C reached
 * it from the terminal already); anything else stops. */
void td_session_signal(struct td_session *s, const struct signalfd_siginfo *si)
{
	char why[64];

	if (s->child) {
		if (si->ssi_signo != SIGINT || si->ssi_code != SI_KERNEL)
			kill(s->child, (int)si->ssi_signo);
		return;
	}
	snprintf(why, sizeof(why), "stopped by %s", strsignal((int)si->ssi_signo));
	td_session_stop(s, why);
}

bool td_session_done(const struct td_session *s)
{
	return s->done;
}

int64_t td_session_id(const struct td_session *s)
{
	return s->session;
}

const char *td_session_rung(const struct td_session *s)
{
	return td_rung_name(s->caps.rung);
}

const char *td_session_pmu_model(const struct td_session *s)
{
	return s->hybrid_spec[0] ? s->hybrid_spec : s->caps.pfm_model; /* as the session row records it */
}

const char *td_session_events_file(const struct td_session *s)
{
	return s->caps.events_file;
}

int td_session_failed_writes(const struct td_session *s)
{
	return s->failed_writes;
}

uint64_t td_session_missed_periods(const struct td_session *s)
{
	return s->missed_periods;
}

void td_session_loop(struct td_session *const *sessions, int n, int sigfd)
{
	struct pollfd *p = malloc(((size_t)n * FDS_PER_SESSION + 1) * sizeof(*p));
	int *first = malloc(((size_t)n + 1) * sizeof(int)), *count = malloc(((size_t)n + 1) * sizeof(int));

	if (!p || !first || !count) {
		for (int i = 0; i < n; i++)
			td_session_stop(sessions[i], "out of memory");
		n = 0;
	}
	for (;;) {
		int np = 0, timeout = -1, live = 0;
		if (sigfd >= 0)
			p[np++] = (struct pollfd){ .fd = sigfd, .events = POLLIN };
		for (int i = 0; i < n; i++) {
			first[i] = np;
			count[i] = 0;
			if (sessions[i]->done)
				continue;
			live++;
			count[i] = td_session_pollfds(sessions[i], p + np);
			np += count[i];
			int t = td_session_timeout_ms(sessions[i]);
			if (t >= 0 && (timeout < 0 || t < timeout))
				timeout = t;
		}
		if (!live)
			break;
		if (poll(p, (nfds_t)np, timeout) < 0 && errno != EINTR) {
			char why[96];
			snprintf(why, sizeof(why), "cannot wait for events: %s", strerror(errno));
			for (int i = 0; i < n; i++)
				td_session_stop(sessions[i], why);
			break;
		}
		if (sigfd >= 0 && (p[0].revents & POLLIN)) {
			struct signalfd_siginfo si;
			if (read(sigfd, &si, sizeof(si)) == (ssize_t)sizeof(si))
				for (int i = 0; i < n; i++)
					if (!sessions[i]->done)
						td_session_signal(sessions[i], &si);
		}
		for (int i = 0; i < n; i++)
			if (!sessions[i]->done)
				td_session_dispatch(sessions[i], p + first[i], count[i]);
	}
	free(p);
	free(first);
	free(count);
}
