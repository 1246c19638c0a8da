# relation.td — a tree whose declared partition does not hold, on purpose:
# Memory_Bound + Core_Bound are 0.1 + 0.2 = 0.3 of the slots, Backend_Bound 0.5.
# Used by tests/unit/test_fixtures.c through bad-relation.fix.
pmu   skl
title Broken relation (test-only)
event BE   cpu/event=0x1,umask=0x1/
event MEM  cpu/event=0x2,umask=0x1/
event CORE cpu/event=0x3,umask=0x1/
node  Backend_Bound Slots = BE | > 0.2
node  Backend_Bound.Memory_Bound Slots = MEM | > 0.2
node  Backend_Bound.Core_Bound Slots = CORE | > 0.1
partition Backend_Bound
