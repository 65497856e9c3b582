class GraphModule(torch.nn.Module):
    def forward(self, add: "f32[4, 8]", tangents_1: "f32[4, 8]"):
        # File: /work/main/tests/data/fx-capture/capture.py:193 in grad_mode_fn, code: return (x + y).sin()
        cos: "f32[4, 8]" = torch.ops.aten.cos.default(add);  add = None
        mul_1: "f32[4, 8]" = torch.ops.aten.mul.Tensor(tangents_1, cos);  tangents_1 = cos = None
        return (mul_1,)
