class GraphModule(torch.nn.Module):
    def forward(self, p_scale: "f32[4]", p_layers_0_weight: "f32[8, 8]", p_layers_0_bias: "f32[8]", p_layers_1_weight: "f32[4, 8]", p_layers_1_bias: "f32[4]", x: "f32[2, 8]"):
        # File: /opt/torch/.venv/lib/python3.12/site-packages/torch/nn/modules/linear.py:134 in forward, code: return F.linear(input, self.weight, self.bias)
        linear: "f32[2, 8]" = torch.ops.aten.linear.default(x, p_layers_0_weight, p_layers_0_bias);  x = p_layers_0_weight = p_layers_0_bias = None

        # File: /work/main/tests/data/fx-capture/capture.py:222 in forward, code: x = self.layers[0](x).relu()
        relu: "f32[2, 8]" = torch.ops.aten.relu.default(linear);  linear = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/torch/nn/modules/linear.py:134 in forward, code: return F.linear(input, self.weight, self.bias)
        linear_1: "f32[2, 4]" = torch.ops.aten.linear.default(relu, p_layers_1_weight, p_layers_1_bias);  relu = p_layers_1_weight = p_layers_1_bias = None

        # File: /work/main/tests/data/fx-capture/capture.py:223 in forward, code: x = self.layers[1](x) * self.scale
        mul: "f32[2, 4]" = torch.ops.aten.mul.Tensor(linear_1, p_scale);  linear_1 = p_scale = None

        # File: /work/main/tests/data/fx-capture/capture.py:224 in forward, code: return x.softmax(-1)
        softmax: "f32[2, 4]" = torch.ops.aten.softmax.int(mul, -1);  mul = None
        return (softmax,)
