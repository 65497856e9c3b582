#!/usr/bin/env bash
# The layering check (ARCHITECTURE.md, "Layers"): no library file includes a header of a higher
# layer, and importers and exporters do not include each other. Known exceptions are listed, one
# `file -> header` per line, in known-upward.txt beside this script: the list may only shrink.
# A new upward include fails; so does a listed one that is gone (delete its line).
# Usage: check-layering.sh [SOURCE_ROOT]   (default: the checkout this script is in)
set -euo pipefail
root="${1:-$(cd "$(dirname "$0")/../.." && pwd)}"
known="$(dirname "$0")/known-upward.txt"
cd "$root"

# Layer of a path: the longest matching prefix wins. Keep this table and ARCHITECTURE.md equal.
layer_table='
ir 0 ir
support 1 support
importers 2 importers
exporters 2 exporters
transforms 3 transforms
exporters/wrapper 4 codegen
backends/opencl/codegen 4 codegen
backends 5 runtime
repl 6 tools
'

found="$(mktemp)"
trap 'rm -f "$found"' EXIT
files=$(find ir support importers exporters transforms backends repl -name '*.h' -o -name '*.cpp' -o -name '*.def' | sort)
count=$(echo "$files" | wc -l)
echo "$files" | xargs grep -H '^#include "' | awk -v table="$layer_table" '
  BEGIN {
    n = split(table, lines, "\n")
    for (i = 1; i <= n; i++) {
      if (split(lines[i], f, " ") == 3) { rank[f[1]] = f[2]; group[f[1]] = f[3]; prefixes[++np] = f[1] }
    }
  }
  function find(path,   i, best) {
    best = ""
    for (i = 1; i <= np; i++)
      if (index(path, prefixes[i] "/") == 1 && length(prefixes[i]) > length(best)) best = prefixes[i]
    return best
  }
  {
    src = $0; sub(/:.*/, "", src)
    hdr = $0; sub(/^[^"]*"/, "", hdr); sub(/".*/, "", hdr)
    s = find(src); t = find(hdr)
    if (s == "" || t == "") next
    if (rank[t] > rank[s] || (rank[t] == rank[s] && rank[s] == 2 && group[t] != group[s]))
      print src " -> " hdr
  }' | sort -u >"$found"

status=0
# The runtime header of the generated C++ wrappers (exporters/wrapper/WrapperCppWriter.cpp) is
# compiled with the generated code, which defines its own FXKIT_TRY: it must include no fxkit
# header (ir/Try.h defines the library's FXKIT_TRY and refuses to meet another).
runtime_header=backends/opencl/rt/WrapperRuntime.h
if grep -q '^#include "' "$runtime_header"; then
  echo "check-layering: $runtime_header (compiled into generated wrappers) includes fxkit headers:"
  grep '^#include "' "$runtime_header" | sed 's/^/  /'
  status=1
fi
new=$(comm -23 "$found" <(grep -v '^#' "$known" | sed '/^$/d' | sort -u) || true)
gone=$(comm -13 "$found" <(grep -v '^#' "$known" | sed '/^$/d' | sort -u) || true)
if [ -n "$new" ]; then
  echo "check-layering: includes of a higher layer (ARCHITECTURE.md, Layers):"
  echo "$new" | sed 's/^/  /'
  status=1
fi
if [ -n "$gone" ]; then
  echo "check-layering: listed in tests/layering/known-upward.txt but gone (delete these lines):"
  echo "$gone" | sed 's/^/  /'
  status=1
fi
echo "check-layering: $count files checked, $(wc -l <"$found") known upward includes left"
exit $status
