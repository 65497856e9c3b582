#pragma once
/// \file The entry points the libFuzzer targets (tests/fuzz/Fuzz*.cpp) and the regression test
/// (tests/FuzzRegressionTest.cpp) share: one function per input format that feeds bytes to the
/// importer (or the REPL) and checks what must hold for any input. A function returns normally
/// for a clean error or a success; a broken invariant (a graph that fails the verifier after a
/// successful import or a REPL command) aborts, so the fuzzer reports it.

#include "tests/fuzz/FuzzMutators.h"

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace fxkit::fuzz {

/// One fuzzed format: its name (the folder of its seeds and regression inputs) and entry point.
struct FuzzTarget {
  std::string_view name;
  void (*run)(std::string_view input);
};

/// Every target in the build: the JSON ones only where nlohmann-json is found, `repl` only
/// where the REPL library is built (FXKIT_FUZZ_HAVE_REPL).
const std::vector<FuzzTarget> &fuzzTargets();
/// The target named name; aborts when there is none (a harness named a missing target).
const FuzzTarget &fuzzTarget(std::string_view name);

/// The bytes libFuzzer passes, as text.
inline std::string_view fuzzInput(const uint8_t *data, size_t size) {
  return {reinterpret_cast<const char *>(data), size};
}

} // namespace fxkit::fuzz

/// Defines libFuzzer's entry point for the target named NAME (a string literal), and its
/// structure-aware mutator (FuzzMutators.h), which calls libFuzzer's own for half the inputs.
#define FXKIT_FUZZ_TARGET(NAME)                                                                    \
  extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {                        \
    static const auto &target = fxkit::fuzz::fuzzTarget(NAME);                                     \
    target.run(fxkit::fuzz::fuzzInput(data, size));                                                \
    return 0;                                                                                      \
  }                                                                                                \
  extern "C" size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t maxSize);                  \
  extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t maxSize,            \
                                            unsigned seed) {                                       \
    static const auto shape = fxkit::fuzz::inputShapeOf(NAME);                                     \
    return fxkit::fuzz::mutateStructured(shape, data, size, maxSize, seed, LLVMFuzzerMutate);      \
  }
