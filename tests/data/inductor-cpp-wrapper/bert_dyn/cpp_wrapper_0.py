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


# kernel path: /tmp/torchinductor_root/iz/cizusc3unvgdj63qoxduj7pi7qmpaqmtom5def5iow7t6elifnh2.py
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
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_expand_gather_slice_0', 'mutated_arg_names': [], 'optimize_mem': False, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': True, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 384}},
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


# kernel path: /tmp/torchinductor_root/iw/ciwy76mezcch5h3mfcrge7yoikhfs4tdq45f3p27xufydi2ktrtv.py
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
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused_add_embedding_expand_gather_native_layer_norm_native_layer_norm_backward_slice_1', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': False, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 5, 'num_store': 3, 'num_reduction': 4, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': True, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 768, 'r0_': 33280}}
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


# kernel path: /tmp/torchinductor_root/ed/cedrekidijm7gfht5tp2renw4itmnflc3tbebw2nmyzm3wjbkjty.py
# Topologically Sorted Source Nodes: [linear, view, query_layer, attn_output], Original ATen: [aten.addmm, aten.view, aten.transpose, aten.mul, aten.clone]
# Source node to ATen node mapping:
#   attn_output => clone_1, mul_106
#   linear => add_tensor_9, view_1
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
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_addmm_clone_mul_transpose_view_2', 'mutated_arg_names': [], 'optimize_mem': False, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 2, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': True, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 24832}},
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


# kernel path: /tmp/torchinductor_root/6h/c6hfyflvxhzbvir2vtn5halfszwnppjt7zjstzzvvbz2wfzzy6zf.py
# Topologically Sorted Source Nodes: [linear_1, view_1, key_layer, attn_output], Original ATen: [aten.addmm, aten.view, aten.transpose, aten.mul, aten.clone]
# Source node to ATen node mapping:
#   attn_output => clone_2, mul_113, permute_6
#   key_layer => permute_3
#   linear_1 => add_tensor_8, view_4
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
    inductor_meta={'grid_type': 'Grid2DWithYZOverflow', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_addmm_clone_mul_transpose_view_3', 'mutated_arg_names': [], 'optimize_mem': False, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 2, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': True, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'y': 8448, 'x': 16384}},
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


# kernel path: /tmp/torchinductor_root/ha/chacg7etwdgkytgtjfiafkcdfbasmomx67f65anijf4ib7nfp2zc.py
# Topologically Sorted Source Nodes: [arange_2, q_arange, q_indices, attention_mask, attention_mask_1, attn_output], Original ATen: [aten.arange, aten.add, aten.unsqueeze, aten.ge, aten.expand, aten.scalar_tensor, aten.where, aten.view, prims.prepare_softmax_online, aten.sub, aten.exp, aten._safe_softmax]
# Source node to ATen node mapping:
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
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused__safe_softmax_add_arange_exp_expand_ge_prepare_softmax_online_scalar_tensor_sub_unsqueeze_view_where_4', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': False, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 3, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': True, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 0, 'r0_': 24576}}
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


# kernel path: /tmp/torchinductor_root/hu/chu65qjqr4eqm4ipayzpix7bzxibgch5oukxx4oaipoqt3vkcsbc.py
# Topologically Sorted Source Nodes: [linear_2, view_2, value_layer, attn_output], Original ATen: [aten.addmm, aten.view, aten.transpose, aten.clone]
# Source node to ATen node mapping:
#   attn_output => clone_3
#   linear_2 => add_tensor_7, view_7
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
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_addmm_clone_transpose_view_5', 'mutated_arg_names': [], 'optimize_mem': False, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 2, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': True, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 24832}},
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


# kernel path: /tmp/torchinductor_root/j5/cj5qcppiwyouq7xjpgf6s63uc4jiqlvpuj2cs6uiqofn64npjcz3.py
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
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_clone_transpose_view_6', 'mutated_arg_names': [], 'optimize_mem': False, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': True, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 24576}},
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


# kernel path: /tmp/torchinductor_root/qv/cqvprahmcra6eoh3g5k5hrjwpgechiqqrou22oezmk53t7sfabug.py
# Topologically Sorted Source Nodes: [hidden_states, add_5, hidden_states_2, div_5], Original ATen: [aten.addmm, aten.view, aten.add, aten.native_layer_norm, aten.native_layer_norm_backward]
# Source node to ATen node mapping:
#   add_5 => add_266
#   div_5 => div_5
#   hidden_states => add_tensor_6, view_17
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
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused_add_addmm_native_layer_norm_native_layer_norm_backward_view_7', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': False, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 5, 'num_store': 3, 'num_reduction': 4, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': True, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 256, 'r0_': 49920}}
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


# kernel path: /tmp/torchinductor_root/sw/cswn6krumirry4rbnrzx73gpowquguyrg36napafxzamc4x5v2qj.py
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
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_gelu_view_8', 'mutated_arg_names': [], 'optimize_mem': False, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': True, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 49152}},
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

import triton
import triton.language as tl
from torch._inductor.runtime.triton_heuristics import start_graph, end_graph
from torch._C import _cuda_getCurrentRawStream as get_raw_stream
with torch.cuda._DeviceGuard(0):
    stream0 = get_raw_stream(0)
stream0 = get_raw_stream(0)
primals_4 = generate_example_value((1, 64), (64, 1), 'cuda:0', torch.int64, 0, (1, 64))
primals_5 = generate_example_value((1, 64), (64, 1), 'cuda:0', torch.int64, 0, (1, 64))
buf0 = generate_example_value((1, 16), (16, 1), 'cuda:0', torch.int64, 0, (1, 16))
with torch.cuda._DeviceGuard(0):
    triton_poi_fused_expand_gather_slice_0.run(primals_4, primals_5, buf0, 16, stream=stream0)
del primals_5

stream0 = get_raw_stream(0)
buf5 = generate_example_value((2, 16, 64), (1024, 64, 1), 'cuda:0', torch.float32, 0, (2, 16, 64))
primals_3 = generate_example_value((2, 16), (16, 1), 'cuda:0', torch.int64, 0, (2, 16))
primals_6 = generate_example_value((512, 64), (64, 1), 'cuda:0', torch.float32, 0, (512, 64))
primals_7 = generate_example_value((2, 64), (64, 1), 'cuda:0', torch.float32, 0, (2, 64))
primals_8 = generate_example_value((64, 64), (64, 1), 'cuda:0', torch.float32, 0, (64, 64))
primals_9 = generate_example_value((64,), (1,), 'cuda:0', torch.float32, 0, (64,))
primals_10 = generate_example_value((64,), (1,), 'cuda:0', torch.float32, 0, (64,))
buf6 = generate_example_value((2, 16, 64), (1024, 64, 1), 'cuda:0', torch.float32, 0, (2, 16, 64))
buf65 = generate_example_value((2, 16, 1), (16, 1, 1), 'cuda:0', torch.float32, 0, (2, 16, 1))
with torch.cuda._DeviceGuard(0):
    triton_per_fused_add_embedding_expand_gather_native_layer_norm_native_layer_norm_backward_slice_1.run(buf5, primals_3, primals_6, buf0, primals_7, primals_4, primals_8, primals_9, primals_10, buf6, buf65, 16, 32, 64, stream=stream0)
del primals_4, buf0, buf5, primals_3, primals_6, primals_7, primals_8, primals_9, primals_10, buf65

stream0 = get_raw_stream(0)
primals_12 = generate_example_value((64,), (1,), 'cuda:0', torch.float32, 0, (64,))
buf7 = generate_example_value((32, 64), (64, 1), 'cuda:0', torch.float32, 0, (32, 64))
buf10 = generate_example_value((2, 4, 16, 16), (1024, 256, 16, 1), 'cuda:0', torch.float32, 0, (2, 4, 16, 16))
with torch.cuda._DeviceGuard(0):
    triton_poi_fused_addmm_clone_mul_transpose_view_2.run(primals_12, buf7, buf10, 256, 16, 1024, 2048, stream=stream0)
del primals_12, buf7, buf10

stream0 = get_raw_stream(0)
primals_14 = generate_example_value((64,), (1,), 'cuda:0', torch.float32, 0, (64,))
buf8 = generate_example_value((32, 64), (64, 1), 'cuda:0', torch.float32, 0, (32, 64))
buf11 = generate_example_value((2, 4, 16, 16), (1024, 256, 16, 1), 'cuda:0', torch.float32, 0, (2, 4, 16, 16))
with torch.cuda._DeviceGuard(0):
    triton_poi_fused_addmm_clone_mul_transpose_view_3.run(primals_14, buf8, buf11, 16, 128, 16, stream=stream0)
del primals_14, buf8, buf11

stream0 = get_raw_stream(0)
buf16 = generate_example_value((2, 4, 16, 16), (1024, 256, 16, 1), 'cuda:0', torch.float32, 0, (2, 4, 16, 16))
with torch.cuda._DeviceGuard(0):
    triton_per_fused__safe_softmax_add_arange_exp_expand_ge_prepare_softmax_online_scalar_tensor_sub_unsqueeze_view_where_4.run(buf16, 16, 128, 16, stream=stream0)
del buf16

stream0 = get_raw_stream(0)
primals_16 = generate_example_value((64,), (1,), 'cuda:0', torch.float32, 0, (64,))
buf9 = generate_example_value((32, 64), (64, 1), 'cuda:0', torch.float32, 0, (32, 64))
buf17 = generate_example_value((2, 4, 16, 16), (1024, 256, 16, 1), 'cuda:0', torch.float32, 0, (2, 4, 16, 16))
with torch.cuda._DeviceGuard(0):
    triton_poi_fused_addmm_clone_transpose_view_5.run(primals_16, buf9, buf17, 256, 16, 1024, 2048, stream=stream0)
