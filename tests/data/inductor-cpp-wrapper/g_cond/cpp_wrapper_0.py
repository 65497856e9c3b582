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


# kernel path: /tmp/torchinductor_root/e4/ce4pyc5or4elcuwzao7cyggfiklazt5zs7pufqwzan44uz4wq7u4.py
# Topologically Sorted Source Nodes: [sum_1, gt], Original ATen: [aten.sum, aten.gt]
# Source node to ATen node mapping:
#   gt => gt
#   sum_1 => sum_1
# Graph fragment:
#   %arg0_1 : Tensor "f32[8][1]cuda:0" = PlaceHolder[target=arg0_1]
#   %sum_1 : Tensor "f32[][]cuda:0" = PlaceHolder[target=sum_1]
#   %sum_1 : Tensor "f32[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sum.default](args = (%arg0_1,), kwargs = {})
#   %gt : Tensor "b8[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.gt.Scalar](args = (%sum_1, 0), kwargs = {})
#   return %sum_1,%gt
triton_per_fused_gt_sum_0 = async_compile.triton('triton_per_fused_gt_sum_0', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 1, 'r0_': 8},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'out_ptr1': '*i1', 'xnumel': 'constexpr', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {'xnumel': 1}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused_gt_sum_0', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 1, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': True, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'r0_': 32}}
)
@triton.jit
def triton_per_fused_gt_sum_0(in_ptr0, out_ptr1, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 1
    r0_numel = 8
    R0_BLOCK: tl.constexpr = 8
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = tl.full([XBLOCK], True, tl.int1)[:, None]
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = tl.full([R0_BLOCK], True, tl.int1)[None, :]
    roffset = r0_offset
    rindex = r0_index
    r0_0 = r0_index
    tmp0 = tl.load(in_ptr0 + (r0_0), None)
    tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
    tmp3 = tl.sum(tmp1, 1)[:, None].to(tl.float32)
    tmp4 = tl.full([1, 1], 0.0, tl.float32)
    tmp5 = tmp3 > tmp4
    tl.store(out_ptr1 + (tl.full([1, 1], 0, tl.int32).broadcast_to(XBLOCK, 1)), tmp5, None)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/ob/cobu3544khrb4sulvvgw7xmotjc2xm7dgbylrwcr75lxqtbl66mz.py
# Unsorted Source Nodes: [cond, gt, child, sin], Original ATen: [aten.gt, aten.add, aten.sin]
# Source node to ATen node mapping:
#   child => add
#   cond => cond
#   gt => gt
#   sin => sin
triton_poi_fused_add_gt_sin_1 = async_compile.triton('triton_poi_fused_add_gt_sin_1', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 8}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_add_gt_sin_1', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 2, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': True, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 128}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_add_gt_sin_1(in_ptr0, in_ptr1, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 8
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0), xmask)
    tmp2 = tl.load(in_ptr1 + (x0), xmask)
    tmp1 = tl_math.sin(tmp0)
    tmp3 = tmp1 + tmp2
    tl.store(out_ptr0 + (x0), tmp3, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/x3/cx3xxkdl7i26wasm6xux6nozhm6sezeouuee5irpl57vetk2bzq7.py
# Unsorted Source Nodes: [cond, gt, child, cos], Original ATen: [aten.gt, aten.mul, aten.cos]
# Source node to ATen node mapping:
#   child => mul
#   cond => cond
#   cos => cos
#   gt => gt
triton_poi_fused_cos_gt_mul_2 = async_compile.triton('triton_poi_fused_cos_gt_mul_2', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 8}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_cos_gt_mul_2', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 2, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': True, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 128}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_cos_gt_mul_2(in_ptr0, in_ptr1, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 8
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0), xmask)
    tmp2 = tl.load(in_ptr1 + (x0), xmask)
    tmp1 = tl_math.cos(tmp0)
    tmp3 = tmp1 * tmp2
    tl.store(out_ptr0 + (x0), tmp3, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/iz/cizbhppnrctq7s7xqdcgosouugsagcp65a26jegrmsjtxjjfy7lq.py
# Topologically Sorted Source Nodes: [add], Original ATen: [aten.add]
# Source node to ATen node mapping:
#   add => add
# Graph fragment:
#   %getitem : Tensor "f32[8][1]cuda:0" = PlaceHolder[target=getitem]
#   %add : Tensor "f32[8][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%getitem, 1), kwargs = {})
#   return %add
triton_poi_fused_add_3 = async_compile.triton('triton_poi_fused_add_3', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 8}, 
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_add_3', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': True, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 96}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_add_3(in_out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 8
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_out_ptr0 + (x0), xmask)
    tmp1 = tl.full([1], 1.0, tl.float32)
    tmp2 = tmp0 + tmp1
    tl.store(in_out_ptr0 + (x0), tmp2, xmask)
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
    with torch.cuda._DeviceGuard(0):
        stream0 = get_raw_stream(0)
