/* Unit tests for src/topdownd/workload.c: cgroup v2 paths as the kubelet,
 * container runtimes, Docker and systemd make them, and what each says.
 * The paths follow the conventions as their sources state them, not this
 * parser: the kubelet's CgroupName.ToSystemd() (pkg/kubelet/cm/
 * cgroup_manager_linux.go: {"kubepods", "burstable", "pod1234-abcd-..."}
 * becomes "/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-
 * pod1234_abcd_....slice", each '-' of a part escaped as '_'; ToCgroupfs()
 * joins the parts with '/'; Guaranteed pods sit directly below kubepods),
 * SystemdPathPrefixOfRuntime() there ("cri-o" -> "crio", "containerd" ->
 * "cri-containerd": a container's scope is PREFIX-ID.scope), Docker's
 * systemd driver (docker-ID.scope in system.slice) and cgroupfs driver
 * (/docker/ID), and systemd.unit(5) for units' suffixes. A pod UID is an
 * RFC 4122 UUID (36 characters), a container ID 64 hexadecimal digits. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "topdownd/workload.h"

#define UID "0f5c3c9e-0d6e-4c1a-9d7f-2b8a1d0e6f4a"
#define UID_ "0f5c3c9e_0d6e_4c1a_9d7f_2b8a1d0e6f4a" /* as the systemd driver escapes it */
#define CID "4d1f0c8b9e2a7f6d5c4b3a291807f6e5d4c3b2a1908f7e6d5c4b3a2918070605"

static struct td_workload of(const char *path)
{
	struct td_workload w;

	td_workload_of(path, &w);
	return w;
}

static void test_systemd_service(void **state)
{
	(void)state;
	struct td_workload w = of("/system.slice/nginx.service");

	assert_string_equal(w.unit, "nginx.service");
	assert_string_equal(w.slice, "system.slice");
	assert_string_equal(w.pod_uid, "");
	assert_string_equal(w.container_id, "");
	/* a user's session scope below nested slices: the deepest of each */
	w = of("user.slice/user-1000.slice/session-3.scope");
	assert_string_equal(w.unit, "session-3.scope");
	assert_string_equal(w.slice, "user-1000.slice");
	/* a slice alone: no unit */
	w = of("/system.slice");
	assert_string_equal(w.unit, "");
	assert_string_equal(w.slice, "system.slice");
}

static void test_kubelet_systemd_driver(void **state)
{
	(void)state;
	struct td_workload w = of("/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod" UID_
				  ".slice/cri-containerd-" CID ".scope");

	assert_string_equal(w.pod_uid, UID);
	assert_string_equal(w.qos_class, "burstable");
	assert_string_equal(w.container_runtime, "containerd");
	assert_string_equal(w.container_id, CID);
	assert_string_equal(w.slice, "kubepods-burstable-pod" UID_ ".slice");
	assert_string_equal(w.unit, "cri-containerd-" CID ".scope");

	w = of("/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod" UID_ ".slice/crio-" CID ".scope");
	assert_string_equal(w.qos_class, "besteffort");
	assert_string_equal(w.container_runtime, "cri-o");
	assert_string_equal(w.container_id, CID);

	/* Guaranteed: the pod's slice directly below kubepods.slice; the pod's own group */
	w = of("/kubepods.slice/kubepods-pod" UID_ ".slice");
	assert_string_equal(w.pod_uid, UID);
	assert_string_equal(w.qos_class, "guaranteed");
	assert_string_equal(w.container_id, "");
	/* the QoS slice alone names no pod */
	w = of("/kubepods.slice/kubepods-burstable.slice");
	assert_string_equal(w.pod_uid, "");
	assert_string_equal(w.qos_class, "");
}

static void test_kubelet_cgroupfs_driver(void **state)
{
	(void)state;
	struct td_workload w = of("/kubepods/burstable/pod" UID "/" CID);

	assert_string_equal(w.pod_uid, UID);
	assert_string_equal(w.qos_class, "burstable");
	assert_string_equal(w.container_id, CID);
	assert_string_equal(w.container_runtime, ""); /* the path does not say */
	assert_string_equal(w.unit, "");

	w = of("kubepods/pod" UID);
	assert_string_equal(w.pod_uid, UID);
	assert_string_equal(w.qos_class, "guaranteed");
}

