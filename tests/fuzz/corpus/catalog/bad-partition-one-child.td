# expect: partition-one-child.td:6: partition 'Backend_Bound': it has 1 child node(s), a partition needs at least two
pmu   skl
event BE   IDQ_UOPS_NOT_DELIVERED:CORE
event CLKS CPU_CLK_THREAD_UNHALTED:THREAD_P
node  Backend_Bound Slots = BE / (4 * CLKS) | > 0.2
partition Backend_Bound
node  Backend_Bound.Memory_Bound Slots = BE / (8 * CLKS)
