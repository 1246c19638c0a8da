/* busy: what the test workloads share — a clock in nanoseconds, and a
 * loop that runs until the calling thread has used some of its own CPU
 * time (CLOCK_THREAD_CPUTIME_ID: the kernel's count of it, the reference
 * the tests compare topdown's task clock with). */
#ifndef TD_TESTS_BUSY_H
#define TD_TESTS_BUSY_H

#include <stdint.h>
#include <time.h>

static inline uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Spin until this thread has run ms more milliseconds. */
static inline void busy_cpu_ms(long ms)
{
	volatile uint64_t x = 0;
	uint64_t until = clock_ns(CLOCK_THREAD_CPUTIME_ID) + (uint64_t)ms * 1000000ull;

	while (clock_ns(CLOCK_THREAD_CPUTIME_ID) < until)
		for (int i = 0; i < 10000; i++)
			x += (uint64_t)i;
}

#endif
