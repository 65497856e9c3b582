// libFuzzer target: provenance input (see FuzzTargets.cpp and README.md).
#include "tests/fuzz/FuzzTargets.h"

FXKIT_FUZZ_TARGET("provenance")
