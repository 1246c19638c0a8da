/* bpf_object: the collector's one BPF object (collect.bpf.o), loaded with
 * the tracker's half, the counting's or both, held by a count, and the
 * tracker's half offered to the next tracker (see bpf_object.h). */
#include <linux/types.h> /* before the skeleton */
#include <bpf/libbpf.h>

#include "bpf_object.h"
#include "kernel_types.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* A program of the object: its half, its flavour (-1: either: the
 * counting's flush, loaded with its half, run and never attached). */
struct prog {
	unsigned half;
	int btf;
	struct bpf_program *p;
	struct bpf_link **link;
};

#define PROG(h, b, name) ((struct prog){ h, b, s->progs.name, &s->links.name })
#define NPROGS 13

static void progs_of(struct collect_bpf *s, struct prog out[NPROGS])
{
	const struct prog all[NPROGS] = {
		PROG(TD_BPF_HALF_TRACKER, 1, track_fork_btf),	PROG(TD_BPF_HALF_TRACKER, 1, track_exec_btf),
		PROG(TD_BPF_HALF_TRACKER, 1, track_rename_btf), PROG(TD_BPF_HALF_TRACKER, 1, track_exit_btf),
		PROG(TD_BPF_HALF_TRACKER, 0, track_fork_raw),	PROG(TD_BPF_HALF_TRACKER, 0, track_exec_raw),
		PROG(TD_BPF_HALF_TRACKER, 0, track_rename_raw), PROG(TD_BPF_HALF_TRACKER, 0, track_exit_raw),
		PROG(TD_BPF_HALF_COUNTING, 1, switch_btf),	PROG(TD_BPF_HALF_COUNTING, 1, fork_btf),
		PROG(TD_BPF_HALF_COUNTING, 0, switch_raw),	PROG(TD_BPF_HALF_COUNTING, 0, fork_raw),
		PROG(TD_BPF_HALF_COUNTING, -1, flush),
	};
	memcpy(out, all, sizeof(all));
}

static bool prog_loads(const struct td_bpf_object *o, const struct prog *p)
{
	bool btf = p->half == TD_BPF_HALF_TRACKER ? o->tracker_btf : o->counting_btf;

	return (o->halves & p->half) && (p->btf < 0 || p->btf == (int)btf);
}

static struct td_bpf_object *offered;

struct td_bpf_object *td_bpf_object_open(unsigned halves, bool tracker_btf, bool counting_btf, td_err *why, int *err)
{
	struct td_bpf_object *o = calloc(1, sizeof(*o));
	struct prog progs[NPROGS];

	if (!o) {
		*err = -ENOMEM;
		td_err_set(why, "out of memory");
		return NULL;
	}
	/* raw_tp programs only: relocated against this boot's kernel types file
	 * where one was taken (a tp_btf program's object parses the kernel's BTF
	 * for its attach point whatever it is given) */
	const char *types =
		(!(halves & TD_BPF_HALF_TRACKER) || !tracker_btf) && (!(halves & TD_BPF_HALF_COUNTING) || !counting_btf)
			? td_kernel_types_path()
			: NULL;
	LIBBPF_OPTS(bpf_object_open_opts, oo, .btf_custom_path = types);

	if (!(o->skel = collect_bpf__open_opts(&oo))) {
		*err = -errno;
		td_err_set(why, "cannot open the BPF object: %s", strerror(errno));
		free(o);
		return NULL;
	}
	o->halves = halves;
	o->tracker_btf = tracker_btf;
	o->counting_btf = counting_btf;
	o->refs = 1;
	o->own_types = types != NULL;
	progs_of(o->skel, progs);
	for (int i = 0; i < NPROGS; i++) {
		bpf_program__set_autoload(progs[i].p, prog_loads(o, &progs[i]));
		bpf_program__set_autoattach(progs[i].p, false); /* each half attaches its own */
	}
	struct bpf_map *tracker_maps[] = { o->skel->maps.tracked, o->skel->maps.events };
	struct bpf_map *counting_maps[] = {
		o->skel->maps.counters,	  o->skel->maps.proc_sums,  o->skel->maps.cgroup_sums,
		o->skel->maps.cpu_states, o->skel->maps.followed,   o->skel->maps.slots,
		o->skel->maps.slot_of,	  o->skel->maps.free_slots, o->skel->maps.based,
	};
	for (size_t i = 0; i < sizeof(tracker_maps) / sizeof(tracker_maps[0]); i++)
		bpf_map__set_autocreate(tracker_maps[i], (halves & TD_BPF_HALF_TRACKER) != 0);
	for (size_t i = 0; i < sizeof(counting_maps) / sizeof(counting_maps[0]); i++)
		bpf_map__set_autocreate(counting_maps[i], (halves & TD_BPF_HALF_COUNTING) != 0);
	return o;
}

int td_bpf_object_load(struct td_bpf_object *o)
{
	int rc = collect_bpf__load(o->skel);

	if (rc && o->own_types)
		td_kernel_types_failed(); /* the next object parses the kernel's BTF */
	return rc;
}

int td_bpf_object_attach(struct td_bpf_object *o, unsigned half)
{
	struct prog progs[NPROGS];

	progs_of(o->skel, progs);
	for (int i = 0; i < NPROGS; i++) {
		if (progs[i].half != half || progs[i].btf < 0 || !prog_loads(o, &progs[i]) || *progs[i].link)
			continue;
		if (!(*progs[i].link = bpf_program__attach(progs[i].p))) {
			int rc = -errno;
			td_bpf_object_detach(o, half);
			return rc;
		}
	}
	return 0;
}

void td_bpf_object_detach(struct td_bpf_object *o, unsigned half)
{
	struct prog progs[NPROGS];

	progs_of(o->skel, progs);
	for (int i = 0; i < NPROGS; i++)
		if (progs[i].half == half && *progs[i].link) {
			bpf_link__destroy(*progs[i].link);
			*progs[i].link = NULL;
		}
}

void td_bpf_object_put(struct td_bpf_object *o)
{
	if (!o || --o->refs > 0)
		return;
	if (offered == o)
		offered = NULL;
	collect_bpf__destroy(o->skel);
	free(o);
}

void td_bpf_object_offer_tracker(struct td_bpf_object *o)
{
	/* not counted: an offer no tracker took goes with the counting instance */
	offered = o;
}

struct td_bpf_object *td_bpf_object_take_tracker(bool follow_children)
{
	struct td_bpf_object *o = offered;

	if (!o || !(o->halves & TD_BPF_HALF_TRACKER) || o->skel->rodata->track_children != follow_children)
		return NULL;
	offered = NULL;
	o->refs++;
	return o;
}
