/* openmetrics: writing metric families in the OpenMetrics 1.0 text format
 * or Prometheus's text format 0.0.4 (the two differ in counters' TYPE
 * names, UNIT lines and the closing "# EOF"). HELP and TYPE come once per
 * family, before its samples; label values are escaped; a value not
 * measured is never written (no sample rather than 0). Pure: no I/O, the
 * text grows in memory. */
#ifndef TD_OPENMETRICS_H
#define TD_OPENMETRICS_H

#include <stdbool.h>
#include <stddef.h>

enum td_om_type {
	TD_OM_GAUGE,
	TD_OM_COUNTER,
	TD_OM_INFO
};

struct td_om {
	bool openmetrics; /* else Prometheus text 0.0.4 */
	char *text;
	size_t len, cap;
	bool failed; /* out of memory: the text is not to be served */
};

void td_om_init(struct td_om *om, bool openmetrics);
void td_om_free(struct td_om *om);
/* A family: name without _total (counters) or _info (info), its type, its
 * unit ("" none; OpenMetrics requires the name to end in _UNIT) and help. */
void td_om_family(struct td_om *om, const char *name, enum td_om_type type, const char *unit, const char *help);
/* A sample of the family just begun: labels as NULL-terminated name, value
 * pairs ({"node", "Frontend_Bound", NULL}); NaN and infinities are skipped. */
void td_om_sample(struct td_om *om, const char *name, enum td_om_type type, const char *const *labels, double v);
/* The end: "# EOF" for OpenMetrics. */
void td_om_finish(struct td_om *om);
/* The Content-Type to serve the text with. */
const char *td_om_content_type(const struct td_om *om);

#endif
