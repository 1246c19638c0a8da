# expect: cpi-bad-tag.td:6: cpi 'Base': tag must be measured, derived or estimated, got 'guessed'
pmu   skl
event CLKS CPU_CLK_THREAD_UNHALTED:THREAD_P
cpi-cycles CLKS
cpi-instructions CLKS
cpi   Base guessed = 0.5
