class GraphModule(torch.nn.Module):
    def forward(self, L_x_: "f32[4, 8]", L_w_: "f32[8, 8]"):
        l_x_ = L_x_
        l_w_ = L_w_

        # No stacktrace found for following nodes
        _enter_autocast = torch.amp.autocast_mode._enter_autocast('cuda', torch.float16, True, None)

        # File: /work/main/tests/data/fx-capture/capture.py:186 in autocast_fn, code: y = x @ w
        y: "f16[4, 8]" = l_x_ @ l_w_;  l_x_ = l_w_ = None

        # No stacktrace found for following nodes
        _exit_autocast = torch.amp.autocast_mode._exit_autocast(_enter_autocast);  _enter_autocast = _exit_autocast = None

        # File: /work/main/tests/data/fx-capture/capture.py:187 in autocast_fn, code: return y.float().relu()
        float_1: "f32[4, 8]" = y.float();  y = None
        relu: "f32[4, 8]" = float_1.relu();  float_1 = None
        return (relu,)
