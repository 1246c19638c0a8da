# expect: cycle.td:4: cycle: A -> B -> C -> A
pmu   skl
event CLKS CPU_CLK_THREAD_UNHALTED:THREAD_P
let   A = B + CLKS
let   B = 2 * C
let   C = A / 2