del primals_16, buf9, buf17

stream0 = get_raw_stream(0)
buf18 = generate_example_value((8, 16, 16), (256, 16, 1), 'cuda:0', torch.float32, 0, (8, 16, 16))
buf19 = generate_example_value((2, 16, 4, 16), (1024, 64, 16, 1), 'cuda:0', torch.float32, 0, (2, 16, 4, 16))
with torch.cuda._DeviceGuard(0):
    triton_poi_fused_clone_transpose_view_6.run(buf18, buf19, 16, 1024, 2048, stream=stream0)
del buf18, buf19

stream0 = get_raw_stream(0)
buf24 = generate_example_value((2, 16, 64), (1024, 64, 1), 'cuda:0', torch.float32, 0, (2, 16, 64))
primals_18 = generate_example_value((64,), (1,), 'cuda:0', torch.float32, 0, (64,))
primals_19 = generate_example_value((64,), (1,), 'cuda:0', torch.float32, 0, (64,))
primals_20 = generate_example_value((64,), (1,), 'cuda:0', torch.float32, 0, (64,))
buf25 = generate_example_value((2, 16, 64), (1024, 64, 1), 'cuda:0', torch.float32, 0, (2, 16, 64))
buf64 = generate_example_value((2, 16, 1), (16, 1, 1), 'cuda:0', torch.float32, 0, (2, 16, 1))
with torch.cuda._DeviceGuard(0):
    triton_per_fused_add_addmm_native_layer_norm_native_layer_norm_backward_view_7.run(buf24, primals_18, buf6, primals_19, primals_20, buf25, buf64, 32, 64, stream=stream0)
del buf6, buf24, primals_18, primals_19, primals_20, buf25, buf64

stream0 = get_raw_stream(0)
buf26 = generate_example_value((32, 128), (128, 1), 'cuda:0', torch.float32, 0, (32, 128))
buf27 = generate_example_value((2, 16, 128), (2048, 128, 1), 'cuda:0', torch.float32, 0, (2, 16, 128))
with torch.cuda._DeviceGuard(0):
    triton_poi_fused_gelu_view_8.run(buf26, buf27, 4096, stream=stream0)
del buf26, buf27

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
CACHE_TORCH_DEVICE(cuda);

static CUfunction triton_poi_fused_expand_gather_slice_0 = nullptr;
template <typename in_ptr0_type_, typename in_ptr1_type_, typename out_ptr0_type_>
static inline void call_triton_poi_fused_expand_gather_slice_0(
    const in_ptr0_type_& in_ptr0,
    const in_ptr1_type_& in_ptr1,
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
    if (triton_poi_fused_expand_gather_slice_0 == nullptr) {
        triton_poi_fused_expand_gather_slice_0 = loadKernel("/tmp/torchinductor_root/ve/cvet6kk5nshs45lgz4iktyxi76n5wttnnhkmnmyw3widrha4tgbx.cubin", "triton_poi_fused_expand_gather_slice_0", 0, cubin_dir_); 
    }
    CUdeviceptr var_15 = reinterpret_cast<CUdeviceptr>(in_ptr0.data_ptr());
    CUdeviceptr var_16 = reinterpret_cast<CUdeviceptr>(in_ptr1.data_ptr());
    CUdeviceptr var_17 = reinterpret_cast<CUdeviceptr>(out_ptr0.data_ptr());
    int32_t var_18 = xnumel;
    CUdeviceptr global_scratch_scratch_19 = 0;
    CUdeviceptr profile_scratch_scratch_20 = 0;
    void* kernel_args_[] = {&var_15, &var_16, &var_17, &var_18, &global_scratch_scratch_19, &profile_scratch_scratch_20};
    launchKernel(triton_poi_fused_expand_gather_slice_0, grid_0, grid_1, grid_2, 1, 0, kernel_args_, stream_);
}

static CUfunction triton_per_fused_add_embedding_expand_gather_native_layer_norm_native_layer_norm_backward_slice_1 = nullptr;
template <typename in_out_ptr0_type_, typename in_ptr0_type_, typename in_ptr1_type_, typename in_ptr2_type_, typename in_ptr3_type_, typename in_ptr4_type_, typename in_ptr5_type_, typename in_ptr6_type_, typename in_ptr7_type_, typename out_ptr2_type_, typename out_ptr3_type_>
static inline void call_triton_per_fused_add_embedding_expand_gather_native_layer_norm_native_layer_norm_backward_slice_1(
    const in_out_ptr0_type_& in_out_ptr0,
    const in_ptr0_type_& in_ptr0,
    const in_ptr1_type_& in_ptr1,
    const in_ptr2_type_& in_ptr2,
    const in_ptr3_type_& in_ptr3,
    const in_ptr4_type_& in_ptr4,
    const in_ptr5_type_& in_ptr5,
    const in_ptr6_type_& in_ptr6,
    const in_ptr7_type_& in_ptr7,
    const out_ptr2_type_& out_ptr2,
    const out_ptr3_type_& out_ptr3,
    int64_t ks0,
    int64_t xnumel,
    int64_t r0_numel,
    int32_t device_idx_,
    cudaStream_t stream_,
    const std::optional<std::string>& cubin_dir_ = std::nullopt
){
    uint32_t grid_0 = ((xnumel + (8 - 1)) / (8));
    uint32_t grid_1 = 1;
    uint32_t grid_2 = 1;
    if (grid_0 == 0 || grid_1 == 0 || grid_2 == 0) return;
    if (triton_per_fused_add_embedding_expand_gather_native_layer_norm_native_layer_norm_backward_slice_1 == nullptr) {
        triton_per_fused_add_embedding_expand_gather_native_layer_norm_native_layer_norm_backward_slice_1 = loadKernel("/tmp/torchinductor_root/jm/cjmx2wqyxcyqclh6mzhewpmnuuljqssbc6slhapgipwxcfhhduaw.cubin", "triton_per_fused_add_embedding_expand_gather_native_layer_norm_native_layer_norm_backward_slice_1", 256, cubin_dir_); 
    }
    CUdeviceptr var_21 = reinterpret_cast<CUdeviceptr>(in_out_ptr0.data_ptr());
    CUdeviceptr var_22 = reinterpret_cast<CUdeviceptr>(in_ptr0.data_ptr());
    CUdeviceptr var_23 = reinterpret_cast<CUdeviceptr>(in_ptr1.data_ptr());
    CUdeviceptr var_24 = reinterpret_cast<CUdeviceptr>(in_ptr2.data_ptr());
    CUdeviceptr var_25 = reinterpret_cast<CUdeviceptr>(in_ptr3.data_ptr());
    CUdeviceptr var_26 = reinterpret_cast<CUdeviceptr>(in_ptr4.data_ptr());
    CUdeviceptr var_27 = reinterpret_cast<CUdeviceptr>(in_ptr5.data_ptr());
    CUdeviceptr var_28 = reinterpret_cast<CUdeviceptr>(in_ptr6.data_ptr());
    CUdeviceptr var_29 = reinterpret_cast<CUdeviceptr>(in_ptr7.data_ptr());
    CUdeviceptr var_30 = reinterpret_cast<CUdeviceptr>(out_ptr2.data_ptr());
    CUdeviceptr var_31 = reinterpret_cast<CUdeviceptr>(out_ptr3.data_ptr());
    int64_t var_32 = ks0;
    int32_t var_33 = xnumel;
    int32_t var_34 = r0_numel;
    CUdeviceptr global_scratch_scratch_35 = 0;
    CUdeviceptr profile_scratch_scratch_36 = 0;
    void* kernel_args_[] = {&var_21, &var_22, &var_23, &var_24, &var_25, &var_26, &var_27, &var_28, &var_29, &var_30, &var_31, &var_32, &var_33, &var_34, &global_scratch_scratch_35, &profile_scratch_scratch_36};
    launchKernel(triton_per_fused_add_embedding_expand_gather_native_layer_norm_native_layer_norm_backward_slice_1, grid_0, grid_1, grid_2, 2, 256, kernel_args_, stream_);
}

static CUfunction triton_poi_fused_addmm_clone_mul_transpose_view_2 = nullptr;
template <typename in_ptr0_type_, typename in_ptr1_type_, typename out_ptr0_type_>
static inline void call_triton_poi_fused_addmm_clone_mul_transpose_view_2(
    const in_ptr0_type_& in_ptr0,
    const in_ptr1_type_& in_ptr1,
    const out_ptr0_type_& out_ptr0,
    int64_t ks0,
    int64_t ks1,
    int64_t ks2,
    int64_t xnumel,
    int32_t device_idx_,
    cudaStream_t stream_,
    const std::optional<std::string>& cubin_dir_ = std::nullopt
){
    uint32_t grid_0 = ((xnumel + (256 - 1)) / (256));
    uint32_t grid_1 = 1;
    uint32_t grid_2 = 1;
    if (grid_0 == 0 || grid_1 == 0 || grid_2 == 0) return;
    if (triton_poi_fused_addmm_clone_mul_transpose_view_2 == nullptr) {
        triton_poi_fused_addmm_clone_mul_transpose_view_2 = loadKernel("/tmp/torchinductor_root/xo/cxop2g2fasaonlvxmrhj4lcopmfc4w3khpsuv7mgua4eg6r6p7bd.cubin", "triton_poi_fused_addmm_clone_mul_transpose_view_2", 0, cubin_dir_); 
    }
    CUdeviceptr var_37 = reinterpret_cast<CUdeviceptr>(in_ptr0.data_ptr());
    CUdeviceptr var_38 = reinterpret_cast<CUdeviceptr>(in_ptr1.data_ptr());
    CUdeviceptr var_39 = reinterpret_cast<CUdeviceptr>(out_ptr0.data_ptr());
    int64_t var_40 = ks0;
    int64_t var_41 = ks1;
    int64_t var_42 = ks2;
    int32_t var_43 = xnumel;
    CUdeviceptr global_scratch_scratch_44 = 0;
    CUdeviceptr profile_scratch_scratch_45 = 0;
    void* kernel_args_[] = {&var_37, &var_38, &var_39, &var_40, &var_41, &var_42, &var_43, &global_scratch_scratch_44, &profile_scratch_scratch_45};
    launchKernel(triton_poi_fused_addmm_clone_mul_transpose_view_2, grid_0, grid_1, grid_2, 4, 0, kernel_args_, stream_);
}

