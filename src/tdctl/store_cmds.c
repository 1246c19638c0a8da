/* Helpers the store subcommands (import, recompute, query, export, prune)
 * share: the session operand and opening the database. */
#include <stdio.h>

#include "tdctl.h"
#include "util.h"

int tdctl_session_arg(const char *cmd, const char *arg, int64_t *id)
{
	long v;

	if (!arg) {
		tdctl_error("%s: no session given: give its ID (see 'tdctl sessions')", cmd);
		return -1;
	}
	if (td_parse_long(arg, 1, 0x7fffffffL, &v)) {
		tdctl_error("%s: bad session '%s': give a session ID from 'tdctl sessions'", cmd, arg);
		return -1;
	}
	*id = v;
	return 0;
}

int tdctl_open_store(const char *db, enum td_store_mode mode, struct td_store **out)
{
	td_err err;

	if (td_store_open(db, mode, out, &err)) {
		tdctl_error("%s", err.msg);
		return -1;
	}
	return 0;
}
