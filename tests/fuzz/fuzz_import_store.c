/* fuzz_import_store: libFuzzer target for the whole of `tdctl import`
 * (import/import.c, td_import) — the input, perf stat -x output, is read
 * from a file (a memfd) as tdctl reads it, parsed, written as a session into
 * an in-memory database and its metrics recomputed for the Skylake events
 * file, so the writer and recompute run on whatever the parser accepts.
 * Slower than fuzz_import (the parser alone) by the database work; it reads
 * the same corpus, tests/fuzz/corpus/import. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "import/import.h"
#include "store/store.h"

/* a fresh database every so many inputs: one per input would cost more than the import */
#define INPUTS_PER_DATABASE 256

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void die(const char *what)
{
	perror(what);
	abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1, inputs;
	static char path[64];
	static FILE *diag;
	static struct td_store *s;
	struct td_import_opts o = { .pmu_model = "skl", .events_dir = TOPDOWN_SRC_EVENTS_DIR, .smt = -1 };
	struct td_import_result res;
	td_err err;

	if (fd < 0) {
		if ((fd = memfd_create("fuzz-import.csv", 0)) < 0)
			die("memfd_create");
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		if (!(diag = fopen("/dev/null", "w")))
			die("/dev/null");
	}
	if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size)
		die("memfd write");
	if (inputs++ % INPUTS_PER_DATABASE == 0) {
		td_store_close(s);
		if (td_store_open(":memory:", TD_STORE_WRITE, &s, &err)) {
			fprintf(stderr, "fuzz_import_store: %s\n", err.msg);
			abort();
		}
	}
	o.path = path;
	o.diag = diag;
	td_import(s, &o, &res, &err);
	return 0;
}
