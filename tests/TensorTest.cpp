#include "ir/Tensor.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

using namespace fxkit;

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

/// A contiguous float32 tensor holding 0, 1, 2, ... in row-major order.
Tensor iota(std::vector<int64_t> sizes, DType dtype = DType::Float32) {
  Tensor t = *Tensor::zeros(dtype, std::move(sizes));
  for (int64_t i = 0; i < t.numel(); ++i)
    t.storeDouble(i, static_cast<double>(i));
  return t;
}

Tensor fromValues(std::vector<int64_t> sizes, const std::vector<double> &values,
                  DType dtype = DType::Float32) {
  Tensor t = *Tensor::zeros(dtype, std::move(sizes));
  for (size_t i = 0; i < values.size(); ++i)
    t.storeDouble(static_cast<int64_t>(i), values[i]);
  return t;
}

} // namespace

//===----------------------------------------------------------------------===//
// float16 / bfloat16
//===----------------------------------------------------------------------===//

TEST(Half, ExactValuesAndRounding) {
  EXPECT_EQ(floatToHalfBits(0.0f), 0x0000);
  EXPECT_EQ(floatToHalfBits(-0.0f), 0x8000);
  EXPECT_EQ(floatToHalfBits(1.0f), 0x3c00);
  EXPECT_EQ(floatToHalfBits(-2.0f), 0xc000);
  EXPECT_EQ(floatToHalfBits(0.1f), 0x2e66);
  EXPECT_EQ(floatToHalfBits(65504.0f), 0x7bff); // largest half
  EXPECT_EQ(floatToHalfBits(65519.0f), 0x7bff); // below the tie
  EXPECT_EQ(floatToHalfBits(65520.0f), 0x7c00); // tie, odd mantissa: up to infinity
  EXPECT_EQ(floatToHalfBits(1e10f), 0x7c00);
  EXPECT_EQ(floatToHalfBits(kInf), 0x7c00);
  EXPECT_EQ(floatToHalfBits(-kInf), 0xfc00);
  // Ties to even between 1 and 1 + 2^-10, and between 1 + 2^-10 and 1 + 2^-9.
  EXPECT_EQ(floatToHalfBits(1.0f + 0x1p-11f), 0x3c00);
  EXPECT_EQ(floatToHalfBits(1.0f + 3 * 0x1p-11f), 0x3c02);
  EXPECT_EQ(floatToHalfBits(std::nextafter(1.0f + 0x1p-11f, 2.0f)), 0x3c01);
  // A mantissa carry bumps the exponent: just below 2 rounds to 2.
  EXPECT_EQ(floatToHalfBits(std::nextafter(2.0f, 0.0f)), 0x4000);
}

TEST(Half, Subnormals) {
  EXPECT_EQ(floatToHalfBits(0x1p-24f), 0x0001); // smallest subnormal
  EXPECT_EQ(floatToHalfBits(-0x1p-24f), 0x8001);
  EXPECT_EQ(floatToHalfBits(0x1p-25f), 0x0000); // tie with zero: even is zero
  EXPECT_EQ(floatToHalfBits(std::nextafter(0x1p-25f, 1.0f)), 0x0001);
  EXPECT_EQ(floatToHalfBits(3 * 0x1p-25f), 0x0002);       // tie between 1 and 2 units: even
  EXPECT_EQ(floatToHalfBits(5 * 0x1p-25f), 0x0002);       // tie between 2 and 3 units: even
  EXPECT_EQ(floatToHalfBits(1023 * 0x1p-24f), 0x03ff);    // largest subnormal
  EXPECT_EQ(floatToHalfBits(1023.5f * 0x1p-24f), 0x0400); // rounds up to the smallest normal
  EXPECT_EQ(floatToHalfBits(0x1p-14f), 0x0400);
  EXPECT_EQ(floatToHalfBits(1e-30f), 0x0000);
  EXPECT_EQ(floatToHalfBits(std::numeric_limits<float>::denorm_min()), 0x0000);
  EXPECT_EQ(halfBitsToFloat(0x0001), 0x1p-24f);
  EXPECT_EQ(halfBitsToFloat(0x03ff), 1023 * 0x1p-24f);
  EXPECT_EQ(halfBitsToFloat(0x8200), -512 * 0x1p-24f);
}

