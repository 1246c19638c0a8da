/* import: perf stat -x CSV -> a stored session (see import.h). Two passes:
 * parse every line (nothing is written if no line is usable), then write
 * one transaction per interval and compute the metrics. */
#include "import.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "model/catalog.h"
#include "model/event_identity.h"
#include "model/model_spec.h"
#include "machine/pmu.h"

#define MAX_FIELDS 16
/* The latest wall time stored times hold: int64 ns since 1970 end in 2262. */
#define MAX_EPOCH_SECONDS 9.2e9
/* A -I timestamp is seconds since perf started: more than this (31 years) is not one. */
#define MAX_TIMESTAMP_SECONDS 1e9

struct imp_target {
	int cpu; /* >= 0: a CPU */
	int tid; /* > 0: a thread */
	char comm[64];
	int64_t id;
	int seen_iv; /* interval whose end last_seen_ns holds, -1 none */
};

struct imp_event {
	char name[256];
	struct td_encoding enc;
	bool bad;
	int64_t *ids; /* per occurrence in one interval and target */
	int nids;
};

struct imp_interval {
	double ts;	    /* seconds since perf started; NaN in totals mode */
	double duration_ns; /* from duration_time; NaN unknown */
};

struct rec {
	int interval, target, event, line;
	uint64_t value, enabled, running;
};

struct parse {
	const struct td_import_opts *o;
	char sep;
	int has_ts; /* -1 undecided */
	struct rec *recs;
	int nrecs;
	struct imp_target *targets;
	int ntargets;
	struct imp_event *events;
	int nevents;
	struct imp_interval *ivs;
	int nivs;
	int messages;
	double started; /* "# started on" as epoch seconds, NaN if absent */
	struct td_import_result *res;
	const struct td_catalog *cat; /* the model's events file: its perf-name lines */
	/* a hybrid spec (adl_glc+adl_grt): each core PMU's model and file; an event named
	 * PMU/.../ is encoded for the model counting on PMU, any other for the first */
	struct td_catalog *cats[TD_MODEL_SPEC_MAX];
	char models[TD_MODEL_SPEC_MAX][TD_MODEL_NAME_MAX];
	int nmodels;
};

/* ---- small helpers ------------------------------------------------------------ */

static void line_msg(struct parse *p, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void line_msg(struct parse *p, int line, const char *fmt, ...)
{
	va_list ap;
	int max = p->o->max_messages ? p->o->max_messages : 20;

	p->res->skipped++;
	if (!p->o->diag || p->messages++ >= max)
		return;
	fprintf(p->o->diag, "tdctl: %s:%d: ", p->o->path, line);
	va_start(ap, fmt);
	vfprintf(p->o->diag, fmt, ap);
	va_end(ap);
	fputs(", line skipped\n", p->o->diag);
}

static bool parse_double(const char *s, double *out)
{
	char *end;

	if (!*s)
		return false;
	errno = 0;
	*out = strtod(s, &end);
	return !errno && !*end && isfinite(*out);
}

static bool is_not_counted(const char *s)
{
	return !strcmp(s, "<not counted>") || !strcmp(s, "<not supported>");
}

static bool is_value(const char *s)
{
	double v;

	return is_not_counted(s) || parse_double(s, &v);
}

static int count_char(const char *s, char c)
{
	int n = 0;

	for (; *s; s++)
		n += *s == c;
	return n;
}

/* Does f open a PMU term list (cpu/event=0x9c,umask=0x1/) that the
 * separator split? PMU/ then a term (NAME=), and an odd number of slashes
 * (a thread name such as kworker/u8:1-117 has no term). */
static bool opens_pmu_form(const char *f)
{
	size_t n = strspn(f, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");

	return n > 0 && f[n] == '/' && strchr(f + n, '=') && count_char(f, '/') % 2 == 1;
}

static int split(char *line, char sep, char **f)
{
	int n = 0;

	for (char *p = line;; p++) {
		char *end = strchr(p, sep);
		if (n == MAX_FIELDS)
			return -1;
		if (end)
			*end = '\0';
		f[n++] = p;
		if (!end)
			break;
		p = end;
	}
	/* with -x, perf's raw forms contain the separator: join them again */
	for (int i = 0; i + 1 < n; i++)
		if (opens_pmu_form(f[i])) {
			int j = i + 1;
			while (j < n && count_char(f[j], '/') % 2 == 0)
				j++;
			if (j == n)
				break;
			for (int k = i + 1; k <= j; k++)
				f[k][-1] = sep; /* undo the cut */
			memmove(&f[i + 1], &f[j + 1], (size_t)(n - j - 1) * sizeof(f[0]));
			n -= j - i;
		}
	for (int i = 0; i < n; i++)
		f[i] = td_trim(f[i]);
	return n;
}

static bool is_text(const char *line, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)line[i];
		if (c == 0 || (c < 0x20 && c != '\t' && c != '\r') || c == 0x7f)
			return false;
	}
	return true;
}

