/// Gathers lowered to loops (transforms/lowering/IndexingLowering.cpp): embedding, gather,
/// index_select, index.Tensor and _unsafe_index.Tensor become one pointwise op whose loads go
/// through indirect indices. The loop program has no extern op left; every backend (loop
/// interpreter, OpenCL, LLVM) agrees with the reference kernels on chosen indices (negative
/// ones, broadcast index tensors, non-adjacent indexed dims, computed sources that inlining
/// recomputes at the gathered point, transposed views); an index out of range is an error, and
/// only advanced indexing takes negative indices (embedding, gather and index_select reject them,
/// as eager does).

#include "InterpreterTestSupport.h"
#include "backends/interp/LoopInterpreter.h"
#include "tests/gen/Differential.h"
#include "transforms/Fusion.h"
#include "transforms/Lowering.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace fxkit;
using namespace fxkit::testing;

namespace {

/// The loop program of `text` (types inferred).
loop::LoopProgram lowered(const std::string &text) {
  auto graph = parseFxText(text, "<test>");
  EXPECT_TRUE(graph) << (graph ? "" : graph.error().str());
  EXPECT_TRUE(inferShapes(*graph));
  auto program = lowerGraph(*graph);
  EXPECT_TRUE(program) << (program ? "" : program.error().str());
  return program ? program.take() : loop::LoopProgram{};
}

/// Checks that `text` lowers without extern ops and with `indirect` indirect indices, and that
/// every backend agrees with the reference interpreter on `inputs`.
void expectGatherAgrees(const std::string &text, const std::vector<RuntimeValue> &inputs,
                        int indirect) {
  SCOPED_TRACE(text);
  loop::LoopProgram p = lowered(text);
  int externs = 0, found = 0;
  for (const loop::LoopOp &op : p.ops) {
    externs += op.kind == loop::LoopOpKind::Extern;
    for (const loop::ScalarInstr &in : op.body)
      found += in.op == loop::ScalarOp::IndirectIndex;
  }
  EXPECT_EQ(externs, 0) << p.str();
  EXPECT_EQ(found, indirect) << p.str();
  DifferentialOptions options;
  options.inputs = &inputs;
  options.llvm = true;
  auto failure = checkGraphDifferentially(text, {}, options);
  EXPECT_FALSE(failure) << diffStageName(failure->stage) << ": " << failure->message;
}

Tensor iota(std::vector<int64_t> sizes, DType dtype = DType::Float32) {
  int64_t n = 1;
  for (int64_t s : sizes)
    n *= s;
  std::vector<double> v;
  for (int64_t i = 0; i < n; ++i)
    v.push_back(static_cast<double>(i) * 0.5 - 3);
  return fromValues(std::move(sizes), v, dtype);
}

TEST(IndexingLowering, EmbeddingGathersRowsAndFusesWithItsReader) {
  std::string text = R"(graph():
    %w : Tensor "f32[6, 4][4, 1]cpu"[num_users=1] = placeholder[target=w]
    %i : Tensor "i64[2, 3][3, 1]cpu"[num_users=1] = placeholder[target=i]
    %e : [num_users=1] = call_function[target=torch.ops.aten.embedding.default](args = (%w, %i), kwargs = {})
    %r : [num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%e, 2.0), kwargs = {})
    return (r,)
)";
  std::vector<RuntimeValue> inputs{
      RuntimeValue{iota({6, 4})},
      RuntimeValue{fromValues({2, 3}, {0, 5, 5, 2, 2, 0}, DType::Int64)}};
  expectGatherAgrees(text, inputs, 1);
  // By hand: element 2 is row 5.
  Tensor out = runSingle(text, {*inputs[0].tensor(), *inputs[1].tensor()});
  std::vector<double> row5 = {14, 15, 16, 17}; // 2 * (20..23 * 0.5 - 3)
  std::vector<double> got = flat(out);
  for (int k = 0; k < 4; ++k)
    EXPECT_EQ(got[2 * 4 + k], row5[k]);
}