TEST(Half, NanAndInfinity) {
  EXPECT_TRUE(std::isnan(halfBitsToFloat(floatToHalfBits(std::nanf("")))));
  uint16_t nanBits = floatToHalfBits(-std::numeric_limits<float>::quiet_NaN());
  EXPECT_EQ(nanBits & 0x7c00, 0x7c00);
  EXPECT_NE(nanBits & 0x3ff, 0);
  EXPECT_EQ(nanBits & 0x8000, 0x8000);
  // A signalling NaN whose payload is all in the dropped low bits must not become infinity.
  float snan = std::bit_cast<float>(0x7f800001u);
  EXPECT_TRUE(std::isnan(halfBitsToFloat(floatToHalfBits(snan))));
  EXPECT_EQ(halfBitsToFloat(0x7c00), kInf);
  EXPECT_EQ(halfBitsToFloat(0xfc00), -kInf);
  EXPECT_TRUE(std::isnan(halfBitsToFloat(0x7c01)));
}

TEST(Half, EveryHalfRoundTrips) {
  for (uint32_t b = 0; b <= 0xffff; ++b) {
    uint16_t bits = static_cast<uint16_t>(b);
    float f = halfBitsToFloat(bits);
    uint32_t exp = (b >> 10) & 0x1f, mant = b & 0x3ff;
    if (exp == 31 && mant != 0) {
      EXPECT_TRUE(std::isnan(f)) << std::hex << b;
      continue;
    }
    // Independent decoding with ldexp.
    double expected = exp == 0    ? std::ldexp(mant, -24)
                      : exp == 31 ? INFINITY
                                  : std::ldexp(1024 + mant, static_cast<int>(exp) - 25);
    if (b & 0x8000)
      expected = -expected;
    ASSERT_EQ(f, static_cast<float>(expected)) << std::hex << b;
    ASSERT_EQ(floatToHalfBits(f), bits) << std::hex << b;
  }
}

#ifdef __FLT16_MANT_DIG__
TEST(Half, MatchesCompilerFloat16OnAFloatSweep) {
  // The compiler's _Float16 conversion (libgcc, round to nearest even) as an oracle over a
  // sweep of float bit patterns that crosses every exponent.
  for (uint64_t x = 0; x <= 0xffffffffull; x += 997) {
    float f = std::bit_cast<float>(static_cast<uint32_t>(x));
    if (std::isnan(f))
      continue;
    _Float16 h = static_cast<_Float16>(f);
    uint16_t want;
    std::memcpy(&want, &h, 2);
    ASSERT_EQ(floatToHalfBits(f), want) << std::hex << x;
  }
}
#endif

TEST(BFloat16, ExactValuesAndRounding) {
  EXPECT_EQ(floatToBFloat16Bits(1.0f), 0x3f80);
  EXPECT_EQ(floatToBFloat16Bits(-1.0f), 0xbf80);
  EXPECT_EQ(floatToBFloat16Bits(0.0f), 0x0000);
  EXPECT_EQ(floatToBFloat16Bits(-0.0f), 0x8000);
  EXPECT_EQ(floatToBFloat16Bits(1.0f + 0x1p-8f), 0x3f80);     // tie: even
  EXPECT_EQ(floatToBFloat16Bits(1.0f + 3 * 0x1p-8f), 0x3f82); // tie: even (up)
  EXPECT_EQ(floatToBFloat16Bits(std::nextafter(1.0f + 0x1p-8f, 2.0f)), 0x3f81);
  EXPECT_EQ(floatToBFloat16Bits(std::numeric_limits<float>::max()), 0x7f80); // overflow
  EXPECT_EQ(floatToBFloat16Bits(kInf), 0x7f80);
  EXPECT_EQ(floatToBFloat16Bits(-kInf), 0xff80);
  EXPECT_EQ(floatToBFloat16Bits(std::nanf("")), 0x7fc0);
  EXPECT_EQ(floatToBFloat16Bits(std::bit_cast<float>(0x7f800001u)), 0x7fc0); // not infinity
  // Float subnormals stay subnormal and round like any other value.
  EXPECT_EQ(floatToBFloat16Bits(std::bit_cast<float>(0x00018000u)), 0x0002);
  EXPECT_EQ(floatToBFloat16Bits(std::bit_cast<float>(0x00008000u)), 0x0000);
  EXPECT_EQ(bfloat16BitsToFloat(0x3f80), 1.0f);
  EXPECT_EQ(bfloat16BitsToFloat(0x0001), std::bit_cast<float>(0x00010000u));
}