/* ---- separator and comments ------------------------------------------------------ */

static char detect_sep(const char *buf, size_t len)
{
	size_t commas = 0, semis = 0;

	for (size_t i = 0; i < len && i < 65536; i++) {
		if (buf[i] == ',')
			commas++;
		else if (buf[i] == ';')
			semis++;
	}
	return semis >= commas && semis > 0 ? ';' : ',';
}

/* "# started on Sun Nov 22 03:26:08 2026" */
static void parse_comment(struct parse *p, const char *line)
{
	const char *on = strstr(line, "started on ");
	struct tm tm;

	memset(&tm, 0, sizeof(tm));
	if (on && strptime(on + 11, "%a %b %d %H:%M:%S %Y", &tm)) {
		tm.tm_isdst = -1;
		time_t t = mktime(&tm);
		/* before 1970 (or mktime's -1) or past what ns since 1970 hold in 64 bits: not perf's */
		if (t >= 0 && (double)t < MAX_EPOCH_SECONDS)
			p->started = (double)t;
	}
}

/* ---- interning ---------------------------------------------------------------------- */

static int interval_for(struct parse *p, double ts)
{
	if (p->nivs > 0) {
		struct imp_interval *last = &p->ivs[p->nivs - 1];
		if ((isnan(ts) && isnan(last->ts)) || ts == last->ts)
			return p->nivs - 1;
	}
	struct imp_interval *iv = td_array_push(&p->ivs, &p->nivs, sizeof(*p->ivs));
	if (!iv)
		return -1;
	iv->ts = ts;
	iv->duration_ns = NAN;
	return p->nivs - 1;
}

static int target_for(struct parse *p, int cpu, int tid, const char *comm)
{
	for (int i = 0; i < p->ntargets; i++)
		if (p->targets[i].cpu == cpu && p->targets[i].tid == tid && !strcmp(p->targets[i].comm, comm))
			return i;
	struct imp_target *t = td_array_push(&p->targets, &p->ntargets, sizeof(*p->targets));
	if (!t)
		return -1;
	t->cpu = cpu;
	t->tid = tid;
	t->seen_iv = -1;
	snprintf(t->comm, sizeof(t->comm), "%s", comm);
	return p->ntargets - 1;
}

/* Encode name as perf printed it: for the session's model, or on a hybrid CPU for the model
 * of the core PMU the name starts with (cpu_atom/.../: adl_grt). */
static int encode_event(const struct parse *p, const char *name, struct td_encoding *enc, td_err *err)
{
	for (int i = 1; i < p->nmodels; i++) {
		const char *pmu = td_hybrid_pmu_of_model(p->models[i]);
		size_t n = pmu ? strlen(pmu) : 0;
		if (pmu && !strncmp(name, pmu, n) && name[n] == '/')
			return td_perf_event_encode_in(p->cats[i], name, p->models[i], enc, err);
	}
	return td_perf_event_encode_in(p->cat, name, p->nmodels ? p->models[0] : p->o->pmu_model, enc, err);
}

