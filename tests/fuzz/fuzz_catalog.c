/* fuzz_catalog: libFuzzer target for the events/NAME.td reader — the input is
 * a whole .td file, parsed by td_catalog_parse_text (catalog.c and the
 * counters/limit lines of catalog_counters.c); a file that parses is compiled
 * into its model and evaluated (fuzz_model.c). Seeds: tests/fuzz/corpus/catalog. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "fuzz_model.h"
#include "model/catalog.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct td_catalog *cat;
	td_err err;

	if (td_catalog_parse_text("fuzz.td", text, &cat, &err) == 0) {
		fuzz_evaluate_catalog(cat, data, size);
		td_catalog_free(cat);
	}
	free(text);
	return 0;
}
