/// The FFT op family (ir/ops/FftOps.cpp, backends/interp/FftKernels.cpp) and complex tensors:
/// inference against torch/_meta_registrations.py (sizes, complex/real dtypes, _exec_fft
/// strides, PyTorch's errors), reference kernels against hand-worked DFTs (every normalization,
/// onesided or not, several dims, strided inputs, float64), round trips r2c -> c2r and c2c
/// forward -> backward, view_as_real/view_as_complex aliasing, complex values through the text
/// formats and safetensors. FftLoweringTest compiles graphs with FFTs for the other backends.

#include "FftTestSupport.h"
#include "InterpreterTestSupport.h"
#include "exporters/FxTextPrinter.h"
#include "exporters/ReadablePyPrinter.h"
#include "exporters/json/FxkitJsonWriter.h"
#include "exporters/json/SafetensorsWriter.h"
#include "importers/ReadablePyParser.h"
#include "importers/json/FxkitJsonReader.h"
#include "importers/json/Safetensors.h"
#include "transforms/ShapeInference.h"

#include <gtest/gtest.h>

#include <cmath>
#include <complex>

using namespace fxkit;
using namespace fxkit::testing;

namespace {

using Complex = std::complex<double>;

std::string inferOne(const std::vector<std::string> &inputs, const std::string &call) {
  return inferredValue(
      inputs, "    %r : [num_users=1] = call_function[target=torch.ops.aten." + call + "\n", "r");
}

void expectInferError(const std::vector<std::string> &inputs, const std::string &call,
                      const std::string &part) {
  std::string got = inferOne(inputs, call);
  EXPECT_EQ(got.rfind("error: ", 0), 0u) << got;
  EXPECT_NE(got.find(part), std::string::npos) << got;
}

void expectComplex(const Tensor &t, const std::vector<Complex> &want, double tol = 1e-5) {
  std::vector<Complex> got = complexValues(t);
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_NEAR(got[i].real(), want[i].real(), tol * (1 + std::abs(want[i]))) << "element " << i;
    EXPECT_NEAR(got[i].imag(), want[i].imag(), tol * (1 + std::abs(want[i]))) << "element " << i;
  }
}

Tensor complexTensor(std::vector<int64_t> sizes, const std::vector<Complex> &values,
                     DType dtype = DType::Complex64) {
  Tensor t = *Tensor::zeros(dtype, sizes);
  for (size_t i = 0; i < values.size(); ++i)
    t.storeComplex(static_cast<int64_t>(i), values[i]);
  return t;
}

std::string call(const std::string &target, const std::string &args) {
  return "torch.ops.aten." + target + "](args = (" + args + "), kwargs = {})";
}

/// The naive DFT of a 1-d complex sequence (sign -1 forward).
std::vector<Complex> naiveDft(const std::vector<Complex> &x, int sign) {
  const size_t n = x.size();
  std::vector<Complex> out(n);
  for (size_t k = 0; k < n; ++k)
    for (size_t j = 0; j < n; ++j)
      out[k] += x[j] * std::polar(1.0, sign * 2 * M_PI * double(j * k) / double(n));
  return out;
}

// ---- Inference ----

TEST(FftOps, R2cInference) {
  EXPECT_EQ(inferOne({"f32[4][1]cpu"}, "_fft_r2c.default](args = (%a, [0], 0, True), kwargs = {})"),
            "c64[3][1]cpu");
  EXPECT_EQ(
      inferOne({"f32[4][1]cpu"}, "_fft_r2c.default](args = (%a, [0], 2, False), kwargs = {})"),
      "c64[4][1]cpu");
  EXPECT_EQ(inferOne({"f64[s0, 7][7, 1]cpu"},
                     "_fft_r2c.default](args = (%a, [0, -1], 1, True), kwargs = {})"),
            "c128[s0, 4][4, 1]cpu");
  // Onesided halves the last dim listed, and the result is contiguous whatever the input.
  EXPECT_EQ(inferOne({"f32[6, 5][1, 6]cpu"},
                     "_fft_r2c.default](args = (%a, [1, 0], 0, True), kwargs = {})"),
            "c64[4, 5][5, 1]cpu");
  expectInferError({"i64[4][1]cpu"}, "_fft_r2c.default](args = (%a, [0], 0, True), kwargs = {})",
                   "Expected self.is_floating_point() to be true, but got false.");
  expectInferError({"f16[4][1]cpu"}, "_fft_r2c.default](args = (%a, [0], 0, True), kwargs = {})",
                   "Unsupported dtype Half");
  expectInferError({"f32[4][1]cpu"}, "_fft_r2c.default](args = (%a, [1], 0, True), kwargs = {})",
                   "dimension 1 out of range for a tensor of rank 1");
  expectInferError({"f32[4][1]cpu"}, "_fft_r2c.default](args = (%a, [0], 3, True), kwargs = {})",
                   "normalization must be 0");
  expectInferError({"f32[4][1]cpu"}, "_fft_r2c.default](args = (%a, [], 0, True), kwargs = {})",
                   "at least one dimension");
}

