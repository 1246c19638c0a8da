/* sampler_priority: raising (and giving back) the scheduling priority of
 * the thread that reads the counters; see sampler_priority.h. On Linux
 * sched_setscheduler(0, ...) and setpriority(PRIO_PROCESS, 0, ...) act on
 * the calling thread only, so the other threads of the program (and of a
 * target it forks) keep theirs. */
#include "sampler_priority.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#ifndef SCHED_RESET_ON_FORK
#define SCHED_RESET_ON_FORK 0x40000000
#endif

/* Lower the calling thread's nice value below old: to TD_SAMPLER_NICE,
 * else as far as RLIMIT_NICE allows without privilege (its ceiling is
 * 20 - rlim_cur). The value reached into *got; -1 when not permitted. */
static int lower_nice(int old, int *got)
{
	struct rlimit rl;
	int floor = TD_SAMPLER_NICE;

	if (floor < old && setpriority(PRIO_PROCESS, 0, floor) == 0) {
		*got = floor;
		return 0;
	}
	if (getrlimit(RLIMIT_NICE, &rl) || rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur <= 20 || rl.rlim_cur > 40)
		return -1;
	floor = 20 - (int)rl.rlim_cur;
	if (floor < old && setpriority(PRIO_PROCESS, 0, floor) == 0) {
		*got = floor;
		return 0;
	}
	return -1;
}

/* The nice value before the last raise that is not given back yet (see
 * td_sampler_priority_unraised_nice): the program's one sampling thread. */
static bool unraised_known;
static int unraised_nice;

static enum td_sampler_raised raised(struct td_sampler_priority *p, enum td_sampler_raised how)
{
	if (how != TD_RAISED_NONE) {
		unraised_known = true;
		unraised_nice = p->old_nice;
	}
	return p->raised = how;
}

enum td_sampler_raised td_sampler_priority_raise(struct td_sampler_priority *p)
{
	struct sched_param sp = { .sched_priority = TD_SAMPLER_RT_PRIORITY };
	int fifo_errno, nice_target, policy;

	memset(p, 0, sizeof(*p));
	errno = 0;
	p->old_nice = getpriority(PRIO_PROCESS, 0);
	policy = sched_getscheduler(0);
	if (policy < 0 || (p->old_nice == -1 && errno) || sched_getparam(0, &p->old_param)) {
		snprintf(p->said, sizeof(p->said), "sampler at its normal priority: cannot read it (%s)",
			 strerror(errno));
		return p->raised = TD_RAISED_NONE;
	}
	p->old_policy = policy & ~SCHED_RESET_ON_FORK;
	p->saved = true;
	if (p->old_policy == SCHED_FIFO || p->old_policy == SCHED_RR) {
		snprintf(p->said, sizeof(p->said), "sampler kept at the real-time priority it was given (%s %d)",
			 p->old_policy == SCHED_FIFO ? "SCHED_FIFO" : "SCHED_RR", p->old_param.sched_priority);
		p->saved = false;
		return p->raised = TD_RAISED_NONE;
	}
	if (sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, &sp) == 0) {
		snprintf(p->said, sizeof(p->said),
			 "sampler at real-time priority SCHED_FIFO %d (the target does not inherit "
			 "it; --no-priority leaves it)",
			 TD_SAMPLER_RT_PRIORITY);
		return raised(p, TD_RAISED_FIFO);
	}
	fifo_errno = errno;
	/* the nice value next: reset on fork too (an unprivileged thread may set the flag) */
	sp.sched_priority = 0;
	if (sched_setscheduler(0, SCHED_OTHER | SCHED_RESET_ON_FORK, &sp) == 0 &&
	    lower_nice(p->old_nice, &nice_target) == 0) {
		snprintf(p->said, sizeof(p->said),
			 "sampler at nice %d (SCHED_FIFO not permitted: %s; the target does not "
			 "inherit it; --no-priority leaves it)",
			 nice_target, strerror(fifo_errno));
		return raised(p, TD_RAISED_NICE);
	}
	snprintf(p->said, sizeof(p->said),
		 "sampler at normal priority: raising it is not permitted (%s); run as root or "
		 "with CAP_SYS_NICE, or intervals may be read late when the CPUs are saturated",
		 strerror(fifo_errno));
	return p->raised = TD_RAISED_NONE;
}

void td_sampler_priority_restore(struct td_sampler_priority *p)
{
	if (!p->saved)
		return;
	/* lowering is always permitted; clearing SCHED_RESET_ON_FORK is not
	 * without privilege: then it stays, with the old policy */
	if (sched_setscheduler(0, p->old_policy, &p->old_param) != 0)
		sched_setscheduler(0, p->old_policy | SCHED_RESET_ON_FORK, &p->old_param);
	setpriority(PRIO_PROCESS, 0, p->old_nice);
	p->saved = false;
	p->raised = TD_RAISED_NONE;
	unraised_known = false;
}

bool td_sampler_priority_unraised_nice(int *nice)
{
	*nice = unraised_nice;
	return unraised_known;
}

void td_sampler_priority_describe(char *buf, size_t len)
{
	int policy = sched_getscheduler(0);
	struct sched_param sp = { 0 };
	int nice;

	errno = 0;
	nice = getpriority(PRIO_PROCESS, 0);
	if (policy >= 0)
		policy &= ~SCHED_RESET_ON_FORK;
	if ((policy == SCHED_FIFO || policy == SCHED_RR) && sched_getparam(0, &sp) == 0)
		snprintf(buf, len, "%s %d", policy == SCHED_FIFO ? "SCHED_FIFO" : "SCHED_RR", sp.sched_priority);
	else if (!errno && nice != 0)
		snprintf(buf, len, "nice %d", nice);
	else
		snprintf(buf, len, "normal priority");
}
