/* counting: the names of the counting modes (counting.h), shared by the
 * command line, the session record and doctor; the count of BPF reads and
 * the batch of reads open (either build: with or without BPF). */
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

static uint64_t batch_last;
static bool batch_open;

void td_bpf_counting_batch_begin(void)
{
	batch_last++;
	batch_open = true;
}

void td_bpf_counting_batch_end(void)
{
	batch_open = false;
}

uint64_t td_bpf_counting_batch(void)
{
	return batch_open ? batch_last : 0;
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
