/* syswide: one group set per online CPU (see syswide.h). */
#include "syswide.h"
#include "machine/host.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/vfs.h>
#include <unistd.h>

struct td_syswide {
	struct td_perf_group_spec specs[TD_MAX_SPECS];
	int nspecs;
	char disabled[TD_MAX_SPECS][300];
	char split[TD_MAX_SPECS][300]; /* why spec g is counted in parts ("": one group) */
	int cgroup_fd;
	struct td_cpu_slot *cpus;
	int ncpus;
};

/* Is cpu in ids[0..n)? */
static bool has_cpu(const int *ids, int n, int cpu)
{
	for (int i = 0; i < n; i++)
		if (ids[i] == cpu)
			return true;
	return false;
}

/* Every online CPU (of only[0..nonly), when given) with its core and
 * socket (as host.c reads them: the host, or a recorded tree under
 * TD_SYSROOT). The number, or -1 with err set. */
static int online_cpus(struct td_syswide *w, const int *only, int nonly, td_err *err)
{
	int *ids, n = td_host_online_cpus(&ids), kept = 0;

	if (n <= 0) {
		td_err_set(err, "cannot read the online CPUs from /sys/devices/system/cpu/online: is sysfs mounted?");
		return -1;
	}
	for (int i = 0; only && i < nonly; i++)
		if (!has_cpu(ids, n, only[i])) {
			td_err_set(err,
				   "CPU %d is not online: give CPUs of /sys/devices/system/cpu/online (%d of them, "
				   "%d to %d)",
				   only[i], n, ids[0], ids[n - 1]);
			free(ids);
			return -1;
		}
	for (int i = 0; i < n; i++)
		if (!only || has_cpu(only, nonly, ids[i]))
			ids[kept++] = ids[i];
	n = kept;
	if (!(w->cpus = calloc((size_t)n + 1, sizeof(*w->cpus)))) {
		free(ids);
		td_err_set(err, "out of memory");
		return -1;
	}
	for (int i = 0; i < n; i++) {
		w->cpus[i].cpu = ids[i];
		w->cpus[i].core = td_host_cpu_topology(ids[i], "core_id");
		w->cpus[i].socket = td_host_cpu_topology(ids[i], "physical_package_id");
	}
	free(ids);
	return n;
}

const char *td_syswide_refusal(bool root, bool cap_perfmon, bool cap_sys_admin, int paranoid, char *buf, size_t len)
{
	if (root || cap_perfmon || cap_sys_admin || paranoid <= 0)
		return NULL;
	snprintf(buf, len,
		 "system-wide counting needs root, CAP_PERFMON or kernel.perf_event_paranoid <= 0 (it is %d): "
		 "run tdctl as root",
		 paranoid);
	return buf;
}

static bool cannot_count(int err)
{
	return err == ENOENT || err == EOPNOTSUPP || err == EINVAL || err == ENODEV;
}

struct try_ctx {
	const struct td_syswide *w;
	int cpu;
};

/* td_group_try_fn: members [first, first + n) as one group on a CPU, opened disabled and closed. */
static int try_part(void *ctx, const struct td_perf_group_spec *s, int first, int n, int *failed)
{
	const struct try_ctx *c = ctx;

	return td_perf_group_try_part(s, first, n, c->w->cgroup_fd, c->cpu, c->w->cgroup_fd >= 0 ? TD_OPEN_CGROUP : 0,
				      failed);
}

/* Open spec g on every CPU; the first CPU decides whether an optional group
 * counts. The leader opens disabled and the whole group is enabled once
 * every member exists: a member added to a CPU-wide group that is already
 * counting is not scheduled in until the group is (a CPU's context is
 * rarely switched), so it would read 0 for the whole session — context
 * switches and page faults did, beside a correct task-clock. */