TEST(IndexingLowering, GatherAndIndexSelectOnEveryDimAndInt32Indices) {
  std::string gather = R"(graph():
    %x : Tensor "f32[3, 5][5, 1]cpu"[num_users=1] = placeholder[target=x]
    %i : Tensor "i64[3, 2][2, 1]cpu"[num_users=1] = placeholder[target=i]
    %g : [num_users=1] = call_function[target=torch.ops.aten.gather.default](args = (%x, 1, %i), kwargs = {})
    return (g,)
)";
  expectGatherAgrees(gather,
                     {RuntimeValue{iota({3, 5})},
                      RuntimeValue{fromValues({3, 2}, {4, 0, 1, 2, 3, 3}, DType::Int64)}},
                     1);
  std::string gather0 = R"(graph():
    %x : Tensor "f32[4, 3][3, 1]cpu"[num_users=1] = placeholder[target=x]
    %i : Tensor "i64[2, 3][3, 1]cpu"[num_users=1] = placeholder[target=i]
    %g : [num_users=1] = call_function[target=torch.ops.aten.gather.default](args = (%x, 0, %i), kwargs = {})
    return (g,)
)";
  expectGatherAgrees(gather0,
                     {RuntimeValue{iota({4, 3})},
                      RuntimeValue{fromValues({2, 3}, {3, 0, 1, 0, 2, 2}, DType::Int64)}},
                     1);
  std::string select = R"(graph():
    %x : Tensor "f32[3, 4, 2][8, 2, 1]cpu"[num_users=1] = placeholder[target=x]
    %i : Tensor "i32[5][1]cpu"[num_users=1] = placeholder[target=i]
    %s : [num_users=1] = call_function[target=torch.ops.aten.index_select.default](args = (%x, -2, %i), kwargs = {})
    return (s,)
)";
  expectGatherAgrees(
      select,
      {RuntimeValue{iota({3, 4, 2})}, RuntimeValue{fromValues({5}, {3, 0, 2, 1, 1}, DType::Int32)}},
      1);
}

TEST(IndexingLowering, AdvancedIndexingBroadcastsAndMovesNonAdjacentDimsFirst) {
  // x[:, i, j] with i [2, 1] and j [3] broadcast to [2, 3]: adjacent, result [4, 2, 3, 2].
  std::string adjacent = R"(graph():
    %x : Tensor "f32[4, 3, 5, 2][30, 10, 2, 1]cpu"[num_users=1] = placeholder[target=x]
    %i : Tensor "i64[2, 1][1, 1]cpu"[num_users=1] = placeholder[target=i]
    %j : Tensor "i64[3][1]cpu"[num_users=1] = placeholder[target=j]
    %r : [num_users=1] = call_function[target=torch.ops.aten.index.Tensor](args = (%x, [None, %i, %j]), kwargs = {})
    return (r,)
)";
  expectGatherAgrees(adjacent,
                     {RuntimeValue{iota({4, 3, 5, 2})},
                      RuntimeValue{fromValues({2, 1}, {2, -3}, DType::Int64)},
                      RuntimeValue{fromValues({3}, {4, 0, -2}, DType::Int64)}},
                     2);
  // x[i, :, j]: not adjacent, the broadcast dims come first: result [3, 3, 2].
  std::string apart = R"(graph():
    %x : Tensor "f32[4, 3, 5, 2][30, 10, 2, 1]cpu"[num_users=1] = placeholder[target=x]
    %i : Tensor "i64[3][1]cpu"[num_users=1] = placeholder[target=i]
    %j : Tensor "i64[3][1]cpu"[num_users=1] = placeholder[target=j]
    %r : [num_users=1] = call_function[target=torch.ops.aten._unsafe_index.Tensor](args = (%x, [%i, None, %j]), kwargs = {})
    return (r,)
)";
  expectGatherAgrees(apart,
                     {RuntimeValue{iota({4, 3, 5, 2})},
                      RuntimeValue{fromValues({3}, {3, 1, -4}, DType::Int64)},
                      RuntimeValue{fromValues({3}, {0, 4, 2}, DType::Int64)}},
                     2);
}

