/* symbolizer: the monitor's side of naming its targets' user-space
 * addresses (a drill-down's hotspots) without parsing what they write.
 * A process's ELF files, DWARF and perf-PID.map are input its owner
 * controls; the monitor, root, never opens them. It reads only the
 * kernel's text — a process's owner, /proc/PID/status's real uid and gid —
 * and hands each new (pid, address) to a symbolizer process of that owner
 * (symbolizer_proc.h: `topdownd --privsep-symbolizer UID:GID`, started at
 * the owner's first address, with the owner's credentials and no
 * capability, no new privileges, a seccomp filter that lets it open files
 * for reading only), over a channel of the internal protocol (a resolve
 * message, a symbol answer: docs/protocol.md). What comes back is checked
 * by the decoder like anything from an unprivileged process, and cached
 * per (pid, address) here; its strings are kept until the symbolizer is
 * freed, so a session's rows may point at them.
 *
 * An owner's process that does not answer within TD_SYMBOLIZER_WAIT_MS,
 * or whose channel breaks, is ended and not started again for that owner:
 * its addresses are "[unknown]" from then on, said once in the log. A
 * process whose credentials cannot be read (gone) is "[unknown]" too. */
#ifndef TD_SYMBOLIZER_H
#define TD_SYMBOLIZER_H

#include <stdint.h>
#include <sys/types.h>

#include "symbols/symbols.h"

#define TD_SYMBOLIZER_WAIT_MS 2000 /* for one answer (a large binary's first: its DWARF read) */

struct td_symbolizer;

/* say: a line for the log (a process started, ended, refused), ctx its.
 * exe: the executable to start (NULL: /proc/self/exe). NULL: out of memory. */
struct td_symbolizer *td_symbolizer_new(const char *exe, void (*say)(void *ctx, const char *line), void *ctx);
/* What a session's hotspots call (session.h's resolver). */
const struct td_resolver *td_symbolizer_resolver(struct td_symbolizer *z);
/* Owners' processes started so far, and addresses asked of them. */
int td_symbolizer_started(const struct td_symbolizer *z);
uint64_t td_symbolizer_asked(const struct td_symbolizer *z);
/* End every process (reaped), say how many addresses were asked, and free
 * what was cached. */
void td_symbolizer_free(struct td_symbolizer *z);

#endif
