class GraphModule(torch.nn.Module):
    def forward(self, primals_1: "f32[4, 8][8, 1]cuda:0", primals_2: "f32[8, 16][16, 1]cuda:0"):
        # File: /work/main/tests/data/fx-capture/capture.py:130 in autograd_fn, code: return Gelu.apply(x @ w).sum(-1)
        mm: "f32[4, 16][16, 1]cuda:0" = torch.ops.aten.mm.default(primals_1, primals_2)

        # File: /work/main/tests/data/fx-capture/capture.py:120 in forward, code: return x * 0.5 * (1.0 + torch.tanh(0.79788456 * x * (1 + 0.044715 * x * x)))
        mul: "f32[4, 16][16, 1]cuda:0" = torch.ops.aten.mul.Tensor(mm, 0.5)
        mul_1: "f32[4, 16][16, 1]cuda:0" = torch.ops.aten.mul.Tensor(mm, 0.79788456)
        mul_2: "f32[4, 16][16, 1]cuda:0" = torch.ops.aten.mul.Tensor(mm, 0.044715)
        mul_3: "f32[4, 16][16, 1]cuda:0" = torch.ops.aten.mul.Tensor(mul_2, mm);  mul_2 = None
        add: "f32[4, 16][16, 1]cuda:0" = torch.ops.aten.add.Tensor(mul_3, 1);  mul_3 = None
        mul_4: "f32[4, 16][16, 1]cuda:0" = torch.ops.aten.mul.Tensor(mul_1, add);  mul_1 = add = None
        tanh: "f32[4, 16][16, 1]cuda:0" = torch.ops.aten.tanh.default(mul_4);  mul_4 = None
        add_1: "f32[4, 16][16, 1]cuda:0" = torch.ops.aten.add.Tensor(tanh, 1.0);  tanh = None
        mul_5: "f32[4, 16][16, 1]cuda:0" = torch.ops.aten.mul.Tensor(mul, add_1);  mul = add_1 = None

        # File: /work/main/tests/data/fx-capture/capture.py:130 in autograd_fn, code: return Gelu.apply(x @ w).sum(-1)
        sum_1: "f32[4][1]cuda:0" = torch.ops.aten.sum.dim_IntList(mul_5, [-1]);  mul_5 = None
        return (sum_1, primals_1, primals_2, mm)
