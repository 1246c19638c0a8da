#!/bin/sh
# layering.sh: the #include graph of src/ against the layers that
# docs/architecture.md allows. The allowed edges are the ```layers block of
# that page ("folder: folders it may include"); this test fails on
#   - a folder under src/ the block does not name,
#   - an include of another folder's header that the block does not allow,
#   - a bare #include "x.h" that is not a header of the file's own folder
#     (another folder's header is named by path: "store/store.h"),
#   - a cycle in the block itself (layers must form a DAG),
#   - a cycle among the headers (a.h includes b.h includes ... a.h).
# Usage: tests/layering.sh [SRCDIR] (default: $TD_SRCDIR, or the parent of
# this script's folder). TAP output, one line per source file.
set -u
SRC=${1:-${TD_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}}
DOC="$SRC/docs/architecture.md"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/td-layering.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
N=0
FAILED=0
ok() { N=$((N + 1)); echo "ok $N - $*"; }
not_ok() { N=$((N + 1)); FAILED=$((FAILED + 1)); echo "not ok $N - $*"; }

# folder: allowed folders, one line each
sed -n '/^```layers$/,/^```$/p' "$DOC" | sed '1d;$d' | sed 's/#.*//' | grep ':' >"$TMP/allowed"
if [ ! -s "$TMP/allowed" ]; then
	echo "Bail out! no \`\`\`layers block in $DOC"
	exit 1
fi

allowed() { # FROM TO: is FROM -> TO allowed?
	awk -F: -v f="$1" -v t="$2" '$1 == f { n = split($2, a, " "); for (i = 1; i <= n; i++) if (a[i] == t) found = 1 }
		END { exit !found }' "$TMP/allowed"
}

# every folder of src/ is a layer of the block
for d in "$SRC"/src/*/; do
	folder=$(basename "$d")
	if grep -q "^$folder:" "$TMP/allowed"; then ok "src/$folder is a layer of docs/architecture.md"
	else not_ok "src/$folder is not in the \`\`\`layers block of docs/architecture.md: add it with what it may include"; fi
done

# the block is a DAG: tsort reports cycles on stderr
awk -F: '{ n = split($2, a, " "); if (!n) print $1, $1; for (i = 1; i <= n; i++) print $1, a[i] }' "$TMP/allowed" |
	awk '$1 != $2 || NF' >"$TMP/layer-edges"
if tsort "$TMP/layer-edges" >/dev/null 2>"$TMP/tsort"; then ok "the layers form a DAG"
else not_ok "the layers of docs/architecture.md have a cycle: $(tr '\n' ' ' <"$TMP/tsort")"; fi

# each file's includes
: >"$TMP/header-edges"
for f in $(cd "$SRC" && find src -name '*.[ch]' | sort); do
	folder=$(echo "$f" | cut -d/ -f2)
	bad=
	for inc in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$SRC/$f"); do
		case "$inc" in
		config.h) continue ;;
		*/*)
			to=${inc%%/*}
			target=src/$inc
			if [ "$to" != "$folder" ] && ! allowed "$folder" "$to"; then
				bad="$bad $inc (src/$folder may not include src/$to)"
			fi
			;;
		*)
			target=src/$folder/$inc
			if [ ! -f "$SRC/$target" ]; then
				bad="$bad $inc (not a header of src/$folder: name another folder's header by its path)"
			fi
			;;
		esac
		case "$f" in *.h) echo "$f $target" >>"$TMP/header-edges" ;; esac
	done
	if [ -z "$bad" ]; then ok "$f includes only what its layer may"
	else not_ok "$f:$bad"; fi
done

# no cycle among headers
if tsort "$TMP/header-edges" >/dev/null 2>"$TMP/tsort"; then ok "no cycle among the headers"
else not_ok "the headers include each other in a cycle: $(tr '\n' ' ' <"$TMP/tsort")"; fi

echo "1..$N"
[ "$FAILED" -eq 0 ]
