# expect: long-event.td:5: event 'CLKS': alias, event string or description longer than 63, 255 or 255 characters
# an event string cut at 255 characters would name a different event: refused
pmu   skl
event INST INST_RETIRED:ANY_P
event CLKS cpu/event=0x3c,umask=0x0,cmask=0,cmask=0,cmask=0,cmask=0,cmask=0,cmask=0,cmask=0,cmask=0,cmask=0,cmask=0,cmask=0,cmask=0,cmask=0,cmask=0,cmask=0,cmask=0,cmask=0,cmask=0,cmask=0,cmask=0,cmask=0,cmask=0,cmask=0,cmask=0,cmask=0,cmask=0,cmask=0,cmask=0,cmask=0,cmask=0,cmask=0,cmask=0,cmask=0,cmask=0,cmask=0,cmask=0,cmask=0,cmask=0,cmask=0,cmask=0/
info  IPC Metric = INST / CLKS | instructions per cycle
