/* perf_map: /tmp/perf-PID.map read and searched (perf_map.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/util.h"
#include "perf_map.h"

struct entry {
	uint64_t start, size;
	char *name;
};

struct td_perf_map {
	char path[256];
	struct stat seen; /* the file as last read (st_size -1: never read) */
	struct entry *e;
	int n;
};

struct td_perf_map *td_perf_map_new(pid_t pid, const char *dir)
{
	struct td_perf_map *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	snprintf(m->path, sizeof(m->path), "%s/perf-%d.map", dir ? dir : "/tmp", (int)pid);
	m->seen.st_size = -1;
	return m;
}

static void clear(struct td_perf_map *m)
{
	for (int i = 0; i < m->n; i++)
		free(m->e[i].name);
	free(m->e);
	m->e = NULL;
	m->n = 0;
}

static void load(struct td_perf_map *m)
{
	FILE *f = fopen(m->path, "r");
	char *line = NULL;
	size_t cap = 0;

	clear(m);
	if (!f)
		return;
	while (getline(&line, &cap, f) > 0) {
		char *p = line, *end;
		uint64_t start = strtoull(p, &end, 16), size;
		if (end == p)
			continue;
		p = end;
		size = strtoull(p, &end, 16);
		if (end == p || (*end != ' ' && *end != '\t'))
			continue;
		p = end + strspn(end, " \t");
		p[strcspn(p, "\n")] = '\0';
		if (!*p)
			continue;
		struct entry *e = td_array_push(&m->e, &m->n, sizeof(*e));
		if (!e)
			break;
		e->start = start;
		e->size = size;
		e->name = strdup(p);
		if (!e->name) {
			m->n--;
			break;
		}
	}
	free(line);
	fclose(f);
}

const char *td_perf_map_find(struct td_perf_map *m, uint64_t addr)
{
	struct stat st;

	if (stat(m->path, &st) != 0) {
		if (m->seen.st_size != -1)
			clear(m);
		m->seen.st_size = -1;
		return NULL;
	}
	if (st.st_size != m->seen.st_size || st.st_mtim.tv_sec != m->seen.st_mtim.tv_sec ||
	    st.st_mtim.tv_nsec != m->seen.st_mtim.tv_nsec) {
		load(m);
		m->seen = st;
	}
	/* the last match wins: a JIT that reuses memory appends the new function */
	for (int i = m->n - 1; i >= 0; i--)
		if (addr >= m->e[i].start && addr - m->e[i].start < m->e[i].size)
			return m->e[i].name;
	return NULL;
}

void td_perf_map_free(struct td_perf_map *m)
{
	if (!m)
		return;
	clear(m);
	free(m);
}
