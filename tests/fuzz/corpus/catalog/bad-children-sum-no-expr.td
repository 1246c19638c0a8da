# expect: children-sum-no-expr.td:8: 'children-sum Backend_Bound' needs '= EXPRESSION' (children adding up to the parent: partition PARENT)
pmu   skl
event BE   cpu/event=0x1,umask=0x1/
event MEM  cpu/event=0x2,umask=0x1/
node  Backend_Bound Slots = BE | > 0.2
node  Backend_Bound.Memory_Bound Slots = MEM | > 0.2
node  Backend_Bound.Core_Bound Slots = BE - MEM | > 0.1
children-sum Backend_Bound
