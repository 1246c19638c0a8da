/* session_cost_cache: this boot's switch costs (collect/switch_cost) kept in
 * a small file across processes, so that a run into a new database finds the
 * figure an earlier run measured on this boot, this kernel, counting the same
 * way (mode and number of events a task carries) instead of measuring again: the measuring
 * pair's tens of ms of CPU are most of a short run's start. One line a key:
 * "BOOT_ID RELEASE MODE EVENTS NS UNIX_SECONDS PID". The file is trusted only
 * when it is a regular file of this user's that nobody else may write. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "session_impl.h"

/* The key of this boot, kernel, mode and events: "BOOT RELEASE MODE EVENTS";
 * -1 when the boot is not known. */
static int key_of(const char *mode, int events, char *key, size_t len)
{
	char boot[64];
	struct utsname u;
	int n;

	if (td_read_file("/proc/sys/kernel/random/boot_id", boot, sizeof(boot)) < 0 || uname(&u))
		return -1;
	boot[strcspn(boot, " \n")] = 0;
	/* per thread, EVENTS are the events each task carries (its groups and, but with --unlisted=off, its
	 * root's inherited copy of spec 0: session_record_switch_cost), said "per-task" so that a line
	 * keyed by the groups' events alone (before the copy was counted) is never taken for it; with
	 * BPF, "bpf-all": the figure holds what the program runs at every switch, those of threads nobody
	 * follows too (switch_cost.h's idle), so that one measured without them is never taken, and
	 * "bpf-all-raw_tp" for the raw_tp programs (helper calls where tp_btf's load: ~100 ns more a
	 * switch on an AMD Zen 4 guest), so that neither program's figure is taken for the other's; "-self"
	 * after either where the program counts a CPU's clock and switches itself (two counter reads a
	 * switch fewer: counting.bpf.c's clocks and switches), so that a figure measured by a tdctl whose
	 * program read them, earlier on this boot, is not taken; and "@TAG" after any BPF mode, the
	 * switch program's tag (the kernel's hash of its instructions), so that a figure kept by
	 * another program (an earlier build's, on this boot) is not taken for this one's */
	n = snprintf(key, len, "%s %s %s %d", boot, u.release, mode, events);
	return boot[0] && n > 0 && (size_t)n < len ? 0 : -1;
}

/* The file's text when it can be trusted (a regular file of ours, written by
 * nobody else), NULL when it cannot or there is none. */
static char *read_trusted(const char *path)
{
	int fd = td_open_own(path);
	struct stat st;
	char *text = NULL;

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) == 0 && st.st_size < 65536 && (text = calloc(1, (size_t)st.st_size + 1))) {
		ssize_t got = read(fd, text, (size_t)st.st_size);
		if (got != st.st_size) {
			free(text);
			text = NULL;
		}
	}
	close(fd);
	return text;
}

int session_cost_cache_get(const char *path, const char *mode, int events, double *ns, char *said, size_t len)
{
	char key[256], *text, *line, *save = NULL;
	int found = 0;

	if (key_of(mode, events, key, sizeof(key)) || !(text = read_trusted(path)))
		return 0;
	for (line = strtok_r(text, "\n", &save); line && !found; line = strtok_r(NULL, "\n", &save)) {
		size_t k = strlen(key);
		long long at;
		long pid;
		double v;
		if (strncmp(line, key, k) || line[k] != ' ' || sscanf(line + k, "%lf %lld %ld", &v, &at, &pid) != 3 ||
		    !(v > 0))
			continue;
		time_t t = (time_t)at;
		struct tm tm;
		char when[32] = "?";
		if (gmtime_r(&t, &tm))
			strftime(when, sizeof(when), "%H:%M:%S UTC", &tm);
		*ns = v;
		snprintf(said, len, "measured at %s on this boot by process %ld, counted as this one (kept in %s)",
			 when, pid, path);
		found = 1;
	}
	free(text);
	return found;
}

void session_cost_cache_put(const char *path, const char *mode, int events, double ns)
{
	char key[256], tmp[4096], boot[64], *text, *line, *save = NULL;
	FILE *f;
	int fd;

	if (key_of(mode, events, key, sizeof(key)) ||
	    snprintf(tmp, sizeof(tmp), "%s.%ld", path, (long)getpid()) >= (int)sizeof(tmp))
		return;
	snprintf(boot, sizeof(boot), "%.*s", (int)strcspn(key, " "), key);
	/* /run/topdown: made on first use, this user's only */
	char dir[4096];
	snprintf(dir, sizeof(dir), "%s", path);
	char *slash = strrchr(dir, '/');
	if (slash && slash != dir) {
		*slash = 0;
		if (mkdir(dir, 0700) && errno != EEXIST)
			return;
	}
	if ((fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600)) < 0)
		return;
	if (!(f = fdopen(fd, "w"))) {
		close(fd);
		unlink(tmp);
		return;
	}
	/* the lines of this boot kept, but the one of this key: replaced */
	if ((text = read_trusted(path))) {
		for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
			if (!strncmp(line, boot, strlen(boot)) && line[strlen(boot)] == ' ' &&
			    !(!strncmp(line, key, strlen(key)) && line[strlen(key)] == ' '))
				fprintf(f, "%s\n", line);
		free(text);
	}
	fprintf(f, "%s %.3f %lld %ld\n", key, ns, (long long)time(NULL), (long)getpid());
	if (fclose(f) || rename(tmp, path))
		unlink(tmp);
}
