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


# kernel path: /tmp/torchinductor_root/yk/cykxt6mhzbemxz5datblwkgbley6shgnjmvxslqpaivdyoins2lk.py
# Topologically Sorted Source Nodes: [r], Original ATen: [aten.rand_like]
# Source node to ATen node mapping:
#   r => inductor_lookup_seed_default, inductor_random_default_1
# Graph fragment:
#   %inductor_seeds_default : Tensor "i64[4][1]cuda:0" = PlaceHolder[target=inductor_seeds_default]
#   %inductor_lookup_seed_default : Tensor "i64[][]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.inductor_lookup_seed.default](args = (%inductor_seeds_default, 0), kwargs = {})
#   %inductor_random_default_1 : Tensor "f32[8, 8][8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.inductor_random.default](args = ([8, 8], %inductor_lookup_seed_default, rand), kwargs = {})
#   return %inductor_random_default_1
triton_poi_fused_rand_like_0 = async_compile.triton('triton_poi_fused_rand_like_0', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 64}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*i64', 'out_ptr0': '*fp32', 'load_seed_offset': 'i32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_rand_like_0', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 0, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': True, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 512}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_rand_like_0(in_ptr0, out_ptr0, load_seed_offset, xnumel, XBLOCK : tl.constexpr):
    xnumel = 64
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + load_seed_offset)
    tmp1 = x0
    tmp2 = tl.rand(tmp0, (tmp1).to(tl.uint32))
    tl.store(out_ptr0 + (x0), tmp2, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/kq/ckqugmzrqapxqdme4di2p52t7t5hx7jmbtwrh7wq6fghjub4ttos.py
# Topologically Sorted Source Nodes: [d], Original ATen: [aten.native_dropout]
# Source node to ATen node mapping:
#   d => gt, inductor_lookup_seed_default_1, inductor_random_default, mul, mul_1
# Graph fragment:
#   %inductor_seeds_default : Tensor "i64[4][1]cuda:0" = PlaceHolder[target=inductor_seeds_default]
#   %inductor_random_default : Tensor "f32[8, 8][8, 1]cuda:0" = PlaceHolder[target=inductor_random_default]
#   %arg0_1 : Tensor "f32[8, 8][8, 1]cuda:0" = PlaceHolder[target=arg0_1]
#   %inductor_lookup_seed_default_1 : Tensor "i64[][]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.inductor_lookup_seed.default](args = (%inductor_seeds_default, 1), kwargs = {})
#   %inductor_random_default : Tensor "f32[8, 8][8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.inductor_random.default](args = ([8, 8], %inductor_lookup_seed_default_1, rand), kwargs = {})
#   %gt : Tensor "b8[8, 8][8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.gt.Scalar](args = (%inductor_random_default, 0.5), kwargs = {})
#   %mul : Tensor "f32[8, 8][8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%gt, %arg0_1), kwargs = {})
#   %mul_1 : Tensor "f32[8, 8][8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul, 2.0), kwargs = {})
#   return %inductor_random_default,%mul_1
triton_poi_fused_native_dropout_1 = async_compile.triton('triton_poi_fused_native_dropout_1', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 64}, 
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'in_ptr0': '*i64', 'in_ptr1': '*fp32', 'load_seed_offset': 'constexpr', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {'load_seed_offset': 1}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_native_dropout_1', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': True, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 768}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_native_dropout_1(in_out_ptr0, in_ptr0, in_ptr1, load_seed_offset, xnumel, XBLOCK : tl.constexpr):
    xnumel = 64
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp6 = tl.load(in_ptr1 + (x0), xmask)
    tmp0 = tl.load(in_ptr0 + load_seed_offset)
    tmp1 = x0
    tmp2 = tl.rand(tmp0, (tmp1).to(tl.uint32))
    tmp3 = tl.full([1], 0.5, tl.float32)
    tmp4 = tmp2 > tmp3
    tmp5 = tmp4.to(tl.float32)
    tmp7 = tmp5 * tmp6
    tmp8 = tl.full([1], 2.0, tl.float32)
    tmp9 = tmp7 * tmp8
    tl.store(in_out_ptr0 + (x0), tmp9, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/oy/coyav7526i6fcynvy6l7gx2yxonvlvl7scirx4eget6qghxoah4c.py
# Topologically Sorted Source Nodes: [randint], Original ATen: [aten.randint]
# Source node to ATen node mapping:
#   randint => convert_element_type_default_1, inductor_lookup_seed_default_2, inductor_randint_default_1
# Graph fragment:
#   %inductor_seeds_default : Tensor "i64[4][1]cuda:0" = PlaceHolder[target=inductor_seeds_default]
#   %inductor_lookup_seed_default_2 : Tensor "i64[][]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.inductor_lookup_seed.default](args = (%inductor_seeds_default, 2), kwargs = {})
#   %inductor_randint_default_1 : Tensor "i64[32, 32][32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.inductor_randint.default](args = (-8, 8, [32, 32], %inductor_lookup_seed_default_2), kwargs = {})
#   %convert_element_type_default_1 : Tensor "i8[32, 32][32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%inductor_randint_default_1, torch.int8), kwargs = {})
#   return %convert_element_type_default_1
triton_poi_fused_randint_2 = async_compile.triton('triton_poi_fused_randint_2', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 1024}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*i64', 'out_ptr0': '*i8', 'load_seed_offset': 'i32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_randint_2', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 0, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': True, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 2048}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_randint_2(in_ptr0, out_ptr0, load_seed_offset, xnumel, XBLOCK : tl.constexpr):
    xnumel = 1024
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + load_seed_offset)
    tmp1 = x0
    tmp2 = tl.full([1], -8, tl.int64)
    tmp3 = tl.full([1], 8, tl.int64)
    tmp4 = triton_helpers.randint64(tmp0, (tmp1).to(tl.uint32), tmp2, tmp3)
    tmp5 = tmp4.to(tl.int8)
    tl.store(out_ptr0 + (x0), tmp5, xmask)
