/* workload: the workload a cgroup v2 path names (see workload.h). */
#include "workload.h"

#include <assert.h>
#include <stdbool.h>
#include <string.h>

#define UID_LEN 36 /* 8-4-4-4-12 hexadecimal digits */
#define ID_LEN 64  /* a container runtime's ID: 64 hexadecimal digits */

static bool is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

static bool all_hex(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!is_hex(s[i]))
			return false;
	return true;
}

/* s[0..UID_LEN) a pod UID with dash (the kubelet's systemd driver writes '_')
 * between its groups; into out as the UID (with '-') */
static bool take_uid(const char *s, char dash, char out[UID_LEN + 1])
{
	char uid[UID_LEN + 1];

	for (int i = 0; i < UID_LEN; i++) {
		bool sep = i == 8 || i == 13 || i == 18 || i == 23;
		if (sep ? s[i] != dash : !is_hex(s[i]))
			return false; /* out as it was */
		uid[i] = sep ? '-' : s[i];
	}
	uid[UID_LEN] = '\0';
	memcpy(out, uid, sizeof(uid));
	return true;
}

static bool ends_with(const char *s, size_t n, const char *suffix)
{
	size_t k = strlen(suffix);

	return n > k && !memcmp(s + n - k, suffix, k);
}

static bool starts_with(const char *s, size_t n, const char *prefix)
{
	size_t k = strlen(prefix);

	return n >= k && !memcmp(s, prefix, k);
}

static void copy(char *dst, size_t size, const char *s, size_t n)
{
	assert(n < size); /* the callers' fields hold a component (NAME_MAX) or what they checked */
	memcpy(dst, s, n);
	dst[n] = '\0';
}

/* A pod's slice by the kubelet's systemd driver: kubepods-podUID.slice
 * (guaranteed), kubepods-burstable-podUID.slice, kubepods-besteffort-podUID.slice */
static bool pod_slice(const char *c, size_t n, struct td_workload *w)
{
	static const char *const qos[] = { "burstable", "besteffort" };
	const char *q = "guaranteed";
	size_t at = strlen("kubepods-");

	if (!starts_with(c, n, "kubepods-"))
		return false;
	for (size_t i = 0; i < sizeof(qos) / sizeof(qos[0]); i++)
		if (starts_with(c + at, n - at, qos[i]) && c[at + strlen(qos[i])] == '-') {
			q = qos[i];
			at += strlen(qos[i]) + 1;
			break;
		}
	if (n != at + 3 + UID_LEN + strlen(".slice") || !starts_with(c + at, n - at, "pod") ||
	    !take_uid(c + at + 3, '_', w->pod_uid))
		return false;
	copy(w->qos_class, sizeof(w->qos_class), q, strlen(q));
	return true;
}

/* A container's scope: RUNTIME-ID.scope */
static bool container_scope(const char *c, size_t n, struct td_workload *w)
{
	static const struct {
		const char *prefix, *runtime;
	} known[] = { { "cri-containerd-", "containerd" }, { "crio-", "cri-o" }, { "docker-", "docker" } };

	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		size_t k = strlen(known[i].prefix);
		if (n == k + ID_LEN + strlen(".scope") && starts_with(c, n, known[i].prefix) &&
		    all_hex(c + k, ID_LEN)) {
			copy(w->container_id, sizeof(w->container_id), c + k, ID_LEN);
			copy(w->container_runtime, sizeof(w->container_runtime), known[i].runtime,
			     strlen(known[i].runtime));
			return true;
		}
	}
	return false;
}

void td_workload_of(const char *path, struct td_workload *w)
{
	/* the cgroupfs drivers' parents seen: kubepods (then a QoS, a pod), docker */
	bool kubepods = false, docker = false;
	const char *qos = NULL;

	memset(w, 0, sizeof(*w));
	for (const char *c = path; c && *c;) {
		const char *slash = strchr(c, '/');
		size_t n = slash ? (size_t)(slash - c) : strlen(c);
		if (n == 0 || n > 255) { /* an empty component, or none a file system holds */
			c = slash ? slash + 1 : NULL;
			continue;
		}
		if (ends_with(c, n, ".slice")) {
			copy(w->slice, sizeof(w->slice), c, n);
			if (!w->pod_uid[0])
				pod_slice(c, n, w);
		} else if (ends_with(c, n, ".service") || ends_with(c, n, ".scope") || ends_with(c, n, ".socket") ||
			   ends_with(c, n, ".mount") || ends_with(c, n, ".swap")) {
			copy(w->unit, sizeof(w->unit), c, n);
			if (!w->container_id[0] && ends_with(c, n, ".scope"))
				container_scope(c, n, w);
		} else if (n == strlen("kubepods") && !memcmp(c, "kubepods", n)) {
			kubepods = true;
		} else if (kubepods && !w->pod_uid[0] && !qos &&
			   ((n == 9 && !memcmp(c, "burstable", n)) || (n == 10 && !memcmp(c, "besteffort", n)))) {
			qos = n == 9 ? "burstable" : "besteffort";
		} else if (kubepods && !w->pod_uid[0] && n == 3 + UID_LEN && starts_with(c, n, "pod") &&
			   take_uid(c + 3, '-', w->pod_uid)) {
			const char *q = qos ? qos : "guaranteed";
			copy(w->qos_class, sizeof(w->qos_class), q, strlen(q));
		} else if (n == strlen("docker") && !memcmp(c, "docker", n)) {
			docker = true;
		} else if ((w->pod_uid[0] && kubepods) || docker) {
			if (!w->container_id[0] && n == ID_LEN && all_hex(c, n)) {
				copy(w->container_id, sizeof(w->container_id), c, n);
				if (docker)
					copy(w->container_runtime, sizeof(w->container_runtime), "docker", 6);
			}
		}
		c = slash ? slash + 1 : NULL;
	}
}

int td_workload_labels(const struct td_workload *w, const char **out)
{
	const struct {
		const char *name, *value;
	} f[TD_WORKLOAD_PAIRS] = {
		{ "systemd_unit", w->unit },
		{ "systemd_slice", w->slice },
		{ "pod_uid", w->pod_uid },
		{ "qos_class", w->qos_class },
		{ "container_runtime", w->container_runtime },
		{ "container_id", w->container_id },
	};
	int n = 0;

	for (int i = 0; i < TD_WORKLOAD_PAIRS; i++)
		if (f[i].value[0]) {
			out[n++] = f[i].name;
			out[n++] = f[i].value;
		}
	return n;
}
