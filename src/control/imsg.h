/* imsg: topdownd's internal protocol between its privileged monitor and its
 * unprivileged processes (the client front, the exporter), in the manner of
 * OpenBSD's imsg: fixed-format binary messages, one per SOCK_SEQPACKET
 * datagram, each a header (length, version, type) and the fields its type
 * names in a fixed order. Integers are little-endian; a string is its
 * length (u32) and bytes, no NUL inside. The decoder trusts nothing: the
 * length must be the datagram's, the version this one, the type known, each
 * integer within its field's range, each string within its maximum, and no
 * byte left over (docs/protocol.md, "The internal protocol"). Pure: no I/O;
 * what the monitor does with a message it decoded (and whose socket came
 * with it) is the daemon's business. */
#ifndef TD_IMSG_H
#define TD_IMSG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/util.h"
#include "control/protocol.h"

#define TD_IMSG_VERSION 1
#define TD_IMSG_HEADER 8	   /* u32 length, u16 version, u16 type */
#define TD_IMSG_MAX 32768	   /* a whole message, header included */
#define TD_IMSG_TEXT_MAX 32000	   /* a reply's or metrics' chunk of text */
#define TD_IMSG_LINE_MAX 1024	   /* a log line, a failure's reason */
#define TD_IMSG_FUNCTION_MAX 16384 /* a symbol's name (a C++ one mangled) */
#define TD_IMSG_PATH_MAX 4096	   /* a symbol's module and source file */

enum td_imsg_type {
	TD_IMSG_REQUEST = 1, /* front -> monitor, the client's socket attached (SCM_RIGHTS) */
	TD_IMSG_GONE,	     /* front -> monitor: a client closed */
	TD_IMSG_REPLY,	     /* monitor -> front: text for a client */
	TD_IMSG_LOG,	     /* front, exporter -> monitor: a line for the daemon's log */
	TD_IMSG_FRONT_CONFIG,
	TD_IMSG_EXPORTER_CONFIG,
	TD_IMSG_READY,	 /* front, exporter -> monitor: serving (the exporter's port) */
	TD_IMSG_FAILED,	 /* front, exporter -> monitor: cannot start, and why */
	TD_IMSG_SCRAPE,	 /* exporter -> monitor: the metrics, please */
	TD_IMSG_METRICS, /* monitor -> exporter: a chunk of the metrics' text */
	TD_IMSG_RESOLVE, /* monitor -> symbolizer: an address of a process, please */
	TD_IMSG_SYMBOL,	 /* symbolizer -> monitor: what the address is */
	TD_IMSG_EPOCH	 /* monitor -> symbolizer: a period of samples ended (td_symbols_epoch) */
};
#define TD_IMSG_TYPES 13

/* REPLY and METRICS flags */
#define TD_IMSG_MORE 1u	  /* the text goes on in the next message */
#define TD_IMSG_DONE 2u	  /* REPLY: the request is answered: read the client's next line */
#define TD_IMSG_CLOSE 4u  /* REPLY: close the connection once the text is written */
#define TD_IMSG_FAIL 8u	  /* METRICS: the metrics could not be made (out of memory) */
#define TD_IMSG_FLAGS 15u /* every flag there is */

struct td_imsg {
	enum td_imsg_type type;
	union {
		struct {
			uint64_t conn;	 /* the front's name for the connection */
			int32_t clients; /* connected to the front now */
			struct td_request r;
		} request;
		struct {
			uint64_t conn;
		} gone;
		struct {
			uint64_t conn;
			uint32_t flags;
			const char *text; /* into the decoded buffer, not NUL-terminated */
			size_t len;
		} reply;
		struct {
			int32_t prio;	  /* syslog's 0-7 (LOG), 0 (FAILED) */
			const char *text; /* into the decoded buffer */
			size_t len;
		} line; /* LOG, FAILED */
		struct {
			int32_t max_clients;
			int64_t max_request, max_output;
			int32_t timeout_ms;
			char socket_path[108];
		} front;
		struct {
			int32_t max_connections;
			char listen[256];
		} exporter;
		struct {
			int32_t port; /* the exporter's TCP port, 0 for the front */
		} ready;
		struct {
			bool openmetrics;
		} scrape;
		struct {
			uint32_t flags;
			const char *text;
			size_t len;
		} metrics;
		struct {
			uint64_t id; /* the monitor's, said again in the answer */
			int32_t pid;
			uint64_t ip; /* a user-space address */
		} resolve;
		struct {
			uint64_t id;
			int32_t line;			      /* 0: no line information */
			const char *function, *module, *file; /* into the decoded buffer; file may be empty */
			size_t function_len, module_len, file_len;
		} symbol;
	} u;
};

/* Encode m into buf (at most cap bytes). The length, or -1 when m breaks
 * a bound the decoder would refuse or does not fit (a caller's bug). */
long td_imsg_encode(const struct td_imsg *m, unsigned char *buf, size_t cap);

/* Decode one message of len bytes. 0, or -1 with err naming the first
 * thing wrong (the type and the field). m's text points into buf. */
int td_imsg_decode(const unsigned char *buf, size_t len, struct td_imsg *m, td_err *err);

/* The type's name, for logs ("?" when unknown). */
const char *td_imsg_type_name(int type);

#endif
