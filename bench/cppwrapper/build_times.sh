#!/usr/bin/env bash
# Build time of the exported C++ wrapper of every reference workload: in process (`fxkit compile
# -o DIR --build`: Clang's front end, -O2 pipeline and code generation, as fxkit reports it; then
# the ORC load of `run --backend cpp-wrapper --stats`) against the external route (g++ -O2 -c of
# the same NAME.cpp, and CMake configure + build of the exported CMakeLists.txt, library and
# driver). Usage: bench/cppwrapper/build_times.sh BUILD_DIR [REFERENCE_DIR]. Prints a Markdown table.
set -eu
BUILD="$(cd "$1" && pwd)"
FXKIT="$BUILD/repl/fxkit"
SRC="$(cd "$(dirname "$0")/../.." && pwd)"
REF="${2:-$SRC/tests/data/corpus/reference}"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
export FXKIT_CACHE_DIR="$WORK/cache"
now() { date +%s.%N; }
echo "| workload | NAME.cpp lines | fxkit --build (Clang in process) | ORC load | g++ -O2 -c | CMake configure + build (lib + driver) |"
echo "| --- | ---: | ---: | ---: | ---: | ---: |"
for dir in "$REF"/*/; do
  name="$(basename "$dir")"
  out="$WORK/$name"
  "$FXKIT" compile "$dir/fw_0.graph.txt" -o "$out" --build --name "$name" 2>"$WORK/build.err"
  clang_s="$(sed -n 's/.*built in \([0-9.]*\) s.*/\1/p' "$WORK/build.err")"
  "$FXKIT" run "$dir/fw_0.graph.txt" --backend cpp-wrapper --wrapper "$out" \
    --inputs "$dir/fw_0.inputs.safetensors" --stats >/dev/null 2>"$WORK/run.err"
  load_s="$(sed -n 's/.*loaded in \([0-9.e-]*\) s.*/\1/p' "$WORK/run.err")"
  t0="$(now)"
  g++ -std=c++17 -O2 -fPIC -I"$SRC" -c "$out/$name.cpp" -o "$WORK/$name.gcc.o"
  gcc_s="$(echo "$(now) - $t0" | bc)"
  t0="$(now)"
  cmake -S "$out" -B "$WORK/$name.build" -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$WORK/$name.build" -j1 >/dev/null
  cmake_s="$(echo "$(now) - $t0" | bc)"
  printf "| %s | %d | %.2f s | %.1f ms | %.2f s | %.1f s |\n" "$name" "$(wc -l <"$out/$name.cpp")" \
    "$clang_s" "$(echo "$load_s * 1000" | bc -l)" "$gcc_s" "$cmake_s"
done
