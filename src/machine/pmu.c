/* pmu: detect what this host can measure (CPU, libpfm4 model, kernel PMU,
 * counters, hypervisor, watchdog, paranoid level, capabilities, BPF) and
 * decide the degradation rung with a reason a newcomer understands. */
#include "pmu.h"
#include "host.h"
#include "libpfm.h"
#include "base/json.h"
#include "base/util.h"

#include <dirent.h>
#include <errno.h>
#include <linux/capability.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#ifndef CAP_PERFMON
#define CAP_PERFMON 38
#endif
#ifndef CAP_BPF
#define CAP_BPF 39
#endif

const char *td_rung_name(enum td_rung r)
{
	switch (r) {
	case TD_RUNG_NONE:
		return "none";
	case TD_RUNG_SOFTWARE:
		return "software-only";
	case TD_RUNG_IPC:
		return "ipc-only";
	case TD_RUNG_PARTIAL_TREE:
		return "partial-tree";
	case TD_RUNG_FULL_TREE:
		return "full-tree";
	}
	return "?";
}

struct uarch_row {
	const char *vendor;
	int family, model_lo, model_hi, stepping_lo;
	const char *name;
	const char *pmu_model; /* for a CPU libpfm4 4.13 does not know: the PMU model an events file serves */
};

/* Names users know; the first matching row wins. AMD family 1Ah: Zen 5 and
 * Zen 6 model ranges as Linux arch/x86/kernel/cpu/amd.c (bsp_init_amd) sets
 * X86_FEATURE_ZEN5 / ZEN6; Zen 5's PMU model name is upstream libpfm4's. */
