class GraphModule(torch.nn.Module):
    def forward(self, primals_1: "f32[4, 8]", primals_2: "f32[8, 8]"):
        # ac_graph_id: 2 - PREFER_RECOMPUTE File: /work/main/tests/data/fx-capture/capture.py:135 in blk, code: return torch.relu(a @ w).sin()
        mm: "f32[4, 8]" = torch.ops.aten.mm.default(primals_1, primals_2)
        relu: "f32[4, 8]" = torch.ops.aten.relu.default(mm);  mm = None
        sin: "f32[4, 8]" = torch.ops.aten.sin.default(relu);  relu = None

        # File: /work/main/tests/data/fx-capture/capture.py:137 in checkpointed, code: return y.cos()
        cos: "f32[4, 8]" = torch.ops.aten.cos.default(sin);  sin = None
        return (cos, primals_1, primals_2)
