r"""
Compile-time auto-tuning block: 

import torch
from torch._dynamo.testing import rand_strided
from torch._dynamo.utils import preserve_rng_state
from torch._inductor.select_algorithm import AlgorithmSelectorCache
from torch._inductor.async_compile import AsyncCompile

async_compile = AsyncCompile()
generate_example_value = AlgorithmSelectorCache.generate_example_value
empty_strided_cuda = torch._C._dynamo.guards._empty_strided_cuda
empty_strided_xpu = torch._C._dynamo.guards._empty_strided_xpu
get_raw_stream = torch._C._cuda_getCurrentRawStream


# kernel path: /tmp/torchinductor_root/3w/c3wtdw7fue5anasvghagsgilmcd3qujhl25sizrlxhjhrlibahtg.py
# Topologically Sorted Source Nodes: [y, add, z], Original ATen: [aten.mul, aten.add, aten._to_copy]
# Source node to ATen node mapping:
#   add => add
#   y => mul
#   z => device_put
# Graph fragment:
#   %arg0_1 : Tensor "f32[4, 4][4, 1]cuda:0" = PlaceHolder[target=arg0_1]
#   %mul : Tensor "f32[4, 4][4, 1]cuda:0" = PlaceHolder[target=mul]
#   %mul : Tensor "f32[4, 4][4, 1]cuda:0"[num_users=4] = call_function[target=torch.ops.aten.mul.Tensor](args = (%arg0_1, 2), kwargs = {})
#   %add : Tensor "f32[4, 4][4, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul, 1), kwargs = {})
#   %device_put : Tensor "f32[4, 4][4, 1]cpu"[num_users=1] = call_function[target=torch.ops.prims.device_put.default](args = (%add, cpu), kwargs = {})
#   return %mul,%buf1
triton_poi_fused__to_copy_add_mul_0 = async_compile.triton('triton_poi_fused__to_copy_add_mul_0', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 16}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp32', 'out_ptr1': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused__to_copy_add_mul_0', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 1, 'num_store': 2, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': True, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 320}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused__to_copy_add_mul_0(in_ptr0, out_ptr0, out_ptr1, xnumel, XBLOCK : tl.constexpr):
    xnumel = 16
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0), xmask)
    tmp1 = tl.full([1], 2.0, tl.float32)
    tmp2 = tmp0 * tmp1
    tmp3 = tl.full([1], 1.0, tl.float32)
    tmp4 = tmp2 + tmp3
    tl.store(out_ptr0 + (x0), tmp2, xmask)
    tl.store(out_ptr1 + (x0), tmp4, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/dl/cdlpl2q6ucvtvpu7dkabsv32sr7h5hf4br4lohwu4gnpecjaplj2.py
# Topologically Sorted Source Nodes: [c], Original ATen: [aten.cat]
# Source node to ATen node mapping:
#   c => cat
# Graph fragment:
#   %arg0_1 : Tensor "f32[4, 4][4, 1]cuda:0" = PlaceHolder[target=arg0_1]
#   %mul : Tensor "f32[4, 4][4, 1]cuda:0" = PlaceHolder[target=mul]
#   %cat : Tensor "f32[8, 4][4, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.cat.default](args = ([%arg0_1, %mul],), kwargs = {})
#   return %cat
triton_poi_fused_cat_2 = async_compile.triton('triton_poi_fused_cat_2', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 32}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_cat_2', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 2, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': True, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 384}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_cat_2(in_ptr0, in_ptr1, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 32
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x1 = xindex // 4
    x0 = (xindex % 4)
    x2 = xindex
    tmp0 = x1
    tmp1 = tl.full([1], 0, tl.int64)
    tmp2 = tmp0 >= tmp1
    tmp3 = tl.full([1], 4, tl.int64)
    tmp4 = tmp0 < tmp3
    tmp5 = tl.load(in_ptr0 + (x0 + 4*(x1)), tmp4 & xmask, other=0.0)
    tmp6 = tmp0 >= tmp3
    tmp7 = tl.full([1], 8, tl.int64)
    tmp8 = tmp0 < tmp7
    tmp9 = tl.load(in_ptr1 + (x0 + 4*((-4) + x1)), tmp6 & xmask, other=0.0)
    tmp10 = tl.where(tmp4, tmp5, tmp9)
    tl.store(out_ptr0 + (x2), tmp10, xmask)
''', device_str='cuda')

async_compile.wait(globals())
del async_compile

import triton
import triton.language as tl
from torch._inductor.runtime.triton_heuristics import start_graph, end_graph
from torch._C import _cuda_getCurrentRawStream as get_raw_stream
with torch.cuda._DeviceGuard(0):
    stream0 = get_raw_stream(0)
with torch.cuda._DeviceGuard(0):
    stream0 = get_raw_stream(0)
stream0 = get_raw_stream(0)
arg0_1 = generate_example_value((4, 4), (4, 1), 'cuda:0', torch.float32, 0, (4, 4))
buf0 = generate_example_value((4, 4), (4, 1), 'cuda:0', torch.float32, 0, (4, 4))
buf1 = generate_example_value((4, 4), (4, 1), 'cuda:0', torch.float32, 0, (4, 4))
with torch.cuda._DeviceGuard(0):
    triton_poi_fused__to_copy_add_mul_0.run(arg0_1, buf0, buf1, 16, stream=stream0)
del buf1

stream0 = get_raw_stream(0)
buf4 = generate_example_value((8, 4), (4, 1), 'cuda:0', torch.float32, 0, (8, 4))
with torch.cuda._DeviceGuard(0):
    triton_poi_fused_cat_2.run(arg0_1, buf0, buf4, 32, stream=stream0)
del arg0_1, buf0, buf4

"""


