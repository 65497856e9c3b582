class GraphModule(torch.nn.Module):
    def forward(self, L_x_: "f32[8, 16][16, 1]cuda:0", L_k_: "i64[][]cuda:0"):
        l_x_ = L_x_
        l_k_ = L_k_

        # File: /opt/torch/.venv/lib/python3.12/site-packages/torch/utils/_device.py:116 in __torch_function__, code: return func(*args, **kwargs)
        gt: "b8[8, 16][16, 1]cuda:0" = l_x_.gt(0)
        sum_1: "i64[][]cuda:0" = gt.sum();  gt = None
        item: "Sym(u0)" = sum_1.item();  sum_1 = None
        ge_1: "Sym(u0 >= 0)" = item >= 0
        _assert_scalar_default = torch.ops.aten._assert_scalar.default(ge_1, "Runtime assertion failed for expression u0 >= 0 on node 'ge_1'");  ge_1 = _assert_scalar_default = None

        # File: /work/main/out/cap/scripts/zoo_models.py:133 in f, code: torch._check_is_size(n)
        _check_is_size = torch._check_is_size(item);  _check_is_size = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/torch/utils/_device.py:116 in __torch_function__, code: return func(*args, **kwargs)
        gt_1: "b8[8, 16][16, 1]cuda:0" = l_x_.gt(0.5)
        nz: "i64[u1, 2][1, u1]cuda:0" = torch.nonzero(gt_1);  gt_1 = None
        sym_size_int: "Sym(u1)" = torch.ops.aten.sym_size.int(nz, 0)
        ge_2: "Sym(u1 >= 0)" = sym_size_int >= 0
        _assert_scalar_default_1 = torch.ops.aten._assert_scalar.default(ge_2, "Runtime assertion failed for expression u1 >= 0 on node 'ge_2'");  ge_2 = _assert_scalar_default_1 = None
        le_1: "Sym(u1 <= 128)" = sym_size_int <= 128;  sym_size_int = None
        _assert_scalar_default_2 = torch.ops.aten._assert_scalar.default(le_1, "Runtime assertion failed for expression u1 <= 128 on node 'le_1'");  le_1 = _assert_scalar_default_2 = None
        gt_2: "b8[8, 16][16, 1]cuda:0" = l_x_.gt(0)
        m: "f32[u2][1]cuda:0" = l_x_[gt_2];  gt_2 = None
        sym_size_int_1: "Sym(u2)" = torch.ops.aten.sym_size.int(m, 0)
        ge_3: "Sym(u2 >= 0)" = sym_size_int_1 >= 0
        _assert_scalar_default_3 = torch.ops.aten._assert_scalar.default(ge_3, "Runtime assertion failed for expression u2 >= 0 on node 'ge_3'");  ge_3 = _assert_scalar_default_3 = None
        le_2: "Sym(u2 <= 128)" = sym_size_int_1 <= 128;  sym_size_int_1 = None
        _assert_scalar_default_4 = torch.ops.aten._assert_scalar.default(le_2, "Runtime assertion failed for expression u2 <= 128 on node 'le_2'");  le_2 = _assert_scalar_default_4 = None
        item_1: "Sym(u3)" = l_k_.item();  l_k_ = None
        ge_4: "Sym(u3 >= 0)" = item_1 >= 0
        _assert_scalar_default_5 = torch.ops.aten._assert_scalar.default(ge_4, "Runtime assertion failed for expression u3 >= 0 on node 'ge_4'");  ge_4 = _assert_scalar_default_5 = None
        le_3: "Sym(u3 <= 16)" = item_1 <= 16
        _assert_scalar_default_6 = torch.ops.aten._assert_scalar.default(le_3, "Runtime assertion failed for expression u3 <= 16 on node 'le_3'");  le_3 = _assert_scalar_default_6 = None
        float_1: "f32[u1, 2][1, u1]cuda:0" = nz.float();  nz = None
        sum_2: "f32[2][1]cuda:0" = float_1.sum(0);  float_1 = None
        mul: "f32[2][1]cuda:0" = sum_2.mul(item);  sum_2 = item = None
        sum_3: "f32[][]cuda:0" = m.sum();  m = None
        getitem_1: "f32[8, u3][16, 1]cuda:0" = l_x_[(slice(None, None, None), slice(None, item_1, None))];  l_x_ = None
        sum_4: "f32[8][1]cuda:0" = getitem_1.sum(1);  getitem_1 = None
        add: "f32[8][1]cuda:0" = sum_4.add(item_1);  sum_4 = item_1 = None
        return (mul, sum_3, add)
