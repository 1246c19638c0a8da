/* Unit tests for pmu: microarchitecture names, the rung decision and its
 * reasons, and detection invariants on the host running the tests. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "machine/host.h"
#include "machine/pmu.h"

static void test_uarch_names(void **state)
{
	(void)state;
	assert_string_equal(td_uarch_name("AuthenticAMD", 0x19, 0x11, 1), "Zen 4");
	assert_string_equal(td_uarch_name("AuthenticAMD", 0x19, 0x61, 2), "Zen 4");
	assert_string_equal(td_uarch_name("AuthenticAMD", 0x19, 0x01, 1), "Zen 3");
	assert_string_equal(td_uarch_name("AuthenticAMD", 0x1a, 0x02, 0), "Zen 5");
	assert_string_equal(td_uarch_name("GenuineIntel", 6, 0x5e, 3), "Skylake");
	assert_string_equal(td_uarch_name("GenuineIntel", 6, 0x55, 7), "Cascade Lake");
	assert_string_equal(td_uarch_name("GenuineIntel", 6, 0x55, 4), "Skylake-SP");
	/* perfmon's mapfile: GenuineIntel-6-55-[01234] SKX, -[56789ABCDEF] CLX, 6-4F BDX; toplev serves 86 as bdx */
	assert_string_equal(td_cpuid_pmu_model("GenuineIntel", 6, 0x55, 4), "skx");
	assert_string_equal(td_cpuid_pmu_model("GenuineIntel", 6, 0x55, 5), "clx");
	assert_string_equal(td_cpuid_pmu_model("GenuineIntel", 6, 0x55, 7), "clx");
	assert_string_equal(td_uarch_name("GenuineIntel", 6, 0x4f, 1), "Broadwell-X");
	assert_string_equal(td_cpuid_pmu_model("GenuineIntel", 6, 0x4f, 1), "bdx");
	assert_string_equal(td_cpuid_pmu_model("GenuineIntel", 6, 0x56, 3), "bdx");
	assert_string_equal(td_uarch_name("GenuineIntel", 6, 0x8f, 8), "Sapphire Rapids");
	assert_null(td_uarch_name("GenuineIntel", 6, 0x01, 0));
	assert_null(td_uarch_name("HygonGenuine", 0x18, 0, 0));
}

/* Which CPUs the CPUID path names, by Linux's bsp_init_amd model ranges for family 1Ah
 * (X86_FEATURE_ZEN5: 0x00-0x2f, 0x40-0x4f, 0x60-0x7f; ZEN6: 0x50-0x5f, 0x80-0xaf, 0xc0-0xcf). */
static void test_cpuid_models(void **state)
{
	(void)state;
	static const int zen5[] = { 0x00, 0x02, 0x11, 0x2f, 0x40, 0x44, 0x4f, 0x60, 0x70, 0x7f };
	static const int zen6[] = { 0x50, 0x5f, 0x80, 0xaf, 0xc0, 0xcf };
	for (size_t i = 0; i < sizeof(zen5) / sizeof(zen5[0]); i++) {
		assert_string_equal(td_uarch_name("AuthenticAMD", 0x1a, zen5[i], 0), "Zen 5");
		assert_string_equal(td_cpuid_pmu_model("AuthenticAMD", 0x1a, zen5[i], 0), "amd64_fam1ah_zen5");
	}
	for (size_t i = 0; i < sizeof(zen6) / sizeof(zen6[0]); i++) {
		assert_string_equal(td_uarch_name("AuthenticAMD", 0x1a, zen6[i], 0), "Zen 6");
		assert_null(td_cpuid_pmu_model("AuthenticAMD", 0x1a, zen6[i], 0)); /* no events file: no model */
	}
	assert_null(td_uarch_name("AuthenticAMD", 0x1a, 0x30, 0)); /* a gap in both ranges */
	assert_null(td_cpuid_pmu_model("AuthenticAMD", 0x1a, 0x30, 0));
	assert_null(td_cpuid_pmu_model("AuthenticAMD", 0x19, 0x11, 1)); /* Zen 4: libpfm4 knows it */
	assert_null(td_cpuid_pmu_model("GenuineIntel", 6, 0x8f, 8));
	assert_string_equal(td_model_source_name(TD_MODEL_CPUID), "cpuid");
	assert_string_equal(td_model_source_name(TD_MODEL_LIBPFM), "libpfm4");
	assert_string_equal(td_model_source_name(TD_MODEL_NONE), "none");
}

