/* kallsyms: the kernel's symbols as /proc/kallsyms lists them — one
 * "ADDRESS TYPE NAME" line per symbol, "\t[MODULE]" after the name of a
 * module's (kernel/kallsyms.c, s_show, Linux 6.12) — the text symbols
 * (types t, T, w, W) sorted by address, each covering the addresses up to
 * the next one's. The kernel prints every address as 0 to a reader it does
 * not show them to (kallsyms_show_value: kptr_restrict, CAP_SYSLOG): such a
 * file, or one that cannot be read, holds no symbol. */
#ifndef TD_KALLSYMS_H
#define TD_KALLSYMS_H

#include <stdint.h>

struct td_kallsyms;

/* The symbols of the file at path (NULL: /proc/kallsyms); NULL when it
 * cannot be read, shows no address, or memory ran out. */
struct td_kallsyms *td_kallsyms_load(const char *path);
/* The function holding addr and its module ("[kernel]" for the kernel's
 * own, "[MODULE]" for a module's): 0, or -1 when no symbol covers it
 * (below the first, or at or past the last, which has no known end). */
int td_kallsyms_find(const struct td_kallsyms *k, uint64_t addr, const char **function, const char **module);
int td_kallsyms_count(const struct td_kallsyms *k);
void td_kallsyms_free(struct td_kallsyms *k);

#endif
