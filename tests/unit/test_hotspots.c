/* Unit tests for hotspots' pieces below the session: an events file's
 * locate lines (parsed, checked against its nodes, and every shipped one
 * encoded by libpfm4 for the file's first model), perf_map (a JIT's
 * /tmp/perf-PID.map: the format perf's jit-interface.txt gives), and
 * symbols on this very process (its own functions by name, through
 * libdwfl from /proc/self/maps), and kallsyms (a file as the kernel prints
 * /proc/kallsyms, and one that shows no address). */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tmp_dir.h"
#include "machine/encode.h"
#include "collect/sampling.h"
#include "machine/pmu.h"
#include <linux/perf_event.h>
#include <sys/mman.h>
#include "model/catalog.h"
#include "symbols/kallsyms.h"
#include "symbols/perf_map.h"
#include "symbols/symbols.h"

static char dir[64];

static int setup(void **state)
{
	(void)state;
	return tmp_dir_make(dir, sizeof(dir), "hot");
}

static int teardown(void **state)
{
	(void)state;
	return tmp_dir_remove(dir);
}

static int parse(const char *text, struct td_catalog **cat, td_err *err)
{
	char *copy = strdup(text);
	int rc;

	assert_non_null(copy);
	rc = td_catalog_parse_text("t.td", copy, cat, err);
	free(copy);
	return rc;
}

#define TREE                                           \
	"pmu skl\n"                                    \
	"event CLK CPU_CLK_THREAD_UNHALTED:THREAD_P\n" \
	"event MISS MEM_LOAD_RETIRED:L3_MISS\n"        \
	"node Backend_Bound Slots = 0.5\n"             \
	"node Backend_Bound.Memory_Bound Slots = 0.25\n"

static void test_locate_lines(void **state)
{
	struct td_catalog *cat;
	const struct td_cat_locate *l;
	td_err err;

	(void)state;
	assert_int_equal(
		parse(TREE "locate Backend_Bound.Memory_Bound MEM_LOAD_RETIRED:L3_MISS | toplev: X.Y:pp\n", &cat, &err),
		0);
	l = td_catalog_locate(cat, "Backend_Bound.Memory_Bound");
	assert_non_null(l);
	assert_string_equal(l->spec, "MEM_LOAD_RETIRED:L3_MISS");
	assert_string_equal(l->desc, "toplev: X.Y:pp");
	assert_int_equal(l->line, 6);
	assert_null(td_catalog_locate(cat, "Backend_Bound"));
	td_catalog_free(cat);

	/* a node the file does not define; a second line for one node; no event */
	assert_int_equal(parse(TREE "locate Backend_Bound.Core_Bound CLK\n", &cat, &err), -1);
	assert_non_null(strstr(err.msg, "t.td:6: locate: no node 'Backend_Bound.Core_Bound'"));
	assert_int_equal(parse(TREE "locate Backend_Bound CLK\nlocate Backend_Bound MISS\n", &cat, &err), -1);
	assert_non_null(strstr(err.msg, "t.td:7: locate: node 'Backend_Bound' has a locate line already (line 6)"));
	assert_int_equal(parse(TREE "locate Backend_Bound\n", &cat, &err), -1);
	assert_non_null(strstr(err.msg, "t.td:6: 'locate' needs a node and one event"));
	/* a prefix of a node is no node */
	assert_int_equal(parse(TREE "locate Backend_Bound.Mem CLK\n", &cat, &err), -1);
	assert_non_null(strstr(err.msg, "no node 'Backend_Bound.Mem'"));
}

/* Every locate line shipped names an event libpfm4 encodes for the file's
 * first model (where this libpfm4 knows the model). */
