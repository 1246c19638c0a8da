/* what_if: projections from the interval CPI stack (see what_if.h). */
#include "what_if.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *td_what_if_name(const struct td_model *m, int comp)
{
	return comp == TD_WHAT_IF_OTHER ? "Other" : m->cpis[comp].name;
}

/* "Base, Branch_Mispredict, ..., Other" into buf. */
static void component_names(const struct td_model *m, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int i = 0; i <= m->ncpis && used + 1 < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "",
					 i < m->ncpis ? m->cpis[i].name : "Other");
}

int td_what_if_parse(const struct td_model *m, const char *spec, struct td_what_if **out, int *n, td_err *err)
{
	char names[1024];
	struct td_what_if *w = NULL;
	int count = 0;

	*out = NULL;
	*n = 0;
	if (!m->has_cpi) {
		td_err_set(err, "--what-if needs a CPI stack and this events file has none");
		return -1;
	}
	component_names(m, names, sizeof(names));
	for (const char *p = spec; *p;) {
		const char *end = strchr(p, ','), *eq = strchr(p, '=');
		size_t len = end ? (size_t)(end - p) : strlen(p), nlen;
		struct td_what_if *x;
		char *stop;
		double f;
		int comp = -2;
		if (!eq || eq >= p + len || eq == p) {
			td_err_set(err, "bad --what-if '%.*s': give COMPONENT=FACTOR, e.g. DRAM=0.5 (components: %s)",
				   (int)len, p, names);
			goto fail;
		}
		nlen = (size_t)(eq - p);
		for (int i = 0; i < m->ncpis && comp == -2; i++)
			if (strlen(m->cpis[i].name) == nlen && !strncmp(m->cpis[i].name, p, nlen))
				comp = i;
		if (comp == -2 && nlen == 5 && !strncmp(p, "Other", 5))
			comp = TD_WHAT_IF_OTHER;
		if (comp == -2) {
			td_err_set(err, "--what-if: no CPI component '%.*s': the components are %s", (int)nlen, p,
				   names);
			goto fail;
		}
		f = strtod(eq + 1, &stop);
		if (stop != p + len || stop == eq + 1 || !(f >= 0) || isinf(f)) {
			td_err_set(err,
				   "bad --what-if factor '%.*s' for %.*s: give a number >= 0 (0 removes the component, "
				   "0.5 halves it)",
				   (int)(p + len - eq - 1), eq + 1, (int)nlen, p);
			goto fail;
		}
		for (int i = 0; i < count; i++)
			if (w[i].comp == comp) {
				td_err_set(err, "--what-if names %.*s twice: give each component once", (int)nlen, p);
				goto fail;
			}
		if (!(x = td_array_push(&w, &count, sizeof(*w)))) {
			td_err_set(err, "out of memory");
			goto fail;
		}
		x->comp = comp;
		x->factor = f;
		p = end ? end + 1 : p + len;
	}
	if (count == 0) {
		td_err_set(err, "empty --what-if: give COMPONENT=FACTOR[,...] (components: %s)", names);
		goto fail;
	}
	*out = w;
	*n = count;
	return 0;
fail:
	free(w);
	return -1;
}

int td_what_if_project(const struct td_model *m, const struct td_evaluation *e, const struct td_what_if *w, int n,
		       struct td_what_if_result *r, td_err *err)
{
	double saved = 0;

	if (!e->cpi_valid || !(e->cpi > 0)) {
		td_err_set(err, "no CPI to project: cycles or instructions were not counted");
		return -1;
	}
	for (int i = 0; i < n; i++) {
		double c = w[i].comp == TD_WHAT_IF_OTHER ? e->other : e->cpi_comp[w[i].comp];
		if (isnan(c)) {
			td_err_set(err, "no projection: CPI component %s was not available in this session",
				   td_what_if_name(m, w[i].comp));
			return -1;
		}
		saved += c * (1 - w[i].factor);
	}
	r->cpi = e->cpi;
	r->projected = e->cpi - saved;
	if (!(r->projected > 0)) {
		td_err_set(err,
			   "the projection leaves no cycles per instruction (CPI' = %.4f): the factors remove more "
			   "than the stack holds",
			   r->projected);
		return -1;
	}
	r->cycles_ratio = r->projected / r->cpi;
	r->speedup = r->cpi / r->projected;
	return 0;
}