import torch
from torch._inductor.codecache import CppWrapperCodeCache

cpp_wrapper_src = (
r'''
#include <torch/csrc/inductor/cpp_wrapper/cuda.h>
#include <torch/csrc/inductor/cpp_wrapper/cpu.h>

#define CUDA_DRIVER_CHECK(EXPR)                    \
do {                                               \
    CUresult code = EXPR;                          \
    const char *msg;                               \
    CUresult code_get_error = cuGetErrorString(code, &msg); \
    if (code_get_error != CUDA_SUCCESS) {          \
        throw std::runtime_error(                  \
            std::string("CUDA driver error: ") +   \
            std::string("invalid error code!"));   \
    }                                              \
    if (code != CUDA_SUCCESS) {                    \
        throw std::runtime_error(                  \
            std::string("CUDA driver error: ") +   \
            std::string(msg));                     \
    }                                              \
} while (0);

static inline CUfunction loadKernel(
        std::string filePath,
        const std::string &funcName,
        uint32_t sharedMemBytes,
        const std::optional<std::string> &cubinDir = std::nullopt) {
    if (cubinDir) {
        std::filesystem::path p1{*cubinDir};
        std::filesystem::path p2{filePath};
        filePath = (p1 / p2.filename()).string();
    }

    CUmodule mod;
    CUfunction func;
    CUDA_DRIVER_CHECK(cuModuleLoad(&mod, filePath.c_str()));
    CUDA_DRIVER_CHECK(cuModuleGetFunction(&func, mod, funcName.c_str()));
    if (sharedMemBytes > 0) {
        CUDA_DRIVER_CHECK(cuFuncSetAttribute(
            func,
            CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
            sharedMemBytes
        ))
    }
    return func;
}

static inline CUfunction loadKernel(const void* start, const std::string &funcName, uint32_t sharedMemBytes) {
    CUmodule mod;
    CUfunction func;
    CUDA_DRIVER_CHECK(cuModuleLoadData(&mod, start));
    CUDA_DRIVER_CHECK(cuModuleGetFunction(&func, mod, funcName.c_str()));
    if (sharedMemBytes > 0) {
        CUDA_DRIVER_CHECK(cuFuncSetAttribute(
            func,
            CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
            sharedMemBytes
        ))
    }
    return func;
}

static inline void launchKernel(
        CUfunction func,
        uint32_t gridX,
        uint32_t gridY,
        uint32_t gridZ,
        uint32_t numWarps,
        uint32_t sharedMemBytes,
        void* args[],
        cudaStream_t stream) {
    CUDA_DRIVER_CHECK(cuLaunchKernel(
        func, gridX, gridY, gridZ, 32*numWarps, 1, 1, sharedMemBytes, stream, args, nullptr
    ));
}
extern "C"  void  cpp_fused_mul_1(float* in_out_ptr0);
CACHE_TORCH_DTYPE(float32);
CACHE_TORCH_DTYPE(int32);
CACHE_TORCH_DEVICE(cuda);
CACHE_TORCH_DEVICE(cpu);

static CUfunction triton_poi_fused__to_copy_add_mul_0 = nullptr;
template <typename in_ptr0_type_, typename out_ptr0_type_, typename out_ptr1_type_>
static inline void call_triton_poi_fused__to_copy_add_mul_0(
    const in_ptr0_type_& in_ptr0,
    const out_ptr0_type_& out_ptr0,
    const out_ptr1_type_& out_ptr1,
    int64_t xnumel,
    int32_t device_idx_,
    cudaStream_t stream_,
    const std::optional<std::string>& cubin_dir_ = std::nullopt
){
    uint32_t grid_0 = ((xnumel + (16 - 1)) / (16));
    uint32_t grid_1 = 1;
    uint32_t grid_2 = 1;
    if (grid_0 == 0 || grid_1 == 0 || grid_2 == 0) return;
    if (triton_poi_fused__to_copy_add_mul_0 == nullptr) {
        triton_poi_fused__to_copy_add_mul_0 = loadKernel("/tmp/torchinductor_root/4k/c4khlgqw6anxyeryqn3cvf2hlmwzv6evjdtyyyzemj3uznuc5jet.cubin", "triton_poi_fused__to_copy_add_mul_0", 0, cubin_dir_); 
    }
    CUdeviceptr var_2 = reinterpret_cast<CUdeviceptr>(in_ptr0.data_ptr());
    CUdeviceptr var_3 = reinterpret_cast<CUdeviceptr>(out_ptr0.data_ptr());
    CUdeviceptr var_4 = reinterpret_cast<CUdeviceptr>(out_ptr1.data_ptr());
    int32_t var_5 = xnumel;
    CUdeviceptr global_scratch_scratch_6 = 0;
    CUdeviceptr profile_scratch_scratch_7 = 0;
    void* kernel_args_[] = {&var_2, &var_3, &var_4, &var_5, &global_scratch_scratch_6, &profile_scratch_scratch_7};
    launchKernel(triton_poi_fused__to_copy_add_mul_0, grid_0, grid_1, grid_2, 1, 0, kernel_args_, stream_);
}

static CUfunction triton_poi_fused_cat_2 = nullptr;
template <typename in_ptr0_type_, typename in_ptr1_type_, typename out_ptr0_type_>
static inline void call_triton_poi_fused_cat_2(
    const in_ptr0_type_& in_ptr0,
    const in_ptr1_type_& in_ptr1,
    const out_ptr0_type_& out_ptr0,
    int64_t xnumel,
    int32_t device_idx_,
    cudaStream_t stream_,
    const std::optional<std::string>& cubin_dir_ = std::nullopt
){
    uint32_t grid_0 = ((xnumel + (32 - 1)) / (32));
    uint32_t grid_1 = 1;
    uint32_t grid_2 = 1;
    if (grid_0 == 0 || grid_1 == 0 || grid_2 == 0) return;
    if (triton_poi_fused_cat_2 == nullptr) {
        triton_poi_fused_cat_2 = loadKernel("/tmp/torchinductor_root/vn/cvnqqzmriyy6zixn4sdbyrznzalzwx5uy4pyrsfdpbf6hoalndrd.cubin", "triton_poi_fused_cat_2", 0, cubin_dir_); 
    }
    CUdeviceptr var_8 = reinterpret_cast<CUdeviceptr>(in_ptr0.data_ptr());
    CUdeviceptr var_9 = reinterpret_cast<CUdeviceptr>(in_ptr1.data_ptr());
    CUdeviceptr var_10 = reinterpret_cast<CUdeviceptr>(out_ptr0.data_ptr());
    int32_t var_11 = xnumel;
    CUdeviceptr global_scratch_scratch_12 = 0;
    CUdeviceptr profile_scratch_scratch_13 = 0;
    void* kernel_args_[] = {&var_8, &var_9, &var_10, &var_11, &global_scratch_scratch_12, &profile_scratch_scratch_13};
    launchKernel(triton_poi_fused_cat_2, grid_0, grid_1, grid_2, 1, 0, kernel_args_, stream_);
}


void inductor_entry_impl(
    AtenTensorHandle*
        input_handles, // array of input AtenTensorHandle; handles
                        // are stolen; the array itself is borrowed
    AtenTensorHandle*
        output_handles  // array for writing output AtenTensorHandle; handles
                        // will be stolen by the caller; the array itself is
                        // borrowed)
) {
    py::gil_scoped_release_simple release;

    auto inputs = steal_from_raw_handles_to_raii_handles(input_handles, 1);
    auto arg0_1 = std::move(inputs[0]);

    AOTICudaGuard device_guard(0);
    static constexpr int64_t int_array_0[] = {4L, 4L};
    static constexpr int64_t int_array_1[] = {4L, 1L};
    AtenTensorHandle buf0_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(2, int_array_0, int_array_1, cached_torch_dtype_float32, cached_torch_device_type_cuda,  0, &buf0_handle));
    RAIIAtenTensorHandle buf0(buf0_handle);
    static constexpr int64_t int_array_2[] = {4L, 4L};
    static constexpr int64_t int_array_3[] = {4L, 1L};
    AtenTensorHandle buf1_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(2, int_array_2, int_array_3, cached_torch_dtype_float32, cached_torch_device_type_cuda,  0, &buf1_handle));
    RAIIAtenTensorHandle buf1(buf1_handle);
    // Topologically Sorted Source Nodes: [y, add, z], Original ATen: [aten.mul, aten.add, aten._to_copy]
    cudaStream_t stream0;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_get_current_cuda_stream(0, (void**)&stream0));
    call_triton_poi_fused__to_copy_add_mul_0(arg0_1, buf0, buf1, 16L, 0, stream0);
    static constexpr int64_t int_array_4[] = {4L, 4L};
    static constexpr int64_t int_array_5[] = {4L, 1L};
    AtenTensorHandle buf2_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(2, int_array_4, int_array_5, cached_torch_dtype_float32, cached_torch_device_type_cpu,  0, &buf2_handle));
    RAIIAtenTensorHandle buf2(buf2_handle);
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_copy_(buf2, buf1, 0));
    buf1.reset();
    auto buf3 = std::move(buf2);  // reuse
    cpp_fused_mul_1((float*)(buf3.data_ptr()));

    device_guard.set_index(0);
    static constexpr int64_t int_array_6[] = {8L, 4L};
    static constexpr int64_t int_array_7[] = {4L, 1L};
    AtenTensorHandle buf4_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(2, int_array_6, int_array_7, cached_torch_dtype_float32, cached_torch_device_type_cuda,  0, &buf4_handle));
    RAIIAtenTensorHandle buf4(buf4_handle);
    // Topologically Sorted Source Nodes: [c], Original ATen: [aten.cat]
    call_triton_poi_fused_cat_2(arg0_1, buf0, buf4, 32L, 0, stream0);
    static constexpr int64_t int_array_8[] = {3L, 4L};
    static constexpr int64_t int_array_9[] = {4L, 1L};
    AtenTensorHandle tmp_buf0_0;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_cuda_view_dtype(wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(buf0, 2, int_array_8, int_array_9, 4L)), cached_torch_dtype_int32, &tmp_buf0_0));
    static constexpr int64_t int_array_10[] = {4L, 4L};
    static constexpr int64_t int_array_11[] = {1L, 4L};
    auto var_0 = RAIIAtenTensorHandle(tmp_buf0_0);
    auto var_1 = wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(arg0_1, 2, int_array_10, int_array_11, 0L));
    output_handles[0] = buf3.release();
    output_handles[1] = var_0.release();
    output_handles[2] = buf4.release();
    output_handles[3] = buf0.release();
    output_handles[4] = var_1.release();
} // inductor_entry_impl

#include <torch/csrc/inductor/cpp_prefix.h>
extern "C"  void  cpp_fused_mul_1(float* in_out_ptr0)
{
    {
        for(int64_t x0=static_cast<int64_t>(0L); x0<static_cast<int64_t>(16L); x0+=static_cast<int64_t>(16L))
        {
            {
                if(C10_LIKELY(x0 >= static_cast<int64_t>(0) && x0 < static_cast<int64_t>(16L)))
                {
                    auto tmp0 = at::vec::Vectorized<float>::loadu(in_out_ptr0 + static_cast<int64_t>(x0), static_cast<int64_t>(16));
                    auto tmp1 = static_cast<float>(3.0);
                    auto tmp2 = at::vec::Vectorized<float>(tmp1);
                    auto tmp3 = tmp0 * tmp2;
                    tmp3.store(in_out_ptr0 + static_cast<int64_t>(x0));
                }
            }
        }
    }
}
'''
)