/* Index of the event, encoding it on first sight; -2 if it cannot be encoded. */
static int event_for(struct parse *p, const char *name, td_err *err)
{
	for (int i = 0; i < p->nevents; i++)
		if (!strcmp(p->events[i].name, name)) {
			if (p->events[i].bad)
				encode_event(p, name, &p->events[i].enc, err);
			return p->events[i].bad ? -2 : i;
		}
	struct imp_event *e = td_array_push(&p->events, &p->nevents, sizeof(*p->events));
	if (!e)
		return -1;
	snprintf(e->name, sizeof(e->name), "%s", name);
	e->bad = encode_event(p, name, &e->enc, err) != 0;
	return e->bad ? -2 : p->nevents - 1;
}

/* ---- one line ------------------------------------------------------------------------ */

/* The target column: CPUn or COMM-TID. 0, or -1 with a message. */
static int parse_target(struct parse *p, const char *f, int line, int *target)
{
	int cpu, tid, n = 0;
	const char *dash = strrchr(f, '-');

	if (sscanf(f, "CPU%d%n", &cpu, &n) == 1 && !f[n] && cpu >= 0)
		*target = target_for(p, cpu, 0, "");
	else if (dash && dash > f && sscanf(dash + 1, "%d%n", &tid, &n) == 1 && !dash[1 + n] && tid > 0) {
		char comm[64];
		snprintf(comm, sizeof(comm), "%.*s", (int)(dash - f), f);
		*target = target_for(p, -1, tid, comm);
	} else {
		line_msg(p, line, "'%s' is neither a value, a CPU (CPU3) nor a thread (COMM-TID)", f);
		return -1;
	}
	return *target < 0 ? -1 : 0;
}

/* x rounded into *out where the store can hold it (SQLite integers are signed 64-bit:
 * below 2^63, some 58 years of cycles at 5 GHz); false beyond. */
static bool stored_count(double x, uint64_t *out)
{
	if (!(x >= 0 && x < 0x1p63))
		return false;
	*out = (uint64_t)llround(x);
	return true;
}

/* Times and value as stored (see import.h). 0, or -1 with a message. */
static int parse_counts(struct parse *p, char **f, int n, int v, int line, struct rec *r)
{
	double value = 0, run = NAN, pct = NAN;
	bool counted = !is_not_counted(f[v]);

	if (counted && (!parse_double(f[v], &value) || value < 0)) {
		line_msg(p, line, "value '%s' is not a count", f[v]);
		return -1;
	}
	if (n > v + 3 && f[v + 3][0] && (!parse_double(f[v + 3], &run) || run < 0 || run >= 0x1p63)) {
		line_msg(p, line, "run time '%s' is not a number of ns", f[v + 3]);
		return -1;
	}
	if (!isnan(run) && (n <= v + 4 || !f[v + 4][0])) {
		line_msg(p, line, "run time without a percentage (truncated line?)");
		return -1;
	}
	if (n > v + 4 && f[v + 4][0] && (!parse_double(f[v + 4], &pct) || pct < 0 || pct > 100.001)) {
		line_msg(p, line, "percentage '%s' is not between 0 and 100", f[v + 4]);
		return -1;
	}
	if (!counted || pct == 0) {
		/* enabled > 0, running 0: "not counted" (both 0 would read as a thread that did not run) */
		r->value = r->running = 0;
		r->enabled = isnan(run) || run < 1 ? 1 : (uint64_t)llround(run);
		return 0;
	}
	if (!strcmp(f[v + 1], "msec"))
		value *= 1e6;
	if (isnan(run)) {
		r->enabled = r->running = 1;
		if (stored_count(value, &r->value))
			return 0;
	} else {
		if (isnan(pct))
			pct = 100;
		r->running = (uint64_t)llround(run);
		if (!stored_count(run * 100 / pct, &r->enabled)) {
			line_msg(p, line,
				 "run time '%s' at %s %% makes an enabled time of 2^63 ns or more, beyond what "
				 "topdown stores",
				 f[v + 3], f[v + 4]);
			return -1;
		}
		if (stored_count(value * pct / 100, &r->value))
			return 0;
	}
	line_msg(p, line,
		 "value '%s'%s%s is 2^63 or more, beyond what topdown stores (no counter reaches it: "
		 "is the file corrupt?)",
		 f[v], f[v + 1][0] ? " " : "", f[v + 1]);
	return -1;
}

