/* openmetrics: the exposition text (see openmetrics.h). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "openmetrics.h"

void td_om_init(struct td_om *om, bool openmetrics)
{
	memset(om, 0, sizeof(*om));
	om->openmetrics = openmetrics;
}

void td_om_free(struct td_om *om)
{
	free(om->text);
	memset(om, 0, sizeof(*om));
}

static void put(struct td_om *om, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct td_om *om, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (om->failed)
		return;
	for (;;) {
		size_t room = om->cap - om->len;
		va_start(ap, fmt);
		n = vsnprintf(om->text ? om->text + om->len : NULL, room, fmt, ap);
		va_end(ap);
		if (n < 0) {
			om->failed = true;
			return;
		}
		if ((size_t)n < room) {
			om->len += (size_t)n;
			return;
		}
		size_t cap = om->cap ? om->cap * 2 : 4096;
		while (cap - om->len <= (size_t)n)
			cap *= 2;
		char *grown = realloc(om->text, cap);
		if (!grown) {
			om->failed = true;
			return;
		}
		om->text = grown;
		om->cap = cap;
	}
}

/* A label value or HELP text with \, " (label values only) and newline escaped. */
static void put_escaped(struct td_om *om, const char *s, bool quote)
{
	for (; *s; s++) {
		if (*s == '\\')
			put(om, "\\\\");
		else if (*s == '\n')
			put(om, "\\n");
		else if (*s == '"' && quote)
			put(om, "\\\"");
		else
			put(om, "%c", *s);
	}
}

static const char *type_name(enum td_om_type t)
{
	return t == TD_OM_COUNTER ? "counter" : t == TD_OM_INFO ? "info" : "gauge";
}

void td_om_family(struct td_om *om, const char *name, enum td_om_type type, const char *unit, const char *help)
{
	/* Prometheus 0.0.4 names a counter's family with its _total, and has
	 * no info type: an info family is a gauge of value 1 named _info */
	const char *suffix = om->openmetrics	     ? ""
			     : type == TD_OM_COUNTER ? "_total"
			     : type == TD_OM_INFO    ? "_info"
						     : "";

	put(om, "# HELP %s%s ", name, suffix);
	put_escaped(om, help, false);
	put(om, "\n# TYPE %s%s %s\n", name, suffix, om->openmetrics || type != TD_OM_INFO ? type_name(type) : "gauge");
	if (om->openmetrics && unit && unit[0])
		put(om, "# UNIT %s %s\n", name, unit);
}

void td_om_sample(struct td_om *om, const char *name, enum td_om_type type, const char *const *labels, double v)
{
	if (!isfinite(v))
		return;
	put(om, "%s%s", name, type == TD_OM_COUNTER ? "_total" : type == TD_OM_INFO ? "_info" : "");
	if (labels && labels[0]) {
		put(om, "{");
		for (int i = 0; labels[i] && labels[i + 1]; i += 2) {
			put(om, "%s%s=\"", i ? "," : "", labels[i]);
			put_escaped(om, labels[i + 1], true);
			put(om, "\"");
		}
		put(om, "}");
	}
	/* %.17g: the double read back is the double written */
	put(om, " %.17g\n", v);
}

void td_om_finish(struct td_om *om)
{
	if (om->openmetrics)
		put(om, "# EOF\n");
}

const char *td_om_content_type(const struct td_om *om)
{
	return om->openmetrics ? "application/openmetrics-text; version=1.0.0; charset=utf-8"
			       : "text/plain; version=0.0.4; charset=utf-8";
}
