# expect: partition-domain.td:8: partition 'Backend_Bound': child L1_Bound is in domain Stalls, the parent in Slots (they do not add up)
pmu   skl
event BE   IDQ_UOPS_NOT_DELIVERED:CORE
event CLKS CPU_CLK_THREAD_UNHALTED:THREAD_P
node  Backend_Bound Slots = BE / (4 * CLKS) | > 0.2
node  Backend_Bound.Memory_Bound Slots = BE / (8 * CLKS)
node  Backend_Bound.L1_Bound Stalls = BE / CLKS
partition Backend_Bound