TEST(IndexingLowering, ComputedAndTransposedSourcesAreReadAtTheGatheredPoint) {
  // The source is a pointwise result (inlined and recomputed at the gathered row) read through
  // a transpose; the index is itself computed (i + 1).
  std::string text = R"(graph():
    %x : Tensor "f32[4, 6][6, 1]cpu"[num_users=1] = placeholder[target=x]
    %i : Tensor "i64[5][1]cpu"[num_users=1] = placeholder[target=i]
    %e : [num_users=1] = call_function[target=torch.ops.aten.exp.default](args = (%x,), kwargs = {})
    %t : [num_users=1] = call_function[target=torch.ops.aten.t.default](args = (%e,), kwargs = {})
    %j : [num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%i, 1), kwargs = {})
    %r : [num_users=1] = call_function[target=torch.ops.aten.index.Tensor](args = (%t, [%j]), kwargs = {})
    %s : [num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%r, [1]), kwargs = {})
    return (s,)
)";
  expectGatherAgrees(
      text,
      {RuntimeValue{iota({4, 6})}, RuntimeValue{fromValues({5}, {0, 4, -2, 2, -6}, DType::Int64)}},
      1);
}

TEST(IndexingLowering, AnInlinedPaddingComputesItsMaskAtTheGatheredPoint) {
  // torch.roll of a padded row (misc_ops in the zoo): the pad's masks compare the gathered
  // coordinate (an index_expr of the indirect index once inlined into the index op).
  std::string text = R"(graph():
    %x : Tensor "f32[3, 6][6, 1]cpu"[num_users=1] = placeholder[target=x]
    %p : [num_users=1] = call_function[target=torch.ops.aten.constant_pad_nd.default](args = (%x, [1, 2]), kwargs = {})
    %r : [num_users=1] = call_function[target=torch.ops.prims.iota.default](args = (9,), kwargs = {start: 0, step: 1, dtype: torch.int64, device: cpu, requires_grad: False})
    %a : [num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%r, 7), kwargs = {})
    %f : [num_users=1] = call_function[target=torch.ops.aten.fmod.Scalar](args = (%a, 9), kwargs = {})
    %g : [num_users=1] = call_function[target=torch.ops.aten.index.Tensor](args = (%p, [None, %f]), kwargs = {})
    return (g,)
)";
  expectGatherAgrees(text, {RuntimeValue{iota({3, 6})}}, 1);
}

/// Checks that `text` lowers to a copy and a scatter (no extern op) and agrees everywhere.
void expectScatterAgrees(const std::string &text, const std::vector<RuntimeValue> &inputs) {
  SCOPED_TRACE(text);
  loop::LoopProgram p = lowered(text);
  int externs = 0, scatters = 0;
  for (const loop::LoopOp &op : p.ops) {
    externs += op.kind == loop::LoopOpKind::Extern;
    for (const loop::Store &s : op.stores)
      scatters += s.scatter;
  }
  EXPECT_EQ(externs, 0) << p.str();
  EXPECT_EQ(scatters, 1) << p.str();
  DifferentialOptions options;
  options.inputs = &inputs;
  options.llvm = true;
  auto failure = checkGraphDifferentially(text, {}, options);
  EXPECT_FALSE(failure) << diffStageName(failure->stage) << ": " << failure->message;
}

