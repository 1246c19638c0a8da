/* auto_attach: matching execs against the [auto NAME] rules (see
 * auto_attach.h). Patterns are fnmatch(3) globs without flags: '*' also
 * matches '/', so a '*' before "bin/postgres" stands for any directory. */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "auto_attach.h"
#include "collect/syswide.h"
#include "machine/procfs.h"

int td_auto_rules_init(struct td_auto_rules *a, const struct td_auto_rule *rules, int n, td_err *err)
{
	memset(a, 0, sizeof(*a));
	a->rules = rules;
	a->n = n;
	if (n && !(a->cgroup = calloc((size_t)n, sizeof(*a->cgroup)))) {
		td_err_set(err, "out of memory");
		return -1;
	}
	for (int k = 0; k < n; k++) {
		char rel[4096];
		td_err why;
		if (!rules[k].cgroup)
			continue;
		if (td_cgroup_relative(rules[k].cgroup, rel, sizeof(rel), &why)) {
			td_err_set(err, "[auto %s]: %s", rules[k].name, why.msg);
			td_auto_rules_free(a);
			return -1;
		}
		if (!(a->cgroup[k] = strdup(rel))) {
			td_err_set(err, "out of memory");
			td_auto_rules_free(a);
			return -1;
		}
	}
	return 0;
}

void td_auto_rules_free(struct td_auto_rules *a)
{
	for (int k = 0; a->cgroup && k < a->n; k++)
		free(a->cgroup[k]);
	free(a->cgroup);
	memset(a, 0, sizeof(*a));
}

/* Is cgroup path p the rule's cgroup or below it? */
static bool in_cgroup(const char *rule, const char *p)
{
	size_t n = strlen(rule);

	if (!strcmp(rule, "/"))
		return true;
	return !strncmp(p, rule, n) && (p[n] == '\0' || p[n] == '/');
}

/* The file as executed, when its path is absolute (a script's own path), or
 * the program the process runs now (/proc/PID/exe: symlinks resolved, a
 * script's interpreter). */
static bool exec_matches(const char *pattern, const struct td_exec *e)
{
	char *exe = NULL;
	bool ok;

	if (e->path[0] == '/' && fnmatch(pattern, e->path, 0) == 0)
		return true;
	if (td_proc_exe(e->pid, &exe) != 0)
		return false;
	ok = fnmatch(pattern, exe, 0) == 0;
	free(exe);
	return ok;
}

bool td_auto_rule_matches(const struct td_auto_rules *a, int k, const struct td_exec *e)
{
	const struct td_auto_rule *r = &a->rules[k];
	char *cg = NULL;
	bool in;

	if (r->exec && !exec_matches(r->exec, e))
		return false;
	if (r->comm && fnmatch(r->comm, e->comm, 0) != 0)
		return false;
	if (!a->cgroup[k])
		return true;
	if (td_proc_cgroup_v2(e->pid, &cg) != 0)
		return false;
	in = in_cgroup(a->cgroup[k], cg);
	free(cg);
	return in;
}