static int add_rec(struct parse *p, const struct rec *r)
{
	struct rec *n = td_array_push(&p->recs, &p->nrecs, sizeof(*p->recs));
	if (!n)
		return -1;
	*n = *r;
	p->res->used++;
	return 0;
}

/* Timestamp present? Then the value is the next field, or the one after a target. */
static bool has_timestamp(char **f, int n)
{
	double ts;

	if (n < 4 || !parse_double(f[0], &ts) || ts < 0)
		return false;
	return is_value(f[1]) || (n > 4 && f[1][0] && !is_value(f[1]) && is_value(f[2]));
}

static int parse_line(struct parse *p, char *text, int line)
{
	char *f[MAX_FIELDS];
	int n = split(text, p->sep, f), v = 0, target = -1;
	double ts = NAN;
	struct rec r = { .line = line };
	td_err err;

	if (n < 0) {
		line_msg(p, line, "more than %d fields", MAX_FIELDS);
		return 0;
	}
	if (has_timestamp(f, n)) {
		parse_double(f[0], &ts);
		v = 1;
		if (ts > MAX_TIMESTAMP_SECONDS) {
			line_msg(p, line, "timestamp '%s' is not seconds since perf started", f[0]);
			return 0;
		}
	}
	if (p->has_ts < 0)
		p->has_ts = v;
	if (p->has_ts != v) {
		line_msg(p, line,
			 p->has_ts ? "no timestamp, unlike the lines before (perf stat -I)"
				   : "a timestamp, unlike the lines before");
		return 0;
	}
	if (n > v && !is_value(f[v]) && f[v][0]) {
		if (parse_target(p, f[v], line, &target))
			return 0;
		v++;
	} else {
		target = target_for(p, -1, 0, "");
	}
	if (n < v + 3 || !f[v + 2][0]) {
		line_msg(p, line, "expected VALUE%cUNIT%cEVENT[%cRUN-TIME%cPERCENT], found %d field%s", p->sep, p->sep,
			 p->sep, p->sep, n - v, n - v == 1 ? "" : "s");
		return 0;
	}
	if (target < 0 || (r.interval = interval_for(p, ts)) < 0 || parse_counts(p, f, n, v, line, &r))
		return target < 0 || r.interval < 0 ? -1 : 0;
	r.target = target;
	if (!strcmp(f[v + 2], "duration_time")) {
		p->ivs[r.interval].duration_ns = (double)r.value;
		p->res->used++;
		return 0;
	}
	if ((r.event = event_for(p, f[v + 2], &err)) == -2) {
		/* the kernel's name of a hybrid Intel CPU's E-core PMU */
		bool atom_line = !strncmp(f[v + 2], "cpu_atom/", strlen("cpu_atom/"));
		line_msg(p, line, "%s%s", err.msg,
			 atom_line && p->nmodels < 2
				 ? " (a hybrid CPU's E-core event: give --pmu adl_glc+adl_grt to read both core types)"
				 : "");
		return 0;
	}
	return r.event < 0 ? -1 : add_rec(p, &r);
}

static int parse_buffer(struct parse *p, char *buf, size_t len)
{
	char *line = buf, *end = buf + len;

	p->sep = detect_sep(buf, len);
	for (int no = 1; line < end; no++) {
		char *nl = memchr(line, '\n', (size_t)(end - line));
		size_t l = nl ? (size_t)(nl - line) : (size_t)(end - line);
		p->res->lines++;
		if (!is_text(line, l)) {
			line_msg(p, no, "not text (binary data)");
		} else {
			line[l] = '\0';
			char *t = td_trim(line);
			if (*t == '#')
				parse_comment(p, t);
			else if (*t && parse_line(p, t, no))
				return -1;
		}
		line += l + 1;
	}
	return 0;
}