stream0 = get_raw_stream(0)
arg0_1 = generate_example_value((8,), (1,), 'cuda:0', torch.float32, 0, (8,))
buf1 = generate_example_value((), (), 'cuda:0', torch.bool, 0, ())
with torch.cuda._DeviceGuard(0):
    triton_per_fused_gt_sum_0.run(arg0_1, buf1, 1, 8, stream=stream0)
del arg0_1, buf1

stream0 = get_raw_stream(0)
true_graph_0_arg0_1 = generate_example_value((8,), (1,), 'cuda:0', torch.float32, 0, (8,))
true_graph_0_arg1_1 = generate_example_value((8,), (1,), 'cuda:0', torch.float32, 0, (8,))
true_graph_0_buf0 = generate_example_value((8,), (1,), 'cuda:0', torch.float32, 0, (8,))
with torch.cuda._DeviceGuard(0):
    triton_poi_fused_add_gt_sin_1.run(true_graph_0_arg0_1, true_graph_0_arg1_1, true_graph_0_buf0, 8, stream=stream0)
del true_graph_0_arg0_1, true_graph_0_arg1_1, true_graph_0_buf0

stream0 = get_raw_stream(0)
false_graph_0_arg0_1 = generate_example_value((8,), (1,), 'cuda:0', torch.float32, 0, (8,))
false_graph_0_arg1_1 = generate_example_value((8,), (1,), 'cuda:0', torch.float32, 0, (8,))
false_graph_0_buf0 = generate_example_value((8,), (1,), 'cuda:0', torch.float32, 0, (8,))
with torch.cuda._DeviceGuard(0):
    triton_poi_fused_cos_gt_mul_2.run(false_graph_0_arg0_1, false_graph_0_arg1_1, false_graph_0_buf0, 8, stream=stream0)
del false_graph_0_arg0_1, false_graph_0_arg1_1, false_graph_0_buf0

stream0 = get_raw_stream(0)
buf4 = generate_example_value((8,), (1,), 'cuda:0', torch.float32, 0, (8,))
with torch.cuda._DeviceGuard(0):
    triton_poi_fused_add_3.run(buf4, 8, stream=stream0)
del buf4

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
CACHE_TORCH_DTYPE(bool);
CACHE_TORCH_DTYPE(float32);
CACHE_TORCH_DEVICE(cuda);