TEST(FftOps, C2cAndC2rInferenceFollowExecFftStrides) {
  // Batch dims first in decreasing input stride order, then the transformed dims, densely.
  EXPECT_EQ(
      inferOne({"c64[3, 4][1, 3]cpu"}, "_fft_c2c.default](args = (%a, [0], 0, True), kwargs = {})"),
      "c64[3, 4][1, 3]cpu");
  EXPECT_EQ(
      inferOne({"c64[3, 4][1, 3]cpu"}, "_fft_c2c.default](args = (%a, [1], 0, True), kwargs = {})"),
      "c64[3, 4][4, 1]cpu");
  EXPECT_EQ(inferOne({"c128[2, 3, 4][12, 4, 1]cpu"},
                     "_fft_c2c.default](args = (%a, [0, 2], 2, False), kwargs = {})"),
            "c128[2, 3, 4][4, 8, 1]cpu");
  // No dims: a clone (preserve_format).
  EXPECT_EQ(
      inferOne({"c64[3, 4][1, 3]cpu"}, "_fft_c2c.default](args = (%a, [], 0, True), kwargs = {})"),
      "c64[3, 4][1, 3]cpu");
  EXPECT_EQ(
      inferOne({"c64[2, 3][3, 1]cpu"}, "_fft_c2r.default](args = (%a, [1], 0, 4), kwargs = {})"),
      "f32[2, 4][4, 1]cpu");
  EXPECT_EQ(inferOne({"c128[3, 5][5, 1]cpu"},
                     "_fft_c2r.default](args = (%a, [0, 1], 2, 8), kwargs = {})"),
            "f64[3, 8][8, 1]cpu");
  EXPECT_EQ(
      inferOne({"c64[5, s0][s0, 1]cpu"}, "_fft_c2r.default](args = (%a, [0], 0, 8), kwargs = {})"),
      "f32[8, s0][1, 8]cpu");
  expectInferError({"f32[4][1]cpu"}, "_fft_c2c.default](args = (%a, [0], 0, True), kwargs = {})",
                   "Expected self.is_complex() to be true, but got false.");
  expectInferError({"f32[4][1]cpu"}, "_fft_c2r.default](args = (%a, [0], 0, 6), kwargs = {})",
                   "Expected self.is_complex() to be true, but got false.");
  expectInferError({"c64[4][1]cpu"}, "_fft_c2r.default](args = (%a, [0], 0, 0), kwargs = {})",
                   "Invalid number of data points (0) specified");
}

TEST(FftOps, ViewAsRealAndComplexInference) {
  EXPECT_EQ(inferOne({"c64[2, 3][3, 1]cpu"}, "view_as_real.default](args = (%a,), kwargs = {})"),
            "f32[2, 3, 2][6, 2, 1]cpu");
  EXPECT_EQ(inferOne({"c128[3, 2][1, 3]cpu"}, "view_as_real.default](args = (%a,), kwargs = {})"),
            "f64[3, 2, 2][2, 6, 1]cpu");
  EXPECT_EQ(
      inferOne({"f32[2, 3, 2][6, 2, 1]cpu"}, "view_as_complex.default](args = (%a,), kwargs = {})"),
      "c64[2, 3][3, 1]cpu");
  expectInferError({"f32[2, 3][3, 1]cpu"}, "view_as_complex.default](args = (%a,), kwargs = {})",
                   "Tensor must have a last dimension of size 2");
  expectInferError({"f32[3, 2][1, 3]cpu"}, "view_as_complex.default](args = (%a,), kwargs = {})",
                   "Tensor must have a last dimension with stride 1");
  expectInferError({"f32[3, 2][3, 1]cpu"}, "view_as_complex.default](args = (%a,), kwargs = {})",
                   "Tensor must have a stride divisible by 2 for all but last dimension");
  expectInferError({"i32[3, 2][2, 1]cpu"}, "view_as_complex.default](args = (%a,), kwargs = {})",
                   "but got a tensor of scalar type: Int");
  expectInferError({"f32[3][1]cpu"}, "view_as_real.default](args = (%a,), kwargs = {})",
                   "view_as_real is only supported for complex tensors");
}

