# expect: relation-twice.td:9: bound 'Backend_Bound': the node already has a relation (partition at line 8); a node has one
pmu   skl
event BE   cpu/event=0x1,umask=0x1/
event MEM  cpu/event=0x2,umask=0x1/
node  Backend_Bound Slots = BE | > 0.2
node  Backend_Bound.Memory_Bound Slots = MEM | > 0.2
node  Backend_Bound.Core_Bound Slots = BE - MEM | > 0.1
partition Backend_Bound
bound Backend_Bound
