# generic.td — the kernel's generic hardware events (cycles, instructions),
# used when the CPU has a PMU but no model-specific file applies: the
# "IPC/CPI only" rung of the degradation ladder. The collector opens these
# events as one group on every thread, separate from software.td's group, so
# this file names only hardware events.
pmu      perf
title    Generic hardware events (any CPU with a PMU)
version  Linux perf_event generic hardware counters (PERF_TYPE_HARDWARE)

event    CYCLES        perf::CYCLES        | core clock cycles, unhalted
event    INSTRUCTIONS  perf::INSTRUCTIONS  | instructions retired

info     IPC  Metric = INSTRUCTIONS / CYCLES    | instructions per cycle
info     CPI  Metric = CYCLES / INSTRUCTIONS    | cycles per instruction
