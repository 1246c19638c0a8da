/* fuzz_imsg: libFuzzer target for topdownd's internal protocol decoder —
 * the input is one datagram as a subverted front or exporter may send the
 * monitor (any bytes), decoded by td_imsg_decode (src/control/imsg.c). A
 * message that decodes must encode back to the very same bytes (nothing
 * the monitor understood differs from what was sent); a refusal is one
 * line. Seeds: tests/fuzz/corpus/imsg. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "control/imsg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static unsigned char back[TD_IMSG_MAX];
	struct td_imsg m;
	td_err err;
	long n;

	if (td_imsg_decode(data, size, &m, &err) != 0) {
		if (strchr(err.msg, '\n') || !err.msg[0])
			abort();
		return 0;
	}
	n = td_imsg_encode(&m, back, sizeof(back));
	if (n < 0 || (size_t)n != size || memcmp(back, data, size))
		abort();
	return 0;
}