/* ---- writing ----------------------------------------------------------------------- */

struct writer {
	struct parse *p;
	struct td_store *s;
	int64_t session;
	uint64_t base_ns;     /* wall time of perf's start */
	int *occ;	      /* occurrences per target x event in the current interval */
	struct pending *pend; /* the current interval's counts, written per target at its end */
	int npend;
};

/* One count of the current interval, kept until the interval is complete:
 * perf prints an interval event by event, the store packs a target's values. */
struct pending {
	int64_t target;
	struct td_store_count c;
};

static int cmp_pending(const void *a, const void *b)
{
	const struct pending *x = a, *y = b;

	if (x->target != y->target)
		return (x->target > y->target) - (x->target < y->target);
	return (x->c.event > y->c.event) - (x->c.event < y->c.event);
}

/* Write the current interval's counts, one call per target in event order. */
static int flush_pending(struct writer *w, int64_t iv)
{
	struct td_store_count *c;
	int i = 0, j;

	qsort(w->pend, (size_t)w->npend, sizeof(*w->pend), cmp_pending);
	if (!(c = malloc(((size_t)w->npend + 1) * sizeof(*c))))
		return -1;
	for (; i < w->npend; i = j) {
		for (j = i; j < w->npend && w->pend[j].target == w->pend[i].target; j++)
			c[j - i] = w->pend[j].c;
		if (td_store_counts_add(w->s, iv, w->pend[i].target, c, j - i)) {
			free(c);
			return -1;
		}
	}
	free(c);
	w->npend = 0;
	return 0;
}

/* base + secs (>= 0) as ns; a time past what the store holds (a duration_time of
 * centuries) saturates there */
static uint64_t ns_at(const struct writer *w, double secs)
{
	double ns = secs * 1e9;

	if (ns >= (double)((uint64_t)INT64_MAX - w->base_ns))
		return (uint64_t)INT64_MAX;
	return w->base_ns + (uint64_t)llround(ns);
}

/* Wall time of perf's start: "# started on", else the file's mtime minus what it covers. */
static uint64_t base_time(const struct parse *p)
{
	struct stat st;
	double span = 0, end;
	const struct imp_interval *last = &p->ivs[p->nivs - 1];

	if (!isnan(p->started))
		return (uint64_t)(p->started * 1e9);
	end = !td_import_from_stdin(p->o) && stat(p->o->path, &st) == 0 ? (double)st.st_mtime : (double)time(NULL);
	span = !isnan(last->ts) ? last->ts : !isnan(last->duration_ns) ? last->duration_ns / 1e9 : 0;
	return end > span ? (uint64_t)((end - span) * 1e9) : 0; /* a span longer than since 1970: from 1970 */
}

/* Start and end of interval k, seconds after the measurement began. */
static void interval_span(const struct writer *w, int k, double *start, double *end)
{
	const struct imp_interval *iv = &w->p->ivs[k];

	*start = k > 0 ? w->p->ivs[k - 1].ts : 0;
	if (isnan(iv->ts))
		*end = isnan(iv->duration_ns) ? 0 : iv->duration_ns / 1e9;
	else
		*end = iv->ts;
	if (isnan(*start))
		*start = 0;
}

static int64_t write_interval(struct writer *w, int k)
{
	double start, end;

	interval_span(w, k, &start, &end);
	return td_store_interval_add(w->s, w->session, k, ns_at(w, start), ns_at(w, end));
}

/* A thread's lifetime reaches the end of the last interval it was counted in. */
static int thread_seen(struct writer *w, int t, int k)
{
	struct imp_target *tg = &w->p->targets[t];
	double start, end;

	if (tg->tid <= 0 || tg->seen_iv == k)
		return 0;
	tg->seen_iv = k;
	interval_span(w, k, &start, &end);
	return td_store_thread_seen(w->s, tg->id, NULL, ns_at(w, end), false);
}

