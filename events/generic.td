# generic.td — the kernel's generic hardware events (cycles, instructions),
# used when the CPU has a PMU but no model-specific file applies: the
# "IPC/CPI only" rung of the degradation ladder.
pmu      perf
title    Generic hardware events (any CPU with a PMU)
version  Linux perf_event generic hardware counters (PERF_TYPE_HARDWARE)

event    CYCLES        perf::CYCLES        | core clock cycles, unhalted
event    INSTRUCTIONS  perf::INSTRUCTIONS  | instructions retired
event    TASK_CLOCK    perf::TASK-CLOCK    | CPU time of the task, nanoseconds (for GHz)

info     IPC  Metric = INSTRUCTIONS / CYCLES    | instructions per cycle
info     CPI  Metric = CYCLES / INSTRUCTIONS    | cycles per instruction
info     GHz  GHz    = CYCLES / TASK_CLOCK      | average frequency while running