static const struct uarch_row uarch_table[] = {
	{ "GenuineIntel", 6, 0x4e, 0x4e, 0, "Skylake", NULL },
	{ "GenuineIntel", 6, 0x5e, 0x5e, 0, "Skylake", NULL },
	{ "GenuineIntel", 6, 0x8e, 0x8e, 0, "Kaby Lake / Coffee Lake", NULL },
	{ "GenuineIntel", 6, 0x9e, 0x9e, 0, "Kaby Lake / Coffee Lake", NULL },
	/* family 6 model 0x55 is Skylake-SP and Cascade Lake: the stepping decides (perfmon's mapfile:
	 * GenuineIntel-6-55-[01234] SKX, -[56789ABCDEF] CLX; libpfm4 likewise names skx and clx; Linux has one
	 * case, INTEL_SKYLAKE_X, its stepping only choosing microcode quirks). Skylake-SP: intel-skx.td,
	 * generated from perfmon's SKX files (TMA 5.01); Cascade Lake: intel-clx.td, from perfmon's CLX files */
	{ "GenuineIntel", 6, 0x55, 0x55, 5, "Cascade Lake", "clx" },
	{ "GenuineIntel", 6, 0x55, 0x55, 0, "Skylake-SP", "skx" },
	{ "GenuineIntel", 6, 0x7d, 0x7e, 0, "Ice Lake", NULL },
	/* Broadwell-X (perfmon mapfile GenuineIntel-6-4F BDX; 6-56 is BDW-DE, whose core events perfmon
	 * publishes without metrics, with BDX's encodings for every event intel-bdx.td reads but False_Sharing's
	 * two OFFCORE_RESPONSE ones; toplev serves 79 and 86 with its bdx model): intel-bdx.td, generated from
	 * perfmon's BDX files (TMA 5.01), raw encodings; libpfm4 names them bdw_ep */
	{ "GenuineIntel", 6, 0x4f, 0x4f, 0, "Broadwell-X", "bdx" },
	{ "GenuineIntel", 6, 0x56, 0x56, 0, "Broadwell-DE", "bdx" },
	/* Ice Lake-SP (perfmon mapfile GenuineIntel-6-6A/-6C; Linux INTEL_ICELAKE_X, _D): intel-icx.td, generated
	 * from perfmon's ICX files (TMA 5.1, tools/gen-td.py), raw encodings, whether or not libpfm4 knows it (icx) */
	{ "GenuineIntel", 6, 0x6a, 0x6c, 0, "Ice Lake-SP", "icx" },
	/* Tiger Lake (perfmon mapfile GenuineIntel-6-8C/-8D): libpfm4 4.13 has no Tiger Lake name; without
	 * its model, intel-tgl.td (generated from perfmon's TGL files, TMA 5.1) serves it with raw encodings */
	{ "GenuineIntel", 6, 0x8c, 0x8d, 0, "Tiger Lake", "tgl" },
	{ "GenuineIntel", 6, 0x8f, 0x8f, 0, "Sapphire Rapids", NULL },
	/* Emerald Rapids (perfmon mapfile GenuineIntel-6-CF; Linux INTEL_EMERALDRAPIDS_X): libpfm4 4.13
	 * has no table; intel-emr.td, generated from perfmon's EMR files (TMA 5.1, tools/gen-td.py), is raw.
	 * Granite Rapids (perfmon mapfile GenuineIntel-6-AD/-AE): libpfm4 4.13 has no table, intel-gnr.td is raw. */
	{ "GenuineIntel", 6, 0xcf, 0xcf, 0, "Emerald Rapids", "emr" },
	{ "GenuineIntel", 6, 0xad, 0xae, 0, "Granite Rapids", "gnr" },
	/* Sierra Forest (Crestmont E-cores, perfmon mapfile GenuineIntel-6-AF; Linux INTEL_ATOM_CRESTMONT_X):
	 * libpfm4 4.13 has no table, intel-srf.td (generated from perfmon, tools/gen-td.py) is raw */
	{ "GenuineIntel", 6, 0xaf, 0xaf, 0, "Sierra Forest", "srf" },
	{ "GenuineIntel", 6, 0x97, 0x97, 0, "Alder Lake (hybrid)", "adl_glc" },
	{ "GenuineIntel", 6, 0x9a, 0x9a, 0, "Alder Lake (hybrid)", "adl_glc" },
	{ "GenuineIntel", 6, 0xb7, 0xb7, 0, "Raptor Lake (hybrid)", "adl_glc" },
	{ "GenuineIntel", 6, 0xba, 0xba, 0, "Raptor Lake (hybrid)", "adl_glc" },
	{ "GenuineIntel", 6, 0xbf, 0xbf, 0, "Raptor Lake (hybrid)", "adl_glc" },
	/* Meteor Lake (perfmon mapfile GenuineIntel-6-AA/-AC; Linux INTEL_METEORLAKE, _L): hybrid, its
	 * P-cores' file names the CPU (the E-cores': hybrid_table) */
	{ "GenuineIntel", 6, 0xaa, 0xaa, 0, "Meteor Lake (hybrid)", "mtl_rwc" },
	{ "GenuineIntel", 6, 0xac, 0xac, 0, "Meteor Lake (hybrid)", "mtl_rwc" },
	{ "AuthenticAMD", 0x17, 0x00, 0x2f, 0, "Zen / Zen+", NULL },
	{ "AuthenticAMD", 0x17, 0x30, 0xff, 0, "Zen 2", NULL },
	{ "AuthenticAMD", 0x19, 0x00, 0x0f, 0, "Zen 3", NULL },
	{ "AuthenticAMD", 0x19, 0x20, 0x5f, 0, "Zen 3", NULL },
	{ "AuthenticAMD", 0x19, 0x10, 0x1f, 0, "Zen 4", NULL },
	{ "AuthenticAMD", 0x19, 0x60, 0xaf, 0, "Zen 4", NULL },
	{ "AuthenticAMD", 0x1a, 0x00, 0x2f, 0, "Zen 5", "amd64_fam1ah_zen5" },
	{ "AuthenticAMD", 0x1a, 0x40, 0x4f, 0, "Zen 5", "amd64_fam1ah_zen5" },
	{ "AuthenticAMD", 0x1a, 0x60, 0x7f, 0, "Zen 5", "amd64_fam1ah_zen5" },
	{ "AuthenticAMD", 0x1a, 0x50, 0x5f, 0, "Zen 6", NULL },
	{ "AuthenticAMD", 0x1a, 0x80, 0xaf, 0, "Zen 6", NULL },
	{ "AuthenticAMD", 0x1a, 0xc0, 0xcf, 0, "Zen 6", NULL },
	/* Arm: /proc/cpuinfo's CPU implementer names the vendor, family stays 0 and the
	 * model is the MIDR part number (Arm's telemetry specifications, product_configuration
	 * part_num); the PMU model names are libpfm4 4.13's (pfmlib_arm_armv8.c, armv9.c) */
	{ "ARM (implementer 0x41)", 0, 0xd0c, 0xd0c, 0, "Neoverse N1", "arm_n1" },
	{ "ARM (implementer 0x41)", 0, 0xd40, 0xd40, 0, "Neoverse V1", "arm_v1" },
	{ "ARM (implementer 0x41)", 0, 0xd49, 0xd49, 0, "Neoverse N2", "arm_n2" },
	{ "ARM (implementer 0x41)", 0, 0xd4f, 0xd4f, 0, "Neoverse V2", "arm_v2" },
};

