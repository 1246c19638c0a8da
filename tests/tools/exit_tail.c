/* exit_tail: a thread whose exit runs long after the kernel announced it.
 * The kernel's sched_process_exit tracepoint (where the BPF tracker learns a
 * thread is gone) comes before the exiting thread closes its files and runs
 * their deferred release (linux 6.12 kernel/exit.c:945, exit_files() at 949,
 * exit_task_work() at 954, do_task_dead() at 997: the thread's last switch).
 * Here the worker holds the last reference to MB megabytes of shared memory
 * (a memfd, its own file table after unshare(CLONE_FILES)), so its exit
 * frees them, on its own CPU time, between the announcement and its last
 * switch. The worker is busy for BUSY_MS of its CPU time first. At the end
 * the process writes to OUT "TID CPU_NS": the worker's TID and its CPU time,
 * its exit included (the process's CPU time, CLOCK_PROCESS_CPUTIME_ID, once
 * the thread is reaped, less the main thread's own: the kernel adds an
 * exiting thread's runtime to its process's in release_task(), exit.c's
 * __exit_signal(), before its last switch by a few microseconds at most).
 *
 *   exit_tail OUT MB BUSY_MS
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "busy.h"

static int memfd;
static long busy_ms;
static volatile pid_t worker_tid;
static volatile int unshared, closed;

static void *worker(void *arg)
{
	(void)arg;
	worker_tid = (pid_t)syscall(SYS_gettid);
	if (unshare(CLONE_FILES)) { /* its own copy of the file table: the memfd's last holder once main closes it */
		perror("exit_tail: unshare");
		exit(1);
	}
	unshared = 1;
	while (!closed)
		usleep(1000);
	busy_cpu_ms(busy_ms);
	return NULL; /* exit: its file table goes, and with it the memfd's pages */
}

int main(int argc, char **argv)
{
	char path[64];
	struct stat st;
	pthread_t th;
	long mb;
	FILE *f;

	if (argc != 4 || (mb = atol(argv[2])) < 1 || (busy_ms = atol(argv[3])) < 0) {
		fprintf(stderr, "usage: exit_tail OUT MB BUSY_MS\n");
		return 2;
	}
	if ((memfd = memfd_create("exit_tail", 0)) < 0 || fallocate(memfd, 0, 0, (off_t)mb << 20)) {
		fprintf(stderr, "exit_tail: %ld MB of shared memory: %s\n", mb, strerror(errno));
		return 1;
	}
	if (pthread_create(&th, NULL, worker, NULL)) {
		fprintf(stderr, "exit_tail: cannot start a thread\n");
		return 1;
	}
	while (!unshared)
		usleep(1000);
	close(memfd); /* the worker's table holds the last reference */
	closed = 1;
	pthread_join(th, NULL); /* returns once the worker's TID is cleared: before its exit ends */
	/* reaped: its /proc entry gone, its runtime in the process's */
	snprintf(path, sizeof(path), "/proc/self/task/%d", (int)worker_tid);
	while (stat(path, &st) == 0)
		usleep(1000);
	if (!(f = fopen(argv[1], "w"))) {
		perror(argv[1]);
		return 1;
	}
	fprintf(f, "%d %" PRIu64 "\n", (int)worker_tid,
		clock_ns(CLOCK_PROCESS_CPUTIME_ID) - clock_ns(CLOCK_THREAD_CPUTIME_ID));
	return fclose(f) ? 1 : 0;
}
