/* fuzz_protocol: libFuzzer target for topdownd's control protocol decoder —
 * the input is one request line as a client may send it (any bytes),
 * decoded by td_request_decode (src/control/protocol.c). A request that
 * decodes must encode and decode back to itself; an error is one line.
 * Seeds: tests/fuzz/corpus/protocol. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "control/protocol.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct td_request r, back;
	td_err err;
	char *line;

	if (td_request_decode((const char *)data, size, &r, &err) != 0) {
		if (strchr(err.msg, '\n'))
			abort();
		return 0;
	}
	if (!(line = td_request_encode(&r)))
		return 0;
	if (td_request_decode(line, strlen(line) - 1, &back, &err) != 0 || memcmp(&r, &back, sizeof(r)))
		abort(); /* what the daemon understood is what tdctl would have sent */
	free(line);
	return 0;
}
