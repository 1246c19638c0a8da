/* encode: event string -> perf_event_attr, through libpfm4 or perf's raw forms. */
#include "encode.h"
#include "host.h"
#include "libpfm.h"
#include "pmu.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <inttypes.h>
#include <perfmon/pfmlib_perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char sysfs_dir[4096]; /* "" until first used: the host's (host.h), or the one set */

void td_encode_set_sysfs_root(const char *dir)
{
	snprintf(sysfs_dir, sizeof(sysfs_dir), "%s", dir);
}

/* The event_source devices directory PMU formats are read from. */
static const char *sysfs_root(void)
{
	if (!sysfs_dir[0] && td_host_path(sysfs_dir, sizeof(sysfs_dir), "/sys/bus/event_source/devices") < 0)
		snprintf(sysfs_dir, sizeof(sysfs_dir), "/sys/bus/event_source/devices");
	return sysfs_dir;
}

/* Built-in formats used when the host has no such PMU in sysfs (our VMs, or
 * encoding another machine's events). From the kernel's x86 and Arm drivers;
 * the three config1 terms are Intel's extra registers (arch/x86/events/intel/
 * core.c: offcore_rsp is MSR_OFFCORE_RSP_0/1 for OCR events, ldlat the load-latency
 * threshold, frontend MSR_PEBS_FRONTEND 0x3F7), which the kernel writes from config1. */
struct builtin_format {
	const char *pmu, *term, *spec;
};
static const struct builtin_format builtin_formats[] = {
	{ "cpu", "event", "config:0-7,32-35" },
	{ "cpu", "umask", "config:8-15" },
	{ "cpu", "edge", "config:18" },
	{ "cpu", "pc", "config:19" },
	{ "cpu", "any", "config:21" },
	{ "cpu", "inv", "config:23" },
	{ "cpu", "cmask", "config:24-31" },
	{ "cpu", "in_tx", "config:32" },
	{ "cpu", "in_tx_cp", "config:33" },
	{ "cpu", "offcore_rsp", "config1:0-63" },
	{ "cpu", "ldlat", "config1:0-15" },
	{ "cpu", "frontend", "config1:0-23" },
	{ "armv8_pmuv3", "event", "config:0-15" },
	{ "msr", "event", "config:0-63" },
};

/* Named events of the x86 core PMU that perf writes as cpu/NAME/. */
static const struct builtin_format builtin_aliases[] = {
	{ "cpu", "slots", "event=0x00,umask=0x4" },
	{ "cpu", "topdown-retiring", "event=0x00,umask=0x80" },
	{ "cpu", "topdown-bad-spec", "event=0x00,umask=0x81" },
	{ "cpu", "topdown-fe-bound", "event=0x00,umask=0x82" },
	{ "cpu", "topdown-be-bound", "event=0x00,umask=0x83" },
	{ "cpu", "topdown-heavy-ops", "event=0x00,umask=0x84" },
	{ "cpu", "topdown-br-mispredict", "event=0x00,umask=0x85" },
	{ "cpu", "topdown-fetch-lat", "event=0x00,umask=0x86" },
	{ "cpu", "topdown-mem-bound", "event=0x00,umask=0x87" },
};

static bool pmu_base_is(const char *pmu, const char *base)
{
	size_t n = strlen(base);
	/* cpu_core/cpu_atom use the cpu format; armv8_pmuv3_0 the armv8 one */
	return !strncmp(pmu, base, n) && (pmu[n] == '\0' || pmu[n] == '_');
}

static int lookup_sysfs(const char *pmu, const char *dir, const char *name, char *out, size_t len)
{
	char path[PATH_MAX];

	if (snprintf(path, sizeof(path), "%s/%s/%s/%s", sysfs_root(), pmu, dir, name) >= (int)sizeof(path))
		return -1; /* no such file can exist */
	return td_read_file(path, out, len) < 0 ? -1 : 0;
}

