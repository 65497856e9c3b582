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


# kernel path: /tmp/torchinductor_root/62/c62dub36l4ce2be5n4v3z4n2pk2z5rlxbudjlng34ekfxdkkg4ud.py
# Topologically Sorted Source Nodes: [gt, sum_1, gt_1, gt_2], Original ATen: [aten.gt, aten.sum]
# Source node to ATen node mapping:
#   gt => gt
#   gt_1 => gt_1
#   gt_2 => gt_2
#   sum_1 => sum_1
# Graph fragment:
#   %arg0_1 : Tensor "f32[8, 16][16, 1]cuda:0" = PlaceHolder[target=arg0_1]
#   %gt : Tensor "b8[8, 16][16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.gt.Scalar](args = (%arg0_1, 0), kwargs = {})
#   %sum_1 : Tensor "i64[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sum.default](args = (%gt,), kwargs = {})
#   %gt_1 : Tensor "b8[8, 16][16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.gt.Scalar](args = (%arg0_1, 0.5), kwargs = {})
#   %gt_2 : Tensor "b8[8, 16][16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.gt.Scalar](args = (%arg0_1, 0), kwargs = {})
#   return %sum_1,%gt_1,%gt_2
triton_per_fused_gt_sum_0 = async_compile.triton('triton_per_fused_gt_sum_0', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 1, 'r0_': 128},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*i64', 'out_ptr1': '*i1', 'out_ptr2': '*i1', 'xnumel': 'constexpr', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {'xnumel': 1}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused_gt_sum_0', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 1, 'num_store': 3, 'num_reduction': 1, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': True, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'r0_': 1024}}
)
@triton.jit
def triton_per_fused_gt_sum_0(in_ptr0, out_ptr0, out_ptr1, out_ptr2, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 1
    r0_numel = 128
    R0_BLOCK: tl.constexpr = 128
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
    tmp1 = tl.full([1, 1], 0.0, tl.float32)
    tmp2 = tmp0 > tmp1
    tmp3 = tmp2.to(tl.int64)
    tmp4 = tl.broadcast_to(tmp3, [XBLOCK, R0_BLOCK])
    tmp6 = tl.sum(tmp4, 1)[:, None].to(tl.int64)
    tmp7 = tl.full([1, 1], 0.5, tl.float32)
    tmp8 = tmp0 > tmp7
    tl.store(out_ptr1 + (tl.broadcast_to(r0_0, [XBLOCK, R0_BLOCK])), tmp8, None)
    tl.store(out_ptr2 + (tl.broadcast_to(r0_0, [XBLOCK, R0_BLOCK])), tmp2, None)
    tl.store(out_ptr0 + (tl.full([1, 1], 0, tl.int32).broadcast_to(XBLOCK, 1)), tmp6, None)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/uy/cuyssoeb32clo63stupi7zpqw7pyvmp74bcj23mkdx2sdseolfgt.py
# Topologically Sorted Source Nodes: [float_1, sum_2, mul], Original ATen: [aten._to_copy, aten.sum, aten.mul]
# Source node to ATen node mapping:
#   float_1 => convert_element_type
#   mul => mul_3
#   sum_2 => sum_2
# Graph fragment:
#   %nonzero : Tensor "i64[u1, 2][1, u1]cuda:0" = PlaceHolder[target=nonzero]
#   %nonzero : Tensor  = PlaceHolder[target=nonzero]
#   %sum_2 : Tensor "f32[2][1]cuda:0" = PlaceHolder[target=sum_2]
#   %buf1 : Tensor  = PlaceHolder[target=buf1]
#   %convert_element_type : Tensor "f32[u1, 2][1, u1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%nonzero, torch.float32), kwargs = {})
#   %sum_2 : Tensor "f32[2][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%convert_element_type, [0]), kwargs = {})
#   %mul_3 : Tensor "f32[2][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sum_2, %_local_scalar_dense), kwargs = {})
#   return %sum_2,%mul_3
triton_red_fused__to_copy_mul_sum_1 = async_compile.triton('triton_red_fused__to_copy_mul_sum_1', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.reduction(
    size_hints={'x': 2, 'r0_': 8192},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'in_ptr0': '*i64', 'ks0': 'i64', 'ks1': 'i64', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_red_fused__to_copy_mul_sum_1', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 1, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': True, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 4, 'r0_': 2048}}
)
@triton.jit
def triton_red_fused__to_copy_mul_sum_1(in_out_ptr0, in_ptr0, ks0, ks1, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 2
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = xindex
    _tmp3 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp0 = tl.load(in_ptr0 + (r0_1 + ks0*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp1 = tmp0.to(tl.float32)
        tmp2 = tl.broadcast_to(tmp1, [XBLOCK, R0_BLOCK])
        tmp4 = _tmp3 + tmp2
        _tmp3 = tl.where(r0_mask & xmask, tmp4, _tmp3)
    tmp3 = tl.sum(_tmp3, 1)[:, None]
    tmp5 = ks1
    tmp6 = tmp5.to(tl.float32)
    tmp7 = tmp3 * tmp6
    tl.debug_barrier()
    tl.store(in_out_ptr0 + (x0), tmp7, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/i3/ci3vslpgd7sxvgevt6jz2jaxlvparhtphl7oi7ib5e3kopttu4w6.py
# Topologically Sorted Source Nodes: [sum_3], Original ATen: [aten.sum]
# Source node to ATen node mapping:
#   sum_3 => sum_3
# Graph fragment:
#   %index : Tensor "f32[u2][1]cuda:0" = PlaceHolder[target=index]
#   %index : Tensor  = PlaceHolder[target=index]
#   %sum_3 : Tensor "f32[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sum.default](args = (%index,), kwargs = {})
#   return %sum_3
triton_red_fused_sum_2 = async_compile.triton('triton_red_fused_sum_2', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.reduction(
    size_hints={'x': 1, 'r0_': 8192},
    reduction_hint=ReductionHint.DEFAULT,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'constexpr', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {'xnumel': 1}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_red_fused_sum_2', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 1, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': True, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'r0_': 512}}
)
@triton.jit
def triton_red_fused_sum_2(in_ptr0, out_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 1
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = tl.full([XBLOCK], True, tl.int1)[:, None]
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    _tmp2 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_0 = r0_index
        tmp0 = tl.load(in_ptr0 + (r0_0), r0_mask, eviction_policy='evict_first', other=0.0)
        tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
        tmp3 = _tmp2 + tmp1
        _tmp2 = tl.where(r0_mask, tmp3, _tmp2)
    tmp2 = tl.sum(_tmp2, 1)[:, None]
    tl.store(out_ptr0 + (tl.full([1, 1], 0, tl.int32).broadcast_to(XBLOCK, 1)), tmp2, None)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/so/csohssix3qqnel7qdpm64cvsgt6k2rkovlp5kkch5q46y4einehb.py
# Topologically Sorted Source Nodes: [getitem_1, sum_4, add], Original ATen: [aten.slice, aten.sum, aten.add]
# Source node to ATen node mapping:
#   add => add_10
#   getitem_1 => slice_1
#   sum_4 => sum_4
# Graph fragment:
#   %arg0_1 : Tensor "f32[8, 16][16, 1]cuda:0" = PlaceHolder[target=arg0_1]
#   %buf14 : Tensor  = PlaceHolder[target=buf14]
#   %sum_4 : Tensor "f32[8][1]cuda:0" = PlaceHolder[target=sum_4]
#   %slice_1 : Tensor "f32[8, u3][16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%arg0_1, 1, 0, %_local_scalar_dense_1), kwargs = {})
#   %sum_4 : Tensor "f32[8][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%slice_1, [1]), kwargs = {})
#   %add_10 : Tensor "f32[8][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%sum_4, %_local_scalar_dense_1), kwargs = {})
#   return %sum_4,%add_10
triton_red_fused_add_slice_sum_3 = async_compile.triton('triton_red_fused_add_slice_sum_3', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.reduction(
    size_hints={'x': 8, 'r0_': 8192},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'in_ptr0': '*fp32', 'ks0': 'i64', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_red_fused_add_slice_sum_3', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 1, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': True, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 64, 'r0_': 512}}
)
@triton.jit
def triton_red_fused_add_slice_sum_3(in_out_ptr0, in_ptr0, ks0, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 8
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = xindex
    _tmp2 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp0 = tl.load(in_ptr0 + (r0_1 + 16*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
        tmp3 = _tmp2 + tmp1
        _tmp2 = tl.where(r0_mask & xmask, tmp3, _tmp2)
    tmp2 = tl.sum(_tmp2, 1)[:, None]
    tmp4 = ks0
    tmp5 = tmp4.to(tl.float32)
    tmp6 = tmp2 + tmp5
    tl.debug_barrier()
    tl.store(in_out_ptr0 + (x0), tmp6, xmask)
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
with torch.cuda._DeviceGuard(0):
    stream0 = get_raw_stream(0)
stream0 = get_raw_stream(0)
arg0_1 = generate_example_value((8, 16), (16, 1), 'cuda:0', torch.float32, 0, (8, 16))
buf0 = generate_example_value((), (), 'cuda:0', torch.int64, 0, ())
buf4 = generate_example_value((8, 16), (16, 1), 'cuda:0', torch.bool, 0, (8, 16))
buf9 = generate_example_value((8, 16), (16, 1), 'cuda:0', torch.bool, 0, (8, 16))
with torch.cuda._DeviceGuard(0):
    triton_per_fused_gt_sum_0.run(arg0_1, buf0, buf4, buf9, 1, 128, stream=stream0)
del buf0, buf4, buf9

stream0 = get_raw_stream(0)
buf20 = generate_example_value((2,), (1,), 'cuda:0', torch.float32, 0, (2,))
buf6 = generate_example_value((128, 2), (1, 128), 'cuda:0', torch.int64, 0, (128, 2))
with torch.cuda._DeviceGuard(0):
    triton_red_fused__to_copy_mul_sum_1.run(buf20, buf6, 128, 8192, 2, 128, stream=stream0)
del buf20, buf6

stream0 = get_raw_stream(0)
buf11 = generate_example_value((128,), (1,), 'cuda:0', torch.float32, 0, (128,))
buf21 = generate_example_value((), (), 'cuda:0', torch.float32, 0, ())
with torch.cuda._DeviceGuard(0):
    triton_red_fused_sum_2.run(buf11, buf21, 1, 128, stream=stream0)
del buf11, buf21

stream0 = get_raw_stream(0)
buf23 = generate_example_value((8,), (1,), 'cuda:0', torch.float32, 0, (8,))
with torch.cuda._DeviceGuard(0):
    triton_red_fused_add_slice_sum_3.run(buf23, arg0_1, 16, 8, 16, stream=stream0)
del arg0_1, buf23

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
CACHE_TORCH_DTYPE(int64);
CACHE_TORCH_DTYPE(bool);
CACHE_TORCH_DTYPE(float32);
CACHE_TORCH_DEVICE(cuda);

static CUfunction triton_per_fused_gt_sum_0 = nullptr;
template <typename in_ptr0_type_, typename out_ptr0_type_, typename out_ptr1_type_, typename out_ptr2_type_>
static inline void call_triton_per_fused_gt_sum_0(
    const in_ptr0_type_& in_ptr0,
    const out_ptr0_type_& out_ptr0,
    const out_ptr1_type_& out_ptr1,
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
    if (triton_per_fused_gt_sum_0 == nullptr) {
        triton_per_fused_gt_sum_0 = loadKernel("/tmp/torchinductor_root/zb/czbrnftxtdxlnrzlma25ax5kal4nbypexa2ngjm4it7iey5hgqss.cubin", "triton_per_fused_gt_sum_0", 16, cubin_dir_); 
    }
    CUdeviceptr var_0 = reinterpret_cast<CUdeviceptr>(in_ptr0.data_ptr());
    CUdeviceptr var_1 = reinterpret_cast<CUdeviceptr>(out_ptr0.data_ptr());
    CUdeviceptr var_2 = reinterpret_cast<CUdeviceptr>(out_ptr1.data_ptr());
    CUdeviceptr var_3 = reinterpret_cast<CUdeviceptr>(out_ptr2.data_ptr());
    int32_t var_4 = r0_numel;
    CUdeviceptr global_scratch_scratch_5 = 0;
    CUdeviceptr profile_scratch_scratch_6 = 0;
    void* kernel_args_[] = {&var_0, &var_1, &var_2, &var_3, &var_4, &global_scratch_scratch_5, &profile_scratch_scratch_6};
    launchKernel(triton_per_fused_gt_sum_0, grid_0, grid_1, grid_2, 2, 16, kernel_args_, stream_);
}

static CUfunction triton_red_fused__to_copy_mul_sum_1 = nullptr;
template <typename in_out_ptr0_type_, typename in_ptr0_type_>
static inline void call_triton_red_fused__to_copy_mul_sum_1(
    const in_out_ptr0_type_& in_out_ptr0,
    const in_ptr0_type_& in_ptr0,
    int64_t ks0,
    int64_t ks1,
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
    if (triton_red_fused__to_copy_mul_sum_1 == nullptr) {
        triton_red_fused__to_copy_mul_sum_1 = loadKernel("/tmp/torchinductor_root/nb/cnb2o4ddgu76nr7vs66lpzqzcgv2egbran6tdvyue6tpwbp6rw6x.cubin", "triton_red_fused__to_copy_mul_sum_1", 64, cubin_dir_); 
    }
    CUdeviceptr var_7 = reinterpret_cast<CUdeviceptr>(in_out_ptr0.data_ptr());
    CUdeviceptr var_8 = reinterpret_cast<CUdeviceptr>(in_ptr0.data_ptr());
    int64_t var_9 = ks0;
    int64_t var_10 = ks1;
    int32_t var_11 = xnumel;
    int32_t var_12 = r0_numel;
    CUdeviceptr global_scratch_scratch_13 = 0;
    CUdeviceptr profile_scratch_scratch_14 = 0;
    void* kernel_args_[] = {&var_7, &var_8, &var_9, &var_10, &var_11, &var_12, &global_scratch_scratch_13, &profile_scratch_scratch_14};
    launchKernel(triton_red_fused__to_copy_mul_sum_1, grid_0, grid_1, grid_2, 16, 64, kernel_args_, stream_);
}

static CUfunction triton_red_fused_sum_2 = nullptr;
template <typename in_ptr0_type_, typename out_ptr0_type_>
static inline void call_triton_red_fused_sum_2(
    const in_ptr0_type_& in_ptr0,
    const out_ptr0_type_& out_ptr0,
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
    if (triton_red_fused_sum_2 == nullptr) {
        triton_red_fused_sum_2 = loadKernel("/tmp/torchinductor_root/6u/c6uaf7aair6ihnzvhaigekdlecykzlm5xcs4gzxi27pkgktnygjn.cubin", "triton_red_fused_sum_2", 8, cubin_dir_); 
    }
    CUdeviceptr var_15 = reinterpret_cast<CUdeviceptr>(in_ptr0.data_ptr());
    CUdeviceptr var_16 = reinterpret_cast<CUdeviceptr>(out_ptr0.data_ptr());
    int32_t var_17 = r0_numel;
    CUdeviceptr global_scratch_scratch_18 = 0;
    CUdeviceptr profile_scratch_scratch_19 = 0;
    void* kernel_args_[] = {&var_15, &var_16, &var_17, &global_scratch_scratch_18, &profile_scratch_scratch_19};
    launchKernel(triton_red_fused_sum_2, grid_0, grid_1, grid_2, 2, 8, kernel_args_, stream_);
}

static CUfunction triton_red_fused_add_slice_sum_3 = nullptr;
template <typename in_out_ptr0_type_, typename in_ptr0_type_>
static inline void call_triton_red_fused_add_slice_sum_3(
    const in_out_ptr0_type_& in_out_ptr0,
    const in_ptr0_type_& in_ptr0,
    int64_t ks0,
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
    if (triton_red_fused_add_slice_sum_3 == nullptr) {
        triton_red_fused_add_slice_sum_3 = loadKernel("/tmp/torchinductor_root/br/cbr277kr46rqojtu52znafdqpofuakbk3hxxgapthv25vaqdvold.cubin", "triton_red_fused_add_slice_sum_3", 64, cubin_dir_); 
    }
    CUdeviceptr var_20 = reinterpret_cast<CUdeviceptr>(in_out_ptr0.data_ptr());
    CUdeviceptr var_21 = reinterpret_cast<CUdeviceptr>(in_ptr0.data_ptr());
    int64_t var_22 = ks0;
    int32_t var_23 = xnumel;
    int32_t var_24 = r0_numel;
    CUdeviceptr global_scratch_scratch_25 = 0;
    CUdeviceptr profile_scratch_scratch_26 = 0;
    void* kernel_args_[] = {&var_20, &var_21, &var_22, &var_23, &var_24, &global_scratch_scratch_25, &profile_scratch_scratch_26};
    launchKernel(triton_red_fused_add_slice_sum_3, grid_0, grid_1, grid_2, 16, 64, kernel_args_, stream_);
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
    AtenTensorHandle buf0_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(0, int_array_0, int_array_0, cached_torch_dtype_int64, cached_torch_device_type_cuda,  0, &buf0_handle));
    RAIIAtenTensorHandle buf0(buf0_handle);
    static constexpr int64_t int_array_1[] = {8L, 16L};
    static constexpr int64_t int_array_2[] = {16L, 1L};
    AtenTensorHandle buf4_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(2, int_array_1, int_array_2, cached_torch_dtype_bool, cached_torch_device_type_cuda,  0, &buf4_handle));
    RAIIAtenTensorHandle buf4(buf4_handle);
    static constexpr int64_t int_array_3[] = {8L, 16L};
    static constexpr int64_t int_array_4[] = {16L, 1L};
    AtenTensorHandle buf9_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(2, int_array_3, int_array_4, cached_torch_dtype_bool, cached_torch_device_type_cuda,  0, &buf9_handle));
    RAIIAtenTensorHandle buf9(buf9_handle);
    // Topologically Sorted Source Nodes: [gt, sum_1, gt_1, gt_2], Original ATen: [aten.gt, aten.sum]
    cudaStream_t stream0;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_get_current_cuda_stream(0, (void**)&stream0));
    call_triton_per_fused_gt_sum_0(arg0_1, buf0, buf4, buf9, 1L, 128L, 0, stream0);
    int64_t u0_raw;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_item_int64(buf0, &u0_raw));
    auto u0 = u0_raw;
    buf0.reset();
    if (!(u0 >= 0L)) { throw std::runtime_error("Expected u0 >= 0 but received " + std::to_string(u0)); }
    if (!(0L <= u0)) { throw std::runtime_error("Expected 0 <= u0 but received " + std::to_string(u0)); }

    device_guard.set_index(0);
    // Topologically Sorted Source Nodes: [gt_1, nz], Original ATen: [aten.gt, aten.nonzero]
    AtenTensorHandle buf6_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_cuda_nonzero(buf4, &buf6_handle));
    RAIIAtenTensorHandle buf6(buf6_handle);
    auto u1 = buf6.size(0);
    buf4.reset();
    if (!(u1 >= 0L)) { throw std::runtime_error("Expected u1 >= 0 but received " + std::to_string(u1)); }
    if (!(u1 <= 128L)) { throw std::runtime_error("Expected u1 <= 128 but received " + std::to_string(u1)); }

    device_guard.set_index(0);
    // Topologically Sorted Source Nodes: [gt_2, m], Original ATen: [aten.gt, aten.index]
    AtenTensorHandle buf11_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_cuda_index_Tensor(arg0_1, std::array<const AtenTensorHandle*, 1>{&temporary_reference(buf9.get())}.data(), 1, &buf11_handle));
    RAIIAtenTensorHandle buf11(buf11_handle);
    auto u2 = buf11.size(0);
    buf9.reset();
    if (!(u2 >= 0L)) { throw std::runtime_error("Expected u2 >= 0 but received " + std::to_string(u2)); }
    if (!(u2 <= 128L)) { throw std::runtime_error("Expected u2 <= 128 but received " + std::to_string(u2)); }
    int64_t u3_raw;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_item_int64(arg1_1, &u3_raw));
    auto u3 = u3_raw;
    arg1_1.reset();
    if (!(u3 >= 0L)) { throw std::runtime_error("Expected u3 >= 0 but received " + std::to_string(u3)); }
    if (!(u3 <= 16L)) { throw std::runtime_error("Expected u3 <= 16 but received " + std::to_string(u3)); }
    if (!(0L <= u3)) { throw std::runtime_error("Expected 0 <= u3 but received " + std::to_string(u3)); }
    if (!(u3 <= 16L)) { throw std::runtime_error("Expected u3 <= 16 but received " + std::to_string(u3)); }

    device_guard.set_index(0);
    static constexpr int64_t int_array_5[] = {2L, };
    static constexpr int64_t int_array_6[] = {1L, };
    AtenTensorHandle buf19_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(1, int_array_5, int_array_6, cached_torch_dtype_float32, cached_torch_device_type_cuda,  0, &buf19_handle));
    RAIIAtenTensorHandle buf19(buf19_handle);
    auto buf20 = std::move(buf19);  // reuse
    // Topologically Sorted Source Nodes: [float_1, sum_2, mul], Original ATen: [aten._to_copy, aten.sum, aten.mul]
    call_triton_red_fused__to_copy_mul_sum_1(buf20, buf6, u1, u0, 2L, u1, 0, stream0);

    buf6.reset();
    static constexpr int64_t *int_array_7=nullptr;
    AtenTensorHandle buf21_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(0, int_array_7, int_array_7, cached_torch_dtype_float32, cached_torch_device_type_cuda,  0, &buf21_handle));
    RAIIAtenTensorHandle buf21(buf21_handle);
    // Topologically Sorted Source Nodes: [sum_3], Original ATen: [aten.sum]
    call_triton_red_fused_sum_2(buf11, buf21, 1L, u2, 0, stream0);
    buf11.reset();
    static constexpr int64_t int_array_8[] = {8L, };
    static constexpr int64_t int_array_9[] = {1L, };
    AtenTensorHandle buf22_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(1, int_array_8, int_array_9, cached_torch_dtype_float32, cached_torch_device_type_cuda,  0, &buf22_handle));
    RAIIAtenTensorHandle buf22(buf22_handle);
    auto buf23 = std::move(buf22);  // reuse
    // Topologically Sorted Source Nodes: [getitem_1, sum_4, add], Original ATen: [aten.slice, aten.sum, aten.add]
    call_triton_red_fused_add_slice_sum_3(buf23, arg0_1, u3, 8L, u3, 0, stream0);
    arg0_1.reset();
    output_handles[0] = buf20.release();
    output_handles[1] = buf21.release();
    output_handles[2] = buf23.release();
} // inductor_entry_impl
'''
)

inductor_entry = CppWrapperCodeCache.load_pybinding(
    argtypes=["std::vector<AtenTensorHandle>"],
    main_code=cpp_wrapper_src,
    device_type="cuda",
    num_outputs=3,
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
    arg0_1 = rand_strided((8, 16), (16, 1), device='cuda:0', dtype=torch.float32)
    arg1_1 = rand_strided((), (), device='cuda:0', dtype=torch.int64)
    return [arg0_1, arg1_1]


def benchmark_compiled_module(args, times=10, repeat=10):
    from torch._inductor.utils import print_performance
    fn = lambda: call(list(args))
    return print_performance(fn, times=times, repeat=repeat)


if __name__ == "__main__":
    from torch._inductor.wrapper_benchmark import compiled_module_main
    args = get_args()
    compiled_module_main('None', lambda times, repeat: benchmark_compiled_module(args, times=times, repeat=repeat))
