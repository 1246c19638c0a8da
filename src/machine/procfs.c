/* procfs: reading /proc for task lists, names, parents and runtimes. */
#include "procfs.h"
#include "base/util.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char proc_root[256] = "/proc";

void td_proc_set_root(const char *dir)
{
	snprintf(proc_root, sizeof(proc_root), "%s", dir);
}

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;
	return (x > y) - (x < y);
}

static int list_numeric(const char *path, pid_t **out)
{
	DIR *d = opendir(path);
	struct dirent *de;
	pid_t *arr = NULL;
	int n = 0, cap = 0;

	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			pid_t *na = realloc(arr, (size_t)cap * sizeof(pid_t));
			if (!na) {
				free(arr);
				closedir(d);
				return -ENOMEM;
			}
			arr = na;
		}
		arr[n++] = (pid_t)atol(de->d_name);
	}
	closedir(d);
	qsort(arr, (size_t)n, sizeof(pid_t), cmp_pid);
	*out = arr;
	return n;
}

int td_proc_tasks(pid_t pid, pid_t **tids)
{
	char path[300];

	snprintf(path, sizeof(path), "%s/%d/task", proc_root, (int)pid);
	return list_numeric(path, tids);
}

int td_proc_pids(pid_t **pids)
{
	return list_numeric(proc_root, pids);
}

int td_proc_comm(pid_t pid, pid_t tid, char *buf, size_t len)
{
	char path[300];
	int n;

	snprintf(path, sizeof(path), "%s/%d/task/%d/comm", proc_root, (int)pid, (int)tid);
	n = td_read_file(path, buf, len);
	return n < 0 ? n : 0;
}

/* /proc/PID/stat into buf; *fields: what follows the command's closing
 * parenthesis (field 3 on; comm may hold spaces and parentheses). 0 or -errno. */
static int read_stat(pid_t pid, char *buf, size_t len, const char **fields)
{
	char path[300];
	int n;

	snprintf(path, sizeof(path), "%s/%d/stat", proc_root, (int)pid);
	if ((n = td_read_file(path, buf, len)) < 0)
		return n;
	*fields = strrchr(buf, ')');
	if (!*fields)
		return -EINVAL;
	(*fields)++;
	return 0;
}

int td_proc_stat(pid_t pid, pid_t *ppid, char *state)
{
	char buf[1024];
	const char *f;
	int pp, rc;
	char st;

	if ((rc = read_stat(pid, buf, sizeof(buf), &f)))
		return rc;
	if (sscanf(f, " %c %d", &st, &pp) != 2)
		return -EINVAL;
	if (ppid)
		*ppid = pp;
	if (state)
		*state = st;
	return 0;
}

int td_proc_identity(pid_t pid, pid_t *ppid, long long *start, char *comm, size_t len)
{
	char buf[1024];
	const char *f, *open;
	int pp, rc;

	if ((rc = read_stat(pid, buf, sizeof(buf), &f)))
		return rc;
	/* ppid is field 4, starttime 22 */
	if (sscanf(f, " %*c %d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d %*d %*d %lld", &pp, start) !=
		    2 ||
	    !(open = strchr(buf, '(')))
		return -EINVAL;
	*ppid = pp;
	/* the name is between the first '(' and the last ')' (it may hold either) */
	size_t n = (size_t)(f - 1 - (open + 1));
	snprintf(comm, len, "%.*s", (int)n, open + 1);
	return 0;
}

int td_proc_exe(pid_t pid, char **path)
{
	char link[300];
	size_t cap = 256;

	snprintf(link, sizeof(link), "%s/%d/exe", proc_root, (int)pid);
	for (;;) {
		char *buf = malloc(cap);
		ssize_t n;
		if (!buf)
			return -ENOMEM;
		if ((n = readlink(link, buf, cap)) < 0) {
			int e = errno;
			free(buf);
			return -e;
		}
		if ((size_t)n < cap) {
			buf[n] = '\0';
			*path = buf;
			return 0;
		}
		free(buf); /* it may not have fitted: again, larger */
		cap *= 2;
	}
}

int td_proc_cgroup_v2(pid_t pid, char **path)
{
	char file[300], *text = NULL, *line;
	int rc;

	snprintf(file, sizeof(file), "%s/%d/cgroup", proc_root, (int)pid);
	if ((rc = td_slurp(file, &text, NULL)) < 0)
		return rc;
	/* "0::/PATH": the v2 hierarchy's line, the first or after v1 lines */
	line = !strncmp(text, "0::", 3) ? text : strstr(text, "\n0::");
	rc = -ENODATA;
	if (line) {
		char *start = line + (line == text ? 3 : 4), *nl = strchr(start, '\n');
		if (nl)
			*nl = '\0';
		rc = (*path = strdup(start)) ? 0 : -ENOMEM;
	}
	free(text);
	return rc;
}

int td_proc_schedstat(pid_t pid, pid_t tid, uint64_t *runtime_ns)
{
	char path[300], buf[256];
	int n;

	snprintf(path, sizeof(path), "%s/%d/task/%d/schedstat", proc_root, (int)pid, (int)tid);
	n = td_read_file(path, buf, sizeof(buf));
	if (n < 0)
		return n;
	return sscanf(buf, "%" SCNu64, runtime_ns) == 1 ? 0 : -EINVAL;
}

