# expect: cpi-incomplete.td:5: cpi components need both 'cpi-cycles' and 'cpi-instructions' lines
pmu   skl
event CLKS CPU_CLK_THREAD_UNHALTED:THREAD_P
cpi-cycles CLKS
cpi   Base derived = 0.5
