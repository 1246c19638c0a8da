/* import_perf_script: perf script's samples into a session's hotspots
 * (import_perf_script.h). A sample is a line "COMM PID/TID TIME: EVENT:"
 * with its frame on the same line ("IP SYM+OFF (DSO)") or, with call
 * stacks, on the lines after it, one a frame, leaf first, indented; an
 * empty line ends it. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import_perf_script.h"

struct frame {
	char *function, *module;
	bool kernel;
};

/* One sample read: its thread and frames (leaf first). */
struct sample {
	pid_t pid, tid;
	struct frame *frames;
	int nframes;
};

/* A row to count: "pid tid function module" or "pid tid stack" keys, sorted then counted. */
struct key {
	pid_t pid, tid;
	char *a, *b; /* function and module, or the folded stack and NULL */
};

struct state {
	struct key *hot, *stacks;
	int nhot, nstacks;
	double first, last; /* perf's time of the first and last sample, seconds */
	bool have_time;
	struct td_perf_script_result *res;
	bool oom;
};

static void frames_free(struct sample *s)
{
	for (int i = 0; i < s->nframes; i++) {
		free(s->frames[i].function);
		free(s->frames[i].module);
	}
	free(s->frames);
	s->frames = NULL;
	s->nframes = 0;
}

/* "IP SYM+0xOFF (DSO)" at p into a frame of s; 0, or -1 when p is no frame. */
static int parse_frame(struct state *st, struct sample *s, char *p)
{
	char *end, *open, *sym, *plus, *slash;
	struct frame *f;

	p += strspn(p, " \t");
	strtoull(p, &end, 16);
	if (end == p || (*end != ' ' && *end != '\t'))
		return -1;
	p = end + strspn(end, " \t");
	end = p + strlen(p);
	while (end > p && (end[-1] == '\n' || end[-1] == ' '))
		*--end = '\0';
	if (end == p || end[-1] != ')' || !(open = strrchr(p, '(')) || open == p)
		return -1;
	end[-1] = '\0';
	open[-1] = '\0';
	sym = p;
	if ((plus = strstr(sym, "+0x")) != NULL)
		*plus = '\0';
	if (!(f = td_array_push(&s->frames, &s->nframes, sizeof(*f)))) {
		st->oom = true;
		return 0;
	}
	f->kernel = !strncmp(open + 1, "[kernel", 7);
	slash = strrchr(open + 1, '/');
	f->function = strdup(*sym ? sym : "[unknown]");
	f->module = strdup(f->kernel ? "[kernel]" : slash ? slash + 1 : open + 1);
	if (!f->function || !f->module)
		st->oom = true;
	return 0;
}

/* "COMM PID/TID TIME: EVENT: [frame]" into s; 0, or -1 when line is none. */
static int parse_header(struct state *st, struct sample *s, char *line)
{
	char *p = line, *slash, *end, *colon;
	long pid, tid;
	double t;

	/* the first " PID/TID TIME:" after the comm (which may hold blanks) */
	for (p = line; (p = strchr(p, '/')) != NULL; p++) {
		char *q = p;
		while (q > line && q[-1] >= '0' && q[-1] <= '9')
			q--;
		if (q == p || (q > line && q[-1] != ' ' && q[-1] != '\t'))
			continue;
		pid = strtol(q, &end, 10);
		if (end != p)
			continue;
		tid = strtol(p + 1, &end, 10);
		if (end == p + 1 || (*end != ' ' && *end != '\t'))
			continue;
		slash = end + strspn(end, " \t");
		t = strtod(slash, &end);
		if (end == slash || *end != ':')
			continue;
		s->pid = (pid_t)pid;
		s->tid = (pid_t)tid;
		if (!st->have_time || t < st->first)
			st->first = t;
		if (!st->have_time || t > st->last)
			st->last = t;
		st->have_time = true;
		p = end + 1 + strspn(end + 1, " \t");
		/* the event: up to ": " (its modifiers hold ':' too) */
		colon = strstr(p, ": ");
		if (!colon) {
			colon = p + strlen(p);
			while (colon > p && (colon[-1] == '\n' || colon[-1] == ':'))
				colon--;
		}
		if (!st->res->event[0])
			snprintf(st->res->event, sizeof(st->res->event), "%.*s", (int)(colon - p), p);
		if (*colon == ':' && colon[1])
			parse_frame(st, s, colon + 2);
		return 0;
	}
	return -1;
}

static int push_key(struct state *st, struct key **arr, int *n, pid_t pid, pid_t tid, char *a, char *b)
{
	struct key *k = td_array_push(arr, n, sizeof(**arr));

	if (!k || !a || (b == NULL && arr == &st->hot)) {
		free(a);
		free(b);
		st->oom = true;
		return -1;
	}
	*k = (struct key){ pid, tid, a, b };
	return 0;
}

/* The sample counted: its leaf frame and its stack, outermost first. */
static void end_sample(struct state *st, struct sample *s)
{
	size_t len = 0;
	char *stack;

	if (!s->nframes)
		return;
	st->res->samples++;
	push_key(st, &st->hot, &st->nhot, s->pid, s->tid, strdup(s->frames[0].function), strdup(s->frames[0].module));
	for (int i = 0; i < s->nframes; i++)
		len += strlen(s->frames[i].function) + 1;
	if ((stack = malloc(len + 1)) != NULL) {
		char *w = stack;
		for (int i = s->nframes - 1; i >= 0; i--) {
			for (const char *c = s->frames[i].function; *c; c++)
				*w++ = *c == ';' ? ':' : *c;
			*w++ = i ? ';' : '\0';
		}
	}
	push_key(st, &st->stacks, &st->nstacks, s->pid, s->tid, stack, NULL);
	frames_free(s);
}

