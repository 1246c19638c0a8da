/* model_spec: splitting a session's PMU model spec ("adl_glc+adl_grt") into its models. */
#include "model_spec.h"

#include <string.h>

int td_model_spec_split(const char *spec, char models[][TD_MODEL_NAME_MAX])
{
	int n = 0;

	for (const char *p = spec;; n++) {
		size_t len = strcspn(p, "+");
		if (n == TD_MODEL_SPEC_MAX || len == 0 || len >= TD_MODEL_NAME_MAX)
			return -1;
		memcpy(models[n], p, len);
		models[n][len] = '\0';
		if (!p[len])
			return n + 1;
		p += len + 1;
	}
}

bool td_model_spec_hybrid(const char *spec)
{
	return spec && strchr(spec, '+') != NULL;
}