TEST(IndexingLowering, IndexPutAccumulatesDuplicatesAndItsReadersSeeTheScatter) {
  // Rows 1 and -3 (= 1) both add; the values broadcast over the rows; exp(x) is copied first
  // and the result's reader (mul) must run after the scatter, not fused into the copy.
  for (const char *dtype : {"f32", "f64", "i64"}) {
    bool integral = std::string(dtype) == "i64";
    std::string text = std::string(R"(graph():
    %x : Tensor ")") + dtype +
                       R"([4, 3][3, 1]cpu"[num_users=1] = placeholder[target=x]
    %i : Tensor "i64[3][1]cpu"[num_users=1] = placeholder[target=i]
    %v : Tensor ")" + dtype +
                       R"([3][1]cpu"[num_users=1] = placeholder[target=v]
    %e : [num_users=1] = call_function[target=torch.ops.aten.)" +
                       (integral ? "neg" : "exp") + R"(.default](args = (%x,), kwargs = {})
    %p : [num_users=1] = call_function[target=torch.ops.aten.index_put.default](args = (%e, [%i], %v, True), kwargs = {})
    %r : [num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%p, 2), kwargs = {})
    return (r,)
)";
    DType dt = std::string(dtype) == "f32"   ? DType::Float32
               : std::string(dtype) == "f64" ? DType::Float64
                                             : DType::Int64;
    expectScatterAgrees(text, {RuntimeValue{iota({4, 3}, dt)},
                               RuntimeValue{fromValues({3}, {1, -3, 3}, DType::Int64)},
                               RuntimeValue{fromValues({3}, {10, 20, 30}, dt)}});
  }
  // Replacing, with two index tensors (no duplicate points: which of two wins is unspecified).
  std::string put = R"(graph():
    %x : Tensor "f32[4, 3][3, 1]cpu"[num_users=1] = placeholder[target=x]
    %i : Tensor "i64[2][1]cpu"[num_users=1] = placeholder[target=i]
    %j : Tensor "i64[2][1]cpu"[num_users=1] = placeholder[target=j]
    %v : Tensor "f32[2][1]cpu"[num_users=1] = placeholder[target=v]
    %p : [num_users=1] = call_function[target=torch.ops.aten.index_put.default](args = (%x, [%i, %j], %v), kwargs = {})
    return (p,)
)";
  expectScatterAgrees(put, {RuntimeValue{iota({4, 3})},
                            RuntimeValue{fromValues({2}, {3, 0}, DType::Int64)},
                            RuntimeValue{fromValues({2}, {2, -1}, DType::Int64)},
                            RuntimeValue{fromValues({2}, {7, 8})}});
}

TEST(IndexingLowering, ScatterScatterValueAndScatterAdd) {
  std::vector<RuntimeValue> inputs{
      RuntimeValue{iota({3, 5})},
      RuntimeValue{fromValues({2, 3}, {4, 0, 2, 1, 3, 0}, DType::Int64)},
      RuntimeValue{iota({2, 4})}};
  std::string src = R"(graph():
    %x : Tensor "f32[3, 5][5, 1]cpu"[num_users=1] = placeholder[target=x]
    %i : Tensor "i64[2, 3][3, 1]cpu"[num_users=1] = placeholder[target=i]
    %s : Tensor "f32[2, 4][4, 1]cpu"[num_users=1] = placeholder[target=s]
    %r : [num_users=1] = call_function[target=torch.ops.aten.scatter.src](args = (%x, 1, %i, %s), kwargs = {})
    return (r,)
)";
  expectScatterAgrees(src, inputs);
  std::string value = R"(graph():
    %x : Tensor "f32[3, 5][5, 1]cpu"[num_users=1] = placeholder[target=x]
    %i : Tensor "i64[2, 3][3, 1]cpu"[num_users=1] = placeholder[target=i]
    %s : Tensor "f32[2, 4][4, 1]cpu"[num_users=0] = placeholder[target=s]
    %r : [num_users=1] = call_function[target=torch.ops.aten.scatter.value](args = (%x, 1, %i, -2.5), kwargs = {})
    return (r,)
)";
  expectScatterAgrees(value, inputs);
  // Along dim 0 the index [[4, 0, 2], [1, 3, 0]] would be out of range: use rows 0..2, with
  // duplicates that add.
  std::vector<RuntimeValue> rows{RuntimeValue{iota({3, 5})},
                                 RuntimeValue{fromValues({2, 3}, {2, 0, 2, 2, 1, 0}, DType::Int64)},
                                 RuntimeValue{iota({2, 4})}};
  std::string add = R"(graph():
    %x : Tensor "f32[3, 5][5, 1]cpu"[num_users=1] = placeholder[target=x]
    %i : Tensor "i64[2, 3][3, 1]cpu"[num_users=1] = placeholder[target=i]
    %s : Tensor "f32[2, 4][4, 1]cpu"[num_users=1] = placeholder[target=s]
    %r : [num_users=1] = call_function[target=torch.ops.aten.scatter_add.default](args = (%x, 0, %i, %s), kwargs = {})
    return (r,)
)";
  expectScatterAgrees(add, rows);
}