/* The core PMUs of hybrid CPUs and the PMU model each one's events file serves: Linux perf
 * maps GenuineIntel-6-(97|9A|B7|BA|BF) to its alderlake tables (pmu-events/arch/x86/mapfile.csv),
 * whose events carry "Unit": "cpu_core" (Golden Cove / Raptor Cove) or "cpu_atom" (Gracemont);
 * the model names are upstream libpfm4's (adl_glc, adl_grt), which 4.13 does not have.
 * Meteor Lake: perfmon's mapfile gives GenuineIntel-6-AA/-AC core type 0x40 (Core) the Redwood Cove files,
 * 0x20 (Atom) the Crestmont ones; the kernel's cpu_core and cpu_atom PMUs (intel/core.c, intel_pmu_init()
 * INTEL_METEORLAKE{,_L}: hybrid_big_small); intel-mtl-rwc.td and intel-mtl-cmt.td (generated from perfmon). */
static const struct hybrid_row {
	const char *vendor;
	int family, model;
	const char *pmu, *pmu_model;
} hybrid_table[] = {
	{ "GenuineIntel", 6, 0x97, "cpu_core", "adl_glc" }, { "GenuineIntel", 6, 0x97, "cpu_atom", "adl_grt" },
	{ "GenuineIntel", 6, 0x9a, "cpu_core", "adl_glc" }, { "GenuineIntel", 6, 0x9a, "cpu_atom", "adl_grt" },
	{ "GenuineIntel", 6, 0xb7, "cpu_core", "adl_glc" }, { "GenuineIntel", 6, 0xb7, "cpu_atom", "adl_grt" },
	{ "GenuineIntel", 6, 0xba, "cpu_core", "adl_glc" }, { "GenuineIntel", 6, 0xba, "cpu_atom", "adl_grt" },
	{ "GenuineIntel", 6, 0xbf, "cpu_core", "adl_glc" }, { "GenuineIntel", 6, 0xbf, "cpu_atom", "adl_grt" },
	{ "GenuineIntel", 6, 0xaa, "cpu_core", "mtl_rwc" }, { "GenuineIntel", 6, 0xaa, "cpu_atom", "mtl_cmt" },
	{ "GenuineIntel", 6, 0xac, "cpu_core", "mtl_rwc" }, { "GenuineIntel", 6, 0xac, "cpu_atom", "mtl_cmt" },
};

const char *td_hybrid_pmu_model(const char *vendor, int family, int model, const char *pmu)
{
	for (size_t i = 0; i < sizeof(hybrid_table) / sizeof(hybrid_table[0]); i++) {
		const struct hybrid_row *r = &hybrid_table[i];
		if (!strcmp(r->vendor, vendor) && r->family == family && r->model == model && !strcmp(r->pmu, pmu))
			return r->pmu_model;
	}
	return NULL;
}

const char *td_hybrid_pmu_of_model(const char *model)
{
	for (size_t i = 0; model && i < sizeof(hybrid_table) / sizeof(hybrid_table[0]); i++)
		if (!strcmp(hybrid_table[i].pmu_model, model))
			return hybrid_table[i].pmu;
	return NULL;
}

static const struct uarch_row *uarch_row(const char *vendor, int family, int model, int stepping)
{
	for (size_t i = 0; i < sizeof(uarch_table) / sizeof(uarch_table[0]); i++) {
		const struct uarch_row *r = &uarch_table[i];
		if (!strcmp(r->vendor, vendor) && r->family == family && model >= r->model_lo && model <= r->model_hi &&
		    stepping >= r->stepping_lo)
			return r;
	}
	return NULL;
}

