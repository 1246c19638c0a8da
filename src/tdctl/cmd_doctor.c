/* tdctl doctor: prints what this machine can measure and why (pmu module). */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/json.h"
#include "collect/counting.h"
#include "collect/kernel_types.h"
#include "collect/tracker.h"
#include "machine/host.h"
#include "machine/libpfm.h"
#include "machine/pmu.h"
#include "model/catalog.h"
#include "tdctl.h"

static const char *yesno(bool b)
{
	return b ? "yes" : "no";
}

/* How threads will be found here (as a session with --tracker=auto): the
 * BPF tracker is loaded for real when BTF and privileges allow (no feature
 * probe is trusted), never on a recorded host (TD_SYSROOT: not this kernel).
 * true for BPF; why says what was tried. */
/* Whether tdctl's sessions load their BPF programs without parsing the
 * kernel's BTF (collect/kernel_types.h): this boot's file, or why not. */
static void kernel_types_line(void)
{
	const char *dir = tdctl_kernel_types_dir(), *tool = td_kernel_types_bpftool();
	char name[4096];

	struct td_switch_reading now;
	double rate = td_switch_read(&now) ? -1 : td_switch_rate(NULL, &now);
	char when[160] = "";

	/* the longest session that takes it at this machine's rate (the rule of td_kernel_types_pays) */
	if (rate > 0)
		snprintf(when, sizeof(when),
			 " with --duration of %.0f s or less (at this machine's %.0f context switches a second "
			 "since boot)",
			 TD_KERNEL_TYPES_START_SAVED_NS / (rate * TD_KERNEL_TYPES_SWITCH_EXTRA_NS), rate);
	if (td_kernel_types_cached(dir, name, sizeof(name)))
		printf("BPF start:      this boot's kernel types file %s: tdctl's sessions%s load raw_tp "
		       "programs without parsing the kernel's BTF\n",
		       name, when);
	else if (!dir || !*dir)
		printf("BPF start:      no place for a kernel types file (TD_KERNEL_TYPES_CACHE empty, or not root and "
		       "no "
		       "XDG_RUNTIME_DIR): each start parses the kernel's BTF\n");
	else if (access(tool, X_OK))
		printf("BPF start:      %s missing (apt-get install bpftool): each start parses the kernel's BTF, "
		       "~10 ms\n",
		       tool);
	else
		printf("BPF start:      no kernel types file in %s yet: the next tdctl session%s makes it with "
		       "%s (once a boot), then loads without parsing the kernel's BTF\n",
		       dir, when, tool);
}

static bool tracker_bpf(const struct td_caps *c, char *why, size_t len)
{
	if (td_host_root()[0]) {
		snprintf(why, len, "not tried: TD_SYSROOT describes another host");
		return false;
	}
	if (!c->bpf_available) {
		snprintf(why, len, "%s",
			 !c->btf ? "the kernel has no BTF" : "loading BPF needs root or CAP_BPF and CAP_PERFMON");
		return false;
	}
	td_err err = { "" };
	const char *flavour = td_tracker_bpf_probe(&err);

	if (flavour)
		snprintf(why, len, "%s programs load", flavour);
	else
		snprintf(why, len, "%s", err.msg);
	return flavour != NULL;
}

/* How threads will be counted here (as a session with --counting=auto):
 * where hardware counters count, a tree's plan outgrows the program's
 * TD_BPF_COUNT_MAX events and keeps perf groups per thread; with software
 * events only, the BPF counting program is loaded for real (one counter per
 * CPU, then unloaded). true for BPF; why says what was tried. */
static bool counting_bpf(const struct td_caps *c, char *why, size_t len)
{
	td_err probe;

	if (td_host_root()[0]) {
		snprintf(why, len, "not tried: TD_SYSROOT describes another host");
		return false;
	}
	if (c->rung > TD_RUNG_SOFTWARE) {
		snprintf(why, len,
			 "hardware counters count here: a plan of at most %d events in all (software.td alone has "
			 "6) is counted by BPF, a tree's plan has more and is opened per thread",
			 TD_BPF_COUNT_MAX);
		return false;
	}
	if (td_bpf_counting_probe(&probe) != 0) {
		snprintf(why, len, "BPF counting did not load: %s", probe.msg);
		return false;
	}
	snprintf(why, len, "%s (--bpf-map-entries N sets its size)", probe.msg);
	return true;
}

