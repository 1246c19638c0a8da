# expect: path-digit-first.td:4: node path '4K_Aliasing' is not dotted names
pmu   skl
event LD LD_BLOCKS_PARTIAL:ADDRESS_ALIAS
node  4K_Aliasing Clocks_est = LD
