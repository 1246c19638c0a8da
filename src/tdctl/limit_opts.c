/* Retention limits shared by `tdctl prune` and the long-running collectors
 * (`run`, `attach`): an age such as 7d or 12h, a size in megabytes. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tdctl.h"

/* "7d", "12h", "30m", "45s" -> ns. */
int tdctl_parse_age(const char *opt, const char *arg, uint64_t *ns)
{
	if (td_parse_duration(arg, ns) == 0)
		return 0;
	tdctl_error("bad %s '%s': give a number with d, h, m, s or ms (e.g. 7d, 12h)", opt, arg);
	return -1;
}

int tdctl_parse_size(const char *opt, const char *arg, uint64_t *bytes)
{
	char *end;
	double v = strtod(arg, &end);

	if (end == arg || *end || !(v > 0) || v > 1e9) {
		tdctl_error("bad %s '%s': give megabytes (e.g. 500 or 0.5)", opt, arg);
		return -1;
	}
	*bytes = (uint64_t)(v * 1024 * 1024);
	return 0;
}
