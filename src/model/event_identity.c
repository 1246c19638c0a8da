/* event_identity: matching events to catalog aliases by encoding, and encoding the
 * event names perf stat prints. */
#include "event_identity.h"

#include <ctype.h>
#include "machine/libpfm.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "machine/pmu.h"

struct key {
	bool ok;
	uint32_t type;
	uint64_t config, config1;
	char pmu[64]; /* for a PMU absent here (type unknown) */
};

struct td_event_identity {
	int n;
	struct key *keys;
	char vendor[8]; /* intel, amd, arm, "" */
};

/* The kernel's generic hardware events (PERF_COUNT_HW_*, by index) as the
 * core event each vendor's perf driver programs for them; 0 = none.
 * From arch/x86/events/intel/core.c, arch/x86/events/amd/core.c and
 * drivers/perf/arm_pmuv3.c. */
static const uint64_t hw_intel[] = { 0x003c, 0x00c0, 0x4f2e, 0x412e, 0x00c4, 0x00c5, 0x013c, 0, 0, 0x0300 };
static const uint64_t hw_amd[] = { 0x0076, 0x00c0, 0x0460, 0x0964, 0x00c2, 0x00c3, 0, 0, 0, 0 };
static const uint64_t hw_arm[] = { 0x0011, 0x0008, 0x0004, 0x0003, 0x0021, 0x0010, 0x001d, 0, 0, 0 };

static void find_vendor(const char *model, char *vendor, size_t len)
{
	pfm_pmu_info_t info;

	vendor[0] = '\0';
	if (!model || !*model || td_pfm_init())
		return;
	for (int i = PFM_PMU_NONE; i < PFM_PMU_MAX; i++) {
		memset(&info, 0, sizeof(info));
		info.size = sizeof(info);
		if (td_pfm_get_pmu_info(i, &info) != PFM_SUCCESS || !info.name || strcmp(info.name, model))
			continue;
		if (info.desc && !strncmp(info.desc, "Intel", 5))
			snprintf(vendor, len, "intel");
		else if (info.desc && !strncmp(info.desc, "AMD", 3))
			snprintf(vendor, len, "amd");
		else if (info.desc && (!strncmp(info.desc, "ARM", 3) || !strncmp(info.desc, "Arm", 3)))
			snprintf(vendor, len, "arm");
		return;
	}
	/* a model this libpfm4 has no table for (Zen 5 on libpfm4 4.13): its name says the vendor */
	if (!strncmp(model, "amd64_", 6))
		snprintf(vendor, len, "amd");
}

static void key_of(const struct td_encoding *enc, struct key *k)
{
	memset(k, 0, sizeof(*k));
	k->ok = true;
	k->type = enc->attr.type;
	k->config = enc->attr.config;
	k->config1 = enc->attr.config1;
	if (enc->type_unknown)
		snprintf(k->pmu, sizeof(k->pmu), "%s", enc->pmu);
}

int td_event_identity_new(const struct td_catalog *cat, const char *model, struct td_event_identity **out, td_err *err)
{
	struct td_event_identity *m = calloc(1, sizeof(*m));

	if (!m || !(m->keys = calloc((size_t)(cat->nevents ? cat->nevents : 1), sizeof(*m->keys)))) {
		free(m);
		td_err_set(err, "out of memory");
		return -1;
	}
	m->n = cat->nevents;
	for (int i = 0; i < cat->nevents; i++) {
		struct td_encoding enc;
		td_err e;
		if (td_encode(cat->events[i].spec, model, false, &enc, &e) == 0)
			key_of(&enc, &m->keys[i]);
	}
	find_vendor(model, m->vendor, sizeof(m->vendor));
	*out = m;
	return 0;
}

void td_event_identity_free(struct td_event_identity *m)
{
	if (!m)
		return;
	free(m->keys);
	free(m);
}

static int find_exact(const struct td_event_identity *m, uint32_t type, uint64_t config, uint64_t config1)
{
	for (int i = 0; i < m->n; i++)
		if (m->keys[i].ok && m->keys[i].type == type && m->keys[i].config == config &&
		    m->keys[i].config1 == config1)
			return i;
	return -1;
}

static int find_intel_fixed(const struct td_event_identity *m, uint32_t type, uint64_t config, uint64_t config1);

int td_event_identity_find(const struct td_event_identity *m, uint32_t type, uint64_t config, uint64_t config1)
{
	int i = find_exact(m, type, config, config1);
	const uint64_t *map = NULL;

	if (i < 0)
		i = find_intel_fixed(m, type, config, config1);
	if (i >= 0 || type != PERF_TYPE_HARDWARE || config >= sizeof(hw_intel) / sizeof(hw_intel[0]))
		return i;
	if (!strcmp(m->vendor, "intel"))
		map = hw_intel;
	else if (!strcmp(m->vendor, "amd"))
		map = hw_amd;
	else if (!strcmp(m->vendor, "arm"))
		map = hw_arm;
	return map && map[config] ? find_exact(m, PERF_TYPE_RAW, map[config], 0) : -1;
}

/* Intel's fixed-counter pseudo encoding of INST_RETIRED.ANY (event 0x00,
 * umask 0x01) counts what event 0xc0 counts: the kernel puts both on fixed
 * counter 0. */
