/* tdctl doctor: prints what this machine can measure and why (pmu module). */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "base/json.h"
#include "collect/tracker.h"
#include "machine/pmu.h"
#include "model/catalog.h"
#include "tdctl.h"

static const char *yesno(bool b) { return b ? "yes" : "no"; }

static void print_text(const struct td_caps *c)
{
	printf("CPU:            %s\n", c->cpu_name[0] ? c->cpu_name : "unknown");
	printf("  vendor:       %s, family %d (%#x), model %d (%#x), stepping %d\n", c->vendor, c->family,
	       c->family, c->model, c->model, c->stepping);
	printf("  microarch:    %s\n", c->uarch[0] ? c->uarch : "unknown to topdown");
	printf("  online CPUs:  %d, SMT %s\n", c->online_cpus,
	       c->smt_on < 0 ? "unknown" : c->smt_on ? "on" : "off");
	if (c->cores > 0)
		printf("  topology:     %d CPUs on %d cores in %d socket%s\n", c->online_cpus, c->cores, c->sockets,
		       c->sockets == 1 ? "" : "s");
	else
		printf("  topology:     unknown (no /sys/devices/system/cpu/cpuN/topology)\n");
	printf("libpfm4 model:  %s\n", c->pfm_model[0] ? c->pfm_model : "none (this libpfm4 does not know the CPU)");
	if (c->gp_counters >= 0)
		printf("  counters:     %d general-purpose, %d fixed (libpfm4's figures)\n", c->gp_counters,
		       c->fixed_counters);
	else
		printf("  counters:     unknown\n");
	printf("kernel:         %s\n", c->kernel);
	printf("  core PMU:     %s\n", c->kernel_pmu[0] ? c->kernel_pmu : "none in /sys/bus/event_source/devices");
	printf("  hypervisor:   %s\n", c->hypervisor ? (c->hypervisor_name[0] ? c->hypervisor_name : "yes") : "none");
	printf("  NMI watchdog: %s\n", c->nmi_watchdog < 0 ? "unknown" : c->nmi_watchdog ? "on (takes a counter)" : "off");
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
				       : !c->btf           ? "not available (BTF missing)"
							   : "not available (BTF present, needs root or CAP_BPF)");
	/* no BPF tracker exists yet: say how threads are really found */
	printf("thread discovery: /proc rescan every %d ms\n", TD_TRACKER_SCAN_MS);
	if (c->events_dir)
		printf("events dir:     %s\n", c->events_dir);
	printf("events file:    %s\n", c->events_file[0] ? c->events_file : "none for this CPU (software.td only)");
	printf("rung:           %s\n", td_rung_name(c->rung));
	printf("  why:          %s\n", c->rung_reason);
}

static void print_json(const struct td_caps *c)
{
	printf("{\"cpu\":{\"vendor\":");
	td_json_str(stdout, c->vendor);
	printf(",\"family\":%d,\"model\":%d,\"stepping\":%d,\"name\":", c->family, c->model, c->stepping);
	td_json_str(stdout, c->cpu_name);
	printf(",\"microarch\":");
	td_json_str(stdout, c->uarch[0] ? c->uarch : NULL);
	printf(",\"online_cpus\":%d,\"smt\":%s,", c->online_cpus, c->smt_on < 0 ? "null" : c->smt_on ? "true" : "false");
	if (c->cores > 0)
		printf("\"cores\":%d,\"sockets\":%d},", c->cores, c->sockets);
	else
		printf("\"cores\":null,\"sockets\":null},");
	printf("\"libpfm4\":{\"model\":");
	td_json_str(stdout, c->pfm_model[0] ? c->pfm_model : NULL);
	printf(",\"gp_counters\":");
	if (c->gp_counters >= 0)
		printf("%d,\"fixed_counters\":%d},", c->gp_counters, c->fixed_counters);
	else
		printf("null,\"fixed_counters\":null},");
	printf("\"kernel\":{\"release\":");
	td_json_str(stdout, c->kernel);
	printf(",\"core_pmu\":");
	td_json_str(stdout, c->kernel_pmu[0] ? c->kernel_pmu : NULL);
	printf(",\"hypervisor\":");
	td_json_str(stdout, c->hypervisor ? (c->hypervisor_name[0] ? c->hypervisor_name : "unknown") : NULL);
	printf(",\"nmi_watchdog\":%s", c->nmi_watchdog < 0 ? "null" : c->nmi_watchdog ? "true" : "false");
	if (c->paranoid == -100)
		printf(",\"perf_event_paranoid\":null},");
	else
		printf(",\"perf_event_paranoid\":%d},", c->paranoid);
	printf("\"privileges\":{\"root\":%s,\"cap_perfmon\":%s,\"cap_bpf\":%s,\"cap_sys_ptrace\":%s},",
	       c->is_root ? "true" : "false", c->cap_perfmon ? "true" : "false", c->cap_bpf ? "true" : "false",
	       c->cap_sys_ptrace ? "true" : "false");
	printf("\"cgroup\":{\"version\":%d,\"mount\":", c->cgroup_version);
	td_json_str(stdout, c->cgroup_version ? c->cgroup_mount : NULL);
	printf(",\"writable\":%s},", c->cgroup_writable ? "true" : "false");
	printf("\"bpf\":{\"btf\":%s,\"available\":%s},", c->btf ? "true" : "false",
	       c->bpf_available ? "true" : "false");
	printf("\"thread_discovery\":{\"method\":\"proc-rescan\",\"period_ms\":%d},", TD_TRACKER_SCAN_MS);
	printf("\"events_dir\":");
	td_json_str(stdout, c->events_dir);
	printf(",\"events_file\":");
	td_json_str(stdout, c->events_file[0] ? c->events_file : NULL);
	printf(",\"rung\":");
	td_json_str(stdout, td_rung_name(c->rung));
	printf(",\"reason\":");
	td_json_str(stdout, c->rung_reason);
	printf("}\n");
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
		case 'j': json = true; break;
		case 'E': events_dir = optarg; break;
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
	td_caps_detect(&caps);
	caps.events_dir = td_events_dir(events_dir);
	if (caps.pfm_model[0])
		td_catalog_find(caps.events_dir, caps.pfm_model, caps.events_file, sizeof(caps.events_file));
	td_caps_decide_rung(&caps);
	caps_print(&caps, json);
	return 0;
}