/* builtin: use the built-in format even where sysfs has the PMU (another vendor's events). */
static int lookup_format(const char *pmu, const char *term, char *out, size_t len, bool builtin)
{
	char path[PATH_MAX];

	if (!builtin && snprintf(path, sizeof(path), "%s/%s", sysfs_root(), pmu) < (int)sizeof(path) &&
	    access(path, F_OK) == 0) /* the PMU exists in sysfs: its format files are the truth */
		return lookup_sysfs(pmu, "format", term, out, len);
	for (size_t i = 0; i < sizeof(builtin_formats) / sizeof(builtin_formats[0]); i++)
		if (pmu_base_is(pmu, builtin_formats[i].pmu) && !strcmp(term, builtin_formats[i].term)) {
			snprintf(out, len, "%s", builtin_formats[i].spec);
			return 0;
		}
	return -1;
}

static int lookup_alias(const char *pmu, const char *name, char *out, size_t len)
{
	if (lookup_sysfs(pmu, "events", name, out, len) == 0)
		return 0;
	for (size_t i = 0; i < sizeof(builtin_aliases) / sizeof(builtin_aliases[0]); i++)
		if (pmu_base_is(pmu, builtin_aliases[i].pmu) && !strcmp(name, builtin_aliases[i].term)) {
			snprintf(out, len, "%s", builtin_aliases[i].spec);
			return 0;
		}
	return -1;
}

/* Place value into the bit ranges of spec ("config:0-7,32-35"). */
static int apply_format(struct perf_event_attr *a, const char *spec, uint64_t value, td_err *err, const char *term)
{
	char buf[128];
	uint64_t *field;
	char *colon, *save = NULL;
	int shift = 0;

	snprintf(buf, sizeof(buf), "%s", spec);
	colon = strchr(buf, ':');
	if (!colon) {
		td_err_set(err, "malformed format '%s' for term '%s'", spec, term);
		return -1;
	}
	*colon = '\0';
	if (!strcmp(buf, "config"))
		field = (uint64_t *)&a->config;
	else if (!strcmp(buf, "config1"))
		field = (uint64_t *)&a->config1;
	else if (!strcmp(buf, "config2"))
		field = (uint64_t *)&a->config2;
	else {
		td_err_set(err, "unsupported format field '%s' for term '%s'", buf, term);
		return -1;
	}
	for (char *r = strtok_r(colon + 1, ",", &save); r; r = strtok_r(NULL, ",", &save)) {
		int lo, hi;
		if (sscanf(r, "%d-%d", &lo, &hi) != 2)
			hi = lo = atoi(r);
		if (lo < 0 || hi > 63 || hi < lo) {
			td_err_set(err, "malformed bit range '%s' for term '%s'", r, term);
			return -1;
		}
		int width = hi - lo + 1;
		uint64_t mask = width == 64 ? ~0ull : ((1ull << width) - 1);
		*field |= ((value >> shift) & mask) << lo;
		shift += width;
	}
	if (shift < 64 && (value >> shift)) {
		td_err_set(err, "value %#" PRIx64 " does not fit term '%s' (%d bits)", value, term, shift);
		return -1;
	}
	return 0;
}

static int parse_u64(const char *s, uint64_t *v)
{
	char *end;

	if (!*s)
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 0);
	return (errno || *end) ? -1 : 0;
}

/* Apply perf's :u / :k style modifiers. */
static int apply_modifiers(struct perf_event_attr *a, const char *mods, bool kernel, td_err *err, const char *evstr)
{
	bool u = false, k = false;

	for (const char *m = mods; m && *m; m++) {
		if (*m == 'u')
			u = true;
		else if (*m == 'k')
			k = true;
		else if (*m == 'p' || *m == 'P' || *m == 'G' || *m == 'H' || *m == 'S')
			continue; /* precision/guest/host/read-sample: not relevant to counting */
		else {
			td_err_set(err, "unknown modifier ':%c' in event '%s' (supported: u, k)", *m, evstr);
			return -1;
		}
	}
	if (!u && !k) {
		u = true;
		k = kernel;
	}
	a->exclude_user = !u;
	a->exclude_kernel = !k;
	a->exclude_hv = 1;
	return 0;
}

/* Intel's extra-register terms (config1): an Intel model's file encoded on a host whose cpu PMU
 * lacks them (an import of a Granite Rapids file on an AMD host) takes the built-in format. */
