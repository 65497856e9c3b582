class GraphModule(torch.nn.Module):
    def forward(self, primals_1: "Sym(s77)", primals_2: "Sym(s27)", primals_3: "f32[s77, s27][s27, 1]cuda:0", primals_4: "f32[s77, s27][s27, 1]cuda:0", gt: "b8[][]cuda:0", tangents_1: "f32[s77, s27][s27, 1]cuda:0"):
        # File: /work/main/tests/data/fx-capture/capture.py:146 in cond_fn, code: return torch.cond(x.sum() > 0, t, f, (x, y))
        true_graph_1 = self.true_graph_1
        false_graph_1 = self.false_graph_1
        cond_1 = torch.ops.higher_order.cond(gt, true_graph_1, false_graph_1, (primals_3, primals_4, primals_2, primals_1, tangents_1));  gt = true_graph_1 = false_graph_1 = primals_3 = primals_4 = primals_2 = primals_1 = tangents_1 = None
        getitem_1: "f32[s77, s27][s27, 1]cuda:0" = cond_1[0]
        getitem_2: "f32[s77, s27][s27, 1]cuda:0" = cond_1[1];  cond_1 = None
        return (None, None, getitem_1, getitem_2)

    class true_graph_1(torch.nn.Module):
        def forward(self, arg0_1: "f32[s77, s27][s27, 1]cuda:0", arg1_1: "f32[s77, s27][s27, 1]cuda:0", arg2_1: "Sym(s27)", arg3_1: "Sym(s77)", arg4_1: "f32[s77, s27][s27, 1]cuda:0"):
            # File: /work/main/tests/data/fx-capture/capture.py:146 in cond_fn, code: return torch.cond(x.sum() > 0, t, f, (x, y))
            add_9: "f32[s77, s27][s27, 1]cuda:0" = torch.ops.aten.add.Tensor(arg0_1, arg1_1);  arg0_1 = arg1_1 = None
            cos: "f32[s77, s27][s27, 1]cuda:0" = torch.ops.aten.cos.default(add_9);  add_9 = None
            mul_12: "f32[s77, s27][s27, 1]cuda:0" = torch.ops.aten.mul.Tensor(arg4_1, cos);  arg4_1 = cos = None
            clone: "f32[s77, s27][s27, 1]cuda:0" = torch.ops.aten.clone.default(mul_12)
            return [mul_12, clone]

    class false_graph_1(torch.nn.Module):
        def forward(self, arg0_1: "f32[s77, s27][s27, 1]cuda:0", arg1_1: "f32[s77, s27][s27, 1]cuda:0", arg2_1: "Sym(s27)", arg3_1: "Sym(s77)", arg4_1: "f32[s77, s27][s27, 1]cuda:0"):
            # File: /work/main/tests/data/fx-capture/capture.py:146 in cond_fn, code: return torch.cond(x.sum() > 0, t, f, (x, y))
            sub_6: "f32[s77, s27][s27, 1]cuda:0" = torch.ops.aten.sub.Tensor(arg0_1, arg1_1);  arg0_1 = arg1_1 = None
            sin: "f32[s77, s27][s27, 1]cuda:0" = torch.ops.aten.sin.default(sub_6);  sub_6 = None
            neg: "f32[s77, s27][s27, 1]cuda:0" = torch.ops.aten.neg.default(sin);  sin = None
            mul_14: "f32[s77, s27][s27, 1]cuda:0" = torch.ops.aten.mul.Tensor(arg4_1, neg);  arg4_1 = neg = None
            neg_1: "f32[s77, s27][s27, 1]cuda:0" = torch.ops.aten.neg.default(mul_14)
            return [mul_14, neg_1]
