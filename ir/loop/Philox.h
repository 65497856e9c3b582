#pragma once
/// \file Counter-based random numbers as Inductor compiles them: Philox-4x32 with 10 rounds
/// (Random123; Triton's `tl.randint4x`), the uniform and normal conversions of
/// triton/language/random.py and Inductor's `triton_helpers.randint64`. The one C++ home of
/// the algorithm: the loop interpreter (ScalarOps.def's rand, randn, randint64) and the
/// reference kernels of the random ops call it; the OpenCL C prelude
/// (backends/opencl/codegen/OpenCLKernelGen.cpp, also compiled by the LLVM backend) and the
/// Python wrapper prelude (exporters/wrapper/PyKernelWriter.cpp) spell the same steps, and
/// tests/RandomOpsTest.cpp checks that all of them give the same bits.
///
/// A value is a pure function of (seed, offset): the seed is split into the two 32-bit keys
/// (low word first), the counter is (offset as uint32, 0, 0, 0), as Inductor's
/// `ops.rand(seed, offset)` truncates its int32 offset to uint32.

#include <array>
#include <cmath>
#include <cstdint>
#include <string_view>

namespace fxkit::loop::philox {

/// Philox-4x32-10 of counter (c0, c1, c2, c3) under key (k0, k1), exactly as Triton's
/// philox_impl: each round multiplies c0 and c2, mixes the high halves with c1, c3 and the
/// key, and raises the key by the Weyl constants.
constexpr std::array<uint32_t, 4> philox4x32(uint32_t c0, uint32_t c1, uint32_t c2, uint32_t c3,
                                             uint32_t k0, uint32_t k1) {
  constexpr uint64_t kRoundA = 0xD2511F53u, kRoundB = 0xCD9E8D57u;
  constexpr uint32_t kKeyA = 0x9E3779B9u, kKeyB = 0xBB67AE85u;
  for (int round = 0; round < 10; ++round) {
    const uint64_t p0 = kRoundA * c0, p2 = kRoundB * c2;
    const uint32_t n0 = static_cast<uint32_t>(p2 >> 32) ^ c1 ^ k0;
    const uint32_t n2 = static_cast<uint32_t>(p0 >> 32) ^ c3 ^ k1;
    c1 = static_cast<uint32_t>(p2);
    c3 = static_cast<uint32_t>(p0);
    c0 = n0;
    c2 = n2;
    k0 += kKeyA;
    k1 += kKeyB;
  }
  return {c0, c1, c2, c3};
}

/// tl.randint4x(seed, offset): the four words for one element.
constexpr std::array<uint32_t, 4> randint4x(uint64_t seed, uint32_t offset) {
  return philox4x32(offset, 0, 0, 0, static_cast<uint32_t>(seed),
                    static_cast<uint32_t>(seed >> 32));
}

/// Triton's uint_to_uniform_float for 32-bit words: the word as int32, negatives folded
/// (-x - 1), times the largest float scale that keeps INT32_MAX below 1 (float arithmetic).
constexpr float uniformFloat(uint32_t word) {
  int32_t x = static_cast<int32_t>(word);
  if (x < 0)
    x = -(x + 1); // -x - 1 without overflow at INT32_MIN
  return static_cast<float>(x) * 4.6566127342e-10f;
}

/// tl.rand(seed, offset): uniform float32 in [0, 1).
constexpr float rand(uint64_t seed, uint32_t offset) {
  return uniformFloat(randint4x(seed, offset)[0]);
}

/// tl.randn(seed, offset): Box-Muller of the first two words (pair_uniform_to_normal's first
/// result): u1 clamped to at least 1e-7 and th = 2 pi u2 in float as Triton does, then
/// sqrt(-2 log u1) cos th evaluated in double and rounded to float once. Triton takes log and
/// cos in float through the device's library (not reproducible across libraries); the double
/// evaluation makes every fxkit backend (C++, OpenCL, LLVM, torch) agree bit for bit, except
/// where two libraries' double results straddle a float rounding boundary (about 2^-28 of the
/// values).
inline float randn(uint64_t seed, uint32_t offset) {
  const std::array<uint32_t, 4> w = randint4x(seed, offset);
  float u1 = uniformFloat(w[0]);
  const float u2 = uniformFloat(w[1]);
  u1 = u1 < 1.0e-7f ? 1.0e-7f : u1;
  const float th = 6.283185307179586f * u2;
  const double r = std::sqrt(-2.0 * std::log(static_cast<double>(u1)));
  return static_cast<float>(r * std::cos(static_cast<double>(th)));
}

/// Inductor's triton_helpers.randint64(seed, offset, low, high) less `low`: words 0 and 1 as
/// one uint64 (word 1 high) modulo `size` = high - low (as uint64); the caller adds low.
/// A size of 0 gives 0 (the op's inference refuses an empty range first).
constexpr int64_t randint64(uint64_t seed, uint32_t offset, int64_t size) {
  const std::array<uint32_t, 4> w = randint4x(seed, offset);
  const uint64_t bits = static_cast<uint64_t>(w[0]) | (static_cast<uint64_t>(w[1]) << 32);
  const uint64_t n = static_cast<uint64_t>(size);
  return n == 0 ? 0 : static_cast<int64_t>(bits % n);
}

/// The seed fxkit gives a random node of a graph when no seeds buffer supplies one (aten.rand,
/// randn, native_dropout, and the seeds prims.inductor_seeds draws): the FNV-1a hash of the
/// node's name, cut to 53 bits so that it is exact in the double the loop interpreter holds
/// values in. A program's random values are therefore fixed per node, the same on every
/// backend and every run (not PyTorch's generator stream).
constexpr int64_t nodeSeed(std::string_view name, uint64_t salt = 0) {
  uint64_t h = 0xcbf29ce484222325ull ^ salt;
  for (char c : name)
    h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ull;
  h ^= h >> 29; // mix the high bits into the kept ones
  return static_cast<int64_t>(h & ((uint64_t(1) << 53) - 1));
}

/// Seeds as double-held loop values: the int64 seed back from a double (exact below 2^53).
inline uint64_t seedOf(double v) { return static_cast<uint64_t>(static_cast<int64_t>(v)); }
/// An offset as a double-held loop value, truncated to uint32 as Inductor's `.to(tl.uint32)`.
inline uint32_t offsetOf(double v) {
  return static_cast<uint32_t>(static_cast<uint64_t>(static_cast<int64_t>(v)));
}

} // namespace fxkit::loop::philox
