class GraphModule(torch.nn.Module):
    def forward(self, primals_1: "f32[1, 2, 128, 16][4096, 2048, 16, 1]cuda:0", primals_2: "f32[1, 2, 128, 16][4096, 2048, 16, 1]cuda:0", primals_3: "f32[1, 2, 128, 16][4096, 2048, 16, 1]cuda:0", ones: "i32[1, 1, 1][1, 1, 1]cuda:0", zeros: "i32[1, 1, 1, 1][1, 1, 1, 1]cuda:0", _to_copy: "i32[1, 1, 1][1, 1, 1]cuda:0", _to_copy_1: "i32[1, 1, 1, 1][1, 1, 1, 1]cuda:0", detach: "f32[1, 2, 128, 16][4096, 2048, 16, 1]cuda:0", detach_1: "f32[1, 2, 128][256, 128, 1]cuda:0", tangents_1: "f32[1, 2, 128, 16][4096, 2048, 16, 1]cuda:0"):
        # File: /opt/torch/.venv/lib/python3.12/site-packages/torch/nn/attention/flex_attention.py:1690 in flex_attention, code: out, lse, max_scores = flex_attention_hop(
        detach_2: "f32[1, 2, 128, 16][4096, 2048, 16, 1]cuda:0" = torch.ops.aten.detach.default(detach);  detach = None
        detach_3: "f32[1, 2, 128][256, 128, 1]cuda:0" = torch.ops.aten.detach.default(detach_1);  detach_1 = None
        fw_graph0 = self.fw_graph0
        joint_graph0 = self.joint_graph0
        mask_graph0 = self.mask_graph0
        flex_attention_backward = torch.ops.higher_order.flex_attention_backward(primals_1, primals_2, primals_3, detach_2, detach_3, tangents_1, None, fw_graph0, joint_graph0, (1, 1, ones, zeros, None, None, _to_copy, _to_copy_1, None, None, 1073741824, 1073741824, mask_graph0), 0.25, {'BACKEND': 'AUTO', 'PRESCALE_QK': False, 'ROWS_GUARANTEED_SAFE': False, 'BLOCKS_ARE_CONTIGUOUS': False, 'WRITE_DQ': True, 'OUTPUT_LOGSUMEXP': True, 'OUTPUT_MAX': False}, (), ());  primals_1 = primals_2 = primals_3 = detach_2 = detach_3 = tangents_1 = fw_graph0 = joint_graph0 = ones = zeros = _to_copy = _to_copy_1 = mask_graph0 = None
        getitem_5: "f32[1, 2, 128, 16][4096, 2048, 16, 1]cuda:0" = flex_attention_backward[0]
        getitem_6: "f32[1, 2, 128, 16][4096, 2048, 16, 1]cuda:0" = flex_attention_backward[1]
        getitem_7: "f32[1, 2, 128, 16][4096, 2048, 16, 1]cuda:0" = flex_attention_backward[2];  flex_attention_backward = None
        return (getitem_5, getitem_6, getitem_7)

    class fw_graph0(torch.nn.Module):
        def forward(self, arg0_1: "f32[][]cuda:0", arg1_1: "i32[][]cuda:0", arg2_1: "i32[][]cuda:0", arg3_1: "i32[][]cuda:0", arg4_1: "i32[][]cuda:0"):
            # File: /opt/torch/.venv/lib/python3.12/site-packages/torch/nn/attention/flex_attention.py:1690 in flex_attention, code: out, lse, max_scores = flex_attention_hop(
            sub: "i32[][]cuda:0" = torch.ops.aten.sub.Tensor(arg3_1, arg4_1);  arg3_1 = arg4_1 = None
            _to_copy: "f32[][]cuda:0" = torch.ops.aten._to_copy.default(sub, dtype = torch.float32);  sub = None
            mul: "f32[][]cuda:0" = torch.ops.aten.mul.Tensor(_to_copy, 0.1);  _to_copy = None
            add: "f32[][]cuda:0" = torch.ops.aten.add.Tensor(arg0_1, mul);  arg0_1 = mul = None
            return add

    class joint_graph0(torch.nn.Module):
        def forward(self, arg0_1: "f32[][]cuda:0", arg1_1: "i32[][]cuda:0", arg2_1: "i32[][]cuda:0", arg3_1: "i32[][]cuda:0", arg4_1: "i32[][]cuda:0", arg5_1: "f32[][]cuda:0"):
            return [arg5_1, None, None, None, None]

    class mask_graph0(torch.nn.Module):
        def forward(self, arg0_1: "i32[][]cuda:0", arg1_1: "i32[][]cuda:0", arg2_1: "i32[][]cuda:0", arg3_1: "i32[][]cuda:0"):
            # File: /opt/torch/.venv/lib/python3.12/site-packages/torch/nn/attention/flex_attention.py:338 in noop_mask, code: return batch.new_ones(size=(), dtype=torch.bool, device=batch.device)
            new_ones: "b8[][]cuda:0" = torch.ops.aten.new_ones.default(arg0_1, [], dtype = torch.bool, device = device(type='cuda', index=0), pin_memory = False);  arg0_1 = None
            return new_ones
