class GraphModule(torch.nn.Module):
    def forward(self, L_i_: "i64[]", L_x_: "f32[4]"):
        l_i_ = L_i_
        l_x_ = L_x_

        # File: /work/main/tests/data/fx-capture/capture.py:157 in while_fn, code: return while_loop(c, b, (i, x))
        cond_fn_0 = self.cond_fn_0
        body_fn_0 = self.body_fn_0
        while_loop = torch.ops.higher_order.while_loop(cond_fn_0, body_fn_0, (l_i_, l_x_), ());  cond_fn_0 = body_fn_0 = l_i_ = l_x_ = None
        getitem: "i64[]" = while_loop[0]
        getitem_1: "f32[4]" = while_loop[1];  while_loop = None
        return (getitem, getitem_1)

    class cond_fn_0(torch.nn.Module):
        def forward(self, child: "i64[]", child_1: "f32[4]"):
            # File: /work/main/tests/data/fx-capture/capture.py:153 in c, code: return i < 3
            lt: "b8[]" = child < 3;  child = None
            return lt

    class body_fn_0(torch.nn.Module):
        def forward(self, child_2: "i64[]", child_3: "f32[4]"):
            # File: /work/main/tests/data/fx-capture/capture.py:156 in b, code: return i + 1, x * 2 + 1
            child: "i64[]" = child_2 + 1;  child_2 = None
            mul: "f32[4]" = child_3 * 2;  child_3 = None
            child_4: "f32[4]" = mul + 1;  mul = None
            return (child, child_4)