TEST(BFloat16, EveryBFloat16RoundTrips) {
  for (uint32_t b = 0; b <= 0xffff; ++b) {
    float f = bfloat16BitsToFloat(static_cast<uint16_t>(b));
    EXPECT_EQ(std::bit_cast<uint32_t>(f), b << 16);
    if (!std::isnan(f)) {
      ASSERT_EQ(floatToBFloat16Bits(f), b) << std::hex << b;
    }
  }
}

//===----------------------------------------------------------------------===//
// Tensor
//===----------------------------------------------------------------------===//

TEST(Tensor, ZerosAreContiguous) {
  Tensor t = *Tensor::zeros(DType::Float32, {2, 3, 4});
  EXPECT_EQ(t.numel(), 24);
  EXPECT_EQ(t.strides(), (std::vector<int64_t>{12, 4, 1}));
  EXPECT_TRUE(t.isContiguous());
  EXPECT_EQ(t.getDouble(std::vector<int64_t>{1, 2, 3}), 0.0);
  EXPECT_EQ(t.typeOf().str(), "f32[2, 3, 4][12, 4, 1]cpu");
  EXPECT_EQ(Tensor::zeros(DType::Int64, {})->numel(), 1);
  EXPECT_EQ(Tensor::zeros(DType::Bool, {3, 0})->numel(), 0);
  Expected<Tensor> bad = Tensor::zeros(DType::Float32, {2, -1});
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("negative size"), std::string::npos);
  EXPECT_FALSE(Tensor::zeros(DType::Float32, {int64_t(1) << 40, int64_t(1) << 40}));
}

TEST(Tensor, TypeOfUsesTheDevice) {
  Tensor t = *Tensor::zeros(DType::BFloat16, {2, 3});
  EXPECT_EQ(t.typeOf(*Device::parse("cuda:0")).str(), "bf16[2, 3][3, 1]cuda:0");
  Tensor tr = *t.asStrided({3, 2}, {1, 3}, 0);
  EXPECT_EQ(tr.typeOf().str(), "bf16[3, 2][1, 3]cpu");
}

TEST(Tensor, FromBytesChecksTheSize) {
  std::vector<float> values = {1.5f, -2.0f, 3.25f, 0.0f};
  auto bytes = std::as_bytes(std::span(values));
  Tensor t = *Tensor::fromBytes(DType::Float32, {2, 2}, bytes);
  EXPECT_EQ(t.getDouble(std::vector<int64_t>{1, 0}), 3.25);
  Expected<Tensor> bad = Tensor::fromBytes(DType::Float32, {3}, bytes);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("needs 12 bytes, got 16"), std::string::npos);
}

TEST(Tensor, StridedViewsShareStorage) {
  Tensor base = iota({2, 3});
  // Transpose: [3, 2] with strides [1, 3].
  Tensor tr = *base.asStrided({3, 2}, {1, 3}, 0);
  EXPECT_FALSE(tr.isContiguous());
  EXPECT_TRUE(tr.sharesStorageWith(base));
  EXPECT_EQ(tr.getDouble(std::vector<int64_t>{2, 1}), 5.0);
  EXPECT_EQ(tr.getDouble(std::vector<int64_t>{1, 0}), 1.0);
  tr.setDouble(std::vector<int64_t>{0, 1}, 42.0);
  EXPECT_EQ(base.getDouble(std::vector<int64_t>{1, 0}), 42.0);
  // Storage offset: the last row.
  Tensor row = *base.asStrided({3}, {1}, 3);
  EXPECT_EQ(row.getDouble(std::vector<int64_t>{0}), 42.0);
  EXPECT_EQ(row.getDouble(std::vector<int64_t>{2}), 5.0);
  EXPECT_TRUE(row.isContiguous());
  // Size-1 dimensions may have any stride and still be contiguous.
  EXPECT_TRUE(base.asStrided({1, 3}, {99, 1}, 0)->isContiguous());
}