static bool intel_extra_term(const char *term)
{
	return !strcmp(term, "offcore_rsp") || !strcmp(term, "ldlat") || !strcmp(term, "frontend");
}

static int encode_libpfm(const char *evstr, const char *model, bool kernel, struct td_encoding *enc, td_err *err);

/* A perf JSON event name inside a core PMU's raw form (cpu/exe_activity.3_ports_util,umask=0x80/,
 * as toplev and perf's own metrics write a modified event): perf expands it into its terms in place
 * (perf_pmu__check_alias(), tools/perf/util/pmu.c:1607-1650, pmu_alias_terms() :719-742) and then
 * ORs every term into the config like any other (below). Its terms are the event's perfmon encoding,
 * which libpfm4 gives for NAME:UMASK (the first dot; later dots become underscores), or for the
 * NAME:UMASK_P twin of a fixed-counter event. Returns 0 with the encoding, -1 if libpfm4 knows none. */
static int json_event(const char *name, const char *model, struct td_encoding *enc)
{
	char pfm[256];
	bool first = true;
	size_t i = 0;
	td_err e;

	for (const char *c = name; *c && i + 3 < sizeof(pfm); c++, i++) {
		pfm[i] = *c == '.' ? (first ? ':' : '_') : (char)toupper((unsigned char)*c);
		first &= *c != '.';
	}
	pfm[i] = '\0';
	if (first)
		return -1; /* no dot: not a perfmon EVENT.UMASK name */
	memset(enc, 0, sizeof(*enc));
	if (encode_libpfm(pfm, model, false, enc, &e) == 0 && enc->attr.type == PERF_TYPE_RAW)
		return 0;
	snprintf(pfm + i, sizeof(pfm) - i, "_P");
	memset(enc, 0, sizeof(*enc));
	return encode_libpfm(pfm, model, false, enc, &e) == 0 && enc->attr.type == PERF_TYPE_RAW ? 0 : -1;
}

/* builtin: the built-in formats only; other_intel_model: the file is an Intel model's other than
 * the host's sysfs may describe, so a missing extra-register term falls back to the built-in one.
 * A term given twice (umask=0x8,umask=0x80), or given by an event name and again (NAME,umask=0x80),
 * means what perf makes of it: perf ORs each term's bits into the field and clears none
 * (pmu_format_value(), tools/perf/util/pmu.c:1282-1297, called with zero = false:
 * perf_pmu__config(), pmu.c:1512, zero only for a PMU with perf_event_attr_init_default, which on x86
 * only intel_pt sets, tools/perf/arch/x86/util/pmu.c:27; linux 6.12.117): umask 0x8 then 0x80 is 0x88. */
