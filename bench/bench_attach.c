/* bench_attach: CPU time (user + system, from wait4) of `tdctl attach` on a
 * busy td-demo (4 threads) against `perf stat -I` on the same process with
 * software.td's events, both for SECONDS at the same interval; prints both
 * and the ratio tdctl / perf (goal <= 1.0). Without perf in PATH it says so
 * and prints no ratio. Never passes or fails.
 * usage: bench_attach [SECONDS] [INTERVAL_MS] */
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#define GOAL_RATIO 1.0

/* Run argv to completion; its CPU seconds, or -1 if it failed. */
static double cpu_of(char *const argv[])
{
	struct rusage ru;
	int status;
	pid_t p;

	fflush(stdout); /* else the child's freopen flushes our buffered lines too */
	p = fork();

	if (p == 0) {
		freopen("/dev/null", "w", stdout);
		freopen("/dev/null", "w", stderr);
		execvp(argv[0], argv);
		_exit(127);
	}
	if (p < 0 || wait4(p, &status, 0, &ru) != p || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return -1;
	return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
	       ru.ru_stime.tv_usec / 1e6;
}

static bool in_path(const char *name)
{
	char *path = getenv("PATH") ? strdup(getenv("PATH")) : NULL, *save = NULL, buf[4096];
	bool found = false;

	for (char *d = path ? strtok_r(path, ":", &save) : NULL; d && !found; d = strtok_r(NULL, ":", &save)) {
		snprintf(buf, sizeof(buf), "%s/%s", d, name);
		found = access(buf, X_OK) == 0;
	}
	free(path);
	return found;
}

int main(int argc, char **argv)
{
	int secs = argc > 1 ? atoi(argv[1]) : 3, ms = argc > 2 ? atoi(argv[2]) : 100;
	char tdctl[1024], demo[1024], db[64], pid[16], dur[16], iv[16], run_s[16];
	double td, pf;
	pid_t d;

	if (secs < 1 || ms < 10) {
		fprintf(stderr, "usage: bench_attach [SECONDS >= 1] [INTERVAL_MS >= 10]\n");
		return 2;
	}
	snprintf(tdctl, sizeof(tdctl), "%s/src/tdctl/tdctl", TD_BUILDDIR_DEFAULT);
	snprintf(demo, sizeof(demo), "%s/src/demo/td-demo", TD_BUILDDIR_DEFAULT);
	snprintf(db, sizeof(db), "/tmp/bench-attach-%d.db", (int)getpid());
	snprintf(run_s, sizeof(run_s), "%d", 2 * secs + 4);
	if (!getenv("TOPDOWN_EVENTS_DIR"))
		setenv("TOPDOWN_EVENTS_DIR", TD_SRCDIR_DEFAULT "/events", 1);
	fflush(stdout);
	if ((d = fork()) == 0) {
		freopen("/dev/null", "w", stdout);
		execl(demo, demo, "-t", "4", "-l", "0", "-e", "0", "-s", run_s, (char *)NULL);
		_exit(127);
	}
	usleep(300000); /* let the demo start its threads */
	snprintf(pid, sizeof(pid), "%d", (int)d);
	snprintf(dur, sizeof(dur), "%d", secs);
	snprintf(iv, sizeof(iv), "%d", ms);
	td = cpu_of((char *const[]){ tdctl, "attach", pid, "-I", iv, "--duration", dur, "-q", "-d", db, NULL });
	printf("tdctl attach -I %d, %d s, 4 busy threads: %s", ms, secs, td < 0 ? "FAILED to run\n" : "");
	if (td >= 0)
		printf("%.3f s CPU\n", td);
	if (!in_path("perf")) {
		printf("perf stat -I: perf is not installed: no ratio\n");
	} else {
		pf = cpu_of((char *const[]){
			"perf", "stat", "-I", iv, "--per-thread", "-e",
			"task-clock,context-switches,cpu-migrations,page-faults,minor-faults,major-faults", "-p", pid,
			"--", "sleep", dur, NULL });
		if (pf <= 0 || td < 0) {
			printf("perf stat -I %d --per-thread: %s\n", ms,
			       pf < 0 ? "FAILED to run: no ratio" : "no CPU time measured");
		} else {
			printf("perf stat -I %d --per-thread, same events: %.3f s CPU\n", ms, pf);
			printf("ratio tdctl / perf %.2f (goal <= %.1f): %s\n", td / pf, GOAL_RATIO,
			       td / pf <= GOAL_RATIO ? "met" : "NOT met");
		}
	}
	kill(d, SIGTERM);
	waitpid(d, NULL, 0);
	unlink(db);
	{
		char side[96];
		snprintf(side, sizeof(side), "%s-wal", db);
		unlink(side);
		snprintf(side, sizeof(side), "%s-shm", db);
		unlink(side);
	}
	return 0;
}
