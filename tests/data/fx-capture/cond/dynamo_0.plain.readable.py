class GraphModule(torch.nn.Module):
    def forward(self, L_x_: "f32[4, 8]", L_y_: "f32[4, 8]"):
        l_x_ = L_x_
        l_y_ = L_y_

        # File: /work/main/tests/data/fx-capture/capture.py:146 in cond_fn, code: return torch.cond(x.sum() > 0, t, f, (x, y))
        sum_1: "f32[]" = l_x_.sum()
        gt: "b8[]" = sum_1 > 0;  sum_1 = None
        cond_true_0 = self.cond_true_0
        cond_false_0 = self.cond_false_0
        cond = torch.ops.higher_order.cond(gt, cond_true_0, cond_false_0, (l_x_, l_y_));  gt = cond_true_0 = cond_false_0 = l_x_ = l_y_ = None
        getitem: "f32[4, 8]" = cond[0];  cond = None
        return (getitem,)

    class cond_true_0(torch.nn.Module):
        def forward(self, l_x_: "f32[4, 8]", l_y_: "f32[4, 8]"):
            l_x__1 = l_x_
            l_y__1 = l_y_

            # File: /work/main/tests/data/fx-capture/capture.py:142 in t, code: return (a + b).sin()
            add: "f32[4, 8]" = l_x__1 + l_y__1;  l_x__1 = l_y__1 = None
            sin: "f32[4, 8]" = add.sin();  add = None
            return (sin,)

    class cond_false_0(torch.nn.Module):
        def forward(self, l_x_: "f32[4, 8]", l_y_: "f32[4, 8]"):
            l_x__1 = l_x_
            l_y__1 = l_y_

            # File: /work/main/tests/data/fx-capture/capture.py:145 in f, code: return (a - b).cos()
            sub: "f32[4, 8]" = l_x__1 - l_y__1;  l_x__1 = l_y__1 = None
            cos: "f32[4, 8]" = sub.cos();  sub = None
            return (cos,)
