/* snapshot: the latest interval's values of one exported target (an
 * attached process, a schedule entry's system profile), copied out of the
 * session as it evaluates them, so the exporter can serve them between
 * intervals and after the session has ended. One entry per events file the
 * interval was evaluated with (software.td and the model's file). */
#ifndef TD_SNAPSHOT_H
#define TD_SNAPSHOT_H

#include <stdbool.h>
#include <stdint.h>

struct td_live_value;

struct td_snap_value {
	char *name;	    /* node path, info metric or CPI component */
	char *parent;	    /* nodes: the parent's path, "" at level 1 */
	char *unit;	    /* nodes: the domain (Slots ...); info: its unit */
	int level;	    /* nodes */
	double value, conf; /* NaN: not available */
};

struct td_snap_file {
	char *file;
	struct td_snap_value *nodes, *infos, *cpis;
	int nnodes, ninfos, ncpis;
	double cpi; /* NaN: no CPI stack */
};

struct td_snapshot {
	int seq; /* -1: nothing yet */
	double seconds;
	uint64_t taken_ns; /* wall clock when the interval was evaluated */
	struct td_snap_file *files;
	int nfiles;
	bool failed; /* out of memory: the snapshot is partial */
};

void td_snapshot_init(struct td_snapshot *s);
/* Take v's values (a new seq replaces what was there; a second file of the
 * same interval is added). */
void td_snapshot_update(struct td_snapshot *s, const struct td_live_value *v);
void td_snapshot_free(struct td_snapshot *s);
/* Move src into dst (dst's old values freed; src left empty). */
void td_snapshot_move(struct td_snapshot *dst, struct td_snapshot *src);

#endif