static int64_t target_id(struct writer *w, int t, uint64_t first_ns)
{
	struct imp_target *tg = &w->p->targets[t];

	if (tg->id > 0)
		return tg->id;
	if (tg->cpu >= 0)
		tg->id = td_store_cpu_add(w->s, w->session, tg->cpu, -1, -1);
	else if (tg->tid > 0)
		tg->id = td_store_thread_add(w->s, w->session, 0, tg->tid, tg->comm, first_ns);
	else
		tg->id = td_store_target_add(w->s, w->session, "whole", 0, NULL, NULL);
	return tg->id;
}

/* The events row of the k-th line of this event in one interval and target. */
static int64_t event_id(struct writer *w, int e, int k)
{
	struct imp_event *ev = &w->p->events[e];

	while (ev->nids <= k) {
		int64_t *n = realloc(ev->ids, (size_t)(ev->nids + 1) * sizeof(*n));
		struct td_event_row row = {
			.name = ev->name,
			.spec = ev->name,
			.group = ev->nids,
			.type = ev->enc.attr.type,
			.config = ev->enc.attr.config,
			.config1 = ev->enc.attr.config1,
			.status = "counting",
		};
		if (!n)
			return -1;
		ev->ids = n;
		if ((ev->ids[ev->nids] = td_store_event_plan_add(w->s, w->session, &row)) < 0)
			return -1;
		ev->nids++;
	}
	return ev->ids[k];
}

static int write_recs(struct writer *w)
{
	struct parse *p = w->p;
	int cur = -1;
	int64_t iv = 0;
	uint64_t first_ns = 0;

	for (int i = 0; i < p->nrecs; i++) {
		const struct rec *r = &p->recs[i];
		int64_t tid, eid;
		if (r->interval != cur) {
			if (cur >= 0 && (flush_pending(w, iv) || td_store_commit(w->s)))
				return -1;
			if (td_store_begin(w->s) || (iv = write_interval(w, r->interval)) < 0)
				return -1;
			memset(w->occ, 0, (size_t)p->ntargets * (size_t)p->nevents * sizeof(int));
			cur = r->interval;
			first_ns = ns_at(w, r->interval > 0 ? p->ivs[r->interval - 1].ts : 0);
		}
		int *occ = &w->occ[r->target * p->nevents + r->event];
		struct pending *pd;
		if ((tid = target_id(w, r->target, first_ns)) < 0 || (eid = event_id(w, r->event, (*occ)++)) < 0 ||
		    !(pd = td_array_push(&w->pend, &w->npend, sizeof(*pd))) || thread_seen(w, r->target, r->interval))
			return -1;
		*pd = (struct pending){ tid, { eid, r->value, r->enabled, r->running } };
	}
	return cur >= 0 && flush_pending(w, iv) ? -1 : td_store_commit(w->s);
}

static int count_cpus(const struct parse *p)
{
	int n = 0;

	for (int i = 0; i < p->ntargets; i++)
		n += p->targets[i].cpu >= 0;
	return n;
}

static int interval_ms(const struct parse *p)
{
	if (p->nivs >= 2 && !isnan(p->ivs[1].ts))
		return (int)llround((p->ivs[1].ts - p->ivs[0].ts) * 1000);
	if (!isnan(p->ivs[0].ts))
		return (int)llround(p->ivs[0].ts * 1000);
	return isnan(p->ivs[0].duration_ns) ? 0 : (int)llround(p->ivs[0].duration_ns / 1e6);
}

