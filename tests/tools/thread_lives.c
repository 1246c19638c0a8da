/* thread_lives: a workload for the tracker tests that keeps its own record
 * of every thread it ran. Over about NLONG x 50 ms it starts, every 5 ms, a
 * short thread that names itself "s-N" and returns at once (it lives far
 * less than a scan period), and every 50 ms a long thread that names itself
 * "l-N" and sleeps LONG_MS. Each thread notes its TID, name and the
 * CLOCK_REALTIME nanoseconds at which it began and ended its own code;
 * the main thread writes "TID NAME START_NS END_NS" lines to OUT at the end.
 *
 *   thread_lives OUT NLONG LONG_MS
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define SHORT_PER_LONG 10 /* 50 ms / 5 ms */

struct life {
	pid_t tid;
	char name[16];
	uint64_t start, end;
	long sleep_ms;
};

static uint64_t wall_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static void *live(void *arg)
{
	struct life *l = arg;

	l->start = wall_ns();
	l->tid = (pid_t)syscall(SYS_gettid);
	pthread_setname_np(pthread_self(), l->name);
	if (l->sleep_ms)
		sleep_ms(l->sleep_ms);
	l->end = wall_ns();
	return NULL;
}

static long arg_long(const char *s, long lo, long hi, const char *what)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (*s == '\0' || *end || v < lo || v > hi) {
		fprintf(stderr, "thread_lives: bad %s '%s': give %ld to %ld\n", what, s, lo, hi);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	struct life *lives;
	pthread_t *threads;
	int nlong, n = 0, total;
	long long_ms;
	FILE *out;

	if (argc != 4) {
		fprintf(stderr, "usage: thread_lives OUT NLONG LONG_MS\n");
		return 2;
	}
	nlong = (int)arg_long(argv[2], 1, 1000, "long thread count"); /* names fit 15 bytes: "s-9999" */
	long_ms = arg_long(argv[3], 1, 60000, "lifetime");
	total = nlong * (SHORT_PER_LONG + 1);
	lives = calloc((size_t)total, sizeof(*lives));
	threads = calloc((size_t)total, sizeof(*threads));
	if (!lives || !threads) {
		fprintf(stderr, "thread_lives: out of memory\n");
		return 1;
	}
	for (int i = 0; i < nlong; i++) {
		for (int k = 0; k <= SHORT_PER_LONG; k++) {
			struct life *l = &lives[n];
			if (k == 0) {
				snprintf(l->name, sizeof(l->name), "l-%d", i % 10000);
				l->sleep_ms = long_ms;
			} else {
				snprintf(l->name, sizeof(l->name), "s-%d", (i * SHORT_PER_LONG + k - 1) % 100000);
			}
			if (pthread_create(&threads[n], NULL, live, l)) {
				fprintf(stderr, "thread_lives: cannot create a thread: %s\n", strerror(errno));
				return 1;
			}
			n++;
			if (k > 0)
				sleep_ms(5);
		}
	}
	for (int i = 0; i < n; i++)
		pthread_join(threads[i], NULL);
	if (!(out = fopen(argv[1], "w"))) {
		fprintf(stderr, "thread_lives: cannot write '%s': %s\n", argv[1], strerror(errno));
		return 1;
	}
	for (int i = 0; i < n; i++)
		fprintf(out, "%d %s %" PRIu64 " %" PRIu64 "\n", (int)lives[i].tid, lives[i].name, lives[i].start,
			lives[i].end);
	if (fclose(out)) {
		fprintf(stderr, "thread_lives: cannot write '%s'\n", argv[1]);
		return 1;
	}
	free(lives);
	free(threads);
	return 0;
}
