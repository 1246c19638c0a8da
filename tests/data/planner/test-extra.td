# test-extra.td — an invented PMU for the planner's `extra` lines (tests/unit/test_planner.c):
# 4 general-purpose counters; three offcore-response events with different values (the register
# pair holds 2 per group), two frontend events with one value (0x8) and one with another (0x7)
# (the register holds 1 per group); an event only on counter 3. Not shipped.
pmu      testextra
title    Planner extra-register test PMU (test-only)

event    CYC      cpu/event=0x3c/
event    O1       cpu/event=0xb7,umask=0x1,offcore_rsp=0x10001/
event    O2       cpu/event=0xb7,umask=0x1,offcore_rsp=0x10002/
event    O3       cpu/event=0xbb,umask=0x1,offcore_rsp=0x10004/
event    F8       cpu/event=0xc2,umask=0x4,frontend=0x8/
event    F8C      cpu/event=0xc2,umask=0x4,cmask=1,frontend=0x8/
event    F7       cpu/event=0xad,umask=0x40,frontend=0x7/
event    HI       cpu/event=0x30/

counters  gp=4 fixed=0 watchdog=none
extra     offcore_rsp 2 O1 O2 O3
extra     frontend 1 F8 F8C F7
limit     HI counters=3

node  Two        Slots = (O1 + O2) / CYC
node  Three      Slots = (O1 + O2 + O3) / CYC
node  SameFe     Slots = (F8 + F8C) / CYC
node  OtherFe    Slots = (F8 + F7) / CYC
node  High       Slots = HI / CYC
