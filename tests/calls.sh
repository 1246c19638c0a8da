#!/bin/sh
# calls.sh: no two .c files of one folder of src/ call each other in a loop
# (docs/architecture.md, Conventions). For every folder, from the built
# objects (nm -P): which .c file defines each global symbol (function or
# variable) and which .c files of the same folder use it; the file -> file
# graph must be a DAG. A loop fails its folder's line, naming the files and
# a symbol of each step ("a.c calls b.c (td_b) calls a.c (td_a)"): move what
# both use to a file of its own that calls neither.
# A .c file without an object (a backend this configuration does not build,
# e.g. tracker_nobpf.c beside tracker_bpf.c) is a SKIP line.
# First, the check checks itself: run on tests/data/calls (a folder with a
# planted loop, one without) it must fail the first and pass the second.
# Usage: tests/calls.sh [SRCDIR [BUILDDIR]] (default: $TD_SRCDIR or the
# parent of this script's folder; $TD_BUILDDIR or the current directory).
# The self-test compiles the fixture with $TD_CC (else cc). TAP output.
set -u
SRC=${1:-${TD_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}}
BUILD=${2:-${TD_BUILDDIR:-$(pwd)}}
NM=${NM:-nm}
# absolute: the folders' listings below change directory
SRC=$(cd "$SRC" && pwd) && BUILD=$(cd "$BUILD" && pwd) || { echo "Bail out! no source tree $SRC or build tree $BUILD"; exit 1; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/td-calls.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
N=0
FAILED=0
ok() { N=$((N + 1)); echo "ok $N - $*"; }
not_ok() { N=$((N + 1)); FAILED=$((FAILED + 1)); echo "not ok $N - $*"; }

# ---- the check itself checked on a fixture with a planted loop -------------
if [ "${TD_CALLS_SELF_TEST:-yes}" = yes ]; then
	FIX="$SRC/tests/data/calls"
	CC=${TD_CC:-cc}
	if ! command -v "${CC%% *}" >/dev/null 2>&1; then
		N=$((N + 1)); echo "ok $N - # SKIP no C compiler ($CC) to build the fixture $FIX"
	else
		built=yes
		for f in "$FIX"/src/*/*.c; do
			rel=${f#"$FIX"/}
			mkdir -p "$TMP/fixture/$(dirname "$rel")"
			$CC -c -o "$TMP/fixture/${rel%.c}.o" "$f" 2>>"$TMP/fixture.err" || built=no
		done
		if [ $built = no ]; then
			not_ok "the fixture $FIX does not compile: $(tr '\n' ' ' <"$TMP/fixture.err")"
		else
			TD_CALLS_SELF_TEST=no sh "$0" "$FIX" "$TMP/fixture" >"$TMP/self.out" 2>&1
			rc=$?
			# the planted loop: a.c -> b.c -> c.c -> a.c in src/loop
			if [ $rc -ne 0 ] && grep -q '^not ok .*src/loop: .*a\.c calls b\.c (loop_b) calls c\.c (loop_c) calls a\.c (loop_a)' "$TMP/self.out"
			then ok "the check fails on the loop planted in tests/data/calls/src/loop, naming it"
			else not_ok "the check missed the loop planted in tests/data/calls/src/loop (exit $rc): $(tr '\n' ' ' <"$TMP/self.out")"; fi
			# a DAG (with a static function of the same name in two files, and a variable) passes
			if grep -q '^ok .*src/dag: ' "$TMP/self.out"
			then ok "the check passes tests/data/calls/src/dag, which has no loop"
			else not_ok "the check failed tests/data/calls/src/dag, which has no loop: $(tr '\n' ' ' <"$TMP/self.out")"; fi
		fi
	fi
fi

# ---- each folder of src/ ----------------------------------------------------
nobj=0
for dir in "$SRC"/src/*/; do
	folder=$(basename "$dir")
	obj="$BUILD/src/$folder"
	# the folder's .c files: the source tree's and the build tree's generated ones
	files=$( (cd "$dir" && ls -- *.c 2>/dev/null; [ -d "$obj" ] && cd "$obj" && ls -- *.c 2>/dev/null) |
		grep -v '\.bpf\.c$' | sort -u)
	: >"$TMP/syms"
	for c in $files; do
		base=${c%.c}
		found=no
		# base.o, or TARGET-base.o for a program with flags of its own
		for o in "$obj/$base.o" "$obj"/*-"$base".o; do
			[ -f "$o" ] || continue
			prefix=${o##*/}
			prefix=${prefix%"$base".o}
			case "$prefix" in *-*-) continue ;; esac
			found=yes
			if ! $NM -P "$o" >"$TMP/nm" 2>"$TMP/nm.err"; then
				not_ok "$NM -P $o failed: $(tr '\n' ' ' <"$TMP/nm.err")"
				continue
			fi
			# global definitions (upper-case type but U) and undefined uses
			awk -v f="$c" '$2 == "U" { print f, "U", $1; next }
				$2 ~ /^[A-TV-Z]$/ { print f, "D", $1 }' "$TMP/nm" >>"$TMP/syms"
		done
		if [ $found = yes ]; then nobj=$((nobj + 1))
		else N=$((N + 1)); echo "ok $N - src/$folder/$c # SKIP not built in this configuration (no object in $obj)"; fi
	done
	[ -s "$TMP/syms" ] || continue
	# edges "from to symbol", sorted: the first loop found is always the same
	awk '$2 == "D" && !($3 in def) { def[$3] = $1 }
		$2 == "U" { use[++n] = $1 " " $3 }
		END { for (i = 1; i <= n; i++) { split(use[i], a, " ")
			if ((a[2] in def) && def[a[2]] != a[1]) print a[1], def[a[2]], a[2] } }' "$TMP/syms" |
		sort -k1,1 -k2,2 -k3,3 >"$TMP/edges"
	loop=$(awk '
		!(($1, $2) in sym) { sym[$1, $2] = $3; adj[$1] = adj[$1] " " $2
			if (!($1 in seen)) { seen[$1] = 1; order[++nn] = $1 } }
		function dfs(u,    i, n, a, v) {
			color[u] = 1; stack[++sp] = u
			n = split(adj[u], a, " ")
			for (i = 1; i <= n && !found; i++) {
				v = a[i]
				if (color[v] == 1) { say(v); found = 1 }
				else if (!color[v]) dfs(v)
			}
			sp--; color[u] = 2
		}
		function say(v,    i, k, s) {
			for (k = sp; stack[k] != v; k--) ;
			s = v
			for (i = k + 1; i <= sp; i++) s = s " calls " stack[i] " (" sym[stack[i - 1], stack[i]] ")"
			print s " calls " v " (" sym[stack[sp], v] ")"
		}
		END { for (i = 1; i <= nn && !found; i++) if (!color[order[i]]) dfs(order[i]) }' "$TMP/edges")
	nedges=$(cut -d' ' -f1,2 "$TMP/edges" | sort -u | wc -l)
	if [ -z "$loop" ]; then ok "src/$folder: the calls between its .c files form no loop ($nedges file-to-file edges)"
	else not_ok "src/$folder: a call loop between its .c files: $loop — move what they share to a file of its own that calls neither"; fi
done
if [ $nobj -eq 0 ]; then
	echo "Bail out! no object of $SRC/src under $BUILD/src: build first (make), or name the build tree"
	exit 1
fi

echo "1..$N"
[ "$FAILED" -eq 0 ]
