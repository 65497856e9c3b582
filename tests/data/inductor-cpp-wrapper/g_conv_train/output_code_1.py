# AOT ID: ['1_backward']
from ctypes import c_void_p, c_long, c_int
import torch
import math
import random
import os
import tempfile
from math import inf, nan
from cmath import nanj
from torch._inductor.hooks import run_intermediate_hooks
from torch._inductor.utils import maybe_profile
from torch._inductor.codegen.memory_planning import _align as align
from torch import device, empty_strided
from torch._inductor.async_compile import AsyncCompile
from torch._inductor.select_algorithm import extern_kernels
import triton
import triton.language as tl
from torch._inductor.runtime.triton_heuristics import start_graph, end_graph
from torch._C import _cuda_getCurrentRawStream as get_raw_stream

aten = torch.ops.aten
inductor_ops = torch.ops.inductor
_quantized = torch.ops._quantized
assert_size_stride = torch._C._dynamo.guards.assert_size_stride
assert_alignment = torch._C._dynamo.guards.assert_alignment
empty_strided_cpu = torch._C._dynamo.guards._empty_strided_cpu
empty_strided_cpu_pinned = torch._C._dynamo.guards._empty_strided_cpu_pinned
empty_strided_cuda = torch._C._dynamo.guards._empty_strided_cuda
empty_strided_xpu = torch._C._dynamo.guards._empty_strided_xpu
empty_strided_mtia = torch._C._dynamo.guards._empty_strided_mtia
reinterpret_tensor = torch._C._dynamo.guards._reinterpret_tensor
alloc_from_pool = torch.ops.inductor._alloc_from_pool
async_compile = AsyncCompile()
empty_strided_p2p = torch._C._distributed_c10d._SymmetricMemory.empty_strided_p2p


# kernel path: /tmp/torchinductor_root/bu/cbuhgs4mpy2wvxuzrltj6h66iselt3vzkk5zinc5kojhxvce2vlh.py
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
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused_add_convolution_backward_expand_0', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 2, 'num_store': 2, 'num_reduction': 1, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 16, 'r0_': 4704}}
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


# kernel path: /tmp/torchinductor_root/dz/cdzo6x75ga2negl7z5kvyyxnmef33w3hggvsrj5tdtqkaru3y2b2.py
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
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused_convolution_backward_native_batch_norm_backward_threshold_backward_1', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 6, 'num_store': 4, 'num_reduction': 3, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 288, 'r0_': 81920}}
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

class Runner:
    def __init__(self, partitions):
        self.partitions = partitions

    def recursively_apply_fns(self, fns):
        new_callables = []
        for fn, c in zip(fns, self.partitions):
            new_callables.append(fn(c))
        self.partitions = new_callables

    def call(self, args):
        primals_1, primals_3, primals_7, primals_9, convolution, squeeze_1, relu, unsqueeze_6, tangents_1, tangents_2 = args
        args.clear()
        assert_size_stride(primals_1, (8, 3, 3, 3), (27, 9, 3, 1))
        assert_size_stride(primals_3, (2, 3, 16, 16), (768, 256, 16, 1))
        assert_size_stride(primals_7, (8, ), (1, ))
        assert_size_stride(primals_9, (4, 8, 3, 3), (72, 9, 3, 1))
        assert_size_stride(convolution, (2, 8, 16, 16), (2048, 256, 16, 1))
        assert_size_stride(squeeze_1, (8, ), (1, ))
        assert_size_stride(relu, (2, 8, 16, 16), (2048, 256, 16, 1))
        assert_size_stride(unsqueeze_6, (1, 8, 1, 1), (8, 1, 1, 1))
        assert_size_stride(tangents_1, (), ())
        assert_size_stride(tangents_2, (2, 4, 7, 7), (196, 49, 7, 1))
        with torch.cuda._DeviceGuard(0):
            torch.cuda.set_device(0)
            buf0 = empty_strided_cuda((2, 4, 7, 7), (196, 49, 7, 1), torch.float32)
            buf1 = empty_strided_cuda((4, ), (1, ), torch.float32)
            # Topologically Sorted Source Nodes: [expand, add_5, sum_2], Original ATen: [aten.expand, aten.add, aten.convolution_backward]
            stream0 = get_raw_stream(0)
            triton_per_fused_add_convolution_backward_expand_0.run(tangents_2, tangents_1, buf0, buf1, 4, 98, stream=stream0)
            del tangents_1
            del tangents_2
            # Topologically Sorted Source Nodes: [convolution_backward], Original ATen: [aten.convolution_backward]
            buf2 = torch.ops.aten.convolution_backward.default(buf0, relu, primals_9, [4], [2, 2], [0, 0], [1, 1], False, [0, 0], 1, [True, True, False])
            del buf0
            del primals_9
            buf3 = buf2[0]
            assert_size_stride(buf3, (2, 8, 16, 16), (2048, 256, 16, 1), 'torch.ops.aten.convolution_backward.default')
            assert_alignment(buf3, 16, 'torch.ops.aten.convolution_backward.default')
            buf4 = buf2[1]
            assert_size_stride(buf4, (4, 8, 3, 3), (72, 9, 3, 1), 'torch.ops.aten.convolution_backward.default')
            assert_alignment(buf4, 16, 'torch.ops.aten.convolution_backward.default')
            del buf2
            buf5 = empty_strided_cuda((8, ), (1, ), torch.float32)
            buf8 = empty_strided_cuda((8, ), (1, ), torch.float32)
            buf7 = relu; del relu  # reuse
            buf9 = empty_strided_cuda((8, ), (1, ), torch.float32)
            # Topologically Sorted Source Nodes: [le, full_default, where, sum_3, sub_1, mul_7, sum_4, mul_8, unsqueeze_7, unsqueeze_8, unsqueeze_9, mul_9, mul_10, mul_11, unsqueeze_10, unsqueeze_11, unsqueeze_12, mul_12, unsqueeze_13, unsqueeze_14, unsqueeze_15, mul_13, sub_3, sub_4, mul_14, mul_15, sum_5], Original ATen: [aten.threshold_backward, aten.native_batch_norm_backward, aten.convolution_backward]
            stream0 = get_raw_stream(0)
            triton_per_fused_convolution_backward_native_batch_norm_backward_threshold_backward_1.run(buf7, buf3, convolution, unsqueeze_6, squeeze_1, primals_7, buf5, buf8, buf9, 8, 512, stream=stream0)
            del buf3
            del convolution
            del primals_7
            del squeeze_1
            del unsqueeze_6
            # Topologically Sorted Source Nodes: [convolution_backward_1], Original ATen: [aten.convolution_backward]
            buf10 = torch.ops.aten.convolution_backward.default(buf7, primals_3, primals_1, [8], [1, 1], [1, 1], [1, 1], False, [0, 0], 1, [True, True, False])
            del buf7
            del primals_1
            del primals_3
            buf11 = buf10[0]
            assert_size_stride(buf11, (2, 3, 16, 16), (768, 256, 16, 1), 'torch.ops.aten.convolution_backward.default')
            assert_alignment(buf11, 16, 'torch.ops.aten.convolution_backward.default')
            buf12 = buf10[1]
            assert_size_stride(buf12, (8, 3, 3, 3), (27, 9, 3, 1), 'torch.ops.aten.convolution_backward.default')
            assert_alignment(buf12, 16, 'torch.ops.aten.convolution_backward.default')
            del buf10
        return (buf12, buf9, buf11, None, None, None, buf8, buf5, buf4, buf1, )

runner = Runner(partitions=[])
call = runner.call
recursively_apply_fns = runner.recursively_apply_fns


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