TEST(IndexingLowering, ScatterReduceCombinesWithAndWithoutSelf) {
  // Row 2 gets three values, rows 0 and 1 one or two; a NaN arrives at one point.
  std::vector<double> src;
  for (int i = 0; i < 8; ++i)
    src.push_back(i * 0.75 - 2);
  src[5] = NAN;
  for (const char *dtype : {"f32", "i64"})
    for (const char *reduce : {"sum", "prod", "amax", "amin"})
      for (const char *include : {"True", "False"}) {
        bool integral = std::string(dtype) == "i64";
        DType dt = integral ? DType::Int64 : DType::Float32;
        std::vector<double> values = src;
        if (integral)
          for (double &v : values)
            v = std::isnan(v) ? 3 : std::round(v * 2);
        std::vector<RuntimeValue> inputs{
            RuntimeValue{iota({3, 5}, dt)},
            RuntimeValue{fromValues({2, 3}, {2, 0, 2, 2, 1, 0}, DType::Int64)},
            RuntimeValue{fromValues({2, 4}, values, dt)}};
        if (integral)
          inputs[0] = RuntimeValue{
              fromValues({3, 5}, {1, 2, 3, 4, 5, -6, 7, 8, 9, 10, 11, 12, -3, 4, 5}, DType::Int64)};
        std::string text = std::string(R"(graph():
    %x : Tensor ")") + dtype +
                           R"([3, 5][5, 1]cpu"[num_users=1] = placeholder[target=x]
    %i : Tensor "i64[2, 3][3, 1]cpu"[num_users=1] = placeholder[target=i]
    %s : Tensor ")" + dtype +
                           R"([2, 4][4, 1]cpu"[num_users=1] = placeholder[target=s]
    %r : [num_users=1] = call_function[target=torch.ops.aten.scatter_reduce.two](args = (%x, 0, %i, %s, )" +
                           reduce + R"(), kwargs = {include_self: )" + include + R"(})
    return (r,)
)";
        SCOPED_TRACE(text);
        loop::LoopProgram p = lowered(text);
        int scatters = 0;
        for (const loop::LoopOp &op : p.ops)
          for (const loop::Store &st : op.stores)
            scatters += st.scatter;
        EXPECT_EQ(scatters, std::string(include) == "True" ? 1 : 2) << p.str();
        DifferentialOptions options;
        options.inputs = &inputs;
        options.llvm = true;
        auto failure = checkGraphDifferentially(text, {}, options);
        EXPECT_FALSE(failure) << diffStageName(failure->stage) << ": " << failure->message;
      }
}

