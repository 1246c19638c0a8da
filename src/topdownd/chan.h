/* chan: one end of a socketpair (SOCK_SEQPACKET) between topdownd's monitor
 * and one of its unprivileged processes, carrying the internal protocol
 * (control/imsg.h): a message per datagram, at most one descriptor with it
 * (SCM_RIGHTS). Sending never blocks: what the peer has not taken yet waits
 * in a queue, bounded (a peer that does not read is the caller's to end).
 * Receiving refuses a datagram that is too long, carries more than one
 * descriptor or does not decode, closing what came with it. */
#ifndef TD_CHAN_H
#define TD_CHAN_H

#include <stdbool.h>
#include <stddef.h>

#include "base/util.h"
#include "control/imsg.h"

#define TD_CHAN_QUEUE_MAX (64u << 20) /* bytes waiting for the peer before a send fails */

struct td_chan;

/* Take fd (non-blocking from now on). NULL: out of memory (fd closed). */
struct td_chan *td_chan_new(int fd);
/* Close the socket and every descriptor still queued. */
void td_chan_free(struct td_chan *ch);
int td_chan_fd(const struct td_chan *ch);
/* Is anything queued (poll for POLLOUT)? */
bool td_chan_pending(const struct td_chan *ch);

/* Encode m and queue it, with a duplicate of pass_fd when >= 0; then write
 * what the socket takes. 0, or -1 with err (m breaks a bound, the queue is
 * full, the peer is gone). */
int td_chan_send(struct td_chan *ch, const struct td_imsg *m, int pass_fd, td_err *err);
/* Write what the socket takes. 0, or -1 with err: the peer is gone. */
int td_chan_flush(struct td_chan *ch, td_err *err);

/* One message, if one is there: 1 with m (its text valid until the next
 * call) and *fd (the descriptor that came with it, the caller's to close,
 * or -1); 0 none now; -1 with err: the peer closed (err "closed"), or the
 * datagram was refused (*fd -1, nothing kept; td_chan_refused tells). */
int td_chan_recv(struct td_chan *ch, struct td_imsg *m, int *fd, td_err *err);
/* Was the last -1 of td_chan_recv a refused datagram (the channel still
 * open) rather than the end? */
bool td_chan_refused(const struct td_chan *ch);

#endif
