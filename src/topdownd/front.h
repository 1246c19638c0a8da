/* front: topdownd's client front, a process of its own (started by the
 * monitor as `topdownd --privsep-front UID:GID`, its channel on fd 3). It
 * binds the control socket, then gives up every privilege (sandbox.h) and
 * serves the clients: their lines cut and bounded (clients.h), their JSON
 * decoded (control/protocol.h), each request passed on to the monitor in
 * the internal protocol with the client's own socket (SCM_RIGHTS), so that
 * the monitor reads who the client is from the kernel; the monitor's
 * replies written back. It ends when the monitor goes. */
#ifndef TD_FRONT_H
#define TD_FRONT_H

#include <sys/types.h>

#define TD_PRIVSEP_FD 3 /* the channel to the monitor in the front and the exporter */

/* The front's life; its exit status. */
int td_front_main(int chan_fd, uid_t uid, gid_t gid);

#endif
