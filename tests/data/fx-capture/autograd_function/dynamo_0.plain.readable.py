class GraphModule(torch.nn.Module):
    def forward(self, L_x_: "f32[4, 8]", L_w_: "f32[8, 16]"):
        l_x_ = L_x_
        l_w_ = L_w_

        # File: /work/main/tests/data/fx-capture/capture.py:130 in autograd_fn, code: return Gelu.apply(x @ w).sum(-1)
        arg: "f32[4, 16]" = l_x_ @ l_w_;  l_x_ = l_w_ = None
        fwd_body_0 = self.fwd_body_0
        bwd_body_0 = self.bwd_body_0
        autograd_function_apply = torch.ops.higher_order.autograd_function_apply(fwd_body_0, bwd_body_0, arg, non_differentiable_idx = [], saved_for_backward_idx = [0]);  fwd_body_0 = bwd_body_0 = arg = None
        getitem: "f32[4, 16]" = autograd_function_apply[0];  autograd_function_apply = None
        sum_1: "f32[4]" = getitem.sum(-1);  getitem = None
        return (sum_1,)

    class fwd_body_0(torch.nn.Module):
        def forward(self, matmul: "f32[4, 16]"):
            # No stacktrace found for following nodes
            _set_grad_enabled = torch._C._set_grad_enabled(False);  _set_grad_enabled = None

            # File: /work/main/tests/data/fx-capture/capture.py:120 in forward, code: return x * 0.5 * (1.0 + torch.tanh(0.79788456 * x * (1 + 0.044715 * x * x)))
            mul: "f32[4, 16]" = matmul * 0.5
            mul_1: "f32[4, 16]" = 0.79788456 * matmul
            mul_2: "f32[4, 16]" = 0.044715 * matmul
            mul_3: "f32[4, 16]" = mul_2 * matmul
            add: "f32[4, 16]" = 1 + mul_3
            mul_4: "f32[4, 16]" = mul_1 * add
            tanh: "f32[4, 16]" = torch.tanh(mul_4)
            add_1: "f32[4, 16]" = 1.0 + tanh
            outs: "f32[4, 16]" = mul * add_1

            # No stacktrace found for following nodes
            _set_grad_enabled_1 = torch._C._set_grad_enabled(True);  _set_grad_enabled_1 = None
            return ((outs, mul, mul_1, mul_2, mul_3, add, mul_4, tanh, add_1), (matmul,))

    class bwd_body_0(torch.nn.Module):
        def forward(self, g: "f32[4, 16]", unused_0, unused_1, unused_2, unused_3, unused_4, unused_5, unused_6, unused_7, arg: "f32[4, 16]"):
            # No stacktrace found for following nodes
            _set_grad_enabled = torch._C._set_grad_enabled(False);  _set_grad_enabled = None

            # File: /work/main/tests/data/fx-capture/capture.py:125 in backward, code: t = torch.tanh(0.79788456 * x * (1 + 0.044715 * x * x))
            mul: "f32[4, 16]" = 0.79788456 * arg
            mul_1: "f32[4, 16]" = 0.044715 * arg
            mul_2: "f32[4, 16]" = mul_1 * arg;  mul_1 = None
            add: "f32[4, 16]" = 1 + mul_2;  mul_2 = None
            mul_3: "f32[4, 16]" = mul * add;  mul = add = None
            t: "f32[4, 16]" = torch.tanh(mul_3);  mul_3 = None

            # File: /work/main/tests/data/fx-capture/capture.py:126 in backward, code: return g * (0.5 * (1 + t) + 0.5 * x * (1 - t * t) * 0.79788456 * (1 + 3 * 0.044715 * x * x))
            add_1: "f32[4, 16]" = 1 + t
            mul_4: "f32[4, 16]" = 0.5 * add_1;  add_1 = None
            mul_5: "f32[4, 16]" = 0.5 * arg
            mul_6: "f32[4, 16]" = t * t;  t = None
            sub: "f32[4, 16]" = 1 - mul_6;  mul_6 = None
            mul_7: "f32[4, 16]" = mul_5 * sub;  mul_5 = sub = None
            mul_8: "f32[4, 16]" = mul_7 * 0.79788456;  mul_7 = None
            mul_9: "f32[4, 16]" = 0.134145 * arg
            mul_10: "f32[4, 16]" = mul_9 * arg;  mul_9 = arg = None
            add_2: "f32[4, 16]" = 1 + mul_10;  mul_10 = None
            mul_11: "f32[4, 16]" = mul_8 * add_2;  mul_8 = add_2 = None
            add_3: "f32[4, 16]" = mul_4 + mul_11;  mul_4 = mul_11 = None
            mul_12: "f32[4, 16]" = g * add_3;  g = add_3 = None

            # No stacktrace found for following nodes
            _set_grad_enabled_1 = torch._C._set_grad_enabled(True);  _set_grad_enabled_1 = None
            return (mul_12,)
