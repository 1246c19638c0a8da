/* protocol: topdownd's control protocol (docs/protocol.md), shared by the
 * daemon and tdctl. One JSON object per line each way, version 1. A request
 * names an operation and its arguments; the decoder is strict (an unknown
 * key, a wrong type, a value out of range or a second object on the line is
 * an error naming it), since it reads what any local user sends. Replies
 * are {"v":1,"id":ID,"ok":true,...} or {"v":1,"id":ID,"ok":false,"error":
 * "one line"}; a tail streams {"v":1,"id":ID,"event":"interval",...} lines
 * until {"v":1,"id":ID,"event":"end",...}. JSON is read and written with
 * jansson. */
#ifndef TD_PROTOCOL_H
#define TD_PROTOCOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/util.h"

#define TD_PROTOCOL_VERSION 1

enum td_op {
	TD_OP_ATTACH,	   /* follow a process: pid, children, unlisted_off, interval_ms, duration_ms, level, nodes */
	TD_OP_DETACH,	   /* end a running session: session */
	TD_OP_LIST,	   /* the running sessions the client may see */
	TD_OP_STATUS,	   /* the daemon: version, uptime, sessions, schedule */
	TD_OP_SESSIONS,	   /* stored sessions the client may see, newest first: limit */
	TD_OP_REPORT,	   /* a stored session's report: session, format (text, json) */
	TD_OP_TAIL,	   /* stream a running session's intervals as they are written: session */
	TD_OP_PROFILE_NOW, /* start a schedule entry's run now: entry */
	TD_OP_RELOAD,	   /* read the configuration again (as SIGHUP) */
	TD_OP_CHANGES,	   /* watch mode's changes, newest first: limit */
};

struct td_request {
	int64_t id; /* echoed in the reply; 0 when not given */
	enum td_op op;
	pid_t pid;
	bool children;
	bool unlisted_off; /* attach: no unlisted remainder (tdctl attach --unlisted=off) */
	int interval_ms;   /* 0: the daemon's default */
	int duration_ms;   /* 0: until the target exits or detach */
	int level;	   /* 0: the default */
	char nodes[512];   /* "" none */
	int64_t session;
	char format[8]; /* report: text (default) or json */
	char entry[64]; /* profile-now: the schedule entry */
	int limit;	/* sessions, changes: at most this many (default 50) */
};

/* Decode one request line (without its newline). 0, or -1 with a one-line
 * reason in err (the id, when it could be read, is still in r->id). */
int td_request_decode(const char *line, size_t len, struct td_request *r, td_err *err);
/* The name of an operation as the protocol spells it. */
const char *td_op_name(enum td_op op);

/* Encode a request as one line with its newline (malloc'd), for tdctl. */
char *td_request_encode(const struct td_request *r);

/* A change's keys in the changes reply (and tdctl's from the database) for
 * the intervals it was decided on, by seq: its baseline's first and last,
 * its latest window's first and last (null: not known). */
extern const char *const td_change_seq_keys[4];

#endif