''', device_str='cuda')

async_compile.wait(globals())
del async_compile

import triton
import triton.language as tl
from torch._inductor.runtime.triton_heuristics import start_graph, end_graph
from torch._C import _cuda_getCurrentRawStream as get_raw_stream
with torch.cuda._DeviceGuard(0):
    stream0 = get_raw_stream(0)
stream0 = get_raw_stream(0)
buf0 = generate_example_value((4,), (1,), 'cuda:0', torch.int64, 0, (4,))
buf1 = generate_example_value((8, 8), (8, 1), 'cuda:0', torch.float32, 0, (8, 8))
with torch.cuda._DeviceGuard(0):
    triton_poi_fused_rand_like_0.run(buf0, buf1, 0, 64, stream=stream0)
del buf1

stream0 = get_raw_stream(0)
buf3 = generate_example_value((8, 8), (8, 1), 'cuda:0', torch.float32, 0, (8, 8))
arg0_1 = generate_example_value((8, 8), (8, 1), 'cuda:0', torch.float32, 0, (8, 8))
with torch.cuda._DeviceGuard(0):
    triton_poi_fused_native_dropout_1.run(buf3, buf0, arg0_1, 1, 64, stream=stream0)
del buf3, arg0_1

stream0 = get_raw_stream(0)
buf6 = generate_example_value((32, 32), (32, 1), 'cuda:0', torch.int8, 0, (32, 32))
with torch.cuda._DeviceGuard(0):
    triton_poi_fused_randint_2.run(buf0, buf6, 2, 1024, stream=stream0)
del buf0, buf6

"""


import torch
from torch._inductor.codecache import CppWrapperCodeCache

cpp_wrapper_src = (
r'''
#include <torch/csrc/inductor/cpp_wrapper/cuda.h>

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
CACHE_TORCH_DTYPE(int64);
CACHE_TORCH_DTYPE(float32);
CACHE_TORCH_DTYPE(int8);
CACHE_TORCH_DTYPE(int32);
CACHE_TORCH_DEVICE(cuda);

