/* Unit tests for procfs: against a fixture /proc tree (odd comm names,
 * missing files) and against the live /proc for this process. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "machine/procfs.h"

static char root[64];

static void put(const char *rel, const char *text)
{
	char path[256], cmd[300];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname %s)\"", path);
	assert_int_equal(system(cmd), 0);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int setup(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "/tmp/td-proc-XXXXXX");
	if (!mkdtemp(root))
		return -1;
	put("77/stat", "77 (my (odd) name) S 12 77 77 0 -1 4194560 1 0 0 0 5 6 0 0 20 0 3 0 123456 0 0\n");
	put("77/task/77/comm", "main\n");
	put("77/task/78/comm", "worker-1\n");
	put("77/task/80/comm", "worker-2\n");
	put("77/task/78/schedstat", "987654321 1234 56\n");
	put("77/task/78/status", "Name:\tworker-1\nvoluntary_ctxt_switches:\t17\nnonvoluntary_ctxt_switches:\t4\n");
	put("77/task/80/status", "Name:\tworker-2\n");
	put("9/stat", "9 (x) Z 77 9 9 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 99 0 0\n");
	/* a setuid program's ids: real 1000, effective 0, saved 0 */
	put("77/status", "Name:\tmain\nUmask:\t0022\nUid:\t1000\t0\t0\t0\nGid:\t100\t1000\t1000\t1000\n");
	put("9/status", "Name:\tx\nState:\tZ (zombie)\n");
	put("77/cgroup", "12:cpu,cpuacct:/old\n0::/system.slice/a b.service\n");
	put("9/cgroup", "12:cpu,cpuacct:/old\n");
	td_proc_set_root(root);
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	td_proc_set_root("/proc");
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	return system(cmd);
}

static void test_fixture(void **state)
{
	pid_t *tids = NULL, ppid = 0;
	char comm[32], st = 0;
	uint64_t rt = 0, vol = 0, invol = 0;
	long long start = 0;
	uid_t ids[3];
	char *cg = NULL;
	int n;

	(void)state;
	n = td_proc_tasks(77, &tids);
	assert_int_equal(n, 3);
	assert_int_equal(tids[0], 77);
	assert_int_equal(tids[1], 78);
	assert_int_equal(tids[2], 80);
	free(tids);
	assert_int_equal(td_proc_comm(77, 78, comm, sizeof(comm)), 0);
	assert_string_equal(comm, "worker-1");
	assert_int_equal(td_proc_stat(77, &ppid, &st), 0); /* comm with spaces and parentheses */
	assert_int_equal(ppid, 12);
	assert_int_equal(st, 'S');
	assert_int_equal(td_proc_starttime(77, &start), 0);
	assert_int_equal(start, 123456);
	assert_int_equal(td_proc_stat(9, &ppid, &st), 0);
	assert_int_equal(ppid, 77);
	assert_int_equal(st, 'Z');
	assert_int_equal(td_proc_schedstat(77, 78, &rt), 0);
	assert_int_equal(rt, 987654321ull);
	assert_int_equal(td_proc_schedstat(77, 80, &rt), -ENOENT);
	assert_int_equal(td_proc_ctxt_switches(77, 78, &vol, &invol), 0);
	assert_int_equal(vol, 17);
	assert_int_equal(invol, 4);
	assert_int_equal(td_proc_ctxt_switches(77, 80, &vol, &invol), -ENODATA);
	assert_int_equal(td_proc_uids(77, ids), 0);
	assert_int_equal(ids[0], 1000);
	assert_int_equal(ids[1], 0);
	assert_int_equal(ids[2], 0);
	assert_int_equal(td_proc_uids(9, ids), -ENODATA);
	assert_int_equal(td_proc_uids(5, ids), -ENOENT);
	uid_t ou = 0;
	gid_t og = 0;
	assert_int_equal(td_proc_owner(77, &ou, &og), 0); /* the real ids: the first of each line */
	assert_int_equal(ou, 1000);
	assert_int_equal(og, 100);
	assert_int_equal(td_proc_owner(9, &ou, &og), -ENODATA);
	assert_int_equal(td_proc_owner(5, &ou, &og), -ENOENT);
	assert_int_equal(td_proc_identity(77, &ppid, &start, comm, sizeof(comm)), 0);
	assert_int_equal(ppid, 12);
	assert_int_equal(start, 123456);
	assert_string_equal(comm, "my (odd) name");
	assert_int_equal(td_proc_cgroup_v2(77, &cg), 0);
	assert_string_equal(cg, "/system.slice/a b.service");
	free(cg);
	assert_int_equal(td_proc_cgroup_v2(9, &cg), -ENODATA);
	assert_int_equal(td_proc_cgroup_v2(5, &cg), -ENOENT);
	assert_int_equal(td_proc_tasks(5, &tids), -ENOENT);
	n = td_proc_pids(&tids);
	assert_int_equal(n, 2);
	assert_int_equal(tids[0], 9);
	assert_int_equal(tids[1], 77);
	free(tids);
}

static void test_live_self(void **state)
{
	pid_t *tids = NULL, ppid = 0;
	uint64_t rt = 0;
	uid_t uid = 12345, ids[3];
	int n;

	(void)state;
	td_proc_set_root("/proc");
	n = td_proc_tasks(getpid(), &tids);
	assert_true(n >= 1);
	assert_int_equal(tids[0], getpid());
	free(tids);
	assert_int_equal(td_proc_stat(getpid(), &ppid, NULL), 0);
	assert_int_equal(ppid, getppid());
	assert_int_equal(td_proc_schedstat(getpid(), getpid(), &rt), 0);
	assert_true(rt > 0);
	assert_int_equal(td_proc_uid(getpid(), &uid), 0);
	assert_int_equal(uid, geteuid());
	assert_int_equal(td_proc_uids(getpid(), ids), 0);
	assert_int_equal(ids[0], getuid());
	assert_int_equal(ids[1], geteuid());
	char *exe = NULL, *real = realpath("/proc/self/exe", NULL);
	assert_int_equal(td_proc_exe(getpid(), &exe), 0);
	assert_non_null(real);
	assert_string_equal(exe, real);
	free(exe);
	free(real);
	td_proc_set_root(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(test_fixture), cmocka_unit_test(test_live_self) };
	return cmocka_run_group_tests(tests, setup, teardown);
}
