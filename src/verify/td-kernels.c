/* td-kernels: the known-answer workloads of `tdctl verify` — small loops each
 * built so that one top-down node dominates by construction — and their
 * checks from time alone (no counters), which show on any host that each
 * loop does what it claims and that the optimizer kept it.
 *
 *   td-kernels list                  the kernels, one a line
 *   td-kernels run KERNEL [SECONDS]  set KERNEL up, then run it for SECONDS of
 *                                    CPU time (default 2); exits 0
 *   td-kernels time [-m MB]          each kernel and its twin timed once:
 *                                    "NAME NS_PER_OP OPS CPU_SECONDS" a line
 *                                    (-m: the far chase's buffer, default as run)
 *
 * No library code: like td-demo, this program is built without sanitizers
 * (they would add work to every load and change what is measured).
 *
 * Every loop's result escapes (into the volatile `sink`, or through an empty
 * asm statement that claims to read and write its registers): a loop whose
 * result never escapes is removed even behind noinline when GCC finds the
 * function pure. The timing twins are the same code on other data, so that a
 * ratio of their times isolates one microarchitectural effect; a time per
 * operation below what any CPU can do (one dependent operation per cycle at
 * 10 GHz) also says the loop was removed. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define LINE 64 /* bytes of a cache line on every CPU topdown has a tree for */

static volatile uint64_t sink;