const char *td_uarch_name(const char *vendor, int family, int model, int stepping)
{
	const struct uarch_row *r = uarch_row(vendor, family, model, stepping);

	return r ? r->name : NULL;
}

const char *td_cpuid_pmu_model(const char *vendor, int family, int model, int stepping)
{
	const struct uarch_row *r = uarch_row(vendor, family, model, stepping);

	return r ? r->pmu_model : NULL;
}

const char *td_model_source_name(enum td_model_source s)
{
	switch (s) {
	case TD_MODEL_NONE:
		return "none";
	case TD_MODEL_LIBPFM:
		return "libpfm4";
	case TD_MODEL_CPUID:
		return "cpuid";
	}
	return "?";
}

int td_cpu_id_words(const struct td_caps *c, char *buf, size_t len)
{
	if (!strncmp(c->vendor, "ARM", 3))
		return snprintf(buf, len, "MIDR (%s part %#x)", c->vendor, c->model);
	return snprintf(buf, len, "CPUID (%s family %#x model %#x)", c->vendor, c->family, c->model);
}

bool td_pfm_has_model(const char *model)
{
	pfm_pmu_info_t info;

	if (!model || !*model || td_pfm_init() != 0)
		return false;
	for (int i = 0; i < PFM_PMU_MAX; i++) {
		memset(&info, 0, sizeof(info));
		info.size = sizeof(info);
		if (td_pfm_get_pmu_info(i, &info) == PFM_SUCCESS && info.name && !strcmp(info.name, model))
			return true;
	}
	return false;
}

/* libpfm4 named no model: the CPUID table may (raw-encoded events files). */
static void detect_cpuid_model(struct td_caps *c)
{
	const char *m;

	td_pfm_set_host_model(NULL);
	if (c->pfm_model[0]) {
		c->model_source = TD_MODEL_LIBPFM;
		return;
	}
	if (!(m = td_cpuid_pmu_model(c->vendor, c->family, c->model, c->stepping)))
		return;
	snprintf(c->pfm_model, sizeof(c->pfm_model), "%s", m);
	c->model_source = TD_MODEL_CPUID;
	/* libpfm4 finds no active PMU for this CPU: its names resolve in the CPUID model's tables */
	if (td_pfm_has_model(m))
		td_pfm_set_host_model(m);
}

/* Read a host file holding one integer (host.h's root applies). */
static int host_long(const char *path, long *v)
{
	char full[4096];

	return td_host_path(full, sizeof(full), path) < 0 ? -ENAMETOOLONG : td_read_long(full, v);
}

static void detect_cpuinfo(struct td_caps *c)
{
	char *text = NULL;
	char *save = NULL;
	char path[4096];

	if (td_host_path(path, sizeof(path), "/proc/cpuinfo") < 0 || td_slurp(path, &text, NULL) < 0)
		return;
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *colon = strchr(line, ':');
		if (!colon)
			continue;
		*colon = '\0';
		char *key = td_trim(line), *val = td_trim(colon + 1);
		if (!strcmp(key, "processor") && strcmp(val, "0"))
			break; /* the first CPU describes the package */
		if (!strcmp(key, "vendor_id"))
			snprintf(c->vendor, sizeof(c->vendor), "%s", val);
		else if (!strcmp(key, "cpu family"))
			c->family = atoi(val);
		else if (!strcmp(key, "model"))
			c->model = atoi(val);
		else if (!strcmp(key, "stepping"))
			c->stepping = atoi(val);
		else if (!strcmp(key, "model name"))
			snprintf(c->cpu_name, sizeof(c->cpu_name), "%s", val);
		else if (!strcmp(key, "flags") && strstr(val, " hypervisor"))
			c->hypervisor = true;
		else if (!strcmp(key, "CPU implementer") && !c->vendor[0])
			snprintf(c->vendor, sizeof(c->vendor), "ARM (implementer %s)", val);
		else if (!strcmp(key, "CPU part"))
			c->model = (int)strtol(val, NULL, 16); /* the MIDR part number, "0xd49" */
	}
	free(text);
}

