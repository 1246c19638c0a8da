/* hot_fixture: the workload of tests/integration/hotspots.sh, built by the
 * test as a PIE executable whose symbols are stripped into a separate debug
 * file (.gnu_debuglink), linked with a shared library (hot_lib.c), both with
 * frame pointers (call stacks). Three
 * threads spin for SECONDS of wall time each in one place:
 *   "pie"  in pie_spin(), a static function of this executable (named only
 *          by the debug file);
 *   "lib"  in hot_lib_spin() of the shared library;
 *   "jit"  in machine code copied to an anonymous executable mapping and
 *          named in DIR/perf-PID.map as "jit_spin" (x86-64 only; elsewhere
 *          the thread is not started and the fixture says "no jit").
 *   hot_fixture SECONDS DIR */
#define _GNU_SOURCE /* pthread_setname_np */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

uint64_t hot_lib_spin(uint64_t n);

static double seconds;
static volatile uint64_t sink;

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static __attribute__((noinline)) uint64_t pie_spin(uint64_t n)
{
	volatile uint64_t x = 3;

	for (uint64_t i = 0; i < n; i++)
		x = x * 6364136223846793005ull + 1442695040888963407ull;
	return x;
}

static void *pie_thread(void *arg)
{
	double end = now() + seconds;

	(void)arg;
	pthread_setname_np(pthread_self(), "pie");
	while (now() < end)
		sink += pie_spin(200000);
	return NULL;
}

static void *lib_thread(void *arg)
{
	double end = now() + seconds;

	(void)arg;
	pthread_setname_np(pthread_self(), "lib");
	while (now() < end)
		sink += hot_lib_spin(200000);
	return NULL;
}

typedef uint64_t (*jit_fn)(uint64_t);

static void *jit_thread(void *arg)
{
	jit_fn fn = (jit_fn)arg;
	double end = now() + seconds;

	pthread_setname_np(pthread_self(), "jit");
	while (now() < end)
		sink += fn(1000000);
	return NULL;
}

/* mov rax, rdi; 1: dec rax; jnz 1b; ret */
static const unsigned char jit_code[] = { 0x48, 0x89, 0xf8, 0x48, 0xff, 0xc8, 0x75, 0xfb, 0xc3 };

static jit_fn make_jit(const char *dir)
{
#if defined(__x86_64__)
	char path[512];
	FILE *f;
	void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	memcpy(p, jit_code, sizeof(jit_code));
	if (mprotect(p, 4096, PROT_READ | PROT_EXEC))
		return NULL;
	snprintf(path, sizeof(path), "%s/perf-%d.map", dir, (int)getpid());
	if (!(f = fopen(path, "w")))
		return NULL;
	fprintf(f, "%lx %zx jit_spin\n", (unsigned long)(uintptr_t)p, sizeof(jit_code));
	fclose(f);
	return (jit_fn)(uintptr_t)p;
#else
	(void)dir;
	(void)jit_code;
	return NULL;
#endif
}

int main(int argc, char **argv)
{
	pthread_t t[3];
	int n = 0;
	jit_fn jit;

	if (argc != 3 || (seconds = atof(argv[1])) <= 0) {
		fprintf(stderr, "usage: hot_fixture SECONDS DIR\n");
		return 2;
	}
	jit = make_jit(argv[2]);
	if (!jit)
		printf("no jit\n");
	if (pthread_create(&t[n++], NULL, pie_thread, NULL) || pthread_create(&t[n++], NULL, lib_thread, NULL) ||
	    (jit && pthread_create(&t[n++], NULL, jit_thread, (void *)(uintptr_t)jit)))
		return 1;
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	return 0;
}
