/* rclients: the monitor's view of the clients its front serves. A client is
 * known by the front's name for its connection (conn); who it is comes only
 * from the kernel: each request arrives with the client's socket, which must
 * be a connection accepted on the control socket (its local name is the
 * socket's path, it is not the listening socket), and its SO_PEERCRED (and
 * SO_PEERGROUPS for the admin group) is read here, for every request. What
 * the monitor answers goes back to the front as reply messages, cut to the
 * internal protocol's size; the first after a request marks it answered. */
#ifndef TD_RCLIENTS_H
#define TD_RCLIENTS_H

#include <stdint.h>

#include "base/util.h"
#include "chan.h"
#include "clients.h"

struct td_rclients;

struct td_rclients *td_rclients_new(void);
void td_rclients_free(struct td_rclients *rc);
/* The front's channel (NULL: no front now). A new front has new clients:
 * the ones known are forgotten. */
void td_rclients_set_chan(struct td_rclients *rc, struct td_chan *ch);

/* A request for conn, with fd (the socket that came with it, -1 none; not
 * taken). The client as the kernel says it is, marked as awaiting its
 * reply; NULL with err when fd is not a client's connection on socket_path,
 * or when max_clients are known already (a front has no more). */
struct td_client *td_rclients_request(struct td_rclients *rc, uint64_t conn, int fd, const char *socket_path,
				      const char *admin_group, int front_clients, int max_clients, td_err *err);
/* Send an error reply to conn for a request refused before any client was
 * known (the request's id). */
void td_rclients_refuse(struct td_rclients *rc, uint64_t conn, int64_t id, const char *why);
void td_rclients_gone(struct td_rclients *rc, uint64_t conn);

/* Connected to the front, as it last said. */
int td_rclients_count(const struct td_rclients *rc);
/* The clients known (those that asked something), for tails. */
int td_rclients_known(const struct td_rclients *rc);
struct td_client *td_rclients_at(struct td_rclients *rc, int i);
/* The client of this serial (td_client.serial: the front's conn and the
 * front's generation), NULL when gone or of a front since restarted. */
struct td_client *td_rclients_find(struct td_rclients *rc, uint64_t serial);

/* A line of text (JSON, no newline) for c. A front that does not take it
 * (its queue full, gone) is to be ended: td_rclients_failed says so. */
void td_rclients_send(struct td_rclients *rc, struct td_client *c, const char *text);
/* Did a send fail since the channel was set? Why (NULL: none). */
const char *td_rclients_failed(const struct td_rclients *rc);

#endif
