#pragma once
/// \file The planned program as an FX graph (the wrapper IR; one IR, other targets), in the
/// shape of Inductor's own Wrapper-IR-to-FX conversion (`fxir_*.graph.txt`):
///
///   %s77 = placeholder                        size symbols and tensors, in input order
///   %pool = torch.empty_strided([N], [1], dtype=torch.uint8)   one arena when sizes are known
///   %buf0 = fxkit.alloc_from_pool(%pool, offset, dtype, sizes, strides)
///   %buf1 = torch.empty_strided(sizes, strides, dtype=..)      symbolic sizes: own allocation
///   %buf2 = torch.as_strided(%buf1, sizes, strides, 0)         in-place or reused storage
///   %ks0 = operator.mul(%s17, %s27)            precomputed size arguments and numels
///   %k0 = fxkit.kernel(name=fused_..., args={in_ptr0: %x, out_ptr0: %buf0, ks0: %ks0, ...})
///   %e0 = fxkit.extern(op=torch.ops.aten.mm.default, args=(..), out=[%buf3])
///   %f0 = fxkit.free(%buf1)                   where the plan frees a buffer
///   return (%buf0, ...)                        outputs (views as torch.as_strided)

#include "ir/Error.h"
#include "ir/Graph.h"
#include "ir/loop/Kernel.h"
#include "ir/loop/LoopIR.h"
#include "ir/loop/MemoryPlan.h"

namespace fxkit {

/// Builds the wrapper graph of `fused` (kernels with size arguments hoisted, see SizeArgs.h).
/// Without a plan every buffer gets its own allocation at its first write and none is freed.
Expected<Graph> buildWrapperGraph(const loop::LoopProgram &program, const loop::FusedProgram &fused,
                                  const loop::MemoryPlan *plan = nullptr);
/// buildWrapperGraph into `out`, an empty graph, with no graph moved (a move repoints every
/// node at its new graph). On an error `out` is left empty.
Status buildWrapperGraphInto(Graph &out, const loop::LoopProgram &program,
                             const loop::FusedProgram &fused, const loop::MemoryPlan *plan);

/// The reverse of hoisting, for consumers that need plain expressions (PyTorch's FX backend
/// does this): every kernel-call argument that refers to a size node (a size placeholder or
/// operator.* arithmetic on sizes) is replaced by the expression that node computes, e.g.
/// `ks0: %mul` becomes `ks0: s17*s27`; size nodes left without users are removed. Returns
/// whether the graph changed.
Expected<bool> substituteSizeArgs(Graph &wrapper);

} // namespace fxkit
