# expect: bad-domain.td:4: node 'Retiring': unknown domain 'Slot'
pmu   skl
event RET UOPS_RETIRED:RETIRE_SLOTS
node  Retiring Slot = RET
