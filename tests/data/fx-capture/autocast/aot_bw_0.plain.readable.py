class GraphModule(torch.nn.Module):
    def forward(self, _to_copy: "f16[8, 8]", _to_copy_1: "f16[4, 8]", detach: "f32[4, 8]", tangents_1: "f32[4, 8]"):
        # File: /work/main/tests/data/fx-capture/capture.py:187 in autocast_fn, code: return y.float().relu()
        detach_1: "f32[4, 8]" = torch.ops.aten.detach.default(detach);  detach = None
        threshold_backward: "f32[4, 8]" = torch.ops.aten.threshold_backward.default(tangents_1, detach_1, 0);  tangents_1 = detach_1 = None
        _to_copy_3: "f16[4, 8]" = torch.ops.aten._to_copy.default(threshold_backward, dtype = torch.float16, layout = torch.strided, device = device(type='cuda', index=0));  threshold_backward = None

        # File: /work/main/tests/data/fx-capture/capture.py:186 in autocast_fn, code: y = x @ w
        t: "f16[8, 4]" = torch.ops.aten.t.default(_to_copy_1);  _to_copy_1 = None
        mm_1: "f16[8, 8]" = torch.ops.aten.mm.default(t, _to_copy_3);  t = None
        t_1: "f16[8, 8]" = torch.ops.aten.t.default(_to_copy);  _to_copy = None
        mm_2: "f16[4, 8]" = torch.ops.aten.mm.default(_to_copy_3, t_1);  _to_copy_3 = t_1 = None
        _to_copy_4: "f32[4, 8]" = torch.ops.aten._to_copy.default(mm_2, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  mm_2 = None
        _to_copy_5: "f32[8, 8]" = torch.ops.aten._to_copy.default(mm_1, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0));  mm_1 = None
        return (_to_copy_4, _to_copy_5)
