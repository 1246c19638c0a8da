// SPDX-License-Identifier: GPL-2.0-only
/* empty_switch.bpf.c: the floor for bench_target.sh, a tp_btf program on
 * sched_switch that does nothing. Its run_time_ns / run_cnt (with
 * kernel.bpf_stats_enabled) is what any program attached there costs: the
 * trampoline and the statistics' own clock reads. */
#include <vmlinux.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

SEC("tp_btf/sched_switch")
int BPF_PROG(td_empty_switch, bool preempt, struct task_struct *prev, struct task_struct *next, unsigned int prev_state)
{
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
