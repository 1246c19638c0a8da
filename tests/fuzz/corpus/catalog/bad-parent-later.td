# expect: parent-later.td:6: node 'Frontend_Bound.Fetch_Latency': parent 'Frontend_Bound' is not declared before it
pmu   skl
event CLKS CPU_CLK_THREAD_UNHALTED:THREAD_P
event FE   IDQ_UOPS_NOT_DELIVERED:CORE

node  Frontend_Bound.Fetch_Latency Slots = FE / CLKS
node  Frontend_Bound Slots = FE / (4 * CLKS)