static int find_intel_fixed(const struct td_event_identity *m, uint32_t type, uint64_t config, uint64_t config1)
{
	if (strcmp(m->vendor, "intel") || type != PERF_TYPE_RAW || config1)
		return -1;
	if ((config & 0xffff) == 0x0100)
		return find_exact(m, type, (config & ~0xffffull) | 0x00c0, 0);
	if ((config & 0xffff) == 0x00c0)
		return find_exact(m, type, (config & ~0xffffull) | 0x0100, 0);
	return -1;
}

/* ---- perf's spellings -------------------------------------------------------- */

/* Split "name:mods" into name and ":mods" (mods may be empty). */
static void split_mods(const char *in, char *name, size_t nlen, char *mods, size_t mlen)
{
	const char *colon = strrchr(in, ':');

	mods[0] = '\0';
	if (colon && colon > in && colon[-1] != ':' && strspn(colon + 1, "ukhpPGHS") == strlen(colon + 1)) {
		snprintf(name, nlen, "%.*s", (int)(colon - in), in);
		snprintf(mods, mlen, "%s", colon);
	} else {
		snprintf(name, nlen, "%s", in);
	}
}

/* cpu_clk_unhalted.thread -> CPU_CLK_UNHALTED:THREAD (first dot) and
 * CPU_CLK_UNHALTED:THREAD_P-style (later dots become underscores). */
static void dotted_to_pfm(const char *in, char *out, size_t len)
{
	size_t i = 0;
	bool first = true;

	for (; *in && i + 1 < len; in++, i++) {
		if (*in == '.') {
			out[i] = first ? ':' : '_';
			first = false;
		} else {
			out[i] = (char)toupper((unsigned char)*in);
		}
	}
	out[i] = '\0';
}

static bool try_encode(const char *s, const char *model, struct td_encoding *enc)
{
	td_err e;

	return td_encode(s, model, true, enc, &e) == 0;
}

/* perf's JSON names and libpfm4's differ in places: try EVENT:UMASK, then
 * EVENT:UMASK_P (libpfm4's programmable-counter twin of a fixed-counter
 * event), then Skylake-era libpfm4's CPU_CLK_THREAD_UNHALTED spelling. */
static bool try_dotted(const char *name, const char *model, struct td_encoding *enc)
{
	char pfm[256], alt[300];
	static const char clk[] = "CPU_CLK_UNHALTED:";

	dotted_to_pfm(name, pfm, sizeof(pfm));
	if (try_encode(pfm, model, enc))
		return true;
	snprintf(alt, sizeof(alt), "%s_P", pfm);
	if (try_encode(alt, model, enc))
		return true;
	if (strncmp(pfm, clk, sizeof(clk) - 1))
		return false;
	snprintf(alt, sizeof(alt), "CPU_CLK_THREAD_UNHALTED:%s", pfm + sizeof(clk) - 1);
	if (try_encode(alt, model, enc))
		return true;
	snprintf(alt, sizeof(alt), "CPU_CLK_THREAD_UNHALTED:%s_P", pfm + sizeof(clk) - 1);
	return try_encode(alt, model, enc);
}

int td_perf_event_encode(const char *evstr, const char *model, struct td_encoding *enc, td_err *err)
{
	char name[256], mods[16], buf[320];

	if (strchr(evstr, '/') || (evstr[0] == 'r' && isxdigit((unsigned char)evstr[1])))
		if (td_encode(evstr, model, true, enc, err) == 0)
			return 0;
	if (strchr(evstr, '/'))
		return -1; /* a raw form that does not encode: err says why */
	split_mods(evstr, name, sizeof(name), mods, sizeof(mods));
	snprintf(buf, sizeof(buf), "cpu/%s/%s", name, mods);
	if (!strchr(name, ':') && !strchr(name, '.') && try_encode(buf, model, enc))
		return 0;
	if (try_encode(evstr, model, enc))
		return 0;
	if (strchr(name, '.') && try_dotted(name, model, enc))
		return 0;
	if (!strcmp(name, "dummy")) { /* perf's placeholder software event; libpfm4 has no name for it */
		memset(enc, 0, sizeof(*enc));
		enc->attr.type = PERF_TYPE_SOFTWARE;
		enc->attr.config = PERF_COUNT_SW_DUMMY;
		snprintf(enc->pmu, sizeof(enc->pmu), "perf");
		return 0;
	}
	snprintf(buf, sizeof(buf), "perf::%s", name);
	if (!strchr(name, ':') && try_encode(buf, NULL, enc))
		return 0;
	td_err_set(err,
		   "unknown event '%s': not a perf name, raw form (cpu/event=..,umask=../, rNNNN) or libpfm4 "
		   "event of PMU model '%s'",
		   evstr, model && *model ? model : "host");
	return -1;
}

int td_perf_event_encode_in(const struct td_catalog *cat, const char *evstr, const char *model, struct td_encoding *enc,
			    td_err *err)
{
	char name[256], mods[16], spec[300];
	const struct td_cat_event *e = cat ? td_catalog_perf_name(cat, evstr) : NULL;

	if (!e && cat) {
		split_mods(evstr, name, sizeof(name), mods, sizeof(mods));
		if ((e = td_catalog_perf_name(cat, name))) {
			snprintf(spec, sizeof(spec), "%s%s", e->spec, mods);
			return td_encode(spec, model, true, enc, err);
		}
	}
	if (e)
		return td_encode(e->spec, model, true, enc, err);
	return td_perf_event_encode(evstr, model, enc, err);
}