static struct td_caps vm_caps(void)
{
	struct td_caps c;

	memset(&c, 0, sizeof(c));
	strcpy(c.vendor, "AuthenticAMD");
	c.family = 0x19;
	c.model = 0x11;
	strcpy(c.uarch, "Zen 4");
	strcpy(c.cpu_name, "AMD EPYC 9654");
	strcpy(c.pfm_model, "amd64_fam19h_zen4");
	c.hypervisor = true;
	strcpy(c.hypervisor_name, "KVM");
	c.paranoid = 2;
	return c;
}

static void test_rung_vm_without_pmu(void **state)
{
	struct td_caps c = vm_caps();

	(void)state;
	td_caps_decide_rung(&c);
	assert_int_equal(c.rung, TD_RUNG_SOFTWARE);
	assert_non_null(
		strstr(c.rung_reason, "hardware counters are unavailable because this VM (KVM) exposes no PMU"));
	assert_non_null(strstr(c.rung_reason, "only software metrics"));
	assert_true(c.counting_allowed);
	assert_false(c.kernel_allowed); /* paranoid 2, not root */
}

static void test_rung_paranoid_3(void **state)
{
	struct td_caps c = vm_caps();

	(void)state;
	c.paranoid = 3;
	td_caps_decide_rung(&c);
	assert_int_equal(c.rung, TD_RUNG_NONE);
	assert_false(c.counting_allowed);
	assert_non_null(strstr(c.rung_reason, "perf_event_paranoid is 3"));
	c.cap_perfmon = true;
	td_caps_decide_rung(&c);
	assert_true(c.counting_allowed);
	assert_true(c.kernel_allowed);
	assert_int_equal(c.rung, TD_RUNG_SOFTWARE);
}

static void test_rung_with_pmu(void **state)
{
	struct td_caps c = vm_caps();

	(void)state;
	strcpy(c.kernel_pmu, "cpu");
	td_caps_decide_rung(&c);
	assert_int_equal(c.rung, TD_RUNG_IPC);
	assert_non_null(strstr(c.rung_reason, "no events file serves libpfm4 model amd64_fam19h_zen4"));
	strcpy(c.events_file, "amd-zen4.td");
	td_caps_decide_rung(&c);
	assert_int_equal(c.rung, TD_RUNG_FULL_TREE);
	c.pfm_model[0] = c.events_file[0] = '\0';
	td_caps_decide_rung(&c);
	assert_int_equal(c.rung, TD_RUNG_IPC);
	assert_non_null(strstr(c.rung_reason, "libpfm4 does not know Zen 4"));
}

/* A Zen 5 the installed libpfm4 does not know: the reason says CPUID named the model, and
 * without a file for it, that no file serves it (not that libpfm4 has a model). */
