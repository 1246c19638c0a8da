# hw-small.td — two hardware events in one group, so that a plan with a
# hardware group (software.td's 6 events + these 2) fits the BPF counting
# program's 8 (tests/integration/counting_bpf.sh). Forced with --pmu
# td_hw_small; perf::CYCLES and perf::INSTRUCTIONS are the kernel's generic
# hardware events, on any CPU that has a PMU.
pmu      td_hw_small
title    Test plan with one hardware group
version  topdown test data

event    CYC    perf::CYCLES         | core cycles
event    INS    perf::INSTRUCTIONS   | instructions retired

counters gp=2

node  Retiring   Slots = INS / (INS + CYC + 1)   | > 0.5 | an instruction against a cycle (a tree, to be planned)
node  Stalled    Slots = CYC / (INS + CYC + 1)   | > 0.5 | a cycle against an instruction
info  IPC        Metric = INS / CYC              | instructions per cycle
