/* session_say: how every file of the session says one line to the user
 * (through the options' td_say_fn). Its own file so that session.c calls
 * session_loop.c, session_plan.c and session_sink.c and none calls back. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "session_impl.h"

void session_say(const struct td_session *rs, enum td_say kind, const char *fmt, ...)
{
	va_list ap;
	char *line;
	int n;

	if (!rs->o.say)
		return;
	va_start(ap, fmt);
	n = vasprintf(&line, fmt, ap);
	va_end(ap);
	if (n >= 0) {
		rs->o.say(rs->o.say_ctx, kind, line);
		free(line);
	}
}
