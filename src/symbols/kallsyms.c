/* kallsyms: the kernel's text symbols from /proc/kallsyms, sorted by
 * address, looked up by binary search (kallsyms.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "kallsyms.h"

struct ksym {
	uint64_t addr;
	size_t name, module; /* offsets into names */
};

struct td_kallsyms {
	struct ksym *syms;
	int n;
	char *names; /* every name and module, '\0'-terminated */
	size_t len, cap;
};

/* s (n bytes) appended to names with a '\0'; its offset, or -1 when out of memory. */
static long add_name(struct td_kallsyms *k, const char *s, size_t n)
{
	size_t at = k->len;

	if (k->len + n + 1 > k->cap) {
		size_t cap = k->cap ? k->cap * 2 : 1 << 16;
		while (cap < k->len + n + 1)
			cap *= 2;
		char *p = realloc(k->names, cap);
		if (!p)
			return -1;
		k->names = p;
		k->cap = cap;
	}
	memcpy(k->names + at, s, n);
	k->names[at + n] = '\0';
	k->len += n + 1;
	return (long)at;
}

static int by_addr(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->name < y->name ? -1 : x->name > y->name; /* the first listed of aliases first */
}

/* One line "ADDRESS TYPE NAME[\t[MODULE]]" into k (text symbols only);
 * *shown: an address other than 0 was seen. -1 when out of memory. */
static int parse_line(struct td_kallsyms *k, char *line, long *kernel_off, long *last_mod, size_t *last_mod_len,
		      int *shown)
{
	char *end, *name, *mod;
	uint64_t addr = strtoull(line, &end, 16);
	char type;
	size_t nlen;
	long off, moff;
	struct ksym *s;

	if (end == line || *end != ' ')
		return 0;
	type = end[1];
	if (!type || end[2] != ' ')
		return 0;
	if (addr)
		*shown = 1;
	if (type != 't' && type != 'T' && type != 'w' && type != 'W')
		return 0;
	name = end + 3;
	nlen = strcspn(name, "\t\n ");
	if (!nlen)
		return 0;
	mod = name + nlen;
	mod += strspn(mod, "\t ");
	if (*mod == '[') {
		size_t mlen = strcspn(mod, "]\n");
		if (mod[mlen] != ']')
			return 0;
		mlen++; /* "[MODULE]" with its brackets */
		if (*last_mod < 0 || *last_mod_len != mlen || memcmp(k->names + *last_mod, mod, mlen)) {
			if ((*last_mod = add_name(k, mod, mlen)) < 0)
				return -1;
			*last_mod_len = mlen;
		}
		moff = *last_mod;
	} else {
		moff = *kernel_off;
	}
	if ((off = add_name(k, name, nlen)) < 0 || !(s = td_array_push(&k->syms, &k->n, sizeof(*s))))
		return -1;
	*s = (struct ksym){ .addr = addr, .name = (size_t)off, .module = (size_t)moff };
	return 0;
}

struct td_kallsyms *td_kallsyms_load(const char *path)
{
	struct td_kallsyms *k = calloc(1, sizeof(*k));
	FILE *f = fopen(path ? path : "/proc/kallsyms", "r");
	char *line = NULL;
	size_t cap = 0;
	long kernel_off, last_mod = -1;
	size_t last_mod_len = 0;
	int shown = 0, rc = 0;

	if (!k || !f || (kernel_off = add_name(k, "[kernel]", 8)) < 0) {
		if (f)
			fclose(f);
		td_kallsyms_free(k);
		return NULL;
	}
	while (rc == 0 && getline(&line, &cap, f) > 0)
		rc = parse_line(k, line, &kernel_off, &last_mod, &last_mod_len, &shown);
	free(line);
	fclose(f);
	if (rc || !shown || !k->n) {
		td_kallsyms_free(k);
		return NULL;
	}
	qsort(k->syms, (size_t)k->n, sizeof(*k->syms), by_addr);
	return k;
}

int td_kallsyms_find(const struct td_kallsyms *k, uint64_t addr, const char **function, const char **module)
{
	int lo = 0, hi = k ? k->n - 1 : -1, at = -1;

	while (lo <= hi) { /* the last symbol at or below addr */
		int mid = lo + (hi - lo) / 2;
		if (k->syms[mid].addr <= addr) {
			at = mid;
			lo = mid + 1;
		} else {
			hi = mid - 1;
		}
	}
	if (at < 0)
		return -1;
	while (at > 0 && k->syms[at - 1].addr == k->syms[at].addr)
		at--; /* of aliases, the first listed */
	int next = at + 1;
	while (next < k->n && k->syms[next].addr == k->syms[at].addr)
		next++;
	if (next >= k->n)
		return -1; /* the last symbol: its end is not known */
	*function = k->names + k->syms[at].name;
	*module = k->names + k->syms[at].module;
	return 0;
}

int td_kallsyms_count(const struct td_kallsyms *k)
{
	return k ? k->n : 0;
}

void td_kallsyms_free(struct td_kallsyms *k)
{
	if (!k)
		return;
	free(k->syms);
	free(k->names);
	free(k);
}
