# expect: undefined-name.td:5: node Frontend_Bound: column 35: 'SLOTS' is not defined
pmu   skl
event FE   IDQ_UOPS_NOT_DELIVERED:CORE
# SLOTS is never defined
node  Frontend_Bound Slots = FE / SLOTS | > 0.15
