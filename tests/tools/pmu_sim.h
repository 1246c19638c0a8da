/* pmu_sim.h: what the emulated PMU (pmu_sim.c) offers its own unit test
 * besides the system calls it intercepts. */
#ifndef TD_PMU_SIM_H
#define TD_PMU_SIM_H
#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdint.h>

/* The CPU time source (ns) of a target: a thread, a process (inherit on a
 * thread-group leader) or a CPU. NULL: the real clocks. For tests: a clock
 * the test sets makes every count exact. */
void pmu_sim_set_clock(int64_t (*clock)(bool cpu_wide, bool process, int target));
/* Forget every event and the host: the next open reads TD_PMU_SIM_HOST and
 * TD_PMU_SIM_TRACE again (one test binary, several hosts). */
void pmu_sim_reset(void);
/* perf_event_open as the emulated kernel answers it (-1 and errno on failure). */
long pmu_sim_perf_event_open(struct perf_event_attr *attr, long pid, long cpu, long group_fd, unsigned long flags);
#endif
