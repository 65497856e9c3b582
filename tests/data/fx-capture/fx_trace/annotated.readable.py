class annotated(torch.nn.Module):
    def forward(self, x : torch.Tensor, n : int = 3, *rest):
        _rest = rest

        # No stacktrace found for following nodes
        relu = torch.relu(x);  x = None
        mul = relu * n;  relu = n = None
        return mul
