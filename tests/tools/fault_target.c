/* fault_target: the awkward targets of tests/integration/collector_faults.sh
 * — a process that forks thousands of short children, one that changes its
 * credentials, one that execs — each keeping its own record of what it did,
 * so the test compares the collector's view with the target's. Not
 * instrumented: it is measured.
 *   fault_target fork N DIR    DIR/ready, 0.5 s idle, N children forked
 *                              one after another (each _exit(0) at once,
 *                              reaped), DIR/forked holding N, then waits
 *                              for SIGUSR1 and exits 0
 *   fault_target setuid MS DIR busy MS ms of CPU as root (DIR/root-tid:
 *                              its TID), then setresgid/setresuid to 65534
 *                              (nobody), then MS ms more of CPU while a new
 *                              thread burns MS ms of CPU too (DIR/nobody-tid:
 *                              its TID, written once it has run); exits 0,
 *                              or 2 if the change is refused. DIR must be
 *                              writable by nobody.
 *   fault_target exec MS PROG ARGS...  MS ms of CPU, then execvp PROG
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile unsigned long sink;
static long busy_ms;
static const char *dir;

/* CPU time of the calling thread: a busy loop's length whatever the load */
static double cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void busy(long ms)
{
	double end = cpu_s() + (double)ms / 1000;

	while (cpu_s() < end)
		for (int i = 0; i < 10000; i++)
			sink += (unsigned long)i;
}

static void write_file(const char *name, long value)
{
	char path[4096];
	FILE *f;

	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path)) {
		fprintf(stderr, "fault_target: path too long\n");
		exit(1);
	}
	if (!(f = fopen(path, "w")) || fprintf(f, "%ld\n", value) < 0 || fclose(f) != 0) {
		fprintf(stderr, "fault_target: cannot write %s: %s\n", path, strerror(errno));
		exit(1);
	}
}

static void on_usr1(int sig)
{
	(void)sig;
}

static int fork_storm(long n)
{
	sigset_t usr1, old;

	signal(SIGUSR1, on_usr1);
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	sigprocmask(SIG_BLOCK, &usr1, &old); /* a SIGUSR1 sent early is not lost */
	write_file("ready", (long)getpid());
	usleep(500000);
	for (long i = 0; i < n; i++) {
		pid_t p = fork();
		if (p < 0) {
			fprintf(stderr, "fault_target: fork %ld: %s\n", i, strerror(errno));
			return 1;
		}
		if (p == 0)
			_exit(0);
		if (waitpid(p, NULL, 0) != p) {
			fprintf(stderr, "fault_target: waitpid: %s\n", strerror(errno));
			return 1;
		}
	}
	write_file("forked", n);
	sigsuspend(&old);
	return 0;
}

static void *nobody_thread(void *arg)
{
	(void)arg;
	busy(busy_ms);
	write_file("nobody-tid", (long)syscall(SYS_gettid));
	return NULL;
}

static int change_credentials(void)
{
	pthread_t t;

	busy(busy_ms);
	write_file("root-tid", (long)syscall(SYS_gettid));
	if (setresgid(65534, 65534, 65534) != 0 || setresuid(65534, 65534, 65534) != 0) {
		fprintf(stderr, "fault_target: cannot become nobody: %s\n", strerror(errno));
		return 2;
	}
	if (pthread_create(&t, NULL, nobody_thread, NULL) != 0) {
		fprintf(stderr, "fault_target: cannot start a thread\n");
		return 1;
	}
	busy(busy_ms);
	if (pthread_join(t, NULL) != 0) {
		fprintf(stderr, "fault_target: cannot start a thread\n");
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 4 && !strcmp(argv[1], "fork")) {
		dir = argv[3];
		return fork_storm(atol(argv[2]));
	}
	if (argc >= 4 && !strcmp(argv[1], "setuid")) {
		busy_ms = atol(argv[2]);
		dir = argv[3];
		return change_credentials();
	}
	if (argc >= 4 && !strcmp(argv[1], "exec")) {
		busy(atol(argv[2]));
		execvp(argv[3], argv + 3);
		fprintf(stderr, "fault_target: cannot exec %s: %s\n", argv[3], strerror(errno));
		return 127;
	}
	fprintf(stderr, "usage: fault_target fork N DIR | setuid MS DIR | exec MS PROG ARGS...\n");
	return 1;
}
