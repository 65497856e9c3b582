class Net(torch.nn.Module):
    def forward(self, x):
        # No stacktrace found for following nodes
        layers_0 = getattr(self.layers, "0")(x);  x = None
        relu = layers_0.relu();  layers_0 = None
        layers_1 = getattr(self.layers, "1")(relu);  relu = None
        scale = self.scale
        mul = layers_1 * scale;  layers_1 = scale = None
        softmax = mul.softmax(-1);  mul = None
        return softmax
