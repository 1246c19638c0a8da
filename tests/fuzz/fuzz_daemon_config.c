/* fuzz_daemon_config: libFuzzer target for topdownd.conf — the input is a
 * whole configuration file, parsed over the defaults by td_config_parse
 * (src/topdownd/daemon_config.c), then freed. An error must be one line
 * naming FILE:LINE. Seeds: tests/fuzz/corpus/daemon_config. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "topdownd/daemon_config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	struct td_config c;
	td_err err;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	td_config_defaults(&c);
	if (td_config_parse(text, "fuzz.conf", &c, &err) != 0 &&
	    (strncmp(err.msg, "fuzz.conf:", 10) || strchr(err.msg, '\n')))
		abort(); /* an error is one line at FILE:LINE */
	td_config_free(&c);
	free(text);
	return 0;
}
