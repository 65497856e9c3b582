r"""
Compile-time auto-tuning block: 

import torch
from torch._inductor.async_compile import AsyncCompile

async_compile = AsyncCompile()


# Topologically Sorted Source Nodes: [y], Original ATen: [aten.relu]
triton_poi_fused_relu_0 = async_compile.triton('triton_poi_fused_relu_0', '''
import triton
import triton.language as tl

@triton_heuristics.pointwise(
    size_hints={'x': 64},
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'configs': []},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_poi_fused_relu_0', 'mutated_arg_names': ['in_out_ptr0']},
)
@triton.jit
def triton_poi_fused_relu_0(in_out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 32
    xindex = tl.program_id(0) * XBLOCK + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    tmp0 = tl.load(in_out_ptr0 + (xindex), xmask)
    tl.store(in_out_ptr0 + (xindex), tl.maximum(tmp0, 0.0), xmask)
''', device_str='cuda')

async_compile.wait(globals())
del async_compile

stream0 = get_raw_stream(0)
"""


import torch
from torch._inductor.codecache import CppWrapperCodeCache

cpp_wrapper_src = (
r'''
#include <torch/csrc/inductor/cpp_wrapper/cuda.h>

static CUfunction triton_poi_fused_relu_0 = nullptr;
template <typename in_out_ptr0_type_>
static inline void call_triton_poi_fused_relu_0(
    const in_out_ptr0_type_& in_out_ptr0,
    int64_t xnumel,
    int32_t device_idx_,
    cudaStream_t stream_,
    const std::optional<std::string>& cubin_dir_ = std::nullopt
){
    uint32_t grid_0 = ((xnumel + (256 - 1)) / (256));
    uint32_t grid_1 = 1;
    uint32_t grid_2 = 1;
    launchKernel(triton_poi_fused_relu_0, grid_0, grid_1, grid_2, 4, 0, kernel_args_, stream_);
}


void inductor_entry_impl(
    AtenTensorHandle*
        input_handles, // array of input AtenTensorHandle; handles
    AtenTensorHandle*
        output_handles  // array for writing output AtenTensorHandle; handles
) {
    py::gil_scoped_release_simple release;

    auto inputs = steal_from_raw_handles_to_raii_handles(input_handles, 2);
    auto arg0_1 = std::move(inputs[0]);
    auto arg1_1 = std::move(inputs[1]);

    AOTICudaGuard device_guard(0);
    static constexpr int64_t int_array_0[] = {4L, 8L};
    static constexpr int64_t int_array_1[] = {8L, 1L};
    AtenTensorHandle buf0_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(2, int_array_0, int_array_1, cached_torch_dtype_float32, cached_torch_device_type_cuda,  0, &buf0_handle));
    RAIIAtenTensorHandle buf0(buf0_handle);
    // Topologically Sorted Source Nodes: [x], Original ATen: [aten.mm]
    static constexpr int64_t int_array_2[] = {8L, 4L};
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_cuda_mm_out(buf0, arg0_1, wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(arg1_1, 2, int_array_0, int_array_2, 0L))));
    arg0_1.reset();
    arg1_1.reset();
    auto buf1 = std::move(buf0);  // reuse
    // Topologically Sorted Source Nodes: [y], Original ATen: [aten.relu]
    cudaStream_t stream0;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_get_current_cuda_stream(0, (void**)&stream0));
    call_triton_poi_fused_relu_0(buf1, 32L, 0, stream0);
    static constexpr int64_t int_array_3[] = {32L, };
    static constexpr int64_t int_array_4[] = {1L, };
    auto var_0 = wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(buf1, 1, int_array_3, int_array_4, 0L));
    output_handles[0] = var_0.release();
} // inductor_entry_impl
'''
)

inductor_entry = CppWrapperCodeCache.load_pybinding(
    argtypes=["std::vector<AtenTensorHandle>"],
    main_code=cpp_wrapper_src,
    device_type="cuda",
    num_outputs=1,
    kernel_code=None,
)

def _wrap_func(f):
    def g(args):
        return f(args)

    return g

call = _wrap_func(inductor_entry)


def get_args():
    from torch._dynamo.testing import rand_strided
    arg0_1 = rand_strided((4, 8), (8, 1), device='cuda:0', dtype=torch.float32)
    arg1_1 = rand_strided((8, 4), (1, 8), device='cuda:0', dtype=torch.float32)
    return [arg0_1, arg1_1]