TEST(Tensor, ExpandedViewsUseStrideZero) {
  Tensor base = iota({3});
  Tensor ex = *base.asStrided({4, 3}, {0, 1}, 0);
  EXPECT_EQ(ex.numel(), 12);
  EXPECT_FALSE(ex.isContiguous());
  for (int64_t i = 0; i < 4; ++i)
    for (int64_t j = 0; j < 3; ++j)
      EXPECT_EQ(ex.getDouble(std::vector<int64_t>{i, j}), static_cast<double>(j));
  Tensor c = ex.contiguous();
  EXPECT_TRUE(c.isContiguous());
  EXPECT_FALSE(c.sharesStorageWith(base));
  EXPECT_EQ(c.strides(), (std::vector<int64_t>{3, 1}));
  EXPECT_EQ(c.storage()->size(), 12u * 4);
  EXPECT_EQ(c.getDouble(std::vector<int64_t>{3, 2}), 2.0);
  EXPECT_TRUE(c.bitwiseEqual(ex));
  c.setDouble(std::vector<int64_t>{0, 0}, 7.0); // the copy is independent
  EXPECT_EQ(base.getDouble(std::vector<int64_t>{0}), 0.0);
  EXPECT_FALSE(c.bitwiseEqual(ex));
}

TEST(Tensor, ContiguousOfATransposeAndAnOffsetView) {
  Tensor base = iota({2, 3}, DType::Int64);
  Tensor c = base.asStrided({3, 2}, {1, 3}, 0)->contiguous();
  std::vector<int64_t> want = {0, 3, 1, 4, 2, 5};
  for (int64_t i = 0; i < 6; ++i)
    EXPECT_EQ(c.loadInt(i), want[i]);
  Tensor tail = base.asStrided({2}, {2}, 1)->contiguous(); // elements 1 and 3
  EXPECT_EQ(tail.storageOffset(), 0);
  EXPECT_EQ(tail.loadInt(0), 1);
  EXPECT_EQ(tail.loadInt(1), 3);
  EXPECT_EQ(tail.bytes().size(), 16u);
  // 0-d and empty tensors.
  Tensor s = *Tensor::scalar(DType::Float64, 2.5);
  EXPECT_EQ(s.contiguous().getDouble({}), 2.5);
  EXPECT_EQ(Tensor::zeros(DType::Float32, {0, 4})->contiguous().numel(), 0);
}

TEST(Tensor, AsStridedRejectsOutOfRangeViews) {
  Tensor base = iota({6});
  Expected<Tensor> past = base.asStrided({3}, {1}, 4);
  ASSERT_FALSE(past);
  EXPECT_NE(past.error().message.find("reaches element 6 of a storage of 6 elements"),
            std::string::npos);
  EXPECT_FALSE(base.asStrided({2}, {-1}, 1));
  EXPECT_FALSE(base.asStrided({2}, {1}, -1));
  EXPECT_FALSE(base.asStrided({2, 2}, {1}, 0));
  EXPECT_FALSE(base.asStrided({2, int64_t(1) << 62}, {1, 4}, 0));
  EXPECT_TRUE(base.asStrided({0}, {1}, 6)); // no elements: nothing is read
  EXPECT_TRUE(base.asStrided({0}, {1}, 100)->bytes().empty());
  EXPECT_TRUE(base.asStrided({2, 3}, {3, 1}, 0));
}

