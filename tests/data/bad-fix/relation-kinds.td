# relation-kinds.td — one relation of each kind, two of them broken on purpose
# (used by tests/unit/test_fixtures.c through bad-relation-kinds.fix):
# children-sum: L1_Bound + DRAM_Bound = 0.45, the expression 0.4; bound: Microcode_Sequencer
# 0.3 > Heavy_Operations 0.2. Frontend_Bound has children and no relation, on purpose.
pmu   skl
title Broken relations (test-only)
event CLKS   cpu/event=0x1,umask=0x1/
event MEM    cpu/event=0x2,umask=0x1/
event STALLS_MEM cpu/event=0x3,umask=0x1/
event STORES cpu/event=0x4,umask=0x1/
node  Backend_Bound Slots = 0.6
node  Backend_Bound.Memory_Bound Slots = MEM
node  Backend_Bound.Core_Bound Slots = Backend_Bound - Backend_Bound.Memory_Bound
partition Backend_Bound
node  Backend_Bound.Memory_Bound.L1_Bound   Stalls = 0.25
node  Backend_Bound.Memory_Bound.DRAM_Bound Stalls = 0.2
children-sum Backend_Bound.Memory_Bound = (STALLS_MEM + STORES) / CLKS
node  Backend_Bound.Core_Bound.Divider Clocks = 0.1
unrelated Backend_Bound.Core_Bound | a Clocks child of a Slots parent
node  Retiring Slots = 0.4
node  Retiring.Heavy_Operations Slots = 0.2
node  Retiring.Heavy_Operations.Microcode_Sequencer Slots = 0.3
bound Retiring.Heavy_Operations
unrelated Retiring | test-only
node  Frontend_Bound Slots = 0
node  Frontend_Bound.Fetch_Latency Slots = 0
