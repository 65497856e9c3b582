class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[2, 8]"):
        # No stacktrace found for following nodes
        scale: "f32[4]" = self.scale
        submod_0 = self.submod_0(x);  x = None
        submod_1 = self.submod_1(submod_0, scale);  submod_0 = scale = None
        return submod_1

    class submod_0(torch.nn.Module):
        def forward(self, x: "f32[2, 8]"):
            # No stacktrace found for following nodes
            layers_0: "f32[2, 8]" = self.layers_0(x);  x = None
            relu: "f32[2, 8]" = layers_0.relu();  layers_0 = None
            return relu

    class submod_1(torch.nn.Module):
        def forward(self, relu: "f32[2, 8]", scale: "f32[4]"):
            # No stacktrace found for following nodes
            layers_1: "f32[2, 4]" = self.layers_1(relu);  relu = None
            mul: "f32[2, 4]" = layers_1 * scale;  layers_1 = scale = None
            softmax: "f32[2, 4]" = mul.softmax(-1);  mul = None
            return softmax