static CUfunction triton_per_fused_gt_sum_0 = nullptr;
template <typename in_ptr0_type_, typename out_ptr1_type_>
static inline void call_triton_per_fused_gt_sum_0(
    const in_ptr0_type_& in_ptr0,
    const out_ptr1_type_& out_ptr1,
    int64_t xnumel,
    int64_t r0_numel,
    int32_t device_idx_,
    cudaStream_t stream_,
    const std::optional<std::string>& cubin_dir_ = std::nullopt
){
    uint32_t grid_0 = xnumel;
    uint32_t grid_1 = 1;
    uint32_t grid_2 = 1;
    if (grid_0 == 0 || grid_1 == 0 || grid_2 == 0) return;
    if (triton_per_fused_gt_sum_0 == nullptr) {
        triton_per_fused_gt_sum_0 = loadKernel("/tmp/torchinductor_root/ax/caxcv66jrlen5emjlbfctpwj4imynpaavtg3bjrs74pw4bp4636n.cubin", "triton_per_fused_gt_sum_0", 0, cubin_dir_); 
    }
    CUdeviceptr var_0 = reinterpret_cast<CUdeviceptr>(in_ptr0.data_ptr());
    CUdeviceptr var_1 = reinterpret_cast<CUdeviceptr>(out_ptr1.data_ptr());
    int32_t var_2 = r0_numel;
    CUdeviceptr global_scratch_scratch_3 = 0;
    CUdeviceptr profile_scratch_scratch_4 = 0;
    void* kernel_args_[] = {&var_0, &var_1, &var_2, &global_scratch_scratch_3, &profile_scratch_scratch_4};
    launchKernel(triton_per_fused_gt_sum_0, grid_0, grid_1, grid_2, 2, 0, kernel_args_, stream_);
}

static CUfunction triton_poi_fused_add_gt_sin_1 = nullptr;
template <typename in_ptr0_type_, typename in_ptr1_type_, typename out_ptr0_type_>
static inline void call_triton_poi_fused_add_gt_sin_1(
    const in_ptr0_type_& in_ptr0,
    const in_ptr1_type_& in_ptr1,
    const out_ptr0_type_& out_ptr0,
    int64_t xnumel,
    int32_t device_idx_,
    cudaStream_t stream_,
    const std::optional<std::string>& cubin_dir_ = std::nullopt
){
    uint32_t grid_0 = ((xnumel + (8 - 1)) / (8));
    uint32_t grid_1 = 1;
    uint32_t grid_2 = 1;
    if (grid_0 == 0 || grid_1 == 0 || grid_2 == 0) return;
    if (triton_poi_fused_add_gt_sin_1 == nullptr) {
        triton_poi_fused_add_gt_sin_1 = loadKernel("/tmp/torchinductor_root/za/czao4pr2vqfepu3ysm6la7unakqnvgwadr4h4jw7kdgltx7pwtpl.cubin", "triton_poi_fused_add_gt_sin_1", 0, cubin_dir_); 
    }
    CUdeviceptr var_5 = reinterpret_cast<CUdeviceptr>(in_ptr0.data_ptr());
    CUdeviceptr var_6 = reinterpret_cast<CUdeviceptr>(in_ptr1.data_ptr());
    CUdeviceptr var_7 = reinterpret_cast<CUdeviceptr>(out_ptr0.data_ptr());
    int32_t var_8 = xnumel;
    CUdeviceptr global_scratch_scratch_9 = 0;
    CUdeviceptr profile_scratch_scratch_10 = 0;
    void* kernel_args_[] = {&var_5, &var_6, &var_7, &var_8, &global_scratch_scratch_9, &profile_scratch_scratch_10};
    launchKernel(triton_poi_fused_add_gt_sin_1, grid_0, grid_1, grid_2, 1, 0, kernel_args_, stream_);
}