static void test_docker(void **state)
{
	(void)state;
	struct td_workload w = of("/system.slice/docker-" CID ".scope");

	assert_string_equal(w.container_runtime, "docker");
	assert_string_equal(w.container_id, CID);
	assert_string_equal(w.unit, "docker-" CID ".scope");
	assert_string_equal(w.slice, "system.slice");

	w = of("/docker/" CID);
	assert_string_equal(w.container_runtime, "docker");
	assert_string_equal(w.container_id, CID);
}

/* Names that do not spell a field whole give none: no guess. */
static void test_not_whole(void **state)
{
	(void)state;
	/* a UID one digit short, one with a letter out of hex, '-' where the systemd driver writes '_' */
	struct td_workload w = of("/kubepods.slice/kubepods-pod0f5c3c9e_0d6e_4c1a_9d7f_2b8a1d0e6f4.slice");

	assert_string_equal(w.pod_uid, "");
	assert_string_equal(w.qos_class, "");
	w = of("/kubepods.slice/kubepods-podxf5c3c9e_0d6e_4c1a_9d7f_2b8a1d0e6f4a.slice");
	assert_string_equal(w.pod_uid, "");
	w = of("/kubepods.slice/kubepods-pod" UID ".slice");
	assert_string_equal(w.pod_uid, "");
	/* a container ID of 63 digits; CRI-O's conmon scope (not a container) */
	w = of("/system.slice/docker-4d1f0c8b9e2a7f6d5c4b3a291807f6e5d4c3b2a1908f7e6d5c4b3a291807060.scope");
	assert_string_equal(w.container_id, "");
	w = of("/kubepods.slice/kubepods-pod" UID_ ".slice/crio-conmon-" CID ".scope");
	assert_string_equal(w.container_id, "");
	assert_string_equal(w.pod_uid, UID);
	/* a 64-digit name outside kubepods and docker is nobody's container */
	w = of("/other/" CID);
	assert_string_equal(w.container_id, "");
	/* a pod directory outside kubepods */
	w = of("/pod" UID);
	assert_string_equal(w.pod_uid, "");
	/* nothing at all */
	w = of("");
	assert_string_equal(w.unit, "");
	w = of("//");
	assert_string_equal(w.slice, "");
}

static void test_labels(void **state)
{
	(void)state;
	const char *l[2 * TD_WORKLOAD_PAIRS];
	struct td_workload w = of("/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod" UID_
				  ".slice/cri-containerd-" CID ".scope");
	int n = td_workload_labels(&w, l);

	assert_int_equal(n, 12);
	assert_string_equal(l[0], "systemd_unit");
	assert_string_equal(l[1], "cri-containerd-" CID ".scope");
	assert_string_equal(l[2], "systemd_slice");
	assert_string_equal(l[4], "pod_uid");
	assert_string_equal(l[5], UID);
	assert_string_equal(l[6], "qos_class");
	assert_string_equal(l[7], "burstable");
	assert_string_equal(l[8], "container_runtime");
	assert_string_equal(l[9], "containerd");
	assert_string_equal(l[10], "container_id");
	assert_string_equal(l[11], CID);
	/* only what is set */
	w = of("/system.slice/nginx.service");
	n = td_workload_labels(&w, l);
	assert_int_equal(n, 4);
	assert_string_equal(l[0], "systemd_unit");
	assert_string_equal(l[2], "systemd_slice");
	w = of("/td-watch/steady");
	assert_int_equal(td_workload_labels(&w, l), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_systemd_service),
		cmocka_unit_test(test_kubelet_systemd_driver),
		cmocka_unit_test(test_kubelet_cgroupfs_driver),
		cmocka_unit_test(test_docker),
		cmocka_unit_test(test_not_whole),
		cmocka_unit_test(test_labels),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
