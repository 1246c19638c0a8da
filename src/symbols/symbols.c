/* symbols: addresses to functions and lines with libdwfl, cached per
 * (pid, address) (symbols.h). */
#include <elfutils/libdwfl.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "kallsyms.h"
#include "perf_map.h"
#include "symbols.h"

struct proc {
	pid_t pid;
	Dwfl *dwfl;	    /* NULL: never listed (or listing failed) */
	unsigned listed_at; /* the epoch it was last listed in */
	struct td_perf_map *jit;
	int maps_fd; /* its /proc/PID/maps opened by whoever may (td_symbols_set_maps), -1: opened here */
};

struct entry {
	pid_t pid;
	uint64_t ip;
	bool kernel, used;
	char *function, *module, *file;
	int line;
};

struct td_symbols {
	char *perf_map_dir;
	struct proc *procs;
	int nprocs;
	struct entry *slots; /* open addressing, power-of-two capacity */
	size_t cap, used;
	unsigned epoch;
	uint64_t lookups;
	char *kallsyms_path;	   /* NULL: /proc/kallsyms */
	struct td_kallsyms *ksyms; /* read at the first kernel address; NULL: none readable */
	bool ksyms_tried;
};

static char *debuginfo_path; /* NULL: libdwfl's default, "-:.debug:/usr/lib/debug" */

static const Dwfl_Callbacks proc_callbacks = {
	.find_elf = dwfl_linux_proc_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.debuginfo_path = &debuginfo_path,
};

struct td_symbols *td_symbols_new(const char *perf_map_dir)
{
	struct td_symbols *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->cap = 1024;
	s->slots = calloc(s->cap, sizeof(*s->slots));
	s->perf_map_dir = strdup(perf_map_dir ? perf_map_dir : "/tmp");
	s->epoch = 1;
	if (!s->slots || !s->perf_map_dir) {
		td_symbols_free(s);
		return NULL;
	}
	return s;
}

static size_t hash(pid_t pid, uint64_t ip, bool kernel)
{
	uint64_t h = ip * 0x9e3779b97f4a7c15ull ^ ((uint64_t)(uint32_t)pid << 1) ^ (uint64_t)kernel;
	h ^= h >> 29;
	return (size_t)(h * 0xbf58476d1ce4e5b9ull);
}

static struct entry *slot_of(struct entry *slots, size_t cap, pid_t pid, uint64_t ip, bool kernel)
{
	size_t i = hash(pid, ip, kernel) & (cap - 1);

	while (slots[i].used && !(slots[i].pid == pid && slots[i].ip == ip && slots[i].kernel == kernel))
		i = (i + 1) & (cap - 1);
	return &slots[i];
}

static int grow(struct td_symbols *s)
{
	size_t cap = s->cap * 2;
	struct entry *n = calloc(cap, sizeof(*n));

	if (!n)
		return -1;
	for (size_t i = 0; i < s->cap; i++)
		if (s->slots[i].used)
			*slot_of(n, cap, s->slots[i].pid, s->slots[i].ip, s->slots[i].kernel) = s->slots[i];
	free(s->slots);
	s->slots = n;
	s->cap = cap;
	return 0;
}

static struct proc *proc_of(struct td_symbols *s, pid_t pid)
{
	struct proc *p;

	for (int i = 0; i < s->nprocs; i++)
		if (s->procs[i].pid == pid)
			return &s->procs[i];
	p = td_array_push(&s->procs, &s->nprocs, sizeof(*p));
	if (!p)
		return NULL;
	memset(p, 0, sizeof(*p));
	p->pid = pid;
	p->maps_fd = -1;
	p->jit = td_perf_map_new(pid, s->perf_map_dir);
	return p;
}

/* The text of fd (a /proc/PID/maps), read from its start: seq_file's
 * read at offset 0 lists the mappings anew (Debian linux-source-6.12,
 * fs/seq_file.c:193-196 and 96-99). NULL when it cannot be read. */
static char *read_maps(int fd, size_t *len)
{
	size_t cap = 16384, n = 0;
	char *buf = malloc(cap);
	ssize_t r;

	while (buf && (r = pread(fd, buf + n, cap - n, (off_t)n)) > 0) {
		n += (size_t)r;
		if (n == cap) {
			char *grown = realloc(buf, cap * 2);
			if (!grown) {
				free(buf);
				return NULL;
			}
			buf = grown;
			cap *= 2;
		}
	}
	if (buf && r < 0) {
		free(buf);
		return NULL;
	}
	*len = n;
	return buf;
}

/* The modules listed from the maps fd given: its text as a stream. */
static void report_given(struct proc *p)
{
	size_t len = 0;
	char *text = read_maps(p->maps_fd, &len);
	FILE *f = text && len ? fmemopen(text, len, "r") : NULL;

	if (f) {
		dwfl_linux_proc_maps_report(p->dwfl, f);
		fclose(f);
	}
	free(text);
}

int td_symbols_set_maps(struct td_symbols *s, pid_t pid, int fd)
{
	struct proc *p = proc_of(s, pid);

	if (!p) {
		close(fd);
		return -1;
	}
	if (p->maps_fd >= 0)
		close(p->maps_fd);
	p->maps_fd = fd;
	p->listed_at = 0; /* listed from it at the next address */
	return 0;
}

/* (Re)list the modules pid maps now; what was listed stays when it cannot
 * be read (the process has exited). */
static void list_modules(struct td_symbols *s, struct proc *p)
{
	if (p->listed_at == s->epoch)
		return;
	p->listed_at = s->epoch;
	if (!p->dwfl) {
		p->dwfl = dwfl_begin(&proc_callbacks);
		if (!p->dwfl)
			return;
	}
	dwfl_report_begin_add(p->dwfl);
	if (p->maps_fd >= 0)
		report_given(p);
	else
		dwfl_linux_proc_report(p->dwfl, p->pid);
	dwfl_report_end(p->dwfl, NULL, NULL);
}

