/* workload: what a cgroup v2 path says of the workload in it, as labels for
 * the exporter (watch mode's groups): the systemd unit and slice, a
 * Kubernetes pod's UID and QoS class and its container's runtime and ID, a
 * Docker container's ID. Only what the path's names spell by the documented
 * conventions of systemd (systemd.unit(5), systemd.slice(5): a slice's
 * name is its parents' joined by '-'; a scope or service below it), of the
 * kubelet (its systemd cgroup driver: kubepods.slice /
 * kubepods-QOS.slice / kubepods-QOS-podUID.slice with the UID's '-' as
 * '_', the container in RUNTIME-ID.scope; its cgroupfs driver: kubepods /
 * QOS / podUID / ID) and of Docker (docker-ID.scope, or docker / ID):
 * nothing is looked up, no name is guessed; a component that does not
 * spell a field whole (a UID of 36, an ID of 64 hexadecimal digits) gives
 * none. Pure. */
#ifndef TD_WORKLOAD_H
#define TD_WORKLOAD_H

/* label pairs td_workload_labels() gives at most */
#define TD_WORKLOAD_PAIRS 6

struct td_workload {
	/* each "" when the path does not say it; a path component is at most
	 * NAME_MAX (255) bytes, so a unit or slice always fits */
	char unit[256];		    /* the deepest systemd unit that is not a slice: "nginx.service" */
	char slice[256];	    /* the deepest slice: "system.slice", "kubepods-burstable.slice" */
	char pod_uid[37];	    /* "0f5c3c9e-0d6e-4c1a-9d7f-2b8a1d0e6f4a" */
	char qos_class[11];	    /* "guaranteed", "burstable", "besteffort" (a pod only) */
	char container_runtime[16]; /* "containerd", "cri-o", "docker" */
	char container_id[65];	    /* 64 hexadecimal digits */
};

/* The workload of cgroup path (relative to the hierarchy's root or not: "/"
 * separates components, empty ones are skipped). */
void td_workload_of(const char *path, struct td_workload *w);

/* w's fields that are set, as label name and value pairs into out (room for
 * 2 * TD_WORKLOAD_PAIRS pointers into w); returns the pointers written. */
int td_workload_labels(const struct td_workload *w, const char **out);

#endif
