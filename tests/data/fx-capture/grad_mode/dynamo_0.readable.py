class GraphModule(torch.nn.Module):
    def forward(self, L_x_: "f32[4, 8][8, 1]cuda:0"):
        l_x_ = L_x_

        # No stacktrace found for following nodes
        _set_grad_enabled = torch._C._set_grad_enabled(False);  _set_grad_enabled = None

        # File: /work/main/tests/data/fx-capture/capture.py:192 in grad_mode_fn, code: y = x * 2
        y: "f32[4, 8][8, 1]cuda:0" = l_x_ * 2

        # No stacktrace found for following nodes
        _set_grad_enabled_1 = torch._C._set_grad_enabled(True);  _set_grad_enabled_1 = None

        # File: /work/main/tests/data/fx-capture/capture.py:193 in grad_mode_fn, code: return (x + y).sin()
        add: "f32[4, 8][8, 1]cuda:0" = l_x_ + y;  l_x_ = y = None
        sin: "f32[4, 8][8, 1]cuda:0" = add.sin();  add = None
        return (sin,)
