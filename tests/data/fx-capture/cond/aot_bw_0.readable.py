class GraphModule(torch.nn.Module):
    def forward(self, primals_1: "f32[4, 8][8, 1]cuda:0", primals_2: "f32[4, 8][8, 1]cuda:0", gt: "b8[][]cuda:0", tangents_1: "f32[4, 8][8, 1]cuda:0"):
        # File: /work/main/tests/data/fx-capture/capture.py:146 in cond_fn, code: return torch.cond(x.sum() > 0, t, f, (x, y))
        true_graph_1 = self.true_graph_1
        false_graph_1 = self.false_graph_1
        cond_1 = torch.ops.higher_order.cond(gt, true_graph_1, false_graph_1, (primals_1, primals_2, tangents_1));  gt = true_graph_1 = false_graph_1 = primals_1 = primals_2 = tangents_1 = None
        getitem_1: "f32[4, 8][8, 1]cuda:0" = cond_1[0]
        getitem_2: "f32[4, 8][8, 1]cuda:0" = cond_1[1];  cond_1 = None
        return (getitem_1, getitem_2)

    class true_graph_1(torch.nn.Module):
        def forward(self, arg0_1: "f32[4, 8][8, 1]cuda:0", arg1_1: "f32[4, 8][8, 1]cuda:0", arg2_1: "f32[4, 8][8, 1]cuda:0"):
            # File: /work/main/tests/data/fx-capture/capture.py:146 in cond_fn, code: return torch.cond(x.sum() > 0, t, f, (x, y))
            add: "f32[4, 8][8, 1]cuda:0" = torch.ops.aten.add.Tensor(arg0_1, arg1_1);  arg0_1 = arg1_1 = None
            cos: "f32[4, 8][8, 1]cuda:0" = torch.ops.aten.cos.default(add);  add = None
            mul: "f32[4, 8][8, 1]cuda:0" = torch.ops.aten.mul.Tensor(arg2_1, cos);  arg2_1 = cos = None
            clone: "f32[4, 8][8, 1]cuda:0" = torch.ops.aten.clone.default(mul)
            return [mul, clone]

    class false_graph_1(torch.nn.Module):
        def forward(self, arg0_1: "f32[4, 8][8, 1]cuda:0", arg1_1: "f32[4, 8][8, 1]cuda:0", arg2_1: "f32[4, 8][8, 1]cuda:0"):
            # File: /work/main/tests/data/fx-capture/capture.py:146 in cond_fn, code: return torch.cond(x.sum() > 0, t, f, (x, y))
            sub: "f32[4, 8][8, 1]cuda:0" = torch.ops.aten.sub.Tensor(arg0_1, arg1_1);  arg0_1 = arg1_1 = None
            sin: "f32[4, 8][8, 1]cuda:0" = torch.ops.aten.sin.default(sub);  sub = None
            neg: "f32[4, 8][8, 1]cuda:0" = torch.ops.aten.neg.default(sin);  sin = None
            mul: "f32[4, 8][8, 1]cuda:0" = torch.ops.aten.mul.Tensor(arg2_1, neg);  arg2_1 = neg = None
            neg_1: "f32[4, 8][8, 1]cuda:0" = torch.ops.aten.neg.default(mul)
            return [mul, neg_1]
