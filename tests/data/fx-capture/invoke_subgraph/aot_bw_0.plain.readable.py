class GraphModule(torch.nn.Module):
    def forward(self, getitem_10: "f32[4, 8]", getitem_9: "f32[8, 8]", getitem_8: "f32[4, 8]", getitem_13: "f32[4, 8]", getitem_12: "f32[8, 8]", getitem_11: "f32[4, 8]", tangents_1: "f32[4, 8]"):
        # File: /work/main/tests/data/fx-capture/capture.py:165 in torch_dynamo_resume_in_invoke_fn_at_161, code: return layer(layer(x, w), w)
        partitioned_bw_subgraph_0_1 = self.partitioned_bw_subgraph_0_0
        invoke_subgraph_7 = torch.ops.higher_order.invoke_subgraph(partitioned_bw_subgraph_0_1, 'partitioned_bw_subgraph_0_0', getitem_11, getitem_12, getitem_13, tangents_1);  partitioned_bw_subgraph_0_1 = getitem_11 = getitem_12 = getitem_13 = tangents_1 = None
        getitem_2: "f32[4, 8]" = invoke_subgraph_7[0]
        getitem_3: "f32[8, 8]" = invoke_subgraph_7[1];  invoke_subgraph_7 = None
        partitioned_bw_subgraph_0_0 = self.partitioned_bw_subgraph_0_0
        invoke_subgraph_5 = torch.ops.higher_order.invoke_subgraph(partitioned_bw_subgraph_0_0, 'partitioned_bw_subgraph_0_0', getitem_8, getitem_9, getitem_10, getitem_2);  partitioned_bw_subgraph_0_0 = getitem_8 = getitem_9 = getitem_10 = getitem_2 = None
        getitem_5: "f32[4, 8]" = invoke_subgraph_5[0]
        getitem_6: "f32[8, 8]" = invoke_subgraph_5[1];  invoke_subgraph_5 = None
        add: "f32[8, 8]" = torch.ops.aten.add.Tensor(getitem_3, getitem_6);  getitem_3 = getitem_6 = None
        return (getitem_5, add)

    class partitioned_bw_subgraph_0_0(torch.nn.Module):
        def forward(self, primals_0: "f32[4, 8]", primals_1: "f32[8, 8]", detach: "f32[4, 8]", tangents_0: "f32[4, 8]"):
            # File: /work/main/tests/data/fx-capture/capture.py:163 in layer, code: return torch.relu(a @ b) + 1
            detach_1: "f32[4, 8]" = torch.ops.aten.detach.default(detach);  detach = None
            threshold_backward: "f32[4, 8]" = torch.ops.aten.threshold_backward.default(tangents_0, detach_1, 0);  tangents_0 = detach_1 = None
            t: "f32[8, 4]" = torch.ops.aten.t.default(primals_0);  primals_0 = None
            mm_1: "f32[8, 8]" = torch.ops.aten.mm.default(t, threshold_backward);  t = None
            t_1: "f32[8, 8]" = torch.ops.aten.t.default(primals_1);  primals_1 = None
            mm_2: "f32[4, 8]" = torch.ops.aten.mm.default(threshold_backward, t_1);  threshold_backward = t_1 = None
            return (mm_2, mm_1)
