/* bpf_common: what the user-space halves of topdown's BPF programs
 * (tracker_bpf, counting_bpf, exec_watch_bpf) share — libbpf kept quiet
 * with its last warning kept as the reason a load failed, the BTF check
 * made before loading, the kernel's release where a map's flags depend on
 * it, the choice of the raw_tp flavour for tests, and the one-line reasons
 * a load failed. Built only with BPF. */
#ifndef TD_BPF_COMMON_H
#define TD_BPF_COMMON_H

#include <stdbool.h>
#include <stddef.h>

#include "base/util.h"

/* Before loading a BPF object: libbpf prints nothing from now on (a
 * fallback is not an error); its last warning since td_bpf_warning_clear
 * is kept. And the memory libbpf frees after parsing the kernel's BTF
 * stays in the heap, for the next object's parse (see bpf_common.c). */
void td_bpf_quiet(void);
void td_bpf_warning_clear(void);
/* libbpf's last warning, "" none. */
const char *td_bpf_warning(void);
/* true, with err saying why, when the kernel has no BTF (tp_btf and CO-RE
 * need it). */
bool td_bpf_no_btf(td_err *err);
/* true when the environment variable env says raw_tp (tests load the second
 * flavour where tp_btf loads); why_btf then says tp_btf was not tried. */
bool td_bpf_raw_tp_only(const char *env, td_err *why_btf);
/* true when the running kernel's release (uname) is major.minor or later. */
bool td_bpf_kernel_at_least(int major, int minor);
/* err: "FLAVOUR programs did not STEP: strerror(-rc)[: libbpf's warning]". */
void td_bpf_step_failed(td_err *err, bool btf, const char *step, int rc);
/* err: why neither flavour loaded: root or CAP_BPF+CAP_PERFMON when both got
 * EPERM, else both reasons. */
void td_bpf_neither(td_err *err, int err_btf, const td_err *why_btf, int err_raw, const td_err *why_raw);

#endif
