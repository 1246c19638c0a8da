/* counting: the names of the counting modes (counting.h), shared by the
 * command line, the session record and doctor. */
#include "counting.h"

#include <string.h>

const char *td_counting_mode_name(enum td_counting_mode m)
{
	switch (m) {
	case TD_COUNTING_BPF:
		return "bpf";
	case TD_COUNTING_PER_THREAD:
		return "per-thread";
	case TD_COUNTING_AUTO:
		break;
	}
	return "auto";
}

static uint64_t reads_made;

uint64_t td_bpf_counting_reads(void)
{
	return reads_made;
}

void td_bpf_counting_note_read(void)
{
	reads_made++;
}

int td_counting_mode_parse(const char *s, enum td_counting_mode *out)
{
	static const enum td_counting_mode all[] = { TD_COUNTING_AUTO, TD_COUNTING_BPF, TD_COUNTING_PER_THREAD };

	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (!strcmp(s, td_counting_mode_name(all[i]))) {
			*out = all[i];
			return 0;
		}
	return -1;
}