static CUfunction triton_poi_fused_addmm_clone_mul_transpose_view_3 = nullptr;
template <typename in_ptr0_type_, typename in_ptr1_type_, typename out_ptr0_type_>
static inline void call_triton_poi_fused_addmm_clone_mul_transpose_view_3(
    const in_ptr0_type_& in_ptr0,
    const in_ptr1_type_& in_ptr1,
    const out_ptr0_type_& out_ptr0,
    int64_t ks0,
    int64_t ynumel,
    int64_t xnumel,
    int32_t device_idx_,
    cudaStream_t stream_,
    const std::optional<std::string>& cubin_dir_ = std::nullopt
){
    uint32_t y_grid_raw_ = ((ynumel + (128 - 1)) / (128));
    uint32_t y_grid_div_ = ((y_grid_raw_ + (65535 - 1)) / (65535));
    uint32_t grid_0 = ((xnumel + (2 - 1)) / (2));
    uint32_t grid_1 = ((y_grid_raw_ + (y_grid_div_ - 1)) / (y_grid_div_));
    uint32_t grid_2 = y_grid_div_;
    if (grid_0 == 0 || grid_1 == 0 || grid_2 == 0) return;
    if (triton_poi_fused_addmm_clone_mul_transpose_view_3 == nullptr) {
        triton_poi_fused_addmm_clone_mul_transpose_view_3 = loadKernel("/tmp/torchinductor_root/mr/cmrwvvpw4ve5ou6cocapv6nk526667ym3qcy37fhxysn7grpnlh4.cubin", "triton_poi_fused_addmm_clone_mul_transpose_view_3", 1024, cubin_dir_); 
    }
    CUdeviceptr var_46 = reinterpret_cast<CUdeviceptr>(in_ptr0.data_ptr());
    CUdeviceptr var_47 = reinterpret_cast<CUdeviceptr>(in_ptr1.data_ptr());
    CUdeviceptr var_48 = reinterpret_cast<CUdeviceptr>(out_ptr0.data_ptr());
    int64_t var_49 = ks0;
    int32_t var_50 = ynumel;
    int32_t var_51 = xnumel;
    CUdeviceptr global_scratch_scratch_52 = 0;
    CUdeviceptr profile_scratch_scratch_53 = 0;
    void* kernel_args_[] = {&var_46, &var_47, &var_48, &var_49, &var_50, &var_51, &global_scratch_scratch_52, &profile_scratch_scratch_53};
    launchKernel(triton_poi_fused_addmm_clone_mul_transpose_view_3, grid_0, grid_1, grid_2, 4, 1024, kernel_args_, stream_);
}

static CUfunction triton_per_fused__safe_softmax_add_arange_exp_expand_ge_prepare_softmax_online_scalar_tensor_sub_unsqueeze_view_where_4 = nullptr;
template <typename in_out_ptr0_type_>
static inline void call_triton_per_fused__safe_softmax_add_arange_exp_expand_ge_prepare_softmax_online_scalar_tensor_sub_unsqueeze_view_where_4(
    const in_out_ptr0_type_& in_out_ptr0,
    int64_t ks0,
    int64_t xnumel,
    int64_t r0_numel,
    int32_t device_idx_,
    cudaStream_t stream_,
    const std::optional<std::string>& cubin_dir_ = std::nullopt
){
    uint32_t grid_0 = ((xnumel + (32 - 1)) / (32));
    uint32_t grid_1 = 1;
    uint32_t grid_2 = 1;
    if (grid_0 == 0 || grid_1 == 0 || grid_2 == 0) return;
    if (triton_per_fused__safe_softmax_add_arange_exp_expand_ge_prepare_softmax_online_scalar_tensor_sub_unsqueeze_view_where_4 == nullptr) {
        triton_per_fused__safe_softmax_add_arange_exp_expand_ge_prepare_softmax_online_scalar_tensor_sub_unsqueeze_view_where_4 = loadKernel("/tmp/torchinductor_root/fj/cfjvsvs5zo54wdg6j62xj7sklk2yiww6wmgejbib6zi4gn2cyv6f.cubin", "triton_per_fused__safe_softmax_add_arange_exp_expand_ge_prepare_softmax_online_scalar_tensor_sub_unsqueeze_view_where_4", 256, cubin_dir_); 
    }
    CUdeviceptr var_54 = reinterpret_cast<CUdeviceptr>(in_out_ptr0.data_ptr());
    int64_t var_55 = ks0;
    int32_t var_56 = xnumel;
    int32_t var_57 = r0_numel;
    CUdeviceptr global_scratch_scratch_58 = 0;
    CUdeviceptr profile_scratch_scratch_59 = 0;
    void* kernel_args_[] = {&var_54, &var_55, &var_56, &var_57, &global_scratch_scratch_58, &profile_scratch_scratch_59};
    launchKernel(triton_per_fused__safe_softmax_add_arange_exp_expand_ge_prepare_softmax_online_scalar_tensor_sub_unsqueeze_view_where_4, grid_0, grid_1, grid_2, 2, 256, kernel_args_, stream_);
}

static CUfunction triton_poi_fused_addmm_clone_transpose_view_5 = nullptr;
template <typename in_ptr0_type_, typename in_ptr1_type_, typename out_ptr0_type_>
static inline void call_triton_poi_fused_addmm_clone_transpose_view_5(
    const in_ptr0_type_& in_ptr0,
    const in_ptr1_type_& in_ptr1,
    const out_ptr0_type_& out_ptr0,
    int64_t ks0,
    int64_t ks1,
    int64_t ks2,
    int64_t xnumel,
    int32_t device_idx_,
    cudaStream_t stream_,
    const std::optional<std::string>& cubin_dir_ = std::nullopt
){
    uint32_t grid_0 = ((xnumel + (128 - 1)) / (128));
    uint32_t grid_1 = 1;
    uint32_t grid_2 = 1;
    if (grid_0 == 0 || grid_1 == 0 || grid_2 == 0) return;
    if (triton_poi_fused_addmm_clone_transpose_view_5 == nullptr) {
        triton_poi_fused_addmm_clone_transpose_view_5 = loadKernel("/tmp/torchinductor_root/rq/crq4fwtq6qvpgxwx43ettfdrxroapprfllnpcxtaqkysej7t66jq.cubin", "triton_poi_fused_addmm_clone_transpose_view_5", 0, cubin_dir_); 
    }
    CUdeviceptr var_60 = reinterpret_cast<CUdeviceptr>(in_ptr0.data_ptr());
    CUdeviceptr var_61 = reinterpret_cast<CUdeviceptr>(in_ptr1.data_ptr());
    CUdeviceptr var_62 = reinterpret_cast<CUdeviceptr>(out_ptr0.data_ptr());
    int64_t var_63 = ks0;
    int64_t var_64 = ks1;
    int64_t var_65 = ks2;
    int32_t var_66 = xnumel;
    CUdeviceptr global_scratch_scratch_67 = 0;
    CUdeviceptr profile_scratch_scratch_68 = 0;
    void* kernel_args_[] = {&var_60, &var_61, &var_62, &var_63, &var_64, &var_65, &var_66, &global_scratch_scratch_67, &profile_scratch_scratch_68};
    launchKernel(triton_poi_fused_addmm_clone_transpose_view_5, grid_0, grid_1, grid_2, 4, 0, kernel_args_, stream_);
}

static CUfunction triton_poi_fused_clone_transpose_view_6 = nullptr;
template <typename in_ptr0_type_, typename out_ptr0_type_>
static inline void call_triton_poi_fused_clone_transpose_view_6(
    const in_ptr0_type_& in_ptr0,
    const out_ptr0_type_& out_ptr0,
    int64_t ks0,
    int64_t ks1,
    int64_t xnumel,
    int32_t device_idx_,
    cudaStream_t stream_,
    const std::optional<std::string>& cubin_dir_ = std::nullopt
){
    uint32_t grid_0 = ((xnumel + (128 - 1)) / (128));
    uint32_t grid_1 = 1;
    uint32_t grid_2 = 1;
    if (grid_0 == 0 || grid_1 == 0 || grid_2 == 0) return;
    if (triton_poi_fused_clone_transpose_view_6 == nullptr) {
        triton_poi_fused_clone_transpose_view_6 = loadKernel("/tmp/torchinductor_root/im/cim5xshh3p2wxebi6ojrx4qnfnffjdsiwsybh5jdwefhwqk2xew6.cubin", "triton_poi_fused_clone_transpose_view_6", 0, cubin_dir_); 
    }
    CUdeviceptr var_69 = reinterpret_cast<CUdeviceptr>(in_ptr0.data_ptr());
    CUdeviceptr var_70 = reinterpret_cast<CUdeviceptr>(out_ptr0.data_ptr());
    int64_t var_71 = ks0;
    int64_t var_72 = ks1;
    int32_t var_73 = xnumel;
    CUdeviceptr global_scratch_scratch_74 = 0;
    CUdeviceptr profile_scratch_scratch_75 = 0;
    void* kernel_args_[] = {&var_69, &var_70, &var_71, &var_72, &var_73, &global_scratch_scratch_74, &profile_scratch_scratch_75};
    launchKernel(triton_poi_fused_clone_transpose_view_6, grid_0, grid_1, grid_2, 4, 0, kernel_args_, stream_);
}