TEST(FftOps, OtherOpsRefuseComplex) {
  // Complex flows only through views and the FFT family; add on complex is refused at
  // inference rather than computed wrongly.
  expectInferError({"c64[3][1]cpu", "c64[3][1]cpu"}, "add.Tensor](args = (%a, %b), kwargs = {})",
                   "unsupported dtype complex64");
  expectInferError({"f32[3][1]cpu"},
                   "_to_copy.default](args = (%a,), kwargs = {dtype: torch.complex64})",
                   "unsupported result dtype complex64");
  // A view keeps the dtype.
  EXPECT_EQ(inferOne({"c64[2, 3][3, 1]cpu"}, "permute.default](args = (%a, [1, 0]), kwargs = {})"),
            "c64[3, 2][1, 3]cpu");
}

// ---- Kernels: hand-worked values ----

TEST(FftOps, R2cOfOneTwoThreeFour) {
  Tensor x = fromValues({4}, {1, 2, 3, 4});
  // X[k] = sum_j x[j] e^{-2 pi i jk/4}: 10, -2+2i, -2, -2-2i.
  expectComplex(runCall(call("_fft_r2c.default", "%a, [0], 0, True"), {x}),
                {{10, 0}, {-2, 2}, {-2, 0}});
  expectComplex(runCall(call("_fft_r2c.default", "%a, [0], 0, False"), {x}),
                {{10, 0}, {-2, 2}, {-2, 0}, {-2, -2}});
  expectComplex(runCall(call("_fft_r2c.default", "%a, [0], 1, True"), {x}),
                {{5, 0}, {-1, 1}, {-1, 0}});
  expectComplex(runCall(call("_fft_r2c.default", "%a, [-1], 2, False"), {x}),
                {{2.5, 0}, {-0.5, 0.5}, {-0.5, 0}, {-0.5, -0.5}});
  // Odd length: 3 bins of 5. DFT of [1, 0, 0, 0, 0] is all ones.
  expectComplex(
      runCall(call("_fft_r2c.default", "%a, [0], 0, True"), {fromValues({5}, {1, 0, 0, 0, 0})}),
      {{1, 0}, {1, 0}, {1, 0}});
  Tensor r = runCall(call("_fft_r2c.default", "%a, [0], 0, True"), {x});
  EXPECT_EQ(r.dtype(), DType::Complex64);
}

TEST(FftOps, R2cSeveralDimsAndStridedInput) {
  Tensor x = fromValues({2, 2}, {1, 2, 3, 4});
  // 2-d DFT: X00 = 10, X01 = (1-2)+(3-4) = -2, X10 = (1+2)-(3+4) = -4, X11 = 1-2-3+4 = 0.
  expectComplex(runCall(call("_fft_r2c.default", "%a, [0, 1], 0, True"), {x}),
                {{10, 0}, {-2, 0}, {-4, 0}, {0, 0}});
  // A transposed view: rows [1, 3] and [2, 4], each transformed along dim 1.
  expectComplex(runCall(call("_fft_r2c.default", "%a, [1], 0, True"), {permuted(x, {1, 0})}),
                {{4, 0}, {-2, 0}, {6, 0}, {-2, 0}});
  // Along dim 0 only: columns [1, 3] and [2, 4] -> result [[4, 6], [-2, -2]].
  expectComplex(runCall(call("_fft_r2c.default", "%a, [0], 0, False"), {x}),
                {{4, 0}, {6, 0}, {-2, 0}, {-2, 0}});
}

