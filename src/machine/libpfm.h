/* libpfm: libpfm4, opened the first time an event needs its tables.
 *
 * Linked normally, libpfm4's event tables cost every start of tdctl ~41,000
 * relocations and ~290 page faults before main() (1.2 ms of CPU on our VMs,
 * half of what tdctl needs to reach the point where it raises the sampler's
 * priority). On a saturated machine a program that uses more than its first
 * scheduler slice before raising waits a whole round of every runnable
 * thread again (0.7-1.6 s behind 1,000 busy threads on 2 CPUs), so the
 * library is opened here, on first use, after the raise. The functions
 * below are libpfm4's, called through the opened library; before a
 * successful td_pfm_init() they return PFM_ERR_NOINIT. */
#ifndef TD_LIBPFM_H
#define TD_LIBPFM_H

#include <perfmon/pfmlib.h>

/* The library's file name (its soname): libpfm4's ABI 4, the one the
 * headers describe. */
#define TD_LIBPFM_SONAME "libpfm.so.4"

/* Open libpfm4 and initialise it (once; later calls return the first
 * result). 0 on success, -1 when it cannot be opened or refuses to
 * initialise: td_pfm_init_error() says which. */
int td_pfm_init(void);
const char *td_pfm_init_error(void);

pfm_err_t td_pfm_get_pmu_info(pfm_pmu_t pmu, pfm_pmu_info_t *info);
pfm_err_t td_pfm_get_event_info(int idx, pfm_os_t os, pfm_event_info_t *info);
pfm_err_t td_pfm_get_os_event_encoding(const char *str, int dfl_plm, pfm_os_t os, void *args);
const char *td_pfm_strerror(int code);

/* The model an event given without one ("TOPDOWN:SLOTS", not
 * "spr::TOPDOWN:SLOTS") is looked up in when libpfm4's active PMUs do not
 * have it and libpfm4 does not know this CPU. libpfm4 resolves such names
 * among the PMUs it found active (perf's generic ones, and the CPU's), and
 * finds no CPU PMU active on a CPU newer than its tables (Emerald Rapids
 * under libpfm4 4.13), even though the CPUID names a model whose tables
 * encode its events (spr): pmu.c sets that model here when it detects the
 * host; NULL, the default, leaves the name to libpfm4 alone. */
void td_pfm_set_host_model(const char *model);
const char *td_pfm_host_model(void);

#endif
