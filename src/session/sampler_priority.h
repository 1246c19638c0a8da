/* sampler_priority: the scheduling priority of the thread that reads the
 * counters (the session loop's thread: tdctl's main thread, topdownd's
 * loop). On a machine whose CPUs are saturated by the target, an ordinary
 * thread gets a 1/(N+1) share and reads its intervals late or not at all;
 * raised, it keeps its clock. Where permitted: SCHED_FIFO (priority
 * TD_SAMPLER_RT_PRIORITY), else a negative nice value (as low as
 * RLIMIT_NICE allows, at most TD_SAMPLER_NICE), else nothing. Always with
 * SCHED_RESET_ON_FORK: a command the session forks (tdctl run), and every
 * thread and process it creates, start at the normal policy and nice 0,
 * never at the sampler's. */
#ifndef TD_SAMPLER_PRIORITY_H
#define TD_SAMPLER_PRIORITY_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>

#define TD_SAMPLER_RT_PRIORITY 1
#define TD_SAMPLER_NICE (-10)

enum td_sampler_raised {
	TD_RAISED_NONE,
	TD_RAISED_FIFO,
	TD_RAISED_NICE
};

struct td_sampler_priority {
	enum td_sampler_raised raised;
	char said[256]; /* one line for the user: what it got, or why nothing */
	/* what the thread had before, for td_sampler_priority_restore */
	int old_policy, old_nice;
	struct sched_param old_param;
	bool saved;
};

/* Raise the calling thread's priority as far as it is permitted (see top);
 * p->said says what it got in one line. Returns p->raised. */
enum td_sampler_raised td_sampler_priority_raise(struct td_sampler_priority *p);
/* Give the calling thread back what it had before td_sampler_priority_raise. */
void td_sampler_priority_restore(struct td_sampler_priority *p);
/* A command forked by the raised thread starts at nice 0 (the kernel's
 * SCHED_RESET_ON_FORK), whatever the program was started with (`nice
 * tdctl run CMD`): true while the priority is raised, with the nice value
 * the thread had before, for the command to take back (raising it from 0
 * is always permitted). */
bool td_sampler_priority_unraised_nice(int *nice);
/* The calling thread's priority now, in a few words ("SCHED_FIFO 1",
 * "nice -10", "normal priority"), into buf. */
void td_sampler_priority_describe(char *buf, size_t len);

#endif
