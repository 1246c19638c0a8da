/* replay_main: runs a fuzz target's LLVMFuzzerTestOneInput on every file of
 * its corpus, in name order, once each — what `make check` does with the
 * corpora of tests/fuzz/corpus/ (no clang, no libFuzzer: the normal compiler,
 * and the sanitizers when the build has them). A crash or a sanitizer report
 * fails the test. Output is TAP, one line per file.
 *   replay_TARGET [DIR|FILE]...   default: the corpus dir compiled in (FUZZ_CORPUS_DIR) */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int ntests;

static int replay_file(const char *path)
{
	char *buf = NULL;
	size_t len = 0;
	int rc = td_slurp(path, &buf, &len);

	if (rc < 0) {
		printf("not ok %d - %s: cannot read: %s\n", ++ntests, path, strerror(-rc));
		return -1;
	}
	fflush(stdout);
	LLVMFuzzerTestOneInput((const uint8_t *)buf, len);
	free(buf);
	printf("ok %d - %s\n", ++ntests, path);
	return 0;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int replay_dir(const char *dir)
{
	struct dirent **ents;
	int n = scandir(dir, &ents, NULL, by_name), failed = 0;

	if (n < 0) {
		printf("not ok %d - %s: cannot list: %s\n", ++ntests, dir, strerror(errno));
		return -1;
	}
	for (int i = 0; i < n; i++) {
		if (ents[i]->d_name[0] != '.') {
			size_t len = strlen(dir) + strlen(ents[i]->d_name) + 2;
			char *path = malloc(len);
			if (!path)
				abort();
			snprintf(path, len, "%s/%s", dir, ents[i]->d_name);
			failed |= replay_file(path);
			free(path);
		}
		free(ents[i]);
	}
	free(ents);
	return failed;
}

int main(int argc, char **argv)
{
	static const char *const fallback[] = { FUZZ_CORPUS_DIR };
	const char *const *args = argc > 1 ? (const char *const *)argv + 1 : fallback;
	int nargs = argc > 1 ? argc - 1 : 1, failed = 0;
	struct stat st;

	for (int i = 0; i < nargs; i++)
		failed |= stat(args[i], &st) == 0 && S_ISDIR(st.st_mode) ? replay_dir(args[i]) : replay_file(args[i]);
	if (ntests == 0) {
		printf("not ok 1 - no corpus file in %s\n", args[0]);
		ntests = 1;
		failed = 1;
	}
	printf("1..%d\n", ntests);
	return failed ? 1 : 0;
}