TEST(Tensor, IntegerAndBoolAccess) {
  Tensor i64 = *Tensor::zeros(DType::Int64, {2});
  int64_t big = (int64_t(1) << 60) + 1; // not representable in double
  i64.setInt(std::vector<int64_t>{0}, big);
  EXPECT_EQ(i64.getInt(std::vector<int64_t>{0}), big);
  i64.setDouble(std::vector<int64_t>{1}, -2.9); // truncates toward zero
  EXPECT_EQ(i64.getInt(std::vector<int64_t>{1}), -2);
  i64.setDouble(std::vector<int64_t>{1}, 1e30); // saturates
  EXPECT_EQ(i64.getInt(std::vector<int64_t>{1}), std::numeric_limits<int64_t>::max());
  i64.setDouble(std::vector<int64_t>{1}, NAN);
  EXPECT_EQ(i64.getInt(std::vector<int64_t>{1}), 0);

  Tensor i32 = *Tensor::zeros(DType::Int32, {1});
  i32.setInt(std::vector<int64_t>{0}, (int64_t(1) << 32) + 5); // wraps like a C++ cast
  EXPECT_EQ(i32.getInt(std::vector<int64_t>{0}), 5);
  i32.setDouble(std::vector<int64_t>{0}, -1e20);
  EXPECT_EQ(i32.getInt(std::vector<int64_t>{0}), std::numeric_limits<int32_t>::min());

  Tensor b = *Tensor::zeros(DType::Bool, {2});
  b.setDouble(std::vector<int64_t>{0}, 0.5);
  b.setBool(std::vector<int64_t>{1}, false);
  EXPECT_TRUE(b.getBool(std::vector<int64_t>{0}));
  EXPECT_EQ(b.getInt(std::vector<int64_t>{0}), 1);
  EXPECT_FALSE(b.getBool(std::vector<int64_t>{1}));
  EXPECT_EQ(static_cast<uint8_t>(b.bytes()[0]), 1); // stored as PyTorch does: one byte 0/1

  Tensor f = *Tensor::zeros(DType::Float32, {1});
  f.setDouble(std::vector<int64_t>{0}, -3.7);
  EXPECT_EQ(f.getInt(std::vector<int64_t>{0}), -3);
}

TEST(Tensor, ReducedPrecisionStoresRound) {
  Tensor h = *Tensor::zeros(DType::Float16, {3});
  h.storeDouble(0, 0.1);
  h.storeDouble(1, 70000.0);
  h.storeDouble(2, 1e-8);
  EXPECT_EQ(h.loadDouble(0), static_cast<double>(halfBitsToFloat(0x2e66)));
  EXPECT_EQ(h.loadDouble(1), INFINITY);
  EXPECT_EQ(h.loadDouble(2), 0.0);
  Tensor bf = *Tensor::zeros(DType::BFloat16, {1});
  bf.storeDouble(0, 1.0 + 1.0 / 128 + 1.0 / 256); // halfway between 1+2^-7 and 1+2^-6: even
  EXPECT_EQ(bf.loadDouble(0), 1.0 + 1.0 / 64);
}

TEST(Tensor, ConvertsBetweenDTypes) {
  Tensor f = fromValues({4}, {1.7, -1.7, 0.0, 300.0});
  Tensor i = *f.to(DType::Int32);
  EXPECT_EQ(i.dtype(), DType::Int32);
  EXPECT_EQ(i.loadInt(0), 1);
  EXPECT_EQ(i.loadInt(1), -1);
  Tensor b = *f.to(DType::Bool);
  EXPECT_EQ(b.loadInt(0), 1);
  EXPECT_EQ(b.loadInt(2), 0);
  Tensor h = *f.to(DType::Float16);
  EXPECT_EQ(h.loadDouble(3), 300.0);
  Expected<Tensor> bad = f.to(DType::Complex64);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("complex64 is not supported"), std::string::npos);
}

TEST(Tensor, ComputableDTypes) {
  for (DType d : {DType::Float32, DType::Float16, DType::BFloat16, DType::Float64, DType::Int64,
                  DType::Int32, DType::Int16, DType::Int8, DType::UInt8, DType::Bool})
    EXPECT_TRUE(checkComputable(d, "op"));
  Status st = checkComputable(DType::Complex64, "aten.add.Tensor");
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().message.substr(0, 43), "aten.add.Tensor: dtype complex64 is not sup");
  // Narrow integers wrap on store, as C++ and PyTorch casts do.
  Tensor u8 = *Tensor::zeros(DType::UInt8, {2});
  u8.storeInt(0, 257);
  u8.storeDouble(1, -1);
  EXPECT_EQ(u8.loadInt(0), 1);
  EXPECT_EQ(u8.loadInt(1), 255);
  // Byte-level operations work for every dtype.
  Tensor c = *Tensor::zeros(DType::Complex64, {2, 2});
  EXPECT_EQ(c.asStrided({2, 2}, {1, 2}, 0)->contiguous().bytes().size(), 32u);
}

