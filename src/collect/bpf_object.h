/* bpf_object: the one BPF object of the collector — tracker.bpf.c's and
 * counting.bpf.c's programs linked into collect.bpf.o (its skeleton
 * collect.skel.h, both generated at build time) — so that a session that
 * tracks and counts by BPF loads one object: libbpf (1.1) reads and parses
 * the kernel's BTF, and searches it for the types the programs relocate,
 * once per object. An object is loaded with one half or both (the programs
 * and maps of a half not asked for are neither loaded nor made), each half
 * in its flavour (tp_btf or raw_tp), and is held by a count each half
 * takes: the counting instance and the tracker free it in any order. A
 * counting instance loaded with the tracker's half offers it; the next
 * BPF tracker made in the process takes it instead of loading its own.
 * Built only with BPF; internal to collect/. */
#ifndef TD_BPF_OBJECT_H
#define TD_BPF_OBJECT_H

#include <linux/types.h>
#include <stdbool.h>

#include "base/util.h"
#include "counting_event.h"	  /* the skeleton's read-only data holds a thread's sums */
#include "collect/collect.skel.h" /* generated at build time (Makefile.am) */

enum {
	TD_BPF_HALF_TRACKER = 1,
	TD_BPF_HALF_COUNTING = 2
};

struct td_bpf_object {
	struct collect_bpf *skel;
	unsigned halves;  /* TD_BPF_HALF_*: the programs loaded */
	bool tracker_btf; /* the flavour of each half loaded */
	bool counting_btf;
	bool own_types; /* relocated against the kernel types file (kernel_types.h), not the kernel's BTF */
	int refs;
};

/* Open the object for the halves asked for (count 1), with each one's
 * programs of its flavour only; the caller sets the halves' read-only
 * data and map sizes, then loads. NULL with why set (and *err, libbpf's
 * negative error number, which td_bpf_neither tells apart). */
struct td_bpf_object *td_bpf_object_open(unsigned halves, bool tracker_btf, bool counting_btf, td_err *why, int *err);
/* Load what was opened: 0 or -errno (a thin wrapper of the system call: libbpf's bpf(2) loads). */
int td_bpf_object_load(struct td_bpf_object *o);
/* Attach the loaded programs of one half (the counting's flush is run, not
 * attached): 0 or -errno (a thin wrapper of the system call: libbpf's attach). */
int td_bpf_object_attach(struct td_bpf_object *o, unsigned half);
/* Detach one half's programs (its user is done with them). */
void td_bpf_object_detach(struct td_bpf_object *o, unsigned half);
/* Drop a count; the last one destroys the object. NULL is ignored. */
void td_bpf_object_put(struct td_bpf_object *o);

/* Offer o's tracker half (loaded, not attached) to the next tracker. */
void td_bpf_object_offer_tracker(struct td_bpf_object *o);
/* The object offered, with a count taken and the offer withdrawn, when its
 * tracker half was loaded with this follow_children; else NULL. */
struct td_bpf_object *td_bpf_object_take_tracker(bool follow_children);

#endif
