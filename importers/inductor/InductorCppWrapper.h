#pragma once
/// \file Importer for Inductor's C++ wrapper code (`cpp_wrapper_*.py`): a Python module whose
/// docstring holds the Triton kernel definitions and whose `cpp_wrapper_src` string holds the
/// C++ `inductor_entry_impl` function. The C++ body is read statement by statement and each
/// statement is rewritten as the Python wrapper statement Inductor writes for it, on the same
/// line of a module of the same length, which the Python importer (InductorWrapper.h) then
/// reads; so both importers produce the same wrapper-IR graph form (same targets) and errors
/// name lines of the original file:
///
///   auto a = std::move(inputs[0]);              a, b, = args
///   AOTICudaGuard device_guard(0);              with torch.cuda._DeviceGuard(0):
///   static constexpr int64_t int_array_0[] = {..};   (sizes/strides used by later statements)
///   aoti_torch_empty_strided(n, sz, st, dt, dev, i, &buf0_handle)   buf0 = empty_strided_cuda(..)
///   aoti_torch_get_current_cuda_stream(0, &s)   s = get_raw_stream(0)
///   call_k(a, .., 12288L, 0, stream0)           k.run(a, .., 12288, stream=stream0)
///   aoti_torch_cuda_mm_out(out, a, b)           extern_kernels.mm(a, b, out=out) (bmm, addmm)
///   aoti_torch_cuda_convolution(.., &h)         buf = extern_kernels.convolution(..)
///   aoti_torch_cuda_<op>(.., &h0, &h1)          t = torch.ops.aten.<op>.default(..); h0 = t[0]
///   wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(x, n, sz, st, off))
///                                               reinterpret_tensor(x, (..), (..), off)
///   auto b1 = std::move(b0);  // reuse          b1 = b0; del b0  # reuse
///   x.reset();                                  del x
///   output_handles[i] = x.release();            return (.., x, )
///
///   int64_t s0; aoti_torch_get_size(x, 0, &s0)   s0 = x.size(0)  (also `int64_t s = ..;`)
///   auto var_0 = <view>;                         the view, inline where var_0 is used
///
/// The kernel launcher definitions (`call_<kernel>`) give the number of arguments a launch
/// must pass, and their grid expressions, warps and shared memory (kept on the kernels:
/// InductorKernel::launchGrid). The other C++ helpers (loadKernel, launchKernel, caches) are
/// fixed runtime code and not read. Anything else in the entry function is an error with
/// file:line:col; an error the Python importer finds in a rewritten statement names the
/// C++ statement's line and first column.

#include "importers/inductor/InductorWrapper.h"

namespace fxkit {

/// True for Inductor's C++ wrapper code: `cpp_wrapper_src` and `inductor_entry_impl`.
bool looksLikeInductorCppWrapper(std::string_view content);

/// Reads a C++ wrapper module; the graph is verified.
Expected<InductorWrapper> importInductorCppWrapper(std::string_view text,
                                                   const std::string &fileName);

} // namespace fxkit
