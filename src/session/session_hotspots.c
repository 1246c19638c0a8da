/* session_hotspots: a session's hotspots (--hotspots): the sampled event
 * chosen (the one given; by default cpu-clock until an interval's
 * evaluation names a bottleneck whose path has a locate line, then that
 * line's event, from the next interval on; said plainly as time-based
 * when no PMU can sample), opened beside the counting before the command
 * runs (collect/sampling; a process's threads, or a cgroup's tasks), the
 * ring buffers drained at every scan and interval, each sample's address
 * resolved (symbols/; a user-space one by the session's resolver where it
 * has one: topdownd's symbolizer) and counted per thread and location, the
 * counts written with the interval's transaction (kept for the next one
 * when it fails), and what was lost said. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "collect/sampling.h"
#include "machine/encode.h"
#include "model/catalog.h"
#include "model/model.h"
#include "eval/evaluator.h"
#include "session_impl.h"
#include "symbols/symbols.h"

/* One thread's samples at one location this interval; the strings are the
 * symbol cache's. */
struct hot_row {
	pid_t pid, tid;
	struct td_symbol sym;
	uint64_t count;
	bool used;
	const char *node; /* the node whose event sampled it (session_hot's strings), NULL: time-based */
};

/* One thread's samples with one call stack this interval (folded: the
 * functions from the outermost to the sampled one, joined by ';'). */
struct stack_row {
	pid_t pid, tid;
	char *stack; /* NULL: a free slot */
	uint64_t count;
	const char *node;
};

struct session_hot {
	struct td_sampling *smp;
	struct td_symbols *sym; /* kernel addresses; user-space ones too without a resolver */
	const struct td_resolver *resolver;
	char event[256];
	char node_buf[128];
	const char *node; /* the tree node the event locates (node_buf; by default nodes[]); NULL: none */
	uint64_t period;
	struct hot_row *rows; /* open addressing, power-of-two capacity */
	size_t cap, used;
	uint64_t unresolved;	  /* samples at "[unknown]" */
	struct stack_row *stacks; /* open addressing, power-of-two capacity */
	size_t scap, sused;
	char *fold; /* the stack being folded, grown as needed */
	size_t fold_cap;
	/* by default: the bottleneck's locate event, chosen by watch() from an
	 * interval's evaluation and sampled from the next commit on; chosen
	 * again when a later interval's bottleneck leads to a node below it
	 * (an interval whose deeper nodes were not counted stops the bottleneck
	 * higher: toplev's rule, metrics.h) */
	bool by_bottleneck;	/* watching for it */
	char pending_node[128]; /* chosen, not opened yet ("": none) */
	char pending_spec[256];
	int chosen_seq;	    /* the interval whose bottleneck chose it */
	char tried[128];    /* the last node chosen, sampled or not ("": none) */
	char nodes[8][128]; /* every node sampled so far: the rows' node strings */
	int nnodes;
	int switches;			 /* events sampled by default after cpu-clock */
	struct td_sampling_stats before; /* the events' before the one sampled now */
	uint64_t clock_samples;		 /* cpu-clock's, before the first switch */
};

/* ip of pid: a kernel address always here (/proc/kallsyms: the kernel's
 * text), a user-space one by the session's resolver where it has one. */
static void resolve(struct session_hot *h, pid_t pid, uint64_t ip, bool kernel, struct td_symbol *y)
{
	if (!kernel && h->resolver)
		h->resolver->resolve(h->resolver->ctx, pid, ip, y);
	else
		td_symbols_resolve(h->sym, pid, ip, kernel, y);
}

