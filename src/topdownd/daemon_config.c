/* daemon_config: the topdownd.conf parser (see daemon_config.h). The format is INI:
 * `[daemon]`, `[exporter]`, `[watch]`, `[schedule NAME]` and `[auto NAME]` sections, `key = value` lines, `#`
 * comments on their own line. Each section's keys are a table of name,
 * parser and field, so the reference (man 5 topdownd.conf) and the code
 * list the same keys. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <sys/socket.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include "daemon_config.h"

#define DEFAULT_SOCKET "/run/topdown/topdownd.sock"
#define DEFAULT_DB "/var/lib/topdown/topdown.db"

void td_config_defaults(struct td_config *c)
{
	memset(c, 0, sizeof(*c));
	c->socket_path = strdup(DEFAULT_SOCKET);
	c->db_path = strdup(DEFAULT_DB);
	c->interval_ms = 1000;
	c->max_clients = 256;
	c->max_request = 64 * 1024;
	c->max_output = 4 * 1024 * 1024;
	c->max_sessions = 64;
	c->client_timeout_ms = 10000;
	c->export_top = 10;
	c->watch.depth = 1;
	c->watch.interval_ms = 1000;
	c->watch.baseline = 30;
	c->watch.window = 5;
	c->watch.p_value = 0.01;
	c->watch.min_shift = 10;
	c->watch.drill_level = 2;
	c->watch.drill_duration_ns = 30000000000ull;
	c->watch.drill_hotspots = true;
	c->watch.workload_every_ns = 600000000000ull;
	c->watch.changes_per_hour = 10;
	c->watch.max_cpu_percent = 1;
	c->watch.top_processes = 0;
	c->watch.full_resolution_ns = 3600ull * 1000000000ull;
	c->watch.downsample_ns = 60ull * 1000000000ull;
}

static void free_entry(struct td_schedule_entry *e)
{
	free(e->name);
	free(e->nodes);
	free(e->cgroup);
}

static void free_rule(struct td_auto_rule *r)
{
	free(r->name);
	free(r->exec);
	free(r->comm);
	free(r->cgroup);
	free(r->nodes);
}

void td_config_free(struct td_config *c)
{
	free(c->socket_path);
	free(c->db_path);
	free(c->events_dir);
	free(c->admin_group);
	free(c->user);
	free(c->export_listen);
	free(c->watch.root);
	for (int i = 0; i < c->nschedule; i++)
		free_entry(&c->schedule[i]);
	free(c->schedule);
	for (int i = 0; i < c->nautos; i++)
		free_rule(&c->autos[i]);
	free(c->autos);
	memset(c, 0, sizeof(*c));
}

int td_config_set_string(char **field, const char *value)
{
	char *copy = strdup(value);

	if (!copy)
		return -1;
	free(*field);
	*field = copy;
	return 0;
}

/* ---- values ---------------------------------------------------------- */

/* Each parser: 0, or -1 with what a good value looks like in why. */
typedef int (*value_fn)(const char *v, void *field, char *why, size_t len);

static int parse_path(const char *v, void *field, char *why, size_t len)
{
	if (v[0] != '/') {
		snprintf(why, len, "give an absolute path");
		return -1;
	}
	return td_config_set_string(field, v) ? (snprintf(why, len, "out of memory"), -1) : 0;
}

static int parse_word(const char *v, void *field, char *why, size_t len)
{
	for (const char *p = v; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("_-.", *p)) {
			snprintf(why, len, "give a name of letters, digits, '_', '-' or '.'");
			return -1;
		}
	return td_config_set_string(field, v) ? (snprintf(why, len, "out of memory"), -1) : 0;
}

static int parse_text(const char *v, void *field, char *why, size_t len)
{
	return td_config_set_string(field, v) ? (snprintf(why, len, "out of memory"), -1) : 0;
}

static int parse_int_range(const char *v, int *out, long min, long max, char *why, size_t len)
{
	long n;

	if (td_parse_long(v, min, max, &n)) {
		snprintf(why, len, "give a whole number from %ld to %ld", min, max);
		return -1;
	}
	*out = (int)n;
	return 0;
}

static int parse_count(const char *v, void *field, char *why, size_t len)
{
	return parse_int_range(v, field, 1, 100000, why, len);
}

