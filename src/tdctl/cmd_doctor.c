/* tdctl doctor: prints what this machine can measure and why (pmu module). */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "catalog.h"
#include "pmu.h"
#include "tdctl.h"

int cmd_doctor(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "events-dir", required_argument, NULL, 'E' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool json = false;
	const char *events_dir = NULL;
	struct td_caps caps;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "jh", opts, NULL)) != -1) {
		switch (c) {
		case 'j': json = true; break;
		case 'E': events_dir = optarg; break;
		case 'h':
			printf("usage: tdctl doctor [--json] [--events-dir DIR]\n");
			return 0;
		default:
			tdctl_error("doctor: bad option; usage: tdctl doctor [--json] [--events-dir DIR]");
			return 2;
		}
	}
	if (optind < argc) {
		tdctl_error("doctor: unexpected argument '%s'; usage: tdctl doctor [--json]", argv[optind]);
		return 2;
	}
	td_caps_detect(&caps);
	caps.events_dir = td_events_dir(events_dir);
	if (caps.pfm_model[0])
		td_catalog_find(caps.events_dir, caps.pfm_model, caps.events_file, sizeof(caps.events_file));
	td_caps_decide_rung(&caps);
	td_caps_print(&caps, json);
	return 0;
}