static CUfunction triton_poi_fused_cos_gt_mul_2 = nullptr;
template <typename in_ptr0_type_, typename in_ptr1_type_, typename out_ptr0_type_>
static inline void call_triton_poi_fused_cos_gt_mul_2(
    const in_ptr0_type_& in_ptr0,
    const in_ptr1_type_& in_ptr1,
    const out_ptr0_type_& out_ptr0,
    int64_t xnumel,
    int32_t device_idx_,
    cudaStream_t stream_,
    const std::optional<std::string>& cubin_dir_ = std::nullopt
){
    uint32_t grid_0 = ((xnumel + (8 - 1)) / (8));
    uint32_t grid_1 = 1;
    uint32_t grid_2 = 1;
    if (grid_0 == 0 || grid_1 == 0 || grid_2 == 0) return;
    if (triton_poi_fused_cos_gt_mul_2 == nullptr) {
        triton_poi_fused_cos_gt_mul_2 = loadKernel("/tmp/torchinductor_root/vt/cvtlx6qssed4sizrf2u4mu5i3u27wvdlu72db3jqufj5n45rrtaq.cubin", "triton_poi_fused_cos_gt_mul_2", 0, cubin_dir_); 
    }
    CUdeviceptr var_11 = reinterpret_cast<CUdeviceptr>(in_ptr0.data_ptr());
    CUdeviceptr var_12 = reinterpret_cast<CUdeviceptr>(in_ptr1.data_ptr());
    CUdeviceptr var_13 = reinterpret_cast<CUdeviceptr>(out_ptr0.data_ptr());
    int32_t var_14 = xnumel;
    CUdeviceptr global_scratch_scratch_15 = 0;
    CUdeviceptr profile_scratch_scratch_16 = 0;
    void* kernel_args_[] = {&var_11, &var_12, &var_13, &var_14, &global_scratch_scratch_15, &profile_scratch_scratch_16};
    launchKernel(triton_poi_fused_cos_gt_mul_2, grid_0, grid_1, grid_2, 1, 0, kernel_args_, stream_);
}