static int parse_top(const char *v, void *field, char *why, size_t len)
{
	return parse_int_range(v, field, 0, 1000, why, len);
}

static int parse_level(const char *v, void *field, char *why, size_t len)
{
	return parse_int_range(v, field, 1, 6, why, len);
}

static int parse_duration_ns(const char *v, void *field, char *why, size_t len)
{
	if (td_parse_duration(v, field)) {
		snprintf(why, len, "give a duration such as 500ms, 10s, 5m, 12h or 7d");
		return -1;
	}
	return 0;
}

/* "off" (0) or a duration */
static int parse_threshold_for(const char *v, void *field, char *why, size_t len)
{
	if (!strcmp(v, "off")) {
		*(uint64_t *)field = 0;
		return 0;
	}
	if (td_parse_duration(v, field) || *(uint64_t *)field == 0) {
		snprintf(why, len, "give 'off' or a duration such as 2s or 1m");
		return -1;
	}
	return 0;
}

static int parse_duration_ms(const char *v, void *field, char *why, size_t len)
{
	uint64_t ns;

	if (td_parse_duration(v, &ns) || ns < 10000000ull || ns > 3600000000000ull) {
		snprintf(why, len, "give a duration from 10ms to 1h, such as 100ms or 1s");
		return -1;
	}
	*(int *)field = (int)(ns / 1000000ull);
	return 0;
}

/* "4096", "64K", "10M", "2G" (binary units). */
static int parse_bytes(const char *v, void *field, char *why, size_t len)
{
	static const char units[] = "KMGT";
	char *end;
	unsigned long long n;
	uint64_t mult = 1;

	errno = 0;
	n = strtoull(v, &end, 10);
	if (end != v && isdigit((unsigned char)v[0]) && !errno && *end) {
		const char *u = strchr(units, *end);
		if (u && end[1] == '\0')
			for (const char *p = units; p <= u; p++)
				mult *= 1024;
		else
			end = (char *)v;
	}
	if (end == v || !isdigit((unsigned char)v[0]) || errno || n == 0 || n > UINT64_MAX / mult) {
		snprintf(why, len, "give a size in bytes, or with K, M, G or T (e.g. 64K, 1G)");
		return -1;
	}
	*(uint64_t *)field = n * mult;
	return 0;
}

static int parse_size(const char *v, void *field, char *why, size_t len)
{
	uint64_t n;

	if (parse_bytes(v, &n, why, len))
		return -1;
	*(size_t *)field = (size_t)n;
	return 0;
}

int td_config_parse_listen(const char *listen, struct sockaddr_storage *ss, td_err *err)
{
	char host[64];
	const char *colon = strrchr(listen, ':');
	long port;
	size_t hl;

	if (!colon || td_parse_long(colon + 1, 0, 65535, &port))
		goto bad;
	hl = (size_t)(colon - listen);
	if (hl >= sizeof(host))
		goto bad;
	memcpy(host, listen, hl);
	host[hl] = '\0';
	memset(ss, 0, sizeof(*ss));
	if (host[0] == '[' && hl > 2 && host[hl - 1] == ']') {
		struct sockaddr_in6 *a = (struct sockaddr_in6 *)ss;
		host[hl - 1] = '\0';
		a->sin6_family = AF_INET6;
		a->sin6_port = htons((uint16_t)port);
		if (inet_pton(AF_INET6, host + 1, &a->sin6_addr) == 1)
			return 0;
	} else {
		struct sockaddr_in *a = (struct sockaddr_in *)ss;
		a->sin_family = AF_INET;
		a->sin_port = htons((uint16_t)port);
		if (inet_pton(AF_INET, host, &a->sin_addr) == 1)
			return 0;
	}
bad:
	td_err_set(err, "bad exporter address '%s': give HOST:PORT with a numeric address, e.g. 127.0.0.1:9464",
		   listen);
	return -1;
}

static int parse_listen(const char *v, void *field, char *why, size_t len)
{
	struct sockaddr_storage ss;
	td_err err;

	if (td_config_parse_listen(v, &ss, &err)) {
		snprintf(why, len, "give HOST:PORT with a numeric address, e.g. 127.0.0.1:9464");
		return -1;
	}
	return parse_text(v, field, why, len);
}

