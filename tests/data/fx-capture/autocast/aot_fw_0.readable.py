class GraphModule(torch.nn.Module):
    def forward(self, primals_1: "f32[4, 8][8, 1]cuda:0", primals_2: "f32[8, 8][8, 1]cuda:0"):
        # File: /work/main/tests/data/fx-capture/capture.py:186 in autocast_fn, code: y = x @ w
        _to_copy: "f16[8, 8][8, 1]cuda:0" = torch.ops.aten._to_copy.default(primals_2, dtype = torch.float16);  primals_2 = None
        _to_copy_1: "f16[4, 8][8, 1]cuda:0" = torch.ops.aten._to_copy.default(primals_1, dtype = torch.float16);  primals_1 = None
        mm: "f16[4, 8][8, 1]cuda:0" = torch.ops.aten.mm.default(_to_copy_1, _to_copy)

        # File: /work/main/tests/data/fx-capture/capture.py:187 in autocast_fn, code: return y.float().relu()
        _to_copy_2: "f32[4, 8][8, 1]cuda:0" = torch.ops.aten._to_copy.default(mm, dtype = torch.float32);  mm = None
        relu: "f32[4, 8][8, 1]cuda:0" = torch.ops.aten.relu.default(_to_copy_2);  _to_copy_2 = None
        detach: "f32[4, 8][8, 1]cuda:0" = torch.ops.aten.detach.default(relu)
        return (relu, _to_copy, _to_copy_1, detach)
