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


# kernel path: /tmp/torchinductor_root/lv/clvti2yi6534wxni73ut62woyhikvqymhe27rkgnjd3fnbjdjtle.py
# Topologically Sorted Source Nodes: [expand, add_5, sum_2], Original ATen: [aten.expand, aten.add, aten.convolution_backward]
# Source node to ATen node mapping:
#   add_5 => add_5
#   expand => expand
#   sum_2 => sum_2
# Graph fragment:
#   %tangents_2 : Tensor "f32[2, 4, 7, 7][196, 49, 7, 1]cuda:0" = PlaceHolder[target=tangents_2]
#   %tangents_1 : Tensor "f32[][]cuda:0" = PlaceHolder[target=tangents_1]
#   %add_5 : Tensor "f32[2, 4, 7, 7][196, 49, 7, 1]cuda:0" = PlaceHolder[target=add_5]
#   %expand : Tensor "f32[2, 4, 7, 7][0, 0, 0, 0]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.expand.default](args = (%tangents_1, [2, 4, 7, 7]), kwargs = {})
#   %add_5 : Tensor "f32[2, 4, 7, 7][196, 49, 7, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%tangents_2, %expand), kwargs = {})
#   %sum_2 : Tensor "f32[4][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%add_5, [0, 2, 3]), kwargs = {})
#   return %add_5,%sum_2
triton_per_fused_add_convolution_backward_expand_0 = async_compile.triton('triton_per_fused_add_convolution_backward_expand_0', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 4, 'r0_': 128},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'out_ptr0': '*fp32', 'out_ptr1': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused_add_convolution_backward_expand_0', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 2, 'num_store': 2, 'num_reduction': 1, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': True, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 16, 'r0_': 4704}}
)
@triton.jit
def triton_per_fused_add_convolution_backward_expand_0(in_ptr0, in_ptr1, out_ptr0, out_ptr1, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 4
    r0_numel = 98
    R0_BLOCK: tl.constexpr = 128
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = r0_index < r0_numel
    roffset = r0_offset
    rindex = r0_index
    r0_1 = (r0_index % 49)
    r0_2 = r0_index // 49
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (r0_1 + 49*x0 + 196*r0_2), r0_mask & xmask, other=0.0)
    tmp1 = tl.load(in_ptr1 + (0))
    tmp2 = tl.broadcast_to(tmp1, [1, 1])
    tmp3 = tmp0 + tmp2
    tmp4 = tl.broadcast_to(tmp3, [XBLOCK, R0_BLOCK])
    tmp6 = tl.where(r0_mask & xmask, tmp4, 0)
    tmp7 = tl.sum(tmp6, 1)[:, None].to(tl.float32)
    tl.store(out_ptr0 + (r0_1 + 49*x0 + 196*r0_2), tmp3, r0_mask & xmask)
    tl.store(out_ptr1 + (x0), tmp7, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/x6/cx6roh6zhwpz2nmll4bwiepqkd76s7pfm2z5mqqqzlzk2b5nq2an.py
# Topologically Sorted Source Nodes: [le, full_default, where, sum_3, sub_1, mul_7, sum_4, mul_8, unsqueeze_7, unsqueeze_8, unsqueeze_9, mul_9, mul_10, mul_11, unsqueeze_10, unsqueeze_11, unsqueeze_12, mul_12, unsqueeze_13, unsqueeze_14, unsqueeze_15, mul_13, sub_3, sub_4, mul_14, mul_15, sum_5], Original ATen: [aten.threshold_backward, aten.native_batch_norm_backward, aten.convolution_backward]
# Source node to ATen node mapping:
#   full_default => full_default
#   le => le
#   mul_10 => mul_10
#   mul_11 => mul_11
#   mul_12 => mul_12
#   mul_13 => mul_13
#   mul_14 => mul_14
#   mul_15 => mul_15
#   mul_7 => mul_7
#   mul_8 => mul_8
#   mul_9 => mul_9
#   sub_1 => sub_1
#   sub_3 => sub_3
#   sub_4 => sub_4
#   sum_3 => sum_3
#   sum_4 => sum_4
#   sum_5 => sum_5
#   unsqueeze_10 => unsqueeze_10
#   unsqueeze_11 => unsqueeze_11
#   unsqueeze_12 => unsqueeze_12
#   unsqueeze_13 => unsqueeze_13
#   unsqueeze_14 => unsqueeze_14
#   unsqueeze_15 => unsqueeze_15
#   unsqueeze_7 => unsqueeze_7
#   unsqueeze_8 => unsqueeze_8
#   unsqueeze_9 => unsqueeze_9
#   where => where
# Graph fragment:
#   %relu : Tensor "f32[2, 8, 16, 16][2048, 256, 16, 1]cuda:0" = PlaceHolder[target=relu]
#   %getitem_2 : Tensor "f32[2, 8, 16, 16][2048, 256, 16, 1]cuda:0" = PlaceHolder[target=getitem_2]
#   %convolution : Tensor "f32[2, 8, 16, 16][2048, 256, 16, 1]cuda:0" = PlaceHolder[target=convolution]
#   %unsqueeze_6 : Tensor "f32[1, 8, 1, 1][8, 1, 1, 1]cuda:0" = PlaceHolder[target=unsqueeze_6]
#   %sum_4 : Tensor "f32[8][1]cuda:0" = PlaceHolder[target=sum_4]
#   %squeeze_1 : Tensor "f32[8][1]cuda:0" = PlaceHolder[target=squeeze_1]
#   %sum_3 : Tensor "f32[8][1]cuda:0" = PlaceHolder[target=sum_3]
#   %primals_7 : Tensor "f32[8][1]cuda:0" = PlaceHolder[target=primals_7]
#   %mul_14 : Tensor "f32[2, 8, 16, 16][2048, 256, 16, 1]cuda:0" = PlaceHolder[target=mul_14]
#   %le : Tensor "b8[2, 8, 16, 16][2048, 256, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.le.Scalar](args = (%relu, 0), kwargs = {})
#   %full_default : Tensor "f32[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], 0.0), kwargs = {dtype: torch.float32, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %where : Tensor "f32[2, 8, 16, 16][2048, 256, 16, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.where.self](args = (%le, %full_default, %getitem_2), kwargs = {})
#   %sum_3 : Tensor "f32[8][1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%where, [0, 2, 3]), kwargs = {})
#   %sub_1 : Tensor "f32[2, 8, 16, 16][2048, 256, 16, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.sub.Tensor](args = (%convolution, %unsqueeze_6), kwargs = {})
#   %mul_7 : Tensor "f32[2, 8, 16, 16][2048, 256, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%where, %sub_1), kwargs = {})
#   %sum_4 : Tensor "f32[8][1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%mul_7, [0, 2, 3]), kwargs = {})
#   %mul_8 : Tensor "f32[8][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sum_3, 0.001953125), kwargs = {})
#   %unsqueeze_7 : Tensor "f32[1, 8][8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%mul_8, 0), kwargs = {})
#   %unsqueeze_8 : Tensor "f32[1, 8, 1][8, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_7, 2), kwargs = {})
#   %unsqueeze_9 : Tensor "f32[1, 8, 1, 1][8, 1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_8, 3), kwargs = {})
#   %mul_9 : Tensor "f32[8][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sum_4, 0.001953125), kwargs = {})
#   %mul_10 : Tensor "f32[8][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%squeeze_1, %squeeze_1), kwargs = {})
#   %mul_11 : Tensor "f32[8][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_9, %mul_10), kwargs = {})
#   %unsqueeze_10 : Tensor "f32[1, 8][8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%mul_11, 0), kwargs = {})
#   %unsqueeze_11 : Tensor "f32[1, 8, 1][8, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_10, 2), kwargs = {})
#   %unsqueeze_12 : Tensor "f32[1, 8, 1, 1][8, 1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_11, 3), kwargs = {})
#   %mul_12 : Tensor "f32[8][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%squeeze_1, %primals_7), kwargs = {})
#   %unsqueeze_13 : Tensor "f32[1, 8][8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%mul_12, 0), kwargs = {})
#   %unsqueeze_14 : Tensor "f32[1, 8, 1][8, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_13, 2), kwargs = {})
#   %unsqueeze_15 : Tensor "f32[1, 8, 1, 1][8, 1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_14, 3), kwargs = {})
#   %mul_13 : Tensor "f32[2, 8, 16, 16][2048, 256, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sub_1, %unsqueeze_12), kwargs = {})
#   %sub_3 : Tensor "f32[2, 8, 16, 16][2048, 256, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%where, %mul_13), kwargs = {})
#   %sub_4 : Tensor "f32[2, 8, 16, 16][2048, 256, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%sub_3, %unsqueeze_9), kwargs = {})
#   %mul_14 : Tensor "f32[2, 8, 16, 16][2048, 256, 16, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sub_4, %unsqueeze_15), kwargs = {})
#   %mul_15 : Tensor "f32[8][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sum_4, %squeeze_1), kwargs = {})
#   %sum_5 : Tensor "f32[8][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%mul_14, [0, 2, 3]), kwargs = {})
#   return %sum_3,%sum_4,%mul_15,%mul_14,%sum_5
triton_per_fused_convolution_backward_native_batch_norm_backward_threshold_backward_1 = async_compile.triton('triton_per_fused_convolution_backward_native_batch_norm_backward_threshold_backward_1', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 8, 'r0_': 512},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'in_ptr3': '*fp32', 'in_ptr4': '*fp32', 'out_ptr0': '*fp32', 'out_ptr2': '*fp32', 'out_ptr3': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]], (8,): [['tt.divisibility', 16]], (10,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused_convolution_backward_native_batch_norm_backward_threshold_backward_1', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 6, 'num_store': 4, 'num_reduction': 3, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': True, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 288, 'r0_': 81920}}
)
@triton.jit
def triton_per_fused_convolution_backward_native_batch_norm_backward_threshold_backward_1(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, out_ptr0, out_ptr2, out_ptr3, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 8
    r0_numel = 512
    R0_BLOCK: tl.constexpr = 512
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
    r0_1 = (r0_index % 256)
    r0_2 = r0_index // 256
    x0 = xindex
    tmp0 = tl.load(in_out_ptr0 + (r0_1 + 256*x0 + 2048*r0_2), xmask, other=0.0)
    tmp3 = tl.load(in_ptr0 + (r0_1 + 256*x0 + 2048*r0_2), xmask, other=0.0)
    tmp9 = tl.load(in_ptr1 + (r0_1 + 256*x0 + 2048*r0_2), xmask, other=0.0)
    tmp10 = tl.load(in_ptr2 + (x0), xmask, eviction_policy='evict_last')
    tmp17 = tl.load(in_ptr3 + (x0), xmask, eviction_policy='evict_last')
    tmp27 = tl.load(in_ptr4 + (x0), xmask, eviction_policy='evict_last')
    tmp1 = tl.full([1, 1], 0.0, tl.float32)
    tmp2 = tmp0 <= tmp1
    tmp4 = tl.where(tmp2, tmp1, tmp3)
    tmp5 = tl.broadcast_to(tmp4, [XBLOCK, R0_BLOCK])
    tmp7 = tl.where(xmask, tmp5, 0)
    tmp8 = tl.sum(tmp7, 1)[:, None].to(tl.float32)
    tmp11 = tmp9 - tmp10
    tmp12 = tmp4 * tmp11
    tmp13 = tl.broadcast_to(tmp12, [XBLOCK, R0_BLOCK])
    tmp15 = tl.where(xmask, tmp13, 0)
    tmp16 = tl.sum(tmp15, 1)[:, None].to(tl.float32)
    tmp18 = tmp16 * tmp17
    tmp19 = tl.full([1, 1], 0.001953125, tl.float32)
    tmp20 = tmp16 * tmp19
    tmp21 = tmp17 * tmp17
    tmp22 = tmp20 * tmp21
    tmp23 = tmp11 * tmp22
    tmp24 = tmp4 - tmp23
    tmp25 = tmp8 * tmp19
    tmp26 = tmp24 - tmp25
    tmp28 = tmp17 * tmp27
    tmp29 = tmp26 * tmp28
    tmp30 = tl.broadcast_to(tmp29, [XBLOCK, R0_BLOCK])
    tmp32 = tl.where(xmask, tmp30, 0)
    tmp33 = tl.sum(tmp32, 1)[:, None].to(tl.float32)
    tl.store(out_ptr2 + (x0), tmp18, xmask)
    tl.store(in_out_ptr0 + (r0_1 + 256*x0 + 2048*r0_2), tmp29, xmask)
    tl.store(out_ptr0 + (x0), tmp8, xmask)
    tl.store(out_ptr3 + (x0), tmp33, xmask)
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
tangents_2 = generate_example_value((2, 4, 7, 7), (196, 49, 7, 1), 'cuda:0', torch.float32, 0, (2, 4, 7, 7))
tangents_1 = generate_example_value((), (), 'cuda:0', torch.float32, 0, ())
buf0 = generate_example_value((2, 4, 7, 7), (196, 49, 7, 1), 'cuda:0', torch.float32, 0, (2, 4, 7, 7))
buf1 = generate_example_value((4,), (1,), 'cuda:0', torch.float32, 0, (4,))
with torch.cuda._DeviceGuard(0):
    triton_per_fused_add_convolution_backward_expand_0.run(tangents_2, tangents_1, buf0, buf1, 4, 98, stream=stream0)
del tangents_2, tangents_1, buf0, buf1

stream0 = get_raw_stream(0)
buf7 = generate_example_value((2, 8, 16, 16), (2048, 256, 16, 1), 'cuda:0', torch.float32, 0, (2, 8, 16, 16))
buf3 = generate_example_value((2, 8, 16, 16), (2048, 256, 16, 1), 'cuda:0', torch.float32, 0, (2, 8, 16, 16))
convolution = generate_example_value((2, 8, 16, 16), (2048, 256, 16, 1), 'cuda:0', torch.float32, 0, (2, 8, 16, 16))
unsqueeze_6 = generate_example_value((1, 8, 1, 1), (8, 1, 1, 1), 'cuda:0', torch.float32, 0, (1, 8, 1, 1))
squeeze_1 = generate_example_value((8,), (1,), 'cuda:0', torch.float32, 0, (8,))
primals_7 = generate_example_value((8,), (1,), 'cuda:0', torch.float32, 0, (8,))
buf5 = generate_example_value((8,), (1,), 'cuda:0', torch.float32, 0, (8,))
buf8 = generate_example_value((8,), (1,), 'cuda:0', torch.float32, 0, (8,))
buf9 = generate_example_value((8,), (1,), 'cuda:0', torch.float32, 0, (8,))
with torch.cuda._DeviceGuard(0):
    triton_per_fused_convolution_backward_native_batch_norm_backward_threshold_backward_1.run(buf7, buf3, convolution, unsqueeze_6, squeeze_1, primals_7, buf5, buf8, buf9, 8, 512, stream=stream0)
del buf7, buf3, convolution, unsqueeze_6, squeeze_1, primals_7, buf5, buf8, buf9

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
CACHE_TORCH_DEVICE(cuda);

static CUfunction triton_per_fused_add_convolution_backward_expand_0 = nullptr;
template <typename in_ptr0_type_, typename in_ptr1_type_, typename out_ptr0_type_, typename out_ptr1_type_>
static inline void call_triton_per_fused_add_convolution_backward_expand_0(
    const in_ptr0_type_& in_ptr0,
    const in_ptr1_type_& in_ptr1,
    const out_ptr0_type_& out_ptr0,
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
    if (triton_per_fused_add_convolution_backward_expand_0 == nullptr) {
        triton_per_fused_add_convolution_backward_expand_0 = loadKernel("/tmp/torchinductor_root/yh/cyh7eguozujl47pjnt63bxqjrcu6oryc3aa2bglwydkojw2frmqs.cubin", "triton_per_fused_add_convolution_backward_expand_0", 8, cubin_dir_); 
    }
    CUdeviceptr var_0 = reinterpret_cast<CUdeviceptr>(in_ptr0.data_ptr());
    CUdeviceptr var_1 = reinterpret_cast<CUdeviceptr>(in_ptr1.data_ptr());
    CUdeviceptr var_2 = reinterpret_cast<CUdeviceptr>(out_ptr0.data_ptr());
    CUdeviceptr var_3 = reinterpret_cast<CUdeviceptr>(out_ptr1.data_ptr());
    int32_t var_4 = xnumel;
    int32_t var_5 = r0_numel;
    CUdeviceptr global_scratch_scratch_6 = 0;
    CUdeviceptr profile_scratch_scratch_7 = 0;
    void* kernel_args_[] = {&var_0, &var_1, &var_2, &var_3, &var_4, &var_5, &global_scratch_scratch_6, &profile_scratch_scratch_7};
    launchKernel(triton_per_fused_add_convolution_backward_expand_0, grid_0, grid_1, grid_2, 2, 8, kernel_args_, stream_);
}

static CUfunction triton_per_fused_convolution_backward_native_batch_norm_backward_threshold_backward_1 = nullptr;
template <typename in_out_ptr0_type_, typename in_ptr0_type_, typename in_ptr1_type_, typename in_ptr2_type_, typename in_ptr3_type_, typename in_ptr4_type_, typename out_ptr0_type_, typename out_ptr2_type_, typename out_ptr3_type_>
static inline void call_triton_per_fused_convolution_backward_native_batch_norm_backward_threshold_backward_1(
    const in_out_ptr0_type_& in_out_ptr0,
    const in_ptr0_type_& in_ptr0,
    const in_ptr1_type_& in_ptr1,
    const in_ptr2_type_& in_ptr2,
    const in_ptr3_type_& in_ptr3,
    const in_ptr4_type_& in_ptr4,
    const out_ptr0_type_& out_ptr0,
    const out_ptr2_type_& out_ptr2,
    const out_ptr3_type_& out_ptr3,
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
    if (triton_per_fused_convolution_backward_native_batch_norm_backward_threshold_backward_1 == nullptr) {
        triton_per_fused_convolution_backward_native_batch_norm_backward_threshold_backward_1 = loadKernel("/tmp/torchinductor_root/oy/coy34imbdjjm5mmuoxitkmiqix4rocrmgohjatqhbm7upzocqnks.cubin", "triton_per_fused_convolution_backward_native_batch_norm_backward_threshold_backward_1", 16, cubin_dir_); 
    }
    CUdeviceptr var_8 = reinterpret_cast<CUdeviceptr>(in_out_ptr0.data_ptr());
    CUdeviceptr var_9 = reinterpret_cast<CUdeviceptr>(in_ptr0.data_ptr());
    CUdeviceptr var_10 = reinterpret_cast<CUdeviceptr>(in_ptr1.data_ptr());
    CUdeviceptr var_11 = reinterpret_cast<CUdeviceptr>(in_ptr2.data_ptr());
    CUdeviceptr var_12 = reinterpret_cast<CUdeviceptr>(in_ptr3.data_ptr());
    CUdeviceptr var_13 = reinterpret_cast<CUdeviceptr>(in_ptr4.data_ptr());
    CUdeviceptr var_14 = reinterpret_cast<CUdeviceptr>(out_ptr0.data_ptr());
    CUdeviceptr var_15 = reinterpret_cast<CUdeviceptr>(out_ptr2.data_ptr());
    CUdeviceptr var_16 = reinterpret_cast<CUdeviceptr>(out_ptr3.data_ptr());
    int32_t var_17 = xnumel;
    int32_t var_18 = r0_numel;
    CUdeviceptr global_scratch_scratch_19 = 0;
    CUdeviceptr profile_scratch_scratch_20 = 0;
    void* kernel_args_[] = {&var_8, &var_9, &var_10, &var_11, &var_12, &var_13, &var_14, &var_15, &var_16, &var_17, &var_18, &global_scratch_scratch_19, &profile_scratch_scratch_20};
    launchKernel(triton_per_fused_convolution_backward_native_batch_norm_backward_threshold_backward_1, grid_0, grid_1, grid_2, 4, 16, kernel_args_, stream_);
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

    auto inputs = steal_from_raw_handles_to_raii_handles(input_handles, 10);
    auto primals_1 = std::move(inputs[0]);
    auto primals_3 = std::move(inputs[1]);
    auto primals_7 = std::move(inputs[2]);
    auto primals_9 = std::move(inputs[3]);
    auto convolution = std::move(inputs[4]);
    auto squeeze_1 = std::move(inputs[5]);
    auto relu = std::move(inputs[6]);
    auto unsqueeze_6 = std::move(inputs[7]);
    auto tangents_1 = std::move(inputs[8]);
    auto tangents_2 = std::move(inputs[9]);

    AOTICudaGuard device_guard(0);
    static constexpr int64_t int_array_0[] = {2L, 4L, 7L, 7L};
    static constexpr int64_t int_array_1[] = {196L, 49L, 7L, 1L};
    AtenTensorHandle buf0_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(4, int_array_0, int_array_1, cached_torch_dtype_float32, cached_torch_device_type_cuda,  0, &buf0_handle));
    RAIIAtenTensorHandle buf0(buf0_handle);
    static constexpr int64_t int_array_2[] = {4L, };
    static constexpr int64_t int_array_3[] = {1L, };
    AtenTensorHandle buf1_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(1, int_array_2, int_array_3, cached_torch_dtype_float32, cached_torch_device_type_cuda,  0, &buf1_handle));
    RAIIAtenTensorHandle buf1(buf1_handle);
    // Topologically Sorted Source Nodes: [expand, add_5, sum_2], Original ATen: [aten.expand, aten.add, aten.convolution_backward]
    cudaStream_t stream0;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_get_current_cuda_stream(0, (void**)&stream0));
    call_triton_per_fused_add_convolution_backward_expand_0(tangents_2, tangents_1, buf0, buf1, 4L, 98L, 0, stream0);
    tangents_1.reset();
    tangents_2.reset();
    // Topologically Sorted Source Nodes: [convolution_backward], Original ATen: [aten.convolution_backward]
    AtenTensorHandle buf3_handle;
    AtenTensorHandle buf4_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_cuda_convolution_backward(buf0, relu, primals_9, &temporary_reference(std::array<int64_t, 1>{4L}.cbegin()), 1, std::array<int64_t, 2>{2L, 2L}.cbegin(), 2, std::array<int64_t, 2>{0L, 0L}.cbegin(), 2, std::array<int64_t, 2>{1L, 1L}.cbegin(), 2, 0, std::array<int64_t, 2>{0L, 0L}.cbegin(), 2, 1L, std::array<int32_t, 3>{1, 1, 0}.cbegin(), 3, &buf3_handle, &buf4_handle, nullptr));
    RAIIAtenTensorHandle buf3(buf3_handle);
    RAIIAtenTensorHandle buf4(buf4_handle);
    buf0.reset();
    primals_9.reset();

    static constexpr int64_t int_array_4[] = {8L, };
    static constexpr int64_t int_array_5[] = {1L, };
    AtenTensorHandle buf5_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(1, int_array_4, int_array_5, cached_torch_dtype_float32, cached_torch_device_type_cuda,  0, &buf5_handle));
    RAIIAtenTensorHandle buf5(buf5_handle);
    AtenTensorHandle buf8_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(1, int_array_4, int_array_5, cached_torch_dtype_float32, cached_torch_device_type_cuda,  0, &buf8_handle));
    RAIIAtenTensorHandle buf8(buf8_handle);
    auto buf7 = std::move(relu);  // reuse
    static constexpr int64_t int_array_6[] = {8L, };
    static constexpr int64_t int_array_7[] = {1L, };
    AtenTensorHandle buf9_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(1, int_array_6, int_array_7, cached_torch_dtype_float32, cached_torch_device_type_cuda,  0, &buf9_handle));
    RAIIAtenTensorHandle buf9(buf9_handle);
    // Topologically Sorted Source Nodes: [le, full_default, where, sum_3, sub_1, mul_7, sum_4, mul_8, unsqueeze_7, unsqueeze_8, unsqueeze_9, mul_9, mul_10, mul_11, unsqueeze_10, unsqueeze_11, unsqueeze_12, mul_12, unsqueeze_13, unsqueeze_14, unsqueeze_15, mul_13, sub_3, sub_4, mul_14, mul_15, sum_5], Original ATen: [aten.threshold_backward, aten.native_batch_norm_backward, aten.convolution_backward]
    call_triton_per_fused_convolution_backward_native_batch_norm_backward_threshold_backward_1(buf7, buf3, convolution, unsqueeze_6, squeeze_1, primals_7, buf5, buf8, buf9, 8L, 512L, 0, stream0);
    buf3.reset();
    convolution.reset();
    primals_7.reset();
    squeeze_1.reset();
    unsqueeze_6.reset();
    // Topologically Sorted Source Nodes: [convolution_backward_1], Original ATen: [aten.convolution_backward]
    AtenTensorHandle buf11_handle;
    AtenTensorHandle buf12_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_cuda_convolution_backward(buf7, primals_3, primals_1, &temporary_reference(std::array<int64_t, 1>{8L}.cbegin()), 1, std::array<int64_t, 2>{1L, 1L}.cbegin(), 2, std::array<int64_t, 2>{1L, 1L}.cbegin(), 2, std::array<int64_t, 2>{1L, 1L}.cbegin(), 2, 0, std::array<int64_t, 2>{0L, 0L}.cbegin(), 2, 1L, std::array<int32_t, 3>{1, 1, 0}.cbegin(), 3, &buf11_handle, &buf12_handle, nullptr));
    RAIIAtenTensorHandle buf11(buf11_handle);
    RAIIAtenTensorHandle buf12(buf12_handle);
    buf7.reset();
    primals_1.reset();
    primals_3.reset();

    output_handles[0] = buf12.release();
    output_handles[1] = buf9.release();
    output_handles[2] = buf11.release();
    output_handles[6] = buf8.release();
    output_handles[7] = buf5.release();
    output_handles[8] = buf4.release();
    output_handles[9] = buf1.release();
} // inductor_entry_impl
'''
)

inductor_entry = CppWrapperCodeCache.load_pybinding(
    argtypes=["std::vector<AtenTensorHandle>"],
    main_code=cpp_wrapper_src,
    device_type="cuda",
    num_outputs=10,
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
    primals_1 = rand_strided((8, 3, 3, 3), (27, 9, 3, 1), device='cuda:0', dtype=torch.float32)
    primals_3 = rand_strided((2, 3, 16, 16), (768, 256, 16, 1), device='cuda:0', dtype=torch.float32)
    primals_7 = rand_strided((8, ), (1, ), device='cuda:0', dtype=torch.float32)
    primals_9 = rand_strided((4, 8, 3, 3), (72, 9, 3, 1), device='cuda:0', dtype=torch.float32)
    convolution = rand_strided((2, 8, 16, 16), (2048, 256, 16, 1), device='cuda:0', dtype=torch.float32)
    squeeze_1 = rand_strided((8, ), (1, ), device='cuda:0', dtype=torch.float32)
    relu = rand_strided((2, 8, 16, 16), (2048, 256, 16, 1), device='cuda:0', dtype=torch.float32)
    unsqueeze_6 = rand_strided((1, 8, 1, 1), (8, 1, 1, 1), device='cuda:0', dtype=torch.float32)
    tangents_1 = rand_strided((), (), device='cuda:0', dtype=torch.float32)
    tangents_2 = rand_strided((2, 4, 7, 7), (196, 49, 7, 1), device='cuda:0', dtype=torch.float32)
    return [primals_1, primals_3, primals_7, primals_9, convolution, squeeze_1, relu, unsqueeze_6, tangents_1, tangents_2]


def benchmark_compiled_module(args, times=10, repeat=10):
    from torch._inductor.utils import print_performance
    fn = lambda: call(list(args))
    return print_performance(fn, times=times, repeat=repeat)


if __name__ == "__main__":
    from torch._inductor.wrapper_benchmark import compiled_module_main
    args = get_args()
    compiled_module_main('None', lambda times, repeat: benchmark_compiled_module(args, times=times, repeat=repeat))
