/// Graphs with complex tensors and FFTs compiled for the loop interpreter, OpenCL and LLVM:
/// lowering turns every op that reads or produces a complex tensor (the FFTs, view_as_real,
/// view_as_complex) into an extern call of its reference kernel, and the float ops between
/// them stay loop kernels; every backend agrees with the reference interpreter.

#include "InterpreterTestSupport.h"
#include "backends/interp/LoopInterpreter.h"
#include "transforms/Fusion.h"
#include "transforms/Lowering.h"
#include "transforms/MemoryPlanning.h"
#include "transforms/ShapeInference.h"
#include "transforms/SizeArgs.h"
#ifdef FXKIT_HAVE_OPENCL
#include "backends/opencl/runtime/OpenCLDevice.h"
#include "backends/opencl/runtime/OpenCLProgram.h"
#endif
#ifdef FXKIT_HAVE_LLVM
#include "backends/llvm/LLVMProgram.h"
#endif

#include <gtest/gtest.h>

#include <complex>
#include <filesystem>

using namespace fxkit;
using namespace fxkit::testing;
namespace fs = std::filesystem;

namespace {

using Complex = std::complex<double>;

std::vector<Complex> complexValues(const Tensor &t) {
  std::vector<Complex> out;
  Tensor::forEachIndex(t.sizes(), [&](std::span<const int64_t> index) {
    out.push_back(t.loadComplex(t.offsetOf(index)));
  });
  return out;
}

void expectComplex(const Tensor &t, const std::vector<Complex> &want, double tol) {
  std::vector<Complex> got = complexValues(t);
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i)
    EXPECT_LE(std::abs(got[i] - want[i]), tol * (1 + std::abs(want[i]))) << "element " << i;
}

const char *kComplexGraph =
    "graph():\n"
    "    %x : Tensor \"f32[2, 8][8, 1]cpu\"[num_users=1] = placeholder[target=x]\n"
    "    %_fft_r2c : Tensor \"c64[2, 5][5, 1]cpu\"[num_users=1] = "
    "call_function[target=torch.ops.aten._fft_r2c.default](args = (%x, [1], 1, True), "
    "kwargs = {})\n"
    "    %view_as_real : Tensor \"f32[2, 5, 2][10, 2, 1]cpu\"[num_users=1] = "
    "call_function[target=torch.ops.aten.view_as_real.default](args = (%_fft_r2c,), kwargs = "
    "{})\n"
    "    %mul : Tensor \"f32[2, 5, 2][10, 2, 1]cpu\"[num_users=1] = "
    "call_function[target=torch.ops.aten.mul.Tensor](args = (%view_as_real, 2), kwargs = {})\n"
    "    %view_as_complex : Tensor \"c64[2, 5][5, 1]cpu\"[num_users=1] = "
    "call_function[target=torch.ops.aten.view_as_complex.default](args = (%mul,), kwargs = "
    "{})\n"
    "    %_fft_c2r : Tensor \"f32[2, 8][8, 1]cpu\"[num_users=1] = "
    "call_function[target=torch.ops.aten._fft_c2r.default](args = (%view_as_complex, [1], 1, "
    "8), kwargs = {})\n"
    "    return (_fft_c2r, _fft_r2c)\n";

// ---- Compiled backends: complex ops become extern calls ----

#ifdef FXKIT_HAVE_OPENCL
opencl::OpenCLContext *context() {
  static std::unique_ptr<opencl::OpenCLContext> ctx = [] {
    std::unique_ptr<opencl::OpenCLContext> out;
    auto device = opencl::selectDevice("");
    if (!device)
      return out;
    auto c = opencl::OpenCLContext::create(*device);
    if (c)
      out = c.take();
    return out;
  }();
  return ctx.get();
}
#endif

TEST(FftLowering, ComplexOpsRunAsExternsOnEveryBackend) {
  registerReferenceKernels();
  auto g = parseFxText(kComplexGraph);
  ASSERT_TRUE(g);
  ASSERT_TRUE(inferShapes(*g));
  auto program = lowerGraph(*g);
  ASSERT_TRUE(program) << program.error().str();
  int externs = 0;
  for (const loop::LoopOp &op : program->ops)
    externs += op.kind == loop::LoopOpKind::Extern;
  EXPECT_EQ(externs, 4); // r2c, view_as_real, view_as_complex, c2r; mul is a loop kernel
  auto fused = fuseLoopProgram(*program);
  ASSERT_TRUE(fused) << fused.error().str();
  hoistSizeArgs(*program, *fused);
  auto plan = planMemory(*program, *fused);
  ASSERT_TRUE(plan) << plan.error().str();

  Tensor x = *Tensor::random(DType::Float32, {2, 8}, 3);
  std::vector<RuntimeValue> inputs = {RuntimeValue{x}};
  auto ref = interpretGraph(*g, inputs);
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
  auto check = [&](const std::string &backend, const InterpretResult &r) {
    ASSERT_EQ(r.outputs.size(), 2u) << backend;
    expectValues(*r.outputs[0].tensor(), flat(*ref->outputs[0].tensor()), 1e-5);
    expectComplex(*r.outputs[1].tensor(), complexValues(*ref->outputs[1].tensor()), 1e-6);
  };
  auto loops = interpretLoopProgram(*program, *fused, inputs);
  ASSERT_TRUE(loops) << loops.error().str();
  check("loops", *loops);
  fs::path cache = fs::temp_directory_path() / "fxkit-fft-test-cache";
#ifdef FXKIT_HAVE_OPENCL
  if (!context()) {
    ADD_FAILURE() << "no OpenCL device (install pocl-opencl-icd)";
  } else {
    opencl::OpenCLOptions options;
    options.cacheDir = cache.string();
    options.tune = false;
    auto cl = opencl::OpenCLProgram::load(*context(), *program, *fused, *plan, options);
    ASSERT_TRUE(cl) << cl.error().str();
    auto r = (*cl)->run(inputs);
    ASSERT_TRUE(r) << r.error().str();
    check("opencl", *r);
  }
#endif
#ifdef FXKIT_HAVE_LLVM
  llvmjit::LLVMOptions options;
  options.cacheDir = cache.string();
  auto jit = llvmjit::LLVMProgram::load(*program, *fused, *plan, options);
  ASSERT_TRUE(jit) << jit.error().str();
  auto r = (*jit)->run(inputs);
  ASSERT_TRUE(r) << r.error().str();
  check("llvm", *r);
#endif
  fs::remove_all(cache);
}

} // namespace
