/* model: a loaded catalog's definition lines (let, info, node, cpi,
 * cpi-cycles, cpi-instructions) compiled into something the metrics module
 * can evaluate — the metric tree with paths, parents, levels, domains and
 * thresholds; info metrics; helpers; the CPI stack; one slot array layout
 * shared by all of them; an evaluation order; and, for every formula, the
 * event aliases it needs transitively (for the group planner).
 *
 * Slot layout (indices into the double array metrics evaluates against):
 *   [0, nevents)                 event aliases, in catalog order
 *   [nevents, +nconsts)          const and param values, in catalog order
 *   TD_BUILTIN_DURATION/NUM_CPUS the two built-ins, right after the consts
 *   then one slot per let/info/node/cpi/cpi-cycles/cpi-instructions. */
#ifndef TD_MODEL_H
#define TD_MODEL_H

#include <stdbool.h>

#include "catalog.h"
#include "expr.h"
#include "base/util.h"

/* One compiled expression with its source and what it reads. */
struct td_formula {
	char *text; /* source text, for display */
	struct td_expr *expr;
	int slot; /* where its value goes */
	int line;
	const struct td_cat_def *def; /* the definition it comes from, and where in its text */
	int off;
	int *events; /* alias indices it needs transitively, ascending */
	int nevents;
};

struct td_node {
	char *path;	  /* Backend_Bound.Memory_Bound */
	const char *name; /* last component, points into path */
	int parent;	  /* node index, -1 for level 1 */
	int level;	  /* 1 = top */
	char domain[24];  /* Slots, Clocks, ...: one of model.c's domains (longest Clocks_Calculated) */
	struct td_formula f;
	char *threshold;     /* source text as written, NULL if none */
	int thr_off;	     /* where in the definition's text */
	struct td_expr *thr; /* compiled ("> N" becomes "this > N"), NULL if none */
	char *desc;
};

struct td_info {
	char *name;
	char unit[32];
	struct td_formula f;
	char *desc;
};

struct td_let {
	char *name;
	struct td_formula f;
};

/* A relation the vendor documents between a node and its direct children
 * (docs/td-format.md "Child-group relations"). Data for checks
 * (tests/unit/test_fixtures.c), not used in evaluation. Every node with
 * children should have exactly one; tests require it of the shipped files.
 *   partition    PARENT [| NOTE]         the children add up to PARENT
 *   children-sum PARENT = EXPR [| NOTE]  the children add up to EXPR
 *   bound        PARENT [= EXPR] [| NOTE] every child <= PARENT (or EXPR)
 *   unrelated    PARENT | WHY            no relation is documented (WHY required) */
enum td_rel_kind {
	TD_REL_PARTITION,
	TD_REL_SUM,
	TD_REL_BOUND,
	TD_REL_UNRELATED
};

struct td_relation {
	enum td_rel_kind kind;
	int node;      /* the parent's node index */
	int *children; /* its direct children's node indices, declaration order */
	int nchildren;
	char *text;	      /* EXPR as written, NULL when the relation is to PARENT itself */
	struct td_expr *expr; /* compiled EXPR (reads the model's slots), NULL without one */
	char *note;	      /* the `| ...` text, NULL if none (always set for unrelated) */
	int line;
};

enum td_cpi_tag {
	TD_CPI_MEASURED,
	TD_CPI_DERIVED,
	TD_CPI_ESTIMATED
};

struct td_cpi_comp {
	char *name;
	enum td_cpi_tag tag;
	struct td_formula f; /* fraction of cycles */
	char *desc;
};

struct td_model {
	const struct td_catalog *cat; /* borrowed: must outlive the model */
	int nslots;
	int first_const; /* = cat->nevents */
	int slot_duration, slot_num_cpus;
	double *defaults;  /* nslots values: consts and param defaults, NaN elsewhere */
	char **slot_names; /* nslots names, for messages and lookups */

	struct td_node *nodes;
	int nnodes;
	struct td_info *infos;
	int ninfos;
	struct td_let *lets;
	int nlets;
	struct td_relation *relations;
	int nrelations;
	struct td_cpi_comp *cpis;
	int ncpis;
	bool has_cpi; /* cpi-cycles and cpi-instructions given */
	struct td_formula cpi_cycles, cpi_instructions;

	const struct td_formula **order; /* every formula, dependencies first */
	int norder;
};

/* Compile cat's definitions. Checks parents declared before children,
 * every name defined (aliases, const, param, let, info, node paths,
 * DURATION, NUM_CPUS; `this` only in thresholds), no cycles, CPI lines
 * complete, every relation line (partition, children-sum, bound,
 * unrelated) naming a node with children, at most one per node, a partition
 * over two or more children of the parent's domain family. Names may be used before the line defining them. On error
 * returns -1 with "FILE:LINE: what" (and "column N" from expressions: LINE
 * and N the physical line and column, also on continuation lines). */
int td_model_compile(const struct td_catalog *cat, struct td_model **out, td_err *err);
void td_model_free(struct td_model *m);

/* Slot of a name (alias, const, param, builtin, let, info, node path), or -1. */
int td_model_slot(const struct td_model *m, const char *name);
/* Index of the node with this path, or -1. */
int td_model_node(const struct td_model *m, const char *path);
/* True if slot holds a param or a built-in (may be overridden per evaluation). */
bool td_model_is_param(const struct td_model *m, int slot);

const char *td_cpi_tag_name(enum td_cpi_tag tag);
/* "partition", "children-sum", "bound", "unrelated". */
const char *td_rel_kind_name(enum td_rel_kind kind);
/* Index in m->relations of the relation declared for node, or -1. */
int td_model_relation(const struct td_model *m, int node);
/* The locate line (catalog_locate.c) of node or, when it has none, of its
 * nearest ancestor that has one: the bottleneck's deepest node on its path
 * to level 1 whose samples an events file says point at its code. NULL when
 * node is -1 or no node of that path has a locate line. */
const struct td_cat_locate *td_model_locate(const struct td_model *m, int node);

#endif
