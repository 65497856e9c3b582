// libFuzzer target: nodes-json input (see FuzzTargets.cpp and README.md).
#include "tests/fuzz/FuzzTargets.h"

FXKIT_FUZZ_TARGET("nodes-json")
