/* kernel_types: this boot's kernel types for the collector's BPF object,
 * kept in a file so that a session's start need not parse the kernel's BTF.
 *
 * libbpf (1.1) reads and parses all of /sys/kernel/btf/vmlinux (~6 MB,
 * ~130,000 types) at each load of an object with CO-RE relocations, to find
 * the few types and fields the programs read: 7-11 ms of every start on
 * our 2-vCPU guests, a third of it. `bpftool gen min_core_btf` writes the
 * part of it that collect.bpf.o's relocations use (~700 bytes); an object
 * opened with that file (libbpf's btf_custom_path) relocates against it
 * and, when its programs are the raw_tp ones, never reads the kernel's
 * BTF (a tp_btf program needs the kernel's BTF for its attach point: its
 * object parses it whatever else is given). The file is made once per
 * boot and object, by the first start that finds none (made(): ~35 ms of
 * bpftool's CPU, once), named by the boot and by a hash of the object's
 * bytes (a rebuilt tdctl never takes an older object's file), and taken
 * only when it is a regular file of this user's that nobody else can
 * write. The raw_tp programs cost a few helper calls more at each context
 * switch than the tp_btf ones, every switch of the machine (below; the
 * figures in docs/performance.md): a tdctl session takes the file only
 * when it is bounded (--duration) and its switches' extra cost, at the
 * rate the machine switches during tdctl's start (td_kernel_types_offer),
 * stays within what the start saves (td_kernel_types_pays); topdownd, whose
 * start is once, never.
 * Built with BPF only (kernel_types_nobpf.c without). */
#ifndef TD_KERNEL_TYPES_H
#define TD_KERNEL_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/util.h"

/* What taking the file changes, as measured on a 2-vCPU AMD Zen 4 guest
 * (docs/performance.md): the start ~10 ms of CPU cheaper at the least (the
 * kernel's BTF read and parsed: 9.4-11.4 ms; the whole start 37 -> 20 ms),
 * each context switch dearer (the raw_tp programs read prev's and next's
 * ids, and a followed thread's runtime, through helper calls: +60 ns a
 * switch of threads nobody follows, +100 ns of followed ones; every switch
 * of the machine runs the program). */
#define TD_KERNEL_TYPES_START_SAVED_NS 10000000.0
#define TD_KERNEL_TYPES_SWITCH_EXTRA_NS 100.0

/* Whether a session of seconds (<= 0: open-ended) on a machine making
 * switches_per_s (td_switch_rate) pays less with the file than
 * without: its switches' extra cost within the start it saves. An
 * open-ended session never. */
bool td_kernel_types_pays(double seconds, double switches_per_s);
/* A reading of the machine's context switches so far (/proc/stat's ctxt)
 * and when (CLOCK_BOOTTIME, seconds). */
struct td_switch_reading {
	unsigned long long ctxt;
	double at;
};
/* Read now: 0, or -1 (no /proc/stat, or no ctxt line in it). */
int td_switch_read(struct td_switch_reading *r);
/* The machine's context switches a second: between readings a and b where
 * they are TD_SWITCH_WINDOW_MIN_S apart or more (what it does now: the
 * better guess of the coming seconds), else b's mean since boot (a may be
 * NULL); -1 when unknown. */
#define TD_SWITCH_WINDOW_MIN_S 0.005
double td_switch_rate(const struct td_switch_reading *a, const struct td_switch_reading *b);

/* Take this boot's file in dir for the object, making it first when there
 * is none (with bpftool, when it is there). 1: taken (raw_tp programs with
 * it are tried first); 0: none (*said, when not "", is why: bpftool failed;
 * bpftool missing says nothing); -1 never. dir NULL or "": nowhere. */
int td_kernel_types_take(const char *dir, char *said, size_t len);
/* Offer dir's file to this process's first load (td_kernel_types_path), for
 * a session of seconds (<= 0: open-ended): taken then if the session pays
 * with it at the rate the machine switched from this call to that load
 * (what it does now, not since boot; this process's own switches, each a
 * switch out and one back in, left out), or always (the tests' way). */
void td_kernel_types_offer(const char *dir, double seconds, bool always);
/* Why the file offered was not made (bpftool failed), or "". */
const char *td_kernel_types_said(void);
/* The taken file as a path libbpf can open (the descriptor taken: what
 * was checked is what is read), or NULL; the first call decides an offer. */
const char *td_kernel_types_path(void);
/* The CPU time bpftool took making the file in this process (0: not made here). */
uint64_t td_kernel_types_made_cpu_ns(void);
/* A load with the file failed: it is not used again by this process, and
 * removed (the next start makes it again). */
void td_kernel_types_failed(void);
/* Whether this boot's file is in dir now (tdctl doctor), without taking or
 * making it; *name set to its path. */
bool td_kernel_types_cached(const char *dir, char *name, size_t len);
/* The bpftool that makes the file: $TD_BPFTOOL, else configure's. */
const char *td_kernel_types_bpftool(void);

#endif
