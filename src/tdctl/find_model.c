/* tdctl find_model: finding the events file for a PMU model (or the host's
 * libpfm4 model) and what the host can count (its PMUs, their files, the
 * rung), shared by the subcommands that show, plan or verify a model. */
#include <stdio.h>
#include <string.h>

#include "model/catalog.h"
#include "machine/pmu.h"
#include "tdctl.h"

/* Append " model" to the list unless it is there already. */
static void add_known(char *known, size_t len, const char *model)
{
	char word[80];

	snprintf(word, sizeof(word), " %s ", model);
	size_t n = strlen(known);
	if (n + strlen(word) >= len)
		return;
	strcat(known, " "); /* a trailing space makes every entry " name " */
	if (strstr(known, word)) {
		known[n] = '\0';
		return;
	}
	strcat(known, model);
}

/* Load the file serving model; on failure say why (unknown model with the
 * models that have files, or the malformed file's FILE:LINE message). */
int tdctl_find_catalog(const char *cmd, const char *dir, const char *model, struct td_catalog **out)
{
	char **names, known[1024] = "", bad[600] = "";
	int n = td_list_dir(dir, ".td", &names);

	*out = NULL;
	for (int i = 0; i < n; i++) {
		char path[1024];
		struct td_catalog *cat;
		td_err err;
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (td_catalog_load(path, &cat, &err)) {
			if (!bad[0])
				snprintf(bad, sizeof(bad), "%s", err.msg);
			continue;
		}
		for (int k = 0; k < cat->nmodels; k++)
			add_known(known, sizeof(known), cat->models[k]);
		if (!*out && td_catalog_serves(cat, model))
			*out = cat;
		else
			td_catalog_free(cat);
	}
	td_free_names(names, n);
	if (*out)
		return 0;
	if (n < 0) {
		tdctl_error("%s: cannot read events directory %s", cmd, dir);
		return -1;
	}
	if (bad[0]) /* it may be the file that serves the model */
		tdctl_error("%s", bad);
	tdctl_error("%s: no file in %s serves PMU model '%s'; models with files:%s", cmd, dir, model,
		    known[0] ? known : " none");
	return -1;
}

void tdctl_host_caps(const char *events_dir, struct td_caps *caps)
{
	td_caps_detect(caps);
	caps->events_dir = td_events_dir(events_dir);
	if (caps->pfm_model[0])
		td_catalog_find(caps->events_dir, caps->pfm_model, caps->events_file, sizeof(caps->events_file));
	for (int i = 0; i < caps->ncore_pmus; i++)
		if (caps->core_pmus[i].model[0])
			td_catalog_find(caps->events_dir, caps->core_pmus[i].model, caps->core_pmus[i].events_file,
					sizeof(caps->core_pmus[i].events_file));
	td_caps_decide_rung(caps);
}

int tdctl_host_model(const char *cmd, char *buf, size_t len)
{
	struct td_caps caps;

	td_caps_detect(&caps);
	if (!caps.pfm_model[0]) {
		tdctl_error(
			"%s: neither libpfm4 nor CPUID names this host's PMU model (%s%s); name one with --pmu MODEL, "
			"e.g. --pmu skl",
			cmd, caps.hypervisor ? "a VM: " : "", caps.cpu_name[0] ? caps.cpu_name : "unknown CPU");
		return -1;
	}
	snprintf(buf, len, "%s", caps.pfm_model);
	return 0;
}