int td_proc_ctxt_switches(pid_t pid, pid_t tid, uint64_t *vol, uint64_t *invol)
{
	char path[300];
	char *text = NULL;
	int found = 0;

	snprintf(path, sizeof(path), "%s/%d/task/%d/status", proc_root, (int)pid, (int)tid);
	int rc = td_slurp(path, &text, NULL);
	if (rc < 0)
		return rc;
	char *p = strstr(text, "\nvoluntary_ctxt_switches:");
	if (p && sscanf(p, "\nvoluntary_ctxt_switches: %" SCNu64, vol) == 1)
		found++;
	p = strstr(text, "\nnonvoluntary_ctxt_switches:");
	if (p && sscanf(p, "\nnonvoluntary_ctxt_switches: %" SCNu64, invol) == 1)
		found++;
	free(text);
	return found == 2 ? 0 : -ENODATA;
}

/* The first n numbers of line "KEY:" of status text (Uid and Gid: real,
 * effective, saved, filesystem). */
static bool status_ids(const char *text, const char *key, unsigned long *v, int n)
{
	char want[16];
	const char *p;
	char *end;

	snprintf(want, sizeof(want), "\n%s:", key);
	if (!(p = strstr(text, want)))
		return false;
	p += strlen(want);
	for (int i = 0; i < n; i++, p = end) {
		v[i] = strtoul(p, &end, 10);
		if (end == p)
			return false;
	}
	return true;
}

int td_proc_uids(pid_t pid, uid_t ids[3])
{
	char path[300];
	char *text = NULL;
	unsigned long v[3];
	int rc;

	snprintf(path, sizeof(path), "%s/%d/status", proc_root, (int)pid);
	if ((rc = td_slurp(path, &text, NULL)) < 0)
		return rc;
	rc = status_ids(text, "Uid", v, 3) ? 0 : -ENODATA;
	for (int i = 0; i < 3 && rc == 0; i++)
		ids[i] = (uid_t)v[i];
	free(text);
	return rc;
}

int td_proc_owner(pid_t pid, uid_t *uid, gid_t *gid)
{
	char path[300];
	char *text = NULL;
	unsigned long u, g;
	int rc;

	snprintf(path, sizeof(path), "%s/%d/status", proc_root, (int)pid);
	if ((rc = td_slurp(path, &text, NULL)) < 0)
		return rc;
	rc = status_ids(text, "Uid", &u, 1) && status_ids(text, "Gid", &g, 1) ? 0 : -ENODATA;
	if (rc == 0) {
		*uid = (uid_t)u;
		*gid = (gid_t)g;
	}
	free(text);
	return rc;
}

/* /proc/self/io, kept open: read every interval (an open and a close fewer
 * each time); opened again in a child of the process that opened it. */
int td_proc_switches(uint64_t *n)
{
	char path[300], *text = NULL, *p;
	int rc;

	snprintf(path, sizeof(path), "%s/stat", proc_root);
	if ((rc = td_slurp(path, &text, NULL)) < 0)
		return rc;
	/* after the CPUs' lines and the intr line (thousands of numbers on a large machine) */
	p = strstr(text, "\nctxt ");
	rc = p && sscanf(p, "\nctxt %" SCNu64, n) == 1 ? 0 : -EINVAL;
	free(text);
	return rc;
}

static int self_io_fd = -1;
static pid_t self_io_pid;

int td_self_syscalls(uint64_t *n)
{
	char buf[1024];
	const char *r, *w;
	uint64_t reads, writes;
	ssize_t len;

	if (self_io_fd >= 0 && self_io_pid != getpid()) {
		close(self_io_fd);
		self_io_fd = -1;
	}
	/* this process's own accounting: the real /proc, whatever root the host is read from */
	if (self_io_fd < 0 && (self_io_fd = open("/proc/self/io", O_RDONLY | O_CLOEXEC)) < 0)
		return -errno;
	self_io_pid = getpid();
	if ((len = pread(self_io_fd, buf, sizeof(buf) - 1, 0)) < 0)
		return -errno;
	if ((size_t)len == sizeof(buf) - 1)
		return -EFBIG; /* longer than /proc/self/io has ever been: not parsed from a part */
	buf[len] = '\0';
	r = strstr(buf, "syscr:");
	w = strstr(buf, "syscw:");
	if (!r || !w || sscanf(r, "syscr: %" SCNu64, &reads) != 1 || sscanf(w, "syscw: %" SCNu64, &writes) != 1)
		return -ENODATA;
	*n = reads + writes;
	return 0;
}

int td_proc_starttime(pid_t pid, long long *start)
{
	char buf[1024];
	const char *f;
	int rc;

	if ((rc = read_stat(pid, buf, sizeof(buf), &f)))
		return rc;
	/* starttime is field 22 */
	if (sscanf(f, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d %*d %*d %lld", start) != 1)
		return -EINVAL;
	return 0;
}

int td_proc_cpu_time(pid_t pid, uint64_t *cpu_ns, long long *start)
{
	char buf[1024];
	const char *f;
	unsigned long long ut, st;
	long hz = sysconf(_SC_CLK_TCK);
	int rc;

	if ((rc = read_stat(pid, buf, sizeof(buf), &f)))
		return rc;
	/* utime, stime: fields 14 and 15 (clock ticks); starttime 22 */
	if (hz <= 0 || sscanf(f, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu %*d %*d %*d %*d %*d %*d %lld",
			      &ut, &st, start) != 3)
		return -EINVAL;
	*cpu_ns = (ut + st) * (1000000000ull / (unsigned long long)hz);
	return 0;
}

int td_proc_uid(pid_t pid, uid_t *uid)
{
	char path[300];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%d", proc_root, (int)pid);
	if (stat(path, &st) != 0)
		return -errno;
	*uid = st.st_uid;
	return 0;
}

bool td_proc_owned_by(pid_t pid, uid_t uid)
{
	uid_t ids[3];

	if (td_proc_uids(pid, ids))
		return false;
	return ids[0] == uid && ids[1] == uid && ids[2] == uid;
}