static CUfunction triton_poi_fused_rand_like_0 = nullptr;
template <typename in_ptr0_type_, typename out_ptr0_type_>
static inline void call_triton_poi_fused_rand_like_0(
    const in_ptr0_type_& in_ptr0,
    const out_ptr0_type_& out_ptr0,
    int64_t load_seed_offset,
    int64_t xnumel,
    int32_t device_idx_,
    cudaStream_t stream_,
    const std::optional<std::string>& cubin_dir_ = std::nullopt
){
    uint32_t grid_0 = ((xnumel + (64 - 1)) / (64));
    uint32_t grid_1 = 1;
    uint32_t grid_2 = 1;
    if (grid_0 == 0 || grid_1 == 0 || grid_2 == 0) return;
    if (triton_poi_fused_rand_like_0 == nullptr) {
        triton_poi_fused_rand_like_0 = loadKernel("/tmp/torchinductor_root/da/cdazsw4vm3llpnycksx4dzqhtlj3copmunmwuc7hk5emoogeegim.cubin", "triton_poi_fused_rand_like_0", 0, cubin_dir_); 
    }
    CUdeviceptr var_0 = reinterpret_cast<CUdeviceptr>(in_ptr0.data_ptr());
    CUdeviceptr var_1 = reinterpret_cast<CUdeviceptr>(out_ptr0.data_ptr());
    int32_t var_2 = load_seed_offset;
    int32_t var_3 = xnumel;
    CUdeviceptr global_scratch_scratch_4 = 0;
    CUdeviceptr profile_scratch_scratch_5 = 0;
    void* kernel_args_[] = {&var_0, &var_1, &var_2, &var_3, &global_scratch_scratch_4, &profile_scratch_scratch_5};
    launchKernel(triton_poi_fused_rand_like_0, grid_0, grid_1, grid_2, 1, 0, kernel_args_, stream_);
}

static CUfunction triton_poi_fused_native_dropout_1 = nullptr;
template <typename in_out_ptr0_type_, typename in_ptr0_type_, typename in_ptr1_type_>
static inline void call_triton_poi_fused_native_dropout_1(
    const in_out_ptr0_type_& in_out_ptr0,
    const in_ptr0_type_& in_ptr0,
    const in_ptr1_type_& in_ptr1,
    int64_t load_seed_offset,
    int64_t xnumel,
    int32_t device_idx_,
    cudaStream_t stream_,
    const std::optional<std::string>& cubin_dir_ = std::nullopt
){
    uint32_t grid_0 = ((xnumel + (64 - 1)) / (64));
    uint32_t grid_1 = 1;
    uint32_t grid_2 = 1;
    if (grid_0 == 0 || grid_1 == 0 || grid_2 == 0) return;
    if (triton_poi_fused_native_dropout_1 == nullptr) {
        triton_poi_fused_native_dropout_1 = loadKernel("/tmp/torchinductor_root/2u/c2uesuxxizu7pdxkmwgbofkmkjhelvkelvf7hdqb7qlvas5ex4p4.cubin", "triton_poi_fused_native_dropout_1", 0, cubin_dir_); 
    }
    CUdeviceptr var_6 = reinterpret_cast<CUdeviceptr>(in_out_ptr0.data_ptr());
    CUdeviceptr var_7 = reinterpret_cast<CUdeviceptr>(in_ptr0.data_ptr());
    CUdeviceptr var_8 = reinterpret_cast<CUdeviceptr>(in_ptr1.data_ptr());
    int32_t var_9 = xnumel;
    CUdeviceptr global_scratch_scratch_10 = 0;
    CUdeviceptr profile_scratch_scratch_11 = 0;
    void* kernel_args_[] = {&var_6, &var_7, &var_8, &var_9, &global_scratch_scratch_10, &profile_scratch_scratch_11};
    launchKernel(triton_poi_fused_native_dropout_1, grid_0, grid_1, grid_2, 1, 0, kernel_args_, stream_);
}

