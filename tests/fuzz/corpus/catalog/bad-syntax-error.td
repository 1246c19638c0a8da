# expect: syntax-error.td:5: info IPC: column 32: expected ')', got end of expression
pmu   skl
event CLKS CPU_CLK_THREAD_UNHALTED:THREAD_P
event INST INST_RETIRED:ANY_P
info  IPC Metric = (INST / CLKS | instructions per cycle