static int encode_terms(const char *pmu, char *terms, struct perf_event_attr *a, td_err *err, const char *evstr,
			int depth, bool builtin, bool other_intel_model, const char *model)
{
	char *save = NULL;

	for (char *t = strtok_r(terms, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		char fmt[128], alias[256];
		struct td_encoding named;
		char *eq = strchr(t, '=');
		uint64_t v = 1;
		t = td_trim(t);
		if (eq) {
			*eq = '\0';
			if (parse_u64(td_trim(eq + 1), &v)) {
				td_err_set(err, "bad value '%s' for '%s' in event '%s'", eq + 1, t, evstr);
				return -1;
			}
		}
		/* perf's own terms, valid for every PMU: config, config1, config2 set the attr's field
		 * (config_attr(), tools/perf/util/parse-events.c:911-923, lexer parse-events.l:310-313;
		 * linux 6.12.117); toplev writes an offcore event's MSR value as config1= */
		if (eq && (!strcmp(t, "config") || !strcmp(t, "config1") || !strcmp(t, "config2")) &&
		    lookup_format(pmu, t, fmt, sizeof(fmt), builtin) != 0) {
			*(t[6] == '1' ? &a->config1 : t[6] == '2' ? &a->config2 : &a->config) = v;
			continue;
		}
		if (lookup_format(pmu, t, fmt, sizeof(fmt), builtin) == 0 ||
		    (other_intel_model && intel_extra_term(t) && lookup_format(pmu, t, fmt, sizeof(fmt), true) == 0)) {
			if (apply_format(a, fmt, v, err, t))
				return -1;
		} else if (!eq && depth == 0 && lookup_alias(pmu, t, alias, sizeof(alias)) == 0) {
			if (encode_terms(pmu, alias, a, err, evstr, 1, builtin, other_intel_model, model))
				return -1;
		} else if (!eq && depth == 0 && pmu_base_is(pmu, "cpu") && json_event(t, model, &named) == 0) {
			a->config |= named.attr.config;
			a->config1 |= named.attr.config1;
		} else {
			td_err_set(err, "unknown term '%s' for PMU '%s' in event '%s'", t, pmu, evstr);
			return -1;
		}
	}
	return 0;
}

/* A raw cpu/.../ form of an AMD model's file is encoded with AMD's kernel format, which the
 * built-in x86 one is (event config:0-7,32-35, ...), whatever the host: an Intel host's
 * sysfs cpu format (event config:0-7) cannot hold AMD's event codes above 0xff. */
static bool amd_model(const char *model)
{
	return model && !strncmp(model, "amd64_", 6);
}

static int encode_raw_form(const char *evstr, const char *model, bool kernel, struct td_encoding *enc, td_err *err)
{
	char buf[512];
	char *slash1, *slash2, *mods = NULL;
	long type;
	char path[PATH_MAX];

	if (snprintf(buf, sizeof(buf), "%s", evstr) >= (int)sizeof(buf)) {
		td_err_set(err, "raw event '%.60s...' is longer than %zu characters: no PMU takes such an event", evstr,
			   sizeof(buf) - 1);
		return -1;
	}
	slash1 = strchr(buf, '/');
	slash2 = slash1 ? strchr(slash1 + 1, '/') : NULL;
	if (!slash1 || !slash2 || slash1 == buf) {
		td_err_set(err, "malformed raw event '%s' (expected PMU/term=value,.../)", evstr);
		return -1;
	}
	*slash1 = *slash2 = '\0';
	if (slash2[1] == ':')
		mods = slash2 + 2;
	else if (slash2[1]) {
		td_err_set(err, "unexpected text after '/' in event '%s'", evstr);
		return -1;
	}
	if (snprintf(enc->pmu, sizeof(enc->pmu), "%s", buf) >= (int)sizeof(enc->pmu)) {
		td_err_set(err, "PMU name '%.60s' in event '%.60s' is longer than %zu characters: no such PMU", buf,
			   evstr, sizeof(enc->pmu) - 1);
		return -1;
	}
	if (snprintf(path, sizeof(path), "%s/%s/type", sysfs_root(), buf) < (int)sizeof(path) &&
	    td_read_long(path, &type) == 0)
		enc->attr.type = (uint32_t)type;
	else if ((pmu_base_is(buf, "cpu") && strcmp(buf, "cpu_atom")) || pmu_base_is(buf, "armv8_pmuv3"))
		enc->attr.type = PERF_TYPE_RAW; /* cpu, and a hybrid CPU's cpu_core: the kernel registers it as RAW */
	else if (!strcmp(buf, "msr") || !strcmp(buf, "cpu_atom")) {
		/* a dynamic PMU this host lacks (msr; a hybrid CPU's cpu_atom, which the kernel registers
		 * with a dynamic type: arch/x86/events/core.c init_hw_perf_events): encodable, but its
		 * type is only known where it exists */
		enc->attr.type = TD_TYPE_UNKNOWN;
		enc->type_unknown = true;
	} else {
		td_err_set(err, "unknown PMU '%s' in event '%s' (not in %s)", buf, evstr, sysfs_root());
		return -1;
	}
	bool cpu_pmu = pmu_base_is(buf, "cpu");
	if (encode_terms(buf, slash1 + 1, &enc->attr, err, evstr, 0, amd_model(model) && cpu_pmu,
			 model && *model && !amd_model(model) && cpu_pmu, model))
		return -1;
	return apply_modifiers(&enc->attr, mods, kernel, err, evstr);
}

static int encode_rnnnn(const char *evstr, bool kernel, struct td_encoding *enc, td_err *err)
{
	char buf[64], *colon, *end;

	snprintf(buf, sizeof(buf), "%s", evstr + 1);
	colon = strchr(buf, ':');
	if (colon)
		*colon = '\0';
	errno = 0;
	enc->attr.config = strtoull(buf, &end, 16);
	if (errno || *end || !buf[0]) {
		td_err_set(err, "malformed raw event '%s' (expected rHEX)", evstr);
		return -1;
	}
	enc->attr.type = PERF_TYPE_RAW;
	snprintf(enc->pmu, sizeof(enc->pmu), "cpu");
	return apply_modifiers(&enc->attr, colon ? colon + 1 : NULL, kernel, err, evstr);
}

static bool is_rnnnn(const char *s)
{
	if (s[0] != 'r' || !isxdigit((unsigned char)s[1]))
		return false;
	for (s++; *s && *s != ':'; s++)
		if (!isxdigit((unsigned char)*s))
			return false;
	return true;
}

static int encode_libpfm(const char *evstr, const char *model, bool kernel, struct td_encoding *enc, td_err *err)
{
	char full[512];
	pfm_perf_encode_arg_t arg;
	pfm_event_info_t einfo;
	pfm_pmu_info_t pinfo;
	int ret;

	if (td_pfm_init()) {
		td_err_set(err, "%s", td_pfm_init_error());
		return -1;
	}
	if (model && *model && !strstr(evstr, "::"))
		snprintf(full, sizeof(full), "%s::%s", model, evstr);
	else
		snprintf(full, sizeof(full), "%s", evstr);
	memset(&arg, 0, sizeof(arg));
	arg.size = sizeof(arg);
	arg.attr = &enc->attr;
	ret = td_pfm_get_os_event_encoding(full, kernel ? (PFM_PLM0 | PFM_PLM3) : PFM_PLM3, PFM_OS_PERF_EVENT_EXT,
					   &arg);
	if (ret == PFM_ERR_NOTFOUND && (!model || !*model) && !strstr(evstr, "::") && td_pfm_host_model()) {
		/* not in the PMUs libpfm4 found active (perf's generic ones, for a CPU it does not
		 * know): the host's model, as if libpfm4 had found it active too */
		snprintf(full, sizeof(full), "%s::%s", td_pfm_host_model(), evstr);
		memset(&arg, 0, sizeof(arg));
		arg.size = sizeof(arg);
		arg.attr = &enc->attr;
		ret = td_pfm_get_os_event_encoding(full, kernel ? (PFM_PLM0 | PFM_PLM3) : PFM_PLM3,
						   PFM_OS_PERF_EVENT_EXT, &arg);
	}
	if (ret != PFM_SUCCESS) {
		td_err_set(err, "cannot encode event '%s' with libpfm4: %s", full, td_pfm_strerror(ret));
		return -1;
	}
	memset(&einfo, 0, sizeof(einfo));
	einfo.size = sizeof(einfo);
	memset(&pinfo, 0, sizeof(pinfo));
	pinfo.size = sizeof(pinfo);
	if (td_pfm_get_event_info(arg.idx, PFM_OS_NONE, &einfo) == PFM_SUCCESS &&
	    td_pfm_get_pmu_info(einfo.pmu, &pinfo) == PFM_SUCCESS)
		snprintf(enc->pmu, sizeof(enc->pmu), "%s", pinfo.name);
	enc->attr.size = sizeof(enc->attr);
	return 0;
}

int td_encode(const char *evstr, const char *model, bool kernel, struct td_encoding *enc, td_err *err)
{
	memset(enc, 0, sizeof(*enc));
	enc->attr.size = sizeof(enc->attr);
	if (strchr(evstr, '/')) {
		enc->raw_form = true;
		return encode_raw_form(evstr, model, kernel, enc, err);
	}
	if (is_rnnnn(evstr)) {
		enc->raw_form = true;
		return encode_rnnnn(evstr, kernel, enc, err);
	}
	return encode_libpfm(evstr, model, kernel, enc, err);
}