static void print_text(const struct td_caps *c)
{
	char why[600];

	printf("CPU:            %s\n", c->cpu_name[0] ? c->cpu_name : "unknown");
	printf("  vendor:       %s, family %d (%#x), model %d (%#x), stepping %d\n", c->vendor, c->family, c->family,
	       c->model, c->model, c->stepping);
	printf("  microarch:    %s\n", c->uarch[0] ? c->uarch : "unknown to topdown");
	printf("  online CPUs:  %d, SMT %s\n", c->online_cpus, c->smt_on < 0 ? "unknown" : c->smt_on ? "on" : "off");
	if (c->cores > 0)
		printf("  topology:     %d CPUs on %d cores in %d socket%s\n", c->online_cpus, c->cores, c->sockets,
		       c->sockets == 1 ? "" : "s");
	else
		printf("  topology:     unknown (no /sys/devices/system/cpu/cpuN/topology)\n");
	if (c->model_source == TD_MODEL_LIBPFM)
		printf("libpfm4 model:  %s\n", c->pfm_model);
	else if (td_pfm_init()) /* tried already by the detection: its error */
		printf("libpfm4 model:  none (%s)\n", td_pfm_init_error());
	else
		printf("libpfm4 model:  none (this libpfm4 does not know the CPU)\n");
	if (c->model_source == TD_MODEL_CPUID) {
		char id[160];
		td_cpu_id_words(c, id, sizeof(id));
		printf("PMU model:      %s, from %s: %s\n", c->pfm_model, id,
		       td_pfm_has_model(c->pfm_model) ? "libpfm4's tables for it encode the events"
						      : "events files for it use raw encodings");
	} else if (c->model_source == TD_MODEL_LIBPFM)
		printf("PMU model:      %s, from libpfm4\n", c->pfm_model);
	else
		printf("PMU model:      none (neither libpfm4 nor topdown's CPUID table knows this CPU)\n");
	if (c->gp_counters >= 0)
		printf("  counters:     %d general-purpose, %d fixed (libpfm4's figures)\n", c->gp_counters,
		       c->fixed_counters);
	else
		printf("  counters:     unknown\n");
	printf("kernel:         %s\n", c->kernel);
	printf("  core PMU:     %s\n", c->kernel_pmu[0] ? c->kernel_pmu : "none in /sys/bus/event_source/devices");
	for (int i = 0; i < c->ncore_pmus; i++) {
		const struct td_core_pmu *p = &c->core_pmus[i];
		printf("  %-13s %s (type %d), CPUs %s (%d), PMU model %s, events file %s\n",
		       i ? "" : "hybrid PMUs:", p->name, p->type, p->cpus[0] ? p->cpus : "(list not shown)", p->ncpus,
		       p->model[0] ? p->model : "none", p->events_file[0] ? p->events_file : "none");
	}
	if (c->ncore_pmus)
		printf("  %-13s a thread is counted on each core PMU while it runs on that core type; reports show "
		       "each tree and level 1 combined\n",
		       "");
	printf("  hypervisor:   %s\n", c->hypervisor ? (c->hypervisor_name[0] ? c->hypervisor_name : "yes") : "none");
	printf("  NMI watchdog: %s\n", c->nmi_watchdog < 0 ? "unknown"
				       : c->nmi_watchdog   ? "on (takes a counter)"
							   : "off");
	if (c->paranoid == -100)
		printf("  perf_event_paranoid: unknown\n");
	else
		printf("  perf_event_paranoid: %d\n", c->paranoid);
	printf("privileges:     root %s, CAP_PERFMON %s, CAP_BPF %s, CAP_SYS_PTRACE %s\n", yesno(c->is_root),
	       yesno(c->cap_perfmon), yesno(c->cap_bpf), yesno(c->cap_sys_ptrace));
	if (c->cgroup_version)
		printf("cgroup:         v%d at %s, %s\n", c->cgroup_version, c->cgroup_mount,
		       c->cgroup_writable ? "writable" : "read-only (record --cgroup counts existing cgroups only)");
	else
		printf("cgroup:         none mounted (record --cgroup unavailable)\n");
	printf("BPF:            %s\n", c->bpf_available ? "available (BTF present)"
				       : !c->btf	? "not available (BTF missing)"
							: "not available (BTF present, needs root or CAP_BPF)");
	if (tracker_bpf(c, why, sizeof(why)))
		printf("thread discovery: BPF tracker (%s; --tracker=proc rescans /proc instead)\n", why);
	else
		printf("thread discovery: /proc rescan every %d ms (BPF tracker not used: %s)\n", TD_TRACKER_SCAN_MS,
		       why);
	bool bpf_counts = counting_bpf(c, why, sizeof(why));
	if (bpf_counts)
		printf("thread counting: BPF at each context switch (%s; --counting=per-thread opens perf groups per "
		       "thread instead)\n",
		       why);
	else
		printf("thread counting: perf groups per thread (%s)\n", why);
	if (bpf_counts)
		kernel_types_line();
	if (c->events_dir)
		printf("events dir:     %s\n", c->events_dir);
	if (c->ncore_pmus == 2 && c->core_pmus[0].events_file[0] && c->core_pmus[1].events_file[0])
		printf("events files:   %s (%s) + %s (%s)\n", c->core_pmus[0].events_file, c->core_pmus[0].name,
		       c->core_pmus[1].events_file, c->core_pmus[1].name);
	else
		printf("events file:    %s\n",
		       c->events_file[0] ? c->events_file : "none for this CPU (software.td only)");
	printf("rung:           %s\n", td_rung_name(c->rung));
	printf("  why:          %s\n", c->rung_reason);
}

