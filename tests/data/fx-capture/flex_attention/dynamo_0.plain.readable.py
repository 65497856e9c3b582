class GraphModule(torch.nn.Module):
    def forward(self, L_q_: "f32[1, 2, 128, 16]", L_k_: "f32[1, 2, 128, 16]", L_v_: "f32[1, 2, 128, 16]"):
        l_q_ = L_q_
        l_k_ = L_k_
        l_v_ = L_v_

        # File: /opt/torch/.venv/lib/python3.12/site-packages/torch/nn/attention/flex_attention.py:1300 in _create_empty_block_mask, code: kv_num_blocks=torch.ones([1, 1, 1], dtype=torch.int32, device=device),
        child: "i32[1, 1, 1]" = torch.ones([1, 1, 1], dtype = torch.int32, device = device(type='cuda', index=0))

        # File: /opt/torch/.venv/lib/python3.12/site-packages/torch/nn/attention/flex_attention.py:1301 in _create_empty_block_mask, code: kv_indices=torch.zeros([1, 1, 1, 1], dtype=torch.int32, device=device),
        child_1: "i32[1, 1, 1, 1]" = torch.zeros([1, 1, 1, 1], dtype = torch.int32, device = device(type='cuda', index=0))

        # File: /opt/torch/.venv/lib/python3.12/site-packages/torch/_functorch/vmap.py:295 in vmap_impl, code: lazy_load_decompositions()
        lazy_load_decompositions = torch._functorch.predispatch.lazy_load_decompositions();  lazy_load_decompositions = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/torch/_functorch/vmap.py:503 in _flat_vmap, code: with vmap_increment_nesting(batch_size, randomness) as vmap_level:
        _vmap_increment_nesting = torch._functorch.predispatch._vmap_increment_nesting(1, 'error');  _vmap_increment_nesting = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/torch/_functorch/vmap.py:173 in _create_batched_inputs, code: arg if in_dim is None else _add_batch_dim(arg, in_dim, vmap_level)
        child_2: "i32[1, 1]" = torch._functorch.predispatch._add_batch_dim(child, 0, 1)
        child_3: "i32[1, 1, 1]" = torch._functorch.predispatch._add_batch_dim(child_1, 0, 1)

        # File: /opt/torch/.venv/lib/python3.12/site-packages/torch/_functorch/vmap.py:295 in vmap_impl, code: lazy_load_decompositions()
        lazy_load_decompositions_1 = torch._functorch.predispatch.lazy_load_decompositions();  lazy_load_decompositions_1 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/torch/_functorch/vmap.py:503 in _flat_vmap, code: with vmap_increment_nesting(batch_size, randomness) as vmap_level:
        _vmap_increment_nesting_1 = torch._functorch.predispatch._vmap_increment_nesting(1, 'error');  _vmap_increment_nesting_1 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/torch/_functorch/vmap.py:173 in _create_batched_inputs, code: arg if in_dim is None else _add_batch_dim(arg, in_dim, vmap_level)
        _add_batch_dim_2: "i32[1]" = torch._functorch.predispatch._add_batch_dim(child_2, 0, 2);  child_2 = None
        _add_batch_dim_3: "i32[1, 1]" = torch._functorch.predispatch._add_batch_dim(child_3, 0, 2);  child_3 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/torch/nn/attention/flex_attention.py:379 in create_dense_one, code: dense_mask = kv_indices.new_zeros(num_rows, num_cols + 1, dtype=torch.int32)
        dense_mask: "i32[1, 2]" = _add_batch_dim_3.new_zeros(1, 2, dtype = torch.int32)

        # File: /opt/torch/.venv/lib/python3.12/site-packages/torch/nn/attention/flex_attention.py:381 in create_dense_one, code: row_indices = torch.arange(num_rows, dtype=torch.int, device=device).unsqueeze(
        arange: "i32[1]" = torch.arange(1, dtype = torch.int32, device = device(type='cuda', index=0))
        row_indices: "i32[1, 1]" = arange.unsqueeze(-1);  arange = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/torch/nn/attention/flex_attention.py:384 in create_dense_one, code: col_range = torch.arange(num_cols, dtype=torch.int, device=device)
        col_range: "i32[1]" = torch.arange(1, dtype = torch.int32, device = device(type='cuda', index=0))

        # File: /opt/torch/.venv/lib/python3.12/site-packages/torch/nn/attention/flex_attention.py:385 in create_dense_one, code: index_mask = col_range < kv_num_blocks.unsqueeze(-1)
        unsqueeze_1: "i32[1, 1]" = _add_batch_dim_2.unsqueeze(-1);  _add_batch_dim_2 = None
        index_mask: "b8[1, 1]" = col_range < unsqueeze_1;  col_range = unsqueeze_1 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/torch/nn/attention/flex_attention.py:388 in create_dense_one, code: valid_indices = torch.where(index_mask, kv_indices, num_cols)
        valid_indices: "i32[1, 1]" = torch.where(index_mask, _add_batch_dim_3, 1);  index_mask = _add_batch_dim_3 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/torch/nn/attention/flex_attention.py:391 in create_dense_one, code: dense_mask[row_indices, valid_indices] = dense_mask.new_ones(())
        new_ones: "i32[]" = dense_mask.new_ones(())
        dense_mask[(row_indices, valid_indices)] = new_ones;  setitem = dense_mask;  row_indices = valid_indices = new_ones = setitem = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/torch/nn/attention/flex_attention.py:392 in create_dense_one, code: return dense_mask[:, :num_cols].contiguous()
        getitem: "i32[1, 1]" = dense_mask[(slice(None, None, None), slice(None, 1, None))];  dense_mask = None
        batched_outputs: "i32[1, 1]" = getitem.contiguous();  getitem = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/torch/_functorch/vmap.py:204 in _maybe_remove_batch_dim, code: return _remove_batch_dim(batched_output, vmap_level, batch_size, out_dim)
        batched_outputs_1: "i32[1, 1, 1]" = torch._functorch.predispatch._remove_batch_dim(batched_outputs, 2, 1, 0);  batched_outputs = None

        # No stacktrace found for following nodes
        _vmap_decrement_nesting = torch._functorch.predispatch._vmap_decrement_nesting();  _vmap_decrement_nesting = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/torch/_functorch/vmap.py:204 in _maybe_remove_batch_dim, code: return _remove_batch_dim(batched_output, vmap_level, batch_size, out_dim)
        out: "i32[1, 1, 1, 1]" = torch._functorch.predispatch._remove_batch_dim(batched_outputs_1, 1, 1, 0);  batched_outputs_1 = None

        # No stacktrace found for following nodes
        _vmap_decrement_nesting_1 = torch._functorch.predispatch._vmap_decrement_nesting();  _vmap_decrement_nesting_1 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/torch/nn/attention/flex_attention.py:414 in _transpose_ordered, code: return _dense_to_ordered(dense.transpose(-2, -1))
        transpose: "i32[1, 1, 1, 1]" = out.transpose(-2, -1);  out = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/torch/nn/attention/flex_attention.py:403 in _dense_to_ordered, code: dense_mask = dense_mask.to(dtype=torch.int32)
        dense_mask_1: "i32[1, 1, 1, 1]" = transpose.to(dtype = torch.int32);  transpose = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/torch/nn/attention/flex_attention.py:404 in _dense_to_ordered, code: num_blocks_in_row = dense_mask.sum(dim=-1)
        num_blocks_in_row: "i64[1, 1, 1]" = dense_mask_1.sum(dim = -1)

        # File: /opt/torch/.venv/lib/python3.12/site-packages/torch/nn/attention/flex_attention.py:405 in _dense_to_ordered, code: col_indices = torch.argsort(dense_mask, dim=-1, descending=True, stable=True)
        col_indices: "i64[1, 1, 1, 1]" = torch.argsort(dense_mask_1, dim = -1, descending = True, stable = True);  dense_mask_1 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/torch/nn/attention/flex_attention.py:407 in _dense_to_ordered, code: num_blocks_in_row.to(torch.int32, memory_format=torch.contiguous_format),
        q_num_blocks: "i32[1, 1, 1]" = num_blocks_in_row.to(torch.int32, memory_format = torch.contiguous_format);  num_blocks_in_row = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/torch/nn/attention/flex_attention.py:408 in _dense_to_ordered, code: col_indices.to(torch.int32, memory_format=torch.contiguous_format),
        q_indices: "i32[1, 1, 1, 1]" = col_indices.to(torch.int32, memory_format = torch.contiguous_format);  col_indices = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/torch/nn/attention/flex_attention.py:1690 in flex_attention, code: out, lse, max_scores = flex_attention_hop(
        score_mod_0 = self.score_mod_0
        mask_fn_0 = self.mask_fn_0
        flex_attention = torch.ops.higher_order.flex_attention(l_q_, l_k_, l_v_, score_mod_0, (1, 1, child, child_1, None, None, q_num_blocks, q_indices, None, None, 1073741824, 1073741824, mask_fn_0), 0.25, {'BACKEND': 'AUTO', 'PRESCALE_QK': False, 'ROWS_GUARANTEED_SAFE': False, 'BLOCKS_ARE_CONTIGUOUS': False, 'WRITE_DQ': True, 'OUTPUT_LOGSUMEXP': True, 'OUTPUT_MAX': False}, (), ());  l_q_ = l_k_ = l_v_ = score_mod_0 = child = child_1 = q_num_blocks = q_indices = mask_fn_0 = None
        out_1: "f32[1, 2, 128, 16]" = flex_attention[0];  flex_attention = None
        return (out_1,)

    class score_mod_0(torch.nn.Module):
        def forward(self, child: "f32[]", child_1: "i32[]", child_2: "i32[]", child_3: "i32[]", child_4: "i32[]"):
            # File: /work/main/tests/data/fx-capture/capture.py:180 in score_mod, code: return score + (q_idx - kv_idx).to(score.dtype) * 0.1
            sub: "i32[]" = child_3 - child_4;  child_3 = child_4 = None
            to: "f32[]" = sub.to(torch.float32);  sub = None
            mul: "f32[]" = to * 0.1;  to = None
            add: "f32[]" = child + mul;  child = mul = None
            return add

    class mask_fn_0(torch.nn.Module):
        def forward(self, child: "i32[]", child_1: "i32[]", child_2: "i32[]", child_3: "i32[]"):
            # File: /opt/torch/.venv/lib/python3.12/site-packages/torch/nn/attention/flex_attention.py:338 in noop_mask, code: return batch.new_ones(size=(), dtype=torch.bool, device=batch.device)
            new_ones: "b8[]" = child.new_ones(size = (), dtype = torch.bool, device = device(type='cuda', index=0));  child = None
            return new_ones