static CUfunction triton_per_fused_add_addmm_native_layer_norm_native_layer_norm_backward_view_7 = nullptr;
template <typename in_out_ptr0_type_, typename in_ptr0_type_, typename in_ptr1_type_, typename in_ptr2_type_, typename in_ptr3_type_, typename out_ptr2_type_, typename out_ptr3_type_>
static inline void call_triton_per_fused_add_addmm_native_layer_norm_native_layer_norm_backward_view_7(
    const in_out_ptr0_type_& in_out_ptr0,
    const in_ptr0_type_& in_ptr0,
    const in_ptr1_type_& in_ptr1,
    const in_ptr2_type_& in_ptr2,
    const in_ptr3_type_& in_ptr3,
    const out_ptr2_type_& out_ptr2,
    const out_ptr3_type_& out_ptr3,
    int64_t xnumel,
    int64_t r0_numel,
    int32_t device_idx_,
    cudaStream_t stream_,
    const std::optional<std::string>& cubin_dir_ = std::nullopt
){
    uint32_t grid_0 = ((xnumel + (8 - 1)) / (8));
    uint32_t grid_1 = 1;
    uint32_t grid_2 = 1;
    if (grid_0 == 0 || grid_1 == 0 || grid_2 == 0) return;
    if (triton_per_fused_add_addmm_native_layer_norm_native_layer_norm_backward_view_7 == nullptr) {
        triton_per_fused_add_addmm_native_layer_norm_native_layer_norm_backward_view_7 = loadKernel("/tmp/torchinductor_root/b7/cb7wfmu3fwqdshgtclbwr43bn66utq5ehxzg2qhmfxn4fox4aiuq.cubin", "triton_per_fused_add_addmm_native_layer_norm_native_layer_norm_backward_view_7", 1024, cubin_dir_); 
    }
    CUdeviceptr var_76 = reinterpret_cast<CUdeviceptr>(in_out_ptr0.data_ptr());
    CUdeviceptr var_77 = reinterpret_cast<CUdeviceptr>(in_ptr0.data_ptr());
    CUdeviceptr var_78 = reinterpret_cast<CUdeviceptr>(in_ptr1.data_ptr());
    CUdeviceptr var_79 = reinterpret_cast<CUdeviceptr>(in_ptr2.data_ptr());
    CUdeviceptr var_80 = reinterpret_cast<CUdeviceptr>(in_ptr3.data_ptr());
    CUdeviceptr var_81 = reinterpret_cast<CUdeviceptr>(out_ptr2.data_ptr());
    CUdeviceptr var_82 = reinterpret_cast<CUdeviceptr>(out_ptr3.data_ptr());
    int32_t var_83 = xnumel;
    int32_t var_84 = r0_numel;
    CUdeviceptr global_scratch_scratch_85 = 0;
    CUdeviceptr profile_scratch_scratch_86 = 0;
    void* kernel_args_[] = {&var_76, &var_77, &var_78, &var_79, &var_80, &var_81, &var_82, &var_83, &var_84, &global_scratch_scratch_85, &profile_scratch_scratch_86};
    launchKernel(triton_per_fused_add_addmm_native_layer_norm_native_layer_norm_backward_view_7, grid_0, grid_1, grid_2, 2, 1024, kernel_args_, stream_);
}

