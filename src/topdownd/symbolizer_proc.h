/* symbolizer_proc: a symbolizer, a process of its own (started by the
 * monitor as `topdownd --privsep-symbolizer UID:GID`, its channel on fd 3;
 * symbolizer.h): it becomes the target's owner — that uid and gid, no
 * supplementary group, no capability, no new privileges, a seccomp filter
 * that lets it open files for reading only (sandbox.h) — and answers each
 * resolve message with td_symbols_resolve's function, module, file and
 * line (symbols.h: libdwfl on /proc/PID/maps and the ELF files, as the
 * owner may read them). It holds nothing of the monitor's, and ends when
 * its channel closes. */
#ifndef TD_SYMBOLIZER_PROC_H
#define TD_SYMBOLIZER_PROC_H

#include <sys/types.h>

/* The symbolizer's life; its exit status. */
int td_symbolizer_proc_main(int chan_fd, uid_t uid, gid_t gid);

#endif
