class GraphModule(torch.nn.Module):
    def forward(self, L_x_: "f32[4, 8][8, 1]cuda:0", L_w_: "f32[8, 8][8, 1]cuda:0"):
        l_x_ = L_x_
        l_w_ = L_w_

        # File: /work/main/tests/data/fx-capture/capture.py:165 in torch_dynamo_resume_in_invoke_fn_at_161, code: return layer(layer(x, w), w)
        subgraph_0 = self.subgraph_0
        invoke_subgraph = torch.ops.higher_order.invoke_subgraph(subgraph_0, 'subgraph_0', l_x_, l_w_);  subgraph_0 = l_x_ = None
        getitem_6: "f32[4, 8][8, 1]cuda:0" = invoke_subgraph[0];  invoke_subgraph = None
        subgraph_1 = self.subgraph_0
        invoke_subgraph_1 = torch.ops.higher_order.invoke_subgraph(subgraph_1, 'subgraph_0', getitem_6, l_w_);  subgraph_1 = getitem_6 = l_w_ = None
        getitem_7: "f32[4, 8][8, 1]cuda:0" = invoke_subgraph_1[0];  invoke_subgraph_1 = None
        return (getitem_7,)

    class subgraph_0(torch.nn.Module):
        def forward(self, l_x_: "f32[4, 8][8, 1]cuda:0", l_w_: "f32[8, 8][8, 1]cuda:0"):
            # File: /work/main/tests/data/fx-capture/capture.py:163 in layer, code: return torch.relu(a @ b) + 1
            matmul: "f32[4, 8][8, 1]cuda:0" = l_x_ @ l_w_;  l_x_ = l_w_ = None
            relu: "f32[4, 8][8, 1]cuda:0" = torch.relu(matmul);  matmul = None
            add: "f32[4, 8][8, 1]cuda:0" = relu + 1;  relu = None
            return (add,)
