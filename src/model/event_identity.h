/* event_identity: what an event is, whatever its spelling — the encodings of a
 * catalog's aliases (for a PMU model) and the lookup of an encoding among
 * them (type + config + config1); and the resolution of event names as
 * `perf stat` prints them (generic names, perf dotted names, cpu/NAME/
 * aliases, raw forms, libpfm4 strings, with :u/:k) into an encoding. */
#ifndef TD_EVENT_IDENTITY_H
#define TD_EVENT_IDENTITY_H

#include <stdbool.h>

#include "catalog.h"
#include "machine/encode.h"
#include "base/util.h"

struct td_event_identity;

/* Encode every alias of cat for model (libpfm4 model name). Aliases that
 * cannot be encoded are left out (they match nothing). */
int td_event_identity_new(const struct td_catalog *cat, const char *model, struct td_event_identity **out, td_err *err);
void td_event_identity_free(struct td_event_identity *m);

/* Index of the alias with this encoding, or -1. A generic hardware event
 * (PERF_TYPE_HARDWARE: cycles, instructions, ...) also matches the core
 * event the kernel counts for it on the model's vendor. */
int td_event_identity_find(const struct td_event_identity *m, uint32_t type, uint64_t config, uint64_t config1);

/* Encode an event as perf prints it, for model. Tries, in order: raw forms
 * (PMU/terms/, rNNNN), cpu/NAME/ for a bare perf alias (slots,
 * topdown-fe-bound), libpfm4 as written, a perf dotted name through libpfm4
 * (cpu_clk_unhalted.thread -> CPU_CLK_UNHALTED:THREAD), perf::NAME. */
int td_perf_event_encode(const char *name, const char *model, struct td_encoding *enc, td_err *err);
/* The same, trying first the names cat's perf-name lines give (the vendor's
 * names perf prints and libpfm4 may not know, e.g. AMD's ex_ret_ops; a :u/:k
 * suffix kept): such a name is encoded as its event's string. cat may be NULL. */
int td_perf_event_encode_in(const struct td_catalog *cat, const char *name, const char *model, struct td_encoding *enc,
			    td_err *err);

#endif
