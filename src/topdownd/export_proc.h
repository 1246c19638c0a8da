/* export_proc: topdownd's exporter, a process of its own (started by the
 * monitor as `topdownd --privsep-exporter UID:GID`, its channel on fd 3).
 * It binds the HTTP port (exporter.h), gives up every privilege
 * (sandbox.h), and answers each GET /metrics with the text the monitor
 * makes for it (a scrape message, then the metrics in chunks): it holds no
 * state of its own. It ends when the monitor goes. */
#ifndef TD_EXPORT_PROC_H
#define TD_EXPORT_PROC_H

#include <sys/types.h>

/* The exporter's life; its exit status. */
int td_export_proc_main(int chan_fd, uid_t uid, gid_t gid);

#endif
