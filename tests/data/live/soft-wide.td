# soft-wide.td — a three-level top-down-shaped tree over software events
# whose level 3 plans into 8 groups of 6 events (48 events, TC and CS in
# every group), so that a whole planned level of a real tree's size can be
# collected on machines without a PMU (tests/integration/counting_bpf.sh:
# the BPF counting mode holds it in one program, CPUs x events descriptors).
# The +1 keeps every value available when a thread did not switch.
pmu      td_soft_wide
title    Test tree over software events, 48 events at level 3
version  topdown test data

event    TC     perf::TASK-CLOCK         | CPU time, ns
event    CS     perf::CONTEXT-SWITCHES   | context switches
event    MIG    perf::CPU-MIGRATIONS     | migrations
event    PF     perf::PAGE-FAULTS        | page faults
event    MINF   perf::MINOR-FAULTS       | minor page faults
event    MAJF   perf::MAJOR-FAULTS       | major page faults
event    FLT    perf::FAULTS             | page faults again (libpfm4's other name)
event    MIG2   perf::MIGRATIONS         | migrations again (libpfm4's other name)
event    CC     perf::CPU-CLOCK          | CPU clock, ns

counters gp=6

node  Running            Slots = TC / (TC + 1e6 * CS + 1)      | > 0.5 | CPU time against a millisecond per switch
node  Switching          Slots = 1e6 * CS / (TC + 1e6 * CS + 1) | > 0.5 | a millisecond per switch against CPU time
node  Running.Faults     Slots = Running * (PF + MINF) / (PF + MINF + 1)   | > 0.1 | running, weighted by faults
node  Running.Moves      Slots = Running * (MIG + CC) / (MIG + CC + 1)     | > 0.1 | running, weighted by migrations
node  Running.Odd        Slots = Running * (FLT + MIG2) / (FLT + MIG2 + 1)   | > 0.1 | running, weighted by faults and migrations again
node  Running.Faults.A   Slots = Running.Faults * (MAJF + MIG) / (MAJF + MIG + 1) | > 0.1 | level 3
node  Running.Faults.B   Slots = Running.Faults * (FLT + MIG2) / (FLT + MIG2 + 1)   | > 0.1 | level 3
node  Running.Faults.C   Slots = Running.Faults * (CC + MAJF) / (CC + MAJF + 1)   | > 0.1 | level 3
node  Running.Moves.A    Slots = Running.Moves * (PF + MAJF) / (PF + MAJF + 1)    | > 0.1 | level 3
node  Running.Moves.B    Slots = Running.Moves * (FLT + MINF) / (FLT + MINF + 1)  | > 0.1 | level 3
node  Running.Moves.C    Slots = Running.Moves * (MIG2 + PF) / (MIG2 + PF + 1)      | > 0.1 | level 3
node  Running.Odd.A      Slots = Running.Odd * (PF + MIG) / (PF + MIG + 1)        | > 0.1 | level 3
node  Running.Odd.B      Slots = Running.Odd * (MINF + CC) / (MINF + CC + 1)      | > 0.1 | level 3
info  Switches_per_ms    Metric = 1e6 * CS / TC                | context switches per millisecond of CPU time
