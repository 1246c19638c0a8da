/* Unit tests for encode: libpfm4 strings (host and other models), perf raw
 * forms with built-in and sysfs formats (config, config1, config2), rNNNN, modifiers
 * and errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "machine/encode.h"

static struct td_encoding enc;
static td_err err;

static void test_software_events(void **state)
{
	(void)state;
	assert_int_equal(td_encode("perf::TASK-CLOCK", NULL, true, &enc, &err), 0);
	assert_int_equal(enc.attr.type, PERF_TYPE_SOFTWARE);
	assert_int_equal(enc.attr.config, PERF_COUNT_SW_TASK_CLOCK);
	assert_int_equal(enc.attr.exclude_kernel, 0);
	assert_int_equal(td_encode("perf::MAJOR-FAULTS", NULL, false, &enc, &err), 0);
	assert_int_equal(enc.attr.config, PERF_COUNT_SW_PAGE_FAULTS_MAJ);
	assert_int_equal(enc.attr.exclude_kernel, 1);
	assert_string_equal(enc.pmu, "perf");
}

static void test_other_model(void **state)
{
	(void)state;
	assert_int_equal(td_encode("IDQ_UOPS_NOT_DELIVERED:CORE", "skl", false, &enc, &err), 0);
	assert_int_equal(enc.attr.type, PERF_TYPE_RAW);
	assert_int_equal(enc.attr.config, 0x19c);
	assert_string_equal(enc.pmu, "skl");
	assert_int_equal(td_encode("spr::TOPDOWN:SLOTS", NULL, false, &enc, &err), 0);
	assert_int_equal(enc.attr.config, 0x400);
	assert_int_equal(td_encode("DISPATCH_STALLS_1:FE_NO_OPS", "amd64_fam19h_zen4", false, &enc, &err), 0);
	assert_int_equal(enc.attr.config, 0x1000001a0ull);
	assert_int_equal(td_encode("NO_SUCH_EVENT", "skl", false, &enc, &err), -1);
	assert_non_null(strstr(err.msg, "skl::NO_SUCH_EVENT"));
}

static void test_raw_form_builtin(void **state)
{
	(void)state;
	td_encode_set_sysfs_root("/nonexistent");
	assert_int_equal(td_encode("cpu/event=0x9c,umask=0x1,cmask=4/", NULL, false, &enc, &err), 0);
	assert_int_equal(enc.attr.type, PERF_TYPE_RAW);
	assert_int_equal(enc.attr.config, 0x0400019cull);
	assert_true(enc.raw_form);
	assert_int_equal(td_encode("cpu/event=0x3c,umask=0x0,any=1/", NULL, false, &enc, &err), 0);
	assert_int_equal(enc.attr.config, 0x20003cull);
	assert_int_equal(td_encode("cpu/event=0xc3,umask=0x1,edge=1,cmask=1/", NULL, false, &enc, &err), 0);
	assert_int_equal(enc.attr.config, 0x010401c3ull);
	assert_int_equal(td_encode("cpu/event=0x1a0,umask=0x1/", NULL, false, &enc, &err), 0);
	assert_int_equal(enc.attr.config, 0x1000001a0ull); /* event bits 8-11 go to config 32-35 */
	assert_int_equal(td_encode("cpu/slots/", NULL, false, &enc, &err), 0);
	assert_int_equal(enc.attr.config, 0x400);
	assert_int_equal(td_encode("cpu/topdown-fe-bound/", NULL, false, &enc, &err), 0);
	assert_int_equal(enc.attr.config, 0x8200);
	assert_int_equal(td_encode("cpu/event=0xd1,umask=0x2/:u", NULL, true, &enc, &err), 0);
	assert_int_equal(enc.attr.exclude_kernel, 1);
	assert_int_equal(enc.attr.exclude_user, 0);
	assert_int_equal(td_encode("cpu/event=0xd1,umask=0x2/:k", NULL, true, &enc, &err), 0);
	assert_int_equal(enc.attr.exclude_kernel, 0);
	assert_int_equal(enc.attr.exclude_user, 1);
	assert_int_equal(td_encode("armv8_pmuv3_0/event=0x23/", NULL, false, &enc, &err), 0);
	assert_int_equal(enc.attr.config, 0x23);
	td_encode_set_sysfs_root("/sys/bus/event_source/devices");
}

