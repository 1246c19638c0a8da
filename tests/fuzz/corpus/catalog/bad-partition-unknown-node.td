# expect: partition-unknown-node.td:7: partition: 'Frontend_Bound.Fetch_Latncy' is not a node
pmu   skl
event FE   IDQ_UOPS_NOT_DELIVERED:CORE
event CLKS CPU_CLK_THREAD_UNHALTED:THREAD_P
node  Frontend_Bound Slots = FE / (4 * CLKS) | > 0.15
# a misspelt parent: the relation must name a declared node
partition Frontend_Bound.Fetch_Latncy
