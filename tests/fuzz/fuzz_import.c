/* fuzz_import: libFuzzer target for the `perf stat -x` reader of `tdctl
 * import` (import/import.c, td_import_parse) — the input is a file of perf
 * stat output in any of its forms (totals, -I intervals, -A per CPU,
 * --per-thread, cgroups, `<not counted>`, `<not supported>`, raw event
 * forms, either separator), parsed as td_import parses it for the Skylake
 * model (events encoded by libpfm4), nothing written. fuzz_import_store runs
 * the whole import, database included, on the same corpus. Seeds:
 * tests/fuzz/corpus/import, the perf stat fixtures of tests/data. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "fuzz_model.h"
#include "import/import.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *diag;
	struct td_import_opts o = { .path = "fuzz.csv", .pmu_model = "skl", .smt = -1 };
	struct td_import_result res;
	char *text = fuzz_text(data, size);
	td_err err;

	/* line messages are formatted too, into nowhere */
	if (!diag && !(diag = fopen("/dev/null", "w")))
		abort();
	o.diag = diag;
	td_import_parse(&o, text, size, &res, &err);
	free(text);
	return 0;
}