TEST(IndexingLowering, MaskedScatterTakesSourceInOrderWhereTheMaskIsTrue) {
  // The mask broadcasts over self's rows; source has more elements than needed.
  std::string text = R"(graph():
    %x : Tensor "f32[3, 4][4, 1]cpu"[num_users=1] = placeholder[target=x]
    %m : Tensor "b8[4][1]cpu"[num_users=1] = placeholder[target=m]
    %s : Tensor "f32[2, 5][5, 1]cpu"[num_users=1] = placeholder[target=s]
    %r : [num_users=1] = call_function[target=torch.ops.aten.masked_scatter.default](args = (%x, %m, %s), kwargs = {})
    return (r,)
)";
  std::vector<RuntimeValue> inputs{RuntimeValue{iota({3, 4})},
                                   RuntimeValue{fromValues({4}, {1, 0, 1, 1}, DType::Bool)},
                                   RuntimeValue{iota({2, 5})}};
  SCOPED_TRACE(text);
  DifferentialOptions options;
  options.inputs = &inputs;
  options.llvm = true;
  auto failure = checkGraphDifferentially(text, {}, options);
  EXPECT_FALSE(failure) << diffStageName(failure->stage) << ": " << failure->message;
  Tensor out = runSingle(text, {*inputs[0].tensor(), *inputs[1].tensor(), *inputs[2].tensor()});
  std::vector<double> got = flat(out);
  // Row 1: source elements 3, 4, 5 at columns 0, 2, 3 (values k * 0.5 - 3); column 1 is self's.
  EXPECT_EQ(got[4], -1.5);
  EXPECT_EQ(got[5], -0.5);
  EXPECT_EQ(got[6], -1.0);
  EXPECT_EQ(got[7], -0.5);
}

TEST(IndexingLowering, EmbeddingBackwardAddsRowsExceptPadding) {
  // Index 2 three times (rows add), index 4 is padding_idx (its gradient is dropped).
  std::string text = R"(graph():
    %g : Tensor "f32[2, 3, 4][12, 4, 1]cpu"[num_users=1] = placeholder[target=g]
    %i : Tensor "i64[2, 3][3, 1]cpu"[num_users=1] = placeholder[target=i]
    %r : [num_users=1] = call_function[target=torch.ops.aten.embedding_dense_backward.default](args = (%g, %i, 6, 4, False), kwargs = {})
    return (r,)
)";
  std::vector<RuntimeValue> inputs{
      RuntimeValue{iota({2, 3, 4})},
      RuntimeValue{fromValues({2, 3}, {2, 0, 2, 4, 2, 5}, DType::Int64)}};
  expectScatterAgrees(text, inputs);
  Tensor out = runSingle(text, {*inputs[0].tensor(), *inputs[1].tensor()});
  std::vector<double> got = flat(out);
  // Row 2: grad rows 0, 2, 4 = (x*0.5 - 3 for x in 0..3, 8..11, 16..19) summed.
  EXPECT_EQ(got[2 * 4 + 0], -3 + 1 + 5);
  EXPECT_EQ(got[4 * 4 + 1], 0); // padding
}

TEST(IndexingLowering, GridSamplerEveryModePaddingAndAlignment) {
  // Grid points inside, on the corners and outside [-1, 1], a NaN and an infinity.
  std::vector<double> g;
  for (int i = 0; i < 2 * 3 * 4 * 2; ++i)
    g.push_back(std::sin(i * 1.7) * 1.3);
  g[0] = -1, g[1] = -1, g[2] = 1, g[3] = 1, g[4] = 0, g[5] = 0;
  g[10] = NAN;
  g[13] = INFINITY;
  std::vector<RuntimeValue> inputs{RuntimeValue{iota({2, 2, 4, 5})},
                                   RuntimeValue{fromValues({2, 3, 4, 2}, g)}};
  for (int mode = 0; mode < 3; ++mode)
    for (int padding = 0; padding < 3; ++padding)
      for (const char *align : {"False", "True"}) {
        std::string text = R"(graph():
    %x : Tensor "f32[2, 2, 4, 5][40, 20, 5, 1]cpu"[num_users=1] = placeholder[target=x]
    %g : Tensor "f32[2, 3, 4, 2][24, 8, 2, 1]cpu"[num_users=1] = placeholder[target=g]
    %r : [num_users=1] = call_function[target=torch.ops.aten.grid_sampler_2d.default](args = (%x, %g, )" +
                           std::to_string(mode) + ", " + std::to_string(padding) + ", " + align +
                           R"(), kwargs = {})
    return (r,)
)";
        expectGatherAgrees(text, inputs, mode == 0 ? 8 : mode == 1 ? 2 : 32);
      }
}

