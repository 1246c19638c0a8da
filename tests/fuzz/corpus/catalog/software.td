# software.td — the kernel's software events, available everywhere (also in VMs
# without a PMU). No top-down tree: these give CPU time, utilisation and the
# scheduler/memory activity that explains time off the CPU.
pmu      perf
title    Software events (any CPU)
version  Linux perf_event software counters (PERF_TYPE_SOFTWARE)

event    TASK_CLOCK        perf::TASK-CLOCK        | CPU time of the task, nanoseconds
event    CONTEXT_SWITCHES  perf::CONTEXT-SWITCHES  | context switches (voluntary + involuntary)
event    CPU_MIGRATIONS    perf::CPU-MIGRATIONS    | moves of the task to another CPU
event    PAGE_FAULTS       perf::PAGE-FAULTS       | page faults (minor + major)
event    MINOR_FAULTS      perf::MINOR-FAULTS      | page faults served without I/O
event    MAJOR_FAULTS      perf::MAJOR-FAULTS      | page faults that needed I/O

info     CPU_Time         s     = TASK_CLOCK / 1e9                  | CPU time in seconds
info     CPU_Utilization  CPUs  = TASK_CLOCK / 1e9 / DURATION       | average CPUs busy (1.0 = one CPU all the time)
info     Switches_per_s   Rate  = CONTEXT_SWITCHES / DURATION       | context switches per second
info     Migrations_per_s Rate  = CPU_MIGRATIONS / DURATION         | CPU migrations per second
info     Faults_per_s     Rate  = PAGE_FAULTS / DURATION            | page faults per second
info     Major_Faults_per_s Rate = MAJOR_FAULTS / DURATION          | major page faults per second