static CUfunction triton_poi_fused_randint_2 = nullptr;
template <typename in_ptr0_type_, typename out_ptr0_type_>
static inline void call_triton_poi_fused_randint_2(
    const in_ptr0_type_& in_ptr0,
    const out_ptr0_type_& out_ptr0,
    int64_t load_seed_offset,
    int64_t xnumel,
    int32_t device_idx_,
    cudaStream_t stream_,
    const std::optional<std::string>& cubin_dir_ = std::nullopt
){
    uint32_t grid_0 = ((xnumel + (256 - 1)) / (256));
    uint32_t grid_1 = 1;
    uint32_t grid_2 = 1;
    if (grid_0 == 0 || grid_1 == 0 || grid_2 == 0) return;
    if (triton_poi_fused_randint_2 == nullptr) {
        triton_poi_fused_randint_2 = loadKernel("/tmp/torchinductor_root/ur/cur7eatfx3a4tagjx7kfhcbmqcv7o7sl47vjlchbottmtrp5ogcv.cubin", "triton_poi_fused_randint_2", 0, cubin_dir_); 
    }
    CUdeviceptr var_12 = reinterpret_cast<CUdeviceptr>(in_ptr0.data_ptr());
    CUdeviceptr var_13 = reinterpret_cast<CUdeviceptr>(out_ptr0.data_ptr());
    int32_t var_14 = load_seed_offset;
    int32_t var_15 = xnumel;
    CUdeviceptr global_scratch_scratch_16 = 0;
    CUdeviceptr profile_scratch_scratch_17 = 0;
    void* kernel_args_[] = {&var_12, &var_13, &var_14, &var_15, &global_scratch_scratch_16, &profile_scratch_scratch_17};
    launchKernel(triton_poi_fused_randint_2, grid_0, grid_1, grid_2, 4, 0, kernel_args_, stream_);
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

    auto inputs = steal_from_raw_handles_to_raii_handles(input_handles, 4);
    auto arg0_1 = std::move(inputs[0]);
    auto arg1_1 = std::move(inputs[1]);
    auto arg2_1 = std::move(inputs[2]);
    auto arg3_1 = std::move(inputs[3]);

    AOTICudaGuard device_guard(0);
    static constexpr int64_t int_array_0[] = {4L, };
    static constexpr int64_t int_array_1[] = {1L, };
    AtenTensorHandle buf0_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(1, int_array_0, int_array_1, cached_torch_dtype_int64, cached_torch_device_type_cuda,  0, &buf0_handle));
    RAIIAtenTensorHandle buf0(buf0_handle);
    // Topologically Sorted Source Nodes: [], Original ATen: []
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_cuda_randint_low_out(buf0, -9223372036854775808L, 9223372036854775807L, std::array<int64_t, 1>{4L}.cbegin(), 1));
    static constexpr int64_t int_array_2[] = {8L, 8L};
    static constexpr int64_t int_array_3[] = {8L, 1L};
    AtenTensorHandle buf1_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(2, int_array_2, int_array_3, cached_torch_dtype_float32, cached_torch_device_type_cuda,  0, &buf1_handle));
    RAIIAtenTensorHandle buf1(buf1_handle);
    // Topologically Sorted Source Nodes: [r], Original ATen: [aten.rand_like]
    cudaStream_t stream0;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_get_current_cuda_stream(0, (void**)&stream0));
    call_triton_poi_fused_rand_like_0(buf0, buf1, 0L, 64L, 0, stream0);
    static constexpr int64_t int_array_4[] = {8L, 8L};
    static constexpr int64_t int_array_5[] = {8L, 1L};
    AtenTensorHandle buf2_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(2, int_array_4, int_array_5, cached_torch_dtype_float32, cached_torch_device_type_cuda,  0, &buf2_handle));
    RAIIAtenTensorHandle buf2(buf2_handle);
    auto buf3 = std::move(buf2);  // reuse
    // Topologically Sorted Source Nodes: [d], Original ATen: [aten.native_dropout]
    call_triton_poi_fused_native_dropout_1(buf3, buf0, arg0_1, 1L, 64L, 0, stream0);
    arg0_1.reset();
    static constexpr int64_t int_array_6[] = {2L, 4L, 4L};
    static constexpr int64_t int_array_7[] = {16L, 4L, 1L};
    AtenTensorHandle buf4_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(3, int_array_6, int_array_7, cached_torch_dtype_float32, cached_torch_device_type_cuda,  0, &buf4_handle));
    RAIIAtenTensorHandle buf4(buf4_handle);
    // Topologically Sorted Source Nodes: [baddbmm], Original ATen: [aten.baddbmm]
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_cuda_baddbmm_out(buf4, arg1_1, arg2_1, arg3_1, 1L, 1L));
    arg1_1.reset();
    AtenTensorHandle buf5_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(3, int_array_6, int_array_7, cached_torch_dtype_float32, cached_torch_device_type_cuda,  0, &buf5_handle));
    RAIIAtenTensorHandle buf5(buf5_handle);
    // Topologically Sorted Source Nodes: [bmm], Original ATen: [aten.bmm]
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_cuda_bmm_out(buf5, arg2_1, arg3_1));
    arg2_1.reset();
    arg3_1.reset();
    static constexpr int64_t int_array_8[] = {32L, 32L};
    static constexpr int64_t int_array_9[] = {32L, 1L};
    AtenTensorHandle buf6_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(2, int_array_8, int_array_9, cached_torch_dtype_int8, cached_torch_device_type_cuda,  0, &buf6_handle));
    RAIIAtenTensorHandle buf6(buf6_handle);
    // Topologically Sorted Source Nodes: [randint], Original ATen: [aten.randint]
    call_triton_poi_fused_randint_2(buf0, buf6, 2L, 1024L, 0, stream0);
    static constexpr int64_t int_array_10[] = {32L, 32L};
    static constexpr int64_t int_array_11[] = {32L, 1L};
    AtenTensorHandle buf7_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(2, int_array_10, int_array_11, cached_torch_dtype_int8, cached_torch_device_type_cuda,  0, &buf7_handle));
    RAIIAtenTensorHandle buf7(buf7_handle);
    // Topologically Sorted Source Nodes: [randint_1], Original ATen: [aten.randint]
    call_triton_poi_fused_randint_2(buf0, buf7, 3L, 1024L, 0, stream0);
    buf0.reset();
    static constexpr int64_t int_array_12[] = {32L, 32L};
    static constexpr int64_t int_array_13[] = {32L, 1L};
    AtenTensorHandle buf8_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(2, int_array_12, int_array_13, cached_torch_dtype_int32, cached_torch_device_type_cuda,  0, &buf8_handle));
    RAIIAtenTensorHandle buf8(buf8_handle);
    // Topologically Sorted Source Nodes: [randint, randint_1, _int_mm], Original ATen: [aten.randint, aten._int_mm]
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_cuda__int_mm_out(buf8, buf6, buf7));
    buf6.reset();
    buf7.reset();
    output_handles[0] = buf1.release();
    output_handles[1] = buf3.release();
    output_handles[2] = buf4.release();
    output_handles[3] = buf5.release();
    output_handles[4] = buf8.release();
} // inductor_entry_impl
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
    arg0_1 = rand_strided((8, 8), (8, 1), device='cuda:0', dtype=torch.float32)
    arg1_1 = rand_strided((2, 4, 4), (16, 4, 1), device='cuda:0', dtype=torch.float32)
    arg2_1 = rand_strided((2, 4, 8), (32, 8, 1), device='cuda:0', dtype=torch.float32)
    arg3_1 = rand_strided((2, 8, 4), (32, 4, 1), device='cuda:0', dtype=torch.float32)
    return [arg0_1, arg1_1, arg2_1, arg3_1]


def benchmark_compiled_module(args, times=10, repeat=10):
    from torch._inductor.utils import print_performance
    fn = lambda: call(list(args))
    return print_performance(fn, times=times, repeat=repeat)


if __name__ == "__main__":
    from torch._inductor.wrapper_benchmark import compiled_module_main
    args = get_args()
    compiled_module_main('None', lambda times, repeat: benchmark_compiled_module(args, times=times, repeat=repeat))
