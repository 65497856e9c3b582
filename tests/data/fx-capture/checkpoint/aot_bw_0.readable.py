class GraphModule(torch.nn.Module):
    def forward(self, primals_1: "f32[4, 8][8, 1]cuda:0", primals_2: "f32[8, 8][8, 1]cuda:0", tangents_1: "f32[4, 8][8, 1]cuda:0"):
        # ac_graph_id: 2 - PREFER_RECOMPUTE File: /work/main/tests/data/fx-capture/capture.py:135 in blk, code: return torch.relu(a @ w).sin()
        mm: "f32[4, 8][8, 1]cuda:0" = torch.ops.aten.mm.default(primals_1, primals_2)
        relu: "f32[4, 8][8, 1]cuda:0" = torch.ops.aten.relu.default(mm);  mm = None
        sin: "f32[4, 8][8, 1]cuda:0" = torch.ops.aten.sin.default(relu)

        # File: /work/main/tests/data/fx-capture/capture.py:137 in checkpointed, code: return y.cos()
        sin_1: "f32[4, 8][8, 1]cuda:0" = torch.ops.aten.sin.default(sin);  sin = None
        neg: "f32[4, 8][8, 1]cuda:0" = torch.ops.aten.neg.default(sin_1);  sin_1 = None
        mul: "f32[4, 8][8, 1]cuda:0" = torch.ops.aten.mul.Tensor(tangents_1, neg);  tangents_1 = neg = None

        # File: /work/main/tests/data/fx-capture/capture.py:135 in blk, code: return torch.relu(a @ w).sin()
        cos_1: "f32[4, 8][8, 1]cuda:0" = torch.ops.aten.cos.default(relu)
        mul_1: "f32[4, 8][8, 1]cuda:0" = torch.ops.aten.mul.Tensor(mul, cos_1);  mul = cos_1 = None

        # ac_graph_id: 2 - PREFER_RECOMPUTE File: /work/main/tests/data/fx-capture/capture.py:135 in blk, code: return torch.relu(a @ w).sin()
        detach: "f32[4, 8][8, 1]cuda:0" = torch.ops.aten.detach.default(relu);  relu = None

        # File: /work/main/tests/data/fx-capture/capture.py:135 in blk, code: return torch.relu(a @ w).sin()
        detach_1: "f32[4, 8][8, 1]cuda:0" = torch.ops.aten.detach.default(detach);  detach = None
        threshold_backward: "f32[4, 8][8, 1]cuda:0" = torch.ops.aten.threshold_backward.default(mul_1, detach_1, 0);  mul_1 = detach_1 = None
        t: "f32[8, 4][1, 8]cuda:0" = torch.ops.aten.t.default(primals_1);  primals_1 = None
        mm_1: "f32[8, 8][8, 1]cuda:0" = torch.ops.aten.mm.default(t, threshold_backward);  t = None
        t_1: "f32[8, 8][1, 8]cuda:0" = torch.ops.aten.t.default(primals_2);  primals_2 = None
        mm_2: "f32[4, 8][8, 1]cuda:0" = torch.ops.aten.mm.default(threshold_backward, t_1);  threshold_backward = t_1 = None
        return (mm_2, mm_1)