static int parse_top_n(const char *v, void *field, char *why, size_t len)
{
	return parse_int_range(v, field, 0, 10000, why, len);
}

/* "comm" or "none": the labels beside target */
static int parse_labels(const char *v, void *field, char *why, size_t len)
{
	if (strcmp(v, "comm") && strcmp(v, "none")) {
		snprintf(why, len, "give comm (a comm label beside target) or none");
		return -1;
	}
	*(bool *)field = !strcmp(v, "comm");
	return 0;
}

static int parse_yes_no(const char *v, void *field, char *why, size_t len)
{
	if (strcmp(v, "yes") && strcmp(v, "no")) {
		snprintf(why, len, "give yes or no");
		return -1;
	}
	*(bool *)field = !strcmp(v, "yes");
	return 0;
}

/* auto, bpf or proc */
static int parse_tracker(const char *v, void *field, char *why, size_t len)
{
	enum td_tracker_mode *m = field;

	if (!strcmp(v, "auto"))
		*m = TD_TRACKER_AUTO;
	else if (!strcmp(v, "bpf"))
		*m = TD_TRACKER_BPF;
	else if (!strcmp(v, "proc"))
		*m = TD_TRACKER_PROC;
	else {
		snprintf(why, len, "give auto (BPF where it loads), bpf or proc");
		return -1;
	}
	return 0;
}

static int parse_depth(const char *v, void *field, char *why, size_t len)
{
	return parse_int_range(v, field, 1, 16, why, len);
}

static int parse_window(const char *v, void *field, char *why, size_t len)
{
	return parse_int_range(v, field, 3, 10000, why, len);
}

static int parse_real(const char *v, double *out, double min, double max, bool min_open, char *why, size_t len)
{
	char *end;
	double x;

	errno = 0;
	x = strtod(v, &end);
	if (end == v || *end || errno || !(x <= max) || (min_open ? !(x > min) : !(x >= min))) {
		snprintf(why, len, "give a number %s %g and at most %g", min_open ? "above" : "from", min, max);
		return -1;
	}
	*out = x;
	return 0;
}

/* a p-value threshold: (0, 0.5] */
static int parse_p_value(const char *v, void *field, char *why, size_t len)
{
	return parse_real(v, field, 0, 0.5, true, why, len);
}

/* percentage points or percent of one CPU: [0, 100] */
static int parse_percent(const char *v, void *field, char *why, size_t len)
{
	return parse_real(v, field, 0, 100, false, why, len);
}

static int parse_per_hour(const char *v, void *field, char *why, size_t len)
{
	return parse_int_range(v, field, 1, 3600, why, len);
}

/* A pattern of fnmatch(3): any text but a control character */
static int parse_pattern(const char *v, void *field, char *why, size_t len)
{
	for (const char *p = v; *p; p++)
		if (iscntrl((unsigned char)*p)) {
			snprintf(why, len, "give a pattern such as /usr/bin/postgres or java* (no control characters)");
			return -1;
		}
	return parse_text(v, field, why, len);
}

/* ---- sections ---------------------------------------------------------- */

struct key {
	const char *name;
	value_fn parse;
	size_t off;
};

#define DKEY(n, fn, f)                               \
	{                                            \
		n, fn, offsetof(struct td_config, f) \
	}
static const struct key daemon_keys[] = {
	DKEY("socket", parse_path, socket_path),
	DKEY("database", parse_path, db_path),
	DKEY("events_dir", parse_path, events_dir),
	DKEY("admin_group", parse_word, admin_group),
	DKEY("interval", parse_duration_ms, interval_ms),
	DKEY("max_clients", parse_count, max_clients),
	DKEY("max_request", parse_size, max_request),
	DKEY("max_output", parse_size, max_output),
	DKEY("max_sessions", parse_count, max_sessions),
	DKEY("client_timeout", parse_duration_ms, client_timeout_ms),
	DKEY("retention_age", parse_duration_ns, retention_age_ns),
	DKEY("retention_size", parse_bytes, retention_bytes),
	DKEY("tracker", parse_tracker, tracker),
	DKEY("user", parse_word, user),
};

#define SKEY(n, fn, f)                                       \
	{                                                    \
		n, fn, offsetof(struct td_schedule_entry, f) \
	}
