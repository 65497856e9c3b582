class GraphModule(torch.nn.Module):
    def forward(self, primals_1: "f32[4, 8]", primals_2: "f32[8, 16]", mm: "f32[4, 16]", tangents_1: "f32[4]"):
        # File: /work/main/tests/data/fx-capture/capture.py:130 in autograd_fn, code: return Gelu.apply(x @ w).sum(-1)
        unsqueeze: "f32[4, 1]" = torch.ops.aten.unsqueeze.default(tangents_1, -1);  tangents_1 = None
        expand: "f32[4, 16]" = torch.ops.aten.expand.default(unsqueeze, [4, 16]);  unsqueeze = None

        # File: /work/main/tests/data/fx-capture/capture.py:125 in backward, code: t = torch.tanh(0.79788456 * x * (1 + 0.044715 * x * x))
        mul_6: "f32[4, 16]" = torch.ops.aten.mul.Tensor(mm, 0.79788456)
        mul_7: "f32[4, 16]" = torch.ops.aten.mul.Tensor(mm, 0.044715)
        mul_8: "f32[4, 16]" = torch.ops.aten.mul.Tensor(mul_7, mm);  mul_7 = None
        add_2: "f32[4, 16]" = torch.ops.aten.add.Tensor(mul_8, 1);  mul_8 = None
        mul_9: "f32[4, 16]" = torch.ops.aten.mul.Tensor(mul_6, add_2);  mul_6 = add_2 = None
        tanh_1: "f32[4, 16]" = torch.ops.aten.tanh.default(mul_9);  mul_9 = None

        # File: /work/main/tests/data/fx-capture/capture.py:126 in backward, code: return g * (0.5 * (1 + t) + 0.5 * x * (1 - t * t) * 0.79788456 * (1 + 3 * 0.044715 * x * x))
        add_3: "f32[4, 16]" = torch.ops.aten.add.Tensor(tanh_1, 1)
        mul_10: "f32[4, 16]" = torch.ops.aten.mul.Tensor(add_3, 0.5);  add_3 = None
        mul_11: "f32[4, 16]" = torch.ops.aten.mul.Tensor(mm, 0.5)
        mul_12: "f32[4, 16]" = torch.ops.aten.mul.Tensor(tanh_1, tanh_1);  tanh_1 = None
        rsub: "f32[4, 16]" = torch.ops.aten.rsub.Scalar(mul_12, 1);  mul_12 = None
        mul_13: "f32[4, 16]" = torch.ops.aten.mul.Tensor(mul_11, rsub);  mul_11 = rsub = None
        mul_14: "f32[4, 16]" = torch.ops.aten.mul.Tensor(mul_13, 0.79788456);  mul_13 = None
        mul_15: "f32[4, 16]" = torch.ops.aten.mul.Tensor(mm, 0.134145)
        mul_16: "f32[4, 16]" = torch.ops.aten.mul.Tensor(mul_15, mm);  mul_15 = mm = None
        add_4: "f32[4, 16]" = torch.ops.aten.add.Tensor(mul_16, 1);  mul_16 = None
        mul_17: "f32[4, 16]" = torch.ops.aten.mul.Tensor(mul_14, add_4);  mul_14 = add_4 = None
        add_5: "f32[4, 16]" = torch.ops.aten.add.Tensor(mul_10, mul_17);  mul_10 = mul_17 = None
        mul_18: "f32[4, 16]" = torch.ops.aten.mul.Tensor(expand, add_5);  expand = add_5 = None

        # File: /work/main/tests/data/fx-capture/capture.py:130 in autograd_fn, code: return Gelu.apply(x @ w).sum(-1)
        t: "f32[8, 4]" = torch.ops.aten.t.default(primals_1);  primals_1 = None
        mm_1: "f32[8, 16]" = torch.ops.aten.mm.default(t, mul_18);  t = None
        t_1: "f32[16, 8]" = torch.ops.aten.t.default(primals_2);  primals_2 = None
        mm_2: "f32[4, 8]" = torch.ops.aten.mm.default(mul_18, t_1);  mul_18 = t_1 = None
        return (mm_2, mm_1)
