# test-planner.td — a small invented PMU for the planner's own tests
# (tests/unit/test_planner.c): 4 general-purpose counters (2 with SMT on),
# 2 fixed counters, an event only on counter 0, two on counters 0-1, a
# fixed-only event, a no-counter event, a PERF_METRICS-style group, a
# spannable node and an available() fallback. Not shipped.
pmu      testpmu
title    Planner test PMU (test-only)
param    SMT_on 0

event    CYC      cpu/event=0x3c/
event    INST     cpu/event=0xc0/
event    REF      cpu/event=0x00,umask=0x3/
event    A        cpu/event=0x10/
event    B        cpu/event=0x11/
event    C        cpu/event=0x12/
event    D        cpu/event=0x13/
event    E        cpu/event=0x14/
event    Z0       cpu/event=0x20/
event    L1       cpu/event=0x21/
event    L2       cpu/event=0x22/
event    TSC      msr/event=0x0/
event    SL       cpu/event=0x00,umask=0x4/
event    M1       cpu/event=0x00,umask=0x80/
event    M2       cpu/event=0x00,umask=0x81/

counters  gp=4 smt-gp=2 fixed=2 watchdog=gp
fixed     0 INST
fixed     1 CYC REF
limit     REF counters=fixed
limit     Z0 counters=0
limit     L1 L2 counters=0-1
nocounter TSC
topdown-group SL M1 M2
span      Wide.Spread

node  Small        Slots = A / CYC
node  Small.Child  Slots = (B if SMT_on else C) / CYC
node  Wide         Slots = (A + B + C + D + E) / CYC
node  Wide.Spread  Slots = (A + B + C + D + E + Z0) / CYC
node  Zeros        Slots = (Z0 + L1 + L2) / CYC
node  TwoZero      Slots = (L1 + L2 + Z0 + A) / INST
node  Metric       Slots = M1 / (M1 + M2) + TSC / REF
# planned as if M1 and M2 are counted: SL M1 M2, not the fallback's D and CYC
let   Have_M       = available(M1 + M2)
node  Fallback     Slots = M1 / SL if Have_M else D / CYC
info  IPC          Metric = INST / CYC