static const struct key schedule_keys[] = {
	SKEY("every", parse_duration_ns, every_ns),
	SKEY("duration", parse_duration_ns, duration_ns),
	SKEY("interval", parse_duration_ms, interval_ms),
	SKEY("level", parse_level, level),
	SKEY("nodes", parse_text, nodes),
	SKEY("cgroup", parse_path, cgroup),
	SKEY("top", parse_top, top),
};

#define EKEY(n, fn, f)                               \
	{                                            \
		n, fn, offsetof(struct td_config, f) \
	}
static const struct key exporter_keys[] = {
	EKEY("listen", parse_listen, export_listen),
	EKEY("top", parse_top_n, export_top),
	EKEY("labels", parse_labels, export_comm),
};

#define AKEY(n, fn, f)                                  \
	{                                               \
		n, fn, offsetof(struct td_auto_rule, f) \
	}
static const struct key auto_keys[] = {
	AKEY("exec", parse_pattern, exec),
	AKEY("comm", parse_pattern, comm),
	AKEY("cgroup", parse_path, cgroup),
	AKEY("interval", parse_duration_ms, interval_ms),
	AKEY("level", parse_level, level),
	AKEY("nodes", parse_text, nodes),
	AKEY("children", parse_yes_no, children),
	AKEY("duration", parse_duration_ns, duration_ns),
	AKEY("max_sessions", parse_count, max_sessions),
};

#define WKEY(n, fn, f)                                     \
	{                                                  \
		n, fn, offsetof(struct td_config, watch.f) \
	}
static const struct key watch_keys[] = {
	WKEY("enable", parse_yes_no, enable),
	WKEY("root", parse_path, root),
	WKEY("depth", parse_depth, depth),
	WKEY("interval", parse_duration_ms, interval_ms),
	WKEY("baseline", parse_window, baseline),
	WKEY("window", parse_window, window),
	WKEY("p_value", parse_p_value, p_value),
	WKEY("min_shift", parse_percent, min_shift),
	WKEY("drill_level", parse_level, drill_level),
	WKEY("drill_duration", parse_duration_ns, drill_duration_ns),
	WKEY("drill_hotspots", parse_yes_no, drill_hotspots),
	WKEY("workload_every", parse_duration_ns, workload_every_ns),
	WKEY("threshold_for", parse_threshold_for, threshold_for_ns),
	WKEY("changes_per_hour", parse_per_hour, changes_per_hour),
	WKEY("max_cpu_percent", parse_percent, max_cpu_percent),
	WKEY("top_processes", parse_top, top_processes),
	WKEY("full_resolution", parse_duration_ns, full_resolution_ns),
	WKEY("downsample", parse_threshold_for, downsample_ns),
};

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

struct parser {
	const char *name;
	int line;
	td_err *err;
	struct td_config *c;
	struct td_schedule_entry *entry; /* the [schedule] being read, NULL elsewhere */
	struct td_auto_rule *rule;	 /* the [auto] being read, NULL elsewhere */
	bool exporter;			 /* in [exporter] */
	bool watch;			 /* in [watch] */
	bool watch_seen;		 /* [watch] was given */
	bool in_section;
	unsigned long long seen; /* keys of this section given (a bit each) */
};

static int fail(struct parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct parser *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	td_err_vset_at(p->err, p->name, p->line, fmt, ap);
	va_end(ap);
	return -1;
}

static int check_entry(struct parser *p, const struct td_schedule_entry *e)
{
	if (!e->every_ns || !e->duration_ns)
		return fail(p, "[schedule %s] needs 'every' and 'duration' (e.g. every = 10m, duration = 10s)",
			    e->name);
	if (e->duration_ns >= e->every_ns)
		return fail(p, "[schedule %s]: 'duration' must be shorter than 'every'", e->name);
	if ((uint64_t)e->interval_ms * 1000000ull > e->duration_ns)
		return fail(p, "[schedule %s]: 'interval' must not be longer than 'duration'", e->name);
	return 0;
}

static int check_rule(struct parser *p, const struct td_auto_rule *r)
{
	if (!r->exec && !r->comm && !r->cgroup)
		return fail(p,
			    "[auto %s] needs 'exec', 'comm' or 'cgroup' to say which processes to follow "
			    "(e.g. exec = /usr/sbin/nginx)",
			    r->name);
	if (r->duration_ns && r->interval_ms && (uint64_t)r->interval_ms * 1000000ull > r->duration_ns)
		return fail(p, "[auto %s]: 'interval' must not be longer than 'duration'", r->name);
	return 0;
}

