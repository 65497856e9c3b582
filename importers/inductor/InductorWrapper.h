#pragma once
/// \file Importer for Inductor's Python wrapper code (`output_code.py`, `cpu_output_code_*.py`):
/// the kernel definitions as data, and the `call(args)` function as a wrapper-IR graph of the
/// same kind fxkit's compiler builds (transforms/WrapperGraph.h). The statement forms are those
/// PyTorch 2.11's PythonWrapperCodegen (codegen/wrapper.py) and the IR nodes' codegen write:
///
///   a, b, s = args; s77 = arg0_1      placeholders, named by the size symbol they bind
///   s77 = arg0_1.size(0), or          %s77 = torch.ops.aten.sym_size.int(%arg0_1, 0)
///     arg0_1_size = arg0_1.size(); s77 = arg0_1_size[0]   (also .stride(): sym_stride.int)
///   assert_size_stride(x, sz, st[, op]), assert_alignment(x, 16[, op])
///                                     fxkit.assert_size_stride / fxkit.assert_alignment
///   buf0 = empty_strided_cuda(sz, st, dt)   (also _cpu, _xpu, _mtia, _cpu_pinned,
///     empty_strided(.., device=, dtype=), tracked_empty_strided, empty_strided_p2p)
///                                     %buf0 = torch.empty_strided([..], [..], dtype=, device=)
///   buf0 = empty_strided_cuda(..).as_strided(sz, st)   an allocation and its torch.as_strided
///   buf0 = alloc_from_pool(pool, off, dt, sz, st)      fxkit.alloc_from_pool(%pool, ..)
///   reinterpret_tensor(x, sz, st, off)  torch.as_strided(%x, [..], [..], off), named after the
///                                     assigned name, or `x_view` inline (also `# alias`)
///   aten.view.dtype(x, dt)            torch.ops.aten.view.dtype(%x, dt)
///   buf1 = buf0; del buf0  # reuse    %buf1 = torch.as_strided(%buf0, .., 0, reuse=buf0)
///   del x, y                          %free = fxkit.free(%x) when no other live name shares
///                                     x's storage (a reused or aliased name frees nothing)
///   ks0 = s17*s77, k_xnumel = s17*s77 operator.* nodes, each distinct expression once
///   u0 = buf0.item(), u1 = buf2[0].size(0), u2 = 1 if buf0.item() else 0,
///     u3 = max(0, u3_end - u3_start)  scalars as FX graphs spell them: aten.item.default,
///                                     sym_size.int, torch.sym_ite, torch.sym_max, operator.*
///   if not (u0 >= 0): raise RuntimeError(msg); assert c, msg
///                                     torch.ops.aten._assert_scalar.default(%cond, msg)
///   buf1 = None                       a name for nothing (DynamicScalar, AssertScalar)
///   k.run(a, .., stream=stream0)      %k = fxkit.kernel(name=k, args={param: a, ..},
///   cpp_kernel(a, ..)                   stream=0, origins=[..], provenance=N); grid=... kept;
///   multi_kernel_0.run(..)              choices=[k1, k2] for a multi-kernel
///   extern_kernels.mm(a, b, out=buf0)  %mm = fxkit.extern(op=extern_kernels.mm, inputs=(..),
///   buf6 = torch.ops.aten.x.default(..)  options={..}, out=[%buf0], origins=[..])
///   ws.zero_(), dst.copy_(src, False) fxkit.extern(op=torch.ops.aten.zero_.default, ..)
///   buf7 = buf6[0] (also [0][1], ['k'])  %buf7 = operator.getitem(%buf6, 0)
///   _frozen_param0 (module: `= None  # hash`)  get_attr[target=_frozen_param0]
///   with torch.cuda._DeviceGuard(0):  the device index of allocations' types (cuda:0)
///   stream0 = get_raw_stream(0)       the stream argument of the launches that use it
///   p_args = [..]; (b,) = self.partitions[0](p_args); b2 = subgraph_0(s_args)
///                                     the module function's statements, inline
///   run_intermediate_hooks, torch.cuda.synchronize, nvtx ranges, record_function
///                                     calls of those functions (debug and profiling configs)
///   return (a, b, )                   the output node
///
/// Kernel definitions are attached to the graph (`graph.attachments["inductor.wrapper"]`), so
/// they travel with the graph through passes; the FX text forms do not show them. Anything in
/// the module that is not one of these forms, nor the module's fixed boilerplate (imports,
/// aliases such as `aten = torch.ops.aten`, the Runner class, benchmark helpers), is an error
/// with file:line:col (control flow of torch.cond / while_loop among them).

#include "importers/inductor/InductorKernel.h"
#include "ir/Error.h"
#include "ir/Graph.h"
#include "ir/TensorType.h"

#include <cstdint>
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

/// `multi_kernel_0 = async_compile.multi_kernel('multi_kernel_0', [k1, k2])`: one launch that
/// runs whichever of its kernels benchmarked fastest (config.triton.multi_kernel); they take
/// the same arguments.
struct InductorMultiKernel {
  std::string name;
  std::vector<std::string> choices; ///< kernel names, in the order given
};

/// What an imported wrapper module holds besides its graph.
struct InductorWrapperInfo : GraphAttachment {
  std::vector<inductor::InductorKernel> kernels; ///< in definition order
  std::vector<InductorMultiKernel> multiKernels;
  std::vector<InductorExampleInput> exampleInputs;
  /// Module-level `_frozen_param0 = None  # <hash>`: graph constants (frozen parameters,
  /// lifted tensors) Inductor sets on the module before call(); call() reads them as get_attr.
  std::vector<std::string> constants;
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
