/// Graphs with complex tensors and FFTs compiled for the loop interpreter, OpenCL and LLVM:
/// lowering turns every op that reads or produces a complex tensor (the FFTs, view_as_real,
/// view_as_complex) into an extern call of its reference kernel, and the float ops between
/// them stay loop kernels; every backend agrees with the reference interpreter.

#include "CompileTestSupport.h"
#include "FftTestSupport.h"
#include "InterpreterTestSupport.h"
#include "backends/interp/LoopInterpreter.h"

#include <gtest/gtest.h>

#include <complex>

using namespace fxkit;
using namespace fxkit::testing;

namespace {

using Complex = std::complex<double>;

void expectComplex(const Tensor &t, const std::vector<Complex> &want, double tol) {
  std::vector<Complex> got = complexValues(t);
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i)
    EXPECT_LE(std::abs(got[i] - want[i]), tol * (1 + std::abs(want[i]))) << "element " << i;
}

// ---- Compiled backends: complex ops become extern calls ----

TEST(FftLowering, ComplexOpsRunAsExternsOnEveryBackend) {
  registerReferenceKernels();
  Compiled c;
  ASSERT_TRUE(compile(kComplexFftGraph, c));
  int externs = 0;
  for (const loop::LoopOp &op : c.program.ops)
    externs += op.kind == loop::LoopOpKind::Extern;
  EXPECT_EQ(externs, 4); // r2c, view_as_real, view_as_complex, c2r; mul is a loop kernel

  Tensor x = *Tensor::random(DType::Float32, {2, 8}, 3);
  std::vector<RuntimeValue> inputs = {RuntimeValue{x}};
  auto ref = interpretGraph(c.graph, inputs);
  ASSERT_TRUE(ref) << ref.error().str();
  // c2r(2 * r2c(x)) with 1/sqrt(n) both ways is 2x.
  expectValues(
      *ref->outputs[0].tensor(),
      [&] {
        std::vector<double> v = flat(x);
        for (double &e : v)
          e *= 2;
        return v;
      }(),
      1e-5);
  runOnEveryLoopBackend(
      c, inputs, {}, [&](const std::string &backend, Expected<InterpretResult> r) {
        ASSERT_TRUE(r) << backend << ": " << r.error().str();
        ASSERT_EQ(r->outputs.size(), 2u) << backend;
        expectValues(*r->outputs[0].tensor(), flat(*ref->outputs[0].tensor()), 1e-5);
        expectComplex(*r->outputs[1].tensor(), complexValues(*ref->outputs[1].tensor()), 1e-6);
      });
}

} // namespace