TEST(IndexingLowering, DiagonalScatterIsAMaskedLoadOnTheDiagonal) {
  // Dims 0 and 2 of a [4, 3, 5] tensor, offset 1 and -2 (src: dim 1, then the diagonal).
  for (const char *args : {"%x, %s, 1, 0, 2", "%x, %t, -2, 2, 0"}) {
    const std::string text =
        std::string("graph():\n"
                    "    %x : Tensor \"f32[4, 3, 5][15, 5, 1]cpu\"[num_users=1] = "
                    "placeholder[target=x]\n"
                    "    %s : Tensor \"f32[3, 4][4, 1]cpu\"[num_users=1] = placeholder[target=s]\n"
                    "    %t : Tensor \"f32[3, 3][3, 1]cpu\"[num_users=1] = placeholder[target=t]\n"
                    "    %r : [num_users=1] = call_function[target=torch.ops.aten."
                    "diagonal_scatter.default](args = (") +
        args + "), kwargs = {})\n    return (r,)\n";
    SCOPED_TRACE(text);
    loop::LoopProgram p = lowered(text);
    for (const loop::LoopOp &op : p.ops)
      EXPECT_NE(op.kind, loop::LoopOpKind::Extern) << p.str();
    DifferentialOptions options;
    options.llvm = true;
    auto failure = checkGraphDifferentially(text, {}, options);
    EXPECT_FALSE(failure) << diffStageName(failure->stage) << ": " << failure->message;
  }
}

TEST(IndexingLowering, AnIndexOutOfRangeIsAnError) {
  std::string text = R"(graph():
    %w : Tensor "f32[6, 4][4, 1]cpu"[num_users=1] = placeholder[target=w]
    %i : Tensor "i64[2][1]cpu"[num_users=1] = placeholder[target=i]
    %e : [num_users=1] = call_function[target=torch.ops.aten.embedding.default](args = (%w, %i), kwargs = {})
    return (e,)
)";
  auto graph = parseFxText(text, "<test>");
  ASSERT_TRUE(graph);
  ASSERT_TRUE(inferShapes(*graph));
  auto program = lowerGraph(*graph);
  ASSERT_TRUE(program);
  auto fused = fuseLoopProgram(*program);
  ASSERT_TRUE(fused);
  std::vector<RuntimeValue> inputs{RuntimeValue{iota({6, 4})},
                                   RuntimeValue{fromValues({2}, {1, 6}, DType::Int64)}};
  auto got = interpretLoopProgram(*program, *fused, inputs);
  ASSERT_FALSE(got);
  EXPECT_NE(got.error().message.find("index 6 is out of bounds for dimension with size 6"),
            std::string::npos)
      << got.error().message;
  std::vector<RuntimeValue> negative{RuntimeValue{iota({6, 4})},
                                     RuntimeValue{fromValues({2}, {1, -1}, DType::Int64)}};
  auto neg = interpretLoopProgram(*program, *fused, negative);
  ASSERT_FALSE(neg);
  EXPECT_NE(neg.error().message.find("index -1 is out of bounds"), std::string::npos)
      << neg.error().message;
}

TEST(IndexingLowering, BoolMasksKeepTheExternLowering) {
  std::string text = R"(graph():
    %x : Tensor "f32[4, 3][3, 1]cpu"[num_users=1] = placeholder[target=x]
    %m : Tensor "b8[4][1]cpu"[num_users=1] = placeholder[target=m]
    %r : [num_users=1] = call_function[target=torch.ops.aten.index.Tensor](args = (%x, [%m]), kwargs = {})
    return (r,)
)";
  loop::LoopProgram p = lowered(text);
  ASSERT_EQ(p.ops.size(), 1u);
  EXPECT_EQ(p.ops[0].kind, loop::LoopOpKind::Extern);
}

} // namespace
