class GraphModule(torch.nn.Module):
    def forward(self, primals_1: "f32[4, 8]", primals_2: "f32[4, 8]"):
        # File: /work/main/tests/data/fx-capture/capture.py:146 in cond_fn, code: return torch.cond(x.sum() > 0, t, f, (x, y))
        sum_1: "f32[]" = torch.ops.aten.sum.default(primals_1)
        gt: "b8[]" = torch.ops.aten.gt.Scalar(sum_1, 0);  sum_1 = None
        true_graph_0 = self.true_graph_0
        false_graph_0 = self.false_graph_0
        cond = torch.ops.higher_order.cond(gt, true_graph_0, false_graph_0, (primals_1, primals_2));  true_graph_0 = false_graph_0 = None
        getitem: "f32[4, 8]" = cond[0];  cond = None
        return (getitem, primals_1, primals_2, gt)

    class true_graph_0(torch.nn.Module):
        def forward(self, arg0_1: "f32[4, 8]", arg1_1: "f32[4, 8]"):
            # File: /work/main/tests/data/fx-capture/capture.py:142 in t, code: return (a + b).sin()
            add: "f32[4, 8]" = torch.ops.aten.add.Tensor(arg0_1, arg1_1);  arg0_1 = arg1_1 = None
            sin: "f32[4, 8]" = torch.ops.aten.sin.default(add);  add = None
            return (sin,)

    class false_graph_0(torch.nn.Module):
        def forward(self, arg0_1: "f32[4, 8]", arg1_1: "f32[4, 8]"):
            # File: /work/main/tests/data/fx-capture/capture.py:145 in f, code: return (a - b).cos()
            sub: "f32[4, 8]" = torch.ops.aten.sub.Tensor(arg0_1, arg1_1);  arg0_1 = arg1_1 = None
            cos: "f32[4, 8]" = torch.ops.aten.cos.default(sub);  sub = None
            return (cos,)
