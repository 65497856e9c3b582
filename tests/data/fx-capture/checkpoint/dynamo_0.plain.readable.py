class GraphModule(torch.nn.Module):
    def forward(self, L_x_: "f32[4, 8]", L_w_: "f32[8, 8]"):
        l_x_ = L_x_
        l_w_ = L_w_

        # File: /work/main/tests/data/fx-capture/capture.py:136 in checkpointed, code: y = torch.utils.checkpoint.checkpoint(blk, x, use_reentrant=False)
        wrap_body_0 = self.wrap_body_0
        tag_activation_checkpoint = torch.ops.higher_order.tag_activation_checkpoint(wrap_body_0, l_x_, l_w_, use_reentrant = False);  wrap_body_0 = l_x_ = l_w_ = None
        y: "f32[4, 8]" = tag_activation_checkpoint[0];  tag_activation_checkpoint = None

        # File: /work/main/tests/data/fx-capture/capture.py:137 in checkpointed, code: return y.cos()
        cos: "f32[4, 8]" = y.cos();  y = None
        return (cos,)

    class wrap_body_0(torch.nn.Module):
        def forward(self, l_x_: "f32[4, 8]", l_w_: "f32[8, 8]"):
            # File: /work/main/tests/data/fx-capture/capture.py:135 in blk, code: return torch.relu(a @ w).sin()
            matmul: "f32[4, 8]" = l_x_ @ l_w_;  l_x_ = l_w_ = None
            relu: "f32[4, 8]" = torch.relu(matmul);  matmul = None
            sin: "f32[4, 8]" = relu.sin();  relu = None
            return (sin,)