static void test_rung_cpuid_model(void **state)
{
	struct td_caps c = vm_caps();

	(void)state;
	c.family = 0x1a;
	c.model = 0x44;
	c.hypervisor = false;
	strcpy(c.uarch, "Zen 5");
	strcpy(c.pfm_model, "amd64_fam1ah_zen5");
	c.model_source = TD_MODEL_CPUID;
	strcpy(c.kernel_pmu, "cpu");
	td_caps_decide_rung(&c);
	assert_int_equal(c.rung, TD_RUNG_IPC);
	assert_non_null(strstr(c.rung_reason, "the installed libpfm4 does not know Zen 5 and no events file serves "
					      "amd64_fam1ah_zen5 (its PMU model by CPUID family 0x1a model 0x44)"));
	strcpy(c.events_file, "amd-zen5.td");
	td_caps_decide_rung(&c);
	assert_int_equal(c.rung, TD_RUNG_FULL_TREE);
	assert_string_equal(c.rung_reason,
			    "hardware counters available through the kernel's cpu PMU; the installed "
			    "libpfm4 does not know Zen 5, so CPUID (AuthenticAMD family 0x1a model 0x44) names it "
			    "amd64_fam1ah_zen5, which amd-zen5.td serves with raw event encodings");
	/* a name too long for one line: a shorter reason, nothing cut */
	memset(c.kernel_pmu, 'p', sizeof(c.kernel_pmu) - 1);
	c.kernel_pmu[sizeof(c.kernel_pmu) - 1] = '\0';
	c.hypervisor = true;
	td_caps_decide_rung(&c);
	assert_string_equal(c.rung_reason,
			    "amd-zen5.td serves amd64_fam1ah_zen5 (PMU model from CPUID, raw event encodings)");
}

static void test_detect_host(void **state)
{
	struct td_caps c;

	(void)state;
	td_caps_detect(&c);
	assert_true(c.vendor[0] != '\0');
	assert_true(c.online_cpus >= 1);
	assert_int_equal(c.is_root, geteuid() == 0);
	/* the rung follows from what was found, whatever the host */
	if (!c.kernel_pmu[0])
		assert_int_equal(c.rung, c.counting_allowed ? TD_RUNG_SOFTWARE : TD_RUNG_NONE);
	else
		assert_true(c.rung != TD_RUNG_SOFTWARE);
	assert_true(strlen(c.rung_reason) > 20);
	/* a model has a source, and a CPUID-named one is the table's for this CPU */
	assert_int_equal(c.model_source == TD_MODEL_NONE, c.pfm_model[0] == '\0');
	if (c.model_source == TD_MODEL_CPUID)
		assert_string_equal(c.pfm_model, td_cpuid_pmu_model(c.vendor, c.family, c.model, c.stepping));
	if (access("/sys/bus/event_source/devices/cpu", F_OK) == 0)
		assert_string_equal(c.kernel_pmu, "cpu");
}

/* td_parse_cpu_list: the sysfs list syntax (Documentation/admin-guide/cputopology.rst:
 * "0-3,5"), and a bad list (the user's --cpu) said in the td_err. */
static void test_parse_cpu_list(void **state)
{
	int *cpus = NULL;
	td_err err = { "" };

	(void)state;
	assert_int_equal(td_parse_cpu_list("0-3,5", &cpus, &err), 5);
	assert_int_equal(cpus[0], 0);
	assert_int_equal(cpus[3], 3);
	assert_int_equal(cpus[4], 5);
	free(cpus);
	cpus = NULL;
	assert_int_equal(td_parse_cpu_list("7\n", &cpus, &err), 1);
	assert_int_equal(cpus[0], 7);
	free(cpus);
	cpus = NULL;
	assert_string_equal(err.msg, "");
	assert_int_equal(td_parse_cpu_list("0,3-1", &cpus, &err), -1);
	assert_string_equal(err.msg, "bad CPU list '0,3-1' (at '1'): give CPU numbers and ranges, e.g. 0-3,6");
	assert_int_equal(td_parse_cpu_list("0,x", &cpus, &err), -1);
	assert_string_equal(err.msg, "bad CPU list '0,x' (at 'x'): give CPU numbers and ranges, e.g. 0-3,6");
	/* no td_err wanted (sysfs's lists): the count alone */
	assert_int_equal(td_parse_cpu_list("-1", &cpus, NULL), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_cpu_list),	    cmocka_unit_test(test_uarch_names),
		cmocka_unit_test(test_cpuid_models),	    cmocka_unit_test(test_rung_cpuid_model),
		cmocka_unit_test(test_rung_vm_without_pmu), cmocka_unit_test(test_rung_paranoid_3),
		cmocka_unit_test(test_rung_with_pmu),	    cmocka_unit_test(test_detect_host),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
