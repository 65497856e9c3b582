// libFuzzer target: PT2 archives and their model.json (see FuzzTargets.cpp and README.md).
#include "tests/fuzz/FuzzTargets.h"

FXKIT_FUZZ_TARGET("pt2")
