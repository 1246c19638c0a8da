/* tdctl: the user's command line — dispatches to one file per subcommand. */
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "tdctl.h"

struct subcommand {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static const struct subcommand subcommands[] = {
	{ "doctor", cmd_doctor, "what this machine can measure, and why" },
	{ "run", cmd_run, "run a command and count every thread of it" },
	{ "attach", cmd_attach, "count every thread of a running process" },
	{ "record", cmd_record, "count every online CPU (--system)" },
	{ "stat", cmd_stat, "perf stat's options (-p, -a, -G, -I, -x): count and print each interval" },
	{ "verify", cmd_verify, "run known-answer kernels: is the tree right on this CPU?" },
	{ "sessions", cmd_sessions, "list the recorded sessions" },
	{ "events", cmd_events, "the metric tree, events and encodings for a PMU model" },
	{ "plan", cmd_plan, "the perf groups a level or node list needs, and multiplexing" },
	{ "import", cmd_import, "import perf stat -x output as a session" },
	{ "recompute", cmd_recompute, "recompute a session's metrics from its raw counts" },
	{ "report", cmd_report, "show a session's top-down tree, CPI stack and metrics (text, CSV, JSON, HTML)" },
	{ "diff", cmd_diff, "compare two sessions' top-down trees, biggest changes first" },
	{ "export", cmd_export, "write a session's counts and metrics as CSV or JSON" },
	{ "query", cmd_query, "run a read-only SQL query on the database" },
	{ "prune", cmd_prune, "delete old sessions and intervals to bound the database" },
	{ "status", cmd_status, "whether topdownd runs: its sessions and schedule" },
	{ "list", cmd_list, "the sessions topdownd runs now" },
	{ "changes", cmd_changes, "what topdownd's watch mode found changed" },
	{ "detach", cmd_detach, "end a session topdownd runs" },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: tdctl COMMAND [OPTIONS]\n\ncommands:\n");
	for (size_t i = 0; i < sizeof(subcommands) / sizeof(subcommands[0]); i++)
		fprintf(f, "  %-9s %s\n", subcommands[i].name, subcommands[i].summary);
	fprintf(f, "\n'tdctl COMMAND --help' describes a command; 'man tdctl' describes them all.\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "help") && argc > 2) {
		/* 'tdctl help CMD' is 'tdctl CMD --help', as git and perf spell it */
		static char help_flag[] = "--help";
		char *help_argv[] = { argv[2], help_flag, NULL };
		for (size_t i = 0; i < sizeof(subcommands) / sizeof(subcommands[0]); i++)
			if (!strcmp(argv[2], subcommands[i].name))
				return subcommands[i].fn(2, help_argv);
		tdctl_error("help: unknown command '%s': run 'tdctl help' for the list", argv[2]);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("tdctl (%s) %s\n", PACKAGE_NAME, PACKAGE_VERSION);
		return 0;
	}
	for (size_t i = 0; i < sizeof(subcommands) / sizeof(subcommands[0]); i++)
		if (!strcmp(argv[1], subcommands[i].name))
			return subcommands[i].fn(argc - 1, argv + 1);
	tdctl_error("unknown command '%s': run 'tdctl --help' for the list", argv[1]);
	return 2;
}
