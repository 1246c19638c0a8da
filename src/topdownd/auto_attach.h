/* auto_attach: topdownd's [auto NAME] rules (daemon_config.h) held against
 * the execs the exec watcher reports (collect/exec_watch.h): which rule
 * wants a session on a process. The daemon starts the sessions. */
#ifndef TD_AUTO_ATTACH_H
#define TD_AUTO_ATTACH_H

#include <stdbool.h>

#include "base/util.h"
#include "collect/exec_watch.h"
#include "daemon_config.h"

/* The rules as matched: each rule's cgroup resolved to the path
 * /proc/PID/cgroup shows. */
struct td_auto_rules {
	const struct td_auto_rule *rules;
	int n;
	char **cgroup; /* per rule, NULL: the rule names none */
};

/* Resolve the rules' cgroups (the cgroups need not exist yet). 0, or -1
 * with err naming the rule. */
int td_auto_rules_init(struct td_auto_rules *a, const struct td_auto_rule *rules, int n, td_err *err);
void td_auto_rules_free(struct td_auto_rules *a);
/* Does the process of exec e match rule k: every pattern the rule gives
 * (exec on the file executed, if its path is absolute, or on the program
 * the process runs, /proc/PID/exe; comm on its name; cgroup on its cgroup
 * or one above it)? What cannot be read of a process gone meanwhile does
 * not match. */
bool td_auto_rule_matches(const struct td_auto_rules *a, int k, const struct td_exec *e);

#endif
