# expect: bad-threshold.td:5: threshold of node Retiring: column 57: 'Heavy_Operations' is not defined
pmu   skl
event CLKS CPU_CLK_THREAD_UNHALTED:THREAD_P
event RET UOPS_RETIRED:RETIRE_SLOTS
node  Retiring Slots = RET / (4 * CLKS) | this > 0.7 or Heavy_Operations > 0.1
