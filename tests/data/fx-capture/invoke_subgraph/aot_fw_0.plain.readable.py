class GraphModule(torch.nn.Module):
    def forward(self, primals_1: "f32[4, 8]", primals_2: "f32[8, 8]"):
        # File: /work/main/tests/data/fx-capture/capture.py:165 in torch_dynamo_resume_in_invoke_fn_at_161, code: return layer(layer(x, w), w)
        partitioned_fw_subgraph_0_0 = self.partitioned_fw_subgraph_0_0
        invoke_subgraph_4 = torch.ops.higher_order.invoke_subgraph(partitioned_fw_subgraph_0_0, 'partitioned_fw_subgraph_0_0', primals_1, primals_2);  partitioned_fw_subgraph_0_0 = primals_1 = None
        getitem_10: "f32[4, 8]" = invoke_subgraph_4[3]
        getitem_9: "f32[8, 8]" = invoke_subgraph_4[2]
        getitem_8: "f32[4, 8]" = invoke_subgraph_4[1]
        getitem: "f32[4, 8]" = invoke_subgraph_4[0];  invoke_subgraph_4 = None
        partitioned_fw_subgraph_0_1 = self.partitioned_fw_subgraph_0_0
        invoke_subgraph_6 = torch.ops.higher_order.invoke_subgraph(partitioned_fw_subgraph_0_1, 'partitioned_fw_subgraph_0_0', getitem, primals_2);  partitioned_fw_subgraph_0_1 = getitem = primals_2 = None
        getitem_13: "f32[4, 8]" = invoke_subgraph_6[3]
        getitem_12: "f32[8, 8]" = invoke_subgraph_6[2]
        getitem_11: "f32[4, 8]" = invoke_subgraph_6[1]
        getitem_1: "f32[4, 8]" = invoke_subgraph_6[0];  invoke_subgraph_6 = None
        return (getitem_1, getitem_10, getitem_9, getitem_8, getitem_13, getitem_12, getitem_11)

    class partitioned_fw_subgraph_0_0(torch.nn.Module):
        def forward(self, primals_0: "f32[4, 8]", primals_1: "f32[8, 8]"):
            # File: /work/main/tests/data/fx-capture/capture.py:163 in layer, code: return torch.relu(a @ b) + 1
            mm: "f32[4, 8]" = torch.ops.aten.mm.default(primals_0, primals_1)
            relu: "f32[4, 8]" = torch.ops.aten.relu.default(mm);  mm = None
            detach: "f32[4, 8]" = torch.ops.aten.detach.default(relu)
            add: "f32[4, 8]" = torch.ops.aten.add.Tensor(relu, 1);  relu = None
            return (add, primals_0, primals_1, detach)