static char *dup_or_null(const char *v)
{
	return v ? strdup(v) : NULL;
}

static const char *base_name(const char *path)
{
	const char *slash = path ? strrchr(path, '/') : NULL;
	return slash ? slash + 1 : path;
}

static void lookup(struct td_symbols *s, struct entry *e)
{
	struct proc *p = proc_of(s, e->pid);
	Dwfl_Module *mod = NULL;
	const char *fn = NULL, *modname = NULL, *file = NULL, *jit;
	int line = 0;

	if (e->kernel) {
		if (!s->ksyms_tried) {
			s->ksyms = td_kallsyms_load(s->kallsyms_path);
			s->ksyms_tried = true;
		}
		if (td_kallsyms_find(s->ksyms, e->ip, &fn, &modname)) {
			fn = "[kernel]";
			modname = "[kernel]";
		}
		e->function = strdup(fn);
		e->module = strdup(modname);
		return;
	}
	if (p) {
		if (!p->dwfl)
			list_modules(s, p);
		if (p->dwfl)
			mod = dwfl_addrmodule(p->dwfl, e->ip);
		if (!mod && p->dwfl && p->listed_at != s->epoch) {
			list_modules(s, p);
			mod = dwfl_addrmodule(p->dwfl, e->ip);
		}
	}
	if (mod) {
		GElf_Off off;
		GElf_Sym sym;
		Dwarf_Addr a = e->ip;
		Dwfl_Line *l;
		modname = dwfl_module_info(mod, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
		fn = dwfl_module_addrinfo(mod, a, &off, &sym, NULL, NULL, NULL);
		if ((l = dwfl_module_getsrc(mod, a)) != NULL)
			file = dwfl_lineinfo(l, &a, &line, NULL, NULL, NULL);
	} else if (p && p->jit && (jit = td_perf_map_find(p->jit, e->ip)) != NULL) {
		fn = jit;
		modname = "[jit]";
	}
	e->function = strdup(fn ? fn : "[unknown]");
	e->module = strdup(modname ? base_name(modname) : "[unknown]");
	e->file = dup_or_null(file);
	e->line = file ? line : 0;
}

void td_symbols_resolve(struct td_symbols *s, pid_t pid, uint64_t ip, bool kernel, struct td_symbol *out)
{
	struct entry *e;

	if (s->used * 2 >= s->cap)
		grow(s); /* on failure the table is only fuller: it has room until the last slot */
	if (kernel)
		pid = 0; /* one kernel for every process */
	e = slot_of(s->slots, s->cap, pid, ip, kernel);
	if (!e->used && s->used + 1 < s->cap) {
		*e = (struct entry){ .pid = pid, .ip = ip, .kernel = kernel, .used = true };
		s->used++;
		s->lookups++;
		lookup(s, e);
	}
	if (!e->used || !e->function || !e->module) { /* out of memory */
		*out = (struct td_symbol){ .function = "[unknown]", .module = "[unknown]" };
		return;
	}
	*out = (struct td_symbol){ .function = e->function, .module = e->module, .file = e->file, .line = e->line };
}

int td_symbols_set_kallsyms(struct td_symbols *s, const char *path)
{
	char *p = path ? strdup(path) : NULL;

	if (path && !p)
		return -1;
	free(s->kallsyms_path);
	s->kallsyms_path = p;
	td_kallsyms_free(s->ksyms);
	s->ksyms = NULL;
	s->ksyms_tried = false;
	return 0;
}

int td_symbols_kernel(struct td_symbols *s)
{
	if (!s->ksyms_tried) {
		s->ksyms = td_kallsyms_load(s->kallsyms_path);
		s->ksyms_tried = true;
	}
	return td_kallsyms_count(s->ksyms);
}

void td_symbols_epoch(struct td_symbols *s)
{
	char path[32];

	s->epoch++;
	for (int i = 0; i < s->nprocs; i++) {
		struct proc *p = &s->procs[i];
		snprintf(path, sizeof(path), "/proc/%d", (int)p->pid);
		if ((p->dwfl || p->maps_fd >= 0) && access(path, F_OK) != 0) {
			if (p->dwfl)
				dwfl_end(p->dwfl);
			p->dwfl = NULL;
			p->listed_at = 0;
			if (p->maps_fd >= 0)
				close(p->maps_fd);
			p->maps_fd = -1;
		}
	}
}

int td_symbols_processes(const struct td_symbols *s)
{
	int n = 0;

	for (int i = 0; i < s->nprocs; i++)
		n += s->procs[i].dwfl != NULL;
	return n;
}

uint64_t td_symbols_lookups(const struct td_symbols *s)
{
	return s->lookups;
}

void td_symbols_free(struct td_symbols *s)
{
	if (!s)
		return;
	for (size_t i = 0; s->slots && i < s->cap; i++) {
		free(s->slots[i].function);
		free(s->slots[i].module);
		free(s->slots[i].file);
	}
	for (int i = 0; i < s->nprocs; i++) {
		if (s->procs[i].dwfl)
			dwfl_end(s->procs[i].dwfl);
		if (s->procs[i].maps_fd >= 0)
			close(s->procs[i].maps_fd);
		td_perf_map_free(s->procs[i].jit);
	}
	free(s->procs);
	free(s->slots);
	free(s->perf_map_dir);
	free(s->kallsyms_path);
	td_kallsyms_free(s->ksyms);
	free(s);
}
