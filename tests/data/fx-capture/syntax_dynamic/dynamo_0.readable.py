class GraphModule(torch.nn.Module):
    def forward(self, s77: "Sym(s77)", s27: "Sym(s27)", L_x_: "f32[s77, s27][s27, 1]cuda:0", L_y_: "f32[s27, s27][s27, 1]cuda:0", L_m_: "b8[s77, s27][s27, 1]cuda:0"):
        l_x_ = L_x_
        l_y_ = L_y_
        l_m_ = L_m_

        # File: /work/main/tests/data/fx-capture/capture.py:199 in syntax_fn, code: a = x[..., None, 1:] * 2
        getitem: "f32[s77, 1, s27 - 1][s27, s27, 1]cuda:0" = l_x_[(Ellipsis, None, slice(1, None, None))]
        a: "f32[s77, 1, s27 - 1][Max(1, s27 - 1), Max(1, s27 - 1), 1]cuda:0" = getitem * 2;  getitem = None

        # File: /work/main/tests/data/fx-capture/capture.py:200 in syntax_fn, code: b = a.reshape(n, -1)
        b: "f32[s77, s27 - 1][Max(1, s27 - 1), 1]cuda:0" = a.reshape(s77, -1);  a = None

        # File: /work/main/tests/data/fx-capture/capture.py:201 in syntax_fn, code: z = torch.zeros(3, dtype=torch.float16, device=torch.device(dev, 0) if dev == "cuda" else "cpu")
        z: "f16[3][1]cuda:0" = torch.zeros(3, dtype = torch.float16, device = device(type='cuda', index=0))

        # File: /work/main/tests/data/fx-capture/capture.py:202 in syntax_fn, code: c = (x @ y) ** 2 // 3 - -x.mean()
        matmul: "f32[s77, s27][s27, 1]cuda:0" = l_x_ @ l_y_;  l_y_ = None
        pow_1: "f32[s77, s27][s27, 1]cuda:0" = matmul ** 2;  matmul = None
        floordiv: "f32[s77, s27][s27, 1]cuda:0" = pow_1 // 3;  pow_1 = None
        mean: "f32[][]cuda:0" = l_x_.mean()
        neg: "f32[][]cuda:0" = -mean;  mean = None
        c: "f32[s77, s27][s27, 1]cuda:0" = floordiv - neg;  floordiv = neg = None

        # File: /work/main/tests/data/fx-capture/capture.py:203 in syntax_fn, code: d = torch.where(~m, c, float("-inf"))
        invert: "b8[s77, s27][s27, 1]cuda:0" = ~l_m_;  l_m_ = None
        d: "f32[s77, s27][s27, 1]cuda:0" = torch.where(invert, c, -inf);  invert = None

        # File: /work/main/tests/data/fx-capture/capture.py:204 in syntax_fn, code: e = x.to(torch.float64).sum(dim=-1, keepdim=True)
        to: "f64[s77, s27][s27, 1]cuda:0" = l_x_.to(torch.float64)
        e: "f64[s77, 1][1, 1]cuda:0" = to.sum(dim = -1, keepdim = True);  to = None

        # File: /work/main/tests/data/fx-capture/capture.py:205 in syntax_fn, code: f = torch.cat([b.flatten(), z.float()], dim=0)
        flatten: "f32[s77*(s27 - 1)][1]cuda:0" = b.flatten();  b = None
        float_1: "f32[3][1]cuda:0" = z.float();  z = None
        f: "f32[s77*(s27 - 1) + 3][1]cuda:0" = torch.cat([flatten, float_1], dim = 0);  flatten = float_1 = None

        # File: /work/main/tests/data/fx-capture/capture.py:206 in syntax_fn, code: g = F.gelu(c, approximate="tanh")
        g: "f32[s77, s27][s27, 1]cuda:0" = torch._C._nn.gelu(c, approximate = 'tanh');  c = None

        # File: /work/main/tests/data/fx-capture/capture.py:207 in syntax_fn, code: h = x.new_zeros(n, 2)
        h: "f32[s77, 2][2, 1]cuda:0" = l_x_.new_zeros(s77, 2)

        # File: /work/main/tests/data/fx-capture/capture.py:208 in syntax_fn, code: h[0] = 1.0
        h[0] = 1.0;  setitem = h;  setitem = None

        # File: /work/main/tests/data/fx-capture/capture.py:209 in syntax_fn, code: k = x.clone()
        k: "f32[s77, s27][s27, 1]cuda:0" = l_x_.clone()

        # File: /work/main/tests/data/fx-capture/capture.py:210 in syntax_fn, code: k += 1
        k += 1;  k_1: "f32[s77, s27][s27, 1]cuda:0" = k;  k = None

        # File: /work/main/tests/data/fx-capture/capture.py:211 in syntax_fn, code: parts = x.split(2, dim=1)
        split = l_x_.split(2, dim = 1)
        getitem_1: "f32[s77, 2][s27, 1]cuda:0" = split[0];  split = None

        # File: /work/main/tests/data/fx-capture/capture.py:212 in syntax_fn, code: return d, e, f, g, h, k, parts[0], x.shape[1] * n, x.T.contiguous()
        mul_1: "Sym(s27*s77)" = s27 * s77;  s27 = s77 = None
        getattr_1: "f32[s27, s77][1, s27]cuda:0" = l_x_.T;  l_x_ = None
        contiguous: "f32[s27, s77][s77, 1]cuda:0" = getattr_1.contiguous();  getattr_1 = None
        return (d, e, f, g, h, k_1, getitem_1, mul_1, contiguous)
