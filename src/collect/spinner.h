/* spinner: a thread of tdctl's own spinning in user space until stopped —
 * the stand-in target of measurements made on this host before a session
 * counts anything (read_cost: what a read adds to a running target;
 * group_probe: whether each group goes on the PMU). Internal to collect/. */
#ifndef TD_SPINNER_H
#define TD_SPINNER_H

#include <pthread.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <sys/types.h>

struct td_spinner {
	atomic_int stop;
	pid_t tid; /* set once started */
	sem_t started;
	pthread_t th;
};

/* Start it and wait until it runs: on CPU cpu from its first instruction
 * (-1: anywhere), at normal priority (SCHED_OTHER, nice 0: as a target
 * runs, whatever the caller's real-time priority) when normal, else at the
 * caller's. 0, or an errno (of pthread_create and its attributes, or
 * sem_init's) with nothing started. */
int td_spinner_start(struct td_spinner *s, int cpu, bool normal);
/* Stop it and wait for it to end. */
void td_spinner_stop(struct td_spinner *s);

#endif
