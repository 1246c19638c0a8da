/* events_check: 'tdctl events --check', the events file's encodings against libpfm4. */
#ifndef TD_EVENTS_CHECK_H
#define TD_EVENTS_CHECK_H

struct td_catalog;

struct td_check_counts {
	int ok, mismatch, known, unknown, cannot_encode;
	int perf_name_mismatch; /* perf-name lines in raw form that perf parses to another encoding */
};

/* Print one line per event of cat (ok, MISMATCH with both configs, known: a mismatch the file's
 * libpfm4-differs line explains, unknown to libpfm4 with the
 * event's description as its source, cannot encode) and a summary, encoding for PMU model model.
 * Returns 1 when an event mismatches or cannot be encoded, else 0. */
int td_events_check(const struct td_catalog *cat, const char *model, struct td_check_counts *counts);

#endif
