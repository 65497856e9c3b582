#pragma once
/// \file Importer for Inductor's C++ wrapper code (`cpp_wrapper_*.py`, what Inductor writes with
/// `cpp_wrapper=True`): a Python module whose docstring holds the kernel definitions (the
/// compile-time autotuning block), whose `cpp_wrapper_src` string holds the kernel launchers
/// (`call_<kernel>`), any C++ kernels (`extern "C" void cpp_fused_..`) and the
/// `inductor_entry_impl` function. The entry function is parsed as C++ (CppWrapperSyntax.h),
/// and each statement is given the meaning of the Python wrapper statement Inductor writes for
/// the same program (codegen/wrapper.py against codegen/cpp_wrapper_cpu.py and
/// cpp_wrapper_gpu.py), so the Python importer (InductorWrapper.h) builds the same wrapper-IR
/// graph from both:
///
///   auto a = std::move(inputs[0]);              a, b, = args
///   int64_t s; aoti_torch_item_int64(inputs[1], &s)   (a scalar input)
///   AOTICudaGuard device_guard(0); device_guard.set_index(0)
///                                               with torch.cuda._DeviceGuard(0):
///   static constexpr int64_t int_array_0[] = {..};    (sizes and strides of later statements)
///   aoti_torch_empty_strided(n, sz, st, dt, dev, i, &buf0_handle)
///                                               buf0 = empty_strided_cuda(sz, st, dt)
///   aoti_torch_as_strided(h, sz, st, &h2)       .as_strided(sz, st) on that allocation
///   aoti_torch__alloc_from_pool(pool, off, ..)  alloc_from_pool(pool, off, dt, sz, st)
///   aoti_torch_get_current_cuda_stream(0, &s)   s = get_raw_stream(0)
///   call_k(a, .., 12288L, 0, stream0)           k.run(a, .., 12288, stream=stream0) (`.item()`
///                                               on 0-d tensors the launcher reads as scalars)
///   cpp_fused_k((float*)(x.data_ptr()), ..)     cpp_fused_k(x, ..) (a cpp_pybinding kernel)
///   aoti_torch_cuda_mm_out(out, a, b)           extern_kernels.mm(a, b, out=out) (bmm, addmm,
///                                               baddbmm, _int_mm; other `.out` ops as aten)
///   aoti_torch_cuda_convolution(.., &h)         buf = extern_kernels.convolution(..)
///   aoti_torch_cuda_<op>(.., &h0, &h1)          buf3 = torch.ops.aten.<op>.<overload>(..);
///                                               buf4 = buf3[0] ... (arguments bound to the op's
///                                               schema: lists, optionals, bools, defaults)
///   aoti_torch_call_dispatcher("ns::op", "ov", v.data())   the same, for ops without a C shim
///   PyObject_CallObject(custom_op_wrapper, py_args_0)      the same, through Python
///   aoti_torch_cuda_scatter_reduce_two_out(..)  aten.scatter_reduce_.two(..) (index_put too)
///   wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(x, n, sz, st, off))
///                                               reinterpret_tensor(x, sz, st, off)
///   aoti_torch_new_tensor_handle(x, &t)         x (a second handle of the same tensor)
///   aoti_torch_cuda_view_dtype(x, dt, &t)       aten.view.dtype(x, dt)
///   auto b1 = std::move(b0);  // reuse          b1 = b0; del b0  # reuse
///   x.reset();                                  del x
///   int64_t u0_raw; item(buf, &u0_raw); auto u0 = u0_raw;   u0 = buf.item()
///   auto u1 = buf6.size(0);                     u1 = buf6.size(0)
///   if (!(u0 >= 0L)) { throw std::runtime_error("Expected u0 >= 0 but received " ..); }
///                                               if not (u0 >= 0): raise RuntimeError('u0 >= 0')
///   aoti_torch_copy_(dst, src, 0)               dst.copy_(src, False)
///   output_handles[i] = x.release();            return (.., x, )
///   if (p) {..} else {..}, while (1) {..}       if p: .. else: .., while True: ..
///
/// Temporaries the codegen names `var_N`, `tmp_*` and `scalar_to_tensor_N` are written inline
/// where they are used, as the Python wrapper writes their values; profiling, debug printing
/// and Python object plumbing (RECORD_FUNCTION, aoti_torch_print_tensor_handle, PyTuple_New
/// checks) carry nothing of the program. The launcher definitions give the kernels their grid
/// expressions, warps and shared memory (InductorKernel::launchGrid). Anything else is an error
/// with file:line:col; an error the Python importer finds in a translated statement names the
/// C++ statement.

#include "importers/inductor/InductorWrapper.h"

#include <string_view>

namespace fxkit {

/// True for Inductor's C++ wrapper code: `cpp_wrapper_src` and `inductor_entry_impl`.
bool looksLikeInductorCppWrapper(std::string_view content);

/// Reads a C++ wrapper module; the graph is verified.
Expected<InductorWrapper> importInductorCppWrapper(std::string_view text,
                                                   const std::string &fileName);

/// The Python wrapper module a C++ wrapper module stands for (what importInductorCppWrapper
/// hands the Python importer): for `fxkit convert --to` debugging and tests.
Expected<std::string> translateInductorCppWrapper(std::string_view text,
                                                  const std::string &fileName);

} // namespace fxkit
