/* pulses: a workload whose threads run now and then, for the tests of a
 * session that commits several intervals at once (group_commit.sh): each of
 * N threads is busy for BUSY_MS of its own CPU time (CLOCK_THREAD_CPUTIME_ID),
 * then sleeps SLEEP_MS, again and again for SECONDS. At -I 100 such a thread
 * runs in one interval of a group of five and not in the next ones. At the
 * end the process writes "CPU_NS START END" to OUT: its CPU time
 * (CLOCK_PROCESS_CPUTIME_ID, every thread's) when the threads start and when
 * they have all ended, as td-demo -b does.
 *
 *   pulses OUT N BUSY_MS SLEEP_MS SECONDS
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "busy.h"

static long busy_ms, sleep_ms;
static uint64_t end_ns;

static void *pulse(void *arg)
{
	(void)arg;
	while (clock_ns(CLOCK_MONOTONIC) < end_ns) {
		struct timespec rest = { sleep_ms / 1000, (sleep_ms % 1000) * 1000000L };
		busy_cpu_ms(busy_ms);
		nanosleep(&rest, NULL);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t th[64];
	uint64_t start;
	long n;
	FILE *f;

	if (argc != 6 || (n = atol(argv[2])) < 1 || n > 64 || (busy_ms = atol(argv[3])) < 1 ||
	    (sleep_ms = atol(argv[4])) < 0 || atol(argv[5]) < 1) {
		fprintf(stderr, "usage: pulses OUT N(1-64) BUSY_MS SLEEP_MS SECONDS\n");
		return 2;
	}
	end_ns = clock_ns(CLOCK_MONOTONIC) + (uint64_t)atol(argv[5]) * 1000000000ull;
	start = clock_ns(CLOCK_PROCESS_CPUTIME_ID);
	for (long i = 0; i < n; i++)
		if (pthread_create(&th[i], NULL, pulse, NULL)) {
			fprintf(stderr, "pulses: cannot start a thread\n");
			return 1;
		}
	for (long i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	if (!(f = fopen(argv[1], "w"))) {
		perror(argv[1]);
		return 1;
	}
	fprintf(f, "CPU_NS %" PRIu64 " %" PRIu64 "\n", start, clock_ns(CLOCK_PROCESS_CPUTIME_ID));
	return fclose(f) ? 1 : 0;
}