static CUfunction triton_poi_fused_add_3 = nullptr;
template <typename in_out_ptr0_type_>
static inline void call_triton_poi_fused_add_3(
    const in_out_ptr0_type_& in_out_ptr0,
    int64_t xnumel,
    int32_t device_idx_,
    cudaStream_t stream_,
    const std::optional<std::string>& cubin_dir_ = std::nullopt
){
    uint32_t grid_0 = ((xnumel + (8 - 1)) / (8));
    uint32_t grid_1 = 1;
    uint32_t grid_2 = 1;
    if (grid_0 == 0 || grid_1 == 0 || grid_2 == 0) return;
    if (triton_poi_fused_add_3 == nullptr) {
        triton_poi_fused_add_3 = loadKernel("/tmp/torchinductor_root/ld/cldtj4rdidfocnj6mvz4fkakk7ot6qch3ypbzspxzmx2cmljy7t7.cubin", "triton_poi_fused_add_3", 0, cubin_dir_); 
    }
    CUdeviceptr var_17 = reinterpret_cast<CUdeviceptr>(in_out_ptr0.data_ptr());
    int32_t var_18 = xnumel;
    CUdeviceptr global_scratch_scratch_19 = 0;
    CUdeviceptr profile_scratch_scratch_20 = 0;
    void* kernel_args_[] = {&var_17, &var_18, &global_scratch_scratch_19, &profile_scratch_scratch_20};
    launchKernel(triton_poi_fused_add_3, grid_0, grid_1, grid_2, 1, 0, kernel_args_, stream_);
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

    auto inputs = steal_from_raw_handles_to_raii_handles(input_handles, 2);
    auto arg0_1 = std::move(inputs[0]);
    auto arg1_1 = std::move(inputs[1]);

    AOTICudaGuard device_guard(0);
    static constexpr int64_t *int_array_0=nullptr;
    AtenTensorHandle buf1_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(0, int_array_0, int_array_0, cached_torch_dtype_bool, cached_torch_device_type_cuda,  0, &buf1_handle));
    RAIIAtenTensorHandle buf1(buf1_handle);
    // Topologically Sorted Source Nodes: [sum_1, gt], Original ATen: [aten.sum, aten.gt]
    cudaStream_t stream0;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_get_current_cuda_stream(0, (void**)&stream0));
    call_triton_per_fused_gt_sum_0(arg0_1, buf1, 1L, 8L, 0, stream0);
    RAIIAtenTensorHandle buf3;
    bool buf1_scalar;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_item_bool(buf1, &buf1_scalar));
    if (buf1_scalar) {
        // subgraph: true_graph_0
        AtenTensorHandle true_graph_0_arg0_1_handle;
        AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_assign_tensors_out(arg0_1, &true_graph_0_arg0_1_handle));
        RAIIAtenTensorHandle true_graph_0_arg0_1(true_graph_0_arg0_1_handle);
        AtenTensorHandle true_graph_0_arg1_1_handle;
        AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_assign_tensors_out(arg1_1, &true_graph_0_arg1_1_handle));
        RAIIAtenTensorHandle true_graph_0_arg1_1(true_graph_0_arg1_1_handle);

        device_guard.set_index(0);
        static constexpr int64_t int_array_1[] = {8L, };
        static constexpr int64_t int_array_2[] = {1L, };
        AtenTensorHandle true_graph_0_buf0_handle;
        AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(1, int_array_1, int_array_2, cached_torch_dtype_float32, cached_torch_device_type_cuda,  0, &true_graph_0_buf0_handle));
        RAIIAtenTensorHandle true_graph_0_buf0(true_graph_0_buf0_handle);
        // Unsorted Source Nodes: [cond, gt, child, sin], Original ATen: [aten.gt, aten.add, aten.sin]
        cudaStream_t stream0;
        AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_get_current_cuda_stream(0, (void**)&stream0));
        call_triton_poi_fused_add_gt_sin_1(true_graph_0_arg0_1, true_graph_0_arg1_1, true_graph_0_buf0, 8L, 0, stream0);
        true_graph_0_arg0_1.reset();
        true_graph_0_arg1_1.reset();
        buf3.reset();
        buf3 = std::move(true_graph_0_buf0);
    } else {
        // subgraph: false_graph_0
        AtenTensorHandle false_graph_0_arg0_1_handle;
        AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_assign_tensors_out(arg0_1, &false_graph_0_arg0_1_handle));
        RAIIAtenTensorHandle false_graph_0_arg0_1(false_graph_0_arg0_1_handle);
        AtenTensorHandle false_graph_0_arg1_1_handle;
        AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_assign_tensors_out(arg1_1, &false_graph_0_arg1_1_handle));
        RAIIAtenTensorHandle false_graph_0_arg1_1(false_graph_0_arg1_1_handle);

        device_guard.set_index(0);
        static constexpr int64_t int_array_3[] = {8L, };
        static constexpr int64_t int_array_4[] = {1L, };
        AtenTensorHandle false_graph_0_buf0_handle;
        AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(1, int_array_3, int_array_4, cached_torch_dtype_float32, cached_torch_device_type_cuda,  0, &false_graph_0_buf0_handle));
        RAIIAtenTensorHandle false_graph_0_buf0(false_graph_0_buf0_handle);
        // Unsorted Source Nodes: [cond, gt, child, cos], Original ATen: [aten.gt, aten.mul, aten.cos]
        cudaStream_t stream0;
        AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_get_current_cuda_stream(0, (void**)&stream0));
        call_triton_poi_fused_cos_gt_mul_2(false_graph_0_arg0_1, false_graph_0_arg1_1, false_graph_0_buf0, 8L, 0, stream0);
        false_graph_0_arg0_1.reset();
        false_graph_0_arg1_1.reset();
        buf3.reset();
        buf3 = std::move(false_graph_0_buf0);
    }
    arg0_1.reset();
    arg1_1.reset();
    buf1.reset();

    auto buf4 = std::move(buf3);  // reuse
    // Topologically Sorted Source Nodes: [add], Original ATen: [aten.add]
    call_triton_poi_fused_add_3(buf4, 8L, 0, stream0);
    output_handles[0] = buf4.release();
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
    arg0_1 = rand_strided((8, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg1_1 = rand_strided((8, ), (1, ), device='cuda:0', dtype=torch.float32)
    return [arg0_1, arg1_1]


def benchmark_compiled_module(args, times=10, repeat=10):
    from torch._inductor.utils import print_performance
    fn = lambda: call(list(args))
    return print_performance(fn, times=times, repeat=repeat)


if __name__ == "__main__":
    from torch._inductor.wrapper_benchmark import compiled_module_main
    args = get_args()
    compiled_module_main('None', lambda times, repeat: benchmark_compiled_module(args, times=times, repeat=repeat))