/* The hypervisor's CPUID signature (leaf 0x40000000: EBX, ECX, EDX) into
 * sig[13]; a recorded host tree keeps it in the file cpuid/hypervisor. */
static bool hypervisor_signature(char *sig)
{
	if (td_host_is_fixture()) {
		char path[4096];
		return td_host_path(path, sizeof(path), "/cpuid/hypervisor") == 0 && td_read_file(path, sig, 13) >= 0;
	}
#if defined(__x86_64__) || defined(__i386__)
	unsigned int a, b, cc, d;
	__cpuid(0x40000000, a, b, cc, d);
	memcpy(sig, &b, 4);
	memcpy(sig + 4, &cc, 4);
	memcpy(sig + 8, &d, 4);
	sig[12] = '\0';
	return true;
#else
	return false;
#endif
}

static void detect_hypervisor_name(struct td_caps *c)
{
	char sig[13];

	if (!c->hypervisor)
		return;
	if (!hypervisor_signature(sig)) {
		snprintf(c->hypervisor_name, sizeof(c->hypervisor_name), "unknown");
		return;
	}
	static const struct {
		const char *sig, *name;
	} known[] = {
		{ "KVMKVMKVM", "KVM" },		 { "Microsoft Hv", "Hyper-V" },	 { "VMwareVMware", "VMware" },
		{ "XenVMMXenVMM", "Xen" },	 { "TCGTCGTCGTCG", "QEMU TCG" }, { "ACRNACRNACRN", "ACRN" },
		{ " lrpepyh  vr", "Parallels" }, { "bhyve bhyve ", "bhyve" },
	};
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (!strncmp(sig, known[i].sig, strlen(known[i].sig))) {
			snprintf(c->hypervisor_name, sizeof(c->hypervisor_name), "%s", known[i].name);
			return;
		}
	snprintf(c->hypervisor_name, sizeof(c->hypervisor_name), "unknown");
}

static void detect_libpfm(struct td_caps *c)
{
	pfm_pmu_info_t info;
	const char *forced = td_host_forced_pfm_model();

	c->gp_counters = c->fixed_counters = -1;
	if (forced && !strcmp(forced, "none"))
		return; /* a CPU libpfm4 does not know */
	if (td_pfm_init() != 0) {
		if (forced) /* the model's name still chooses the events file */
			snprintf(c->pfm_model, sizeof(c->pfm_model), "%s", forced);
		return;
	}
	if (forced)
		snprintf(c->pfm_model, sizeof(c->pfm_model), "%s", forced);
	for (int i = 0; i < PFM_PMU_MAX; i++) {
		memset(&info, 0, sizeof(info));
		info.size = sizeof(info);
		if (td_pfm_get_pmu_info(i, &info) != PFM_SUCCESS)
			continue;
		if (forced) {
			/* a forced model: its tables (encodable though inactive here) give the counters;
			 * a model this libpfm4 has no table for (Arm on x86) keeps them unknown */
			if (!strcmp(info.name, forced)) {
				snprintf(c->pfm_desc, sizeof(c->pfm_desc), "%s", info.desc ? info.desc : "");
				c->gp_counters = info.num_cntrs;
				c->fixed_counters = info.num_fixed_cntrs;
				break;
			}
			continue;
		}
		if (!info.is_present)
			continue;
		if (info.type != PFM_PMU_TYPE_CORE)
			continue;
		/* perf and perf_raw are the generic PMUs, present everywhere */
		if (!strcmp(info.name, "perf") || !strcmp(info.name, "perf_raw"))
			continue;
		snprintf(c->pfm_model, sizeof(c->pfm_model), "%s", info.name);
		snprintf(c->pfm_desc, sizeof(c->pfm_desc), "%s", info.desc ? info.desc : "");
		c->gp_counters = info.num_cntrs;
		c->fixed_counters = info.num_fixed_cntrs;
		break;
	}
}