static double cpu_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double wall_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t xorshift(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

static void die(const char *what)
{
	fprintf(stderr, "td-kernels: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* Bytes of the last-level cache (the highest cache index of CPU 0 in sysfs), 0 if unknown. */
static size_t llc_bytes(void)
{
	size_t best = 0;
	for (int i = 0; i < 8; i++) {
		char path[96], buf[64];
		FILE *f;
		unsigned long v;
		char unit = 0;

		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
		f = fopen(path, "r");
		if (!f)
			break;
		if (fgets(buf, sizeof(buf), f) && sscanf(buf, "%lu%c", &v, &unit) >= 1)
			best = v * (unit == 'K' ? 1024ul : unit == 'M' ? 1048576ul : 1ul);
		fclose(f);
	}
	return best;
}

/* MemAvailable in bytes, 0 if unknown. */
static size_t mem_available(void)
{
	char buf[256];
	unsigned long kb = 0;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return 0;
	while (fgets(buf, sizeof(buf), f))
		if (sscanf(buf, "MemAvailable: %lu kB", &kb) == 1)
			break;
	fclose(f);
	return (size_t)kb * 1024;
}

/* ---- pointer chases ---------------------------------------------------------
 * One pointer per cache line, the lines linked in a single random cycle
 * (Sattolo's algorithm): each load's address is the value of the load before,
 * so the loads cannot overlap (no memory-level parallelism) and every one
 * pays the full latency of where its line lives; the order being random, no
 * prefetcher predicts the next line. In a buffer far larger than the
 * last-level cache nearly every load misses every cache and waits for DRAM
 * (~80-100 ns, hundreds of cycles): the cycles are stalls with a demand load
 * outstanding that missed L3, Intel's Backend_Bound.Memory_Bound.DRAM_Bound
 * (MEM_Latency: one miss at a time, no bandwidth used). The buffer is
 * madvise(MADV_HUGEPAGE)d so that page walks (DTLB_Load, under L1_Bound) do
 * not take a share of it where transparent huge pages are on.
 * In a buffer of 16 KiB (256 lines: inside every L1D, 32-64 KiB) every load
 * hits L1 at its load-to-use latency (4-5 cycles): 3 uops (load, count,
 * branch) every ~5 cycles, the rest of the slots wait for the load. That is
 * Backend_Bound with the load pending on an L1 hit — Intel's tree puts it in
 * Memory_Bound.L1_Bound (STALLS_MEM_ANY - STALLS_L1D_MISS), never DRAM_Bound;
 * it is the twin of the far chase: the time per load of the two is the ratio
 * of DRAM's (or at least L2's) latency to L1's, 10x to 100x on any CPU. */
struct chase {
	void **lines;
	size_t n;
};

static void chase_build(struct chase *c, size_t bytes)
{
	size_t n = bytes / LINE;
	uint32_t *order;
	uint64_t x = 0x9E3779B97F4A7C15ull;

	c->n = n;
	c->lines = mmap(NULL, n * LINE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (c->lines == MAP_FAILED)
		die("mmap of the chase buffer");
#ifdef MADV_HUGEPAGE
	madvise(c->lines, n * LINE, MADV_HUGEPAGE); /* best effort: fewer page walks */
#endif
	order = malloc(n * sizeof(*order));
	if (!order)
		die("malloc");
	for (size_t i = 0; i < n; i++)
		order[i] = (uint32_t)i;
	for (size_t i = n - 1; i > 0; i--) { /* Sattolo: one cycle through all n */
		size_t j = (size_t)(xorshift(&x) % i);
		uint32_t t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
	/* line order[i] points to line order[i + 1], the last to the first */
	for (size_t i = 0; i < n; i++)
		c->lines[(size_t)order[i] * (LINE / sizeof(void *))] =
			&c->lines[(size_t)order[(i + 1) % n] * (LINE / sizeof(void *))];
	free(order);
}

static uint64_t chase_run(struct chase *c, uint64_t loads)
{
	void **p = c->lines;
	for (uint64_t i = 0; i < loads; i++)
		p = (void **)*p;
	sink = (uint64_t)(uintptr_t)p; /* the last address escapes: the loads stay */
	return loads;
}

/* ---- branches -----------------------------------------------------------------
 * A conditional branch on a bit read from a table of 64 Ki bits: taken or not
 * at random, so no predictor does better than half (the table is far longer
 * than any history a predictor keeps), and each mispredict flushes the
 * pipeline (15-20 cycles of slots on big cores): Bad_Speculation.
 * Branch_Mispredicts. The arms hold an empty volatile asm, which GCC and
 * Clang never execute unconditionally, so the branch is not turned into a
 * conditional move. Its twin is the same loop on a table of ones (always
 * taken, predicted): the random table's time per branch over the ones'
 * is the mispredicts' cost, ~3x to 10x. */
#define BITS (1u << 16)
static uint8_t bits[BITS];

static void bits_fill(int random)
{
	uint64_t x = 0x2545F4914F6CDD1Dull;
	for (size_t i = 0; i < BITS; i++)
		bits[i] = random ? (uint8_t)(xorshift(&x) >> 63) : 1;
}

static uint64_t branch_run(uint64_t n)
{
	uint64_t a = 0, b = 0;
	for (uint64_t i = 0; i < n; i++) {
		if (bits[i & (BITS - 1)]) {
			__asm__ volatile("" : "+r"(a));
			a += i;
		} else {
			__asm__ volatile("" : "+r"(b));
			b ^= i;
		}
	}
	sink = a ^ b;
	return n;
}

/* ---- divides ------------------------------------------------------------------
 * A chain of 64-bit integer divides, each dividend and divisor computed from
 * the quotient before: nothing overlaps, and the divider (not pipelined for
 * 64-bit operands: 35-88 cycles on Skylake, 14-18 on Ice Lake and later,
 * 10-18 on Zen) is busy every cycle while the rest of the core waits on it:
 * Backend_Bound.Core_Bound.Divider (ARITH.DIVIDER_ACTIVE). The divisor's base
 * is read from a volatile, so the compiler cannot turn the divide into a
 * multiply; the dividend stays near 2^64 (large quotients: the slow case of
 * older dividers). Its twin is a chain of dependent adds (one cycle each):
 * a divide takes >= 10x an add on any CPU. */
static volatile uint64_t divisor_base = 3;

static uint64_t divide_run(uint64_t n)
{
	uint64_t x = 0xFEDCBA9876543210ull, d0 = divisor_base;
	for (uint64_t i = 0; i < n; i++)
		x = (x ^ 0xFFFFFFFFFFFF0000ull) / ((x & 7) + d0);
	sink = x;
	return n;
}

/* ---- adds -------------------------------------------------------------------------
 * Eight independent accumulators, each one add per iteration: the eight adds
 * have no dependence on one another, so a core issues as many a cycle as it
 * has ALUs (4 on Skylake, 5-6 on later cores) and every slot retires a uop:
 * Retiring (Light_Operations where the tree has it). The empty asm claims to
 * read and write all eight each iteration, so the compiler neither
 * vectorizes the loop nor sums it in closed form. Its twin does the same
 * eight adds as one dependent chain (an asm between each, which also stops
 * reassociation): 8 cycles an iteration against ~2-3, the independent adds
 * at least 1.5x faster per add on any superscalar core. The adds are
 * register to register: Golden Cove and later fold a chain of adds of an
 * immediate at rename (measured here: 0.17 ns per dependent "add $imm"),
 * which would take the chain's one cycle per add away. */
static uint64_t adds_run(uint64_t iters)
{
	uint64_t a0 = 1, a1 = 2, a2 = 3, a3 = 4, a4 = 5, a5 = 6, a6 = 7, a7 = 8;
	for (uint64_t i = 0; i < iters; i++) {
		a0 += i;
		a1 += i;
		a2 += i;
		a3 += i;
		a4 += i;
		a5 += i;
		a6 += i;
		a7 += i;
		__asm__ volatile("" : "+r"(a0), "+r"(a1), "+r"(a2), "+r"(a3), "+r"(a4), "+r"(a5), "+r"(a6), "+r"(a7));
	}
	sink = a0 ^ a1 ^ a2 ^ a3 ^ a4 ^ a5 ^ a6 ^ a7;
	return iters * 8;
}

static uint64_t dep_adds_run(uint64_t iters)
{
	uint64_t a = 1;
	for (uint64_t i = 0; i < iters; i++) {
		for (int j = 0; j < 8; j++) {
			a += i;
			__asm__ volatile("" : "+r"(a));
		}
	}
	sink = a;
	return iters * 8;
}

/* ---- code footprint ---------------------------------------------------------------
 * Code generated at run time: BLOCKS blocks of one cache line each, every
 * block "count down; return at zero; jump to the next block", the blocks
 * linked in one random cycle (as the chase). With 64 MiB of blocks (1 Mi
 * lines, 16 Ki pages of 4 KiB) each jump lands on a line not in the L1
 * instruction cache (32 KiB), nor the decoded-uop cache, nor usually L2, on a
 * page the ITLB (128-256 entries) does not map, and the BTB (4-12 Ki entries)
 * does not know the jump: the front end waits for instruction bytes, the
 * back end idles with nothing delivered: Frontend_Bound.Fetch_Latency
 * (ICache_Misses and ITLB_Misses; the BTB misses show as Branch_Resteers).
 * Its twin is the same code in 256 blocks (16 KiB: L1I, ITLB and BTB hold
 * it all, every jump predicted): the big footprint's time per jump over the
 * small one's is the fetch latency, >= 3x on any CPU. The generator writes
 * x86-64 or AArch64; the buffer is written, then made executable (never both). */
#define CODE_BIG (64u << 20)
#define CODE_SMALL (256u * LINE)

typedef uint64_t (*code_fn)(uint64_t);

struct code {
	unsigned char *mem;
	size_t bytes;
	code_fn entry;
};

/* Returns NULL when this architecture has no generator, after saying so. */
static const char *code_build(struct code *c, size_t bytes)
{
	size_t n = bytes / LINE, ret_at = n; /* blocks 0..n-1, then the return block */
	uint32_t *order;
	uint64_t x = 0xD1B54A32D192ED03ull;

#if !defined(__x86_64__) && !defined(__aarch64__)
	(void)n, (void)ret_at, (void)order, (void)x;
	return "no code generator for this architecture (x86-64 and AArch64 only)";
#else
	c->bytes = (n + 1) * LINE;
	c->mem = mmap(NULL, c->bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (c->mem == MAP_FAILED)
		die("mmap of the code buffer");
	order = malloc(n * sizeof(*order));
	if (!order)
		die("malloc");
	for (size_t i = 0; i < n; i++)
		order[i] = (uint32_t)i;
	for (size_t i = n - 1; i > 0; i--) {
		size_t j = (size_t)(xorshift(&x) % i);
		uint32_t t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
	for (size_t i = 0; i < n; i++) {
		unsigned char *b = c->mem + (size_t)order[i] * LINE;
		unsigned char *next = c->mem + (size_t)order[(i + 1) % n] * LINE;
		unsigned char *ret = c->mem + ret_at * LINE;
#if defined(__x86_64__)
		/* sub rdi, 1 (48 83 EF 01); je ret (0F 84 rel32); jmp next (E9 rel32) */
		int32_t rel_ret = (int32_t)(ret - (b + 10)), rel_next = (int32_t)(next - (b + 15));
		memcpy(b, "\x48\x83\xEF\x01\x0F\x84", 6);
		memcpy(b + 6, &rel_ret, 4);
		b[10] = 0xE9;
		memcpy(b + 11, &rel_next, 4);
#else
		/* subs x0, x0, #1; b.eq +8 (to the ret); b next; ret — b.eq reaches 1 MiB only, b 128 MiB,
		 * so each block returns by itself */
		uint32_t ins[4];
		ins[0] = 0xF1000400u;
		ins[1] = 0x54000040u;
		ins[2] = 0x14000000u | (uint32_t)(((next - (b + 8)) / 4) & 0x3FFFFFF);
		ins[3] = 0xD65F03C0u;
		(void)ret;
		memcpy(b, ins, sizeof(ins));
#endif
	}
#if defined(__x86_64__)
	c->mem[ret_at * LINE] = 0xC3; /* ret (rax: whatever it held; the count escapes instead) */
#endif
	free(order);
	__builtin___clear_cache((char *)c->mem, (char *)c->mem + c->bytes);
	if (mprotect(c->mem, c->bytes, PROT_READ | PROT_EXEC))
		die("mprotect of the generated code (PROT_EXEC refused)");
	/* ISO C has no conversion from an object pointer to a function pointer; POSIX's dlsym relies on it too */
	memcpy(&c->entry, &(void *){ c->mem }, sizeof(c->entry));
	return NULL;
#endif
}

static uint64_t code_run(struct code *c, uint64_t jumps)
{
	c->entry(jumps);
	sink = jumps;
	return jumps;
}

/* ---- the table ------------------------------------------------------------------ */
enum kernel {
	K_DRAM_CHASE,
	K_L1_CHASE,
	K_RANDOM_BRANCH,
	K_DIVIDE_CHAIN,
	K_CODE_FOOTPRINT,
	K_INDEPENDENT_ADDS,
	K_VERIFIED, /* the twins below are timed only */
	K_PREDICTABLE_BRANCH = K_VERIFIED,
	K_DEPENDENT_ADDS,
	K_SMALL_CODE,
	K_ALL
};

static const struct {
	const char *name;
	uint64_t time_ops; /* operations timed by `time`: ~0.02-0.2 s of CPU each */
	uint64_t chunk;	   /* operations between clock reads in `run` */
} kernels[K_ALL] = {
	[K_DRAM_CHASE] = { "dram_chase", 2000000, 100000 },
	[K_L1_CHASE] = { "l1_chase", 20000000, 1000000 },
	[K_RANDOM_BRANCH] = { "random_branch", 20000000, 1000000 },
	[K_DIVIDE_CHAIN] = { "divide_chain", 5000000, 1000000 },
	[K_CODE_FOOTPRINT] = { "code_footprint", 1000000, 100000 },
	[K_INDEPENDENT_ADDS] = { "independent_adds", 20000000, 1000000 },
	[K_PREDICTABLE_BRANCH] = { "predictable_branch", 20000000, 1000000 },
	[K_DEPENDENT_ADDS] = { "dependent_adds", 5000000, 1000000 },
	[K_SMALL_CODE] = { "small_code", 20000000, 1000000 },
};

struct state {
	struct chase far, near;
	struct code big, small;
	const char *no_code;
};

/* The far chase's bytes: twice the last-level cache, at least 64 MiB, at most
 * half of MemAvailable (a smaller buffer is said on stderr); mb (-m, or
 * $TD_KERNELS_CHASE_MB for run: the test suite's cheap runs) when given. */
static size_t far_bytes(size_t mb)
{
	const char *env = getenv("TD_KERNELS_CHASE_MB");
	if (!mb && env)
		mb = strtoul(env, NULL, 10);
	size_t want = mb ? mb << 20 : 2 * llc_bytes(), avail = mem_available() / 2;
	if (!mb && want < (64u << 20))
		want = 64u << 20;
	if (avail && want > avail) {
		fprintf(stderr, "td-kernels: the chase buffer is %zu MiB (half of the memory available), not %zu\n",
			avail >> 20, want >> 20);
		want = avail;
	}
	return want;
}

static void setup(struct state *s, enum kernel k, size_t mb)
{
	switch (k) {
	case K_DRAM_CHASE:
		chase_build(&s->far, far_bytes(mb));
		break;
	case K_L1_CHASE:
		chase_build(&s->near, 256 * LINE);
		break;
	case K_RANDOM_BRANCH:
	case K_PREDICTABLE_BRANCH:
		bits_fill(k == K_RANDOM_BRANCH);
		break;
	case K_CODE_FOOTPRINT:
		s->no_code = code_build(&s->big, CODE_BIG);
		break;
	case K_SMALL_CODE:
		s->no_code = code_build(&s->small, CODE_SMALL);
		break;
	default:
		break;
	}
}

static uint64_t step(struct state *s, enum kernel k, uint64_t ops)
{
	switch (k) {
	case K_DRAM_CHASE:
		return chase_run(&s->far, ops);
	case K_L1_CHASE:
		return chase_run(&s->near, ops);
	case K_RANDOM_BRANCH:
	case K_PREDICTABLE_BRANCH:
		return branch_run(ops);
	case K_DIVIDE_CHAIN:
		return divide_run(ops);
	case K_CODE_FOOTPRINT:
		return code_run(&s->big, ops);
	case K_SMALL_CODE:
		return code_run(&s->small, ops);
	case K_INDEPENDENT_ADDS:
		return adds_run(ops);
	case K_DEPENDENT_ADDS:
		return dep_adds_run(ops);
	default:
		return 0;
	}
}

static int find(const char *name, int limit)
{
	for (int k = 0; k < limit; k++)
		if (!strcmp(name, kernels[k].name))
			return k;
	return -1;
}

static int usage(void)
{
	fprintf(stderr, "usage: td-kernels list | run KERNEL [SECONDS] | time [-m MB]\n");
	return 2;
}

int main(int argc, char **argv)
{
	struct state s;

	memset(&s, 0, sizeof(s));
	if (argc >= 2 && !strcmp(argv[1], "list")) {
		for (int k = 0; k < K_VERIFIED; k++)
			printf("%s\n", kernels[k].name);
		return 0;
	}
	if (argc >= 3 && argc <= 4 && !strcmp(argv[1], "run")) {
		int k = find(argv[2], K_VERIFIED);
		double secs = argc == 4 ? strtod(argv[3], NULL) : 2, start, wall;

		if (k < 0 || !(secs > 0) || secs > 3600) {
			fprintf(stderr,
				"td-kernels: unknown kernel '%s' or bad seconds: 'td-kernels list' names them\n",
				argv[2]);
			return 2;
		}
		setup(&s, (enum kernel)k, 0);
		if (s.no_code) {
			fprintf(stderr, "td-kernels: %s: %s\n", argv[2], s.no_code);
			return 3;
		}
		/* CPU time, so that a loaded host still gives the counters SECONDS of
		 * the kernel; at most 10x SECONDS of wall time all the same */
		start = cpu_seconds();
		wall = wall_seconds();
		while (cpu_seconds() - start < secs && wall_seconds() - wall < 10 * secs)
			step(&s, (enum kernel)k, kernels[k].chunk);
		return 0;
	}
	if (argc >= 2 && !strcmp(argv[1], "time")) {
		size_t mb = 0;

		if (argc == 4 && !strcmp(argv[2], "-m"))
			mb = strtoul(argv[3], NULL, 10);
		else if (argc != 2)
			return usage();
		printf("# llc_bytes %zu far_chase_bytes %zu\n", llc_bytes(), far_bytes(mb));
		for (int k = 0; k < K_ALL; k++) {
			double t0, t;
			uint64_t ops;

			setup(&s, (enum kernel)k, mb);
			if ((k == K_CODE_FOOTPRINT || k == K_SMALL_CODE) && s.no_code) {
				printf("# %s skipped: %s\n", kernels[k].name, s.no_code);
				continue;
			}
			step(&s, (enum kernel)k, kernels[k].time_ops / 20); /* warm: caches, predictors, pages */
			t0 = cpu_seconds();
			ops = step(&s, (enum kernel)k, kernels[k].time_ops);
			t = cpu_seconds() - t0;
			printf("%s %.4f %" PRIu64 " %.4f\n", kernels[k].name, t * 1e9 / (double)ops, ops, t);
			fflush(stdout);
		}
		return 0;
	}
	return usage();
}