static int check_watch(struct parser *p, const struct td_watch_config *w)
{
	if (w->drill_duration_ns < (uint64_t)w->interval_ms * 1000000ull)
		return fail(p, "[watch]: 'drill_duration' must not be shorter than 'interval'");
	if (w->workload_every_ns < (uint64_t)w->interval_ms * 1000000ull * (uint64_t)w->window)
		return fail(p, "[watch]: 'workload_every' must be at least 'window' intervals (%d x %d ms)", w->window,
			    w->interval_ms);
	if (w->threshold_for_ns > (uint64_t)w->interval_ms * 1000000ull * 2 * (uint64_t)w->window)
		return fail(p,
			    "[watch]: 'threshold_for' must be at most 2 x 'window' intervals (2 x %d x %d ms: what a "
			    "workload's ring keeps after its baseline); raise 'window' or shorten it",
			    w->window, w->interval_ms);
	if (w->downsample_ns &&
	    w->full_resolution_ns < (uint64_t)w->interval_ms * 1000000ull * (uint64_t)(w->baseline + 2 * w->window))
		return fail(p,
			    "[watch]: 'full_resolution' must be at least the intervals a change is decided on "
			    "(baseline + 2 x window = %d x %d ms)",
			    w->baseline + 2 * w->window, w->interval_ms);
	if (w->downsample_ns && w->downsample_ns < (uint64_t)w->interval_ms * 1000000ull * 2)
		return fail(p,
			    "[watch]: 'downsample' must be 'off' or at least 2 x 'interval' (2 x %d ms): a bucket "
			    "holds the intervals it merges",
			    w->interval_ms);
	return 0;
}

/* The section just read is complete? */
static int check_section(struct parser *p)
{
	return (p->entry && check_entry(p, p->entry)) || (p->rule && check_rule(p, p->rule)) ||
			       (p->watch && check_watch(p, &p->c->watch))
		       ? -1
		       : 0;
}

/* NAME of [KIND NAME]: letters, digits, '_', '-', '.', at most 63, not given twice. */
static int section_name(struct parser *p, const char *kind, const char *name)
{
	for (const char *q = name; *q; q++)
		if (!isalnum((unsigned char)*q) && !strchr("_-.", *q))
			return fail(p, "%s name '%.64s': use letters, digits, '_', '-' or '.'", kind, name);
	if (!name[0])
		return fail(p, "[%s] needs a name: [%s NAME]", kind, kind);
	if (strlen(name) > 63)
		return fail(p, "%s name longer than 63 characters", kind);
	for (int i = 0; i < p->c->nschedule && !strcmp(kind, "schedule"); i++)
		if (!strcmp(p->c->schedule[i].name, name))
			return fail(p, "[schedule %s] is defined twice", name);
	for (int i = 0; i < p->c->nautos && !strcmp(kind, "auto"); i++)
		if (!strcmp(p->c->autos[i].name, name))
			return fail(p, "[auto %s] is defined twice", name);
	return 0;
}

static int section(struct parser *p, char *s)
{
	char *end = strchr(s, ']'), *name;

	if (!end || td_trim(end + 1)[0])
		return fail(p, "a section header is [daemon], [exporter], [watch], [schedule NAME] or [auto NAME]");
	*end = '\0';
	s = td_trim(s + 1);
	if (check_section(p))
		return -1;
	p->entry = NULL;
	p->rule = NULL;
	p->seen = 0;
	p->in_section = true;
	p->exporter = !strcmp(s, "exporter");
	p->watch = !strcmp(s, "watch");
	if (p->watch && p->watch_seen)
		return fail(p, "[watch] is given twice: give its keys in one section");
	p->watch_seen |= p->watch;
	if (!strcmp(s, "daemon") || p->exporter || p->watch)
		return 0;
	if (!strncmp(s, "auto", 4) && (isspace((unsigned char)s[4]) || !s[4])) {
		name = td_trim(s + 4);
		if (section_name(p, "auto", name))
			return -1;
		p->rule = td_array_push(&p->c->autos, &p->c->nautos, sizeof(*p->rule));
		if (!p->rule || !(p->rule->name = strdup(name)))
			return fail(p, "out of memory");
		p->rule->max_sessions = 8;
		return 0;
	}
	if (strncmp(s, "schedule", 8) || !(isspace((unsigned char)s[8]) || !s[8]))
		return fail(p,
			    "unknown section [%.64s]: the sections are [daemon], [exporter], [watch], [schedule NAME] "
			    "and [auto NAME]",
			    s);
	name = td_trim(s + 8);
	if (section_name(p, "schedule", name))
		return -1;
	p->entry = td_array_push(&p->c->schedule, &p->c->nschedule, sizeof(*p->entry));
	if (!p->entry || !(p->entry->name = strdup(name)))
		return fail(p, "out of memory");
	p->entry->interval_ms = 1000;
	return 0;
}

