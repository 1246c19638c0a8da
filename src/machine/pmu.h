/* pmu: what this machine can measure and why — CPU identity, the libpfm4 PMU
 * model, the kernel's core PMU, counters, hypervisor, NMI watchdog,
 * perf_event_paranoid, capabilities, BPF — and the degradation rung that
 * follows from them (man tdctl, "doctor": full-tree to none). */
#ifndef TD_PMU_H
#define TD_PMU_H

#include <stdbool.h>
#include <stddef.h>

enum td_rung {
	TD_RUNG_NONE = 0,     /* perf_event_open not usable at all */
	TD_RUNG_SOFTWARE,     /* software events only */
	TD_RUNG_IPC,	      /* generic cycles/instructions, no top-down file */
	TD_RUNG_PARTIAL_TREE, /* some tree levels fit (decided by the planner) */
	TD_RUNG_FULL_TREE,
};

/* Where the PMU model name (td_caps.pfm_model) came from. */
enum td_model_source {
	TD_MODEL_NONE = 0, /* no model: neither libpfm4 nor CPUID identifies the CPU */
	TD_MODEL_LIBPFM,   /* libpfm4 detected it (or TD_PFM_MODEL named it) */
	TD_MODEL_CPUID,	   /* libpfm4 does not know the CPU; CPUID vendor/family/model name it */
};

/* One core PMU of a hybrid CPU (Intel Alder Lake / Raptor Lake: cpu_core for the P-cores,
 * cpu_atom for the E-cores). perf counts a thread on each (one event per PMU, each counting
 * only while the thread runs on that core type); each has its own PMU model and events file. */
#define TD_MAX_CORE_PMUS 2
struct td_core_pmu {
	char name[32];	      /* sysfs device: cpu_core, cpu_atom */
	int type;	      /* its perf type (sysfs type), -1 unknown */
	char cpus[128];	      /* its CPUs as sysfs lists them ("0-15"), "" unknown */
	int ncpus;	      /* how many, -1 unknown (also when the list did not fit cpus[]) */
	char model[64];	      /* the PMU model its events files serve (adl_glc, adl_grt), "" if none */
	char events_file[64]; /* events/NAME.td for model, "" if none (filled as events_file is) */
};

struct td_caps {
	/* CPU identity (from /proc/cpuinfo) */
	char vendor[32]; /* GenuineIntel, AuthenticAMD, ARM ... */
	int family, model, stepping;
	char cpu_name[128]; /* model name */
	char uarch[48];	    /* Skylake, Zen 4, ... or "" when unknown */
	int online_cpus;
	int cores, sockets; /* distinct cores and packages of the online CPUs, -1 unknown */
	int smt_on;	    /* 1, 0, or -1 unknown */

	/* libpfm4 */
	char pfm_model[64]; /* the core PMU model events files are chosen by, "" if none: libpfm4's
				   * name, or (model_source TD_MODEL_CPUID) the name a libpfm4 that knows
				   * the CPU uses, from td_cpuid_pmu_model() */
	enum td_model_source model_source;
	char pfm_desc[128];
	int gp_counters;    /* per logical CPU, -1 unknown */
	int fixed_counters; /* -1 unknown */

	/* kernel */
	char kernel[128]; /* uname -r */
	char kernel_pmu[256];
	/* a d_name: at most 255 bytes */ /* sysfs core PMU device (cpu, cpu_core, armv8_pmuv3_0...), "" if none */
	bool hypervisor;
	char hypervisor_name[32]; /* KVM, Microsoft Hv, VMware, Xen ... */
	int nmi_watchdog;	  /* 1, 0 or -1 when unknown */
	int paranoid;		  /* perf_event_paranoid, or -100 when unknown */
	bool is_root;
	bool cap_perfmon, cap_sys_admin, cap_bpf, cap_sys_ptrace;
	bool btf; /* /sys/kernel/btf/vmlinux present */
	char cgroup_mount[512];
	/* as /proc/self/mounts is read: at most 511 bytes */ /* the cgroup v2 (or v1 perf_event) mount point, "" if none */
	int cgroup_version;				      /* 2, 1, or 0 when none is mounted */
	bool cgroup_writable; /* mounted read-write (and writable by this user on this host) */
	bool bpf_available;   /* privileges + BTF: BPF programs could load (none is used yet) */

	/* a hybrid CPU: its core PMUs (both cpu_core and cpu_atom in sysfs), else ncore_pmus 0 and
	 * pfm_model/kernel_pmu describe the one core PMU; on a hybrid CPU pfm_model is cpu_core's */
	struct td_core_pmu core_pmus[TD_MAX_CORE_PMUS];
	int ncore_pmus;

	const char *events_dir; /* where events files are read from (td_events_dir), NULL if not asked */
	char events_file[64];	/* events/NAME.td for pfm_model, "" if none */

	enum td_rung rung;
	char rung_reason[512]; /* one line a newcomer understands */
	bool counting_allowed; /* may this user count its own processes at all */
	bool kernel_allowed;   /* may kernel-mode activity be counted too */
};

/* Fill caps from this host (or the recorded host tree TD_SYSROOT names, with
 * the libpfm4 model TD_PFM_MODEL forces: host.h). Never fails: unknown items are marked so.
 * events_file is left empty; the caller asks the catalog which file serves
 * pfm_model, stores it in caps->events_file and calls td_caps_decide_rung(). */
void td_caps_detect(struct td_caps *caps);
/* Decide the rung and its one-line reason from the other fields. */
void td_caps_decide_rung(struct td_caps *caps);

const char *td_rung_name(enum td_rung r);
/* Microarchitecture name for a vendor/family/model, or NULL. */
const char *td_uarch_name(const char *vendor, int family, int model, int stepping);
/* The PMU model name of a CPU the installed libpfm4 may not know, from its
 * CPUID vendor/family/model (the name newer libpfm4 releases give it, e.g.
 * amd64_fam1ah_zen5), or NULL: td_caps_detect uses it when libpfm4 names no
 * model; the events files serving it use raw encodings. */
const char *td_cpuid_pmu_model(const char *vendor, int family, int model, int stepping);
/* Does the installed libpfm4 have event tables for MODEL (encodable, active or not)? */
bool td_pfm_has_model(const char *model);
/* Writes where the CPU's identity was read, for messages: "CPUID (VENDOR family F
 * model M)" on x86, "MIDR (ARM (implementer I) part P)" on Arm; snprintf's result. */
int td_cpu_id_words(const struct td_caps *c, char *buf, size_t len);
/* The PMU model of core PMU pmu (cpu_core, cpu_atom) of a hybrid CPU by its CPUID
 * vendor/family/model (Alder Lake and Raptor Lake: adl_glc, adl_grt), or NULL. */
const char *td_hybrid_pmu_model(const char *vendor, int family, int model, const char *pmu);
/* The core PMU a hybrid CPU's PMU model counts on (adl_grt: cpu_atom), or NULL when the
 * model is not one of a hybrid CPU's. */
const char *td_hybrid_pmu_of_model(const char *model);
/* "libpfm4", "cpuid" or "none". */
const char *td_model_source_name(enum td_model_source s);

#endif
