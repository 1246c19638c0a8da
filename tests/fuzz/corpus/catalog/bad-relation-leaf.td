# expect: relation-leaf.td:8: bound 'Backend_Bound.Core_Bound': it has no child nodes (relations are declared for parents)
pmu   skl
event BE   cpu/event=0x1,umask=0x1/
event MEM  cpu/event=0x2,umask=0x1/
node  Backend_Bound Slots = BE | > 0.2
node  Backend_Bound.Memory_Bound Slots = MEM | > 0.2
node  Backend_Bound.Core_Bound Slots = BE - MEM | > 0.1
bound Backend_Bound.Core_Bound
