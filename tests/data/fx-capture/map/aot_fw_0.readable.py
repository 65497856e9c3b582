class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "f32[3, 4][4, 1]cuda:0", arg1_1: "f32[4][1]cuda:0"):
        # File: /work/main/tests/data/fx-capture/capture.py:173 in map_fn, code: return hop_map(body, xs, y)
        body_graph_0 = self.body_graph_0
        map_impl = torch.ops.higher_order.map_impl(body_graph_0, [arg0_1], [arg1_1]);  body_graph_0 = arg0_1 = arg1_1 = None
        getitem: "f32[3, 4][4, 1]cuda:0" = map_impl[0];  map_impl = None
        return (getitem,)

    class body_graph_0(torch.nn.Module):
        def forward(self, arg0_1: "f32[4][1]cuda:0", arg1_1: "f32[4][1]cuda:0"):
            # File: /work/main/tests/data/fx-capture/capture.py:172 in body, code: return x.sin() + y
            sin: "f32[4][1]cuda:0" = torch.ops.aten.sin.default(arg0_1);  arg0_1 = None
            add: "f32[4][1]cuda:0" = torch.ops.aten.add.Tensor(sin, arg1_1);  sin = arg1_1 = None
            return (add,)
