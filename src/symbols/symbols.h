/* symbols: a process's addresses as functions and source lines, through
 * elfutils' libdwfl: the modules mapped (/proc/PID/maps), ELF symbols,
 * DWARF lines, separate debug files (.gnu_debuglink, build-id under
 * /usr/lib/debug, debuginfod where DEBUGINFOD_URLS is set), and a JIT's
 * /tmp/perf-PID.map for addresses in no module. Each (pid, address) is
 * resolved once and cached; a process's modules are listed at its first
 * address and again (at most once per td_symbols_epoch) when an address
 * falls in none, so a process that has exited keeps what was listed. */
#ifndef TD_SYMBOLS_H
#define TD_SYMBOLS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct td_symbols;

/* What an address is: strings owned by the cache, valid until it is
 * freed; function "[unknown]" when no symbol covers it (module then says
 * where it is, "[unknown]" too when in no module), file NULL and line 0
 * when there is no line information. */
struct td_symbol {
	const char *function;
	const char *module; /* the file's base name, "[kernel]", "[jit]" */
	const char *file;
	int line;
};

/* Who resolves a process's user-space addresses in place of a td_symbols
 * of the caller's own: topdownd's monitor, which must not parse the ELF
 * files its targets' owners write, hands them to a process of the owner's
 * (topdownd/symbolizer.h). resolve fills out with strings the resolver
 * keeps until it is freed; epoch is td_symbols_epoch's moment. */
struct td_resolver {
	void (*resolve)(void *ctx, pid_t pid, uint64_t ip, struct td_symbol *out);
	void (*epoch)(void *ctx);
	void *ctx;
};

/* perf_map_dir: where perf-PID.map files are (NULL: /tmp). NULL when out of memory. */
struct td_symbols *td_symbols_new(const char *perf_map_dir);
/* Resolve ip of pid (kernel: a kernel address, looked up in /proc/kallsyms
 * (kallsyms.h), read at the first; "[kernel]" as function and module when
 * it cannot be read, shows no address, or no symbol covers ip). */
void td_symbols_resolve(struct td_symbols *s, pid_t pid, uint64_t ip, bool kernel, struct td_symbol *out);
/* pid's modules listed from fd, its /proc/PID/maps opened by a process the
 * kernel let (the permission is checked at open), read again from its
 * start when listed anew — not from /proc/PID/maps by this process (a
 * symbolizer, which may not: symbolizer_proc.h). Takes fd; -1 when out of
 * memory (fd closed). */
int td_symbols_set_maps(struct td_symbols *s, pid_t pid, int fd);
/* A new period: a process whose address fell in no module may be listed
 * again, and the modules of a process that is gone (no /proc/PID: exited
 * and reaped) are let go — call it after every address of a period was
 * resolved (a process's last samples are then resolved before it goes). */
void td_symbols_epoch(struct td_symbols *s);
/* Read the kernel's symbols from path instead of /proc/kallsyms (NULL: it
 * again), from the next kernel address on. -1 when out of memory. */
int td_symbols_set_kallsyms(struct td_symbols *s, const char *path);
/* The kernel's text symbols known (read now if not yet): 0 when none
 * could be read. */
int td_symbols_kernel(struct td_symbols *s);
/* Processes whose modules are held now. */
int td_symbols_processes(const struct td_symbols *s);
/* Addresses resolved so far (not cached ones asked again). */
uint64_t td_symbols_lookups(const struct td_symbols *s);
void td_symbols_free(struct td_symbols *s);

#endif