static int write_session(struct parse *p, struct td_store *s, const char *events_file, td_err *err)
{
	char command[600], msg[256];
	struct td_session_info si = {
		.kind = "import",
		.command = command,
		.pmu_model = p->o->pmu_model,
		.events_file = events_file,
		.rung = "import",
		.interval_ms = interval_ms(p),
		.smt = p->o->smt,
		.num_cpus = count_cpus(p),
		.source = p->o->path,
		.kernel_counted = true,
		.owner_uid = -1,
	};
	struct writer w = { .p = p, .s = s };
	int rc;

	snprintf(command, sizeof(command), "import %s", p->o->path);
	if (!(w.occ = calloc((size_t)p->ntargets * (size_t)p->nevents + 1, sizeof(int)))) {
		td_err_set(err, "out of memory");
		return -1;
	}
	w.base_ns = base_time(p);
	if ((w.session = td_store_session_begin(s, &si, err)) < 0) {
		free(w.occ);
		return -1;
	}
	p->res->session = w.session;
	rc = write_recs(&w);
	free(w.occ);
	free(w.pend);
	if (rc) {
		td_err_set(err, "cannot write to the database: %s", td_store_errmsg(s));
		td_store_rollback(s);
		td_store_session_end(s, w.session, "failed", -1, err->msg);
		return -1;
	}
	if (!p->o->no_metrics && td_recompute(s, w.session, p->o->events_dir, true, &p->res->metrics, err)) {
		td_store_session_end(s, w.session, "failed", -1, err->msg);
		return -1;
	}
	snprintf(msg, sizeof(msg), "%d of %d lines imported, %d skipped%s", p->res->used, p->res->lines,
		 p->res->skipped, p->o->no_metrics ? "; metric values not stored (--no-metrics)" : "");
	return td_store_session_end(s, w.session, "completed", -1, msg);
}

/* ---- entry --------------------------------------------------------------------------- */

static void free_parse(struct parse *p)
{
	for (int i = 0; i < p->nevents; i++)
		free(p->events[i].ids);
	free(p->events);
	free(p->targets);
	free(p->ivs);
	free(p->recs);
}

/* A hybrid spec: each model's file loaded into p (their names joined by '+' into file). */
static int load_hybrid(struct parse *p, char *file, size_t len, td_err *err)
{
	const char *dir = td_events_dir(p->o->events_dir);
	char one[64], path[1024];

	if ((p->nmodels = td_model_spec_split(p->o->pmu_model, p->models)) < 0) {
		td_err_set(err,
			   "--pmu '%s': give one model, or one per core PMU of a hybrid CPU joined by '+' "
			   "(e.g. adl_glc+adl_grt)",
			   p->o->pmu_model);
		return -1;
	}
	file[0] = '\0';
	for (int i = 0; i < p->nmodels; i++) {
		if (i && !td_hybrid_pmu_of_model(p->models[i])) {
			td_err_set(
				err,
				"--pmu '%s': '%s' is not the model of a hybrid CPU's core PMU (known: adl_glc+adl_grt)",
				p->o->pmu_model, p->models[i]);
			return -1;
		}
		if (td_catalog_find(dir, p->models[i], one, sizeof(one))) {
			td_err_set(err,
				   "no events file in %s serves PMU model '%s': check --pmu (see 'tdctl events --pmu "
				   "MODEL')",
				   dir, p->models[i]);
			return -1;
		}
		if (strlen(file) + strlen(one) + 2 > len ||
		    snprintf(path, sizeof(path), "%s/%s", dir, one) >= (int)sizeof(path)) {
			td_err_set(err, "events directory path or file names too long: use a shorter --events-dir");
			return -1;
		}
		if (td_catalog_load(path, &p->cats[i], err))
			return -1;
		strcat(strcat(file, i ? "+" : ""), one);
	}
	p->cat = p->cats[0];
	return 0;
}

static int check_model(const struct td_import_opts *o, char *file, size_t len, td_err *err)
{
	if (!o->pmu_model || !*o->pmu_model) {
		td_err_set(err, "no PMU model: give --pmu MODEL (e.g. skl, icl, spr; see 'tdctl events')");
		return -1;
	}
	if (td_model_spec_hybrid(o->pmu_model))
		return 0; /* load_hybrid finds each file */
	if (td_catalog_find(td_events_dir(o->events_dir), o->pmu_model, file, len)) {
		td_err_set(err,
			   "no events file in %s serves PMU model '%s': check --pmu (see 'tdctl events --pmu MODEL')",
			   td_events_dir(o->events_dir), o->pmu_model);
		return -1;
	}
	return 0;
}