static void test_shipped_locates_encode(void **state)
{
	DIR *d = opendir(TOPDOWN_SRC_EVENTS_DIR);
	struct dirent *e;
	int checked = 0;

	(void)state;
	assert_non_null(d);
	while ((e = readdir(d)) != NULL) {
		char path[512];
		struct td_catalog *cat;
		td_err err;
		size_t n = strlen(e->d_name);
		if (n < 4 || strcmp(e->d_name + n - 3, ".td"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", TOPDOWN_SRC_EVENTS_DIR, e->d_name);
		if (td_catalog_load(path, &cat, &err))
			fail_msg("%s", err.msg);
		for (int i = 0; i < cat->nlocates; i++) {
			struct td_encoding enc;
			if (!td_pfm_has_model(cat->models[0]))
				break;
			if (td_encode(cat->locates[i].spec, cat->models[0], false, &enc, &err))
				fail_msg("%s:%d: %s", e->d_name, cat->locates[i].line, err.msg);
			assert_int_equal(enc.attr.type, 4); /* the core PMU's: a hardware event */
			checked++;
		}
		td_catalog_free(cat);
	}
	closedir(d);
	if (!checked)
		skip(); /* libpfm4 knows none of the models with locate lines */
}

static void test_perf_map(void **state)
{
	char path[256];
	struct td_perf_map *m;
	FILE *f;

	(void)state;
	m = td_perf_map_new(4242, dir);
	assert_non_null(m);
	assert_null(td_perf_map_find(m, 0x1000)); /* no file yet */
	snprintf(path, sizeof(path), "%s/perf-4242.map", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("1000 10 first fn\n"
	      "0x2000 0x20 second\n"
	      "not a line\n"
	      "3000 zz bad size\n",
	      f);
	fclose(f);
	assert_string_equal(td_perf_map_find(m, 0x1000), "first fn");
	assert_string_equal(td_perf_map_find(m, 0x100f), "first fn");
	assert_null(td_perf_map_find(m, 0x1010)); /* START + SIZE is past it */
	assert_string_equal(td_perf_map_find(m, 0x201f), "second");
	assert_null(td_perf_map_find(m, 0x3000));
	/* the file grows (a JIT reuses memory): read again, the last entry wins */
	f = fopen(path, "a");
	assert_non_null(f);
	fputs("1008 8 third\n", f);
	fclose(f);
	assert_string_equal(td_perf_map_find(m, 0x100a), "third");
	assert_string_equal(td_perf_map_find(m, 0x1002), "first fn");
	unlink(path);
	assert_null(td_perf_map_find(m, 0x1002));
	td_perf_map_free(m);
}

__attribute__((noinline)) int td_test_hot_marker(int x);
__attribute__((noinline)) int td_test_hot_marker(int x)
{
	return x * 3 + 1;
}

static void test_symbols_self(void **state)
{
	struct td_symbols *s = td_symbols_new(dir);
	struct td_symbol y, again;
	uint64_t ip = (uint64_t)(uintptr_t)&td_test_hot_marker + 1;

	(void)state;
	assert_non_null(s);
	td_symbols_resolve(s, getpid(), ip, false, &y);
	assert_string_equal(y.function, "td_test_hot_marker");
	assert_string_equal(y.module, "test_hotspots");
	assert_non_null(y.file);
	assert_non_null(strstr(y.file, "test_hotspots.c"));
	assert_true(y.line > 0);
	/* resolved once: asked again, the cache answers with the same strings */
	td_symbols_resolve(s, getpid(), ip, false, &again);
	assert_ptr_equal(again.function, y.function);
	assert_int_equal(td_symbols_lookups(s), 1);
	/* a kernel address without kallsyms (a file that is not there) is "[kernel]"; an address in no
	 * module is unknown */
	assert_int_equal(td_symbols_set_kallsyms(s, "/nonexistent/kallsyms"), 0);
	td_symbols_resolve(s, getpid(), 0xffffffff81000000ull, true, &y);
	assert_string_equal(y.function, "[kernel]");
	td_symbols_resolve(s, getpid(), 16, false, &y);
	assert_string_equal(y.function, "[unknown]");
	assert_string_equal(y.module, "[unknown]");
	assert_null(y.file);
	assert_int_equal(td_symbols_processes(s), 1); /* this process: alive, kept */
	td_symbols_epoch(s);
	assert_int_equal(td_symbols_processes(s), 1);
	td_symbols_free(s);
}

/* td_symbols_set_maps: the modules are listed from the maps given, not
 * from /proc/PID/maps — an empty one lists none; this process's lines of
 * its own binary, given for another pid (1, whose maps hold no such file),
 * name this process's function there. */
static void test_symbols_given_maps(void **state)
{
	uint64_t ip = (uint64_t)(uintptr_t)&td_test_hot_marker + 1;
	char path[4200], line[4200], exe[4096];
	struct td_symbols *s;
	struct td_symbol y;
	ssize_t n;
	FILE *in, *out;
	int lines = 0, fd;

	(void)state;
	assert_non_null(s = td_symbols_new(dir));
	assert_int_equal(td_symbols_set_maps(s, getpid(), open("/dev/null", O_RDONLY | O_CLOEXEC)), 0);
	td_symbols_resolve(s, getpid(), ip, false, &y);
	assert_string_equal(y.function, "[unknown]");
	assert_string_equal(y.module, "[unknown]");
	td_symbols_free(s);

	assert_true((n = readlink("/proc/self/exe", exe, sizeof(exe) - 1)) > 0);
	exe[n] = '\0';
	snprintf(path, sizeof(path), "%s/maps", dir);
	assert_non_null(in = fopen("/proc/self/maps", "r"));
	assert_non_null(out = fopen(path, "w"));
	while (fgets(line, sizeof(line), in)) {
		size_t len = strlen(line), el = strlen(exe);
		if (len > el + 1 && !strncmp(line + len - el - 1, exe, el) && line[len - 1] == '\n') {
			fputs(line, out);
			lines++;
		}
	}
	fclose(in);
	fclose(out);
	assert_true(lines >= 2); /* the ELF header's mapping and the text's at least */
	assert_non_null(s = td_symbols_new(dir));
	assert_true((fd = open(path, O_RDONLY | O_CLOEXEC)) >= 0);
	assert_int_equal(td_symbols_set_maps(s, 1, fd), 0);
	td_symbols_resolve(s, 1, ip, false, &y);
	assert_string_equal(y.function, "td_test_hot_marker");
	assert_string_equal(y.module, "test_hotspots");
	td_symbols_free(s);
	unlink(path);
}

/* A kallsyms file as the kernel prints it (kernel/kallsyms.c s_show, Linux
 * 6.12: "%px %c %s\n", a module's "%px %c %s\t[%s]\n"): text symbols only
 * (t, T, w, W; the data and absolute ones left out), each up to the next;
 * aliases name the first listed; the last has no known end. */
static const char kallsyms_text[] = "0000000000000000 A fixed_percpu_data\n"
				    "ffffffff81000000 T _stext\n"
				    "ffffffff81000000 T startup_64\n"
				    "ffffffff81000100 t secondary_startup_64\n"
				    "ffffffff81001000 D some_data\n"
				    "ffffffff81002000 T do_syscall_64\n"
				    "ffffffff81002400 W weak_fn\n"
				    "ffffffffc0001000 t ext4_fill_super\t[ext4]\n"
				    "ffffffffc0002000 T ext4_iget\t[ext4]\n"
				    "ffffffffc0003000 t xfs_last\t[xfs]\n";

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_kallsyms(void **state)
{
	char path[128], zeros[128];
	struct td_kallsyms *k;
	struct td_symbols *s;
	struct td_symbol y;
	const char *fn, *mod;
	static const struct {
		uint64_t ip;
		const char *fn, *mod; /* NULL: no symbol */
	} want[] = {
		{ 0xffffffff80ffffffull, NULL, NULL }, /* below the first */
		{ 0xffffffff81000000ull, "_stext", "[kernel]" },
		{ 0xffffffff810000ffull, "_stext", "[kernel]" },
		{ 0xffffffff81000100ull, "secondary_startup_64", "[kernel]" },
		{ 0xffffffff81001800ull, "secondary_startup_64", "[kernel]" }, /* some_data is no text */
		{ 0xffffffff81002010ull, "do_syscall_64", "[kernel]" },
		{ 0xffffffff81002400ull, "weak_fn", "[kernel]" },
		{ 0xffffffffc0001234ull, "ext4_fill_super", "[ext4]" },
		{ 0xffffffffc0002fffull, "ext4_iget", "[ext4]" },
		{ 0xffffffffc0003000ull, NULL, NULL }, /* the last: no end known */
	};

	(void)state;
	snprintf(path, sizeof(path), "%s/kallsyms", dir);
	write_file(path, kallsyms_text);
	assert_non_null(k = td_kallsyms_load(path));
	assert_int_equal(td_kallsyms_count(k), 8);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		int rc = td_kallsyms_find(k, want[i].ip, &fn, &mod);
		if (!want[i].fn) {
			assert_int_equal(rc, -1);
			continue;
		}
		assert_int_equal(rc, 0);
		assert_string_equal(fn, want[i].fn);
		assert_string_equal(mod, want[i].mod);
	}
	td_kallsyms_free(k);

	/* through symbols: a kernel address named, the same for every process (one lookup) */
	assert_non_null(s = td_symbols_new(dir));
	assert_int_equal(td_symbols_set_kallsyms(s, path), 0);
	assert_int_equal(td_symbols_kernel(s), 8);
	td_symbols_resolve(s, 1234, 0xffffffffc0001234ull, true, &y);
	assert_string_equal(y.function, "ext4_fill_super");
	assert_string_equal(y.module, "[ext4]");
	assert_null(y.file);
	td_symbols_resolve(s, 5678, 0xffffffffc0001234ull, true, &y);
	assert_string_equal(y.function, "ext4_fill_super");
	assert_int_equal(td_symbols_lookups(s), 1);
	td_symbols_resolve(s, 1234, 0xffffffffc0003000ull, true, &y);
	assert_string_equal(y.function, "[kernel]");
	assert_string_equal(y.module, "[kernel]");

	/* what a reader the kernel shows no address gets (kallsyms_show_value false: every value 0) */
	snprintf(zeros, sizeof(zeros), "%s/kallsyms0", dir);
	write_file(zeros, "0000000000000000 T _stext\n0000000000000000 T do_syscall_64\n"
			  "0000000000000000 t ext4_iget\t[ext4]\n");
	assert_null(td_kallsyms_load(zeros));
	assert_int_equal(td_symbols_set_kallsyms(s, zeros), 0);
	assert_int_equal(td_symbols_kernel(s), 0);
	td_symbols_resolve(s, 1234, 0xffffffff81002010ull, true, &y);
	assert_string_equal(y.function, "[kernel]");
	td_symbols_free(s);
}

/* A process that has gone (exited and reaped) is let go at the next epoch,
 * after its addresses were resolved; what they resolved to stays. */
static void test_symbols_gone(void **state)
{
	struct td_symbols *s = td_symbols_new(dir);
	struct td_symbol y;
	uint64_t ip = (uint64_t)(uintptr_t)&td_test_hot_marker + 1;
	int go[2], status;
	pid_t child;
	char c = 0;

	(void)state;
	assert_non_null(s);
	assert_int_equal(pipe(go), 0);
	child = fork();
	assert_true(child >= 0);
	if (child == 0) { /* the same executable: td_test_hot_marker at the same address */
		close(go[1]);
		if (read(go[0], &c, 1) < 0)
			_exit(1);
		_exit(0);
	}
	close(go[0]);
	td_symbols_resolve(s, child, ip, false, &y);
	assert_string_equal(y.function, "td_test_hot_marker");
	td_symbols_epoch(s);
	assert_int_equal(td_symbols_processes(s), 1); /* alive */
	assert_int_equal(write(go[1], &c, 1), 1);
	close(go[1]);
	assert_int_equal(waitpid(child, &status, 0), child);
	td_symbols_epoch(s);
	assert_int_equal(td_symbols_processes(s), 0);
	td_symbols_resolve(s, child, ip, false, &y); /* cached */
	assert_string_equal(y.function, "td_test_hot_marker");
	td_symbols_free(s);
}

static void count_sample(void *ctx, const struct td_sample *s)
{
	int *n = ctx;

	(void)s;
	(*n)++;
}

/* A ring buffer of one page and a sample at every page fault of this
 * process while it touches 4096 fresh pages (no huge pages): far more
 * samples than the page holds before the drain (a record is 24 bytes), so
 * the kernel writes PERF_RECORD_LOST; each fault is either a sample read
 * or counted lost. */
static void test_sampling_lost(void **state)
{
	struct td_sampling_opts o = { .type = PERF_TYPE_SOFTWARE,
				      .config = PERF_COUNT_SW_PAGE_FAULTS,
				      .period = 1,
				      .exclude_kernel = true,
				      .pages = 1 };
	struct td_sampling *s;
	struct td_sampling_stats st;
	long psz = sysconf(_SC_PAGESIZE);
	size_t npages = 4096;
	volatile char *mem;
	td_err err;
	int seen = 0;

	(void)state;
	mem = mmap(NULL, npages * (size_t)psz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(mem != MAP_FAILED);
	madvise((void *)mem, npages * (size_t)psz, MADV_NOHUGEPAGE);
	if (td_sampling_open(&o, getpid(), true, &s, &err)) {
		munmap((void *)mem, npages * (size_t)psz);
		skip(); /* perf_event_open refused (paranoid, no perf events): err says why */
	}
	for (size_t i = 0; i < npages; i++)
		mem[i * (size_t)psz] = 1;
	td_sampling_drain(s, count_sample, &seen);
	td_sampling_stats(s, &st);
	assert_int_equal(st.samples, (uint64_t)seen);
	assert_true(seen > 0);
	assert_true(st.lost > 0);
	assert_true(st.samples + st.lost >= npages);
	/* what one page a CPU holds at most: a PERF_RECORD_SAMPLE of IP|TID is 24 bytes (its header, u64 ip,
	 * u32 pid and tid: include/uapi/linux/perf_event.h, linux 6.12.117); 32 was assumed once, and the
	 * ASan build, slower between faults, saw more than a page of 32-byte records */
	assert_true(seen <= (int)(psz / 24) * st.cpus);
	td_sampling_free(s);
	munmap((void *)mem, npages * (size_t)psz);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_locate_lines), cmocka_unit_test(test_shipped_locates_encode),
		cmocka_unit_test(test_perf_map),     cmocka_unit_test(test_symbols_self),
		cmocka_unit_test(test_symbols_gone), cmocka_unit_test(test_sampling_lost),
		cmocka_unit_test(test_kallsyms),     cmocka_unit_test(test_symbols_given_maps),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
