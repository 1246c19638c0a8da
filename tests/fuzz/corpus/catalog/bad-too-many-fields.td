# expect: too-many-fields.td:4: 'info IPC Metric': too many '|' fields (at most 1)
pmu   skl
event CLKS CPU_CLK_THREAD_UNHALTED:THREAD_P
info  IPC Metric = 1 / CLKS | > 0.5 | instructions per cycle