static int assignment(struct parser *p, char *s)
{
	char *eq = strchr(s, '='), *key, *value, why[160];
	const struct key *keys = p->entry      ? schedule_keys
				 : p->rule     ? auto_keys
				 : p->exporter ? exporter_keys
				 : p->watch    ? watch_keys
					       : daemon_keys;
	size_t nkeys = p->entry	     ? NELEM(schedule_keys)
		       : p->rule     ? NELEM(auto_keys)
		       : p->exporter ? NELEM(exporter_keys)
		       : p->watch    ? NELEM(watch_keys)
				     : NELEM(daemon_keys);
	void *base = p->entry ? (void *)p->entry : p->rule ? (void *)p->rule : (void *)p->c;

	if (!p->in_section)
		return fail(p, "a setting before any section: start with [daemon], [exporter], [watch], "
			       "[schedule NAME] or [auto NAME]");
	if (!eq)
		return fail(p, "expected 'key = value'");
	*eq = '\0';
	key = td_trim(s);
	value = td_trim(eq + 1);
	for (size_t i = 0; i < nkeys; i++) {
		if (strcmp(keys[i].name, key))
			continue;
		if (p->seen & (1ull << i))
			return fail(p, "'%s' is set twice in this section", key);
		p->seen |= 1ull << i;
		if (!value[0])
			return fail(p, "'%s' has no value", key);
		if (keys[i].parse(value, (char *)base + keys[i].off, why, sizeof(why)))
			return fail(p, "bad %s '%.128s': %s", key, value, why);
		return 0;
	}
	{
		char known[320] = "";
		size_t used = 0;
		for (size_t i = 0; i < nkeys && used < sizeof(known); i++)
			used += (size_t)snprintf(known + used, sizeof(known) - used, "%s%s", i ? ", " : "",
						 keys[i].name);
		return fail(p, "unknown key '%.64s' in [%s]: the keys are %s", key,
			    p->entry	  ? "schedule"
			    : p->rule	  ? "auto"
			    : p->exporter ? "exporter"
			    : p->watch	  ? "watch"
					  : "daemon",
			    known);
	}
}

int td_config_parse(const char *text, const char *name, struct td_config *c, td_err *err)
{
	struct parser p = { .name = name, .err = err, .c = c };
	const char *s = text;

	err->msg[0] = '\0';
	while (*s) {
		const char *nl = strchr(s, '\n');
		size_t n = nl ? (size_t)(nl - s) : strlen(s);
		char *line = strndup(s, n), *t;
		int rc = 0;

		p.line++;
		if (!line)
			return fail(&p, "out of memory");
		t = td_trim(line);
		if (!rc && t[0] && t[0] != '#')
			rc = t[0] == '[' ? section(&p, t) : assignment(&p, t);
		free(line);
		if (rc)
			return -1;
		s += n + (nl ? 1 : 0);
	}
	return check_section(&p);
}

int td_config_load(const char *path, struct td_config *c, td_err *err)
{
	char *text;
	size_t len;
	int rc;

	td_config_defaults(c);
	if ((rc = td_slurp(path, &text, &len)) != 0) {
		td_err_set(err, "cannot read configuration '%s': %s: give an existing file with -c", path,
			   strerror(-rc));
		return -1;
	}
	if (strlen(text) != len) {
		td_err_set(err, "%s: a NUL byte in the file: is it text?", path);
		free(text);
		return -1;
	}
	rc = td_config_parse(text, path, c, err);
	free(text);
	return rc;
}
