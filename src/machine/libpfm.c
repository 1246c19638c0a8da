/* libpfm: libpfm4 opened on first use; see libpfm.h for why. */
#include "libpfm.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static struct {
	int state;   /* 0 not tried, 1 ready, -1 failed */
	char *error; /* why not, once it failed (allocated: dlerror names a path) */
	pfm_err_t (*initialize)(void);
	pfm_err_t (*get_pmu_info)(pfm_pmu_t, pfm_pmu_info_t *);
	pfm_err_t (*get_event_info)(int, pfm_os_t, pfm_event_info_t *);
	pfm_err_t (*get_os_event_encoding)(const char *, int, pfm_os_t, void *);
	const char *(*strerror)(int);
} pfm;

/* Why it failed, whole (the first failure: later ones follow from it). */
__attribute__((format(printf, 1, 2))) static void say(const char *fmt, ...)
{
	va_list ap;

	if (pfm.error)
		return;
	va_start(ap, fmt);
	if (vasprintf(&pfm.error, fmt, ap) < 0)
		pfm.error = NULL;
	va_end(ap);
}

/* dlsym's void * to a function pointer: ISO C has no conversion between
 * them, POSIX guarantees this one */
static void *symbol(void *lib, const char *name, int *missing)
{
	void *p = dlsym(lib, name);

	if (!p && !*missing) {
		*missing = 1;
		say("%s has no %s: reinstall libpfm4", TD_LIBPFM_SONAME, name);
	}
	return p;
}

static int open_library(void)
{
	void *lib = dlopen(TD_LIBPFM_SONAME, RTLD_NOW | RTLD_LOCAL);
	int missing = 0;
	void *p;

	if (!lib) {
		say("libpfm4 cannot be loaded (%s): install it (apt-get install libpfm4)", dlerror());
		return -1;
	}
	/* the library stays open for the life of the program, like a linked one */
	p = symbol(lib, "pfm_initialize", &missing);
	*(void **)&pfm.initialize = p;
	p = symbol(lib, "pfm_get_pmu_info", &missing);
	*(void **)&pfm.get_pmu_info = p;
	p = symbol(lib, "pfm_get_event_info", &missing);
	*(void **)&pfm.get_event_info = p;
	p = symbol(lib, "pfm_get_os_event_encoding", &missing);
	*(void **)&pfm.get_os_event_encoding = p;
	p = symbol(lib, "pfm_strerror", &missing);
	*(void **)&pfm.strerror = p;
	return missing ? -1 : 0;
}

int td_pfm_init(void)
{
	pfm_err_t ret;

	if (pfm.state)
		return pfm.state > 0 ? 0 : -1;
	pfm.state = -1;
	if (open_library())
		return -1;
	/* events of PMUs libpfm4 finds inactive (a forced model, a VM) still encode */
	setenv("LIBPFM_ENCODE_INACTIVE", "1", 0);
	ret = pfm.initialize();
	if (ret != PFM_SUCCESS) {
		say("libpfm4 failed to initialise (%s): reinstall libpfm4", pfm.strerror(ret));
		return -1;
	}
	pfm.state = 1;
	return 0;
}

const char *td_pfm_init_error(void)
{
	return pfm.error ? pfm.error : "libpfm4 is not initialised";
}

pfm_err_t td_pfm_get_pmu_info(pfm_pmu_t pmu, pfm_pmu_info_t *info)
{
	return pfm.state > 0 ? pfm.get_pmu_info(pmu, info) : PFM_ERR_NOINIT;
}

pfm_err_t td_pfm_get_event_info(int idx, pfm_os_t os, pfm_event_info_t *info)
{
	return pfm.state > 0 ? pfm.get_event_info(idx, os, info) : PFM_ERR_NOINIT;
}

pfm_err_t td_pfm_get_os_event_encoding(const char *str, int dfl_plm, pfm_os_t os, void *args)
{
	return pfm.state > 0 ? pfm.get_os_event_encoding(str, dfl_plm, os, args) : PFM_ERR_NOINIT;
}

const char *td_pfm_strerror(int code)
{
	return pfm.strerror ? pfm.strerror(code) : "libpfm4 is not loaded";
}

static char host_model[64];

void td_pfm_set_host_model(const char *model)
{
	snprintf(host_model, sizeof(host_model), "%s", model ? model : "");
}

const char *td_pfm_host_model(void)
{
	return host_model[0] ? host_model : NULL;
}
