#!/usr/bin/env python3
# make-events.py PERFMON_DIR [PERF_X86_DIR]: writes MODEL.events here, the
# encodings of the events the deep toplev cases (tests/data/oracle/toplev-deep/
# inputs) name, taken from Intel's public event lists (github.com/intel/perfmon,
# commit 6dadedf3aa483393943e044ba5ec88a4507cd040: SKL/events/skylake_core.json,
# ICL/events/icelake_core.json, SPR/events/sapphirerapids_core.json), and with
# PERF_X86_DIR (linux 6.12.117's tools/perf/pmu-events/arch/x86) zen4.events:
# the events of the Zen 4 trace tests/data/import/zen4-l2-names.csv, from
# perf's amdzen4/*.json (AMD's encodings as perf publishes them). The
# emulated PMU (tests/tools/pmu_sim.c) matches a trace's event names to the
# events tdctl opens through these: its own matcher, sharing nothing with the
# events files or the planner.
# A line: NAME CONFIG CONFIG1 (hex). CONFIG is the event select as the kernel
# takes it: event | umask << 8 | edge << 18 | any << 21 | inv << 23 |
# cmask << 24; the fixed-counter events Intel lists as event 0x00 are given
# the kernel's pseudo encodings (linux 6.12.117 arch/x86/events/intel/core.c:
# 234-236 and 291: INST_RETIRED.ANY 0x00c0, CPU_CLK_UNHALTED.CORE 0x003c,
# CPU_CLK_UNHALTED.REF 0x0300, SLOTS 0x0400). CONFIG1 is the offcore response
# or frontend MSR value. On AMD, CONFIG is the event select of the kernel's
# format files (event 0-7,32-35, umask 8-15: amd_format_attr, arch/x86/events/
# amd/core.c): EventCode 0x1a0 is 0xa0 | 0x1 << 32.
import glob, json, os, re, sys

here = os.path.dirname(os.path.abspath(__file__))
oracle = os.path.join(here, "..", "oracle", "toplev-deep", "inputs")
cases = {"skl": ("SKL/events/skylake_core.json", "skl-l4-core-ports"),
         "icl": ("ICL/events/icelake_core.json", "icl-l3-pm-fe-icache"),
         "spr": ("SPR/events/sapphirerapids_core.json", "spr-l3-pm-badspec-ms")}
fixed = {0x01: 0x00c0, 0x02: 0x003c, 0x03: 0x0300, 0x04: 0x0400}

for model, (path, case) in sorted(cases.items()):
    events = {e["EventName"].lower(): e for e in json.load(open(os.path.join(sys.argv[1], path)))["Events"]}
    names = set()
    for line in open(os.path.join(oracle, case + ".perf.csv")):
        f = line.strip().split(";")
        if len(f) < 3:
            continue
        name = f[2]
        m = re.match(r"cpu/([^,/=]+)[,/]", name)
        names.add(m.group(1) if m else name)
    out = []
    for n in sorted(names):
        e = events.get(n)
        if not e:
            continue
        code = int(e["EventCode"].split(",")[0], 16)
        umask = int(e["UMask"], 16)
        if code == 0 and umask in fixed:
            config = fixed[umask]
        else:
            config = code | umask << 8 | int(e.get("EdgeDetect", "0")) << 18 | int(e.get("AnyThread", "0")) << 21 \
                | int(e.get("Invert", "0")) << 23 | int(e.get("CounterMask", "0")) << 24
        msr = e.get("MSRValue", "0") or "0"
        config1 = int(msr, 16) if msr.startswith("0x") else int(msr)
        out.append(f"{n} {config:#x} {config1:#x}\n")
    with open(os.path.join(here, model + ".events"), "w") as o:
        o.write(f"# {model}: from intel/perfmon {path} (make-events.py)\n")
        o.writelines(out)
    print(model, len(out), "of", len(names), "names; not in Intel's list:", sorted(n for n in names if n not in events))

if len(sys.argv) > 2:
    events = {}
    for path in sorted(glob.glob(os.path.join(sys.argv[2], "amdzen4", "*.json"))):
        for e in json.load(open(path)):
            if "EventName" in e and "EventCode" in e:
                events[e["EventName"].lower()] = e
    names = set()
    for line in open(os.path.join(here, "..", "import", "zen4-l2-names.csv")):
        f = line.strip().split(";")
        if len(f) < 3 or line.startswith("#"):
            continue
        m = re.match(r"cpu/([^,/=]+)[,/]", f[2])
        names.add((m.group(1) if m else f[2]).split(":")[0])
    out = []
    for n in sorted(names):
        e = events[n]
        code = int(e["EventCode"], 16)
        config = (code & 0xff) | (code >> 8 & 0xf) << 32 | int(e.get("UMask", "0"), 16) << 8 \
            | int(e.get("EdgeDetect", "0")) << 18 | int(e.get("Invert", "0")) << 23 | int(e.get("CounterMask", "0")) << 24
        out.append(f"{n} {config:#x} 0x0\n")
    with open(os.path.join(here, "zen4.events"), "w") as o:
        o.write("# zen4: from linux 6.12.117 tools/perf/pmu-events/arch/x86/amdzen4/*.json (make-events.py)\n")
        o.writelines(out)
    print("zen4", len(out), "of", len(names), "names")