static void detect_kernel_pmu(struct td_caps *c)
{
	static const char *const names[] = { "cpu", "cpu_core", "cpu_atom" };
	char path[4096];
	DIR *d;
	struct dirent *de;

	char rel[128];

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(rel, sizeof(rel), "/sys/bus/event_source/devices/%s", names[i]);
		if (td_host_path(path, sizeof(path), rel) == 0 && access(path, F_OK) == 0) {
			snprintf(c->kernel_pmu, sizeof(c->kernel_pmu), "%s", names[i]);
			return;
		}
	}
	if (td_host_path(path, sizeof(path), "/sys/bus/event_source/devices") < 0)
		return;
	d = opendir(path);
	if (!d)
		return;
	while ((de = readdir(d))) {
		if (!strncmp(de->d_name, "armv8", 5) || !strncmp(de->d_name, "armv9", 5)) {
			snprintf(c->kernel_pmu, sizeof(c->kernel_pmu), "%s", de->d_name);
			break;
		}
	}
	closedir(d);
}

/* A hybrid CPU's core PMUs: both cpu_core and cpu_atom in sysfs, each with its type, its
 * CPUs (sysfs cpus file) and the PMU model CPUID names for it. */
static void detect_core_pmus(struct td_caps *c)
{
	static const char *const names[] = { "cpu_core", "cpu_atom" };
	char rel[128], path[4096];

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(rel, sizeof(rel), "/sys/bus/event_source/devices/%s", names[i]);
		if (td_host_path(path, sizeof(path), rel) < 0 || access(path, F_OK) != 0)
			return; /* not hybrid: one core PMU */
	}
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct td_core_pmu *p = &c->core_pmus[i];
		const char *m = td_hybrid_pmu_model(c->vendor, c->family, c->model, names[i]);
		int *cpus = NULL;
		char *list = NULL;
		long v;
		snprintf(p->name, sizeof(p->name), "%s", names[i]);
		snprintf(rel, sizeof(rel), "/sys/bus/event_source/devices/%s/type", names[i]);
		p->type = host_long(rel, &v) == 0 ? (int)v : -1;
		snprintf(rel, sizeof(rel), "/sys/bus/event_source/devices/%s/cpus", names[i]);
		p->ncpus = -1;
		if (td_host_path(path, sizeof(path), rel) == 0 && td_slurp(path, &list, NULL) == 0) {
			list[strcspn(list, "\n")] = '\0';
			p->ncpus = td_parse_cpu_list(list, &cpus, NULL);
			free(cpus);
			if (p->ncpus < 0)
				p->ncpus = -1;
			if (strlen(list) < sizeof(p->cpus)) /* a longer list is shown as its count only, never cut */
				memcpy(p->cpus, list, strlen(list) + 1);
			free(list);
			list = NULL;
		}
		snprintf(p->model, sizeof(p->model), "%s", m ? m : "");
	}
	c->ncore_pmus = 2;
}

static void detect_caps(struct td_caps *c)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[2];

	c->is_root = geteuid() == 0;
	memset(data, 0, sizeof(data));
	if (syscall(SYS_capget, &hdr, data) != 0)
		return;
#define HAS(cap) ((data[(cap) / 32].effective >> ((cap) % 32)) & 1u)
	c->cap_sys_admin = HAS(CAP_SYS_ADMIN);
	c->cap_perfmon = HAS(CAP_PERFMON) || c->cap_sys_admin;
	c->cap_bpf = HAS(CAP_BPF) || c->cap_sys_admin;
	c->cap_sys_ptrace = HAS(CAP_SYS_PTRACE);
#undef HAS
}

static void detect_smt(struct td_caps *c)
{
	long v;

	c->smt_on = -1;
	if (host_long("/sys/devices/system/cpu/smt/active", &v) == 0)
		c->smt_on = v ? 1 : 0;
}