static int key_cmp(const void *x, const void *y)
{
	const struct key *p = x, *q = y;
	int c;

	if (p->pid != q->pid)
		return p->pid < q->pid ? -1 : 1;
	if (p->tid != q->tid)
		return p->tid < q->tid ? -1 : 1;
	if ((c = strcmp(p->a, q->a)))
		return c;
	return p->b && q->b ? strcmp(p->b, q->b) : 0;
}

static void keys_free(struct key *k, int n)
{
	for (int i = 0; i < n; i++) {
		free(k[i].a);
		free(k[i].b);
	}
	free(k);
}

/* The counted rows into the store, in one transaction. */
static int write_rows(struct td_store *s, struct state *st, int64_t session, int64_t interval)
{
	qsort(st->hot, (size_t)st->nhot, sizeof(*st->hot), key_cmp);
	qsort(st->stacks, (size_t)st->nstacks, sizeof(*st->stacks), key_cmp);
	for (int i = 0, j; i < st->nhot; i = j) {
		for (j = i + 1; j < st->nhot && !key_cmp(&st->hot[i], &st->hot[j]); j++)
			;
		struct td_hot_row r = { .pid = st->hot[i].pid,
					.tid = st->hot[i].tid,
					.function = st->hot[i].a,
					.module = st->hot[i].b,
					.count = (uint64_t)(j - i) };
		if (td_store_hot_add(s, session, interval, &r))
			return -1;
	}
	for (int i = 0, j; i < st->nstacks; i = j) {
		for (j = i + 1; j < st->nstacks && !key_cmp(&st->stacks[i], &st->stacks[j]); j++)
			;
		if (td_store_hot_stack_add(s, session, interval, st->stacks[i].pid, st->stacks[i].tid, NULL,
					   st->stacks[i].a, (uint64_t)(j - i)))
			return -1;
	}
	return 0;
}

static int read_all(FILE *f, struct state *st)
{
	struct sample cur = { 0 };
	bool in_sample = false;
	char *line = NULL;
	size_t cap = 0;

	while (getline(&line, &cap, f) > 0 && !st->oom) {
		st->res->lines++;
		if (line[0] == '\n' || line[0] == '\0') {
			if (in_sample)
				end_sample(st, &cur);
			in_sample = false;
		} else if ((line[0] == '\t' || line[0] == ' ') && in_sample && parse_frame(st, &cur, line) == 0) {
			/* a frame of the sample */
		} else {
			if (in_sample)
				end_sample(st, &cur);
			in_sample = parse_header(st, &cur, line) == 0;
			if (!in_sample)
				st->res->skipped++;
		}
	}
	if (in_sample)
		end_sample(st, &cur);
	frames_free(&cur);
	free(line);
	return st->oom ? -1 : 0;
}

int td_import_perf_script(struct td_store *s, const char *path, struct td_perf_script_result *res, td_err *err)
{
	struct state st = { .res = res };
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	char command[600], msg[256];
	int64_t interval;
	uint64_t end_ns, span_ns;

	memset(res, 0, sizeof(*res));
	if (!f) {
		td_err_set(err, "cannot read '%s': %s", path, strerror(errno));
		return -1;
	}
	if (read_all(f, &st)) {
		td_err_set(err, "out of memory reading '%s'", path);
		goto fail;
	}
	if (!res->samples) {
		td_err_set(err,
			   "'%s' has no sample perf script printed (%d lines): give the output of 'perf script -F "
			   "comm,pid,tid,time,event,ip,sym,dso'",
			   path, res->lines);
		goto fail;
	}
	snprintf(command, sizeof(command), "import --perf-script %s", path);
	struct td_session_info si = { .kind = "import",
				      .command = command,
				      .rung = "import",
				      .source = path,
				      .kernel_counted = true,
				      .owner_uid = -1 };
	if ((res->session = td_store_session_begin(s, &si, err)) < 0)
		goto fail;
	end_ns = td_wall_ns();
	span_ns = (uint64_t)((st.last - st.first) * 1e9);
	if (td_store_begin(s) || (interval = td_store_interval_add(s, res->session, 0, end_ns - span_ns, end_ns)) < 0 ||
	    td_store_sampling_add(s, res->session, res->event, NULL, 0, "imported from perf script") ||
	    td_store_sampling_totals(s, res->session, res->samples, 0, 0, 0) ||
	    write_rows(s, &st, res->session, interval) || td_store_commit(s)) {
		td_err_set(err, "cannot write to the database: %s", td_store_errmsg(s));
		td_store_rollback(s);
		td_store_session_end(s, res->session, "failed", -1, err->msg);
		goto fail;
	}
	snprintf(msg, sizeof(msg), "%llu samples of %s imported from %d lines, %d skipped",
		 (unsigned long long)res->samples, res->event, res->lines, res->skipped);
	if (td_store_session_end(s, res->session, "completed", -1, msg)) {
		td_err_set(err, "cannot write to the database: %s", td_store_errmsg(s));
		goto fail;
	}
	keys_free(st.hot, st.nhot);
	keys_free(st.stacks, st.nstacks);
	if (f != stdin)
		fclose(f);
	return 0;
fail:
	keys_free(st.hot, st.nhot);
	keys_free(st.stacks, st.nstacks);
	if (f != stdin)
		fclose(f);
	return -1;
}
