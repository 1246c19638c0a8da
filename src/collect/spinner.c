/* spinner: a thread of tdctl's own spinning in user space (spinner.h). The
 * caller sleeps on a semaphore until the thread has said its TID, not in a
 * sched_yield loop (at SCHED_FIFO that held a loaded CPU for as long as the
 * new thread took to be scheduled). */
#include "spinner.h"

#include <errno.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

static void *spin(void *arg)
{
	struct td_spinner *s = arg;
	volatile unsigned long n = 0;

	s->tid = (pid_t)syscall(SYS_gettid);
	sem_post(&s->started);
	while (!atomic_load_explicit(&s->stop, memory_order_relaxed))
		n++;
	return NULL;
}

int td_spinner_start(struct td_spinner *s, int cpu, bool normal)
{
	struct sched_param zero = { .sched_priority = 0 };
	pthread_attr_t attr;
	cpu_set_t one;
	int rc;

	atomic_init(&s->stop, 0);
	s->tid = 0;
	if (sem_init(&s->started, 0, 0))
		return errno;
	if ((rc = pthread_attr_init(&attr)) == 0) {
		if (cpu >= 0) {
			CPU_ZERO(&one);
			CPU_SET(cpu, &one);
			rc = pthread_attr_setaffinity_np(&attr, sizeof(one), &one);
		}
		if (rc == 0 && normal && (rc = pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED)) == 0 &&
		    (rc = pthread_attr_setschedpolicy(&attr, SCHED_OTHER)) == 0)
			rc = pthread_attr_setschedparam(&attr, &zero);
		if (rc == 0)
			rc = pthread_create(&s->th, &attr, spin, s);
		pthread_attr_destroy(&attr);
	}
	if (rc != 0) {
		sem_destroy(&s->started);
		return rc;
	}
	while (sem_wait(&s->started) && errno == EINTR)
		;
	return 0;
}

void td_spinner_stop(struct td_spinner *s)
{
	atomic_store(&s->stop, 1);
	pthread_join(s->th, NULL);
	sem_destroy(&s->started);
}
