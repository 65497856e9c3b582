class GraphModule(torch.nn.Module):
    def forward(self, primals_1: "f32[4, 8]"):
        # File: /work/main/tests/data/fx-capture/capture.py:192 in grad_mode_fn, code: y = x * 2
        mul: "f32[4, 8]" = torch.ops.aten.mul.Tensor(primals_1, 2)

        # File: /work/main/tests/data/fx-capture/capture.py:193 in grad_mode_fn, code: return (x + y).sin()
        add: "f32[4, 8]" = torch.ops.aten.add.Tensor(primals_1, mul);  primals_1 = mul = None
        sin: "f32[4, 8]" = torch.ops.aten.sin.default(add)
        return (sin, add)
