class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "f32[8, 16][16, 1]cpu", arg1_1: "i64[][]cpu"):
        # File: /opt/torch/.venv/lib/python3.12/site-packages/torch/utils/_device.py:116 in __torch_function__, code: return func(*args, **kwargs)
        gt: "b8[8, 16][16, 1]cpu" = torch.ops.aten.gt.Scalar(arg0_1, 0)
        sum_1: "i64[][]cpu" = torch.ops.aten.sum.default(gt);  gt = None
        _local_scalar_dense: "Sym(u0)" = torch.ops.aten._local_scalar_dense.default(sum_1);  sum_1 = None
        ge: "Sym(u0 >= 0)" = _local_scalar_dense >= 0
        _assert_scalar = torch.ops.aten._assert_scalar.default(ge, "Runtime assertion failed for expression u0 >= 0 on node 'ge_1'");  ge = _assert_scalar = None
        gt_1: "b8[8, 16][16, 1]cpu" = torch.ops.aten.gt.Scalar(arg0_1, 0.5)
        nonzero: "i64[u1, 2][1, u1]cpu" = torch.ops.aten.nonzero.default(gt_1);  gt_1 = None
        sym_size_int: "Sym(u1)" = torch.ops.aten.sym_size.int(nonzero, 0)
        ge_2: "Sym(u1 >= 0)" = sym_size_int >= 0
        _assert_scalar_1 = torch.ops.aten._assert_scalar.default(ge_2, "Runtime assertion failed for expression u1 >= 0 on node 'ge_2'");  ge_2 = _assert_scalar_1 = None
        le: "Sym(u1 <= 128)" = sym_size_int <= 128;  sym_size_int = None
        _assert_scalar_2 = torch.ops.aten._assert_scalar.default(le, "Runtime assertion failed for expression u1 <= 128 on node 'le_1'");  le = _assert_scalar_2 = None
        gt_2: "b8[8, 16][16, 1]cpu" = torch.ops.aten.gt.Scalar(arg0_1, 0)
        index: "f32[u2][1]cpu" = torch.ops.aten.index.Tensor(arg0_1, [gt_2]);  gt_2 = None
        sym_size_int_1: "Sym(u2)" = torch.ops.aten.sym_size.int(index, 0)
        ge_3: "Sym(u2 >= 0)" = sym_size_int_1 >= 0
        _assert_scalar_3 = torch.ops.aten._assert_scalar.default(ge_3, "Runtime assertion failed for expression u2 >= 0 on node 'ge_3'");  ge_3 = _assert_scalar_3 = None
        le_1: "Sym(u2 <= 128)" = sym_size_int_1 <= 128;  sym_size_int_1 = None
        _assert_scalar_4 = torch.ops.aten._assert_scalar.default(le_1, "Runtime assertion failed for expression u2 <= 128 on node 'le_2'");  le_1 = _assert_scalar_4 = None
        _local_scalar_dense_1: "Sym(u10)" = torch.ops.aten._local_scalar_dense.default(arg1_1);  arg1_1 = None
        convert_element_type: "f32[u1, 2][1, u1]cpu" = torch.ops.prims.convert_element_type.default(nonzero, torch.float32);  nonzero = None
        sum_2: "f32[2][1]cpu" = torch.ops.aten.sum.dim_IntList(convert_element_type, [0]);  convert_element_type = None
        mul_3: "f32[2][1]cpu" = torch.ops.aten.mul.Tensor(sum_2, _local_scalar_dense);  sum_2 = _local_scalar_dense = None
        sum_3: "f32[][]cpu" = torch.ops.aten.sum.default(index);  index = None
        slice_1: "f32[8, u10][16, 1]cpu" = torch.ops.aten.slice.Tensor(arg0_1, 1, 0, _local_scalar_dense_1);  arg0_1 = None
        sum_4: "f32[8][1]cpu" = torch.ops.aten.sum.dim_IntList(slice_1, [1]);  slice_1 = None
        add_10: "f32[8][1]cpu" = torch.ops.aten.add.Tensor(sum_4, _local_scalar_dense_1);  sum_4 = _local_scalar_dense_1 = None
        return (mul_3, sum_3, add_10)
