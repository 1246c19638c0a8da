#!/bin/sh
# man_commands.sh — man/tdctl.1 documents every subcommand tdctl dispatches:
# the list comes from `tdctl --help` (main.c's table), not from this test. Each
# one has a COMMANDS entry (.TP then .B NAME) and a SYNOPSIS line, and every
# option its own `tdctl NAME --help` usage line names is in that SYNOPSIS line.
. "$(dirname "$0")/lib.sh"
MAN="$TD_SRCDIR/man/tdctl.1"

"$TDCTL" --help >"$WORK/help"
check_eq "tdctl --help exits 0" 0 "$?"
awk '/^commands:/ { f = 1; next } f && /^  [a-z]/ { print $1 } f && /^$/ { exit }' "$WORK/help" >"$WORK/cmds"
n=$(wc -l <"$WORK/cmds" | tr -d ' ')
check "tdctl --help lists its commands (found $n)" test "$n" -ge 10

# the man page with \- unescaped, split into its SYNOPSIS and COMMANDS sections
sed 's/\\-/-/g' "$MAN" >"$WORK/man"
awk '/^\.SH SYNOPSIS/ { f = 1; next } /^\.SH/ { f = 0 } f' "$WORK/man" >"$WORK/synopsis"
awk '/^\.SH COMMANDS/ { f = 1; next } /^\.SH/ { f = 0 } f && prev == ".TP" { print } { prev = $0 }' \
	"$WORK/man" >"$WORK/entries"

while read -r cmd; do
	check "man COMMANDS has an entry for '$cmd'" grep -qx "\.B $cmd" "$WORK/entries"
	# this command's SYNOPSIS lines: from ".B tdctl CMD" to the next .br
	awk -v c=".B tdctl $cmd" '$0 == c { f = 1 } f && /^\.br$/ { exit } f' "$WORK/synopsis" >"$WORK/syn.$cmd"
	if [ ! -s "$WORK/syn.$cmd" ]; then
		not_ok "man SYNOPSIS has a line for '$cmd'"
		continue
	fi
	ok "man SYNOPSIS has a line for '$cmd'"
	"$TDCTL" "$cmd" --help 2>&1 | grep -m1 '^usage:' >"$WORK/usage.$cmd"
	missing=
	for opt in $(grep -oE -- '(^|[ [|(])--?[a-zA-Z][a-z-]*' "$WORK/usage.$cmd" | tr -d ' [|('); do
		grep -qE -- "(^|[^a-z-])$opt([^a-z-]|\$)" "$WORK/syn.$cmd" || missing="$missing $opt"
	done
	check_eq "man SYNOPSIS of '$cmd' names every option of its usage ($(tr -d '\n' <"$WORK/usage.$cmd"))" "" "$missing"
	check_eq "'tdctl help $cmd' prints what 'tdctl $cmd --help' prints" "$("$TDCTL" "$cmd" --help 2>&1)" \
		"$("$TDCTL" help "$cmd" 2>&1)"
done <"$WORK/cmds"
"$TDCTL" help no-such-command 2>"$WORK/help.err"
check_eq "'tdctl help' of an unknown command: exit 2, one line" "2|1" "$?|$(wc -l <"$WORK/help.err" | tr -d ' ')"
finish
