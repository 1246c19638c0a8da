/* verify_perf: a known-answer kernel run under `perf stat -x ';' -M TopdownL1`
 * and perf's level-1 values read from what it prints, for `tdctl verify` to
 * show beside topdown's. perf runs without LD_PRELOAD (a preloaded library
 * is meant for tdctl, not for perf). */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "verify_perf.h"

/* Which level-1 node a metric name of perf's is (-1: none): perf's metric
 * names are tma_frontend_bound ... (TopdownL1), "frontend bound" (--topdown). */
static int level1_of(const char *field)
{
	static const char *const names[4][2] = { { "frontend_bound", "frontend bound" },
						 { "bad_speculation", "bad speculation" },
						 { "backend_bound", "backend bound" },
						 { "retiring", "retiring" } };
	char low[128];
	size_t i;

	for (i = 0; field[i] && i < sizeof(low) - 1; i++)
		low[i] = (char)tolower((unsigned char)field[i]);
	low[i] = '\0';
	for (int k = 0; k < 4; k++)
		if (strstr(low, names[k][0]) || strstr(low, names[k][1]))
			return k;
	return -1;
}

/* perf's output in text into out: each line split at ';', a level-1 metric
 * name's value is the field before it (a percentage). */
static void parse(char *text, struct td_perf_level1 *out)
{
	char *save = NULL;

	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *fields[32], *fsave = NULL;
		int n = 0;

		for (char *f = strtok_r(line, ";", &fsave); f && n < 32; f = strtok_r(NULL, ";", &fsave))
			fields[n++] = f;
		for (int i = 1; i < n; i++) {
			int k = level1_of(fields[i]);
			char *end;
			double v;

			if (k < 0)
				continue;
			v = strtod(fields[i - 1], &end);
			if (end != fields[i - 1] && !*end && isfinite(v)) {
				out->v[k] = v / 100;
				out->ok = true;
			}
		}
	}
}

/* Run perf stat -M TopdownL1 on argv; its output (stdout and stderr) in a
 * malloc'd string, or NULL with why. */
static char *run_perf(char *const *argv, char *why, size_t len)
{
	char tmpl[] = "/tmp/tdctl-perf.XXXXXX", *text = NULL;
	const char *head[] = { "perf", "stat", "-x", ";", "-M", "TopdownL1", "--" };
	char **pargv;
	size_t nargs = 0, tlen;
	int fd, status, e;
	FILE *f;
	pid_t pid;

	while (argv[nargs])
		nargs++;
	pargv = calloc(nargs + 8, sizeof(*pargv));
	fd = mkstemp(tmpl);
	if (!pargv || fd < 0) {
		snprintf(why, len, "cannot start perf: %s", strerror(errno));
		free(pargv);
		if (fd >= 0)
			close(fd), unlink(tmpl);
		return NULL;
	}
	unlink(tmpl);
	for (size_t i = 0; i < 7; i++)
		pargv[i] = strdup(head[i]);
	for (size_t i = 0; i < nargs; i++)
		pargv[7 + i] = argv[i];
	pid = fork();
	if (pid == 0) {
		unsetenv("LD_PRELOAD");
		dup2(fd, 1);
		dup2(fd, 2);
		execvp("perf", pargv);
		_exit(127);
	}
	for (size_t i = 0; i < 7; i++)
		free(pargv[i]);
	free(pargv);
	if (pid < 0 || waitpid(pid, &status, 0) < 0) {
		snprintf(why, len, "cannot run perf: %s", strerror(errno));
		close(fd);
		return NULL;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
		snprintf(why, len, "perf is not installed (not in PATH)");
		close(fd);
		return NULL;
	}
	lseek(fd, 0, SEEK_SET);
	f = fdopen(fd, "r");
	e = f ? td_slurp_stream(f, &text, &tlen) : -errno;
	if (f)
		fclose(f);
	else
		close(fd);
	if (e < 0) {
		snprintf(why, len, "cannot read perf's output: %s", strerror(-e));
		return NULL;
	}
	return text;
}

/* The first non-empty line of text, into buf. */
static void first_line(const char *text, char *buf, size_t len)
{
	while (*text == '\n' || *text == ' ')
		text++;
	snprintf(buf, len, "%.*s", (int)strcspn(text, "\n"), text);
}

int td_perf_topdown_probe(td_err *err)
{
	static char true_cmd[] = "true";
	char *argv[] = { true_cmd, NULL }, why[256], line[200];
	struct td_perf_level1 r;
	char *text = run_perf(argv, why, sizeof(why));

	if (!text) {
		td_err_set(err, "%s", why);
		return -1;
	}
	memset(&r, 0, sizeof(r));
	first_line(text, line, sizeof(line));
	parse(text, &r);
	free(text);
	if (r.ok)
		return 0;
	td_err_set(err, "'perf stat -M TopdownL1' prints no level-1 value here (%s%s)",
		   line[0] ? "no tma_* level-1 metric in its output, which begins: " : "it printed nothing", line);
	return -1;
}

void td_perf_level1(char *const *argv, struct td_perf_level1 *out)
{
	char *text = run_perf(argv, out->why, sizeof(out->why));

	if (!text)
		return;
	parse(text, out);
	if (!out->ok)
		snprintf(out->why, sizeof(out->why), "perf stat printed no level-1 value for this kernel");
	free(text);
}
