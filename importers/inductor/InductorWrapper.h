#pragma once
/// \file Importer for Inductor's Python wrapper code (`output_code.py`, `cpu_output_code_*.py`):
/// the kernel definitions as data, and the `call(args)` function as a wrapper-IR graph of the
/// same kind fxkit's compiler builds (transforms/WrapperGraph.h):
///
///   a, b, s = args; s77 = arg0_1         placeholders, named by the size symbol they bind
///   s77 = arg0_1.size(0)                 %s77 = torch.ops.aten.sym_size.int(%arg0_1, 0)
///   assert_size_stride(x, sz, st[, op])  %assert_size_stride = fxkit.assert_size_stride(%x, [..],
///   [..][, op]) assert_alignment(x, 16[, op])        %assert_alignment =
///   fxkit.assert_alignment(%x, 16[, op]) buf0 = empty_strided_cuda(sz, st, dt) %buf0 =
///   torch.empty_strided([..], [..], dtype=.., device=cuda) reinterpret_tensor(x, sz, st, off)
///   torch.as_strided(%x, [..], [..], off) (named after the
///                                        assigned name, or `x_view` inline)
///   buf1 = buf0; del buf0  # reuse       %buf1 = torch.as_strided(%buf0, .., 0, reuse=buf0)
///   del x                                %free = fxkit.free(%x) when no other live name shares
///                                        x's storage (a reused or aliased name frees nothing)
///   ks0 = s17*s77, k_xnumel = s17*s77    operator.* nodes, each distinct expression once
///   k.run(a, .., stream=stream0)         %k = fxkit.kernel(name=k, args={param: a, ..},
///   cpp_kernel(a, ..)                      stream=0, origins=[..], provenance=N); grid=... kept
///   extern_kernels.mm(a, b, out=buf0)    %mm = fxkit.extern(op=extern_kernels.mm, inputs=(..),
///   buf6 = torch.ops.aten.x.default(..)    options={..}, out=[%buf0], origins=[..])
///   buf7 = buf6[0]                       %buf7 = operator.getitem(%buf6, 0)
///   with torch.cuda._DeviceGuard(0):     the device index of allocations' types (cuda:0)
///   stream0 = get_raw_stream(0)          the stream argument of the launches that use it
///   return (a, b, )                      the output node
///
/// Kernel definitions are attached to the graph (`graph.attachments["inductor.wrapper"]`), so
/// they travel with the graph through passes; the FX text forms do not show them. Anything in
/// the module that is not one of these forms, nor the module's fixed boilerplate (imports,
/// aliases such as `aten = torch.ops.aten`, the Runner class, benchmark helpers), is an error
/// with file:line:col.

#include "importers/inductor/InductorKernel.h"
#include "ir/Error.h"
#include "ir/Graph.h"
#include "ir/TensorType.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fxkit {

/// One input of `get_args()`: an integer (a size) or a tensor made by rand_strided.
struct InductorExampleInput {
  std::string name;
  std::optional<int64_t> integer;
  std::optional<TensorType> tensor;
};

/// What an imported wrapper module holds besides its graph.
struct InductorWrapperInfo : GraphAttachment {
  std::vector<inductor::InductorKernel> kernels; ///< in definition order
  std::vector<InductorExampleInput> exampleInputs;
  std::string aotId; ///< `# AOT ID: ['0_inference']` -> 0_inference
};

inline constexpr std::string_view kInductorWrapperAttachment = "inductor.wrapper";

struct InductorWrapper {
  Graph graph;
  std::shared_ptr<InductorWrapperInfo> info; ///< also attached to graph
};

/// True for Inductor's Python wrapper code: `async_compile` and a `def call(` function.
bool looksLikeInductorWrapper(std::string_view content);

/// Reads a wrapper module; the graph is verified.
Expected<InductorWrapper> importInductorWrapper(std::string_view text, const std::string &fileName);

/// The info attached to a graph imported from wrapper code, or null.
const InductorWrapperInfo *inductorWrapperInfo(const Graph &graph);

} // namespace fxkit
