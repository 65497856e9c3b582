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


# kernel path: /tmp/torchinductor_root/z6/cz6z7d66eqryoqaxscjvjtzz4yet7apstyforluft6gussc645yj.py
# Topologically Sorted Source Nodes: [sort], Original ATen: [aten.sort]
# Source node to ATen node mapping:
#   sort => getitem_1, sort
# Graph fragment:
#   %arg0_1 : Tensor "f32[10, 8][8, 1]cuda:0" = PlaceHolder[target=arg0_1]
#   %buf1 : Tensor "i16[10, 8][8, 1]cuda:0" = PlaceHolder[target=buf1]
#   %sort : [num_users=2] = call_function[target=torch.ops.aten.sort.default](args = (%arg0_1,), kwargs = {})
#   %getitem_1 : Tensor "i64[10, 8][8, 1]cuda:0"[num_users=1] = call_function[target=operator.getitem](args = (%sort, 1), kwargs = {})
#   return %getitem,%buf1,%getitem_1
triton_per_fused_sort_0 = async_compile.triton('triton_per_fused_sort_0', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 16, 'r0_': 8},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp32', 'out_ptr2': '*i64', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused_sort_0', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 1, 'num_store': 2, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': True, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 0, 'r0_': 2240}}
)
@triton.jit
def triton_per_fused_sort_0(in_ptr0, out_ptr0, out_ptr2, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 10
    r0_numel = 8
    R0_BLOCK: tl.constexpr = 8
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = tl.full([R0_BLOCK], True, tl.int1)[None, :]
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (r0_1 + 8*x0), xmask, other=0.0)
    tmp1 = r0_1
    tmp2 = tmp1.to(tl.int16)
    tmp3 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
    tmp4 = tl.broadcast_to(tmp2, [XBLOCK, R0_BLOCK])
    tmp5, tmp6, = triton_helpers.sort_with_index(tmp3, tmp4, None, 1, stable=False, descending=False)
    tmp7 = tmp6.to(tl.int64)
    tl.store(out_ptr0 + (r0_1 + 8*x0), tmp5, xmask)
    tl.store(out_ptr2 + (r0_1 + 8*x0), tmp7, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/do/cdo3nc7xfesjjudj5kd6bja4ehtr6s6wrnuy3pg4ib6qdmy244qo.py
# Topologically Sorted Source Nodes: [tensor, e], Original ATen: [aten.lift_fresh, aten._embedding_bag_forward_only]
# Source node to ATen node mapping:
#   e => _embedding_bag_forward_only
#   tensor => lift_fresh_copy
# Graph fragment:
#   %lift_fresh_copy : Tensor "i64[2][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.lift_fresh_copy.default](args = (%_tensor_constant0,), kwargs = {})
#   %_embedding_bag_forward_only : [num_users=1] = call_function[target=torch.ops.aten._embedding_bag_forward_only.default](args = (%arg0_1, %arg2_1, %lift_fresh_copy, False, 1), kwargs = {})
#   return %buf6
triton_poi_fused__embedding_bag_forward_only_lift_fresh_1 = async_compile.triton('triton_poi_fused__embedding_bag_forward_only_lift_fresh_1', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 2}, 
    filename=__file__,
    triton_meta={'signature': {'out_ptr0': '*i64', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused__embedding_bag_forward_only_lift_fresh_1', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 0, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': True, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 8}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused__embedding_bag_forward_only_lift_fresh_1(out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 2
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = x0
    tmp1 = tl.full([1], 1, tl.int64)
    tmp2 = tmp0 < tmp1
    tmp3 = tl.full([1], 0, tl.int64)
    tmp4 = tl.full([1], 2, tl.int64)
    tmp5 = tl.where(tmp2, tmp3, tmp4)
    tl.store(out_ptr0 + (x0), tmp5, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/wh/cwhmg3ptmrgqv25ys6l4bbfuoiowikwvouwes4p6xtvoo6t7omgu.py
# Topologically Sorted Source Nodes: [zeros], Original ATen: [aten.zeros]
# Source node to ATen node mapping:
#   zeros => full_default
# Graph fragment:
#   %full_default : Tensor "f32[10][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([10], 0), kwargs = {dtype: torch.float32, layout: torch.strided, device: cuda:0, pin_memory: False})
#   return %index_put
triton_poi_fused_zeros_2 = async_compile.triton('triton_poi_fused_zeros_2', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 16}, 
    filename=__file__,
    triton_meta={'signature': {'out_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_zeros_2', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 0, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': True, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 80}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_zeros_2(out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 10
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.full([1], 0.0, tl.float32)
    tl.store(out_ptr0 + (x0), tmp0, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/uu/cuurgzhtzzjwfeidlzt3cyyrg3s55gjg7vjgpqpahrivnh2drw7z.py
# Topologically Sorted Source Nodes: [zeros, y], Original ATen: [aten.zeros, aten.index_put]
# Source node to ATen node mapping:
#   y => index_put
#   zeros => full_default
# Graph fragment:
#   %arg2_1 : Tensor "i64[4][1]cuda:0" = PlaceHolder[target=arg2_1]
#   %arg1_1 : Tensor "f32[4][1]cuda:0" = PlaceHolder[target=arg1_1]
#   %index_put : Tensor "f32[10][1]cuda:0" = PlaceHolder[target=index_put]
#   %full_default : Tensor "f32[10][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([10], 0), kwargs = {dtype: torch.float32, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %index_put : Tensor "f32[10][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.index_put_.default](args = (%full_default, [%arg2_1], %arg1_1, True), kwargs = {})
#   return %buf13
triton_poi_fused_index_put_zeros_3 = async_compile.triton('triton_poi_fused_index_put_zeros_3', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 4}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*i64', 'in_ptr1': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_index_put_zeros_3', 'mutated_arg_names': ['out_ptr0'], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': True, 'num_load': 2, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': True, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 24}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_index_put_zeros_3(in_ptr0, in_ptr1, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 4
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0), xmask)
    tmp6 = tl.load(in_ptr1 + (x0), xmask)
    tmp1 = tl.full([XBLOCK], 10, tl.int32)
    tmp2 = tmp0 + tmp1
    tmp3 = tmp0 < 0
    tmp4 = tl.where(tmp3, tmp2, tmp0)
    tl.device_assert(((0 <= tmp4) & (tmp4 < 10)) | ~(xmask), "index out of bounds: 0 <= tmp4 < 10")
    tl.atomic_add(out_ptr0 + (tl.broadcast_to(tmp4, [XBLOCK])), tmp6, xmask, sem='relaxed')
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/nc/cncqzrgmguridmkegbcqdaellmfwgmwtocpdgzf5uzilbmvmqd35.py
# Topologically Sorted Source Nodes: [getitem_4, getitem_5, searchsorted], Original ATen: [aten.select, aten.searchsorted]
# Source node to ATen node mapping:
#   getitem_4 => select
#   getitem_5 => select_1
#   searchsorted => searchsorted
# Graph fragment:
#   %arg0_1 : Tensor "f32[10, 8][8, 1]cuda:0" = PlaceHolder[target=arg0_1]
#   %getitem : Tensor "f32[10, 8][8, 1]cuda:0" = PlaceHolder[target=getitem]
#   %select : Tensor "f32[8][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.select.int](args = (%getitem, 0, 0), kwargs = {})
#   %select_1 : Tensor "f32[8][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.select.int](args = (%arg0_1, 0, 1), kwargs = {})
#   %searchsorted : Tensor "i64[8][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.searchsorted.Tensor](args = (%select, %select_1), kwargs = {})
#   return %searchsorted
triton_poi_fused_searchsorted_select_4 = async_compile.triton('triton_poi_fused_searchsorted_select_4', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 8}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'out_ptr0': '*i64', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': {AutotuneHint.ONE_ELEMENT_PER_THREAD}, 'kernel_name': 'triton_poi_fused_searchsorted_select_4', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': True, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 160}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_searchsorted_select_4(in_ptr0, in_ptr1, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 8
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (8 + x0), xmask)
    tmp1 = triton_helpers.bucketize_binary_search(tmp0, in_ptr1, 8, 8, 1, 0, tl.int64, False, None, None, None, )
    tl.store(out_ptr0 + (x0), tmp1, xmask)
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
arg0_1 = generate_example_value((10, 8), (8, 1), 'cuda:0', torch.float32, 0, (10, 8))
buf0 = generate_example_value((10, 8), (8, 1), 'cuda:0', torch.float32, 0, (10, 8))
buf2 = generate_example_value((10, 8), (8, 1), 'cuda:0', torch.int64, 0, (10, 8))
with torch.cuda._DeviceGuard(0):
    triton_per_fused_sort_0.run(arg0_1, buf0, buf2, 10, 8, stream=stream0)
del buf2

stream0 = get_raw_stream(0)
buf6 = generate_example_value((2,), (1,), 'cuda:0', torch.int64, 0, (2,))
with torch.cuda._DeviceGuard(0):
    triton_poi_fused__embedding_bag_forward_only_lift_fresh_1.run(buf6, 2, stream=stream0)
del buf6

stream0 = get_raw_stream(0)
buf12 = generate_example_value((10,), (1,), 'cuda:0', torch.float32, 0, (10,))
with torch.cuda._DeviceGuard(0):
    triton_poi_fused_zeros_2.run(buf12, 10, stream=stream0)

stream0 = get_raw_stream(0)
arg2_1 = generate_example_value((4,), (1,), 'cuda:0', torch.int64, 0, (4,))
arg1_1 = generate_example_value((4,), (1,), 'cuda:0', torch.float32, 0, (4,))
with torch.cuda._DeviceGuard(0):
    triton_poi_fused_index_put_zeros_3.run(arg2_1, arg1_1, buf12, 4, stream=stream0)
del buf12, arg2_1, arg1_1

stream0 = get_raw_stream(0)
buf14 = generate_example_value((8,), (1,), 'cuda:0', torch.int64, 0, (8,))
with torch.cuda._DeviceGuard(0):
    triton_poi_fused_searchsorted_select_4.run(arg0_1, buf0, buf14, 8, stream=stream0)
del arg0_1, buf0, buf14

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
CACHE_TORCH_DTYPE(float32);
CACHE_TORCH_DTYPE(int64);
CACHE_TORCH_DEVICE(cuda);

static CUfunction triton_per_fused_sort_0 = nullptr;
template <typename in_ptr0_type_, typename out_ptr0_type_, typename out_ptr2_type_>
static inline void call_triton_per_fused_sort_0(
    const in_ptr0_type_& in_ptr0,
    const out_ptr0_type_& out_ptr0,
    const out_ptr2_type_& out_ptr2,
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
    if (triton_per_fused_sort_0 == nullptr) {
        triton_per_fused_sort_0 = loadKernel("/tmp/torchinductor_root/mw/cmwnpfo63cmcgayal5xrciitakrbk7dvvgmvn4rfxvaozbw2gbxt.cubin", "triton_per_fused_sort_0", 0, cubin_dir_); 
    }
    CUdeviceptr var_0 = reinterpret_cast<CUdeviceptr>(in_ptr0.data_ptr());
    CUdeviceptr var_1 = reinterpret_cast<CUdeviceptr>(out_ptr0.data_ptr());
    CUdeviceptr var_2 = reinterpret_cast<CUdeviceptr>(out_ptr2.data_ptr());
    int32_t var_3 = xnumel;
    int32_t var_4 = r0_numel;
    CUdeviceptr global_scratch_scratch_5 = 0;
    CUdeviceptr profile_scratch_scratch_6 = 0;
    void* kernel_args_[] = {&var_0, &var_1, &var_2, &var_3, &var_4, &global_scratch_scratch_5, &profile_scratch_scratch_6};
    launchKernel(triton_per_fused_sort_0, grid_0, grid_1, grid_2, 2, 0, kernel_args_, stream_);
}

static CUfunction triton_poi_fused__embedding_bag_forward_only_lift_fresh_1 = nullptr;
template <typename out_ptr0_type_>
static inline void call_triton_poi_fused__embedding_bag_forward_only_lift_fresh_1(
    const out_ptr0_type_& out_ptr0,
    int64_t xnumel,
    int32_t device_idx_,
    cudaStream_t stream_,
    const std::optional<std::string>& cubin_dir_ = std::nullopt
){
    uint32_t grid_0 = ((xnumel + (2 - 1)) / (2));
    uint32_t grid_1 = 1;
    uint32_t grid_2 = 1;
    if (grid_0 == 0 || grid_1 == 0 || grid_2 == 0) return;
    if (triton_poi_fused__embedding_bag_forward_only_lift_fresh_1 == nullptr) {
        triton_poi_fused__embedding_bag_forward_only_lift_fresh_1 = loadKernel("/tmp/torchinductor_root/x6/cx6xayxmqsxf7pqngolxc63x4z6d5shxu3vzd3ndkth3m4xasb35.cubin", "triton_poi_fused__embedding_bag_forward_only_lift_fresh_1", 0, cubin_dir_); 
    }
    CUdeviceptr var_7 = reinterpret_cast<CUdeviceptr>(out_ptr0.data_ptr());
    int32_t var_8 = xnumel;
    CUdeviceptr global_scratch_scratch_9 = 0;
    CUdeviceptr profile_scratch_scratch_10 = 0;
    void* kernel_args_[] = {&var_7, &var_8, &global_scratch_scratch_9, &profile_scratch_scratch_10};
    launchKernel(triton_poi_fused__embedding_bag_forward_only_lift_fresh_1, grid_0, grid_1, grid_2, 1, 0, kernel_args_, stream_);
}

static CUfunction triton_poi_fused_zeros_2 = nullptr;
template <typename out_ptr0_type_>
static inline void call_triton_poi_fused_zeros_2(
    const out_ptr0_type_& out_ptr0,
    int64_t xnumel,
    int32_t device_idx_,
    cudaStream_t stream_,
    const std::optional<std::string>& cubin_dir_ = std::nullopt
){
    uint32_t grid_0 = ((xnumel + (16 - 1)) / (16));
    uint32_t grid_1 = 1;
    uint32_t grid_2 = 1;
    if (grid_0 == 0 || grid_1 == 0 || grid_2 == 0) return;
    if (triton_poi_fused_zeros_2 == nullptr) {
        triton_poi_fused_zeros_2 = loadKernel("/tmp/torchinductor_root/uo/cuoxzuxcnpya3gtiacbmec6lc75ag5twkf4myhaopfsu6b7cd66j.cubin", "triton_poi_fused_zeros_2", 0, cubin_dir_); 
    }
    CUdeviceptr var_11 = reinterpret_cast<CUdeviceptr>(out_ptr0.data_ptr());
    int32_t var_12 = xnumel;
    CUdeviceptr global_scratch_scratch_13 = 0;
    CUdeviceptr profile_scratch_scratch_14 = 0;
    void* kernel_args_[] = {&var_11, &var_12, &global_scratch_scratch_13, &profile_scratch_scratch_14};
    launchKernel(triton_poi_fused_zeros_2, grid_0, grid_1, grid_2, 1, 0, kernel_args_, stream_);
}

static CUfunction triton_poi_fused_index_put_zeros_3 = nullptr;
template <typename in_ptr0_type_, typename in_ptr1_type_, typename out_ptr0_type_>
static inline void call_triton_poi_fused_index_put_zeros_3(
    const in_ptr0_type_& in_ptr0,
    const in_ptr1_type_& in_ptr1,
    const out_ptr0_type_& out_ptr0,
    int64_t xnumel,
    int32_t device_idx_,
    cudaStream_t stream_,
    const std::optional<std::string>& cubin_dir_ = std::nullopt
){
    uint32_t grid_0 = ((xnumel + (4 - 1)) / (4));
    uint32_t grid_1 = 1;
    uint32_t grid_2 = 1;
    if (grid_0 == 0 || grid_1 == 0 || grid_2 == 0) return;
    if (triton_poi_fused_index_put_zeros_3 == nullptr) {
        triton_poi_fused_index_put_zeros_3 = loadKernel("/tmp/torchinductor_root/vb/cvbxrygchrbsgwxyclsaencw24fsjw6nxbde2qir4zldlhpyeq6c.cubin", "triton_poi_fused_index_put_zeros_3", 0, cubin_dir_); 
    }
    CUdeviceptr var_15 = reinterpret_cast<CUdeviceptr>(in_ptr0.data_ptr());
    CUdeviceptr var_16 = reinterpret_cast<CUdeviceptr>(in_ptr1.data_ptr());
    CUdeviceptr var_17 = reinterpret_cast<CUdeviceptr>(out_ptr0.data_ptr());
    int32_t var_18 = xnumel;
    CUdeviceptr global_scratch_scratch_19 = 0;
    CUdeviceptr profile_scratch_scratch_20 = 0;
    void* kernel_args_[] = {&var_15, &var_16, &var_17, &var_18, &global_scratch_scratch_19, &profile_scratch_scratch_20};
    launchKernel(triton_poi_fused_index_put_zeros_3, grid_0, grid_1, grid_2, 1, 0, kernel_args_, stream_);
}

static CUfunction triton_poi_fused_searchsorted_select_4 = nullptr;
template <typename in_ptr0_type_, typename in_ptr1_type_, typename out_ptr0_type_>
static inline void call_triton_poi_fused_searchsorted_select_4(
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
    if (triton_poi_fused_searchsorted_select_4 == nullptr) {
        triton_poi_fused_searchsorted_select_4 = loadKernel("/tmp/torchinductor_root/eb/cebpc3wocgbcq2k7fjbjqwgt5bln6kje6xfkyrhlq6zka56jbsdp.cubin", "triton_poi_fused_searchsorted_select_4", 0, cubin_dir_); 
    }
    CUdeviceptr var_21 = reinterpret_cast<CUdeviceptr>(in_ptr0.data_ptr());
    CUdeviceptr var_22 = reinterpret_cast<CUdeviceptr>(in_ptr1.data_ptr());
    CUdeviceptr var_23 = reinterpret_cast<CUdeviceptr>(out_ptr0.data_ptr());
    int32_t var_24 = xnumel;
    CUdeviceptr global_scratch_scratch_25 = 0;
    CUdeviceptr profile_scratch_scratch_26 = 0;
    void* kernel_args_[] = {&var_21, &var_22, &var_23, &var_24, &global_scratch_scratch_25, &profile_scratch_scratch_26};
    launchKernel(triton_poi_fused_searchsorted_select_4, grid_0, grid_1, grid_2, 1, 0, kernel_args_, stream_);
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

    auto inputs = steal_from_raw_handles_to_raii_handles(input_handles, 3);
    auto arg0_1 = std::move(inputs[0]);
    auto arg1_1 = std::move(inputs[1]);
    auto arg2_1 = std::move(inputs[2]);

    AOTICudaGuard device_guard(0);
    static constexpr int64_t int_array_0[] = {10L, 8L};
    static constexpr int64_t int_array_1[] = {8L, 1L};
    AtenTensorHandle buf0_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(2, int_array_0, int_array_1, cached_torch_dtype_float32, cached_torch_device_type_cuda,  0, &buf0_handle));
    RAIIAtenTensorHandle buf0(buf0_handle);
    static constexpr int64_t int_array_2[] = {10L, 8L};
    static constexpr int64_t int_array_3[] = {8L, 1L};
    AtenTensorHandle buf2_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(2, int_array_2, int_array_3, cached_torch_dtype_int64, cached_torch_device_type_cuda,  0, &buf2_handle));
    RAIIAtenTensorHandle buf2(buf2_handle);
    // Topologically Sorted Source Nodes: [sort], Original ATen: [aten.sort]
    cudaStream_t stream0;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_get_current_cuda_stream(0, (void**)&stream0));
    call_triton_per_fused_sort_0(arg0_1, buf0, buf2, 10L, 8L, 0, stream0);
    // Topologically Sorted Source Nodes: [topk], Original ATen: [aten.topk]
    AtenTensorHandle buf4_handle;
    AtenTensorHandle buf5_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_cuda_topk(arg0_1, 3L, -1L, 1, 1, &buf4_handle, &buf5_handle));
    RAIIAtenTensorHandle buf4(buf4_handle);
    RAIIAtenTensorHandle buf5(buf5_handle);

    static constexpr int64_t int_array_4[] = {2L, };
    static constexpr int64_t int_array_5[] = {1L, };
    AtenTensorHandle buf6_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(1, int_array_4, int_array_5, cached_torch_dtype_int64, cached_torch_device_type_cuda,  0, &buf6_handle));
    RAIIAtenTensorHandle buf6(buf6_handle);
    // Topologically Sorted Source Nodes: [tensor, e], Original ATen: [aten.lift_fresh, aten._embedding_bag_forward_only]
    call_triton_poi_fused__embedding_bag_forward_only_lift_fresh_1(buf6, 2L, 0, stream0);
    // Topologically Sorted Source Nodes: [tensor, e], Original ATen: [aten.lift_fresh, aten._embedding_bag_forward_only]
    AtenTensorHandle buf8_handle;
    AtenTensorHandle buf9_handle;
    AtenTensorHandle buf10_handle;
    AtenTensorHandle buf11_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_cuda__embedding_bag_forward_only(arg0_1, arg2_1, buf6, 0, 1L, 0, nullptr, 0, -1L, &buf8_handle, &buf9_handle, &buf10_handle, &buf11_handle));
    RAIIAtenTensorHandle buf8(buf8_handle);
    RAIIAtenTensorHandle buf9(buf9_handle);
    RAIIAtenTensorHandle buf10(buf10_handle);
    RAIIAtenTensorHandle buf11(buf11_handle);
    buf6.reset();

    static constexpr int64_t int_array_6[] = {10L, };
    static constexpr int64_t int_array_7[] = {1L, };
    AtenTensorHandle buf12_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(1, int_array_6, int_array_7, cached_torch_dtype_float32, cached_torch_device_type_cuda,  0, &buf12_handle));
    RAIIAtenTensorHandle buf12(buf12_handle);
    // Topologically Sorted Source Nodes: [zeros], Original ATen: [aten.zeros]
    call_triton_poi_fused_zeros_2(buf12, 10L, 0, stream0);
    // Topologically Sorted Source Nodes: [zeros, y], Original ATen: [aten.zeros, aten.index_put]
    call_triton_poi_fused_index_put_zeros_3(arg2_1, arg1_1, buf12, 4L, 0, stream0);
    arg1_1.reset();
    arg2_1.reset();
    static constexpr int64_t int_array_8[] = {8L, };
    static constexpr int64_t int_array_9[] = {1L, };
    AtenTensorHandle buf14_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(1, int_array_8, int_array_9, cached_torch_dtype_int64, cached_torch_device_type_cuda,  0, &buf14_handle));
    RAIIAtenTensorHandle buf14(buf14_handle);
    // Topologically Sorted Source Nodes: [getitem_4, getitem_5, searchsorted], Original ATen: [aten.select, aten.searchsorted]
    call_triton_poi_fused_searchsorted_select_4(arg0_1, buf0, buf14, 8L, 0, stream0);
    arg0_1.reset();
    output_handles[0] = buf0.release();
    output_handles[1] = buf2.release();
    output_handles[2] = buf4.release();
    output_handles[3] = buf5.release();
    output_handles[4] = buf12.release();
    output_handles[5] = buf8.release();
    output_handles[6] = buf14.release();
} // inductor_entry_impl
'''
)

inductor_entry = CppWrapperCodeCache.load_pybinding(
    argtypes=["std::vector<AtenTensorHandle>"],
    main_code=cpp_wrapper_src,
    device_type="cuda",
    num_outputs=7,
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
    arg0_1 = rand_strided((10, 8), (8, 1), device='cuda:0', dtype=torch.float32)
    arg1_1 = rand_strided((4, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg2_1 = rand_strided((4, ), (1, ), device='cuda:0', dtype=torch.int64)
    return [arg0_1, arg1_1, arg2_1]


def benchmark_compiled_module(args, times=10, repeat=10):
    from torch._inductor.utils import print_performance
    fn = lambda: call(list(args))
    return print_performance(fn, times=times, repeat=repeat)


if __name__ == "__main__":
    from torch._inductor.wrapper_benchmark import compiled_module_main
    args = get_args()
    compiled_module_main('None', lambda times, repeat: benchmark_compiled_module(args, times=times, repeat=repeat))
