/* The report filter's options (--thread, --process, --cpu, --from, --to),
 * parsed one way for every command that selects as a report does (report,
 * diff). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/report_data.h"
#include "base/util.h"
#include "tdctl.h"

int tdctl_filter_target(const char *cmd, int c, const char *arg, struct td_report_filter *f)
{
	long v;

	if (f->kind != TD_RF_ALL) {
		tdctl_error("%s: give one of --thread, --process, --cpu", cmd);
		return -1;
	}
	if (td_parse_long(arg, 0, 0x7fffffffL, &v)) {
		tdctl_error("%s: bad %s '%s': give a number", cmd,
			    c == 'T'   ? "--thread"
			    : c == 'P' ? "--process"
				       : "--cpu",
			    arg);
		return -1;
	}
	f->kind = c == 'T' ? TD_RF_THREAD : c == 'P' ? TD_RF_PROCESS : TD_RF_CPU;
	f->id = v;
	return 0;
}

/* --from/--to T: seconds after the session's first interval began, digits
 * with an optional decimal point (10, 2.5). */
static int parse_time(const char *cmd, const char *opt, const char *arg, double *t)
{
	char *end;

	if (!arg[0] || strspn(arg, "0123456789.") != strlen(arg) || (*t = strtod(arg, &end), *end) || !isfinite(*t)) {
		tdctl_error("%s: bad %s '%s': give seconds after the session start, e.g. 10 or 2.5", cmd, opt, arg);
		return -1;
	}
	return 0;
}

int tdctl_filter_window(const char *cmd, struct td_report_filter *f, const char *from, const char *to)
{
	f->from = 0;
	f->to = INFINITY;
	f->window = from || to;
	if ((from && parse_time(cmd, "--from", from, &f->from)) || (to && parse_time(cmd, "--to", to, &f->to)))
		return -1;
	if (f->from > f->to) {
		tdctl_error("%s: --from %s is after --to %s: give FROM <= TO", cmd, from, to);
		return -1;
	}
	return 0;
}