TEST(FftOps, R2cFloat64AgreesWithNaiveDft) {
  Tensor x = *Tensor::random(DType::Float64, {3, 6}, 11);
  Tensor r = runCall(call("_fft_r2c.default", "%a, [1], 1, False"), {x});
  EXPECT_EQ(r.dtype(), DType::Complex128);
  std::vector<Complex> want;
  for (int64_t i = 0; i < 3; ++i) {
    std::vector<Complex> row;
    for (int64_t j = 0; j < 6; ++j)
      row.emplace_back(x.getDouble(std::vector<int64_t>{i, j}), 0);
    for (Complex c : naiveDft(row, -1))
      want.push_back(c / std::sqrt(6.0));
  }
  expectComplex(r, want, 1e-12);
}

TEST(FftOps, C2cForwardBackward) {
  Tensor x = complexTensor({4}, {{1, 1}, {2, 0}, {0, -1}, {3, 2}});
  std::vector<Complex> in = complexValues(x);
  expectComplex(runCall(call("_fft_c2c.default", "%a, [0], 0, True"), {x}), naiveDft(in, -1));
  std::vector<Complex> back = naiveDft(in, 1);
  for (Complex &c : back)
    c /= 4.0;
  expectComplex(runCall(call("_fft_c2c.default", "%a, [0], 2, False"), {x}), back);
  // forward then backward with 1/n is the identity.
  std::string g = "graph():\n"
                  "    %a : [num_users=1] = placeholder[target=a]\n"
                  "    %f : [num_users=1] = call_function[target=torch.ops.aten._fft_c2c.default]"
                  "(args = (%a, [0], 0, True), kwargs = {})\n"
                  "    %r : [num_users=1] = call_function[target=torch.ops.aten._fft_c2c.default]"
                  "(args = (%f, [0], 2, False), kwargs = {})\n"
                  "    return (r,)\n";
  expectComplex(runSingle(g, {x}), in);
  // No dims: a copy.
  expectComplex(runCall(call("_fft_c2c.default", "%a, [], 1, True"), {x}), in);
}

TEST(FftOps, C2rOfAHalfSpectrum) {
  // The half spectrum of [1, 2, 3, 4]; the imaginary parts of bins 0 and n/2 do not matter.
  Tensor half = complexTensor({3}, {{10, 7}, {-2, 2}, {-2, 5}});
  expectValues(runCall(call("_fft_c2r.default", "%a, [0], 2, 4"), {half}), {1, 2, 3, 4});
  expectValues(runCall(call("_fft_c2r.default", "%a, [0], 0, 4"), {half}), {4, 8, 12, 16});
  expectValues(runCall(call("_fft_c2r.default", "%a, [0], 1, 4"), {half}), {2, 4, 6, 8});
  // last_dim_size 5 reads the same 3 bins as an odd signal: x[m] = (10 + 2 Re((-2+2i) w^m)
  // + 2 Re((-2+5i) w^2m)) / 5, w = e^{2 pi i / 5}.
  std::vector<double> want;
  for (int m = 0; m < 5; ++m) {
    Complex w1 = std::polar(1.0, 2 * M_PI * m / 5), w2 = std::polar(1.0, 4 * M_PI * m / 5);
    want.push_back((10 + 2 * (Complex(-2, 2) * w1).real() + 2 * (Complex(-2, 5) * w2).real()) / 5);
  }
  expectValues(runCall(call("_fft_c2r.default", "%a, [0], 2, 5"), {half}), want);
  std::string e = runCallError(call("_fft_c2r.default", "%a, [0], 2, 8"), {half});
  EXPECT_NE(e.find("last_dim_size 8 needs 5 bins along dim 0, the input has 3"), std::string::npos)
      << e;
}

TEST(FftOps, R2cThenC2rRoundTrips) {
  for (int64_t n : {8, 7}) {
    for (DType dtype : {DType::Float32, DType::Float64}) {
      Tensor x = *Tensor::random(dtype, {3, n, 4}, 5 + n);
      std::string d = dtype == DType::Float32 ? "f32" : "f64";
      std::string g =
          "graph():\n"
          "    %a : [num_users=1] = placeholder[target=a]\n"
          "    %f : [num_users=1] = call_function[target=torch.ops.aten._fft_r2c.default]"
          "(args = (%a, [0, 1], 0, True), kwargs = {})\n"
          "    %r : [num_users=1] = call_function[target=torch.ops.aten._fft_c2r.default]"
          "(args = (%f, [0, 1], 2, " +
          std::to_string(n) + "), kwargs = {})\n    return (r,)\n";
      Tensor r = runSingle(g, {x});
      EXPECT_EQ(r.dtype(), dtype);
      // c2r over dims [0, 1] of a [3, n/2+1, 4] spectrum: batch dim 2 first.
      EXPECT_EQ(r.strides(), (std::vector<int64_t>{n, 1, 3 * n}));
      expectValues(r, flat(x), dtype == DType::Float32 ? 1e-5 : 1e-12);
    }
  }
}

