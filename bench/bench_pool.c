/* bench_pool: an everyday workload for bench_target.sh, a thread pool
 * handing small tasks through a queue. The main thread puts TASKS tasks,
 * one at a time, into a queue of QUEUE places; WORKERS threads take them
 * and each runs WORK iterations of arithmetic. Every hand-over through a
 * full or empty queue is a wait on a condition variable, so a context
 * switch (about four a task). Pinned to one CPU, the defaults (4 workers,
 * 10,000 tasks of 50,000 iterations) made about 19,000 switches a second
 * on a loaded 2-vCPU Emerald Rapids guest (2026-11-28); bench_target.sh
 * prints the rate it measures. Prints what it measured, on one
 * line: "tasks N seconds S switches C" (S the wall time from the first task
 * put to the last one done, C the process's voluntary and involuntary
 * switches over that time, getrusage(RUSAGE_SELF), all its threads).
 * Usage: bench_pool [-t WORKERS] [-n TASKS] [-q QUEUE] [-w WORK] */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

struct pool {
	pthread_mutex_t lock;
	pthread_cond_t not_empty, not_full;
	unsigned *queue; /* a ring of cap places */
	int cap, head, count;
	int done;      /* no more tasks */
	unsigned work; /* iterations per task */
	unsigned long sink;
};

static unsigned long run_task(unsigned seed, unsigned work)
{
	unsigned long x = seed | 1;

	for (unsigned i = 0; i < work; i++)
		x = x * 6364136223846793005ul + 1442695040888963407ul;
	return x;
}

static void *worker(void *arg)
{
	struct pool *p = arg;
	unsigned long acc = 0;

	for (;;) {
		unsigned task;

		pthread_mutex_lock(&p->lock);
		while (p->count == 0 && !p->done)
			pthread_cond_wait(&p->not_empty, &p->lock);
		if (p->count == 0) {
			pthread_mutex_unlock(&p->lock);
			break;
		}
		task = p->queue[p->head];
		p->head = (p->head + 1) % p->cap;
		p->count--;
		pthread_cond_signal(&p->not_full);
		pthread_mutex_unlock(&p->lock);
		acc += run_task(task, p->work);
	}
	pthread_mutex_lock(&p->lock);
	p->sink += acc; /* the work is used: not optimized away */
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static long switches(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_nvcsw + ru.ru_nivcsw;
}

int main(int argc, char **argv)
{
	struct pool p = { .lock = PTHREAD_MUTEX_INITIALIZER,
			  .not_empty = PTHREAD_COND_INITIALIZER,
			  .not_full = PTHREAD_COND_INITIALIZER,
			  .cap = 1,
			  .work = 50000 };
	int nworkers = 4, opt;
	long ntasks = 10000, sw0;
	pthread_t *tids;
	double t0;

	while ((opt = getopt(argc, argv, "t:n:q:w:")) != -1) {
		switch (opt) {
		case 't':
			nworkers = atoi(optarg);
			break;
		case 'n':
			ntasks = atol(optarg);
			break;
		case 'q':
			p.cap = atoi(optarg);
			break;
		case 'w':
			p.work = (unsigned)strtoul(optarg, NULL, 10);
			break;
		default:
			fprintf(stderr, "usage: bench_pool [-t WORKERS] [-n TASKS] [-q QUEUE] [-w WORK]\n");
			return 2;
		}
	}
	if (nworkers < 1 || ntasks < 1 || p.cap < 1) {
		fprintf(stderr, "bench_pool: WORKERS, TASKS and QUEUE must be at least 1\n");
		return 2;
	}
	p.queue = calloc((size_t)p.cap, sizeof(*p.queue));
	tids = calloc((size_t)nworkers, sizeof(*tids));
	if (!p.queue || !tids) {
		fprintf(stderr, "bench_pool: out of memory\n");
		return 1;
	}
	for (int i = 0; i < nworkers; i++)
		if (pthread_create(&tids[i], NULL, worker, &p)) {
			fprintf(stderr, "bench_pool: could not start a worker thread\n");
			return 1;
		}
	sw0 = switches();
	t0 = now_s();
	for (long n = 0; n < ntasks; n++) {
		pthread_mutex_lock(&p.lock);
		while (p.count == p.cap)
			pthread_cond_wait(&p.not_full, &p.lock);
		p.queue[(p.head + p.count) % p.cap] = (unsigned)n;
		p.count++;
		pthread_cond_signal(&p.not_empty);
		pthread_mutex_unlock(&p.lock);
	}
	pthread_mutex_lock(&p.lock);
	p.done = 1;
	pthread_cond_broadcast(&p.not_empty);
	pthread_mutex_unlock(&p.lock);
	for (int i = 0; i < nworkers; i++)
		pthread_join(tids[i], NULL);
	printf("tasks %ld seconds %.6f switches %ld\n", ntasks, now_s() - t0, switches() - sw0);
	fprintf(stderr, "bench_pool: checksum %lu\n", p.sink);
	free(p.queue);
	free(tids);
	return 0;
}
