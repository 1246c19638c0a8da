/* counting_nobpf: the BPF counting mode of a build without BPF (configure
 * --disable-bpf, or no bpftool or clang found): it never loads, and says
 * why; the collector then counts with per-thread groups. */
#include "counting.h"

#include <errno.h>
#include <stdio.h>

struct td_bpf_counting *td_bpf_counting_new(const struct perf_event_attr *attrs, const bool *leads, int n,
					    unsigned what, int map_entries, td_err *err)
{
	(void)attrs, (void)leads, (void)n, (void)what, (void)map_entries;
	td_err_set(err, "this tdctl was built without BPF (configure found no bpftool or clang, or --disable-bpf)");
	return NULL;
}
void td_bpf_counting_free(struct td_bpf_counting *b)
{
	(void)b;
}
const char *td_bpf_counting_flavour(const struct td_bpf_counting *b)
{
	(void)b;
	return "";
}

bool td_bpf_counting_own_types(const struct td_bpf_counting *b)
{
	(void)b;
	return false;
}
int td_bpf_counting_follow(struct td_bpf_counting *b, pid_t pid)
{
	(void)b, (void)pid;
	return -ENOSYS;
}
bool td_bpf_counting_joined(const struct td_bpf_counting *b)
{
	(void)b;
	return false;
}
int td_bpf_counting_sharers(const struct td_bpf_counting *b)
{
	(void)b;
	return 0;
}
int td_bpf_counting_unshare(struct td_bpf_counting *b, td_err *err)
{
	(void)b;
	td_err_set(err, "this tdctl was built without BPF");
	return -1;
}
int td_bpf_counting_follow_cgroup(struct td_bpf_counting *b, uint64_t id, int level)
{
	(void)b, (void)id, (void)level;
	return -ENOSYS;
}
int td_bpf_counting_cgroup(const struct td_bpf_counting *b, uint64_t id, struct td_bpf_thread_sums *out)
{
	(void)b, (void)id, (void)out;
	return -ENOSYS;
}
int td_bpf_counting_read(struct td_bpf_counting *b)
{
	(void)b;
	return -ENOSYS;
}
const uint64_t *td_bpf_counting_totals(const struct td_bpf_counting *b)
{
	static const uint64_t none[TD_BPF_COUNT_MAX];
	(void)b;
	return none;
}
const struct td_bpf_thread_sums *td_bpf_counting_find(const struct td_bpf_counting *b, pid_t tid)
{
	(void)b, (void)tid;
	return NULL;
}
int td_bpf_counting_drop_exited(struct td_bpf_counting *b, bool (*keep)(void *ctx, pid_t tid), void *ctx)
{
	(void)b, (void)keep, (void)ctx;
	return 0;
}
void td_bpf_counting_stats(const struct td_bpf_counting *b, struct td_bpf_counting_stats *st)
{
	(void)b;
	*st = (struct td_bpf_counting_stats){ 0 };
}
int td_bpf_counting_switch_tag(const struct td_bpf_counting *b, char *out, size_t len)
{
	(void)b, (void)out, (void)len;
	return -EOPNOTSUPP;
}
int td_bpf_counting_switch_runs(const struct td_bpf_counting *b, uint64_t *ns, uint64_t *runs)
{
	(void)b, (void)ns, (void)runs;
	return -EOPNOTSUPP;
}
int td_bpf_run_stats(void)
{
	return -EOPNOTSUPP;
}
int td_bpf_counting_probe(td_err *err)
{
	return td_bpf_counting_new(NULL, NULL, 0, false, 0, err) ? 0 : -1;
}