/* Online CPUs, and how many distinct cores and packages they sit on. */
static void detect_topology(struct td_caps *c)
{
	int *cpus = NULL, n = td_host_online_cpus(&cpus);
	long *seen_core = NULL;
	int *seen_socket = NULL, ncores = 0, nsockets = 0;

	c->cores = c->sockets = -1;
	if (n <= 0) {
		c->online_cpus = td_host_is_fixture() ? 0 : (int)sysconf(_SC_NPROCESSORS_ONLN);
		return;
	}
	c->online_cpus = n;
	seen_core = calloc((size_t)n, sizeof(*seen_core));
	seen_socket = calloc((size_t)n, sizeof(*seen_socket));
	for (int i = 0; seen_core && seen_socket && i < n; i++) {
		int core = td_host_cpu_topology(cpus[i], "core_id");
		int socket = td_host_cpu_topology(cpus[i], "physical_package_id");
		long key = (long)socket << 32 | (unsigned)core;
		bool known = false;
		if (core < 0 || socket < 0) {
			ncores = nsockets = -1;
			break;
		}
		for (int k = 0; k < ncores && !known; k++)
			known = seen_core[k] == key;
		if (!known)
			seen_core[ncores++] = key;
		known = false;
		for (int k = 0; k < nsockets && !known; k++)
			known = seen_socket[k] == socket;
		if (!known)
			seen_socket[nsockets++] = socket;
	}
	if (seen_core && seen_socket && ncores > 0) {
		c->cores = ncores;
		c->sockets = nsockets;
	}
	free(seen_core);
	free(seen_socket);
	free(cpus);
}

/* The cgroup v2 mount (else v1's perf_event one), and whether it is writable. */
static void detect_cgroup(struct td_caps *c)
{
	char path[4096], dev[256], dir[512], type[64], opts[512];
	FILE *f;

	if (td_host_path(path, sizeof(path), "/proc/self/mounts") < 0 || !(f = fopen(path, "re")))
		return;
	while (fscanf(f, "%255s %511s %63s %511s %*d %*d", dev, dir, type, opts) == 4) {
		int version = !strcmp(type, "cgroup2")				      ? 2
			      : !strcmp(type, "cgroup") && strstr(opts, "perf_event") ? 1
										      : 0;
		if (!version || c->cgroup_version == 2)
			continue;
		c->cgroup_version = version;
		snprintf(c->cgroup_mount, sizeof(c->cgroup_mount), "%s", dir);
		c->cgroup_writable = !strncmp(opts, "rw", 2) && (opts[2] == ',' || !opts[2]);
		if (c->cgroup_writable && !td_host_is_fixture())
			c->cgroup_writable = access(dir, W_OK) == 0;
	}
	fclose(f);
}

/* The kernel release: uname, or the recorded tree's osrelease. */
static void detect_kernel(struct td_caps *c)
{
	struct utsname u;
	char path[4096];

	if (td_host_is_fixture()) {
		if (td_host_path(path, sizeof(path), "/proc/sys/kernel/osrelease") == 0)
			td_read_file(path, c->kernel, sizeof(c->kernel));
	} else if (uname(&u) == 0) {
		snprintf(c->kernel, sizeof(c->kernel), "%s", u.release);
	}
}

void td_caps_detect(struct td_caps *c)
{
	char path[4096];
	long v;

	memset(c, 0, sizeof(*c));
	detect_cpuinfo(c);
	detect_hypervisor_name(c);
	const char *ua = td_uarch_name(c->vendor, c->family, c->model, c->stepping);
	snprintf(c->uarch, sizeof(c->uarch), "%s", ua ? ua : "");
	detect_topology(c);
	detect_smt(c);
	detect_libpfm(c);
	detect_cpuid_model(c);
	detect_kernel(c);
	detect_kernel_pmu(c);
	detect_core_pmus(c);
	c->nmi_watchdog = host_long("/proc/sys/kernel/nmi_watchdog", &v) == 0 ? (v != 0) : -1;
	c->paranoid = host_long("/proc/sys/kernel/perf_event_paranoid", &v) == 0 ? (int)v : -100;
	detect_caps(c);
	detect_cgroup(c);
	c->btf = td_host_path(path, sizeof(path), "/sys/kernel/btf/vmlinux") == 0 && access(path, R_OK) == 0;
	c->bpf_available = c->btf && (c->is_root || c->cap_bpf);
	td_caps_decide_rung(c);
}