static void test_raw_form_errors(void **state)
{
	(void)state;
	td_encode_set_sysfs_root("/nonexistent");
	assert_int_equal(td_encode("cpu/event=0x9c,bogus=1/", NULL, false, &enc, &err), -1);
	assert_non_null(strstr(err.msg, "unknown term 'bogus'"));
	assert_int_equal(td_encode("cpu/event=0x9c", NULL, false, &enc, &err), -1);
	assert_non_null(strstr(err.msg, "malformed raw event"));
	assert_int_equal(td_encode("cpu/umask=0x100/", NULL, false, &enc, &err), -1);
	assert_non_null(strstr(err.msg, "does not fit"));
	assert_int_equal(td_encode("cpu/event=zz/", NULL, false, &enc, &err), -1);
	assert_non_null(strstr(err.msg, "bad value"));
	assert_int_equal(td_encode("nopmu/event=1/", NULL, false, &enc, &err), -1);
	assert_non_null(strstr(err.msg, "unknown PMU 'nopmu'"));
	assert_int_equal(td_encode("cpu/event=1/:q", NULL, false, &enc, &err), -1);
	assert_non_null(strstr(err.msg, "unknown modifier"));
	td_encode_set_sysfs_root("/sys/bus/event_source/devices");
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* Write TEXT to DIR/REL, making REL's directories: a fake sysfs PMU tree. */
static void put(const char *dir, const char *rel, const char *text)
{
	char path[512];

	for (const char *slash = strchr(rel, '/'); slash; slash = strchr(slash + 1, '/')) {
		snprintf(path, sizeof(path), "%s/%.*s", dir, (int)(slash - rel), rel);
		mkdir(path, 0755);
	}
	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	write_file(path, text);
}

/* A PMU present in sysfs is encoded from its own format files. */
static void test_raw_form_sysfs(void **state)
{
	char dir[] = "/tmp/td-sysfs-XXXXXX";

	(void)state;
	assert_non_null(mkdtemp(dir));
	put(dir, "cpu_core/type", "8\n");
	put(dir, "cpu_core/format/event", "config:0-7\n");
	put(dir, "cpu_core/format/umask", "config:8-15\n");
	put(dir, "cpu_core/events/slots", "event=0x00,umask=0x4\n");
	td_encode_set_sysfs_root(dir);
	assert_int_equal(td_encode("cpu_core/event=0xc0,umask=0x1/", NULL, false, &enc, &err), 0);
	assert_int_equal(enc.attr.type, 8);
	assert_int_equal(enc.attr.config, 0x1c0);
	assert_int_equal(td_encode("cpu_core/slots/", NULL, false, &enc, &err), 0);
	assert_int_equal(enc.attr.config, 0x400);
	/* sysfs has no cmask here: the built-in format must not be used instead */
	assert_int_equal(td_encode("cpu_core/event=0xc0,cmask=1/", NULL, false, &enc, &err), -1);
	td_encode_set_sysfs_root("/sys/bus/event_source/devices");
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

/* A hybrid CPU's PMUs where sysfs lacks them: cpu_core is PERF_TYPE_RAW (the kernel registers
 * the big-core PMU so), cpu_atom's type is dynamic and so unknown — which keeps the same raw
 * code on the two PMUs two different events; with the adl-hybrid host tree's sysfs, its type 10. */
static void test_hybrid_pmus(void **state)
{
	(void)state;
	td_encode_set_sysfs_root("/nonexistent");
	assert_int_equal(td_encode("cpu_core/event=0x3c/", NULL, false, &enc, &err), 0);
	assert_int_equal(enc.attr.type, PERF_TYPE_RAW);
	assert_false(enc.type_unknown);
	assert_int_equal(td_encode("cpu_atom/event=0x71,umask=0x8d/", NULL, false, &enc, &err), 0);
	assert_true(enc.type_unknown);
	assert_int_equal(enc.attr.type, TD_TYPE_UNKNOWN);
	assert_int_equal(enc.attr.config, 0x8d71);
	assert_string_equal(enc.pmu, "cpu_atom");
	char dir[1024];
	snprintf(dir, sizeof(dir), "%s/tests/data/hosts/adl-hybrid/sys/bus/event_source/devices", getenv("TD_SRCDIR"));
	td_encode_set_sysfs_root(dir);
	assert_int_equal(td_encode("cpu_atom/event=0x71,umask=0x8d/", NULL, false, &enc, &err), 0);
	assert_false(enc.type_unknown);
	assert_int_equal(enc.attr.type, 10);
	assert_int_equal(enc.attr.config, 0x8d71);
	td_encode_set_sysfs_root("/sys/bus/event_source/devices");
}

/* An AMD model's raw cpu/ form on a host whose sysfs cpu format is Intel's (event
 * config:0-7, the skl-bare host tree): AMD's kernel format is used, so event codes above
 * 0xff keep bits 32-35 (PMCx1A0 umask 1 cmask 8: 0xa0 | 1 << 8 | 8 << 24 | 1 << 32). */
static void test_raw_form_amd_model(void **state)
{
	char dir[1024];

	(void)state;
	snprintf(dir, sizeof(dir), "%s/tests/data/hosts/skl-bare/sys/bus/event_source/devices", getenv("TD_SRCDIR"));
	td_encode_set_sysfs_root(dir);
	assert_int_equal(td_encode("cpu/event=0x1a0,umask=0x1,cmask=0x8/", "amd64_fam1ah_zen5", false, &enc, &err), 0);
	assert_int_equal(enc.attr.type, 4); /* the host's cpu PMU type */
	assert_true(enc.attr.config == 0x1080001a0ull);
	assert_int_equal(td_encode("cpu/event=0x1c2,umask=0x0/", "amd64_fam1ah_zen5", false, &enc, &err), 0);
	assert_true(enc.attr.config == 0x1000000c2ull);
	/* for the host (no model) the host's Intel format holds 8 event bits: refused, not cut */
	assert_int_equal(td_encode("cpu/event=0x1a0,umask=0x1/", NULL, false, &enc, &err), -1);
	assert_non_null(strstr(err.msg, "does not fit term 'event' (8 bits)"));
	td_encode_set_sysfs_root("/sys/bus/event_source/devices");
}

/* Intel's extra-register terms go to config1 through the PMU's sysfs format files (the
 * icl-perfmetrics and gnr-2s host trees carry the kernel's offcore_rsp config1:0-63,
 * ldlat config1:0-15, frontend config1:0-23), and through the built-in format where sysfs
 * lacks the PMU. Numbers from Intel perfmon: ICL OCR.STREAMING_WR.ANY_RESPONSE is event
 * 0xB7 umask 0x01 with MSR 0x1A6 = 0x10800; SPR OCR.DEMAND_RFO.L3_MISS MSR value 0x3F3FC00002
 * (38 bits: the high half must survive); GNR UOPS_RETIRED.MS is 0xC2/0x04 with MSR 0x3F7 = 0x8. */
static void test_extra_register_terms(void **state)
{
	char dir[1024];

	(void)state;
	snprintf(dir, sizeof(dir), "%s/tests/data/hosts/icl-perfmetrics/sys/bus/event_source/devices",
		 getenv("TD_SRCDIR"));
	td_encode_set_sysfs_root(dir);
	assert_int_equal(td_encode("cpu/event=0xb7,umask=0x1,offcore_rsp=0x10800/", NULL, false, &enc, &err), 0);
	assert_true(enc.attr.config == 0x1b7ull);
	assert_true(enc.attr.config1 == 0x10800ull);
	assert_true(enc.attr.config2 == 0);
	assert_int_equal(td_encode("cpu/event=0x2a,umask=0x1,offcore_rsp=0x3f3fc00002/", NULL, false, &enc, &err), 0);
	assert_true(enc.attr.config1 == 0x3f3fc00002ull);
	assert_int_equal(td_encode("cpu/event=0xcd,umask=0x1,ldlat=128/", NULL, false, &enc, &err), 0);
	assert_true(enc.attr.config == 0x1cdull);
	assert_true(enc.attr.config1 == 128);
	/* ldlat is 16 bits wide: a larger threshold is refused, not cut */
	assert_int_equal(td_encode("cpu/event=0xcd,umask=0x1,ldlat=0x10000/", NULL, false, &enc, &err), -1);
	assert_non_null(strstr(err.msg, "does not fit term 'ldlat' (16 bits)"));
	snprintf(dir, sizeof(dir), "%s/tests/data/hosts/gnr-2s/sys/bus/event_source/devices", getenv("TD_SRCDIR"));
	td_encode_set_sysfs_root(dir);
	assert_int_equal(td_encode("cpu/event=0xc2,umask=0x4,frontend=0x8/", NULL, false, &enc, &err), 0);
	assert_true(enc.attr.config == 0x4c2ull);
	assert_true(enc.attr.config1 == 0x8);
	assert_int_equal(td_encode("cpu/event=0xc2,umask=0x4,frontend=0x1000000/", NULL, false, &enc, &err), -1);
	assert_non_null(strstr(err.msg, "does not fit term 'frontend' (24 bits)"));
	/* an Intel model's file on a host whose cpu PMU is AMD's (the epyc-2s-256 tree, no extra
	 * registers): the built-in extra-register format; for the host itself, refused */
	snprintf(dir, sizeof(dir), "%s/tests/data/hosts/epyc-2s-256/sys/bus/event_source/devices", getenv("TD_SRCDIR"));
	td_encode_set_sysfs_root(dir);
	assert_int_equal(td_encode("cpu/event=0xc2,umask=0x4,frontend=0x8/", "gnr", false, &enc, &err), 0);
	assert_true(enc.attr.config == 0x4c2ull);
	assert_true(enc.attr.config1 == 0x8);
	assert_int_equal(td_encode("cpu/event=0xc2,umask=0x4,frontend=0x8/", NULL, false, &enc, &err), -1);
	assert_non_null(strstr(err.msg, "unknown term 'frontend'"));
	/* the host without the PMU in sysfs: the built-in formats give the same bits */
	td_encode_set_sysfs_root("/nonexistent");
	assert_int_equal(td_encode("cpu/event=0xb7,umask=0x1,offcore_rsp=0x10003c0002/", NULL, false, &enc, &err), 0);
	assert_true(enc.attr.config1 == 0x10003c0002ull);
	assert_int_equal(td_encode("cpu/event=0xad,umask=0x40,frontend=0x7/", NULL, false, &enc, &err), 0);
	assert_true(enc.attr.config == 0x40adull);
	assert_true(enc.attr.config1 == 0x7);
	/* perf's own config1= term (tools/perf/util/parse-events.c:916-918, linux 6.12.117), as toplev
	 * writes an OCR event's MSR value: ICX OCR.DEMAND_RFO.L3_MISS with TMA's 0x103B800002 (perfmon) */
	assert_int_equal(td_encode("cpu/event=0xb7,umask=0x1,config1=0x103b800002/", NULL, false, &enc, &err), 0);
	assert_true(enc.attr.config == 0x1b7ull);
	assert_true(enc.attr.config1 == 0x103b800002ull);
	td_encode_set_sysfs_root("/sys/bus/event_source/devices");
}

/* A sysfs format naming config2 fills config2; a field perf_event_attr lacks is refused. */
static void test_config2_format(void **state)
{
	char dir[] = "/tmp/td-sysfs-XXXXXX";

	(void)state;
	assert_non_null(mkdtemp(dir));
	put(dir, "cpu/type", "4\n");
	put(dir, "cpu/format/event", "config:0-7\n");
	put(dir, "cpu/format/thresh", "config2:4-11\n");
	put(dir, "cpu/format/bogus", "config3:0-3\n");
	td_encode_set_sysfs_root(dir);
	assert_int_equal(td_encode("cpu/event=0x11,thresh=0xab/", NULL, false, &enc, &err), 0);
	assert_true(enc.attr.config == 0x11);
	assert_true(enc.attr.config1 == 0);
	assert_true(enc.attr.config2 == 0xab0ull);
	assert_int_equal(td_encode("cpu/event=0x11,bogus=1/", NULL, false, &enc, &err), -1);
	assert_non_null(strstr(err.msg, "unsupported format field 'config3'"));
	td_encode_set_sysfs_root("/sys/bus/event_source/devices");
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

/* A term given twice means what perf makes of it: perf ORs each term's bits into the field
 * (pmu_format_value(), tools/perf/util/pmu.c:1282-1297 of linux 6.12.117, zero = false for the cpu
 * PMU), so umask 0x8 then 0x80 is umask 0x88, and a later 0 clears nothing. A perf JSON event name
 * in the form is expanded to its perfmon encoding first (perf_pmu__check_alias(), pmu.c:1607):
 * EXE_ACTIVITY.3_PORTS_UTIL is 0xA6/0x08 (perf's icelake pipeline.json), so with umask=0x80 it
 * counts 0xA6/0x88 (perf's icl-metrics.json tma_ports_utilized_0 writes exactly this), and
 * OFFCORE_REQUESTS_OUTSTANDING.DEMAND_DATA_RD (0x60/0x01, icelake cache.json) with umask=0x0 stays
 * umask 0x01. */
static void test_repeated_terms(void **state)
{
	(void)state;
	td_encode_set_sysfs_root("/nonexistent");
	assert_int_equal(td_encode("cpu/event=0xa6,umask=0x8,umask=0x80/", NULL, false, &enc, &err), 0);
	assert_int_equal(enc.attr.config, 0x88a6ull);
	assert_int_equal(td_encode("cpu/event=0xa6,umask=0x80,umask=0x0/", NULL, false, &enc, &err), 0);
	assert_int_equal(enc.attr.config, 0x80a6ull);
	assert_int_equal(td_encode("cpu/event=0x9c,umask=0x1,cmask=1,cmask=4/", NULL, false, &enc, &err), 0);
	assert_int_equal(enc.attr.config, 0x0500019cull);
	assert_int_equal(td_encode("cpu/exe_activity.3_ports_util,umask=0x80/", "icl", false, &enc, &err), 0);
	assert_int_equal(enc.attr.type, PERF_TYPE_RAW);
	assert_int_equal(enc.attr.config, 0x88a6ull);
	assert_int_equal(td_encode("cpu/exe_activity.3_ports_util/", "icl", false, &enc, &err), 0);
	assert_int_equal(enc.attr.config, 0x08a6ull);
	assert_int_equal(
		td_encode("cpu/offcore_requests_outstanding.demand_data_rd,umask=0x0/", "icl", false, &enc, &err), 0);
	assert_int_equal(enc.attr.config, 0x0160ull);
	assert_int_equal(td_encode("cpu/no_such_event.at_all,umask=0x80/", "icl", false, &enc, &err), -1);
	assert_non_null(strstr(err.msg, "unknown term 'no_such_event.at_all'"));
}

static void test_rnnnn(void **state)
{
	(void)state;
	assert_int_equal(td_encode("r019c", NULL, false, &enc, &err), 0);
	assert_int_equal(enc.attr.type, PERF_TYPE_RAW);
	assert_int_equal(enc.attr.config, 0x19c);
	assert_int_equal(td_encode("r4301c2:u", NULL, true, &enc, &err), 0);
	assert_int_equal(enc.attr.config, 0x4301c2);
	assert_int_equal(enc.attr.exclude_kernel, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_software_events),	     cmocka_unit_test(test_other_model),
		cmocka_unit_test(test_raw_form_builtin),     cmocka_unit_test(test_raw_form_errors),
		cmocka_unit_test(test_raw_form_sysfs),	     cmocka_unit_test(test_rnnnn),
		cmocka_unit_test(test_raw_form_amd_model),   cmocka_unit_test(test_hybrid_pmus),
		cmocka_unit_test(test_extra_register_terms), cmocka_unit_test(test_config2_format),
		cmocka_unit_test(test_repeated_terms), /* last: it points the sysfs root away */
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
