/* model: parses the definition lines the catalog kept, registers every name
 * in one slot table, compiles the expressions, and hands the ordering and
 * event-set work to model_order.c. */
#include "model.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_order.h"

/* toplev's domains; Intel's Clocks_Retired, Clocks_Calculated and Core_Utilization (TMA level 4) and
 * Core_Execution, Core_Clocks (the level-5/6 port utilizations) keep their names, the *_Estimated ones
 * are written *_est */
static const char *const domains[] = { "Slots",
				       "Clocks",
				       "Stalls",
				       "Uops",
				       "Slots_est",
				       "Clocks_est",
				       "Cycles",
				       "Clocks_Retired",
				       "Clocks_Calculated",
				       "Core_Utilization",
				       "Core_Execution",
				       "Core_Clocks" };
_Static_assert(sizeof("Clocks_Calculated") <= sizeof(((struct td_node *)0)->domain),
	       "td_node.domain holds every domain");

/* Set err to "FILE:LINE: message" (the events file's line) and return -1. */
static int model_fail(const struct td_model *m, td_err *err, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int model_fail(const struct td_model *m, td_err *err, int line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	td_err_vset_at(err, m->cat->name, line, fmt, ap);
	va_end(ap);
	return -1;
}

const char *td_cpi_tag_name(enum td_cpi_tag tag)
{
	return tag == TD_CPI_MEASURED ? "measured" : tag == TD_CPI_DERIVED ? "derived" : "estimated";
}

int td_model_slot(const struct td_model *m, const char *name)
{
	for (int i = 0; i < m->nslots; i++)
		if (!strcmp(m->slot_names[i], name))
			return i;
	return -1;
}

int td_model_node(const struct td_model *m, const char *path)
{
	for (int i = 0; i < m->nnodes; i++)
		if (!strcmp(m->nodes[i].path, path))
			return i;
	return -1;
}

bool td_model_is_param(const struct td_model *m, int slot)
{
	int c = slot - m->first_const;

	if (slot == m->slot_duration || slot == m->slot_num_cpus)
		return true;
	return c >= 0 && c < m->cat->nconsts && m->cat->consts[c].is_param;
}

/* ---- slot table ---------------------------------------------------------- */

static int add_slot(struct td_model *m, const char *name, double dflt)
{
	char **names = realloc(m->slot_names, (size_t)(m->nslots + 1) * sizeof(*names));
	double *d = names ? realloc(m->defaults, (size_t)(m->nslots + 1) * sizeof(*d)) : NULL;

	if (names)
		m->slot_names = names;
	if (!d)
		return -1;
	m->defaults = d;
	if (!(m->slot_names[m->nslots] = strdup(name)))
		return -1;
	m->defaults[m->nslots] = dflt;
	return m->nslots++;
}

/* Register a name a formula may use; refuses duplicates. */
static int define(struct td_model *m, const char *name, int line, td_err *err)
{
	if (td_model_slot(m, name) >= 0)
		return model_fail(m, err, line, "'%s' is already defined", name);
	int slot = add_slot(m, name, TD_NA);
	if (slot < 0)
		return model_fail(m, err, line, "out of memory");
	return slot;
}

static int add_inputs(struct td_model *m, td_err *err)
{
	const struct td_catalog *cat = m->cat;

	for (int i = 0; i < cat->nevents; i++)
		if (define(m, cat->events[i].alias, cat->events[i].line, err) < 0)
			return -1;
	m->first_const = m->nslots;
	for (int i = 0; i < cat->nconsts; i++) {
		int s = define(m, cat->consts[i].name, cat->consts[i].line, err);
		if (s < 0)
			return -1;
		m->defaults[s] = cat->consts[i].value;
	}
	if ((m->slot_duration = define(m, "DURATION", 0, err)) < 0 ||
	    (m->slot_num_cpus = define(m, "NUM_CPUS", 0, err)) < 0)
		return -1;
	return 0;
}

/* ---- definition lines -------------------------------------------------- */

/* The pieces of "HEAD = EXPR | F1 | F2" (in place in base, a copy of the
 * definition's text, trimmed). */
struct parts {
	const char *base;
	char *head, *expr;
	char *field[2];
	int nfields;
};

static int split_def(struct td_model *m, const struct td_cat_def *d, char *text, int maxfields, struct parts *p,
		     td_err *err)
{
	char *eq = strchr(text, '=');
	char *seg[3];
	int nseg = 0;

	memset(p, 0, sizeof(*p));
	p->base = text;
	if (!eq)
		return model_fail(m, err, d->line, "'%s' needs '= EXPRESSION'", d->keyword);
	*eq = '\0';
	p->head = td_trim(text);
	seg[nseg++] = eq + 1;
	for (char *bar = strchr(eq + 1, '|'); bar; bar = strchr(bar + 1, '|')) {
		if (nseg > maxfields)
			return model_fail(m, err, d->line, "'%s %s': too many '|' fields (at most %d)", d->keyword,
					  p->head, maxfields);
		*bar = '\0';
		seg[nseg++] = bar + 1;
	}
	p->expr = td_trim(seg[0]);
	for (int i = 1; i < nseg; i++)
		p->field[p->nfields++] = td_trim(seg[i]);
	if (!*p->expr)
		return model_fail(m, err, d->line, "'%s %s' has an empty expression", d->keyword, p->head);
	return 0;
}

static char *dup_or_null(const char *s)
{
	return s && *s ? strdup(s) : NULL;
}

/* expr is at offset off of d->text (for messages pointing into it). */
static int init_formula(struct td_model *m, struct td_formula *f, const char *name, const char *expr, int off,
			const struct td_cat_def *d, td_err *err)
{
	f->line = d->line;
	f->def = d;
	f->off = off;
	if (!(f->text = strdup(expr)))
		return model_fail(m, err, d->line, "out of memory");
	f->slot = define(m, name, d->line, err);
	return f->slot < 0 ? -1 : 0;
}

/* Dotted names of letters, digits and _; the first starts with a letter or _, the others may
 * start with a digit too (TMA's Backend_Bound.Memory_Bound.L1_Bound.4K_Aliasing). */
static bool valid_path(const char *p)
{
	bool start = true, first = true;

	for (; *p; p++) {
		if (*p == '.') {
			if (start)
				return false;
			start = true;
			first = false;
		} else if (start ? (isalpha((unsigned char)*p) || *p == '_' || (!first && isdigit((unsigned char)*p)))
				 : (isalnum((unsigned char)*p) || *p == '_')) {
			start = false;
		} else {
			return false;
		}
	}
	return !start;
}

static int find_parent(struct td_model *m, struct td_node *n, const struct td_cat_def *d, td_err *err)
{
	char *dot = strrchr(n->path, '.');

	n->name = dot ? dot + 1 : n->path;
	n->parent = -1;
	n->level = 1;
	if (!dot)
		return 0;
	*dot = '\0';
	m->nnodes--; /* n is the last node: look only at those declared before it */
	n->parent = td_model_node(m, n->path);
	m->nnodes++;
	*dot = '.';
	if (n->parent < 0)
		return model_fail(m, err, d->line, "node '%s': parent '%.*s' is not declared before it", n->path,
				  (int)(dot - n->path), n->path);
	n->level = m->nodes[n->parent].level + 1;
	return 0;
}

static int check_domain(struct td_model *m, const char *dom, const struct td_cat_def *d, const char *path, td_err *err)
{
	for (size_t i = 0; i < sizeof(domains) / sizeof(domains[0]); i++)
		if (!strcmp(dom, domains[i]))
			return 0;
	return model_fail(m, err, d->line,
			  "node '%s': unknown domain '%s' (expected Slots, Clocks, Stalls, Uops, Slots_est, "
			  "Clocks_est, Cycles, Clocks_Retired, Clocks_Calculated, Core_Utilization, Core_Execution or "
			  "Core_Clocks)",
			  path, dom);
}

/* One more zeroed element of the array arrp (of *n); "out of memory" at line. */
static void *push(const struct td_model *m, td_err *err, int line, void *arrp, int *n, size_t size)
{
	void *e = td_array_push(arrp, n, size);

	if (!e)
		model_fail(m, err, line, "out of memory");
	return e;
}

static int add_node(struct td_model *m, const struct td_cat_def *d, struct parts *p, td_err *err)
{
	char *head = p->head;
	char *path = td_next_word(&head), *dom = td_next_word(&head);

	if (!valid_path(path))
		return model_fail(m, err, d->line, "node path '%s' is not dotted names (letters, digits, _)", path);
	if (!*dom || *head)
		return model_fail(m, err, d->line, "node '%s' needs 'PATH DOMAIN = EXPR'", path);
	if (check_domain(m, dom, d, path, err))
		return -1;
	struct td_node *n = push(m, err, d->line, &m->nodes, &m->nnodes, sizeof(*m->nodes));
	if (!n)
		return -1;
	n->path = strdup(path);
	snprintf(n->domain, sizeof(n->domain), "%s", dom);
	n->threshold = dup_or_null(p->nfields > 0 ? p->field[0] : NULL);
	n->thr_off = p->nfields > 0 ? (int)(p->field[0] - p->base) : 0;
	n->desc = dup_or_null(p->nfields > 1 ? p->field[1] : NULL);
	if (!n->path)
		return model_fail(m, err, d->line, "out of memory");
	if (find_parent(m, n, d, err))
		return -1;
	return init_formula(m, &n->f, path, p->expr, (int)(p->expr - p->base), d, err);
}

/* let NAME = EXPR, info NAME UNIT = EXPR | DESC */
static int add_named(struct td_model *m, const struct td_cat_def *d, struct parts *p, td_err *err)
{
	char *head = p->head;
	char *name = td_next_word(&head), *second = td_next_word(&head);
	bool is_let = !strcmp(d->keyword, "let");

	if (!valid_path(name) || strchr(name, '.'))
		return model_fail(m, err, d->line, "'%s' needs a name (letters, digits, _), got '%s'", d->keyword,
				  name);
	if (*head || (is_let ? *second != '\0' : !*second))
		return model_fail(m, err, d->line, "'%s %s': expected '%s'", d->keyword, name,
				  is_let ? "let NAME = EXPR" : "info NAME UNIT = EXPR | DESCRIPTION");
	if (is_let) {
		struct td_let *l = push(m, err, d->line, &m->lets, &m->nlets, sizeof(*m->lets));
		if (!l)
			return -1;
		if (!(l->name = strdup(name)))
			return model_fail(m, err, d->line, "out of memory");
		return init_formula(m, &l->f, name, p->expr, (int)(p->expr - p->base), d, err);
	}
	struct td_info *in = push(m, err, d->line, &m->infos, &m->ninfos, sizeof(*m->infos));
	if (!in)
		return -1;
	in->name = strdup(name);
	in->desc = dup_or_null(p->nfields ? p->field[0] : NULL);
	snprintf(in->unit, sizeof(in->unit), "%s", second);
	if (!in->name)
		return model_fail(m, err, d->line, "out of memory");
	return init_formula(m, &in->f, name, p->expr, (int)(p->expr - p->base), d, err);
}

static int add_cpi(struct td_model *m, const struct td_cat_def *d, struct parts *p, td_err *err)
{
	char *head = p->head;
	char *name = td_next_word(&head), *tag = td_next_word(&head);
	enum td_cpi_tag t;
	char slot_name[96];

	if (!valid_path(name) || strchr(name, '.'))
		return model_fail(m, err, d->line, "'cpi' needs a name (letters, digits, _), got '%s'", name);
	if (!strcmp(tag, "measured"))
		t = TD_CPI_MEASURED;
	else if (!strcmp(tag, "derived"))
		t = TD_CPI_DERIVED;
	else if (!strcmp(tag, "estimated"))
		t = TD_CPI_ESTIMATED;
	else
		return model_fail(m, err, d->line, "cpi '%s': tag must be measured, derived or estimated, got '%s'",
				  name, tag);
	if (!strcmp(name, "Other"))
		return model_fail(m, err, d->line,
				  "cpi 'Other' is reserved: the engine adds it (CPI minus the components)");
	for (int i = 0; i < m->ncpis; i++)
		if (!strcmp(m->cpis[i].name, name))
			return model_fail(m, err, d->line, "cpi component '%s' defined twice", name);
	struct td_cpi_comp *c = push(m, err, d->line, &m->cpis, &m->ncpis, sizeof(*m->cpis));
	if (!c)
		return -1;
	c->name = strdup(name);
	c->tag = t;
	c->desc = dup_or_null(p->nfields ? p->field[0] : NULL);
	if (!c->name)
		return model_fail(m, err, d->line, "out of memory");
	snprintf(slot_name, sizeof(slot_name), "cpi:%s", name); /* not an identifier: not referable */
	return init_formula(m, &c->f, slot_name, p->expr, (int)(p->expr - p->base), d, err);
}

static int add_cpi_base(struct td_model *m, const struct td_cat_def *d, td_err *err)
{
	bool cycles = !strcmp(d->keyword, "cpi-cycles");
	struct td_formula *f = cycles ? &m->cpi_cycles : &m->cpi_instructions;
	char text[1024];

	if (f->text)
		return model_fail(m, err, d->line, "'%s' given twice (first at line %d)", d->keyword, f->line);
	snprintf(text, sizeof(text), "%s", d->text);
	if (strchr(text, '|'))
		return model_fail(m, err, d->line, "'%s' takes an expression only", d->keyword);
	char *expr = td_trim(text);
	return init_formula(m, f, d->keyword, expr, (int)(expr - text), d, err);
}

/* ---- child-group relations ---------------------------------------------- */

static const char *const rel_kinds[] = { "partition", "children-sum", "bound", "unrelated" };

const char *td_rel_kind_name(enum td_rel_kind kind)
{
	return rel_kinds[kind];
}

int td_model_relation(const struct td_model *m, int node)
{
	for (int i = 0; i < m->nrelations; i++)
		if (m->relations[i].node == node)
			return i;
	return -1;
}

const struct td_cat_locate *td_model_locate(const struct td_model *m, int node)
{
	for (; node >= 0 && node < m->nnodes; node = m->nodes[node].parent) {
		const struct td_cat_locate *l = td_catalog_locate(m->cat, m->nodes[node].path);
		if (l)
			return l;
	}
	return NULL;
}

static bool is_relation(const char *kw)
{
	for (size_t i = 0; i < sizeof(rel_kinds) / sizeof(rel_kinds[0]); i++)
		if (!strcmp(kw, rel_kinds[i]))
			return true;
	return false;
}

/* The pieces of "PATH [= EXPR] [| NOTE]" (in place in text, a copy of d->text). */
struct rel_parts {
	char *path, *expr, *note;
	int expr_off; /* where EXPR starts in d->text */
};

static int split_relation(struct td_model *m, const struct td_cat_def *d, char *text, struct rel_parts *r, td_err *err)
{
	char *bar = strchr(text, '|'), *rest = text;

	memset(r, 0, sizeof(*r));
	if (bar) {
		*bar = '\0';
		r->note = td_trim(bar + 1);
	}
	r->path = td_next_word(&rest);
	if (!valid_path(r->path))
		return model_fail(m, err, d->line, "'%s' needs a node path, got '%s'", d->keyword, r->path);
	rest = td_trim(rest);
	if (*rest == '=') {
		r->expr = td_trim(rest + 1);
		r->expr_off = (int)(r->expr - text);
	} else if (*rest) {
		return model_fail(m, err, d->line,
				  "'%s %s': unexpected '%s' (expected '= EXPRESSION', '| NOTE' or the end of the line)",
				  d->keyword, r->path, rest);
	}
	return 0;
}

/* A relation line: the syntax is checked and the kind recorded here (PARENT
 * may be declared later in the file, EXPR may read names defined later);
 * resolve_relations does the rest once every node is known. */
static int add_relation(struct td_model *m, const struct td_cat_def *d, td_err *err)
{
	enum td_rel_kind kind = TD_REL_PARTITION;
	struct rel_parts r;
	char *text = strdup(d->text);
	int rc = -1;

	for (int k = 0; k < (int)(sizeof(rel_kinds) / sizeof(rel_kinds[0])); k++)
		if (!strcmp(d->keyword, rel_kinds[k]))
			kind = (enum td_rel_kind)k;
	if (!text)
		return model_fail(m, err, d->line, "out of memory");
	if (split_relation(m, d, text, &r, err))
		goto out;
	if (r.expr && !*r.expr) {
		td_err_set(err, "%s:%d: '%s %s =' has an empty expression", m->cat->name, d->line, d->keyword, r.path);
		goto out;
	}
	if ((kind == TD_REL_PARTITION || kind == TD_REL_UNRELATED) && r.expr) {
		td_err_set(err, "%s:%d: '%s %s' takes no expression%s", m->cat->name, d->line, d->keyword, r.path,
			   kind == TD_REL_PARTITION
				   ? " (children adding up to an expression: children-sum PARENT = EXPR)"
				   : "");
		goto out;
	}
	if (kind == TD_REL_SUM && !r.expr) {
		td_err_set(err,
			   "%s:%d: 'children-sum %s' needs '= EXPRESSION' (children adding up to the parent: "
			   "partition PARENT)",
			   m->cat->name, d->line, r.path);
		goto out;
	}
	if (kind == TD_REL_UNRELATED && (!r.note || !*r.note)) {
		td_err_set(err, "%s:%d: 'unrelated %s' needs a reason: unrelated PARENT | WHY", m->cat->name, d->line,
			   r.path);
		goto out;
	}
	struct td_relation *rel = push(m, err, d->line, &m->relations, &m->nrelations, sizeof(*m->relations));
	if (!rel)
		goto out;
	rel->kind = kind;
	rel->node = -1;
	rel->line = d->line;
	rel->text = dup_or_null(r.expr);
	rel->note = dup_or_null(r.note);
	rc = 0;
out:
	free(text);
	return rc;
}

/* Same domain family: Clocks and Clocks_est add up, Slots and Stalls do not. */
static bool same_domain(const char *a, const char *b)
{
	size_t la = strcspn(a, "_"), lb = strcspn(b, "_");

	return la == lb && !strncmp(a, b, la);
}

static int compile(struct td_model *m, const char *what, const char *src, int this_slot, const struct td_cat_def *d,
		   int off, int skip, struct td_expr **out, td_err *err);

static int resolve_relation(struct td_model *m, struct td_relation *p, const struct td_cat_def *d, char *text,
			    td_err *err)
{
	char what[256];
	struct rel_parts r;

	if (split_relation(m, d, text, &r, err))
		return -1;
	const char *kw = d->keyword, *path = r.path;
	int parent = td_model_node(m, path);
	if (parent < 0)
		return model_fail(m, err, d->line, "%s: '%s' is not a node", kw, path);
	int prev = td_model_relation(m, parent);
	if (prev >= 0)
		return model_fail(m, err, d->line,
				  "%s '%s': the node already has a relation (%s at line %d); a node has one", kw, path,
				  rel_kinds[m->relations[prev].kind], m->relations[prev].line);
	p->node = parent;
	for (int c = 0; c < m->nnodes; c++) {
		if (m->nodes[c].parent != parent)
			continue;
		/* children that add up to, or are bounded by, the parent itself share its domain family;
		 * with '= EXPR' the expression says what they are compared with */
		if ((p->kind == TD_REL_PARTITION || p->kind == TD_REL_BOUND) && !p->text &&
		    !same_domain(m->nodes[c].domain, m->nodes[parent].domain))
			return model_fail(m, err, d->line, "%s '%s': child %s is in domain %s, the parent in %s (%s)",
					  kw, path, m->nodes[c].name, m->nodes[c].domain, m->nodes[parent].domain,
					  p->kind == TD_REL_PARTITION ? "they do not add up" : "they do not compare");
		int *ch = push(m, err, d->line, &p->children, &p->nchildren, sizeof(*p->children));
		if (!ch)
			return -1;
		*ch = c;
	}
	if (p->kind == TD_REL_PARTITION && p->nchildren < 2)
		return model_fail(m, err, d->line,
				  "partition '%s': it has %d child node(s), a partition needs at least two", path,
				  p->nchildren);
	if (p->nchildren < 1)
		return model_fail(m, err, d->line,
				  "%s '%s': it has no child nodes (relations are declared for parents)", kw, path);
	if (!p->text)
		return 0;
	snprintf(what, sizeof(what), "%s %s", kw, path);
	return compile(m, what, p->text, -1, d, r.expr_off, 0, &p->expr, err);
}

static int resolve_relations(struct td_model *m, td_err *err)
{
	int k = 0;

	for (int i = 0; i < m->cat->ndefs; i++) {
		const struct td_cat_def *d = &m->cat->defs[i];
		if (!is_relation(d->keyword))
			continue;
		char *text = strdup(d->text);
		if (!text)
			return model_fail(m, err, d->line, "out of memory");
		int rc = resolve_relation(m, &m->relations[k++], d, text, err);
		free(text);
		if (rc)
			return -1;
	}
	return 0;
}

static int add_def(struct td_model *m, const struct td_cat_def *d, td_err *err)
{
	bool node = !strcmp(d->keyword, "node"), let = !strcmp(d->keyword, "let");
	struct parts p;
	char *text;
	int rc;

	if (!strncmp(d->keyword, "cpi-", 4))
		return add_cpi_base(m, d, err);
	if (is_relation(d->keyword))
		return add_relation(m, d, err);
	if (!(text = strdup(d->text)))
		return model_fail(m, err, d->line, "out of memory");
	rc = split_def(m, d, text, node ? 2 : let ? 0 : 1, &p, err);
	if (!rc)
		rc = node			  ? add_node(m, d, &p, err)
		     : !strcmp(d->keyword, "cpi") ? add_cpi(m, d, &p, err)
						  : add_named(m, d, &p, err);
	free(text);
	return rc;
}

/* ---- expressions ------------------------------------------------------- */

struct resolve_ctx {
	const struct td_model *m;
	int this_slot;
};

static int resolve(void *ctx, const char *name, td_err *why)
{
	const struct resolve_ctx *rc = ctx;

	if (!strcmp(name, "this")) {
		if (rc->this_slot >= 0)
			return rc->this_slot;
		td_err_set(why, "'this' is only allowed in thresholds");
		return -1;
	}
	int slot = td_model_slot(rc->m, name);
	if (slot < 0)
		td_err_set(why,
			   "'%s' is not defined (not an event alias, const, param, let, info, node path, "
			   "DURATION or NUM_CPUS)",
			   name);
	return slot;
}

/* Compile src, which is d->text from offset off on after a prefix of skip
 * characters the file does not have; errors point at the file's line and column. */
static int compile(struct td_model *m, const char *what, const char *src, int this_slot, const struct td_cat_def *d,
		   int off, int skip, struct td_expr **out, td_err *err)
{
	struct resolve_ctx rc = { m, this_slot };
	td_err e;
	int col, line;

	if (td_expr_compile_at(src, resolve, &rc, out, &e, &col) == 0)
		return 0;
	col = col - 1 - skip; /* offset in the file's text; an error in the prefix is at its start */
	td_cat_def_position(d, off + (col > 0 ? col : 0), &line, &col);
	return model_fail(m, err, line, "%s: column %d: %s", what, col, e.msg);
}

static int compile_formula(struct td_model *m, const char *what, struct td_formula *f, td_err *err)
{
	return compile(m, what, f->text, -1, f->def, f->off, 0, &f->expr, err);
}

static int compile_threshold(struct td_model *m, struct td_node *n, td_err *err)
{
	char src[1024], what[256];
	const char *t = n->threshold;

	if (!t)
		return 0;
	/* "> 0.15" is shorthand for "this > 0.15" */
	bool shorthand = strchr("<>=!", t[0]) != NULL;
	snprintf(src, sizeof(src), "%s%s", shorthand ? "this " : "", t);
	snprintf(what, sizeof(what), "threshold of node %s%s", n->path, shorthand ? " (read as 'this ...')" : "");
	return compile(m, what, src, n->f.slot, n->f.def, n->thr_off, shorthand ? 5 : 0, &n->thr, err);
}

static int compile_all(struct td_model *m, td_err *err)
{
	char what[256];

	for (int i = 0; i < m->nnodes; i++) {
		snprintf(what, sizeof(what), "node %s", m->nodes[i].path);
		if (compile_formula(m, what, &m->nodes[i].f, err) || compile_threshold(m, &m->nodes[i], err))
			return -1;
	}
	for (int i = 0; i < m->ninfos; i++) {
		snprintf(what, sizeof(what), "info %s", m->infos[i].name);
		if (compile_formula(m, what, &m->infos[i].f, err))
			return -1;
	}
	for (int i = 0; i < m->nlets; i++) {
		snprintf(what, sizeof(what), "let %s", m->lets[i].name);
		if (compile_formula(m, what, &m->lets[i].f, err))
			return -1;
	}
	for (int i = 0; i < m->ncpis; i++) {
		snprintf(what, sizeof(what), "cpi %s", m->cpis[i].name);
		if (compile_formula(m, what, &m->cpis[i].f, err))
			return -1;
	}
	struct td_formula *base[] = { &m->cpi_cycles, &m->cpi_instructions };
	for (int i = 0; i < 2; i++)
		if (base[i]->text && compile_formula(m, m->slot_names[base[i]->slot], base[i], err))
			return -1;
	return 0;
}

static int check_cpi_complete(struct td_model *m, td_err *err)
{
	bool c = m->cpi_cycles.text != NULL, i = m->cpi_instructions.text != NULL;

	m->has_cpi = c && i;
	if (m->ncpis && !m->has_cpi)
		return model_fail(m, err, m->cpis[0].f.line,
				  "cpi components need both 'cpi-cycles' and 'cpi-instructions' lines");
	if (c != i)
		return model_fail(m, err, c ? m->cpi_cycles.line : m->cpi_instructions.line,
				  "'cpi-cycles' and 'cpi-instructions' go together: the other one is missing");
	return 0;
}

int td_model_compile(const struct td_catalog *cat, struct td_model **out, td_err *err)
{
	struct td_model *m = calloc(1, sizeof(*m));

	*out = NULL;
	if (!m) {
		td_err_set(err, "out of memory");
		return -1;
	}
	m->cat = cat;
	m->cpi_cycles.slot = m->cpi_instructions.slot = -1;
	int rc = add_inputs(m, err);
	for (int i = 0; !rc && i < cat->ndefs; i++)
		rc = add_def(m, &cat->defs[i], err);
	if (!rc)
		rc = check_cpi_complete(m, err);
	if (!rc)
		rc = compile_all(m, err);
	if (!rc)
		rc = resolve_relations(m, err);
	if (!rc)
		rc = td_model_order(m, err);
	if (rc) {
		td_model_free(m);
		return -1;
	}
	*out = m;
	return 0;
}

static void free_formula(struct td_formula *f)
{
	free(f->text);
	td_expr_free(f->expr);
	free(f->events);
}

void td_model_free(struct td_model *m)
{
	if (!m)
		return;
	for (int i = 0; i < m->nnodes; i++) {
		free(m->nodes[i].path);
		free(m->nodes[i].threshold);
		free(m->nodes[i].desc);
		td_expr_free(m->nodes[i].thr);
		free_formula(&m->nodes[i].f);
	}
	for (int i = 0; i < m->ninfos; i++) {
		free(m->infos[i].name);
		free(m->infos[i].desc);
		free_formula(&m->infos[i].f);
	}
	for (int i = 0; i < m->nlets; i++) {
		free(m->lets[i].name);
		free_formula(&m->lets[i].f);
	}
	for (int i = 0; i < m->ncpis; i++) {
		free(m->cpis[i].name);
		free(m->cpis[i].desc);
		free_formula(&m->cpis[i].f);
	}
	for (int i = 0; i < m->nrelations; i++) {
		free(m->relations[i].children);
		free(m->relations[i].text);
		free(m->relations[i].note);
		td_expr_free(m->relations[i].expr);
	}
	free(m->relations);
	free_formula(&m->cpi_cycles);
	free_formula(&m->cpi_instructions);
	for (int i = 0; i < m->nslots; i++)
		free(m->slot_names[i]);
	free(m->slot_names);
	free(m->defaults);
	free(m->nodes);
	free(m->infos);
	free(m->lets);
	free(m->cpis);
	free(m->order);
	free(m);
}
