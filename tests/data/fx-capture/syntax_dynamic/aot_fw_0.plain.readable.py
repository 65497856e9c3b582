class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "Sym(s77)", arg1_1: "Sym(s27)", arg2_1: "f32[s77, s27]", arg3_1: "f32[s27, s27]", arg4_1: "b8[s77, s27]"):
        # File: /work/main/tests/data/fx-capture/capture.py:199 in syntax_fn, code: a = x[..., None, 1:] * 2
        unsqueeze: "f32[s77, 1, s27]" = torch.ops.aten.unsqueeze.default(arg2_1, 1)
        slice_1: "f32[s77, 1, s27 - 1]" = torch.ops.aten.slice.Tensor(unsqueeze, 2, 1, 9223372036854775807);  unsqueeze = None
        mul_6: "f32[s77, 1, s27 - 1]" = torch.ops.aten.mul.Tensor(slice_1, 2);  slice_1 = None

        # File: /work/main/tests/data/fx-capture/capture.py:200 in syntax_fn, code: b = a.reshape(n, -1)
        view: "f32[s77, s27 - 1]" = torch.ops.aten.view.default(mul_6, [arg0_1, -1]);  mul_6 = None
        sym_size_int_3: "Sym(s27 - 1)" = torch.ops.aten.sym_size.int(view, 1)

        # File: /work/main/tests/data/fx-capture/capture.py:201 in syntax_fn, code: z = torch.zeros(3, dtype=torch.float16, device=torch.device(dev, 0) if dev == "cuda" else "cpu")
        zeros: "f16[3]" = torch.ops.aten.zeros.default([3], dtype = torch.float16, device = device(type='cuda', index=0), pin_memory = False)

        # File: /work/main/tests/data/fx-capture/capture.py:202 in syntax_fn, code: c = (x @ y) ** 2 // 3 - -x.mean()
        mm: "f32[s77, s27]" = torch.ops.aten.mm.default(arg2_1, arg3_1);  arg3_1 = None
        pow_1: "f32[s77, s27]" = torch.ops.aten.pow.Tensor_Scalar(mm, 2);  mm = None
        floor_divide: "f32[s77, s27]" = torch.ops.aten.floor_divide.default(pow_1, 3);  pow_1 = None
        mean: "f32[]" = torch.ops.aten.mean.default(arg2_1)
        neg: "f32[]" = torch.ops.aten.neg.default(mean);  mean = None
        sub_14: "f32[s77, s27]" = torch.ops.aten.sub.Tensor(floor_divide, neg);  floor_divide = neg = None

        # File: /work/main/tests/data/fx-capture/capture.py:203 in syntax_fn, code: d = torch.where(~m, c, float("-inf"))
        bitwise_not: "b8[s77, s27]" = torch.ops.aten.bitwise_not.default(arg4_1);  arg4_1 = None
        scalar_tensor: "f32[]" = torch.ops.aten.scalar_tensor.default(-inf, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0))
        where: "f32[s77, s27]" = torch.ops.aten.where.self(bitwise_not, sub_14, scalar_tensor);  bitwise_not = scalar_tensor = None

        # File: /work/main/tests/data/fx-capture/capture.py:204 in syntax_fn, code: e = x.to(torch.float64).sum(dim=-1, keepdim=True)
        _to_copy: "f64[s77, s27]" = torch.ops.aten._to_copy.default(arg2_1, dtype = torch.float64)
        sum_1: "f64[s77, 1]" = torch.ops.aten.sum.dim_IntList(_to_copy, [-1], True);  _to_copy = None

        # File: /work/main/tests/data/fx-capture/capture.py:205 in syntax_fn, code: f = torch.cat([b.flatten(), z.float()], dim=0)
        mul_29: "Sym(s77*(s27 - 1))" = arg0_1 * sym_size_int_3;  sym_size_int_3 = None
        view_1: "f32[s77*(s27 - 1)]" = torch.ops.aten.view.default(view, [mul_29]);  view = mul_29 = None
        _to_copy_1: "f32[3]" = torch.ops.aten._to_copy.default(zeros, dtype = torch.float32);  zeros = None
        cat: "f32[s77*(s27 - 1) + 3]" = torch.ops.aten.cat.default([view_1, _to_copy_1]);  view_1 = _to_copy_1 = None

        # File: /work/main/tests/data/fx-capture/capture.py:206 in syntax_fn, code: g = F.gelu(c, approximate="tanh")
        gelu: "f32[s77, s27]" = torch.ops.aten.gelu.default(sub_14, approximate = 'tanh');  sub_14 = None

        # File: /work/main/tests/data/fx-capture/capture.py:207 in syntax_fn, code: h = x.new_zeros(n, 2)
        new_zeros: "f32[s77, 2]" = torch.ops.aten.new_zeros.default(arg2_1, [arg0_1, 2], pin_memory = False)

        # File: /work/main/tests/data/fx-capture/capture.py:208 in syntax_fn, code: h[0] = 1.0
        _tensor_constant0: "f32[]" = self._tensor_constant0
        lift_fresh_copy: "f32[]" = torch.ops.aten.lift_fresh_copy.default(_tensor_constant0);  _tensor_constant0 = None
        select: "f32[2]" = torch.ops.aten.select.int(new_zeros, 0, 0)
        fill: "f32[2]" = torch.ops.aten.fill.Tensor(select, lift_fresh_copy);  select = lift_fresh_copy = None
        select_scatter: "f32[s77, 2]" = torch.ops.aten.select_scatter.default(new_zeros, fill, 0, 0);  new_zeros = fill = None

        # File: /work/main/tests/data/fx-capture/capture.py:209 in syntax_fn, code: k = x.clone()
        clone: "f32[s77, s27]" = torch.ops.aten.clone.default(arg2_1)

        # File: /work/main/tests/data/fx-capture/capture.py:210 in syntax_fn, code: k += 1
        add_55: "f32[s77, s27]" = torch.ops.aten.add.Tensor(clone, 1);  clone = None

        # File: /work/main/tests/data/fx-capture/capture.py:211 in syntax_fn, code: parts = x.split(2, dim=1)
        split = torch.ops.aten.split.Tensor(arg2_1, 2, 1)
        getitem: "f32[s77, 2]" = split[0];  split = None

        # File: /work/main/tests/data/fx-capture/capture.py:212 in syntax_fn, code: return d, e, f, g, h, k, parts[0], x.shape[1] * n, x.T.contiguous()
        mul_49: "Sym(s27*s77)" = arg1_1 * arg0_1;  arg1_1 = arg0_1 = None
        permute: "f32[s27, s77]" = torch.ops.aten.permute.default(arg2_1, [1, 0]);  arg2_1 = None
        clone_1: "f32[s27, s77]" = torch.ops.aten.clone.default(permute, memory_format = torch.contiguous_format);  permute = None
        return (where, sum_1, cat, gelu, select_scatter, add_55, getitem, mul_49, clone_1)
