class GraphModule(torch.nn.Module):
    def forward(self, primals_1: "f32[1, 2, 128, 16]", primals_2: "f32[1, 2, 128, 16]", primals_3: "f32[1, 2, 128, 16]"):
        # File: /opt/torch/.venv/lib/python3.12/site-packages/torch/nn/attention/flex_attention.py:1300 in _create_empty_block_mask, code: kv_num_blocks=torch.ones([1, 1, 1], dtype=torch.int32, device=device),
        ones: "i32[1, 1, 1]" = torch.ops.aten.ones.default([1, 1, 1], dtype = torch.int32, device = device(type='cuda', index=0), pin_memory = False)

        # File: /opt/torch/.venv/lib/python3.12/site-packages/torch/nn/attention/flex_attention.py:1301 in _create_empty_block_mask, code: kv_indices=torch.zeros([1, 1, 1, 1], dtype=torch.int32, device=device),
        zeros: "i32[1, 1, 1, 1]" = torch.ops.aten.zeros.default([1, 1, 1, 1], dtype = torch.int32, device = device(type='cuda', index=0), pin_memory = False)

        # File: /opt/torch/.venv/lib/python3.12/site-packages/torch/nn/attention/flex_attention.py:379 in create_dense_one, code: dense_mask = kv_indices.new_zeros(num_rows, num_cols + 1, dtype=torch.int32)
        new_zeros: "i32[1, 1, 1, 2]" = torch.ops.aten.new_zeros.default(zeros, [1, 1, 1, 2], dtype = torch.int32, pin_memory = False)

        # File: /opt/torch/.venv/lib/python3.12/site-packages/torch/nn/attention/flex_attention.py:381 in create_dense_one, code: row_indices = torch.arange(num_rows, dtype=torch.int, device=device).unsqueeze(
        arange: "i32[1]" = torch.ops.aten.arange.default(1, dtype = torch.int32, device = device(type='cuda', index=0), pin_memory = False)
        unsqueeze: "i32[1, 1]" = torch.ops.aten.unsqueeze.default(arange, -1);  arange = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/torch/nn/attention/flex_attention.py:384 in create_dense_one, code: col_range = torch.arange(num_cols, dtype=torch.int, device=device)
        arange_1: "i32[1]" = torch.ops.aten.arange.default(1, dtype = torch.int32, device = device(type='cuda', index=0), pin_memory = False)

        # File: /opt/torch/.venv/lib/python3.12/site-packages/torch/nn/attention/flex_attention.py:385 in create_dense_one, code: index_mask = col_range < kv_num_blocks.unsqueeze(-1)
        unsqueeze_1: "i32[1, 1, 1, 1]" = torch.ops.aten.unsqueeze.default(ones, 3)
        lt: "b8[1, 1, 1, 1]" = torch.ops.aten.lt.Tensor(arange_1, unsqueeze_1);  arange_1 = unsqueeze_1 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/torch/nn/attention/flex_attention.py:388 in create_dense_one, code: valid_indices = torch.where(index_mask, kv_indices, num_cols)
        scalar_tensor: "i32[]" = torch.ops.aten.scalar_tensor.default(1, dtype = torch.int32, layout = torch.strided, device = device(type='cuda', index=0))
        where: "i32[1, 1, 1, 1]" = torch.ops.aten.where.self(lt, zeros, scalar_tensor);  lt = scalar_tensor = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/torch/nn/attention/flex_attention.py:391 in create_dense_one, code: dense_mask[row_indices, valid_indices] = dense_mask.new_ones(())
        new_ones: "i32[1, 1]" = torch.ops.aten.new_ones.default(new_zeros, [1, 1], pin_memory = False)
        arange_2: "i64[1]" = torch.ops.aten.arange.default(1, dtype = torch.int64, layout = torch.strided, device = device(type='cuda', index=0))
        unsqueeze_2: "i64[1, 1]" = torch.ops.aten.unsqueeze.default(arange_2, -1);  arange_2 = None
        unsqueeze_3: "i64[1, 1, 1]" = torch.ops.aten.unsqueeze.default(unsqueeze_2, -1);  unsqueeze_2 = None
        view: "i32[1, 1, 1, 1]" = torch.ops.aten.view.default(new_ones, [1, 1, 1, 1]);  new_ones = None
        arange_3: "i64[1]" = torch.ops.aten.arange.default(1, dtype = torch.int64, layout = torch.strided, device = device(type='cuda', index=0))
        unsqueeze_4: "i64[1, 1]" = torch.ops.aten.unsqueeze.default(arange_3, -1);  arange_3 = None
        unsqueeze_5: "i64[1, 1, 1]" = torch.ops.aten.unsqueeze.default(unsqueeze_4, -1);  unsqueeze_4 = None
        unsqueeze_6: "i64[1, 1, 1, 1]" = torch.ops.aten.unsqueeze.default(unsqueeze_5, -1);  unsqueeze_5 = None
        index_put: "i32[1, 1, 1, 2]" = torch.ops.aten.index_put.default(new_zeros, [unsqueeze_6, unsqueeze_3, unsqueeze, where], view);  new_zeros = unsqueeze_6 = unsqueeze_3 = unsqueeze = where = view = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/torch/nn/attention/flex_attention.py:414 in _transpose_ordered, code: return _dense_to_ordered(dense.transpose(-2, -1))
        slice_3: "i32[1, 1, 1, 1]" = torch.ops.aten.slice.Tensor(index_put, 3, 0, 1);  index_put = None
        transpose_1: "i32[1, 1, 1, 1]" = torch.ops.aten.transpose.int(slice_3, -2, -1);  slice_3 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/torch/nn/attention/flex_attention.py:404 in _dense_to_ordered, code: num_blocks_in_row = dense_mask.sum(dim=-1)
        sum_1: "i64[1, 1, 1]" = torch.ops.aten.sum.dim_IntList(transpose_1, [-1])

        # File: /opt/torch/.venv/lib/python3.12/site-packages/torch/nn/attention/flex_attention.py:405 in _dense_to_ordered, code: col_indices = torch.argsort(dense_mask, dim=-1, descending=True, stable=True)
        sort = torch.ops.aten.sort.stable(transpose_1, stable = True, descending = True);  transpose_1 = None
        getitem_1: "i64[1, 1, 1, 1]" = sort[1];  sort = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/torch/nn/attention/flex_attention.py:407 in _dense_to_ordered, code: num_blocks_in_row.to(torch.int32, memory_format=torch.contiguous_format),
        _to_copy: "i32[1, 1, 1]" = torch.ops.aten._to_copy.default(sum_1, dtype = torch.int32, memory_format = torch.contiguous_format);  sum_1 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/torch/nn/attention/flex_attention.py:408 in _dense_to_ordered, code: col_indices.to(torch.int32, memory_format=torch.contiguous_format),
        _to_copy_1: "i32[1, 1, 1, 1]" = torch.ops.aten._to_copy.default(getitem_1, dtype = torch.int32, memory_format = torch.contiguous_format);  getitem_1 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/torch/nn/attention/flex_attention.py:1690 in flex_attention, code: out, lse, max_scores = flex_attention_hop(
        sdpa_score0 = self.sdpa_score0
        sdpa_mask0 = self.sdpa_mask0
        flex_attention = torch.ops.higher_order.flex_attention(primals_1, primals_2, primals_3, sdpa_score0, (1, 1, ones, zeros, None, None, _to_copy, _to_copy_1, None, None, 1073741824, 1073741824, sdpa_mask0), 0.25, {'BACKEND': 'AUTO', 'PRESCALE_QK': False, 'ROWS_GUARANTEED_SAFE': False, 'BLOCKS_ARE_CONTIGUOUS': False, 'WRITE_DQ': True, 'OUTPUT_LOGSUMEXP': True, 'OUTPUT_MAX': False}, (), ());  sdpa_score0 = sdpa_mask0 = None
        getitem_2: "f32[1, 2, 128, 16]" = flex_attention[0]
        getitem_3: "f32[1, 2, 128]" = flex_attention[1];  flex_attention = None
        detach: "f32[1, 2, 128, 16]" = torch.ops.aten.detach.default(getitem_2)
        detach_1: "f32[1, 2, 128]" = torch.ops.aten.detach.default(getitem_3);  getitem_3 = None
        return (getitem_2, primals_1, primals_2, primals_3, ones, zeros, _to_copy, _to_copy_1, detach, detach_1)

    class sdpa_score0(torch.nn.Module):
        def forward(self, arg0_1: "f32[]", arg1_1: "i32[]", arg2_1: "i32[]", arg3_1: "i32[]", arg4_1: "i32[]"):
            # File: /opt/torch/.venv/lib/python3.12/site-packages/torch/nn/attention/flex_attention.py:1690 in flex_attention, code: out, lse, max_scores = flex_attention_hop(
            sub: "i32[]" = torch.ops.aten.sub.Tensor(arg3_1, arg4_1);  arg3_1 = arg4_1 = None
            _to_copy: "f32[]" = torch.ops.aten._to_copy.default(sub, dtype = torch.float32);  sub = None
            mul: "f32[]" = torch.ops.aten.mul.Tensor(_to_copy, 0.1);  _to_copy = None
            add: "f32[]" = torch.ops.aten.add.Tensor(arg0_1, mul);  arg0_1 = mul = None
            return add

    class sdpa_mask0(torch.nn.Module):
        def forward(self, arg0_1: "i32[]", arg1_1: "i32[]", arg2_1: "i32[]", arg3_1: "i32[]"):
            # File: /opt/torch/.venv/lib/python3.12/site-packages/torch/nn/attention/flex_attention.py:338 in noop_mask, code: return batch.new_ones(size=(), dtype=torch.bool, device=batch.device)
            new_ones: "b8[]" = torch.ops.aten.new_ones.default(arg0_1, [], dtype = torch.bool, device = device(type='cuda', index=0), pin_memory = False);  arg0_1 = None
            return new_ones
