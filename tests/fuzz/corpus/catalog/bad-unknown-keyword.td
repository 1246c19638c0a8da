# expect: unknown-keyword.td:3: unknown keyword 'metric'
pmu   skl
metric IPC = 1
