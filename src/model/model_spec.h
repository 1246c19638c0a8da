/* model_spec: the PMU model a session names — one model (skl, amd64_fam1ah_zen5), or on a
 * hybrid CPU one per core PMU joined by '+' (adl_glc+adl_grt: cpu_core's, then cpu_atom's),
 * each read by its own events file. */
#ifndef TD_MODEL_SPEC_H
#define TD_MODEL_SPEC_H

#include <stdbool.h>
#include <stddef.h>

#define TD_MODEL_SPEC_MAX 2
#define TD_MODEL_NAME_MAX 64

/* Split spec into models[] (at most TD_MODEL_SPEC_MAX). Returns their number, or -1 when a
 * part is empty, too long or there are too many parts. */
int td_model_spec_split(const char *spec, char models[][TD_MODEL_NAME_MAX]);
/* Does spec name one model per core PMU of a hybrid CPU? */
bool td_model_spec_hybrid(const char *spec);

#endif