static int open_spec(struct td_syswide *w, int g, int paranoid, td_err *err)
{
	for (int i = 0; i < w->ncpus; i++) {
		int failed = 0,
		    rc = td_perf_group_open(&w->cpus[i].groups[g], &w->specs[g], w->cgroup_fd, w->cpus[i].cpu,
					    TD_OPEN_DISABLED | (w->cgroup_fd >= 0 ? TD_OPEN_CGROUP : 0), &failed);
		char why[300];
		if (rc != 0 && i == 0 && td_perf_group_unschedulable(-rc, failed)) {
			/* the kernel refused the group whole: count it in parts (perf_group.h) */
			struct try_ctx c = { w, w->cpus[0].cpu };
			int at = failed, parts;
			if ((parts = td_perf_group_split(&w->specs[g], try_part, &c, &failed)) > 0) {
				td_perf_group_split_why(&w->specs[g], -rc, at, w->split[g], sizeof(w->split[g]));
				rc = td_perf_group_open(
					&w->cpus[i].groups[g], &w->specs[g], w->cgroup_fd, w->cpus[i].cpu,
					TD_OPEN_DISABLED | (w->cgroup_fd >= 0 ? TD_OPEN_CGROUP : 0), &failed);
			} else {
				rc = parts;
			}
		}
		if (rc == 0 && (rc = td_perf_group_enable(&w->cpus[i].groups[g], true)) != 0)
			td_perf_group_close(&w->cpus[i].groups[g]);
		if (rc == 0) {
			w->cpus[i].open[g] = true;
			continue;
		}
		td_perf_strerror(-rc, w->specs[g].names[failed], paranoid, why, sizeof(why));
		if (g > 0 && i == 0 && cannot_count(-rc)) {
			snprintf(w->disabled[g], sizeof(w->disabled[g]), "%s", why);
			return 0;
		}
		td_err_set(err, "CPU %d: %s", w->cpus[i].cpu, why);
		return -1;
	}
	return 0;
}

int td_syswide_open(const struct td_perf_group_spec *specs, int nspecs, int paranoid, int cgroup_fd, const int *only,
		    int nonly, struct td_syswide **out, td_err *err)
{
	struct td_syswide *w = calloc(1, sizeof(*w));

	if (!w || nspecs > TD_MAX_SPECS) {
		td_syswide_free(w);
		td_err_set(err, "out of memory");
		return -1;
	}
	memcpy(w->specs, specs, (size_t)nspecs * sizeof(*specs));
	w->nspecs = nspecs;
	w->cgroup_fd = cgroup_fd;
	if ((w->ncpus = online_cpus(w, only, nonly, err)) <= 0) {
		td_syswide_free(w);
		return -1;
	}
	for (int g = 0; g < nspecs; g++)
		if (open_spec(w, g, paranoid, err)) {
			td_syswide_free(w);
			return -1;
		}
	*out = w;
	return 0;
}

void td_syswide_free(struct td_syswide *w)
{
	if (!w)
		return;
	for (int i = 0; w->cpus && i < w->ncpus; i++)
		for (int g = 0; g < w->nspecs; g++)
			if (w->cpus[i].open[g])
				td_perf_group_close(&w->cpus[i].groups[g]);
	free(w->cpus);
	free(w);
}

int td_syswide_ncpus(const struct td_syswide *w)
{
	return w->ncpus;
}

struct td_cpu_slot *td_syswide_cpu(struct td_syswide *w, int i)
{
	return &w->cpus[i];
}

const char *td_syswide_split(const struct td_syswide *w, int spec, const uint8_t **sub)
{
	*sub = w->specs[spec].sub;
	return w->split[spec][0] ? w->split[spec] : NULL;
}

const char *td_syswide_disabled(const struct td_syswide *w, int spec)
{
	return w->disabled[spec][0] ? w->disabled[spec] : NULL;
}

int td_syswide_sample(struct td_syswide *w, td_cpu_counts_fn fn, void *ctx)
{
	struct td_count d[TD_GROUP_MAX];

	for (int i = 0; i < w->ncpus; i++)
		for (int g = 0; g < w->nspecs; g++) {
			struct td_cpu_slot *c = &w->cpus[i];
			if (!c->open[g] || td_perf_group_read(&c->groups[g], &c->last[g]) != 0)
				continue;
			c->have_last[g] = true;
			td_reading_delta(&c->prev[g], &c->last[g], w->specs[g].n, d);
			if (fn(ctx, c, g, d, w->specs[g].n))
				return -1;
		}
	return 0;
}