static CUfunction triton_poi_fused_gelu_view_8 = nullptr;
template <typename in_ptr0_type_, typename out_ptr0_type_>
static inline void call_triton_poi_fused_gelu_view_8(
    const in_ptr0_type_& in_ptr0,
    const out_ptr0_type_& out_ptr0,
    int64_t xnumel,
    int32_t device_idx_,
    cudaStream_t stream_,
    const std::optional<std::string>& cubin_dir_ = std::nullopt
){
    uint32_t grid_0 = ((xnumel + (256 - 1)) / (256));
    uint32_t grid_1 = 1;
    uint32_t grid_2 = 1;
    if (grid_0 == 0 || grid_1 == 0 || grid_2 == 0) return;
    if (triton_poi_fused_gelu_view_8 == nullptr) {
        triton_poi_fused_gelu_view_8 = loadKernel("/tmp/torchinductor_root/tc/ctccmlpx2w7fcvqttjfqtaucon23lamfs5shyjdcaubrnttyr6pp.cubin", "triton_poi_fused_gelu_view_8", 0, cubin_dir_); 
    }
    CUdeviceptr var_87 = reinterpret_cast<CUdeviceptr>(in_ptr0.data_ptr());
    CUdeviceptr var_88 = reinterpret_cast<CUdeviceptr>(out_ptr0.data_ptr());
    int32_t var_89 = xnumel;
    CUdeviceptr global_scratch_scratch_90 = 0;
    CUdeviceptr profile_scratch_scratch_91 = 0;
    void* kernel_args_[] = {&var_87, &var_88, &var_89, &global_scratch_scratch_90, &profile_scratch_scratch_91};
    launchKernel(triton_poi_fused_gelu_view_8, grid_0, grid_1, grid_2, 4, 0, kernel_args_, stream_);
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

    auto inputs = steal_from_raw_handles_to_raii_handles(input_handles, 44);
    int64_t primals_1;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_item_int64(inputs[0], &primals_1));
    int64_t primals_2;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_item_int64(inputs[1], &primals_2));
    auto primals_3 = std::move(inputs[2]);
    auto primals_4 = std::move(inputs[3]);
    auto primals_5 = std::move(inputs[4]);
    auto primals_6 = std::move(inputs[5]);
    auto primals_7 = std::move(inputs[6]);
    auto primals_8 = std::move(inputs[7]);
    auto primals_9 = std::move(inputs[8]);
    auto primals_10 = std::move(inputs[9]);
    auto primals_11 = std::move(inputs[10]);
    auto primals_12 = std::move(inputs[11]);
    auto primals_13 = std::move(inputs[12]);
    auto primals_14 = std::move(inputs[13]);
    auto primals_15 = std::move(inputs[14]);
    auto primals_16 = std::move(inputs[15]);
    auto primals_17 = std::move(inputs[16]);
    auto primals_18 = std::move(inputs[17]);
    auto primals_19 = std::move(inputs[18]);
    auto primals_20 = std::move(inputs[19]);
    auto primals_21 = std::move(inputs[20]);
    auto primals_22 = std::move(inputs[21]);
    auto primals_23 = std::move(inputs[22]);
    auto primals_24 = std::move(inputs[23]);
    auto primals_25 = std::move(inputs[24]);
    auto primals_26 = std::move(inputs[25]);
    auto primals_27 = std::move(inputs[26]);
    auto primals_28 = std::move(inputs[27]);
    auto primals_29 = std::move(inputs[28]);
    auto primals_30 = std::move(inputs[29]);
    auto primals_31 = std::move(inputs[30]);
    auto primals_32 = std::move(inputs[31]);
    auto primals_33 = std::move(inputs[32]);
    auto primals_34 = std::move(inputs[33]);
    auto primals_35 = std::move(inputs[34]);
    auto primals_36 = std::move(inputs[35]);
    auto primals_37 = std::move(inputs[36]);
    auto primals_38 = std::move(inputs[37]);
    auto primals_39 = std::move(inputs[38]);
    auto primals_40 = std::move(inputs[39]);
    auto primals_41 = std::move(inputs[40]);
    auto primals_42 = std::move(inputs[41]);
    auto primals_43 = std::move(inputs[42]);
    auto primals_44 = std::move(inputs[43]);
    int64_t s23 = primals_1;
    int64_t s27 = primals_2;

    AOTICudaGuard device_guard(0);
    const int64_t int_array_0[] = {1L, s27};
    const int64_t int_array_1[] = {s27, 1L};
    AtenTensorHandle buf0_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(2, int_array_0, int_array_1, cached_torch_dtype_int64, cached_torch_device_type_cuda,  0, &buf0_handle));
    RAIIAtenTensorHandle buf0(buf0_handle);
    // Topologically Sorted Source Nodes: [position_ids, buffered_token_type_ids, buffered_token_type_ids_1], Original ATen: [aten.slice, aten.expand, aten.gather]
    cudaStream_t stream0;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_get_current_cuda_stream(0, (void**)&stream0));
    call_triton_poi_fused_expand_gather_slice_0(primals_4, primals_5, buf0, s27, 0, stream0);
    primals_5.reset();
    const int64_t int_array_2[] = {s23, s27, 64L};
    const int64_t int_array_3[] = {64L*s27, 64L, 1L};
    AtenTensorHandle buf1_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(3, int_array_2, int_array_3, cached_torch_dtype_float32, cached_torch_device_type_cuda,  0, &buf1_handle));
    RAIIAtenTensorHandle buf1(buf1_handle);
    auto buf5 = std::move(buf1);  // reuse
    AtenTensorHandle buf6_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(3, int_array_2, int_array_3, cached_torch_dtype_float32, cached_torch_device_type_cuda,  0, &buf6_handle));
    RAIIAtenTensorHandle buf6(buf6_handle);
    const int64_t int_array_4[] = {s23, s27, 1L};
    const int64_t int_array_5[] = {s27, 1L, 1L};
    AtenTensorHandle buf65_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(3, int_array_4, int_array_5, cached_torch_dtype_float32, cached_torch_device_type_cuda,  0, &buf65_handle));
    RAIIAtenTensorHandle buf65(buf65_handle);
    // Topologically Sorted Source Nodes: [position_ids, buffered_token_type_ids, buffered_token_type_ids_1, token_type_ids, inputs_embeds, token_type_embeddings, embeddings, position_embeddings, embeddings_1, embeddings_2, div_6], Original ATen: [aten.slice, aten.expand, aten.gather, aten.embedding, aten.add, aten.native_layer_norm, aten.native_layer_norm_backward]
    int64_t triton_per_fused_add_embedding_expand_gather_native_layer_norm_native_layer_norm_backward_slice_1_xnumel = s23*s27;
    call_triton_per_fused_add_embedding_expand_gather_native_layer_norm_native_layer_norm_backward_slice_1(buf5, primals_3, primals_6, buf0, primals_7, primals_4, primals_8, primals_9, primals_10, buf6, buf65, s27, triton_per_fused_add_embedding_expand_gather_native_layer_norm_native_layer_norm_backward_slice_1_xnumel, 64L, 0, stream0);
    primals_10.reset();
    primals_6.reset();
    primals_7.reset();
    primals_8.reset();
    const int64_t int_array_6[] = {s23*s27, 64L};
    static constexpr int64_t int_array_7[] = {64L, 1L};
    AtenTensorHandle buf7_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(2, int_array_6, int_array_7, cached_torch_dtype_float32, cached_torch_device_type_cuda,  0, &buf7_handle));
    RAIIAtenTensorHandle buf7(buf7_handle);
    // Topologically Sorted Source Nodes: [embeddings_2, linear], Original ATen: [aten.native_layer_norm, aten.view, aten.t, aten.addmm]
    const int64_t int_array_8[] = {s23*s27, 64L};
    static constexpr int64_t int_array_9[] = {64L, 1L};
    static constexpr int64_t int_array_10[] = {64L, 64L};
    static constexpr int64_t int_array_11[] = {1L, 64L};
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_cuda_mm_out(buf7, wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(buf6, 2, int_array_8, int_array_9, 0L)), wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(primals_11, 2, int_array_10, int_array_11, 0L))));
    const int64_t int_array_12[] = {s23*s27, 64L};
    static constexpr int64_t int_array_13[] = {64L, 1L};
    AtenTensorHandle buf8_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(2, int_array_12, int_array_13, cached_torch_dtype_float32, cached_torch_device_type_cuda,  0, &buf8_handle));
    RAIIAtenTensorHandle buf8(buf8_handle);
    // Topologically Sorted Source Nodes: [embeddings_2, linear, linear_1], Original ATen: [aten.native_layer_norm, aten.view, aten.t, aten.addmm]
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_cuda_mm_out(buf8, wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(buf6, 2, int_array_8, int_array_9, 0L)), wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(primals_13, 2, int_array_10, int_array_11, 0L))));
    const int64_t int_array_14[] = {s23*s27, 64L};
    static constexpr int64_t int_array_15[] = {64L, 1L};
    AtenTensorHandle buf9_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(2, int_array_14, int_array_15, cached_torch_dtype_float32, cached_torch_device_type_cuda,  0, &buf9_handle));
    RAIIAtenTensorHandle buf9(buf9_handle);
    // Topologically Sorted Source Nodes: [embeddings_2, linear, linear_2], Original ATen: [aten.native_layer_norm, aten.view, aten.t, aten.addmm]
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_cuda_mm_out(buf9, wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(buf6, 2, int_array_8, int_array_9, 0L)), wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(primals_15, 2, int_array_10, int_array_11, 0L))));
    int64_t ps0 = 16L*s27;
    int64_t ps1 = 64L*s27;
    const int64_t int_array_16[] = {s23, 4L, s27, 16L};
    const int64_t int_array_17[] = {64L*s27, 16L*s27, 16L, 1L};
    AtenTensorHandle buf10_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(4, int_array_16, int_array_17, cached_torch_dtype_float32, cached_torch_device_type_cuda,  0, &buf10_handle));
    RAIIAtenTensorHandle buf10(buf10_handle);
    // Topologically Sorted Source Nodes: [linear, view, query_layer, attn_output], Original ATen: [aten.addmm, aten.view, aten.transpose, aten.mul, aten.clone]
    int64_t triton_poi_fused_addmm_clone_mul_transpose_view_2_xnumel = 64L*s23*s27;
    call_triton_poi_fused_addmm_clone_mul_transpose_view_2(primals_12, buf7, buf10, ps0, s27, ps1, triton_poi_fused_addmm_clone_mul_transpose_view_2_xnumel, 0, stream0);
    primals_12.reset();
    const int64_t int_array_18[] = {s23, 4L, 16L, s27};
    const int64_t int_array_19[] = {64L*s27, 16L*s27, s27, 1L};
    auto buf11 = wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(buf7, 4, int_array_18, int_array_19, 0L)); buf7.reset();  // reuse
    // Topologically Sorted Source Nodes: [linear_1, view_1, key_layer, attn_output], Original ATen: [aten.addmm, aten.view, aten.transpose, aten.mul, aten.clone]
    int64_t triton_poi_fused_addmm_clone_mul_transpose_view_3_ynumel = 64L*s23;
    call_triton_poi_fused_addmm_clone_mul_transpose_view_3(primals_14, buf8, buf11, s27, triton_poi_fused_addmm_clone_mul_transpose_view_3_ynumel, s27, 0, stream0);
    primals_14.reset();
    const int64_t int_array_20[] = {4L*s23, s27, s27};
    const int64_t int_array_21[] = {static_cast<int64_t>(s27*s27), s27, 1L};
    AtenTensorHandle buf12_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(3, int_array_20, int_array_21, cached_torch_dtype_float32, cached_torch_device_type_cuda,  0, &buf12_handle));
    RAIIAtenTensorHandle buf12(buf12_handle);
    // Topologically Sorted Source Nodes: [linear, view, query_layer, linear_1, view_1, key_layer, attn_output], Original ATen: [aten.addmm, aten.view, aten.transpose, aten.mul, aten.clone, aten._unsafe_view, aten.bmm]
    const int64_t int_array_22[] = {4L*s23, s27, 16L};
    const int64_t int_array_23[] = {16L*s27, 16L, 1L};
    const int64_t int_array_24[] = {4L*s23, 16L, s27};
    const int64_t int_array_25[] = {16L*s27, s27, 1L};
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_cuda_bmm_out(buf12, wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(buf10, 3, int_array_22, int_array_23, 0L)), wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(buf11, 3, int_array_24, int_array_25, 0L))));
    const int64_t int_array_26[] = {s23, 4L, s27, s27};
    const int64_t int_array_27[] = {4L*static_cast<int64_t>(s27*s27), static_cast<int64_t>(s27*s27), s27, 1L};
    auto buf16 = wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(buf12, 4, int_array_26, int_array_27, 0L)); buf12.reset();  // reuse
    // Topologically Sorted Source Nodes: [arange_2, q_arange, q_indices, attention_mask, attention_mask_1, attn_output], Original ATen: [aten.arange, aten.add, aten.unsqueeze, aten.ge, aten.expand, aten.scalar_tensor, aten.where, aten.view, prims.prepare_softmax_online, aten.sub, aten.exp, aten._safe_softmax]
    int64_t triton_per_fused__safe_softmax_add_arange_exp_expand_ge_prepare_softmax_online_scalar_tensor_sub_unsqueeze_view_where_4_xnumel = 4L*s23*s27;
    call_triton_per_fused__safe_softmax_add_arange_exp_expand_ge_prepare_softmax_online_scalar_tensor_sub_unsqueeze_view_where_4(buf16, s27, triton_per_fused__safe_softmax_add_arange_exp_expand_ge_prepare_softmax_online_scalar_tensor_sub_unsqueeze_view_where_4_xnumel, s27, 0, stream0);
    const int64_t int_array_28[] = {s23, 4L, s27, 16L};
    const int64_t int_array_29[] = {64L*s27, 16L*s27, 16L, 1L};
    auto buf17 = wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(buf8, 4, int_array_28, int_array_29, 0L)); buf8.reset();  // reuse
    // Topologically Sorted Source Nodes: [linear_2, view_2, value_layer, attn_output], Original ATen: [aten.addmm, aten.view, aten.transpose, aten.clone]
    int64_t triton_poi_fused_addmm_clone_transpose_view_5_xnumel = 64L*s23*s27;
    call_triton_poi_fused_addmm_clone_transpose_view_5(primals_16, buf9, buf17, ps0, s27, ps1, triton_poi_fused_addmm_clone_transpose_view_5_xnumel, 0, stream0);
    primals_16.reset();
    const int64_t int_array_30[] = {4L*s23, s27, 16L};
    const int64_t int_array_31[] = {16L*s27, 16L, 1L};
    auto buf18 = wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(buf9, 3, int_array_30, int_array_31, 0L)); buf9.reset();  // reuse
    // Topologically Sorted Source Nodes: [linear_2, view_2, value_layer, attn_output], Original ATen: [aten.addmm, aten.view, aten.transpose, aten.clone, aten._unsafe_view, aten.bmm]
    const int64_t int_array_32[] = {4L*s23, s27, s27};
    const int64_t int_array_33[] = {static_cast<int64_t>(s27*s27), s27, 1L};
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_cuda_bmm_out(buf18, wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(buf16, 3, int_array_32, int_array_33, 0L)), wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(buf17, 3, int_array_22, int_array_23, 0L))));
    const int64_t int_array_34[] = {s23, s27, 4L, 16L};
    const int64_t int_array_35[] = {64L*s27, 64L, 16L, 1L};
    AtenTensorHandle buf19_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(4, int_array_34, int_array_35, cached_torch_dtype_float32, cached_torch_device_type_cuda,  0, &buf19_handle));
    RAIIAtenTensorHandle buf19(buf19_handle);
    // Topologically Sorted Source Nodes: [attn_output, transpose_3, attn_output_1], Original ATen: [aten.view, aten.transpose, aten.clone]
    int64_t triton_poi_fused_clone_transpose_view_6_xnumel = 64L*s23*s27;
    call_triton_poi_fused_clone_transpose_view_6(buf18, buf19, s27, ps1, triton_poi_fused_clone_transpose_view_6_xnumel, 0, stream0);
    const int64_t int_array_36[] = {s23*s27, 64L};
    static constexpr int64_t int_array_37[] = {64L, 1L};
    auto buf20 = wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(buf18, 2, int_array_36, int_array_37, 0L)); buf18.reset();  // reuse
    // Topologically Sorted Source Nodes: [attn_output, transpose_3, attn_output_1, reshape, hidden_states], Original ATen: [aten.view, aten.transpose, aten.clone, aten.t, aten.addmm]
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_cuda_mm_out(buf20, wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(buf19, 2, int_array_8, int_array_9, 0L)), wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(primals_17, 2, int_array_10, int_array_11, 0L))));
    const int64_t int_array_38[] = {s23, s27, 64L};
    const int64_t int_array_39[] = {64L*s27, 64L, 1L};
    auto buf24 = wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(buf20, 3, int_array_38, int_array_39, 0L)); buf20.reset();  // reuse
    AtenTensorHandle buf25_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(3, int_array_38, int_array_39, cached_torch_dtype_float32, cached_torch_device_type_cuda,  0, &buf25_handle));
    RAIIAtenTensorHandle buf25(buf25_handle);
    const int64_t int_array_40[] = {s23, s27, 1L};
    const int64_t int_array_41[] = {s27, 1L, 1L};
    AtenTensorHandle buf64_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(3, int_array_40, int_array_41, cached_torch_dtype_float32, cached_torch_device_type_cuda,  0, &buf64_handle));
    RAIIAtenTensorHandle buf64(buf64_handle);
    // Topologically Sorted Source Nodes: [hidden_states, add_5, hidden_states_2, div_5], Original ATen: [aten.addmm, aten.view, aten.add, aten.native_layer_norm, aten.native_layer_norm_backward]
    int64_t triton_per_fused_add_addmm_native_layer_norm_native_layer_norm_backward_view_7_xnumel = s23*s27;
    call_triton_per_fused_add_addmm_native_layer_norm_native_layer_norm_backward_view_7(buf24, primals_18, buf6, primals_19, primals_20, buf25, buf64, triton_per_fused_add_addmm_native_layer_norm_native_layer_norm_backward_view_7_xnumel, 64L, 0, stream0);
    primals_18.reset();
    primals_20.reset();
    const int64_t int_array_42[] = {s23*s27, 128L};
    static constexpr int64_t int_array_43[] = {128L, 1L};
    AtenTensorHandle buf26_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(2, int_array_42, int_array_43, cached_torch_dtype_float32, cached_torch_device_type_cuda,  0, &buf26_handle));
    RAIIAtenTensorHandle buf26(buf26_handle);
    // Topologically Sorted Source Nodes: [hidden_states_2, hidden_states_3], Original ATen: [aten.native_layer_norm, aten.view, aten.t, aten.addmm]
    static constexpr int64_t int_array_44[] = {64L, 128L};
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_cuda_addmm_out(buf26, primals_22, wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(buf25, 2, int_array_8, int_array_9, 0L)), wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(primals_21, 2, int_array_44, int_array_11, 0L)), 1L, 1L));
    primals_22.reset();
    const int64_t int_array_45[] = {s23, s27, 128L};
    const int64_t int_array_46[] = {128L*s27, 128L, 1L};
    AtenTensorHandle buf27_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(3, int_array_45, int_array_46, cached_torch_dtype_float32, cached_torch_device_type_cuda,  0, &buf27_handle));
    RAIIAtenTensorHandle buf27(buf27_handle);
    // Topologically Sorted Source Nodes: [hidden_states_3, hidden_states_4], Original ATen: [aten.view, aten.gelu]
    int64_t triton_poi_fused_gelu_view_8_xnumel = 128L*s23*s27;
    call_triton_poi_fused_gelu_view_8(buf26, buf27, triton_poi_fused_gelu_view_8_xnumel, 0, stream0);
    const int64_t int_array_47[] = {s23*s27, 64L};
    static constexpr int64_t int_array_48[] = {64L, 1L};
    AtenTensorHandle buf28_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(2, int_array_47, int_array_48, cached_torch_dtype_float32, cached_torch_device_type_cuda,  0, &buf28_handle));
    RAIIAtenTensorHandle buf28(buf28_handle);
    // Topologically Sorted Source Nodes: [hidden_states_3, hidden_states_4, hidden_states_5], Original ATen: [aten.view, aten.gelu, aten.t, aten.addmm]
    const int64_t int_array_49[] = {s23*s27, 128L};
    static constexpr int64_t int_array_50[] = {128L, 1L};
    static constexpr int64_t int_array_51[] = {128L, 64L};
    static constexpr int64_t int_array_52[] = {1L, 128L};
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_cuda_mm_out(buf28, wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(buf27, 2, int_array_49, int_array_50, 0L)), wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(primals_23, 2, int_array_51, int_array_52, 0L))));
    const int64_t int_array_53[] = {s23, s27, 64L};
    const int64_t int_array_54[] = {64L*s27, 64L, 1L};
    auto buf32 = wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(buf28, 3, int_array_53, int_array_54, 0L)); buf28.reset();  // reuse
    AtenTensorHandle buf33_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(3, int_array_53, int_array_54, cached_torch_dtype_float32, cached_torch_device_type_cuda,  0, &buf33_handle));
    RAIIAtenTensorHandle buf33(buf33_handle);
    const int64_t int_array_55[] = {s23, s27, 1L};
    const int64_t int_array_56[] = {s27, 1L, 1L};
    AtenTensorHandle buf63_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(3, int_array_55, int_array_56, cached_torch_dtype_float32, cached_torch_device_type_cuda,  0, &buf63_handle));
    RAIIAtenTensorHandle buf63(buf63_handle);
    // Topologically Sorted Source Nodes: [hidden_states_5, add_6, hidden_states_7, div_4], Original ATen: [aten.addmm, aten.view, aten.add, aten.native_layer_norm, aten.native_layer_norm_backward]
    triton_per_fused_add_addmm_native_layer_norm_native_layer_norm_backward_view_7_xnumel = s23*s27;
    call_triton_per_fused_add_addmm_native_layer_norm_native_layer_norm_backward_view_7(buf32, primals_24, buf25, primals_25, primals_26, buf33, buf63, triton_per_fused_add_addmm_native_layer_norm_native_layer_norm_backward_view_7_xnumel, 64L, 0, stream0);
    primals_24.reset();
    primals_26.reset();
    const int64_t int_array_57[] = {s23*s27, 64L};
    static constexpr int64_t int_array_58[] = {64L, 1L};
    AtenTensorHandle buf34_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(2, int_array_57, int_array_58, cached_torch_dtype_float32, cached_torch_device_type_cuda,  0, &buf34_handle));
    RAIIAtenTensorHandle buf34(buf34_handle);
    // Topologically Sorted Source Nodes: [hidden_states_7, linear_6], Original ATen: [aten.native_layer_norm, aten.view, aten.t, aten.addmm]
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_cuda_mm_out(buf34, wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(buf33, 2, int_array_8, int_array_9, 0L)), wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(primals_27, 2, int_array_10, int_array_11, 0L))));
    const int64_t int_array_59[] = {s23*s27, 64L};
    static constexpr int64_t int_array_60[] = {64L, 1L};
    AtenTensorHandle buf35_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(2, int_array_59, int_array_60, cached_torch_dtype_float32, cached_torch_device_type_cuda,  0, &buf35_handle));
    RAIIAtenTensorHandle buf35(buf35_handle);
    // Topologically Sorted Source Nodes: [hidden_states_7, linear_6, linear_7], Original ATen: [aten.native_layer_norm, aten.view, aten.t, aten.addmm]
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_cuda_mm_out(buf35, wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(buf33, 2, int_array_8, int_array_9, 0L)), wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(primals_29, 2, int_array_10, int_array_11, 0L))));
    const int64_t int_array_61[] = {s23*s27, 64L};
    static constexpr int64_t int_array_62[] = {64L, 1L};
    AtenTensorHandle buf36_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(2, int_array_61, int_array_62, cached_torch_dtype_float32, cached_torch_device_type_cuda,  0, &buf36_handle));
    RAIIAtenTensorHandle buf36(buf36_handle);
    // Topologically Sorted Source Nodes: [hidden_states_7, linear_6, linear_8], Original ATen: [aten.native_layer_norm, aten.view, aten.t, aten.addmm]
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_cuda_mm_out(buf36, wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(buf33, 2, int_array_8, int_array_9, 0L)), wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(primals_31, 2, int_array_10, int_array_11, 0L))));
    const int64_t int_array_63[] = {s23, 4L, s27, 16L};
    const int64_t int_array_64[] = {64L*s27, 16L*s27, 16L, 1L};
    AtenTensorHandle buf37_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(4, int_array_63, int_array_64, cached_torch_dtype_float32, cached_torch_device_type_cuda,  0, &buf37_handle));
    RAIIAtenTensorHandle buf37(buf37_handle);
    // Topologically Sorted Source Nodes: [linear_6, view_3, query_layer_1, attn_output_3], Original ATen: [aten.addmm, aten.view, aten.transpose, aten.mul, aten.clone]
    triton_poi_fused_addmm_clone_mul_transpose_view_2_xnumel = 64L*s23*s27;
    call_triton_poi_fused_addmm_clone_mul_transpose_view_2(primals_28, buf34, buf37, ps0, s27, ps1, triton_poi_fused_addmm_clone_mul_transpose_view_2_xnumel, 0, stream0);
    primals_28.reset();
    const int64_t int_array_65[] = {s23, 4L, 16L, s27};
    const int64_t int_array_66[] = {64L*s27, 16L*s27, s27, 1L};
    auto buf38 = wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(buf34, 4, int_array_65, int_array_66, 0L)); buf34.reset();  // reuse
    // Topologically Sorted Source Nodes: [linear_7, view_4, key_layer_1, attn_output_3], Original ATen: [aten.addmm, aten.view, aten.transpose, aten.mul, aten.clone]
    triton_poi_fused_addmm_clone_mul_transpose_view_3_ynumel = 64L*s23;
    call_triton_poi_fused_addmm_clone_mul_transpose_view_3(primals_30, buf35, buf38, s27, triton_poi_fused_addmm_clone_mul_transpose_view_3_ynumel, s27, 0, stream0);
    primals_30.reset();
    const int64_t int_array_67[] = {4L*s23, s27, s27};
    const int64_t int_array_68[] = {static_cast<int64_t>(s27*s27), s27, 1L};
    AtenTensorHandle buf39_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(3, int_array_67, int_array_68, cached_torch_dtype_float32, cached_torch_device_type_cuda,  0, &buf39_handle));
    RAIIAtenTensorHandle buf39(buf39_handle);
    // Topologically Sorted Source Nodes: [linear_6, view_3, query_layer_1, linear_7, view_4, key_layer_1, attn_output_3], Original ATen: [aten.addmm, aten.view, aten.transpose, aten.mul, aten.clone, aten._unsafe_view, aten.bmm]
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_cuda_bmm_out(buf39, wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(buf37, 3, int_array_22, int_array_23, 0L)), wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(buf38, 3, int_array_24, int_array_25, 0L))));
    const int64_t int_array_69[] = {s23, 4L, s27, s27};
    const int64_t int_array_70[] = {4L*static_cast<int64_t>(s27*s27), static_cast<int64_t>(s27*s27), s27, 1L};
    auto buf43 = wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(buf39, 4, int_array_69, int_array_70, 0L)); buf39.reset();  // reuse
    // Topologically Sorted Source Nodes: [arange_2, q_arange, q_indices, attention_mask, attention_mask_1, attn_output, attn_output_3], Original ATen: [aten.arange, aten.add, aten.unsqueeze, aten.ge, aten.expand, aten.scalar_tensor, aten.where, aten._safe_softmax, aten.view, prims.prepare_softmax_online, aten.sub, aten.exp]
    triton_per_fused__safe_softmax_add_arange_exp_expand_ge_prepare_softmax_online_scalar_tensor_sub_unsqueeze_view_where_4_xnumel = 4L*s23*s27;
    call_triton_per_fused__safe_softmax_add_arange_exp_expand_ge_prepare_softmax_online_scalar_tensor_sub_unsqueeze_view_where_4(buf43, s27, triton_per_fused__safe_softmax_add_arange_exp_expand_ge_prepare_softmax_online_scalar_tensor_sub_unsqueeze_view_where_4_xnumel, s27, 0, stream0);
    const int64_t int_array_71[] = {s23, 4L, s27, 16L};
    const int64_t int_array_72[] = {64L*s27, 16L*s27, 16L, 1L};
    auto buf44 = wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(buf35, 4, int_array_71, int_array_72, 0L)); buf35.reset();  // reuse
    // Topologically Sorted Source Nodes: [linear_8, view_5, value_layer_1, attn_output_3], Original ATen: [aten.addmm, aten.view, aten.transpose, aten.clone]
    triton_poi_fused_addmm_clone_transpose_view_5_xnumel = 64L*s23*s27;
    call_triton_poi_fused_addmm_clone_transpose_view_5(primals_32, buf36, buf44, ps0, s27, ps1, triton_poi_fused_addmm_clone_transpose_view_5_xnumel, 0, stream0);
    primals_32.reset();
    const int64_t int_array_73[] = {4L*s23, s27, 16L};
    const int64_t int_array_74[] = {16L*s27, 16L, 1L};
    auto buf45 = wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(buf36, 3, int_array_73, int_array_74, 0L)); buf36.reset();  // reuse
    // Topologically Sorted Source Nodes: [linear_8, view_5, value_layer_1, attn_output_3], Original ATen: [aten.addmm, aten.view, aten.transpose, aten.clone, aten._unsafe_view, aten.bmm]
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_cuda_bmm_out(buf45, wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(buf43, 3, int_array_32, int_array_33, 0L)), wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(buf44, 3, int_array_22, int_array_23, 0L))));
    const int64_t int_array_75[] = {s23, s27, 4L, 16L};
    const int64_t int_array_76[] = {64L*s27, 64L, 16L, 1L};
    AtenTensorHandle buf46_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(4, int_array_75, int_array_76, cached_torch_dtype_float32, cached_torch_device_type_cuda,  0, &buf46_handle));
    RAIIAtenTensorHandle buf46(buf46_handle);
    // Topologically Sorted Source Nodes: [attn_output_3, transpose_7, attn_output_4], Original ATen: [aten.view, aten.transpose, aten.clone]
    triton_poi_fused_clone_transpose_view_6_xnumel = 64L*s23*s27;
    call_triton_poi_fused_clone_transpose_view_6(buf45, buf46, s27, ps1, triton_poi_fused_clone_transpose_view_6_xnumel, 0, stream0);
    const int64_t int_array_77[] = {s23*s27, 64L};
    static constexpr int64_t int_array_78[] = {64L, 1L};
    auto buf47 = wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(buf45, 2, int_array_77, int_array_78, 0L)); buf45.reset();  // reuse
    // Topologically Sorted Source Nodes: [attn_output_3, transpose_7, attn_output_4, reshape_1, hidden_states_8], Original ATen: [aten.view, aten.transpose, aten.clone, aten.t, aten.addmm]
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_cuda_mm_out(buf47, wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(buf46, 2, int_array_8, int_array_9, 0L)), wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(primals_33, 2, int_array_10, int_array_11, 0L))));
    const int64_t int_array_79[] = {s23, s27, 64L};
    const int64_t int_array_80[] = {64L*s27, 64L, 1L};
    auto buf51 = wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(buf47, 3, int_array_79, int_array_80, 0L)); buf47.reset();  // reuse
    const int64_t int_array_81[] = {s23, s27, 64L};
    const int64_t int_array_82[] = {64L*s27, 64L, 1L};
    AtenTensorHandle buf52_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(3, int_array_81, int_array_82, cached_torch_dtype_float32, cached_torch_device_type_cuda,  0, &buf52_handle));
    RAIIAtenTensorHandle buf52(buf52_handle);
    const int64_t int_array_83[] = {s23, s27, 1L};
    const int64_t int_array_84[] = {s27, 1L, 1L};
    AtenTensorHandle buf62_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(3, int_array_83, int_array_84, cached_torch_dtype_float32, cached_torch_device_type_cuda,  0, &buf62_handle));
    RAIIAtenTensorHandle buf62(buf62_handle);
    // Topologically Sorted Source Nodes: [hidden_states_8, add_7, hidden_states_10, div_3], Original ATen: [aten.addmm, aten.view, aten.add, aten.native_layer_norm, aten.native_layer_norm_backward]
    triton_per_fused_add_addmm_native_layer_norm_native_layer_norm_backward_view_7_xnumel = s23*s27;
    call_triton_per_fused_add_addmm_native_layer_norm_native_layer_norm_backward_view_7(buf51, primals_34, buf33, primals_35, primals_36, buf52, buf62, triton_per_fused_add_addmm_native_layer_norm_native_layer_norm_backward_view_7_xnumel, 64L, 0, stream0);
    primals_34.reset();
    primals_36.reset();
    const int64_t int_array_85[] = {s23*s27, 128L};
    static constexpr int64_t int_array_86[] = {128L, 1L};
    AtenTensorHandle buf53_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(2, int_array_85, int_array_86, cached_torch_dtype_float32, cached_torch_device_type_cuda,  0, &buf53_handle));
    RAIIAtenTensorHandle buf53(buf53_handle);
    // Topologically Sorted Source Nodes: [hidden_states_10, hidden_states_11], Original ATen: [aten.native_layer_norm, aten.view, aten.t, aten.addmm]
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_cuda_addmm_out(buf53, primals_38, wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(buf52, 2, int_array_8, int_array_9, 0L)), wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(primals_37, 2, int_array_44, int_array_11, 0L)), 1L, 1L));
    primals_38.reset();
    const int64_t int_array_87[] = {s23, s27, 128L};
    const int64_t int_array_88[] = {128L*s27, 128L, 1L};
    AtenTensorHandle buf54_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(3, int_array_87, int_array_88, cached_torch_dtype_float32, cached_torch_device_type_cuda,  0, &buf54_handle));
    RAIIAtenTensorHandle buf54(buf54_handle);
    // Topologically Sorted Source Nodes: [hidden_states_11, hidden_states_12], Original ATen: [aten.view, aten.gelu]
    triton_poi_fused_gelu_view_8_xnumel = 128L*s23*s27;
    call_triton_poi_fused_gelu_view_8(buf53, buf54, triton_poi_fused_gelu_view_8_xnumel, 0, stream0);
    const int64_t int_array_89[] = {s23*s27, 64L};
    static constexpr int64_t int_array_90[] = {64L, 1L};
    AtenTensorHandle buf55_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(2, int_array_89, int_array_90, cached_torch_dtype_float32, cached_torch_device_type_cuda,  0, &buf55_handle));
    RAIIAtenTensorHandle buf55(buf55_handle);
    // Topologically Sorted Source Nodes: [hidden_states_11, hidden_states_12, hidden_states_13], Original ATen: [aten.view, aten.gelu, aten.t, aten.addmm]
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_cuda_mm_out(buf55, wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(buf54, 2, int_array_49, int_array_50, 0L)), wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(primals_39, 2, int_array_51, int_array_52, 0L))));
    const int64_t int_array_91[] = {s23, s27, 64L};
    const int64_t int_array_92[] = {64L*s27, 64L, 1L};
    auto buf59 = wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(buf55, 3, int_array_91, int_array_92, 0L)); buf55.reset();  // reuse
    const int64_t int_array_93[] = {s23, s27, 64L};
    const int64_t int_array_94[] = {64L*s27, 64L, 1L};
    AtenTensorHandle buf60_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(3, int_array_93, int_array_94, cached_torch_dtype_float32, cached_torch_device_type_cuda,  0, &buf60_handle));
    RAIIAtenTensorHandle buf60(buf60_handle);
    const int64_t int_array_95[] = {s23, s27, 1L};
    const int64_t int_array_96[] = {s27, 1L, 1L};
    AtenTensorHandle buf61_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(3, int_array_95, int_array_96, cached_torch_dtype_float32, cached_torch_device_type_cuda,  0, &buf61_handle));
    RAIIAtenTensorHandle buf61(buf61_handle);
    // Topologically Sorted Source Nodes: [hidden_states_13, add_8, hidden_states_15, div_2], Original ATen: [aten.addmm, aten.view, aten.add, aten.native_layer_norm, aten.native_layer_norm_backward]
    triton_per_fused_add_addmm_native_layer_norm_native_layer_norm_backward_view_7_xnumel = s23*s27;
    call_triton_per_fused_add_addmm_native_layer_norm_native_layer_norm_backward_view_7(buf59, primals_40, buf52, primals_41, primals_42, buf60, buf61, triton_per_fused_add_addmm_native_layer_norm_native_layer_norm_backward_view_7_xnumel, 64L, 0, stream0);
    primals_40.reset();
    primals_42.reset();
    const int64_t int_array_97[] = {s23, s27};
    static constexpr int64_t int_array_98[] = {0L, 1L};
    const int64_t int_array_99[] = {s23*s27, 64L};
    static constexpr int64_t int_array_100[] = {64L, 1L};
    const int64_t int_array_101[] = {s23*s27, 128L};
    static constexpr int64_t int_array_102[] = {128L, 1L};
    const int64_t int_array_103[] = {s23*s27, 64L};
    static constexpr int64_t int_array_104[] = {64L, 1L};
    const int64_t int_array_105[] = {s23*s27, 128L};
    static constexpr int64_t int_array_106[] = {128L, 1L};
    const int64_t int_array_107[] = {4L*s23, 16L, s27};
    const int64_t int_array_108[] = {16L*s27, 1L, 16L};
    const int64_t int_array_109[] = {4L*s23, s27, 16L};
    const int64_t int_array_110[] = {16L*s27, 1L, s27};
    auto var_0 = wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(buf0, 2, int_array_97, int_array_98, 0L));
    auto var_1 = wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(buf6, 2, int_array_99, int_array_100, 0L));
    auto var_2 = wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(buf19, 2, int_array_99, int_array_100, 0L));
    auto var_3 = wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(buf25, 2, int_array_99, int_array_100, 0L));
    auto var_4 = wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(buf27, 2, int_array_101, int_array_102, 0L));
    auto var_5 = wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(buf33, 2, int_array_99, int_array_100, 0L));
    auto var_6 = wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(buf46, 2, int_array_103, int_array_104, 0L));
    auto var_7 = wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(buf52, 2, int_array_103, int_array_104, 0L));
    auto var_8 = wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(buf54, 2, int_array_105, int_array_106, 0L));
    auto var_9 = wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(buf44, 3, int_array_107, int_array_108, 0L));
    auto var_10 = wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(buf37, 3, int_array_107, int_array_108, 0L));
    auto var_11 = wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(buf38, 3, int_array_109, int_array_110, 0L));
    auto var_12 = wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(buf17, 3, int_array_107, int_array_108, 0L));
    auto var_13 = wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(buf10, 3, int_array_107, int_array_108, 0L));
    auto var_14 = wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(buf11, 3, int_array_109, int_array_110, 0L));
    output_handles[0] = buf60.release();
    output_handles[1] = primals_3.release();
    output_handles[2] = primals_4.release();
    output_handles[3] = primals_9.release();
    output_handles[4] = primals_11.release();
    output_handles[5] = primals_13.release();
    output_handles[6] = primals_15.release();
    output_handles[7] = primals_17.release();
    output_handles[8] = primals_19.release();
    output_handles[9] = primals_21.release();
    output_handles[10] = primals_23.release();
    output_handles[11] = primals_25.release();
    output_handles[12] = primals_27.release();
    output_handles[13] = primals_29.release();
    output_handles[14] = primals_31.release();
    output_handles[15] = primals_33.release();
    output_handles[16] = primals_35.release();
    output_handles[17] = primals_37.release();
    output_handles[18] = primals_39.release();
    output_handles[19] = primals_41.release();
    output_handles[20] = var_0.release();
    output_handles[21] = buf5.release();
    output_handles[22] = var_1.release();
    output_handles[23] = buf16.release();
    output_handles[24] = var_2.release();
    output_handles[25] = buf24.release();
    output_handles[26] = var_3.release();
    output_handles[27] = buf26.release();
    output_handles[28] = var_4.release();
    output_handles[29] = buf32.release();
    output_handles[30] = var_5.release();
    output_handles[31] = buf43.release();
    output_handles[32] = var_6.release();
    output_handles[33] = buf51.release();
    output_handles[34] = var_7.release();
    output_handles[35] = buf53.release();
    output_handles[36] = var_8.release();
    output_handles[37] = buf59.release();
    output_handles[38] = buf61.release();
    output_handles[39] = buf62.release();
    output_handles[40] = var_9.release();
    output_handles[41] = var_10.release();
    output_handles[42] = var_11.release();
    output_handles[43] = buf63.release();
    output_handles[44] = buf64.release();
    output_handles[45] = var_12.release();
    output_handles[46] = var_13.release();
    output_handles[47] = var_14.release();
    output_handles[48] = buf65.release();
    RAIIAtenTensorHandle scalar_to_tensor_0 = scalar_to_tensor_handle(s23);
    output_handles[49] = scalar_to_tensor_0.release();
    RAIIAtenTensorHandle scalar_to_tensor_1 = scalar_to_tensor_handle(s27);
    output_handles[50] = scalar_to_tensor_1.release();
    RAIIAtenTensorHandle scalar_to_tensor_2 = scalar_to_tensor_handle(s23*s27);
    output_handles[51] = scalar_to_tensor_2.release();
    RAIIAtenTensorHandle scalar_to_tensor_3 = scalar_to_tensor_handle(4L*s23);
    output_handles[52] = scalar_to_tensor_3.release();
} // inductor_entry_impl
'''
)

inductor_entry = CppWrapperCodeCache.load_pybinding(
    argtypes=["std::vector<AtenTensorHandle>"],
    main_code=cpp_wrapper_src,
    device_type="cuda",
    num_outputs=53,
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
        return [output_tensors[0], output_tensors[1], output_tensors[2], output_tensors[3], output_tensors[4], output_tensors[5], output_tensors[6], output_tensors[7], output_tensors[8], output_tensors[9], output_tensors[10], output_tensors[11], output_tensors[12], output_tensors[13], output_tensors[14], output_tensors[15], output_tensors[16], output_tensors[17], output_tensors[18], output_tensors[19], output_tensors[20], output_tensors[21], output_tensors[22], output_tensors[23], output_tensors[24], output_tensors[25], output_tensors[26], output_tensors[27], output_tensors[28], output_tensors[29], output_tensors[30], output_tensors[31], output_tensors[32], output_tensors[33], output_tensors[34], output_tensors[35], output_tensors[36], output_tensors[37], output_tensors[38], output_tensors[39], output_tensors[40], output_tensors[41], output_tensors[42], output_tensors[43], output_tensors[44], output_tensors[45], output_tensors[46], output_tensors[47], output_tensors[48], output_tensors[49].item(), output_tensors[50].item(), output_tensors[51].item(), output_tensors[52].item()]

    return g

call = _wrap_func(inductor_entry)


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
