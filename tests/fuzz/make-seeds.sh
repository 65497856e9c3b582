#!/usr/bin/env bash
# Assembles the fuzzers' seed corpora: one folder per target of real files from tests/data
# (the PyTorch corpus copy and hand-made cases) plus this folder's seeds/ (hand-made inputs
# such as REPL command lines).
#   make-seeds.sh DATA_DIR OUT_DIR [FXKIT]
# FXKIT, when given, converts the corpus's FX graphs into fxkit JSON seeds (no JSON graphs
# are stored in tests/data). Seed files are named after their path, so reruns are stable.
set -euo pipefail
data="$1" out="$2" fxkit="${3:-}"
here="$(cd "$(dirname "$0")" && pwd)"

# seed TARGET FILE...: copies each file as TARGET/<path with / as _>.
seed() {
  local target="$1"; shift
  mkdir -p "$out/$target"
  local f
  for f in "$@"; do
    cp "$f" "$out/$target/$(echo "${f#"$data"/}" | tr / _)"
  done
}
files() { find "$data" -type f "$@" | sort; }

rm -rf "$out"
mkdir -p "$out"
mapfile -t fx < <(files -name '*.graph.txt')
seed fx-text "${fx[@]}"
seed fxpy $(files \( -name '*.readable.py' -o -name 'fx_graph_*.py' \))
seed inductor-py $(files \( -name 'output_code*.py' -o -name 'small_wrapper.py' \))
seed inductor-cpp $(files \( -name 'cpp_wrapper_*.py' -o -name 'small_cpp_wrapper.py' \))
seed inductor-ir $(files -name 'ir_*_fusion.txt')
seed minimalloc-csv $(files -name '*.csv')
seed safetensors $(files -name '*.safetensors')
seed provenance $(files -name 'inductor_provenance_tracking_node_mappings.json')
# pt2: the archives, and their model.json alone (FuzzTargets.cpp packs those into an archive).
mapfile -t pt2 < <(files -name '*.pt2')
seed pt2 "${pt2[@]}"
if command -v python3 >/dev/null; then
  for a in "${pt2[@]}"; do
    python3 -c 'import sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
sys.stdout.buffer.write(z.read([n for n in z.namelist() if "/models/" in n][0]))' "$a" \
      >"$out/pt2/$(echo "${a#"$data"/}" | tr / _).json" || true
  done
fi
# nodes-json: a graph, a NUL byte, then its sidecar (see FuzzTargets.cpp).
mkdir -p "$out/nodes-json"
for g in "${fx[@]}"; do
  sidecar="${g%.graph.txt}.nodes.json"
  [ -f "$sidecar" ] || continue
  { cat "$g"; printf '\0'; cat "$sidecar"; } >"$out/nodes-json/$(echo "${g#"$data"/}" | tr / _)"
done
mkdir -p "$out/json"
if [ -n "$fxkit" ]; then
  for g in "${fx[@]}"; do
    "$fxkit" convert "$g" --to json -o "$out/json/$(echo "${g#"$data"/}" | tr / _).json" \
      >/dev/null 2>&1 || true
  done
fi
seed repl $(files -name '*.fx') $(find "$here/seeds/repl" -type f | sort)
for d in "$out"/*; do echo "seeds: $(basename "$d"): $(ls "$d" | wc -l) files"; done