void td_syswide_commit(struct td_syswide *w)
{
	for (int i = 0; i < w->ncpus; i++)
		for (int g = 0; g < w->nspecs; g++)
			if (w->cpus[i].have_last[g])
				w->cpus[i].prev[g] = w->cpus[i].last[g];
}

void td_syswide_forget_ids(struct td_syswide *w, int64_t above)
{
	for (int i = 0; i < w->ncpus; i++)
		if (w->cpus[i].store_id > above)
			w->cpus[i].store_id = 0;
}

/* Mount point of the cgroup v2 hierarchy, else of the v1 perf_event one. */
static int cgroup_mount(char *out, size_t len)
{
	char path[4096], dev[256], dir[512], type[64], opts[512];
	bool found = false;
	FILE *f;

	if (td_host_path(path, sizeof(path), "/proc/self/mounts") < 0 || !(f = fopen(path, "re")))
		return -1;
	while (!found && fscanf(f, "%255s %511s %63s %511s %*d %*d", dev, dir, type, opts) == 4) {
		if (!strcmp(type, "cgroup2") || (!strcmp(type, "cgroup") && strstr(opts, "perf_event"))) {
			snprintf(out, len, "%s", dir);
			found = true;
		}
	}
	fclose(f);
	return found ? 0 : -1;
}

int td_cgroup_relative(const char *path, char *out, size_t len, td_err *err)
{
	char mnt[512];
	size_t m;

	if (cgroup_mount(mnt, sizeof(mnt))) {
		td_err_set(err, "no cgroup v2 hierarchy is mounted: processes cannot be matched by cgroup");
		return -1;
	}
	m = strlen(mnt);
	if (!strncmp(path, mnt, m) && (path[m] == '/' || !path[m]))
		path += m;
	while (path[0] == '/' && path[1] == '/')
		path++;
	if ((size_t)snprintf(out, len, "%s%s", path[0] == '/' ? "" : "/", path) >= len) {
		td_err_set(err, "cgroup path '%.100s...' is too long", path);
		return -1;
	}
	/* no trailing '/': "/a/" and "/a" are one cgroup */
	for (size_t n = strlen(out); n > 1 && out[n - 1] == '/'; n--)
		out[n - 1] = '\0';
	return 0;
}

int td_cgroup_open(const char *path, char *resolved, size_t len, td_err *err)
{
	char mnt[512];
	int fd;

	if (path[0] == '/' && (fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) >= 0) {
		struct statfs fs;
		/* a directory of another file system (a tmpfs where cgroup v1 controllers
		 * are mounted below it) is no cgroup: perf_event_open would say EBADF */
		if (fstatfs(fd, &fs) == 0 && fs.f_type != CGROUP2_SUPER_MAGIC && fs.f_type != CGROUP_SUPER_MAGIC) {
			close(fd);
			if (cgroup_mount(mnt, sizeof(mnt)))
				td_err_set(err,
					   "'%s' is not a cgroup, and no cgroup v2 (or v1 perf_event) hierarchy is "
					   "mounted: mount one",
					   path);
			else
				td_err_set(err, "'%s' is not a cgroup: give a directory under %s, or a path inside it",
					   path, mnt);
			return -1;
		}
		snprintf(resolved, len, "%s", path);
		return fd;
	}
	if (cgroup_mount(mnt, sizeof(mnt))) {
		td_err_set(err, "no cgroup v2 (or v1 perf_event) hierarchy is mounted: mount one, or give the cgroup's "
				"full path");
		return -1;
	}
	snprintf(resolved, len, "%s/%s", mnt, path[0] == '/' ? path + 1 : path);
	if ((fd = open(resolved, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		td_err_set(err, "no cgroup '%s' (%s: %s): give a directory under %s, or its full path", path, resolved,
			   strerror(errno), mnt);
	return fd;
}
