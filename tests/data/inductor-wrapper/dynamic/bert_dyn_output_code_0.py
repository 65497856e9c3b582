# AOT ID: ['1_forward']
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


# kernel path: /tmp/torchinductor_root/zz/czzc7aj3qfyus2dzcnwbw7lxl7fpcghp2kwuvav5xrxbc6vx3yme.py
# Topologically Sorted Source Nodes: [position_ids, buffered_token_type_ids, buffered_token_type_ids_1], Original ATen: [aten.slice, aten.expand, aten.gather]
# Source node to ATen node mapping:
#   buffered_token_type_ids => expand
#   buffered_token_type_ids_1 => gather
#   position_ids => slice_1
# Graph fragment:
#   %primals_4 : Tensor "i64[1, 64][64, 1]cuda:0" = PlaceHolder[target=primals_4]
#   %primals_5 : Tensor "i64[1, 64][64, 1]cuda:0" = PlaceHolder[target=primals_5]
#   %slice_1 : Tensor "i64[1, s27][64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.slice.Tensor](args = (%primals_4, 1, 0, %primals_2), kwargs = {})
#   %expand : Tensor "i64[1, 64][64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.expand.default](args = (%primals_5, [1, -1]), kwargs = {})
#   %gather : Tensor "i64[1, s27][s27, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.gather.default](args = (%expand, 1, %slice_1), kwargs = {})
#   return %gather
triton_poi_fused_expand_gather_slice_0 = async_compile.triton('triton_poi_fused_expand_gather_slice_0', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 16}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*i64', 'in_ptr1': '*i64', 'out_ptr0': '*i64', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_expand_gather_slice_0', 'mutated_arg_names': [], 'optimize_mem': False, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 384}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_expand_gather_slice_0(in_ptr0, in_ptr1, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0), xmask)
    tmp1 = tl.full([XBLOCK], 64, tl.int32)
    tmp2 = tmp0 + tmp1
    tmp3 = tmp0 < 0
    tmp4 = tl.where(tmp3, tmp2, tmp0)
    tl.device_assert(((0 <= tmp4) & (tmp4 < 64)) | ~(xmask), "index out of bounds: 0 <= tmp4 < 64")
    tmp6 = tl.load(in_ptr1 + (tmp4), xmask, eviction_policy='evict_last')
    tl.store(out_ptr0 + (x0), tmp6, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/3j/c3jzrtaxucfca6yv5lyekjmvsz4p4vrpaqb6fze3wue4eo2en7ao.py
# Topologically Sorted Source Nodes: [position_ids, buffered_token_type_ids, buffered_token_type_ids_1, token_type_ids, inputs_embeds, token_type_embeddings, embeddings, position_embeddings, embeddings_1, embeddings_2, div_6], Original ATen: [aten.slice, aten.expand, aten.gather, aten.embedding, aten.add, aten.native_layer_norm, aten.native_layer_norm_backward]
# Source node to ATen node mapping:
#   buffered_token_type_ids => expand
#   buffered_token_type_ids_1 => gather
#   div_6 => div_6
#   embeddings => add_14
#   embeddings_1 => add_22
#   embeddings_2 => add_27, add_28, mul_24, mul_25, rsqrt, sub_13, var_mean
#   inputs_embeds => embedding
#   position_embeddings => embedding_2
#   position_ids => slice_1
#   token_type_embeddings => embedding_1
#   token_type_ids => expand_1
# Graph fragment:
#   %primals_3 : Tensor "i64[s23, s27][s27, 1]cuda:0" = PlaceHolder[target=primals_3]
#   %primals_6 : Tensor "f32[512, 64][64, 1]cuda:0" = PlaceHolder[target=primals_6]
#   %gather : Tensor "i64[1, s27][s27, 1]cuda:0" = PlaceHolder[target=gather]
#   %primals_7 : Tensor "f32[2, 64][64, 1]cuda:0" = PlaceHolder[target=primals_7]
#   %primals_4 : Tensor "i64[1, 64][64, 1]cuda:0" = PlaceHolder[target=primals_4]
#   %primals_8 : Tensor "f32[64, 64][64, 1]cuda:0" = PlaceHolder[target=primals_8]
#   %add_22 : Tensor "f32[s23, s27, 64][64*s27, 64, 1]cuda:0" = PlaceHolder[target=add_22]
#   %getitem_1 : Tensor "f32[s23, s27, 1][s27, 1, s23*s27]cuda:0" = PlaceHolder[target=getitem_1]
#   %buf3 : Tensor "f32[s23, s27, 1][s27, 1, s23*s27]cuda:0" = PlaceHolder[target=buf3]
#   %mul_24 : Tensor "f32[s23, s27, 64][64*s27, 64, 1]cuda:0" = PlaceHolder[target=mul_24]
#   %primals_9 : Tensor "f32[64][1]cuda:0" = PlaceHolder[target=primals_9]
#   %primals_10 : Tensor "f32[64][1]cuda:0" = PlaceHolder[target=primals_10]
#   %slice_1 : Tensor "i64[1, s27][64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.slice.Tensor](args = (%primals_4, 1, 0, %primals_2), kwargs = {})
#   %expand : Tensor "i64[1, 64][64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.expand.default](args = (%primals_5, [1, -1]), kwargs = {})
#   %gather : Tensor "i64[1, s27][s27, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.gather.default](args = (%expand, 1, %slice_1), kwargs = {})
#   %expand_1 : Tensor "i64[s23, s27][0, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.expand.default](args = (%gather, [%primals_1, %primals_2]), kwargs = {})
#   %embedding : Tensor "f32[s23, s27, 64][64*s27, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.embedding.default](args = (%primals_6, %primals_3, 0), kwargs = {})
#   %embedding_1 : Tensor "f32[s23, s27, 64][64*s27, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.embedding.default](args = (%primals_7, %expand_1), kwargs = {})
#   %add_14 : Tensor "f32[s23, s27, 64][64*s27, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%embedding, %embedding_1), kwargs = {})
#   %embedding_2 : Tensor "f32[1, s27, 64][64*s27, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.embedding.default](args = (%primals_8, %slice_1), kwargs = {})
#   %add_22 : Tensor "f32[s23, s27, 64][64*s27, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%add_14, %embedding_2), kwargs = {})
#   %var_mean : [num_users=2] = call_function[target=torch.ops.aten.var_mean.correction](args = (%add_22, [2]), kwargs = {correction: 0, keepdim: True})
#   %add_27 : Tensor "f32[s23, s27, 1][s27, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%getitem, 1e-12), kwargs = {})
#   %rsqrt : Tensor "f32[s23, s27, 1][s27, 1, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_27,), kwargs = {})
#   %sub_13 : Tensor "f32[s23, s27, 64][64*s27, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%add_22, %getitem_1), kwargs = {})
#   %mul_24 : Tensor "f32[s23, s27, 64][64*s27, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sub_13, %rsqrt), kwargs = {})
#   %mul_25 : Tensor "f32[s23, s27, 64][64*s27, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_24, %primals_9), kwargs = {})
#   %add_28 : Tensor "f32[s23, s27, 64][64*s27, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_25, %primals_10), kwargs = {})
#   %div_6 : Tensor "f32[s23, s27, 1][s27, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%rsqrt, 64), kwargs = {})
#   return %add_22,%getitem_1,%buf3,%mul_24,%add_28,%div_6
triton_per_fused_add_embedding_expand_gather_native_layer_norm_native_layer_norm_backward_slice_1 = async_compile.triton('triton_per_fused_add_embedding_expand_gather_native_layer_norm_native_layer_norm_backward_slice_1', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 32, 'r0_': 64},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'in_ptr0': '*i64', 'in_ptr1': '*fp32', 'in_ptr2': '*i64', 'in_ptr3': '*fp32', 'in_ptr4': '*i64', 'in_ptr5': '*fp32', 'in_ptr6': '*fp32', 'in_ptr7': '*fp32', 'out_ptr2': '*fp32', 'out_ptr3': '*fp32', 'ks0': 'i64', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]], (8,): [['tt.divisibility', 16]], (9,): [['tt.divisibility', 16]], (10,): [['tt.divisibility', 16]], (13,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused_add_embedding_expand_gather_native_layer_norm_native_layer_norm_backward_slice_1', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': False, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 5, 'num_store': 3, 'num_reduction': 4, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 768, 'r0_': 33280}}
)
@triton.jit
def triton_per_fused_add_embedding_expand_gather_native_layer_norm_native_layer_norm_backward_slice_1(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, in_ptr6, in_ptr7, out_ptr2, out_ptr3, ks0, xnumel, r0_numel, XBLOCK : tl.constexpr):
    r0_numel = 64
    R0_BLOCK: tl.constexpr = 64
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
    x3 = xindex
    r0_2 = r0_index
    x0 = (xindex % ks0)
    tmp0 = tl.load(in_ptr0 + (x3), xmask, eviction_policy='evict_last')
    tmp7 = tl.load(in_ptr2 + (x0), xmask, eviction_policy='evict_last')
    tmp15 = tl.load(in_ptr4 + (x0), xmask, eviction_policy='evict_last')
    tmp45 = tl.load(in_ptr6 + (r0_2), None, eviction_policy='evict_last')
    tmp47 = tl.load(in_ptr7 + (r0_2), None, eviction_policy='evict_last')
    tmp1 = tl.full([1, 1], 512, tl.int32)
    tmp2 = tmp0 + tmp1
    tmp3 = tmp0 < 0
    tmp4 = tl.where(tmp3, tmp2, tmp0)
    tl.device_assert(((0 <= tmp4) & (tmp4 < 512)) | ~(xmask), "index out of bounds: 0 <= tmp4 < 512")
    tmp6 = tl.load(in_ptr1 + (r0_2 + 64*tmp4), xmask, other=0.0)
    tmp8 = tl.full([1, 1], 2, tl.int32)
    tmp9 = tmp7 + tmp8
    tmp10 = tmp7 < 0
    tmp11 = tl.where(tmp10, tmp9, tmp7)
    tl.device_assert(((0 <= tmp11) & (tmp11 < 2)) | ~(xmask), "index out of bounds: 0 <= tmp11 < 2")
    tmp13 = tl.load(in_ptr3 + (r0_2 + 64*tmp11), xmask, other=0.0)
    tmp14 = tmp6 + tmp13
    tmp16 = tl.full([1, 1], 64, tl.int32)
    tmp17 = tmp15 + tmp16
    tmp18 = tmp15 < 0
    tmp19 = tl.where(tmp18, tmp17, tmp15)
    tl.device_assert(((0 <= tmp19) & (tmp19 < 64)) | ~(xmask), "index out of bounds: 0 <= tmp19 < 64")
    tmp21 = tl.load(in_ptr5 + (r0_2 + 64*tmp19), xmask, other=0.0)
    tmp22 = tmp14 + tmp21
    tmp23 = tl.broadcast_to(tmp22, [XBLOCK, R0_BLOCK])
    tmp25 = tl.where(xmask, tmp23, 0)
    tmp26 = tl.broadcast_to(tmp23, [XBLOCK, R0_BLOCK])
    tmp28 = tl.where(xmask, tmp26, 0)
    tmp29 = tl.sum(tmp28, 1)[:, None].to(tl.float32)
    tmp30 = tmp16.to(tl.float32)
    tmp31 = (tmp29 / tmp30)
    tmp32 = tmp23 - tmp31
    tmp33 = tmp32 * tmp32
    tmp34 = tl.broadcast_to(tmp33, [XBLOCK, R0_BLOCK])
    tmp36 = tl.where(xmask, tmp34, 0)
    tmp37 = tl.sum(tmp36, 1)[:, None].to(tl.float32)
    tmp38 = tmp22 - tmp31
    tmp39 = tl.full([1, 1], 64.0, tl.float32)
    tmp40 = (tmp37 / tmp39)
    tmp41 = tl.full([1, 1], 1e-12, tl.float32)
    tmp42 = tmp40 + tmp41
    tmp43 = libdevice.rsqrt(tmp42)
    tmp44 = tmp38 * tmp43
    tmp46 = tmp44 * tmp45
    tmp48 = tmp46 + tmp47
    tmp49 = tl.full([1, 1], 0.015625, tl.float32)
    tmp50 = tmp43 * tmp49
    tl.store(in_out_ptr0 + (r0_2 + 64*x3), tmp44, xmask)
    tl.store(out_ptr2 + (r0_2 + 64*x3), tmp48, xmask)
    tl.store(out_ptr3 + (x3), tmp50, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/jn/cjnprrj66oot74d4suiuzokf7bv5fesew3p6ihb74gxy5ntlodgs.py
# Topologically Sorted Source Nodes: [, linear, view, query_layer, attn_output], Original ATen: [aten.addmm, aten.view, aten.transpose, aten.mul, aten.clone]
# Source node to ATen node mapping:
#    => add_tensor_9
#   attn_output => clone_1, mul_106
#   linear => view_1
#   query_layer => permute_1
#   view => view_2
# Graph fragment:
#   %primals_12 : Tensor "f32[64][1]cuda:0" = PlaceHolder[target=primals_12]
#   %mm_default_9 : Tensor "f32[s23*s27, 64][64, 1]cuda:0" = PlaceHolder[target=mm_default_9]
#   %add_tensor_9 : Tensor "f32[s23*s27, 64][64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%primals_12, %mm_default_9), kwargs = {})
#   %view_1 : Tensor "f32[s23, s27, 64][64*s27, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%add_tensor_9, [%primals_1, %primals_2, 64]), kwargs = {})
#   %view_2 : Tensor "f32[s23, s27, 4, 16][64*s27, 64, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%view_1, [%primals_1, %primals_2, -1, 16]), kwargs = {})
#   %permute_1 : Tensor "f32[s23, 4, s27, 16][64*s27, 16, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view_2, [0, 2, 1, 3]), kwargs = {})
#   %mul_106 : Tensor "f32[s23, 4, s27, 16][64*s27, 16, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Scalar](args = (%permute_1, 0.5), kwargs = {})
#   %clone_1 : Tensor "f32[s23, 4, s27, 16][64*s27, 16*s27, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%expand_3,), kwargs = {memory_format: torch.contiguous_format})
#   return %clone_1
triton_poi_fused_addmm_clone_mul_transpose_view_2 = async_compile.triton('triton_poi_fused_addmm_clone_mul_transpose_view_2', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 2048}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'out_ptr0': '*fp32', 'ks0': 'i64', 'ks1': 'i64', 'ks2': 'i64', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_addmm_clone_mul_transpose_view_2', 'mutated_arg_names': [], 'optimize_mem': False, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 2, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 24832}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_addmm_clone_mul_transpose_view_2(in_ptr0, in_ptr1, out_ptr0, ks0, ks1, ks2, xnumel, XBLOCK : tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = (xindex % 16)
    x2 = ((xindex // ks0) % 4)
    x1 = ((xindex // 16) % ks1)
    x3 = xindex // ks2
    x4 = xindex
    tmp0 = tl.load(in_ptr0 + (x0 + 16*x2), xmask, eviction_policy='evict_last')
    tmp1 = tl.load(in_ptr1 + (x0 + 16*x2 + 64*x1 + 64*ks1*x3), xmask, eviction_policy='evict_last')
    tmp2 = tmp0 + tmp1
    tmp3 = tl.full([1], 0.5, tl.float32)
    tmp4 = tmp2 * tmp3
    tl.store(out_ptr0 + (x4), tmp4, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/5o/c5og6gfmyscxqvzejpgjrwjmjpb7ow3x5lr3scyjidnjfvrbrnlr.py
# Topologically Sorted Source Nodes: [, linear_1, view_1, key_layer, attn_output], Original ATen: [aten.addmm, aten.view, aten.transpose, aten.mul, aten.clone]
# Source node to ATen node mapping:
#    => add_tensor_8
#   attn_output => clone_2, mul_113, permute_6
#   key_layer => permute_3
#   linear_1 => view_4
#   view_1 => view_5
# Graph fragment:
#   %primals_14 : Tensor "f32[64][1]cuda:0" = PlaceHolder[target=primals_14]
#   %mm_default_8 : Tensor "f32[s23*s27, 64][64, 1]cuda:0" = PlaceHolder[target=mm_default_8]
#   %add_tensor_8 : Tensor "f32[s23*s27, 64][64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%primals_14, %mm_default_8), kwargs = {})
#   %view_4 : Tensor "f32[s23, s27, 64][64*s27, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%add_tensor_8, [%primals_1, %primals_2, 64]), kwargs = {})
#   %view_5 : Tensor "f32[s23, s27, 4, 16][64*s27, 64, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%view_4, [%primals_1, %primals_2, -1, 16]), kwargs = {})
#   %permute_3 : Tensor "f32[s23, 4, s27, 16][64*s27, 16, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view_5, [0, 2, 1, 3]), kwargs = {})
#   %permute_6 : Tensor "f32[s23, 4, 16, s27][64*s27, 16, 1, 64]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%permute_3, [0, 1, 3, 2]), kwargs = {})
#   %mul_113 : Tensor "f32[s23, 4, 16, s27][64*s27, 16, 1, 64]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Scalar](args = (%permute_6, 0.5), kwargs = {})
#   %clone_2 : Tensor "f32[s23, 4, 16, s27][64*s27, 16*s27, s27, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%expand_4,), kwargs = {memory_format: torch.contiguous_format})
#   return %clone_2
triton_poi_fused_addmm_clone_mul_transpose_view_3 = async_compile.triton('triton_poi_fused_addmm_clone_mul_transpose_view_3', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'y': 128, 'x': 16}, tile_hint=TileHint.DEFAULT,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'out_ptr0': '*fp32', 'ks0': 'i64', 'ynumel': 'i32', 'xnumel': 'i32', 'YBLOCK': 'constexpr', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid2DWithYZOverflow', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_addmm_clone_mul_transpose_view_3', 'mutated_arg_names': [], 'optimize_mem': False, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 2, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'y': 8448, 'x': 16384}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_addmm_clone_mul_transpose_view_3(in_ptr0, in_ptr1, out_ptr0, ks0, ynumel, xnumel, YBLOCK : tl.constexpr, XBLOCK : tl.constexpr):
    yoffset = (tl.program_id(1) + tl.program_id(2) * tl.num_programs(1)) * YBLOCK
    yindex = yoffset + tl.arange(0, YBLOCK)[:, None]
    ymask = yindex < ynumel
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[None, :]
    xmask = xindex < xnumel
    y0 = (yindex % 64)
    x2 = xindex
    y1 = yindex // 64
    y3 = yindex
    tmp0 = tl.load(in_ptr0 + (y0), ymask, eviction_policy='evict_last')
    tmp1 = tl.load(in_ptr1 + (y0 + 64*x2 + 64*ks0*y1), xmask & ymask, eviction_policy='evict_last')
    tmp2 = tmp0 + tmp1
    tmp3 = tl.full([1, 1], 0.5, tl.float32)
    tmp4 = tmp2 * tmp3
    tl.store(out_ptr0 + (x2 + ks0*y3), tmp4, xmask & ymask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/ld/cld6iflrslstckb47wqmfsbtjpguhvvd6bbeiyhmvk3blfk5q3lu.py
# Topologically Sorted Source Nodes: [arange_2, q_arange, q_indices, attention_mask, attention_mask_1, attn_output, ], Original ATen: [aten.arange, aten.add, aten.unsqueeze, aten.ge, aten.expand, aten.scalar_tensor, aten.where, aten.view, prims.prepare_softmax_online, aten.sub, aten.exp, aten._safe_softmax]
# Source node to ATen node mapping:
#    => exp_default_1, prepare_softmax_online_default_1, sub_tensor_1
#   arange_2 => iota_2
#   attention_mask => ge_3
#   attention_mask_1 => expand_2
#   attn_output => add_190, any_1, div, eq_140, full_default, full_default_1, full_default_2, logical_not, logical_not_1, view_11, where, where_1
#   q_arange => add_51
#   q_indices => unsqueeze, unsqueeze_1, unsqueeze_2
# Graph fragment:
#   %bmm : Tensor "f32[4*s23, s27, s27][s27**2, s27, 1]cuda:0" = PlaceHolder[target=bmm]
#   %getitem_12 : Tensor "f32[s23, 4, s27, 1][4*s27, s27, 1, 4*s23*s27]cuda:0" = PlaceHolder[target=getitem_12]
#   %any_1 : Tensor "b8[s23, 4, s27, 1][4*s27, s27, 1, 4*s23*s27]cuda:0" = PlaceHolder[target=any_1]
#   %getitem_13 : Tensor "f32[s23, 4, s27, 1][4*s27, s27, 1, 4*s23*s27]cuda:0" = PlaceHolder[target=getitem_13]
#   %iota_2 : Tensor "i64[s27][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.iota.default](args = (%primals_2,), kwargs = {start: 0, step: 1, dtype: torch.int64, device: cuda:0, requires_grad: False})
#   %add_51 : Tensor "i64[s27][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%iota_2, 0), kwargs = {})
#   %unsqueeze : Tensor "i64[1, s27][s27, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%add_51, 0), kwargs = {})
#   %unsqueeze_1 : Tensor "i64[1, 1, s27][s27, s27, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze, 1), kwargs = {})
#   %unsqueeze_2 : Tensor "i64[1, 1, s27, 1][s27, s27, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_1, 3), kwargs = {})
#   %ge_3 : Tensor "b8[1, 1, s27, 1][s27, s27, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.ge.Scalar](args = (%unsqueeze_2, 0), kwargs = {})
#   %expand_2 : Tensor "b8[s23, 1, s27, s27][0, s27, 1, 0]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.expand.default](args = (%ge_3, [%primals_1, -1, %primals_2, %primals_2]), kwargs = {})
#   %full_default : Tensor "f32[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], -inf), kwargs = {dtype: torch.float32, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %full_default_1 : Tensor "f32[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], 0.0), kwargs = {dtype: torch.float32, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %where : Tensor "f32[s23, 1, s27, s27][s27**2, s27**2, s27, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.where.self](args = (%expand_2, %full_default_1, %full_default), kwargs = {})
#   %view_11 : Tensor "f32[s23, 4, s27, s27][4*s27**2, s27**2, s27, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%bmm, [%primals_1, 4, %primals_2, %primals_2]), kwargs = {})
#   %add_190 : Tensor "f32[s23, 4, s27, s27][4*s27**2, s27**2, s27, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.add.Tensor](args = (%view_11, %where), kwargs = {})
#   %prepare_softmax_online_default_1 : [num_users=2] = call_function[target=torch.ops.prims.prepare_softmax_online.default](args = (%add_190, -1), kwargs = {})
#   %sub_tensor_1 : Tensor "f32[s23, 4, s27, s27][4*s27**2, s27**2, s27, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%add_190, %getitem_12), kwargs = {})
#   %exp_default_1 : Tensor "f32[s23, 4, s27, s27][4*s27**2, s27**2, s27, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.exp.default](args = (%sub_tensor_1,), kwargs = {})
#   %div : Tensor "f32[s23, 4, s27, s27][4*s27**2, s27**2, s27, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%exp_default_1, %getitem_13), kwargs = {})
#   %eq_140 : Tensor "b8[s23, 4, s27, s27][4*s27**2, s27**2, s27, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.eq.Scalar](args = (%add_190, -inf), kwargs = {})
#   %logical_not : Tensor "b8[s23, 4, s27, s27][4*s27**2, s27**2, s27, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.logical_not.default](args = (%eq_140,), kwargs = {})
#   %any_1 : Tensor "b8[s23, 4, s27, 1][4*s27, s27, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.any.dim](args = (%logical_not, -1, True), kwargs = {})
#   %logical_not_1 : Tensor "b8[s23, 4, s27, 1][4*s27, s27, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.logical_not.default](args = (%any_1,), kwargs = {})
#   %full_default_2 : Tensor "f32[s23, 4, s27, s27][4*s27**2, s27**2, s27, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.full.default](args = ([%primals_1, 4, %primals_2, %primals_2], 0), kwargs = {dtype: torch.float32, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %where_1 : Tensor "f32[s23, 4, s27, s27][4*s27**2, s27**2, s27, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.where.self](args = (%logical_not_1, %full_default_2, %div), kwargs = {})
#   return %getitem_12,%getitem_13,%any_1,%expand_5
triton_per_fused__safe_softmax_add_arange_exp_expand_ge_prepare_softmax_online_scalar_tensor_sub_unsqueeze_view_where_4 = async_compile.triton('triton_per_fused__safe_softmax_add_arange_exp_expand_ge_prepare_softmax_online_scalar_tensor_sub_unsqueeze_view_where_4', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 128, 'r0_': 16},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'ks0': 'i64', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused__safe_softmax_add_arange_exp_expand_ge_prepare_softmax_online_scalar_tensor_sub_unsqueeze_view_where_4', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': False, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 3, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 0, 'r0_': 24576}}
)
@triton.jit
def triton_per_fused__safe_softmax_add_arange_exp_expand_ge_prepare_softmax_online_scalar_tensor_sub_unsqueeze_view_where_4(in_out_ptr0, ks0, xnumel, r0_numel, XBLOCK : tl.constexpr):
    R0_BLOCK: tl.constexpr = 64
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
    r0_2 = r0_index
    x3 = xindex
    x0 = (xindex % ks0)
    tmp0 = tl.load(in_out_ptr0 + (r0_2 + ks0*x3), r0_mask & xmask, other=0.0)
    tmp1 = x0
    tmp2 = tl.full([1, 1], 0, tl.int64)
    tmp3 = tmp1 >= tmp2
    tmp4 = tl.full([1, 1], 0.0, tl.float32)
    tmp5 = tl.full([1, 1], float("-inf"), tl.float32)
    tmp6 = tl.where(tmp3, tmp4, tmp5)
    tmp7 = tmp0 + tmp6
    tmp8 = tl.broadcast_to(tmp7, [XBLOCK, R0_BLOCK])
    tmp10 = tl.where(r0_mask & xmask, tmp8, float("-inf"))
    tmp11 = triton_helpers.max2(tmp10, 1)[:, None].to(tl.float32)
    tmp12 = tmp7 - tmp11
    tmp13 = libdevice.exp(tmp12)
    tmp14 = tl.broadcast_to(tmp13, [XBLOCK, R0_BLOCK])
    tmp16 = tl.where(r0_mask & xmask, tmp14, 0)
    tmp17 = tl.sum(tmp16, 1)[:, None].to(tl.float32)
    tmp18 = tmp7 == tmp5
    tmp19 = tmp18 == 0
    tmp20 = tmp19.to(tl.int64)
    tmp21 = (tmp20 != 0)
    tmp22 = tl.broadcast_to(tmp21, [XBLOCK, R0_BLOCK])
    tmp24 = tl.where(r0_mask & xmask, tmp22, False)
    tmp25 = triton_helpers.any(tmp24, 1)[:, None].to(tl.int1)
    tmp26 = tmp25 == 0
    tmp27 = (tmp13 / tmp17)
    tmp28 = tl.where(tmp26, tmp4, tmp27)
    tl.store(in_out_ptr0 + (r0_2 + ks0*x3), tmp28, r0_mask & xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/wq/cwq7guw3zbjkqnsjju3tncjhh62u6bchrdknuwin2hjxgzgdpahz.py
# Topologically Sorted Source Nodes: [, linear_2, view_2, value_layer, attn_output], Original ATen: [aten.addmm, aten.view, aten.transpose, aten.clone]
# Source node to ATen node mapping:
#    => add_tensor_7
#   attn_output => clone_3
#   linear_2 => view_7
#   value_layer => permute_5
#   view_2 => view_8
# Graph fragment:
#   %primals_16 : Tensor "f32[64][1]cuda:0" = PlaceHolder[target=primals_16]
#   %mm_default_7 : Tensor "f32[s23*s27, 64][64, 1]cuda:0" = PlaceHolder[target=mm_default_7]
#   %add_tensor_7 : Tensor "f32[s23*s27, 64][64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%primals_16, %mm_default_7), kwargs = {})
#   %view_7 : Tensor "f32[s23, s27, 64][64*s27, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%add_tensor_7, [%primals_1, %primals_2, 64]), kwargs = {})
#   %view_8 : Tensor "f32[s23, s27, 4, 16][64*s27, 64, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%view_7, [%primals_1, %primals_2, -1, 16]), kwargs = {})
#   %permute_5 : Tensor "f32[s23, 4, s27, 16][64*s27, 16, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view_8, [0, 2, 1, 3]), kwargs = {})
#   %clone_3 : Tensor "f32[s23, 4, s27, 16][64*s27, 16*s27, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%expand_6,), kwargs = {memory_format: torch.contiguous_format})
#   return %clone_3
triton_poi_fused_addmm_clone_transpose_view_5 = async_compile.triton('triton_poi_fused_addmm_clone_transpose_view_5', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 2048}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'out_ptr0': '*fp32', 'ks0': 'i64', 'ks1': 'i64', 'ks2': 'i64', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_addmm_clone_transpose_view_5', 'mutated_arg_names': [], 'optimize_mem': False, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 2, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 24832}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_addmm_clone_transpose_view_5(in_ptr0, in_ptr1, out_ptr0, ks0, ks1, ks2, xnumel, XBLOCK : tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = (xindex % 16)
    x2 = ((xindex // ks0) % 4)
    x1 = ((xindex // 16) % ks1)
    x3 = xindex // ks2
    x4 = xindex
    tmp0 = tl.load(in_ptr0 + (x0 + 16*x2), xmask, eviction_policy='evict_last')
    tmp1 = tl.load(in_ptr1 + (x0 + 16*x2 + 64*x1 + 64*ks1*x3), xmask, eviction_policy='evict_last')
    tmp2 = tmp0 + tmp1
    tl.store(out_ptr0 + (x4), tmp2, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/bs/cbsfynivjmlkcwhkzoymzj2t3pku7awqtlkkqnusd5y4bx55spex.py
# Topologically Sorted Source Nodes: [attn_output, transpose_3, attn_output_1], Original ATen: [aten.view, aten.transpose, aten.clone]
# Source node to ATen node mapping:
#   attn_output => view_14
#   attn_output_1 => clone_4
#   transpose_3 => permute_7
# Graph fragment:
#   %bmm_1 : Tensor "f32[4*s23, s27, 16][16*s27, 16, 1]cuda:0" = PlaceHolder[target=bmm_1]
#   %view_14 : Tensor "f32[s23, 4, s27, 16][64*s27, 16*s27, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%bmm_1, [%primals_1, 4, %primals_2, 16]), kwargs = {})
#   %permute_7 : Tensor "f32[s23, s27, 4, 16][64*s27, 16, 16*s27, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view_14, [0, 2, 1, 3]), kwargs = {})
#   %clone_4 : Tensor "f32[s23, s27, 4, 16][64*s27, 64, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%permute_7,), kwargs = {memory_format: torch.contiguous_format})
#   return %clone_4
triton_poi_fused_clone_transpose_view_6 = async_compile.triton('triton_poi_fused_clone_transpose_view_6', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 2048}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp32', 'ks0': 'i64', 'ks1': 'i64', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_clone_transpose_view_6', 'mutated_arg_names': [], 'optimize_mem': False, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 24576}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_clone_transpose_view_6(in_ptr0, out_ptr0, ks0, ks1, xnumel, XBLOCK : tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = (xindex % 16)
    x1 = ((xindex // 16) % 4)
    x2 = ((xindex // 64) % ks0)
    x3 = xindex // ks1
    x4 = xindex
    tmp0 = tl.load(in_ptr0 + (x0 + 16*x2 + 16*ks0*x1 + 64*ks0*x3), xmask, eviction_policy='evict_last')
    tl.store(out_ptr0 + (x4), tmp0, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/p4/cp4auf5dsjmvbc27xvut5kxqgvlh3c2klwuoglcdi4fovabmpmpj.py
# Topologically Sorted Source Nodes: [, hidden_states, add_5, hidden_states_2, div_5], Original ATen: [aten.addmm, aten.view, aten.add, aten.native_layer_norm, aten.native_layer_norm_backward]
# Source node to ATen node mapping:
#    => add_tensor_6
#   add_5 => add_266
#   div_5 => div_5
#   hidden_states => view_17
#   hidden_states_2 => add_271, add_272, mul_325, mul_326, rsqrt_1, sub_131, var_mean_1
# Graph fragment:
#   %primals_18 : Tensor "f32[64][1]cuda:0" = PlaceHolder[target=primals_18]
#   %mm_default_6 : Tensor "f32[s23*s27, 64][64, 1]cuda:0" = PlaceHolder[target=mm_default_6]
#   %add_28 : Tensor "f32[s23, s27, 64][64*s27, 64, 1]cuda:0" = PlaceHolder[target=add_28]
#   %getitem_3 : Tensor "f32[s23, s27, 1][s27, 1, s23*s27]cuda:0" = PlaceHolder[target=getitem_3]
#   %buf22 : Tensor "f32[s23, s27, 1][s27, 1, s23*s27]cuda:0" = PlaceHolder[target=buf22]
#   %mul_325 : Tensor "f32[s23, s27, 64][64*s27, 64, 1]cuda:0" = PlaceHolder[target=mul_325]
#   %primals_19 : Tensor "f32[64][1]cuda:0" = PlaceHolder[target=primals_19]
#   %primals_20 : Tensor "f32[64][1]cuda:0" = PlaceHolder[target=primals_20]
#   %add_tensor_6 : Tensor "f32[s23*s27, 64][64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%primals_18, %mm_default_6), kwargs = {})
#   %view_17 : Tensor "f32[s23, s27, 64][64*s27, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%add_tensor_6, [%primals_1, %primals_2, 64]), kwargs = {})
#   %add_266 : Tensor "f32[s23, s27, 64][64*s27, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%view_17, %add_28), kwargs = {})
#   %var_mean_1 : [num_users=2] = call_function[target=torch.ops.aten.var_mean.correction](args = (%add_266, [2]), kwargs = {correction: 0, keepdim: True})
#   %add_271 : Tensor "f32[s23, s27, 1][s27, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%getitem_2, 1e-12), kwargs = {})
#   %rsqrt_1 : Tensor "f32[s23, s27, 1][s27, 1, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_271,), kwargs = {})
#   %sub_131 : Tensor "f32[s23, s27, 64][64*s27, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%add_266, %getitem_3), kwargs = {})
#   %mul_325 : Tensor "f32[s23, s27, 64][64*s27, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sub_131, %rsqrt_1), kwargs = {})
#   %mul_326 : Tensor "f32[s23, s27, 64][64*s27, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_325, %primals_19), kwargs = {})
#   %add_272 : Tensor "f32[s23, s27, 64][64*s27, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_326, %primals_20), kwargs = {})
#   %div_5 : Tensor "f32[s23, s27, 1][s27, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%rsqrt_1, 64), kwargs = {})
#   return %getitem_3,%buf22,%mul_325,%add_272,%div_5
triton_per_fused_add_addmm_native_layer_norm_native_layer_norm_backward_view_7 = async_compile.triton('triton_per_fused_add_addmm_native_layer_norm_native_layer_norm_backward_view_7', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 32, 'r0_': 64},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'in_ptr3': '*fp32', 'out_ptr2': '*fp32', 'out_ptr3': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (8,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused_add_addmm_native_layer_norm_native_layer_norm_backward_view_7', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': False, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 5, 'num_store': 3, 'num_reduction': 4, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 256, 'r0_': 49920}}
)
@triton.jit
def triton_per_fused_add_addmm_native_layer_norm_native_layer_norm_backward_view_7(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, in_ptr3, out_ptr2, out_ptr3, xnumel, r0_numel, XBLOCK : tl.constexpr):
    r0_numel = 64
    R0_BLOCK: tl.constexpr = 64
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
    tmp0 = tl.load(in_ptr0 + (r0_1), None, eviction_policy='evict_last')
    tmp1 = tl.load(in_out_ptr0 + (r0_1 + 64*x0), xmask, other=0.0)
    tmp3 = tl.load(in_ptr1 + (r0_1 + 64*x0), xmask, other=0.0)
    tmp28 = tl.load(in_ptr2 + (r0_1), None, eviction_policy='evict_last')
    tmp30 = tl.load(in_ptr3 + (r0_1), None, eviction_policy='evict_last')
    tmp2 = tmp0 + tmp1
    tmp4 = tmp2 + tmp3
    tmp5 = tl.broadcast_to(tmp4, [XBLOCK, R0_BLOCK])
    tmp7 = tl.where(xmask, tmp5, 0)
    tmp8 = tl.broadcast_to(tmp5, [XBLOCK, R0_BLOCK])
    tmp10 = tl.where(xmask, tmp8, 0)
    tmp11 = tl.sum(tmp10, 1)[:, None].to(tl.float32)
    tmp12 = tl.full([1, 1], 64, tl.int32)
    tmp13 = tmp12.to(tl.float32)
    tmp14 = (tmp11 / tmp13)
    tmp15 = tmp5 - tmp14
    tmp16 = tmp15 * tmp15
    tmp17 = tl.broadcast_to(tmp16, [XBLOCK, R0_BLOCK])
    tmp19 = tl.where(xmask, tmp17, 0)
    tmp20 = tl.sum(tmp19, 1)[:, None].to(tl.float32)
    tmp21 = tmp4 - tmp14
    tmp22 = tl.full([1, 1], 64.0, tl.float32)
    tmp23 = (tmp20 / tmp22)
    tmp24 = tl.full([1, 1], 1e-12, tl.float32)
    tmp25 = tmp23 + tmp24
    tmp26 = libdevice.rsqrt(tmp25)
    tmp27 = tmp21 * tmp26
    tmp29 = tmp27 * tmp28
    tmp31 = tmp29 + tmp30
    tmp32 = tl.full([1, 1], 0.015625, tl.float32)
    tmp33 = tmp26 * tmp32
    tl.store(in_out_ptr0 + (r0_1 + 64*x0), tmp27, xmask)
    tl.store(out_ptr2 + (r0_1 + 64*x0), tmp31, xmask)
    tl.store(out_ptr3 + (x0), tmp33, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/wo/cwomiciat5oqjvlcoeaompcpy5rccao3okhhb3hn65hslj24r5wx.py
# Topologically Sorted Source Nodes: [hidden_states_3, hidden_states_4], Original ATen: [aten.view, aten.gelu]
# Source node to ATen node mapping:
#   hidden_states_3 => view_19
#   hidden_states_4 => add_295, erf, mul_348, mul_349, mul_350
# Graph fragment:
#   %addmm_4 : Tensor "f32[s23*s27, 128][128, 1]cuda:0" = PlaceHolder[target=addmm_4]
#   %view_19 : Tensor "f32[s23, s27, 128][128*s27, 128, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_4, [%primals_1, %primals_2, 128]), kwargs = {})
#   %mul_348 : Tensor "f32[s23, s27, 128][128*s27, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%view_19, 0.5), kwargs = {})
#   %mul_349 : Tensor "f32[s23, s27, 128][128*s27, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%view_19, 0.7071067811865476), kwargs = {})
#   %erf : Tensor "f32[s23, s27, 128][128*s27, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.erf.default](args = (%mul_349,), kwargs = {})
#   %add_295 : Tensor "f32[s23, s27, 128][128*s27, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%erf, 1), kwargs = {})
#   %mul_350 : Tensor "f32[s23, s27, 128][128*s27, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_348, %add_295), kwargs = {})
#   return %mul_350
triton_poi_fused_gelu_view_8 = async_compile.triton('triton_poi_fused_gelu_view_8', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 4096}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_gelu_view_8', 'mutated_arg_names': [], 'optimize_mem': False, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 49152}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_gelu_view_8(in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0), xmask)
    tmp1 = tl.full([1], 0.5, tl.float32)
    tmp2 = tmp0 * tmp1
    tmp3 = tl.full([1], 0.7071067811865476, tl.float32)
    tmp4 = tmp0 * tmp3
    tmp5 = libdevice.erf(tmp4)
    tmp6 = tl.full([1], 1.0, tl.float32)
    tmp7 = tmp5 + tmp6
    tmp8 = tmp2 * tmp7
    tl.store(out_ptr0 + (x0), tmp8, xmask)
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
        primals_1, primals_2, primals_3, primals_4, primals_5, primals_6, primals_7, primals_8, primals_9, primals_10, primals_11, primals_12, primals_13, primals_14, primals_15, primals_16, primals_17, primals_18, primals_19, primals_20, primals_21, primals_22, primals_23, primals_24, primals_25, primals_26, primals_27, primals_28, primals_29, primals_30, primals_31, primals_32, primals_33, primals_34, primals_35, primals_36, primals_37, primals_38, primals_39, primals_40, primals_41, primals_42, primals_43, primals_44 = args
        args.clear()
        s23 = primals_1
        s27 = primals_2
        assert_size_stride(primals_3, (s23, s27), (s27, 1))
        assert_size_stride(primals_4, (1, 64), (64, 1))
        assert_size_stride(primals_5, (1, 64), (64, 1))
        assert_size_stride(primals_6, (512, 64), (64, 1))
        assert_size_stride(primals_7, (2, 64), (64, 1))
        assert_size_stride(primals_8, (64, 64), (64, 1))
        assert_size_stride(primals_9, (64, ), (1, ))
        assert_size_stride(primals_10, (64, ), (1, ))
        assert_size_stride(primals_11, (64, 64), (64, 1))
        assert_size_stride(primals_12, (64, ), (1, ))
        assert_size_stride(primals_13, (64, 64), (64, 1))
        assert_size_stride(primals_14, (64, ), (1, ))
        assert_size_stride(primals_15, (64, 64), (64, 1))
        assert_size_stride(primals_16, (64, ), (1, ))
        assert_size_stride(primals_17, (64, 64), (64, 1))
        assert_size_stride(primals_18, (64, ), (1, ))
        assert_size_stride(primals_19, (64, ), (1, ))
        assert_size_stride(primals_20, (64, ), (1, ))
        assert_size_stride(primals_21, (128, 64), (64, 1))
        assert_size_stride(primals_22, (128, ), (1, ))
        assert_size_stride(primals_23, (64, 128), (128, 1))
        assert_size_stride(primals_24, (64, ), (1, ))
        assert_size_stride(primals_25, (64, ), (1, ))
        assert_size_stride(primals_26, (64, ), (1, ))
        assert_size_stride(primals_27, (64, 64), (64, 1))
        assert_size_stride(primals_28, (64, ), (1, ))
        assert_size_stride(primals_29, (64, 64), (64, 1))
        assert_size_stride(primals_30, (64, ), (1, ))
        assert_size_stride(primals_31, (64, 64), (64, 1))
        assert_size_stride(primals_32, (64, ), (1, ))
        assert_size_stride(primals_33, (64, 64), (64, 1))
        assert_size_stride(primals_34, (64, ), (1, ))
        assert_size_stride(primals_35, (64, ), (1, ))
        assert_size_stride(primals_36, (64, ), (1, ))
        assert_size_stride(primals_37, (128, 64), (64, 1))
        assert_size_stride(primals_38, (128, ), (1, ))
        assert_size_stride(primals_39, (64, 128), (128, 1))
        assert_size_stride(primals_40, (64, ), (1, ))
        assert_size_stride(primals_41, (64, ), (1, ))
        assert_size_stride(primals_42, (64, ), (1, ))
        assert_size_stride(primals_43, (64, 64), (64, 1))
        assert_size_stride(primals_44, (64, ), (1, ))
        with torch.cuda._DeviceGuard(0):
            torch.cuda.set_device(0)
            buf0 = empty_strided_cuda((1, s27), (s27, 1), torch.int64)
            # Topologically Sorted Source Nodes: [position_ids, buffered_token_type_ids, buffered_token_type_ids_1], Original ATen: [aten.slice, aten.expand, aten.gather]
            # [Provenance debug handles] triton_poi_fused_expand_gather_slice_0:1
            stream0 = get_raw_stream(0)
            triton_poi_fused_expand_gather_slice_0.run(primals_4, primals_5, buf0, s27, stream=stream0)
            del primals_5
            buf1 = empty_strided_cuda((s23, s27, 64), (64*s27, 64, 1), torch.float32)
            buf5 = buf1; del buf1  # reuse
            buf6 = empty_strided_cuda((s23, s27, 64), (64*s27, 64, 1), torch.float32)
            buf65 = empty_strided_cuda((s23, s27, 1), (s27, 1, 1), torch.float32)
            # Topologically Sorted Source Nodes: [position_ids, buffered_token_type_ids, buffered_token_type_ids_1, token_type_ids, inputs_embeds, token_type_embeddings, embeddings, position_embeddings, embeddings_1, embeddings_2, div_6], Original ATen: [aten.slice, aten.expand, aten.gather, aten.embedding, aten.add, aten.native_layer_norm, aten.native_layer_norm_backward]
            # [Provenance debug handles] triton_per_fused_add_embedding_expand_gather_native_layer_norm_native_layer_norm_backward_slice_1:2
            triton_per_fused_add_embedding_expand_gather_native_layer_norm_native_layer_norm_backward_slice_1_xnumel = s23*s27
            stream0 = get_raw_stream(0)
            triton_per_fused_add_embedding_expand_gather_native_layer_norm_native_layer_norm_backward_slice_1.run(buf5, primals_3, primals_6, buf0, primals_7, primals_4, primals_8, primals_9, primals_10, buf6, buf65, s27, triton_per_fused_add_embedding_expand_gather_native_layer_norm_native_layer_norm_backward_slice_1_xnumel, 64, stream=stream0)
            del primals_10
            del primals_6
            del primals_7
            del primals_8
            buf7 = empty_strided_cuda((s23*s27, 64), (64, 1), torch.float32)
            # Topologically Sorted Source Nodes: [embeddings_2, linear, ], Original ATen: [aten.native_layer_norm, aten.view, aten.t, aten.addmm]
            # [Provenance debug handles] extern_kernels.mm:3
            extern_kernels.mm(reinterpret_tensor(buf6, (s23*s27, 64), (64, 1), 0), reinterpret_tensor(primals_11, (64, 64), (1, 64), 0), out=buf7)
            buf8 = empty_strided_cuda((s23*s27, 64), (64, 1), torch.float32)
            # Topologically Sorted Source Nodes: [embeddings_2, linear, linear_1, ], Original ATen: [aten.native_layer_norm, aten.view, aten.t, aten.addmm]
            # [Provenance debug handles] extern_kernels.mm:4
            extern_kernels.mm(reinterpret_tensor(buf6, (s23*s27, 64), (64, 1), 0), reinterpret_tensor(primals_13, (64, 64), (1, 64), 0), out=buf8)
            buf9 = empty_strided_cuda((s23*s27, 64), (64, 1), torch.float32)
            # Topologically Sorted Source Nodes: [embeddings_2, linear, linear_2, ], Original ATen: [aten.native_layer_norm, aten.view, aten.t, aten.addmm]
            # [Provenance debug handles] extern_kernels.mm:5
            extern_kernels.mm(reinterpret_tensor(buf6, (s23*s27, 64), (64, 1), 0), reinterpret_tensor(primals_15, (64, 64), (1, 64), 0), out=buf9)
            ps0 = 16*s27
            ps1 = 64*s27
            buf10 = empty_strided_cuda((s23, 4, s27, 16), (64*s27, 16*s27, 16, 1), torch.float32)
            # Topologically Sorted Source Nodes: [, linear, view, query_layer, attn_output], Original ATen: [aten.addmm, aten.view, aten.transpose, aten.mul, aten.clone]
            # [Provenance debug handles] triton_poi_fused_addmm_clone_mul_transpose_view_2:6
            triton_poi_fused_addmm_clone_mul_transpose_view_2_xnumel = 64*s23*s27
            stream0 = get_raw_stream(0)
            triton_poi_fused_addmm_clone_mul_transpose_view_2.run(primals_12, buf7, buf10, ps0, s27, ps1, triton_poi_fused_addmm_clone_mul_transpose_view_2_xnumel, stream=stream0)
            del primals_12
            buf11 = reinterpret_tensor(buf7, (s23, 4, 16, s27), (64*s27, 16*s27, s27, 1), 0); del buf7  # reuse
            # Topologically Sorted Source Nodes: [, linear_1, view_1, key_layer, attn_output], Original ATen: [aten.addmm, aten.view, aten.transpose, aten.mul, aten.clone]
            # [Provenance debug handles] triton_poi_fused_addmm_clone_mul_transpose_view_3:7
            triton_poi_fused_addmm_clone_mul_transpose_view_3_ynumel = 64*s23
            stream0 = get_raw_stream(0)
            triton_poi_fused_addmm_clone_mul_transpose_view_3.run(primals_14, buf8, buf11, s27, triton_poi_fused_addmm_clone_mul_transpose_view_3_ynumel, s27, stream=stream0)
            del primals_14
            buf12 = empty_strided_cuda((4*s23, s27, s27), (s27*s27, s27, 1), torch.float32)
            # Topologically Sorted Source Nodes: [, linear, view, query_layer, linear_1, view_1, key_layer, attn_output], Original ATen: [aten.addmm, aten.view, aten.transpose, aten.mul, aten.clone, aten._unsafe_view, aten.bmm]
            # [Provenance debug handles] extern_kernels.bmm:8
            extern_kernels.bmm(reinterpret_tensor(buf10, (4*s23, s27, 16), (16*s27, 16, 1), 0), reinterpret_tensor(buf11, (4*s23, 16, s27), (16*s27, s27, 1), 0), out=buf12)
            buf16 = reinterpret_tensor(buf12, (s23, 4, s27, s27), (4*s27*s27, s27*s27, s27, 1), 0); del buf12  # reuse
            # Topologically Sorted Source Nodes: [arange_2, q_arange, q_indices, attention_mask, attention_mask_1, attn_output, ], Original ATen: [aten.arange, aten.add, aten.unsqueeze, aten.ge, aten.expand, aten.scalar_tensor, aten.where, aten.view, prims.prepare_softmax_online, aten.sub, aten.exp, aten._safe_softmax]
            # [Provenance debug handles] triton_per_fused__safe_softmax_add_arange_exp_expand_ge_prepare_softmax_online_scalar_tensor_sub_unsqueeze_view_where_4:9
            triton_per_fused__safe_softmax_add_arange_exp_expand_ge_prepare_softmax_online_scalar_tensor_sub_unsqueeze_view_where_4_xnumel = 4*s23*s27
            stream0 = get_raw_stream(0)
            triton_per_fused__safe_softmax_add_arange_exp_expand_ge_prepare_softmax_online_scalar_tensor_sub_unsqueeze_view_where_4.run(buf16, s27, triton_per_fused__safe_softmax_add_arange_exp_expand_ge_prepare_softmax_online_scalar_tensor_sub_unsqueeze_view_where_4_xnumel, s27, stream=stream0)
            buf17 = reinterpret_tensor(buf8, (s23, 4, s27, 16), (64*s27, 16*s27, 16, 1), 0); del buf8  # reuse
            # Topologically Sorted Source Nodes: [, linear_2, view_2, value_layer, attn_output], Original ATen: [aten.addmm, aten.view, aten.transpose, aten.clone]
            # [Provenance debug handles] triton_poi_fused_addmm_clone_transpose_view_5:10
            triton_poi_fused_addmm_clone_transpose_view_5_xnumel = 64*s23*s27
            stream0 = get_raw_stream(0)
            triton_poi_fused_addmm_clone_transpose_view_5.run(primals_16, buf9, buf17, ps0, s27, ps1, triton_poi_fused_addmm_clone_transpose_view_5_xnumel, stream=stream0)
            del primals_16
            buf18 = reinterpret_tensor(buf9, (4*s23, s27, 16), (16*s27, 16, 1), 0); del buf9  # reuse
            # Topologically Sorted Source Nodes: [, linear_2, view_2, value_layer, attn_output], Original ATen: [aten.addmm, aten.view, aten.transpose, aten.clone, aten._unsafe_view, aten.bmm]
            # [Provenance debug handles] extern_kernels.bmm:11
            extern_kernels.bmm(reinterpret_tensor(buf16, (4*s23, s27, s27), (s27*s27, s27, 1), 0), reinterpret_tensor(buf17, (4*s23, s27, 16), (16*s27, 16, 1), 0), out=buf18)
            buf19 = empty_strided_cuda((s23, s27, 4, 16), (64*s27, 64, 16, 1), torch.float32)
            # Topologically Sorted Source Nodes: [attn_output, transpose_3, attn_output_1], Original ATen: [aten.view, aten.transpose, aten.clone]
            # [Provenance debug handles] triton_poi_fused_clone_transpose_view_6:12
            triton_poi_fused_clone_transpose_view_6_xnumel = 64*s23*s27
            stream0 = get_raw_stream(0)
            triton_poi_fused_clone_transpose_view_6.run(buf18, buf19, s27, ps1, triton_poi_fused_clone_transpose_view_6_xnumel, stream=stream0)
            buf20 = reinterpret_tensor(buf18, (s23*s27, 64), (64, 1), 0); del buf18  # reuse
            # Topologically Sorted Source Nodes: [attn_output, transpose_3, attn_output_1, reshape, hidden_states, ], Original ATen: [aten.view, aten.transpose, aten.clone, aten.t, aten.addmm]
            # [Provenance debug handles] extern_kernels.mm:13
            extern_kernels.mm(reinterpret_tensor(buf19, (s23*s27, 64), (64, 1), 0), reinterpret_tensor(primals_17, (64, 64), (1, 64), 0), out=buf20)
            buf24 = reinterpret_tensor(buf20, (s23, s27, 64), (64*s27, 64, 1), 0); del buf20  # reuse
            buf25 = empty_strided_cuda((s23, s27, 64), (64*s27, 64, 1), torch.float32)
            buf64 = empty_strided_cuda((s23, s27, 1), (s27, 1, 1), torch.float32)
            # Topologically Sorted Source Nodes: [, hidden_states, add_5, hidden_states_2, div_5], Original ATen: [aten.addmm, aten.view, aten.add, aten.native_layer_norm, aten.native_layer_norm_backward]
            # [Provenance debug handles] triton_per_fused_add_addmm_native_layer_norm_native_layer_norm_backward_view_7:14
            triton_per_fused_add_addmm_native_layer_norm_native_layer_norm_backward_view_7_xnumel = s23*s27
            stream0 = get_raw_stream(0)
            triton_per_fused_add_addmm_native_layer_norm_native_layer_norm_backward_view_7.run(buf24, primals_18, buf6, primals_19, primals_20, buf25, buf64, triton_per_fused_add_addmm_native_layer_norm_native_layer_norm_backward_view_7_xnumel, 64, stream=stream0)
            del primals_18
            del primals_20
            buf26 = empty_strided_cuda((s23*s27, 128), (128, 1), torch.float32)
            # Topologically Sorted Source Nodes: [hidden_states_2, hidden_states_3], Original ATen: [aten.native_layer_norm, aten.view, aten.t, aten.addmm]
            # [Provenance debug handles] extern_kernels.addmm:15
            extern_kernels.addmm(primals_22, reinterpret_tensor(buf25, (s23*s27, 64), (64, 1), 0), reinterpret_tensor(primals_21, (64, 128), (1, 64), 0), alpha=1, beta=1, out=buf26)
            del primals_22
            buf27 = empty_strided_cuda((s23, s27, 128), (128*s27, 128, 1), torch.float32)
            # Topologically Sorted Source Nodes: [hidden_states_3, hidden_states_4], Original ATen: [aten.view, aten.gelu]
            # [Provenance debug handles] triton_poi_fused_gelu_view_8:16
            triton_poi_fused_gelu_view_8_xnumel = 128*s23*s27
            stream0 = get_raw_stream(0)
            triton_poi_fused_gelu_view_8.run(buf26, buf27, triton_poi_fused_gelu_view_8_xnumel, stream=stream0)
            buf28 = empty_strided_cuda((s23*s27, 64), (64, 1), torch.float32)
            # Topologically Sorted Source Nodes: [hidden_states_3, hidden_states_4, hidden_states_5, ], Original ATen: [aten.view, aten.gelu, aten.t, aten.addmm]
            # [Provenance debug handles] extern_kernels.mm:17
            extern_kernels.mm(reinterpret_tensor(buf27, (s23*s27, 128), (128, 1), 0), reinterpret_tensor(primals_23, (128, 64), (1, 128), 0), out=buf28)
            buf32 = reinterpret_tensor(buf28, (s23, s27, 64), (64*s27, 64, 1), 0); del buf28  # reuse
            buf33 = empty_strided_cuda((s23, s27, 64), (64*s27, 64, 1), torch.float32)
            buf63 = empty_strided_cuda((s23, s27, 1), (s27, 1, 1), torch.float32)
            # Topologically Sorted Source Nodes: [, hidden_states_5, add_6, hidden_states_7, div_4], Original ATen: [aten.addmm, aten.view, aten.add, aten.native_layer_norm, aten.native_layer_norm_backward]
            # [Provenance debug handles] triton_per_fused_add_addmm_native_layer_norm_native_layer_norm_backward_view_7:18
            triton_per_fused_add_addmm_native_layer_norm_native_layer_norm_backward_view_7_xnumel = s23*s27
            stream0 = get_raw_stream(0)
            triton_per_fused_add_addmm_native_layer_norm_native_layer_norm_backward_view_7.run(buf32, primals_24, buf25, primals_25, primals_26, buf33, buf63, triton_per_fused_add_addmm_native_layer_norm_native_layer_norm_backward_view_7_xnumel, 64, stream=stream0)
            del primals_24
            del primals_26
            buf34 = empty_strided_cuda((s23*s27, 64), (64, 1), torch.float32)
            # Topologically Sorted Source Nodes: [hidden_states_7, linear_6, ], Original ATen: [aten.native_layer_norm, aten.view, aten.t, aten.addmm]
            # [Provenance debug handles] extern_kernels.mm:19
            extern_kernels.mm(reinterpret_tensor(buf33, (s23*s27, 64), (64, 1), 0), reinterpret_tensor(primals_27, (64, 64), (1, 64), 0), out=buf34)
            buf35 = empty_strided_cuda((s23*s27, 64), (64, 1), torch.float32)
            # Topologically Sorted Source Nodes: [hidden_states_7, linear_6, linear_7, ], Original ATen: [aten.native_layer_norm, aten.view, aten.t, aten.addmm]
            # [Provenance debug handles] extern_kernels.mm:20
            extern_kernels.mm(reinterpret_tensor(buf33, (s23*s27, 64), (64, 1), 0), reinterpret_tensor(primals_29, (64, 64), (1, 64), 0), out=buf35)
            buf36 = empty_strided_cuda((s23*s27, 64), (64, 1), torch.float32)
            # Topologically Sorted Source Nodes: [hidden_states_7, linear_6, linear_8, ], Original ATen: [aten.native_layer_norm, aten.view, aten.t, aten.addmm]
            # [Provenance debug handles] extern_kernels.mm:21
            extern_kernels.mm(reinterpret_tensor(buf33, (s23*s27, 64), (64, 1), 0), reinterpret_tensor(primals_31, (64, 64), (1, 64), 0), out=buf36)
            buf37 = empty_strided_cuda((s23, 4, s27, 16), (64*s27, 16*s27, 16, 1), torch.float32)
            # Topologically Sorted Source Nodes: [, linear_6, view_3, query_layer_1, attn_output_3], Original ATen: [aten.addmm, aten.view, aten.transpose, aten.mul, aten.clone]
            # [Provenance debug handles] triton_poi_fused_addmm_clone_mul_transpose_view_2:22
            triton_poi_fused_addmm_clone_mul_transpose_view_2_xnumel = 64*s23*s27
            stream0 = get_raw_stream(0)
            triton_poi_fused_addmm_clone_mul_transpose_view_2.run(primals_28, buf34, buf37, ps0, s27, ps1, triton_poi_fused_addmm_clone_mul_transpose_view_2_xnumel, stream=stream0)
            del primals_28
            buf38 = reinterpret_tensor(buf34, (s23, 4, 16, s27), (64*s27, 16*s27, s27, 1), 0); del buf34  # reuse
            # Topologically Sorted Source Nodes: [, linear_7, view_4, key_layer_1, attn_output_3], Original ATen: [aten.addmm, aten.view, aten.transpose, aten.mul, aten.clone]
            # [Provenance debug handles] triton_poi_fused_addmm_clone_mul_transpose_view_3:23
            triton_poi_fused_addmm_clone_mul_transpose_view_3_ynumel = 64*s23
            stream0 = get_raw_stream(0)
            triton_poi_fused_addmm_clone_mul_transpose_view_3.run(primals_30, buf35, buf38, s27, triton_poi_fused_addmm_clone_mul_transpose_view_3_ynumel, s27, stream=stream0)
            del primals_30
            buf39 = empty_strided_cuda((4*s23, s27, s27), (s27*s27, s27, 1), torch.float32)
            # Topologically Sorted Source Nodes: [, linear_6, view_3, query_layer_1, linear_7, view_4, key_layer_1, attn_output_3], Original ATen: [aten.addmm, aten.view, aten.transpose, aten.mul, aten.clone, aten._unsafe_view, aten.bmm]
            # [Provenance debug handles] extern_kernels.bmm:24
            extern_kernels.bmm(reinterpret_tensor(buf37, (4*s23, s27, 16), (16*s27, 16, 1), 0), reinterpret_tensor(buf38, (4*s23, 16, s27), (16*s27, s27, 1), 0), out=buf39)
            buf43 = reinterpret_tensor(buf39, (s23, 4, s27, s27), (4*s27*s27, s27*s27, s27, 1), 0); del buf39  # reuse
            # Topologically Sorted Source Nodes: [arange_2, q_arange, q_indices, attention_mask, attention_mask_1, attn_output, attn_output_3, ], Original ATen: [aten.arange, aten.add, aten.unsqueeze, aten.ge, aten.expand, aten.scalar_tensor, aten.where, aten._safe_softmax, aten.view, prims.prepare_softmax_online, aten.sub, aten.exp]
            # [Provenance debug handles] triton_per_fused__safe_softmax_add_arange_exp_expand_ge_prepare_softmax_online_scalar_tensor_sub_unsqueeze_view_where_4:25
            triton_per_fused__safe_softmax_add_arange_exp_expand_ge_prepare_softmax_online_scalar_tensor_sub_unsqueeze_view_where_4_xnumel = 4*s23*s27
            stream0 = get_raw_stream(0)
            triton_per_fused__safe_softmax_add_arange_exp_expand_ge_prepare_softmax_online_scalar_tensor_sub_unsqueeze_view_where_4.run(buf43, s27, triton_per_fused__safe_softmax_add_arange_exp_expand_ge_prepare_softmax_online_scalar_tensor_sub_unsqueeze_view_where_4_xnumel, s27, stream=stream0)
            buf44 = reinterpret_tensor(buf35, (s23, 4, s27, 16), (64*s27, 16*s27, 16, 1), 0); del buf35  # reuse
            # Topologically Sorted Source Nodes: [, linear_8, view_5, value_layer_1, attn_output_3], Original ATen: [aten.addmm, aten.view, aten.transpose, aten.clone]
            # [Provenance debug handles] triton_poi_fused_addmm_clone_transpose_view_5:26
            triton_poi_fused_addmm_clone_transpose_view_5_xnumel = 64*s23*s27
            stream0 = get_raw_stream(0)
            triton_poi_fused_addmm_clone_transpose_view_5.run(primals_32, buf36, buf44, ps0, s27, ps1, triton_poi_fused_addmm_clone_transpose_view_5_xnumel, stream=stream0)
            del primals_32
            buf45 = reinterpret_tensor(buf36, (4*s23, s27, 16), (16*s27, 16, 1), 0); del buf36  # reuse
            # Topologically Sorted Source Nodes: [, linear_8, view_5, value_layer_1, attn_output_3], Original ATen: [aten.addmm, aten.view, aten.transpose, aten.clone, aten._unsafe_view, aten.bmm]
            # [Provenance debug handles] extern_kernels.bmm:27
            extern_kernels.bmm(reinterpret_tensor(buf43, (4*s23, s27, s27), (s27*s27, s27, 1), 0), reinterpret_tensor(buf44, (4*s23, s27, 16), (16*s27, 16, 1), 0), out=buf45)
            buf46 = empty_strided_cuda((s23, s27, 4, 16), (64*s27, 64, 16, 1), torch.float32)
            # Topologically Sorted Source Nodes: [attn_output_3, transpose_7, attn_output_4], Original ATen: [aten.view, aten.transpose, aten.clone]
            # [Provenance debug handles] triton_poi_fused_clone_transpose_view_6:28
            triton_poi_fused_clone_transpose_view_6_xnumel = 64*s23*s27
            stream0 = get_raw_stream(0)
            triton_poi_fused_clone_transpose_view_6.run(buf45, buf46, s27, ps1, triton_poi_fused_clone_transpose_view_6_xnumel, stream=stream0)
            buf47 = reinterpret_tensor(buf45, (s23*s27, 64), (64, 1), 0); del buf45  # reuse
            # Topologically Sorted Source Nodes: [attn_output_3, transpose_7, attn_output_4, reshape_1, hidden_states_8, ], Original ATen: [aten.view, aten.transpose, aten.clone, aten.t, aten.addmm]
            # [Provenance debug handles] extern_kernels.mm:29
            extern_kernels.mm(reinterpret_tensor(buf46, (s23*s27, 64), (64, 1), 0), reinterpret_tensor(primals_33, (64, 64), (1, 64), 0), out=buf47)
            buf51 = reinterpret_tensor(buf47, (s23, s27, 64), (64*s27, 64, 1), 0); del buf47  # reuse
            buf52 = empty_strided_cuda((s23, s27, 64), (64*s27, 64, 1), torch.float32)
            buf62 = empty_strided_cuda((s23, s27, 1), (s27, 1, 1), torch.float32)
            # Topologically Sorted Source Nodes: [, hidden_states_8, add_7, hidden_states_10, div_3], Original ATen: [aten.addmm, aten.view, aten.add, aten.native_layer_norm, aten.native_layer_norm_backward]
            # [Provenance debug handles] triton_per_fused_add_addmm_native_layer_norm_native_layer_norm_backward_view_7:30
            triton_per_fused_add_addmm_native_layer_norm_native_layer_norm_backward_view_7_xnumel = s23*s27
            stream0 = get_raw_stream(0)
            triton_per_fused_add_addmm_native_layer_norm_native_layer_norm_backward_view_7.run(buf51, primals_34, buf33, primals_35, primals_36, buf52, buf62, triton_per_fused_add_addmm_native_layer_norm_native_layer_norm_backward_view_7_xnumel, 64, stream=stream0)
            del primals_34
            del primals_36
            buf53 = empty_strided_cuda((s23*s27, 128), (128, 1), torch.float32)
            # Topologically Sorted Source Nodes: [hidden_states_10, hidden_states_11], Original ATen: [aten.native_layer_norm, aten.view, aten.t, aten.addmm]
            # [Provenance debug handles] extern_kernels.addmm:31
            extern_kernels.addmm(primals_38, reinterpret_tensor(buf52, (s23*s27, 64), (64, 1), 0), reinterpret_tensor(primals_37, (64, 128), (1, 64), 0), alpha=1, beta=1, out=buf53)
            del primals_38
            buf54 = empty_strided_cuda((s23, s27, 128), (128*s27, 128, 1), torch.float32)
            # Topologically Sorted Source Nodes: [hidden_states_11, hidden_states_12], Original ATen: [aten.view, aten.gelu]
            # [Provenance debug handles] triton_poi_fused_gelu_view_8:32
            triton_poi_fused_gelu_view_8_xnumel = 128*s23*s27
            stream0 = get_raw_stream(0)
            triton_poi_fused_gelu_view_8.run(buf53, buf54, triton_poi_fused_gelu_view_8_xnumel, stream=stream0)
            buf55 = empty_strided_cuda((s23*s27, 64), (64, 1), torch.float32)
            # Topologically Sorted Source Nodes: [hidden_states_11, hidden_states_12, hidden_states_13, ], Original ATen: [aten.view, aten.gelu, aten.t, aten.addmm]
            # [Provenance debug handles] extern_kernels.mm:33
            extern_kernels.mm(reinterpret_tensor(buf54, (s23*s27, 128), (128, 1), 0), reinterpret_tensor(primals_39, (128, 64), (1, 128), 0), out=buf55)
            buf59 = reinterpret_tensor(buf55, (s23, s27, 64), (64*s27, 64, 1), 0); del buf55  # reuse
            buf60 = empty_strided_cuda((s23, s27, 64), (64*s27, 64, 1), torch.float32)
            buf61 = empty_strided_cuda((s23, s27, 1), (s27, 1, 1), torch.float32)
            # Topologically Sorted Source Nodes: [, hidden_states_13, add_8, hidden_states_15, div_2], Original ATen: [aten.addmm, aten.view, aten.add, aten.native_layer_norm, aten.native_layer_norm_backward]
            # [Provenance debug handles] triton_per_fused_add_addmm_native_layer_norm_native_layer_norm_backward_view_7:34
            triton_per_fused_add_addmm_native_layer_norm_native_layer_norm_backward_view_7_xnumel = s23*s27
            stream0 = get_raw_stream(0)
            triton_per_fused_add_addmm_native_layer_norm_native_layer_norm_backward_view_7.run(buf59, primals_40, buf52, primals_41, primals_42, buf60, buf61, triton_per_fused_add_addmm_native_layer_norm_native_layer_norm_backward_view_7_xnumel, 64, stream=stream0)
            del primals_40
            del primals_42
        return (buf60, primals_3, primals_4, primals_9, primals_11, primals_13, primals_15, primals_17, primals_19, primals_21, primals_23, primals_25, primals_27, primals_29, primals_31, primals_33, primals_35, primals_37, primals_39, primals_41, reinterpret_tensor(buf0, (s23, s27), (0, 1), 0), buf5, reinterpret_tensor(buf6, (s23*s27, 64), (64, 1), 0), buf16, reinterpret_tensor(buf19, (s23*s27, 64), (64, 1), 0), buf24, reinterpret_tensor(buf25, (s23*s27, 64), (64, 1), 0), buf26, reinterpret_tensor(buf27, (s23*s27, 128), (128, 1), 0), buf32, reinterpret_tensor(buf33, (s23*s27, 64), (64, 1), 0), buf43, reinterpret_tensor(buf46, (s23*s27, 64), (64, 1), 0), buf51, reinterpret_tensor(buf52, (s23*s27, 64), (64, 1), 0), buf53, reinterpret_tensor(buf54, (s23*s27, 128), (128, 1), 0), buf59, buf61, buf62, reinterpret_tensor(buf44, (4*s23, 16, s27), (16*s27, 1, 16), 0), reinterpret_tensor(buf37, (4*s23, 16, s27), (16*s27, 1, 16), 0), reinterpret_tensor(buf38, (4*s23, s27, 16), (16*s27, 1, s27), 0), buf63, buf64, reinterpret_tensor(buf17, (4*s23, 16, s27), (16*s27, 1, 16), 0), reinterpret_tensor(buf10, (4*s23, 16, s27), (16*s27, 1, 16), 0), reinterpret_tensor(buf11, (4*s23, s27, 16), (16*s27, 1, s27), 0), buf65, s23, s27, s23*s27, 4*s23, )

runner = Runner(partitions=[])
call = runner.call
recursively_apply_fns = runner.recursively_apply_fns


def get_args():
    from torch._dynamo.testing import rand_strided
    primals_1 = 2
    primals_2 = 16
    primals_3 = rand_strided((2, 16), (16, 1), device='cuda:0', dtype=torch.int64)
    primals_4 = rand_strided((1, 64), (64, 1), device='cuda:0', dtype=torch.int64)
    primals_5 = rand_strided((1, 64), (64, 1), device='cuda:0', dtype=torch.int64)
    primals_6 = rand_strided((512, 64), (64, 1), device='cuda:0', dtype=torch.float32)
    primals_7 = rand_strided((2, 64), (64, 1), device='cuda:0', dtype=torch.float32)
    primals_8 = rand_strided((64, 64), (64, 1), device='cuda:0', dtype=torch.float32)
    primals_9 = rand_strided((64, ), (1, ), device='cuda:0', dtype=torch.float32)
    primals_10 = rand_strided((64, ), (1, ), device='cuda:0', dtype=torch.float32)
    primals_11 = rand_strided((64, 64), (64, 1), device='cuda:0', dtype=torch.float32)
    primals_12 = rand_strided((64, ), (1, ), device='cuda:0', dtype=torch.float32)
    primals_13 = rand_strided((64, 64), (64, 1), device='cuda:0', dtype=torch.float32)
    primals_14 = rand_strided((64, ), (1, ), device='cuda:0', dtype=torch.float32)
    primals_15 = rand_strided((64, 64), (64, 1), device='cuda:0', dtype=torch.float32)
    primals_16 = rand_strided((64, ), (1, ), device='cuda:0', dtype=torch.float32)
    primals_17 = rand_strided((64, 64), (64, 1), device='cuda:0', dtype=torch.float32)
    primals_18 = rand_strided((64, ), (1, ), device='cuda:0', dtype=torch.float32)
    primals_19 = rand_strided((64, ), (1, ), device='cuda:0', dtype=torch.float32)
    primals_20 = rand_strided((64, ), (1, ), device='cuda:0', dtype=torch.float32)
    primals_21 = rand_strided((128, 64), (64, 1), device='cuda:0', dtype=torch.float32)
    primals_22 = rand_strided((128, ), (1, ), device='cuda:0', dtype=torch.float32)
    primals_23 = rand_strided((64, 128), (128, 1), device='cuda:0', dtype=torch.float32)
    primals_24 = rand_strided((64, ), (1, ), device='cuda:0', dtype=torch.float32)
    primals_25 = rand_strided((64, ), (1, ), device='cuda:0', dtype=torch.float32)
    primals_26 = rand_strided((64, ), (1, ), device='cuda:0', dtype=torch.float32)
    primals_27 = rand_strided((64, 64), (64, 1), device='cuda:0', dtype=torch.float32)
    primals_28 = rand_strided((64, ), (1, ), device='cuda:0', dtype=torch.float32)
    primals_29 = rand_strided((64, 64), (64, 1), device='cuda:0', dtype=torch.float32)
    primals_30 = rand_strided((64, ), (1, ), device='cuda:0', dtype=torch.float32)
    primals_31 = rand_strided((64, 64), (64, 1), device='cuda:0', dtype=torch.float32)
    primals_32 = rand_strided((64, ), (1, ), device='cuda:0', dtype=torch.float32)
    primals_33 = rand_strided((64, 64), (64, 1), device='cuda:0', dtype=torch.float32)
    primals_34 = rand_strided((64, ), (1, ), device='cuda:0', dtype=torch.float32)
    primals_35 = rand_strided((64, ), (1, ), device='cuda:0', dtype=torch.float32)
    primals_36 = rand_strided((64, ), (1, ), device='cuda:0', dtype=torch.float32)
    primals_37 = rand_strided((128, 64), (64, 1), device='cuda:0', dtype=torch.float32)
    primals_38 = rand_strided((128, ), (1, ), device='cuda:0', dtype=torch.float32)
    primals_39 = rand_strided((64, 128), (128, 1), device='cuda:0', dtype=torch.float32)
    primals_40 = rand_strided((64, ), (1, ), device='cuda:0', dtype=torch.float32)
    primals_41 = rand_strided((64, ), (1, ), device='cuda:0', dtype=torch.float32)
    primals_42 = rand_strided((64, ), (1, ), device='cuda:0', dtype=torch.float32)
    primals_43 = rand_strided((64, 64), (64, 1), device='cuda:0', dtype=torch.float32)
    primals_44 = rand_strided((64, ), (1, ), device='cuda:0', dtype=torch.float32)
    return [primals_1, primals_2, primals_3, primals_4, primals_5, primals_6, primals_7, primals_8, primals_9, primals_10, primals_11, primals_12, primals_13, primals_14, primals_15, primals_16, primals_17, primals_18, primals_19, primals_20, primals_21, primals_22, primals_23, primals_24, primals_25, primals_26, primals_27, primals_28, primals_29, primals_30, primals_31, primals_32, primals_33, primals_34, primals_35, primals_36, primals_37, primals_38, primals_39, primals_40, primals_41, primals_42, primals_43, primals_44]


def benchmark_compiled_module(args, times=10, repeat=10):
    from torch._inductor.utils import print_performance
    fn = lambda: call(list(args))
    return print_performance(fn, times=times, repeat=repeat)


if __name__ == "__main__":
    from torch._inductor.wrapper_benchmark import compiled_module_main
    args = get_args()
    compiled_module_main('None', lambda times, repeat: benchmark_compiled_module(args, times=times, repeat=repeat))
