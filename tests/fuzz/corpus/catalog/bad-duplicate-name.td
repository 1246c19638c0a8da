# expect: duplicate-name.td:6: 'SLOTS' is already defined
pmu   skl
event CLKS CPU_CLK_THREAD_UNHALTED:THREAD_P

let   SLOTS = 4 * CLKS
info  SLOTS Count = 4 * CLKS