void td_caps_decide_rung(struct td_caps *c)
{
	bool privileged = c->is_root || c->cap_perfmon;
	const char *cpu = c->uarch[0] ? c->uarch : (c->cpu_name[0] ? c->cpu_name : "this CPU");

	/* paranoid: 3 (Debian/Android extension) forbids unprivileged use; 2 allows
	 * user-mode counting of own processes; <=1 adds kernel mode. */
	c->counting_allowed = privileged || c->paranoid < 3;
	c->kernel_allowed = privileged || (c->paranoid != -100 && c->paranoid <= 1);

	if (!c->counting_allowed) {
		c->rung = TD_RUNG_NONE;
		snprintf(c->rung_reason, sizeof(c->rung_reason),
			 "perf_event_paranoid is %d, which forbids performance counters to unprivileged users: "
			 "run as root, grant CAP_PERFMON, or run 'sysctl kernel.perf_event_paranoid=2'",
			 c->paranoid);
		return;
	}
	if (!c->kernel_pmu[0]) {
		c->rung = TD_RUNG_SOFTWARE;
		if (c->hypervisor)
			snprintf(c->rung_reason, sizeof(c->rung_reason),
				 "hardware counters are unavailable because this VM (%s) exposes no PMU to the guest: "
				 "only software metrics (CPU time, context switches, migrations, page faults) can be "
				 "collected; for top-down metrics run on bare metal or enable the virtual PMU "
				 "(e.g. QEMU/KVM '-cpu host,pmu=on')",
				 c->hypervisor_name[0] ? c->hypervisor_name : "unknown hypervisor");
		else
			snprintf(c->rung_reason, sizeof(c->rung_reason),
				 "hardware counters are unavailable because the kernel exposes no CPU PMU "
				 "(no cpu device in /sys/bus/event_source/devices): only software metrics can be "
				 "collected; check that the kernel was built with perf events for %s",
				 cpu);
		return;
	}
	if (!c->events_file[0]) {
		c->rung = TD_RUNG_IPC;
		if (!c->pfm_model[0])
			snprintf(c->rung_reason, sizeof(c->rung_reason),
				 "the installed libpfm4 does not know %s (%s family %#x model %#x), so no top-down "
				 "events file applies: cycles, instructions, IPC and CPI are collected with the "
				 "kernel's generic events; a newer libpfm4 or an events file with raw events adds the "
				 "tree",
				 cpu, c->vendor, c->family, c->model);
		else if (c->model_source == TD_MODEL_CPUID)
			snprintf(
				c->rung_reason, sizeof(c->rung_reason),
				"the installed libpfm4 does not know %s and no events file serves %s (its PMU model by "
				"CPUID family %#x model %#x): IPC and CPI are collected with generic events; add an "
				"events/NAME.td file with raw events for %s to get the top-down tree",
				cpu, c->pfm_model, c->family, c->model, c->pfm_model);
		else
			snprintf(c->rung_reason, sizeof(c->rung_reason),
				 "no events file serves libpfm4 model %s: IPC and CPI are collected with generic "
				 "events; add an events/NAME.td file for %s to get the top-down tree",
				 c->pfm_model, c->pfm_model);
		return;
	}
	c->rung = TD_RUNG_FULL_TREE;
	if (c->model_source == TD_MODEL_CPUID) {
		char id[160];
		td_cpu_id_words(c, id, sizeof(id));
		bool tables = td_pfm_has_model(c->pfm_model); /* Emerald Rapids: the spr tables */
		int n = snprintf(c->rung_reason, sizeof(c->rung_reason),
				 "hardware counters available through the kernel's %s PMU; the installed libpfm4 does "
				 "not know %s, so %s names it %s, which %s serves %s%s",
				 c->kernel_pmu, cpu, id, c->pfm_model, c->events_file,
				 tables ? "with libpfm4's tables for that model" : "with raw event encodings",
				 c->hypervisor ? " (virtualized PMU: counts may include hypervisor noise)" : "");
		if (n >= (int)sizeof(c->rung_reason)) /* only with absurdly long names: say less, cut nothing */
			snprintf(c->rung_reason, sizeof(c->rung_reason),
				 "%s serves %s (PMU model from CPUID, raw event encodings)", c->events_file,
				 c->pfm_model);
	} else
		snprintf(c->rung_reason, sizeof(c->rung_reason),
			 "hardware counters available through the kernel's %s PMU; %s serves %s%s", c->kernel_pmu,
			 c->events_file, c->pfm_model,
			 c->hypervisor ? " (virtualized PMU: counts may include hypervisor noise)" : "");
}
