/* verify_perf: perf stat's level 1 of a known-answer kernel, for `tdctl
 * verify` to print beside topdown's (perf stat -x ';' -M TopdownL1). */
#ifndef TDCTL_VERIFY_PERF_H
#define TDCTL_VERIFY_PERF_H

#include <stdbool.h>

#include "base/util.h"

/* perf's level 1 of one run: Frontend_Bound, Bad_Speculation, Backend_Bound,
 * Retiring as fractions (NaN: perf printed no value); ok false: none, with
 * why (one line). */
struct td_perf_level1 {
	bool ok;
	double v[4];
	char why[256];
};

/* Can perf stat print level 1 here? 0 when it can; -1 with why (one line:
 * perf not installed, or what it printed instead). */
int td_perf_topdown_probe(td_err *err);
/* argv run under perf stat -M TopdownL1 into out. */
void td_perf_level1(char *const *argv, struct td_perf_level1 *out);

#endif