/* The text of a file (BOM dropped) parsed into p; -1 with err when nothing in it is usable. */
static int parse_text(struct parse *p, char *buf, size_t len, td_err *err)
{
	const char *path = p->o->path;

	/* Windows tools and some editors start UTF-8 text with a byte-order mark */
	if (len >= 3 && !memcmp(buf, "\xEF\xBB\xBF", 3)) {
		buf += 3;
		len -= 3;
	}
	if (len == 0)
		td_err_set(err, "'%s' is empty: give the output of perf stat -x, (or -x;)", path);
	else if (parse_buffer(p, buf, len))
		td_err_set(err, "out of memory reading '%s'", path);
	else if (p->nrecs == 0)
		td_err_set(err,
			   "'%s': no usable line of %d (see the messages above): give the output of perf stat -x, "
			   "(or -x;)",
			   path, p->res->lines);
	else
		return 0;
	return -1;
}

static void count_parsed(const struct parse *p, struct td_import_result *res)
{
	res->intervals = p->nivs;
	res->targets = p->ntargets;
	for (int i = 0; i < p->nevents; i++)
		res->events += !p->events[i].bad;
}

int td_import_parse(const struct td_import_opts *o, char *buf, size_t len, struct td_import_result *res, td_err *err)
{
	struct parse p = { .o = o, .has_ts = -1, .started = NAN, .res = res };
	int rc;

	memset(res, 0, sizeof(*res));
	rc = parse_text(&p, buf, len, err);
	count_parsed(&p, res);
	free_parse(&p);
	return rc;
}

/* Read o->path, parse it into p and write the session. */
static int read_and_write(struct parse *p, struct td_store *s, const char *events_file, td_err *err)
{
	const struct td_import_opts *o = p->o;
	char *buf = NULL;
	size_t len = 0;
	int rc = -1, e;

	e = td_import_from_stdin(o) ? td_slurp_stream(stdin, &buf, &len) : td_slurp(o->path, &buf, &len);
	if (e < 0) {
		td_err_set(err, "cannot read '%s': %s", o->path, strerror(-e));
		return -1;
	}
	if (parse_text(p, buf, len, err) == 0)
		rc = write_session(p, s, events_file, err);
	count_parsed(p, p->res);
	free(buf);
	free_parse(p);
	return rc;
}

int td_import(struct td_store *s, const struct td_import_opts *o, struct td_import_result *res, td_err *err)
{
	struct parse p = { .o = o, .has_ts = -1, .started = NAN, .res = res };
	char events_file[160], cat_path[1024];
	int rc = -1;
	struct td_catalog *cat = NULL;

	memset(res, 0, sizeof(*res));
	if (check_model(o, events_file, sizeof(events_file), err))
		return -1;
	if (td_model_spec_hybrid(o->pmu_model)) {
		if (load_hybrid(&p, events_file, sizeof(events_file), err) == 0)
			rc = read_and_write(&p, s, events_file, err);
		for (int i = 0; i < p.nmodels; i++)
			td_catalog_free(p.cats[i]);
		return rc;
	}
	if (snprintf(cat_path, sizeof(cat_path), "%s/%s", td_events_dir(o->events_dir), events_file) >=
	    (int)sizeof(cat_path)) {
		td_err_set(err, "events directory path longer than %zu characters: use a shorter --events-dir",
			   sizeof(cat_path) - 64);
		return -1;
	}
	if (td_catalog_load(cat_path, &cat, err))
		return -1;
	p.cat = cat;
	rc = read_and_write(&p, s, events_file, err);
	td_catalog_free(cat);
	return rc;
}