TEST(Tensor, ForEachIndexOrder) {
  std::vector<std::vector<int64_t>> seen;
  std::vector<int64_t> sizes = {2, 2};
  Tensor::forEachIndex(
      sizes, [&](std::span<const int64_t> idx) { seen.emplace_back(idx.begin(), idx.end()); });
  EXPECT_EQ(seen, (std::vector<std::vector<int64_t>>{{0, 0}, {0, 1}, {1, 0}, {1, 1}}));
  int calls = 0;
  Tensor::forEachIndex({}, [&](std::span<const int64_t> idx) { calls += idx.empty(); });
  EXPECT_EQ(calls, 1);
  std::vector<int64_t> empty = {3, 0};
  Tensor::forEachIndex(empty, [&](std::span<const int64_t>) { ++calls; });
  EXPECT_EQ(calls, 1);
}

//===----------------------------------------------------------------------===//
// compareTensors
//===----------------------------------------------------------------------===//

TEST(Compare, ToleranceIsAtolPlusRtolTimesExpected) {
  Tensor e = fromValues({3}, {1.0, 100.0, 0.0});
  Tensor a = fromValues({3}, {1.0005, 100.05, 0.0005});
  TensorComparison r = *compareTensors(a, e, 1e-3, 1e-3);
  EXPECT_TRUE(r.allClose) << r.str();
  EXPECT_EQ(r.mismatches, 0);
  EXPECT_NEAR(r.maxAbsError, 0.05, 1e-5);
  EXPECT_EQ(r.maxRelError, INFINITY); // 0.0005 against an expected 0
  TensorComparison tight = *compareTensors(a, e, 1e-4, 1e-4);
  EXPECT_FALSE(tight.allClose);
  EXPECT_EQ(tight.mismatches, 3);
  EXPECT_EQ(tight.firstMismatch, (std::vector<int64_t>{0}));
  EXPECT_NE(tight.str().find("3 elements not close, first at [0]"), std::string::npos)
      << tight.str();
  // rtol alone scales with |expected|.
  EXPECT_TRUE(compareTensors(a, e, 1e-3, 0)->mismatches == 1); // only the zero fails
}

TEST(Compare, NanAndInfinity) {
  Tensor e = fromValues({4}, {NAN, INFINITY, -INFINITY, 1.0});
  EXPECT_TRUE(compareTensors(e, e, 0, 0)->allClose);
  Tensor nanElsewhere = fromValues({4}, {1.0, INFINITY, -INFINITY, NAN});
  TensorComparison r = *compareTensors(nanElsewhere, e, 1, 1);
  EXPECT_FALSE(r.allClose);
  EXPECT_EQ(r.mismatches, 2);
  EXPECT_EQ(r.maxAbsError, INFINITY);
  Tensor flipped = fromValues({4}, {NAN, -INFINITY, -INFINITY, 1.0});
  EXPECT_EQ(compareTensors(flipped, e, 1, 1)->mismatches, 1);
  Tensor finite = fromValues({4}, {NAN, 1e300, -INFINITY, 1.0}, DType::Float64);
  Tensor e64 = fromValues({4}, {NAN, INFINITY, -INFINITY, 1.0}, DType::Float64);
  EXPECT_EQ(compareTensors(finite, e64, 1e10, 1e10)->mismatches, 1); // inf is matched only by inf
}

TEST(Compare, IntegersAndBoolsAreExact) {
  Tensor e = fromValues({3}, {1, 2, 3}, DType::Int64);
  Tensor a = fromValues({3}, {1, 2, 4}, DType::Int64);
  TensorComparison r = *compareTensors(a, e, 1.0, 10.0); // tolerances do not apply
  EXPECT_FALSE(r.allClose);
  EXPECT_EQ(r.mismatches, 1);
  EXPECT_EQ(r.maxAbsError, 1.0);
  EXPECT_NEAR(r.maxRelError, 1.0 / 3, 1e-12);
  Tensor b1 = fromValues({2}, {1, 0}, DType::Bool), b2 = fromValues({2}, {1, 1}, DType::Bool);
  EXPECT_EQ(compareTensors(b1, b2, 1, 1)->mismatches, 1);
  EXPECT_TRUE(compareTensors(b1, b1, 0, 0)->allClose);
}

