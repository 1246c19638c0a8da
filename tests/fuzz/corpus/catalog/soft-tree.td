# soft-tree.td — a top-down-shaped tree over software events, so that the
# planner's groups can be collected for real on machines without a PMU
# (tests/integration/planned.sh). Three "counters" per group: level 2 needs
# two groups, and TC and CS are carried in both. The +1 keeps every value
# available when a thread did not switch in an interval.
pmu      td_soft_tree
title    Test tree over software events
version  topdown test data

event    TC     perf::TASK-CLOCK         | CPU time, ns
event    CS     perf::CONTEXT-SWITCHES   | context switches
event    MINF   perf::MINOR-FAULTS       | minor page faults
event    MAJF   perf::MAJOR-FAULTS       | major page faults

counters gp=3

node  Running            Slots = TC / (TC + 1e6 * CS + 1)      | > 0.5 | CPU time against a millisecond per switch
node  Switching          Slots = 1e6 * CS / (TC + 1e6 * CS + 1) | > 0.5 | a millisecond per switch against CPU time
node  Running.Faulting   Slots = Running * MINF / (MINF + 1)   | > 0.1 | running, weighted by minor faults
node  Running.Major      Slots = Running * MAJF / (MAJF + 1)   | > 0.1 | running, weighted by major faults
info  Switches_per_ms    Metric = 1e6 * CS / TC                | context switches per millisecond of CPU time