static uint64_t str_hash(const char *s, uint64_t h)
{
	for (; s && *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return h;
}

static bool same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static size_t row_hash(pid_t tid, const struct td_symbol *y)
{
	uint64_t h = str_hash(y->function, 0xcbf29ce484222325ull ^ (uint64_t)(uint32_t)tid);
	h = str_hash(y->module, h);
	h = str_hash(y->file, h);
	return (size_t)((h ^ (uint64_t)y->line) * 0x9e3779b97f4a7c15ull >> 7);
}

static struct hot_row *row_slot(struct hot_row *rows, size_t cap, pid_t tid, const char *node,
				const struct td_symbol *y)
{
	size_t i = row_hash(tid, y) & (cap - 1);

	while (rows[i].used && !(rows[i].tid == tid && rows[i].node == node && rows[i].sym.line == y->line &&
				 same_str(rows[i].sym.function, y->function) && same_str(rows[i].sym.file, y->file) &&
				 same_str(rows[i].sym.module, y->module)))
		i = (i + 1) & (cap - 1);
	return &rows[i];
}

static int grow(struct session_hot *h)
{
	size_t cap = h->cap ? h->cap * 2 : 256;
	struct hot_row *n = calloc(cap, sizeof(*n));

	if (!n)
		return -1;
	for (size_t i = 0; i < h->cap; i++)
		if (h->rows[i].used)
			*row_slot(n, cap, h->rows[i].tid, h->rows[i].node, &h->rows[i].sym) = h->rows[i];
	free(h->rows);
	h->rows = n;
	h->cap = cap;
	return 0;
}

static size_t stack_hash(pid_t tid, const char *s)
{
	return (size_t)(str_hash(s, 0xcbf29ce484222325ull ^ (uint64_t)(uint32_t)tid) * 0x9e3779b97f4a7c15ull >> 7);
}

static struct stack_row *stack_slot(struct stack_row *rows, size_t cap, pid_t tid, const char *node, const char *s)
{
	size_t i = stack_hash(tid, s) & (cap - 1);

	while (rows[i].stack && !(rows[i].tid == tid && rows[i].node == node && !strcmp(rows[i].stack, s)))
		i = (i + 1) & (cap - 1);
	return &rows[i];
}

static int grow_stacks(struct session_hot *h)
{
	size_t cap = h->scap ? h->scap * 2 : 256;
	struct stack_row *n = calloc(cap, sizeof(*n));

	if (!n)
		return -1;
	for (size_t i = 0; i < h->scap; i++)
		if (h->stacks[i].stack)
			*stack_slot(n, cap, h->stacks[i].tid, h->stacks[i].node, h->stacks[i].stack) = h->stacks[i];
	free(h->stacks);
	h->stacks = n;
	h->scap = cap;
	return 0;
}

static int fold_append(struct session_hot *h, size_t *len, const char *name)
{
	size_t n = strlen(name) + 2;

	if (*len + n > h->fold_cap) {
		size_t cap = h->fold_cap ? h->fold_cap * 2 : 256;
		while (cap < *len + n)
			cap *= 2;
		char *p = realloc(h->fold, cap);
		if (!p)
			return -1;
		h->fold = p;
		h->fold_cap = cap;
	}
	if (*len)
		h->fold[(*len)++] = ';';
	for (const char *c = name; *c; c++) /* ';' separates frames; a newline ends a folded line */
		h->fold[(*len)++] = *c == ';' || *c == '\n' ? ':' : *c;
	h->fold[*len] = '\0';
	return 0;
}

/* The sample's stack, folded and counted (outermost frame first; a run
 * of kernel frames without a symbol is one "[kernel]"; a caller's frame is looked up at its
 * return address - 1, inside the call). The walk from the leaf stops at the
 * first frame no symbol covers, kept as "[unknown]": past it, in a binary
 * built without frame pointers, the frame-pointer walk reads garbage. */
static void count_stack(struct session_hot *h, const struct td_sample *smp)
{
	const char *names[TD_SAMPLING_MAX_STACK];
	int n = 0;
	size_t len = 0;
	struct stack_row *r;
	bool in_kernel = false; /* the frame before was a kernel one without a symbol */

	for (int i = 0; i < smp->nchain && n < TD_SAMPLING_MAX_STACK; i++) {
		struct td_symbol y;
		bool kernel = (smp->kernel_frames >> i) & 1;
		resolve(h, smp->pid, i > 0 ? smp->chain[i] - 1 : smp->chain[i], kernel, &y);
		bool unresolved = kernel && !strcmp(y.function, "[kernel]");
		if (unresolved && in_kernel)
			continue;
		in_kernel = unresolved;
		names[n++] = y.function;
		if (!strcmp(y.function, "[unknown]"))
			break;
	}
	for (int i = n - 1; i >= 0; i--)
		if (fold_append(h, &len, names[i]))
			return;
	if (!len || ((h->sused + 1) * 2 > h->scap && grow_stacks(h) && h->sused + 1 >= h->scap))
		return;
	r = stack_slot(h->stacks, h->scap, smp->tid, h->node, h->fold);
	if (!r->stack) {
		if (!(r->stack = strdup(h->fold)))
			return;
		r->pid = smp->pid;
		r->tid = smp->tid;
		r->node = h->node;
		h->sused++;
	}
	r->count++;
}

static void on_sample(void *ctx, const struct td_sample *smp)
{
	struct session_hot *h = ctx;
	struct td_symbol y;
	struct hot_row *r;

	if (smp->nchain > 0)
		count_stack(h, smp);
	resolve(h, smp->pid, smp->ip, smp->kernel, &y);
	if (!strcmp(y.function, "[unknown]"))
		h->unresolved++;
	if ((h->used + 1) * 2 > h->cap && grow(h) && h->used + 1 >= h->cap)
		return; /* out of memory with the table full: counted as a sample, not as a row */
	r = row_slot(h->rows, h->cap, smp->tid, h->node, &y);
	if (!r->used) {
		*r = (struct hot_row){ .pid = smp->pid, .tid = smp->tid, .sym = y, .used = true, .node = h->node };
		h->used++;
	}
	r->count++;
}

/* --hotspots=NODE: the locate line of NODE in the session's events file
 * into h (node) and spec; 1 when there is one, 0 when ev names no node of
 * it (an event then), -1 with err when NODE is a node without one. */
static int node_locate(struct td_session *rs, struct session_hot *h, const char *ev, char *spec, size_t len,
		       td_err *err)
{
	struct td_catalog *cat;
	const struct td_cat_locate *l;
	char path[1024];
	int rc = 0;

	if (!rs->caps.events_file[0] || strchr(ev, ':') || strchr(ev, '/')) /* an event string */
		return 0;
	snprintf(path, sizeof(path), "%s/%s", td_events_dir(rs->o.events_dir), rs->caps.events_file);
	if (td_catalog_load(path, &cat, err))
		return -1;
	if ((l = td_catalog_locate(cat, ev)) != NULL) {
		snprintf(h->node_buf, sizeof(h->node_buf), "%s", l->node);
		h->node = h->node_buf;
		snprintf(spec, len, "%s", l->spec);
		rc = 1;
	} else {
		for (int i = 0; i < cat->ndefs && !rc; i++)
			if (!strcmp(cat->defs[i].keyword, "node") && !strncmp(cat->defs[i].text, ev, strlen(ev)) &&
			    cat->defs[i].text[strlen(ev)] == ' ') {
				td_err_set(
					err,
					"--hotspots=%s: %s names no event that locates this node (no 'locate' line): "
					"give an event, or a node that has one (the file's locate lines), or "
					"--hotspots alone for time-based hotspots",
					ev, rs->caps.events_file);
				rc = -1;
			}
	}
	td_catalog_free(cat);
	return rc;
}

/* Does the session's events file have locate lines (else a default
 * --hotspots stays time-based)? */
static bool has_locates(struct td_session *rs)
{
	struct td_catalog *cat;
	char path[1024];
	td_err err;
	bool any;

	if (!rs->caps.events_file[0])
		return false;
	snprintf(path, sizeof(path), "%s/%s", td_events_dir(rs->o.events_dir), rs->caps.events_file);
	if (td_catalog_load(path, &cat, &err))
		return false;
	any = cat->nlocates > 0;
	td_catalog_free(cat);
	return any;
}

/* The event of --hotspots=EVENT into o: cpu-clock and task-clock as the
 * kernel's software timers; a node of the tree, its locate line's event;
 * anything else through the encoder (a hardware event, sampled at the rate
 * given in samples a second). */
static int choose_event(struct td_session *rs, struct session_hot *h, struct td_sampling_opts *so, td_err *err)
{
	const char *ev = rs->o.hotspots;
	int hz = rs->o.hotspots_hz > 0 ? rs->o.hotspots_hz : TD_HOTSPOTS_HZ;
	char spec[256];
	int located;

	if (!*ev || !strcmp(ev, "cpu-clock") || !strcmp(ev, "task-clock")) {
		so->type = PERF_TYPE_SOFTWARE;
		so->config = !strcmp(ev, "task-clock") ? PERF_COUNT_SW_TASK_CLOCK : PERF_COUNT_SW_CPU_CLOCK;
		so->period = 1000000000ull / (uint64_t)hz; /* nanoseconds of CPU time */
		snprintf(h->event, sizeof(h->event), "%s", *ev ? ev : "cpu-clock");
		h->period = so->period;
		if (*ev)
			return 0;
		if (rs->caps.rung > TD_RUNG_SOFTWARE && has_locates(rs)) {
			h->by_bottleneck = true;
			session_say(rs, TD_SAY_NOTE,
				    "hotspots: time-based (cpu-clock, %d samples a second per busy CPU) until an "
				    "interval names the bottleneck, then the locate event of its deepest node "
				    "with a locate line in %s",
				    hz, rs->caps.events_file);
		} else {
			session_say(rs, TD_SAY_NOTE,
				    "time-based hotspots: %s (cpu-clock, %d samples a second per busy CPU); "
				    "'tdctl report --hotspots' shows where the time goes, not a node's event",
				    rs->caps.rung <= TD_RUNG_SOFTWARE ? "no PMU"
				    : rs->caps.events_file[0]	      ? "the events file has no locate line"
								      : "no events file of the tree for this CPU",
				    hz);
		}
		return 0;
	}
	if ((located = node_locate(rs, h, ev, spec, sizeof(spec), err)) < 0)
		return -1;
	if (located && rs->caps.rung <= TD_RUNG_SOFTWARE) {
		td_err_set(err,
			   "--hotspots=%s samples %s, a hardware event, and this host has no PMU to sample it (%s): "
			   "give --hotspots alone for time-based hotspots",
			   ev, spec, td_rung_name(rs->caps.rung));
		return -1;
	}
	struct td_encoding enc;
	if (td_encode(located ? spec : ev, rs->encode_model, rs->caps.kernel_allowed, &enc, err))
		return -1;
	so->type = enc.attr.type;
	so->config = enc.attr.config;
	so->config1 = enc.attr.config1;
	so->freq = true;
	so->period = (uint64_t)hz;
	snprintf(h->event, sizeof(h->event), "%s", located ? spec : ev);
	h->period = 0; /* a frequency: the kernel chose the periods */
	return 0;
}

static pid_t target_pid(const struct td_session *rs)
{
	return rs->o.argv ? rs->child : rs->o.attach_pid;
}

/* so on the session's target: a process's threads (a command's from its
 * exec), or a cgroup's tasks (record --cgroup, topdownd's groups). */
static int open_sampling(struct td_session *rs, const struct td_sampling_opts *so, struct td_sampling **out,
			 td_err *err)
{
	if (rs->o.cgroup)
		return td_sampling_open_cgroup(so, rs->cg_fd, out, err);
	return td_sampling_open(so, target_pid(rs), rs->o.argv == NULL, out, err);
}

/* Each interval's values of each process (live_metrics): the first whose
 * evaluation of the session's events file names a bottleneck with a locate
 * line on its path chooses that line's event, opened at the commit. */
static void watch(void *ctx, const struct td_live_value *v)
{
	struct td_session *rs = ctx;
	struct session_hot *h = rs->hot;
	const struct td_cat_locate *l;

	size_t n = strlen(h ? h->tried : "");

	if (!h || !h->by_bottleneck || h->pending_node[0] || v->pid != target_pid(rs) ||
	    strcmp(v->file, rs->caps.events_file))
		return;
	if (!(l = td_model_locate(v->model, v->ev->bottleneck)))
		return;
	if (n && !(!strncmp(l->node, h->tried, n) && l->node[n] == '.'))
		return; /* not below the node chosen before */
	snprintf(h->pending_node, sizeof(h->pending_node), "%s", l->node);
	snprintf(h->pending_spec, sizeof(h->pending_spec), "%s", l->spec);
	h->chosen_seq = v->seq;
}

/* After the interval that chose it is written: sample the locate event of
 * the bottleneck's node instead of cpu-clock, once; what cpu-clock sampled
 * until now is counted as time-based for the next interval. When the event
 * cannot be sampled the samples stay time-based, said as a warning. */
static void switch_to_node(struct td_session *rs, struct session_hot *h)
{
	int hz = rs->o.hotspots_hz > 0 ? rs->o.hotspots_hz : TD_HOTSPOTS_HZ;
	struct td_sampling_opts so = { .exclude_kernel = !rs->caps.kernel_allowed,
				       .callchain = TD_SAMPLING_MAX_STACK,
				       .freq = true,
				       .period = (uint64_t)hz };
	struct td_sampling *smp;
	struct td_encoding enc;
	td_err err = { { 0 } };
	char note[256];

	snprintf(h->tried, sizeof(h->tried), "%s", h->pending_node);
	h->pending_node[0] = '\0';
	if (h->nnodes == (int)(sizeof(h->nodes) / sizeof(h->nodes[0]))) {
		session_say(rs, TD_SAY_WARNING,
			    "hotspots: interval %d's bottleneck leads to %s, below the %d nodes sampled so far: "
			    "the session keeps sampling %s",
			    h->chosen_seq, h->tried, h->nnodes, h->event);
		h->by_bottleneck = false;
		return;
	}
	if (!td_encode(h->pending_spec, rs->encode_model, rs->caps.kernel_allowed, &enc, &err)) {
		so.type = enc.attr.type;
		so.config = enc.attr.config;
		so.config1 = enc.attr.config1;
	}
	if (err.msg[0] || open_sampling(rs, &so, &smp, &err)) {
		session_say(rs, TD_SAY_WARNING,
			    "hotspots: interval %d's bottleneck is located by %s (%s's locate line), which could "
			    "not be sampled: %s; the session keeps sampling %s",
			    h->chosen_seq, h->pending_spec, h->tried, err.msg, h->event);
		return;
	}
	td_sampling_drain(h->smp, on_sample, h); /* what the event before sampled, counted as its */
	struct td_sampling_stats st;
	td_sampling_stats(h->smp, &st);
	if (!h->switches)
		h->clock_samples = st.samples;
	h->before.samples += st.samples;
	h->before.lost += st.lost;
	h->before.throttled += st.throttled;
	td_sampling_free(h->smp);
	h->smp = smp;
	h->switches++;
	char *node = h->nodes[h->nnodes++];
	snprintf(node, sizeof(h->nodes[0]), "%s", h->tried);
	h->node = node;
	char before[256];
	snprintf(before, sizeof(before), "%s", h->event);
	snprintf(h->event, sizeof(h->event), "%s", h->pending_spec);
	h->period = 0;
	snprintf(note, sizeof(note),
		 "the bottleneck's locate event (events file's locate line), from interval %d on; cpu-clock "
		 "before the first (samples without a node)",
		 h->chosen_seq + 1);
	if (td_store_sampling_update(rs->store, rs->session, h->event, h->node, h->period, note)) {
		td_store_describe_write_error(rs->store, "write to", &err);
		session_say(rs, TD_SAY_WARNING, "hotspots: the sampled event's change was not stored: %s", err.msg);
	}
	session_say(rs, TD_SAY_NOTE,
		    "hotspots: interval %d's bottleneck leads to %s: sampling its locate event %s from "
		    "interval %d on (%s before)",
		    h->chosen_seq, h->node, h->event, h->chosen_seq + 1, before);
}

int session_hotspots_open(struct td_session *rs, td_err *err)
{
	struct td_sampling_opts so = { .exclude_kernel = !rs->caps.kernel_allowed };
	struct session_hot *h;
	pid_t pid = target_pid(rs);

	if (!rs->o.hotspots)
		return 0;
	if (rs->o.system || (!rs->o.cgroup && pid <= 0)) {
		td_err_set(err, "--hotspots samples a process or a cgroup (tdctl run, attach, record --cgroup): "
				"leave it out of record --system");
		return -1;
	}
	if (!(h = calloc(1, sizeof(*h))) || !(h->sym = td_symbols_new(getenv("TD_PERF_MAP_DIR")))) {
		free(h);
		td_err_set(err, "out of memory");
		return -1;
	}
	rs->hot = h;
	h->resolver = rs->o.resolver;
	if (choose_event(rs, h, &so, err))
		return -1;
	so.enable_on_exec = rs->o.argv != NULL;
	so.callchain = TD_SAMPLING_MAX_STACK;
	if (open_sampling(rs, &so, &h->smp, err))
		return -1;
	if (!so.exclude_kernel && td_symbols_kernel(h->sym) == 0)
		session_say(rs, TD_SAY_NOTE,
			    "hotspots: kernel addresses are named \"[kernel]\": /proc/kallsyms cannot be read or shows "
			    "this user no address (kernel.kptr_restrict)");
	if (td_store_sampling_add(rs->store, rs->session, h->event, h->node, h->period,
				  h->node ? "the node's locate event (events file's locate line)"
					  : "time-based: no node's locate-with event")) {
		td_store_describe_write_error(rs->store, "write to", err);
		return -1;
	}
	if (h->by_bottleneck) {
		if (rs->live)
			td_live_set_watch(rs->live, watch, rs);
		else
			h->by_bottleneck = false;
	}
	return 0;
}

/* The sampling's totals: cpu-clock's before a switch, and the event's now. */
static void stats_sum(const struct session_hot *h, struct td_sampling_stats *st)
{
	td_sampling_stats(h->smp, st);
	st->samples += h->before.samples;
	st->lost += h->before.lost;
	st->throttled += h->before.throttled;
}

void session_hotspots_drain(struct td_session *rs)
{
	if (rs->hot) {
		td_sampling_drain(rs->hot->smp, on_sample, rs->hot);
		td_symbols_epoch(rs->hot->sym);
		if (rs->hot->resolver)
			rs->hot->resolver->epoch(rs->hot->resolver->ctx);
	}
}

int session_hotspots_write(struct td_session *rs)
{
	struct session_hot *h = rs->hot;
	struct td_sampling_stats st;

	if (!h)
		return 0;
	session_hotspots_drain(rs);
	for (size_t i = 0; i < h->cap; i++) {
		const struct hot_row *r = &h->rows[i];
		if (!r->used)
			continue;
		struct td_hot_row w = { .pid = r->pid,
					.tid = r->tid,
					.node = r->node,
					.function = r->sym.function,
					.module = r->sym.module,
					.file = r->sym.file,
					.line = r->sym.line,
					.count = r->count };
		if (td_store_hot_add(rs->store, rs->session, rs->interval_id, &w))
			return -1;
	}
	for (size_t i = 0; i < h->scap; i++) {
		const struct stack_row *r = &h->stacks[i];
		if (r->stack && td_store_hot_stack_add(rs->store, rs->session, rs->interval_id, r->pid, r->tid, r->node,
						       r->stack, r->count))
			return -1;
	}
	stats_sum(h, &st);
	return td_store_sampling_totals(rs->store, rs->session, st.samples, st.lost, st.throttled, h->unresolved);
}

void session_hotspots_commit(struct td_session *rs)
{
	if (rs->hot && rs->hot->used) {
		memset(rs->hot->rows, 0, rs->hot->cap * sizeof(*rs->hot->rows));
		rs->hot->used = 0;
	}
	if (rs->hot && rs->hot->sused) {
		for (size_t i = 0; i < rs->hot->scap; i++)
			free(rs->hot->stacks[i].stack);
		memset(rs->hot->stacks, 0, rs->hot->scap * sizeof(*rs->hot->stacks));
		rs->hot->sused = 0;
	}
	if (rs->hot && rs->hot->by_bottleneck && rs->hot->pending_node[0] && !rs->final_write)
		switch_to_node(rs, rs->hot);
}

void session_hotspots_say_end(struct td_session *rs)
{
	struct td_sampling_stats st;

	if (!rs->hot)
		return;
	stats_sum(rs->hot, &st);
	if (st.lost)
		session_say(rs, TD_SAY_WARNING,
			    "hotspots: %llu sample%s lost (a ring buffer of %d KiB per CPU was full between two "
			    "reads); %llu stored: shares are of those",
			    (unsigned long long)st.lost, st.lost == 1 ? "" : "s",
			    (int)(TD_SAMPLING_PAGES * sysconf(_SC_PAGESIZE) / 1024), (unsigned long long)st.samples);
	if (st.throttled)
		session_say(rs, TD_SAY_WARNING,
			    "hotspots: the kernel throttled the sampled event %llu time%s "
			    "(kernel.perf_cpu_time_max_percent): fewer samples than the rate asked",
			    (unsigned long long)st.throttled, st.throttled == 1 ? "" : "s");
	if (rs->hot->switches)
		session_say(rs, TD_SAY_NOTE,
			    "hotspots: %llu sample%s of cpu-clock, then %llu of the bottleneck's locate event%s "
			    "(the last %s, of %s), %llu at an address without a symbol%s",
			    (unsigned long long)rs->hot->clock_samples, rs->hot->clock_samples == 1 ? "" : "s",
			    (unsigned long long)(st.samples - rs->hot->clock_samples),
			    rs->hot->switches == 1 ? "" : "s", rs->hot->event, rs->hot->node,
			    (unsigned long long)rs->hot->unresolved,
			    st.samples ? "; see 'tdctl report --hotspots'" : "");
	else
		session_say(rs, TD_SAY_NOTE, "hotspots: %llu sample%s of %s, %llu at an address without a symbol%s",
			    (unsigned long long)st.samples, st.samples == 1 ? "" : "s", rs->hot->event,
			    (unsigned long long)rs->hot->unresolved,
			    st.samples ? "; see 'tdctl report --hotspots'" : "");
	if (rs->hot->by_bottleneck && !rs->hot->tried[0])
		session_say(rs, TD_SAY_NOTE,
			    "hotspots: no interval named a bottleneck with a locate line on its path: the "
			    "samples are time-based (cpu-clock)");
}

void session_hotspots_free(struct td_session *rs)
{
	if (!rs->hot)
		return;
	td_sampling_free(rs->hot->smp);
	td_symbols_free(rs->hot->sym);
	free(rs->hot->rows);
	for (size_t i = 0; i < rs->hot->scap; i++)
		free(rs->hot->stacks[i].stack);
	free(rs->hot->stacks);
	free(rs->hot->fold);
	free(rs->hot);
	rs->hot = NULL;
}