TEST(Compare, StridedActualAgainstContiguousExpected) {
  Tensor base = iota({2, 3});
  Tensor tr = *base.asStrided({3, 2}, {1, 3}, 0);
  EXPECT_TRUE(compareTensors(tr, tr.contiguous(), 0, 0)->allClose);
}

TEST(Compare, RejectsMismatchedTensors) {
  Tensor a = iota({2, 3});
  Expected<TensorComparison> shape = compareTensors(a, iota({3, 2}), 0, 0);
  ASSERT_FALSE(shape);
  EXPECT_EQ(shape.error().message, "compareTensors: sizes [2, 3] differ from the expected [3, 2]");
  Expected<TensorComparison> dtype = compareTensors(a, iota({2, 3}, DType::Float64), 0, 0);
  ASSERT_FALSE(dtype);
  EXPECT_NE(dtype.error().message.find("float32 differs from the expected float64"),
            std::string::npos);
  // Complex tensors compare part by part, as their [..., 2] float view.
  Tensor c = *Tensor::zeros(DType::Complex128, {2});
  Tensor d = *Tensor::zeros(DType::Complex128, {2});
  d.storeComplex(1, {0, 0.5});
  EXPECT_TRUE(compareTensors(c, c, 0, 0)->allClose);
  TensorComparison cd = *compareTensors(d, c, 0, 0.1);
  EXPECT_EQ(cd.mismatches, 1);
  EXPECT_EQ(cd.firstMismatch, (std::vector<int64_t>{1, 1})); // the imaginary part of element 1
}

//===----------------------------------------------------------------------===//
// Random fill
//===----------------------------------------------------------------------===//

TEST(Random, DeterministicPerSeed) {
  for (DType d : {DType::Float32, DType::Float16, DType::BFloat16, DType::Float64, DType::Int64,
                  DType::Int32, DType::Bool}) {
    Tensor a = *Tensor::random(d, {5, 7}, 1234);
    Tensor b = *Tensor::random(d, {5, 7}, 1234);
    Tensor c = *Tensor::random(d, {5, 7}, 1235);
    EXPECT_TRUE(a.bitwiseEqual(b)) << dtypeName(d);
    EXPECT_FALSE(a.bitwiseEqual(c)) << dtypeName(d);
  }
}

TEST(Random, Distributions) {
  Tensor f = *Tensor::random(DType::Float64, {20000}, 7);
  double sum = 0, sq = 0;
  for (int64_t i = 0; i < f.numel(); ++i) {
    sum += f.loadDouble(i);
    sq += f.loadDouble(i) * f.loadDouble(i);
  }
  double mean = sum / f.numel();
  EXPECT_NEAR(mean, 0.0, 0.05);
  EXPECT_NEAR(sq / f.numel() - mean * mean, 1.0, 0.05);

  Tensor i = *Tensor::random(DType::Int32, {1000}, 7, -3, 3);
  bool sawLow = false, sawHigh = false;
  for (int64_t k = 0; k < i.numel(); ++k) {
    int64_t v = i.loadInt(k);
    ASSERT_GE(v, -3);
    ASSERT_LE(v, 3);
    sawLow |= v == -3;
    sawHigh |= v == 3;
  }
  EXPECT_TRUE(sawLow && sawHigh);

  Tensor b = *Tensor::random(DType::Bool, {1000}, 7);
  int64_t ones = 0;
  for (int64_t k = 0; k < b.numel(); ++k)
    ones += b.loadInt(k);
  EXPECT_GT(ones, 400);
  EXPECT_LT(ones, 600);
}

TEST(Random, FillsOnlyTheView) {
  Tensor base = *Tensor::zeros(DType::Float32, {2, 4});
  Tensor col = *base.asStrided({2}, {4}, 1); // column 1
  ASSERT_TRUE(fillRandom(col, 99));
  for (int64_t k = 0; k < 8; ++k)
    EXPECT_EQ(base.loadDouble(k) != 0, k == 1 || k == 5) << k;
  Tensor c = *Tensor::zeros(DType::Complex64, {2});
  Status st = fillRandom(c, 1);
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message.find("fillRandom: dtype complex64"), std::string::npos);
  EXPECT_FALSE(fillRandom(base, 1, 5, 4));
}
