class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[2, 8][8, 1]cuda:0"):
        # File: /work/main/tests/data/fx-capture/capture.py:250 in forward, code: return torch.cond(x.sum() > 0, lambda a: a.sin(), lambda a: a.cos(), (x,))
        sum_1: "f32[][]cuda:0" = torch.ops.aten.sum.default(x)
        gt: "b8[][]cuda:0" = torch.ops.aten.gt.Scalar(sum_1, 0);  sum_1 = None

        # File: <eval_with_key>.96:9 in forward, code: cond = torch.ops.higher_order.cond(l_args_0_, cond_true_0, cond_false_0, (l_args_3_0_,));  l_args_0_ = cond_true_0 = cond_false_0 = l_args_3_0_ = None
        true_graph_0 = self.true_graph_0
        false_graph_0 = self.false_graph_0
        cond = torch.ops.higher_order.cond(gt, true_graph_0, false_graph_0, (x,));  gt = true_graph_0 = false_graph_0 = x = None
        getitem: "f32[2, 8][8, 1]cuda:0" = cond[0];  cond = None
        return (getitem,)

    class true_graph_0(torch.nn.Module):
        def forward(self, x: "f32[2, 8][8, 1]cuda:0"):
            # File: <eval_with_key>.97:6 in forward, code: sin = l_args_3_0__1.sin();  l_args_3_0__1 = None
            sin: "f32[2, 8][8, 1]cuda:0" = torch.ops.aten.sin.default(x);  x = None
            return (sin,)

    class false_graph_0(torch.nn.Module):
        def forward(self, x: "f32[2, 8][8, 1]cuda:0"):
            # File: <eval_with_key>.98:6 in forward, code: cos = l_args_3_0__1.cos();  l_args_3_0__1 = None
            cos: "f32[2, 8][8, 1]cuda:0" = torch.ops.aten.cos.default(x);  x = None
            return (cos,)
