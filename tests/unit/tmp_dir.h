/* tmp_dir: a unit test's scratch directory under /tmp, made fresh
 * (mkdtemp) and removed with everything in it (nftw, depth first, links
 * not followed; no shell). Shared by the tests whose set-up and tear-down
 * were copies of each other. */
#ifndef TD_TEST_TMP_DIR_H
#define TD_TEST_TMP_DIR_H

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

/* Make /tmp/td-TAG-XXXXXX into dir (len bytes): 0, or -1. */
static inline int tmp_dir_make(char *dir, size_t len, const char *tag)
{
	if ((size_t)snprintf(dir, len, "/tmp/td-%s-XXXXXX", tag) >= len)
		return -1;
	return mkdtemp(dir) ? 0 : -1;
}

static inline int tmp_dir_unlink(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* Remove dir and all below it: 0, or -1. */
static inline int tmp_dir_remove(const char *dir)
{
	return nftw(dir, tmp_dir_unlink, 16, FTW_DEPTH | FTW_PHYS);
}

#endif
