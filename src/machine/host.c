/* host: the root host facts are read under, the forced libpfm4 model, and
 * the online CPUs with their topology (see host.h). */
#include "host.h"
#include "base/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *td_host_root(void)
{
	const char *root = getenv("TD_SYSROOT");

	return root && *root ? root : "";
}

bool td_host_is_fixture(void)
{
	return td_host_root()[0] != '\0';
}

int td_host_path(char *buf, size_t len, const char *path)
{
	int n = snprintf(buf, len, "%s%s", td_host_root(), path);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int td_host_mux_interval_ms(void)
{
	char dir[4096], path[4096 + 300], **names;
	long v, longest = 0;
	int n;

	if (td_host_path(dir, sizeof(dir), "/sys/bus/event_source/devices") || (n = td_list_dir(dir, "", &names)) < 0)
		return TD_MUX_INTERVAL_UNKNOWN_MS;
	for (int i = 0; i < n; i++)
		if (snprintf(path, sizeof(path), "%s/%s/perf_event_mux_interval_ms", dir, names[i]) <
			    (int)sizeof(path) &&
		    td_read_long(path, &v) == 0 && v > longest)
			longest = v;
	td_free_names(names, n);
	return longest > 0 && longest < 1000000 ? (int)longest : TD_MUX_INTERVAL_UNKNOWN_MS;
}

const char *td_host_forced_pfm_model(void)
{
	const char *m = getenv("TD_PFM_MODEL");

	if (m && *m)
		return m;
	return td_host_is_fixture() ? "none" : NULL;
}

int td_parse_cpu_list(const char *list, int **cpus, td_err *err)
{
	const char *p = list;
	int *out = NULL;
	size_t n = 0, cap = 0;

	while (*p && *p != '\n') {
		char *end;
		long lo = strtol(p, &end, 10), hi = lo;
		if (end == p || lo < 0)
			goto bad;
		if (*end == '-') {
			p = end + 1;
			hi = strtol(p, &end, 10);
			if (end == p || hi < lo)
				goto bad;
		}
		for (long c = lo; c <= hi; c++) {
			if (n == cap) {
				size_t ncap = cap ? cap * 2 : 64;
				int *grown = realloc(out, ncap * sizeof(*out));
				if (!grown) {
					free(out);
					td_err_set(err, "out of memory for the CPU list '%s'", list);
					return -1;
				}
				out = grown;
				cap = ncap;
			}
			out[n++] = (int)c;
		}
		if (*end != ',' && *end != '\0' && *end != '\n')
			goto bad;
		p = *end == ',' ? end + 1 : end;
	}
	*cpus = out;
	return (int)n;
bad:
	free(out);
	td_err_set(err, "bad CPU list '%s' (at '%s'): give CPU numbers and ranges, e.g. 0-3,6", list, p);
	return -1;
}

int td_host_online_cpus(int **cpus)
{
	char path[4096], *text = NULL;
	int rc;

	if ((rc = td_host_path(path, sizeof(path), "/sys/devices/system/cpu/online")) < 0)
		return rc;
	if ((rc = td_slurp(path, &text, NULL)) < 0)
		return rc;
	rc = td_parse_cpu_list(td_trim(text), cpus, NULL);
	free(text);
	return rc < 0 ? -EINVAL : rc;
}

int td_host_cpu_topology(int cpu, const char *what)
{
	char rel[128], path[4096], buf[32];
	long v;

	snprintf(rel, sizeof(rel), "/sys/devices/system/cpu/cpu%d/topology/%s", cpu, what);
	if (td_host_path(path, sizeof(path), rel) < 0 || td_read_file(path, buf, sizeof(buf)) < 0 ||
	    td_parse_long(td_trim(buf), 0, 1 << 30, &v))
		return -1;
	return (int)v;
}