inductor_entry = CppWrapperCodeCache.load_pybinding(
    argtypes=["std::vector<AtenTensorHandle>"],
    main_code=cpp_wrapper_src,
    device_type="cuda",
    num_outputs=5,
    kernel_code=None,
)

def _wrap_func(f):
    def g(args):
        input_tensors = [arg if isinstance(arg, torch.Tensor) else torch.tensor(arg, device='cpu') for arg in args]
        input_handles = torch._C._aoti.unsafe_alloc_void_ptrs_from_tensors(input_tensors)

        args.clear()
        del input_tensors

        output_handles = f(input_handles)
        output_tensors = torch._C._aoti.alloc_tensors_by_stealing_from_void_ptrs(output_handles)
        return output_tensors

    return g

call = _wrap_func(inductor_entry)


def get_args():
    from torch._dynamo.testing import rand_strided
    arg0_1 = rand_strided((4, 4), (4, 1), device='cuda:0', dtype=torch.float32)
    return [arg0_1]


def benchmark_compiled_module(args, times=10, repeat=10):
    from torch._inductor.utils import print_performance
    fn = lambda: call(list(args))
    return print_performance(fn, times=times, repeat=repeat)


if __name__ == "__main__":
    from torch._inductor.wrapper_benchmark import compiled_module_main
    args = get_args()
    compiled_module_main('None', lambda times, repeat: benchmark_compiled_module(args, times=times, repeat=repeat))
