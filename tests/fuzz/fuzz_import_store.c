/* fuzz_import_store: libFuzzer target for the whole of `tdctl import`
 * (import/import.c, td_import) — the input, perf stat -x output, is read
 * from a file (a memfd) as tdctl reads it, parsed, written as a session into
 * an in-memory database and its metrics recomputed for the Skylake events
 * file, so the writer and recompute run on whatever the parser accepts.
 * It reads the same corpus as fuzz_import (the parser alone),
 * tests/fuzz/corpus/import.
 * Two things keep it fast without skipping any of that code:
 * - the events directory it passes holds intel-skl.td alone (a symbolic
 *   link into events/): td_catalog_find, run twice per input (import and
 *   recompute), parses every .td file it lists until one serves the model,
 *   and parsing the other dozen catalogs is work no input can change;
 * - each input gets its own `:memory:` database, closed before it returns:
 *   every allocation of an input is freed by its end, so libFuzzer's leak
 *   check (a full LeakSanitizer scan, run after any input that allocated
 *   more than it freed) stays quiet unless something really leaks. A
 *   database kept across inputs grew its page cache with every input and
 *   paid that scan nearly every time (40 executions a second). */
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "import/import.h"
#include "store/store.h"

#define MODEL "skl"
#define MODEL_FILE "intel-skl.td"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char events_dir[PATH_MAX], model_link[PATH_MAX + 32];

static void die(const char *what)
{
	perror(what);
	abort();
}

static void remove_events_dir(void)
{
	unlink(model_link);
	rmdir(events_dir);
}

/* A temporary directory holding a link to the one events file the model needs. */
static void make_events_dir(void)
{
	const char *tmp = getenv("TMPDIR");

	if (snprintf(events_dir, sizeof(events_dir), "%s/fuzz-import-events.XXXXXX", tmp && *tmp ? tmp : "/tmp") >=
	    (int)sizeof(events_dir))
		die("TMPDIR too long");
	if (!mkdtemp(events_dir))
		die(events_dir);
	snprintf(model_link, sizeof(model_link), "%s/" MODEL_FILE, events_dir);
	if (symlink(TOPDOWN_SRC_EVENTS_DIR "/" MODEL_FILE, model_link))
		die(model_link);
	atexit(remove_events_dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	static char path[64];
	static FILE *diag;
	struct td_store *s;
	struct td_import_opts o = { .pmu_model = MODEL, .events_dir = events_dir, .smt = -1 };
	struct td_import_result res;
	td_err err;

	if (fd < 0) {
		if ((fd = memfd_create("fuzz-import.csv", 0)) < 0)
			die("memfd_create");
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		if (!(diag = fopen("/dev/null", "w")))
			die("/dev/null");
		make_events_dir();
	}
	if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size)
		die("memfd write");
	if (td_store_open(":memory:", TD_STORE_WRITE, &s, &err)) {
		fprintf(stderr, "fuzz_import_store: %s\n", err.msg);
		abort();
	}
	o.path = path;
	o.diag = diag;
	td_import(s, &o, &res, &err);
	td_recompute_result_free(&res.metrics);
	td_store_close(s);
	return 0;
}
