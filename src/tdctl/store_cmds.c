/* Helpers the store subcommands (import, recompute, query, export, prune,
 * report, diff) share: the session operand, opening the database, and the
 * -o FILE output. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "tdctl.h"
#include "base/util.h"

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

FILE *tdctl_open_output(const char *cmd, const char *path)
{
	FILE *out = path ? fopen(path, "w") : stdout;

	if (!out)
		tdctl_error("%s: cannot write '%s': %s: give another -o FILE", cmd, path, strerror(errno));
	return out;
}

int tdctl_close_output(const char *cmd, FILE *out, const char *path, int rc)
{
	if (out && out != stdout && fclose(out) && !rc) {
		tdctl_error("%s: cannot write '%s': %s", cmd, path, strerror(errno));
		return -1;
	}
	return rc;
}