/* An int, or null when it is unknown (negative). */
static void kint_or_null(struct td_json *j, const char *key, int v, bool known)
{
	td_json_key(j, key);
	if (known)
		td_json_int(j, v);
	else
		td_json_null(j);
}

/* A tri-state flag: -1 unknown (null), 0, 1. */
static void kflag(struct td_json *j, const char *key, int v)
{
	td_json_key(j, key);
	if (v < 0)
		td_json_null(j);
	else
		td_json_bool(j, v);
}

static void print_json(const struct td_caps *c)
{
	struct td_json j;
	char why[600];
	bool bpf;

	td_json_init(&j, stdout, 0);
	td_json_object(&j);
	td_json_key(&j, "cpu");
	td_json_object(&j);
	td_json_kstring(&j, "vendor", c->vendor);
	td_json_kint(&j, "family", c->family);
	td_json_kint(&j, "model", c->model);
	td_json_kint(&j, "stepping", c->stepping);
	td_json_kstring(&j, "name", c->cpu_name);
	td_json_kstring(&j, "microarch", c->uarch[0] ? c->uarch : NULL);
	td_json_kint(&j, "online_cpus", c->online_cpus);
	kflag(&j, "smt", c->smt_on);
	kint_or_null(&j, "cores", c->cores, c->cores > 0);
	kint_or_null(&j, "sockets", c->sockets, c->cores > 0);
	td_json_close(&j);
	td_json_key(&j, "libpfm4");
	td_json_object(&j);
	td_json_kstring(&j, "model", c->model_source == TD_MODEL_LIBPFM ? c->pfm_model : NULL);
	kint_or_null(&j, "gp_counters", c->gp_counters, c->gp_counters >= 0);
	kint_or_null(&j, "fixed_counters", c->fixed_counters, c->gp_counters >= 0);
	td_json_close(&j);
	/* the model the events file is chosen by, and which path named it */
	td_json_key(&j, "pmu_model");
	td_json_object(&j);
	td_json_kstring(&j, "name", c->pfm_model[0] ? c->pfm_model : NULL);
	td_json_kstring(&j, "source", td_model_source_name(c->model_source));
	td_json_close(&j);
	td_json_key(&j, "kernel");
	td_json_object(&j);
	td_json_kstring(&j, "release", c->kernel);
	td_json_kstring(&j, "core_pmu", c->kernel_pmu[0] ? c->kernel_pmu : NULL);
	td_json_key(&j, "hybrid_pmus"); /* [] unless the CPU has a core PMU per core type */
	td_json_array(&j);
	for (int i = 0; i < c->ncore_pmus; i++) {
		const struct td_core_pmu *p = &c->core_pmus[i];
		td_json_object(&j);
		td_json_kstring(&j, "name", p->name);
		kint_or_null(&j, "type", p->type, p->type >= 0);
		td_json_kstring(&j, "cpus", p->cpus[0] ? p->cpus : NULL);
		kint_or_null(&j, "ncpus", p->ncpus, p->ncpus >= 0);
		td_json_kstring(&j, "pmu_model", p->model[0] ? p->model : NULL);
		td_json_kstring(&j, "events_file", p->events_file[0] ? p->events_file : NULL);
		td_json_close(&j);
	}
	td_json_close(&j);
	td_json_kstring(&j, "hypervisor",
			c->hypervisor ? (c->hypervisor_name[0] ? c->hypervisor_name : "unknown") : NULL);
	kflag(&j, "nmi_watchdog", c->nmi_watchdog);
	kint_or_null(&j, "perf_event_paranoid", c->paranoid, c->paranoid != -100);
	td_json_close(&j);
	td_json_key(&j, "privileges");
	td_json_object(&j);
	td_json_kbool(&j, "root", c->is_root);
	td_json_kbool(&j, "cap_perfmon", c->cap_perfmon);
	td_json_kbool(&j, "cap_bpf", c->cap_bpf);
	td_json_kbool(&j, "cap_sys_ptrace", c->cap_sys_ptrace);
	td_json_close(&j);
	td_json_key(&j, "cgroup");
	td_json_object(&j);
	td_json_kint(&j, "version", c->cgroup_version);
	td_json_kstring(&j, "mount", c->cgroup_version ? c->cgroup_mount : NULL);
	td_json_kbool(&j, "writable", c->cgroup_writable);
	td_json_close(&j);
	td_json_key(&j, "bpf");
	td_json_object(&j);
	td_json_kbool(&j, "btf", c->btf);
	td_json_kbool(&j, "available", c->bpf_available);
	td_json_close(&j);
	td_json_key(&j, "thread_discovery");
	td_json_object(&j);
	bpf = tracker_bpf(c, why, sizeof(why));
	td_json_kstring(&j, "method", bpf ? "bpf" : "proc-rescan");
	td_json_kint(&j, "period_ms", TD_TRACKER_SCAN_MS);
	td_json_kstring(&j, "why", why);
	td_json_close(&j);
	td_json_key(&j, "thread_counting");
	td_json_object(&j);
	bpf = counting_bpf(c, why, sizeof(why));
	td_json_kstring(&j, "method", bpf ? "bpf" : "per-thread");
	td_json_kstring(&j, "why", why);
	td_json_close(&j);
	td_json_kstring(&j, "events_dir", c->events_dir);
	td_json_kstring(&j, "events_file", c->events_file[0] ? c->events_file : NULL);
	td_json_kstring(&j, "rung", td_rung_name(c->rung));
	td_json_kstring(&j, "reason", c->rung_reason);
	td_json_finish(&j);
	putchar('\n');
}

static void caps_print(const struct td_caps *c, bool json)
{
	if (json)
		print_json(c);
	else
		print_text(c);
}

int cmd_doctor(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "events-dir", required_argument, NULL, 'E' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool json = false;
	const char *events_dir = NULL;
	struct td_caps caps;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "jh", opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			json = true;
			break;
		case 'E':
			events_dir = optarg;
			break;
		case 'h':
			printf("usage: tdctl doctor [--json] [--events-dir DIR]\n");
			return 0;
		default:
			tdctl_error("doctor: bad option; usage: tdctl doctor [--json] [--events-dir DIR]");
			return 2;
		}
	}
	if (optind < argc) {
		tdctl_error("doctor: unexpected argument '%s'; usage: tdctl doctor [--json]", argv[optind]);
		return 2;
	}
	tdctl_host_caps(events_dir, &caps);
	caps_print(&caps, json);
	return 0;
}
