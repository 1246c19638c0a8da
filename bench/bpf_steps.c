/* bpf_steps: a preload for bench_start.sh (built by it, not by make) that
 * prints the CPU time of the process (CLOCK_PROCESS_CPUTIME_ID) spent in
 * each of libbpf's steps that a session's start goes through: opening and
 * loading each skeleton, reading and parsing the kernel's BTF, creating
 * each map, loading each program. libbpf calls these through its own
 * exported symbols, which the preload interposes (a shared libbpf; with a
 * static one nothing is printed). One line each on stderr:
 *   bpf_steps STEP NAME CPU_MS AT_MS */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

struct bpf_object_skeleton;
struct btf;
struct bpf_map_create_opts;
struct bpf_prog_load_opts;

static double cpu_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static void report(const char *step, const char *name, double from)
{
	double now = cpu_ms();

	fprintf(stderr, "bpf_steps %s %s %.3f %.3f\n", step, name && *name ? name : "-", now - from, now);
}

#define NEXT(fn) ((__typeof__(&fn))dlsym(RTLD_NEXT, #fn))

int bpf_object__open_skeleton(struct bpf_object_skeleton *s, const void *opts)
{
	double from = cpu_ms();
	int rc = NEXT(bpf_object__open_skeleton)(s, opts);

	report("open", NULL, from);
	return rc;
}

int bpf_object__load_skeleton(struct bpf_object_skeleton *s)
{
	double from = cpu_ms();
	int rc = NEXT(bpf_object__load_skeleton)(s);

	report("load", NULL, from);
	return rc;
}

struct btf *btf__load_vmlinux_btf(void)
{
	double from = cpu_ms();
	struct btf *b = NEXT(btf__load_vmlinux_btf)();

	report("vmlinux_btf", NULL, from);
	return b;
}

int bpf_map_create(int type, const char *name, uint32_t key, uint32_t value, uint32_t entries,
		   const struct bpf_map_create_opts *opts)
{
	double from = cpu_ms();
	int rc = NEXT(bpf_map_create)(type, name, key, value, entries, opts);

	report("map", name, from);
	return rc;
}

int bpf_prog_load(int type, const char *name, const char *license, const void *insns, size_t n,
		  struct bpf_prog_load_opts *opts)
{
	double from = cpu_ms();
	int rc = NEXT(bpf_prog_load)(type, name, license, insns, n, opts);

	report("prog", name, from);
	return rc;
}
