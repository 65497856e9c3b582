class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "i64[]", arg1_1: "f32[4]"):
        # File: /work/main/tests/data/fx-capture/capture.py:157 in while_fn, code: return while_loop(c, b, (i, x))
        while_loop_cond_graph_0 = self.while_loop_cond_graph_0
        while_loop_body_graph_0 = self.while_loop_body_graph_0
        while_loop = torch.ops.higher_order.while_loop(while_loop_cond_graph_0, while_loop_body_graph_0, (arg0_1, arg1_1), ());  while_loop_cond_graph_0 = while_loop_body_graph_0 = arg0_1 = arg1_1 = None
        getitem: "i64[]" = while_loop[0]
        getitem_1: "f32[4]" = while_loop[1];  while_loop = None
        return (getitem, getitem_1)

    class while_loop_cond_graph_0(torch.nn.Module):
        def forward(self, arg0_1: "i64[]", arg1_1: "f32[4]"):
            # File: /work/main/tests/data/fx-capture/capture.py:153 in c, code: return i < 3
            lt: "b8[]" = torch.ops.aten.lt.Scalar(arg0_1, 3);  arg0_1 = None
            return lt

    class while_loop_body_graph_0(torch.nn.Module):
        def forward(self, arg0_1: "i64[]", arg1_1: "f32[4]"):
            # File: /work/main/tests/data/fx-capture/capture.py:156 in b, code: return i + 1, x * 2 + 1
            add: "i64[]" = torch.ops.aten.add.Tensor(arg0_1, 1);  arg0_1 = None
            mul: "f32[4]" = torch.ops.aten.mul.Tensor(arg1_1, 2);  arg1_1 = None
            add_1: "f32[4]" = torch.ops.aten.add.Tensor(mul, 1);  mul = None
            return (add, add_1)