TEST(FftOps, ViewAsRealAliasesAndViewAsComplexReadsBack) {
  Tensor x = fromValues({4}, {1, 2, 3, 4});
  std::string g = "graph():\n"
                  "    %a : [num_users=1] = placeholder[target=a]\n"
                  "    %f : [num_users=1] = call_function[target=torch.ops.aten._fft_r2c.default]"
                  "(args = (%a, [0], 0, True), kwargs = {})\n"
                  "    %r : [num_users=1] = call_function[target=torch.ops.aten.view_as_real."
                  "default](args = (%f,), kwargs = {})\n"
                  "    return (r,)\n";
  Tensor r = runSingle(g, {x});
  EXPECT_EQ(r.dtype(), DType::Float32);
  EXPECT_EQ(r.sizes(), (std::vector<int64_t>{3, 2}));
  expectValues(r, {10, 0, -2, 2, -2, 0});
  Tensor c = runCall(call("view_as_complex.default", "%a"), {r});
  expectComplex(c, {{10, 0}, {-2, 2}, {-2, 0}});
  EXPECT_TRUE(c.sharesStorageWith(r));
  // A view at an odd float offset cannot be complex.
  Tensor odd = *fromValues({5}, {0, 1, 2, 3, 4}).asStrided({2, 2}, {2, 1}, 1);
  std::string e = runCallError(call("view_as_complex.default", "%a"), {odd});
  EXPECT_NE(e.find("Tensor must have a storage_offset divisible by 2"), std::string::npos) << e;
}

// ---- Formats ----

TEST(FftOps, ComplexValuesRoundTripThroughTheTextFormats) {
  auto g = parseFxText(kComplexFftGraph);
  ASSERT_TRUE(g) << g.error().str();
  ASSERT_TRUE(inferShapes(*g)); // the annotations agree with inference
  FxTextOptions typed;
  typed.tensorTypes = true;
  std::string fx = printFxText(*g, typed);
  EXPECT_NE(fx.find("\"c64[2, 5][5, 1]cpu\""), std::string::npos) << fx;
  auto fromFx = parseFxText(fx);
  ASSERT_TRUE(fromFx);
  EXPECT_EQ(printFxText(*fromFx, typed), fx);
  auto fromJson = parseFxkitJson(printFxkitJson(*g));
  ASSERT_TRUE(fromJson) << fromJson.error().str();
  EXPECT_EQ(printFxText(*fromJson, typed), fx);
  std::string py = printReadablePy(*g);
  EXPECT_NE(py.find("\"c64[2, 5]"), std::string::npos) << py;
  auto fromPy = parseReadablePy(py);
  ASSERT_TRUE(fromPy) << fromPy.error().str();
  EXPECT_EQ(fromPy->find("_fft_r2c")->value().tensor()->dtype, DType::Complex64);
}

TEST(FftOps, Complex64RoundTripsThroughSafetensors) {
  SafetensorsFile file;
  file.tensors.emplace_back("c", complexTensor({2}, {{1.5, -2}, {0, 3.25}}));
  auto bytes = serializeSafetensors(file);
  ASSERT_TRUE(bytes) << bytes.error().str();
  EXPECT_NE(bytes->find("\"C64\""), std::string::npos);
  auto back = parseSafetensors(*bytes, "<mem>");
  ASSERT_TRUE(back) << back.error().str();
  ASSERT_EQ(back->tensors.size(), 1u);
  EXPECT_EQ(back->tensors[0].second.dtype(), DType::Complex64);
  expectComplex(back->tensors[0].second, {{1.5, -2}, {0, 3.25}}, 0);
  // The format has no complex128 code (safetensors' Dtype stops at C64).
  EXPECT_FALSE(safetensorsDTypeCode(DType::Complex128));
}

} // namespace
