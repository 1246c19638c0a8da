/* tdctl_error: how every tdctl command says what went wrong (one line on
 * stderr). Its own file so that main.c, the dispatcher, calls the commands
 * and the commands call it, without a loop between main.c and cmd_*.c. */
#include <stdarg.h>
#include <stdio.h>

#include "tdctl.h"

void tdctl_error(const char *fmt, ...)
{
	va_list ap;

	fputs("tdctl: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}
