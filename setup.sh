#!/usr/bin/env bash
# fxkit set-up: installs what is missing (Debian 12, as root), builds, then
#   ./setup.sh example   runs the main job on the bundled example (examples/run-example.sh)
#   ./setup.sh test      runs the whole test suite: a normal build, then the core alone with
#                        every optional component off (build-minimal, a smoke test), then an
#                        AddressSanitizer + UndefinedBehaviorSanitizer build (clang-15, in
#                        build-fuzz) of the same tests and every libFuzzer target, each for 60 s
#   ./setup.sh build     only installs and builds
set -euo pipefail
cd "$(dirname "$0")"
mode="${1:-build}"
jobs="$(nproc 2>/dev/null || echo 2)"

packages=(build-essential cmake pkg-config
          nlohmann-json3-dev libreadline-dev libgraphviz-dev ocl-icd-opencl-dev pocl-opencl-icd
          libclblast-dev llvm-15-dev libclang-15-dev libfmt-dev libcli11-dev googletest
          libgtest-dev libbenchmark-dev clang-15 libclang-common-15-dev zlib1g-dev)
# The report's interactive graph is tested in a real browser (tests/cli/viewer.sh): Chromium is a
# test dependency, so the quick start (`./setup.sh example`, tests off) goes without it.
[ "$mode" = example ] || packages+=(chromium)
# The test command builds three configurations (normal, minimal, sanitizers with fuzzers); ccache
# keeps their objects between runs, so a run after a small change recompiles what changed.
[ "$mode" = example ] || packages+=(ccache)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

build() { # build DIR [cmake args...]; $BUILD_TARGET, when set, is the only target built
  local dir="$1"; shift
  local target=()
  [ -z "${BUILD_TARGET:-}" ] || target=(--target "$BUILD_TARGET")
  local launcher=()
  if command -v ccache >/dev/null; then
    launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
    # Paths relative to the checkout, and its folder left out of the hash: a clone elsewhere
    # (a CI run) reuses what an earlier clone compiled.
    export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1
  fi
  # Optimised, with line tables only (-g1): backtraces and sanitizer reports still name functions,
  # files and lines, while full debug info would double g++'s compile time and make every test
  # executable ~200 MB (configure a build of your own with -g to step through in a debugger).
  cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" \
    "${launcher[@]}" "$@" >"$dir.configure.log" 2>&1 ||
    { cat "$dir.configure.log"; exit 1; }
  grep "fxkit:" "$dir.configure.log" || true
  cmake --build "$dir" -j"$jobs" "${target[@]}"
}

case "$mode" in
  build)
    build build -DFXKIT_BUILD_TESTS=ON -DFXKIT_BUILD_BENCH=ON
    ;;
  example)
    build build -DFXKIT_BUILD_TESTS=OFF -DFXKIT_BUILD_BENCH=OFF
    ./examples/run-example.sh build/repl/fxkit
    ;;
  test)
    started=$SECONDS
    # Each stage's start, with the minutes since the first: CI must end within 90.
    stage() { echo "setup: $1 ($(date -u +%H:%M:%S), $(((SECONDS - started) / 60)) min in)"; }
    stage "stage 1: the normal build (RelWithDebInfo, g++) and every test"
    # Explicit: an earlier `example` run leaves tests off in build/'s cache.
    build build -DFXKIT_BUILD_TESTS=ON -DFXKIT_BUILD_BENCH=ON
    (cd build && ctest --output-on-failure -j"$jobs")
    # The core alone, as a machine without the optional libraries builds it (issue 19: a header
    # compiled only because an optional one brought in an include). Unoptimised: it checks that
    # everything compiles, links and runs, not speed.
    stage "stage 2: the core with every optional component off (FXKIT_MINIMAL)"
    build build-minimal -DFXKIT_MINIMAL=ON -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O0 -g0"
    tests/minimal/smoke.sh build-minimal/repl/fxkit tests/data
    # One clang-15 build serves the sanitizers and the fuzzers: the tests and every libFuzzer
    # target, all with AddressSanitizer + UndefinedBehaviorSanitizer, coverage feedback and
    # assertions on (a separate fuzzer build compiled every library a second time, and a change
    # to a core header cost CI two cold library builds instead of one).
    # libclang-common-15-dev holds clang 15's libFuzzer runtime (libclang_rt.fuzzer*.a).
    stage "stage 3: AddressSanitizer + UndefinedBehaviorSanitizer (clang-15): the tests, then each"
    echo "       libFuzzer target for 60 s (tests/fuzz/README.md)"
    CC=clang-15 CXX=clang++-15 build build-fuzz -DFXKIT_BUILD_FUZZERS=ON -DFXKIT_BUILD_BENCH=OFF
    # Tests labelled `scale` (numerics over 2^25-element rows; their code paths have small tests
    # too) ran in stage 1; under the sanitizers they would take a quarter of this stage.
    (cd build-fuzz && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
       ctest --output-on-failure -j"$jobs" --label-exclude scale)
    stage "all tests passed (normal and sanitizer builds, fuzzers)"
    ;;
  *)
    echo "usage: $0 [build|example|test]" >&2
    exit 2
    ;;
esac
