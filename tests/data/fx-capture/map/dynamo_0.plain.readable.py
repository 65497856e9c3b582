class GraphModule(torch.nn.Module):
    def forward(self, L_xs_: "f32[3, 4]", L_y_: "f32[4]"):
        l_xs_ = L_xs_
        l_y_ = L_y_

        # File: /work/main/tests/data/fx-capture/capture.py:173 in map_fn, code: return hop_map(body, xs, y)
        map_body_0 = self.map_body_0
        map_impl = torch.ops.higher_order.map_impl(map_body_0, [l_xs_], [l_y_]);  map_body_0 = l_xs_ = l_y_ = None
        getitem: "f32[3, 4]" = map_impl[0];  map_impl = None
        return (getitem,)

    class map_body_0(torch.nn.Module):
        def forward(self, child: "f32[4]", l_y_: "f32[4]"):
            # File: /work/main/tests/data/fx-capture/capture.py:172 in body, code: return x.sin() + y
            sin: "f32[4]" = child.sin();  child = None
            add: "f32[4]" = sin + l_y_;  sin = l_y_ = None
            return (add,)
