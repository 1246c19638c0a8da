#!/bin/sh
# tdctl import --perf-script (issue 34): a perf.data recorded here (td-demo,
# cpu-clock at a fixed period, call stacks) read back through perf script
# gives the same top functions, with the same sample counts, as perf
# report's own --sort sym -n on the same file; its stacks come out folded.
# Skipped where perf is not installed or may not record.
. "$(dirname "$0")/lib.sh"

command -v perf >/dev/null 2>&1 || { skip_all "perf is not installed"; }
if ! perf record -q -e cpu-clock -c 1000000 -g -o "$WORK/p.data" -- "$DEMO" -t 2 -l 0 -e 0 -s 1 \
	>/dev/null 2>"$WORK/record.err"; then
	skip_all "perf record cannot sample here: $(head -c 200 "$WORK/record.err" | tr '\n' ' ')"
fi
perf script -i "$WORK/p.data" -F comm,pid,tid,time,event,ip,sym,dso >"$WORK/p.txt" 2>/dev/null
check_eq "perf script exits 0" 0 "$?"
"$TDCTL" import --perf-script -q -d "$WORK/i.db" "$WORK/p.txt"
check_eq "import --perf-script exits 0" 0 "$?"
check_eq "one completed import session sampled with cpu-clock" "import|completed|cpu-clock" \
	"$(sql "$WORK/i.db" "select s.kind || '|' || s.status || '|' || p.event from sessions s join sampling p on p.session_id = s.id")"

# perf report's samples per symbol (leaf, no children) against tdctl's per function
perf report -i "$WORK/p.data" --stdio --no-children --sort sym -n -q -g none 2>/dev/null |
	awk 'NF >= 4 { print $4, $2 }' | head -3 >"$WORK/perf.top"
"$TDCTL" report -d "$WORK/i.db" --hotspots --format csv | awk -F, 'NR > 1 && !seen[$5]++ { print $5, $7 }' >"$WORK/td.all"
check "perf report listed 3 symbols" test "$(wc -l <"$WORK/perf.top")" -eq 3
# by name: two symbols with as many samples may come in either order
while read -r sym n; do
	check_eq "$sym: perf report's $n samples" "$n" "$(awk -v s="$sym" '$1 == s { print $2 }' "$WORK/td.all")"
done <"$WORK/perf.top"
check_eq "tdctl's top function is perf report's" "$(head -1 "$WORK/perf.top" | cut -d' ' -f1)" \
	"$(sort -k2,2nr "$WORK/td.all" | head -1 | cut -d' ' -f1)"
"$TDCTL" report -d "$WORK/i.db" --hotspots --format folded >"$WORK/folded"
check_eq "the folded stacks hold every sample" "$(sql "$WORK/i.db" "select samples from sampling")" \
	"$(awk '{ s += $NF } END { print s }' "$WORK/folded")"

printf 'not perf output\n' >"$WORK/bad.txt"
"$TDCTL" import --perf-script -d "$WORK/i.db" "$WORK/bad.txt" 2>"$WORK/bad.err"
check_eq "a file without samples is refused" 1 "$?"
check_grep "... saying which perf script fields to give" "perf script -F comm,pid,tid,time,event,ip,sym,dso" "$WORK/bad.err"
finish
