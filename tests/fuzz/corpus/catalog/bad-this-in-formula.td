# expect: this-in-formula.td:4: node Retiring: column 24: 'this' is only allowed in thresholds
pmu   skl
event RET UOPS_RETIRED:RETIRE_SLOTS
node  Retiring Slots = this * RET
