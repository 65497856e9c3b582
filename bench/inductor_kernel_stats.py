#!/usr/bin/env python3
"""Inductor's own per-workload Triton kernel statistics, read from its wrapper code.

Each ``<corpus>/<workload>/output_code_<i>.py`` (Inductor's Python wrapper: Triton kernel sources
plus a ``call(args)`` function) is parsed with ``ast``, never executed, and gives:

* ``kernels_defined``: distinct ``name = async_compile.triton('name', '''src''', ...)``;
  ``kernel_calls``: ``kernel.run(...)`` launches in ``call``; ``extern_calls``: calls of
  ``extern_kernels.<op>`` (comments are not calls); ``fallback_calls``: direct ``torch.ops.*``.
* ``bytes_read`` / ``bytes_written``: traffic of the Triton kernels, summed over launches. Launch
  arguments map positionally onto the kernel's ``def`` parameters (checked against
  ``triton_meta['signature']``): ``in_ptr*`` is read, ``out_ptr*`` written, ``in_out_ptr*`` both.
  A pointer moves its tensor's storage extent, ``1 + sum((size-1)*stride)`` elements (offset not
  added) times the itemsize, where the tensor is an ``empty_strided_cuda`` allocation, a
  ``reinterpret_tensor`` view (base's dtype) or a graph input (``assert_size_stride``; dtype from
  ``get_args()``, else float32); extern/fallback results take the layout asserted after them and
  the dtype of the kernel signature. A tensor passed twice to one launch counts once. This is the
  model of fxkit's fusion comparison: each launch moves each whole operand once.
  ``bytes_read_loaded`` counts only the pointers the kernel source ``tl.load``s: Inductor often
  passes a reused buffer as ``in_out_ptr`` and only stores to it (listed as ``read_not_loaded``).

Dynamic shapes: symbols bound from integer arguments (``s77 = arg0_1``) all take
``--symbol-value`` (4099); derived sizes (``ks0 = ...``, ``*_xnumel = ...``) follow from their
definitions. Totals are also given at the ``get_args()`` sizes (``*_reference``) and as a
polynomial (``*_symbolic``; left out where floor division or modulo appears).

Any statement of ``call`` not of these forms is an error naming file:line, never skipped.
``meta.json`` (triton_kernel_defs, extern_calls, compiled_peak_bytes) is reported alongside, and
disagreements are listed under ``mismatches``.
"""
import argparse
import ast
import itertools
import json
import operator
import os
import re
import sys

ITEMSIZE = {'float64': 8, 'float32': 4, 'float16': 2, 'bfloat16': 2, 'int64': 8, 'int32': 4,
            'int16': 2, 'int8': 1, 'uint8': 1, 'bool': 1}
SIG_ITEMSIZE = {'fp64': 8, 'fp32': 4, 'fp16': 2, 'bf16': 2, 'i64': 8, 'i32': 4, 'i16': 2,
                'i8': 1, 'u8': 1, 'i1': 1}
SOURCE = ('computed by bench/inductor_kernel_stats.py from tests/data/corpus/inductor '
          'output_code files (PyTorch 2.11.0+cu130, Triton 3.6, NVIDIA H100)')


class WrapperError(Exception):
    pass


class NotPolynomial(Exception):
    pass


class Poly(dict):
    """Integer polynomial in size symbols: {sorted tuple of symbols: coefficient}."""
    @staticmethod
    def of(x):
        return x if isinstance(x, Poly) else Poly({(): x})

    def __add__(self, o):
        t = Poly(self)
        for k, v in Poly.of(o).items():
            t[k] = t.get(k, 0) + v
        return t

    def __mul__(self, o):
        t = Poly()
        for (k1, v1), (k2, v2) in itertools.product(self.items(), Poly.of(o).items()):
            t[tuple(sorted(k1 + k2))] = t.get(tuple(sorted(k1 + k2)), 0) + v1 * v2
        return t

    def __floordiv__(self, o):
        raise NotPolynomial('floor division / modulo')
    __radd__, __rmul__ = __add__, __mul__
    __rfloordiv__ = __mod__ = __rmod__ = __floordiv__
    __neg__ = lambda self: self * -1
    __sub__ = lambda self, o: self + Poly.of(o) * -1
    __rsub__ = lambda self, o: Poly.of(o) + self * -1

    def __str__(self):
        terms = [('- ' if v < 0 else '+ ')
                 + '*'.join(([str(abs(v))] if abs(v) != 1 or not k else []) + list(k))
                 for k, v in sorted(self.items(), key=lambda kv: (-len(kv[0]), kv[0])) if v]
        return ' '.join(terms).lstrip('+ ') or '0'


class Tensor:
    def __init__(self, root, dtype, sizes=None, strides=None, offset=0):
        self.root, self.dtype = root, dtype
        self.sizes, self.strides, self.offset = sizes, strides, offset

    def elements(self):
        if any(s == 0 for s in self.sizes if isinstance(s, int)):
            return 0
        return 1 + sum((s - 1) * st for s, st in zip(self.sizes, self.strides))


class Kernel:
    """A Triton kernel: its runtime (non-constexpr) parameters and signature types."""
    def __init__(self, name, src, where):
        fn = next((n for n in ast.walk(ast.parse(src)) if isinstance(n, ast.FunctionDef)
                   and n.name == name), None)
        if fn is None:
            raise WrapperError(f'{where}\n  -> no `def {name}(...)` in its Triton source')
        self.params = [a.arg for a in fn.args.args
                       if 'constexpr' not in ast.unparse(a.annotation or ast.Constant(''))]
        self.sig = {}
        for kw in (kw for d in fn.decorator_list for kw in getattr(d, 'keywords', [])):
            if kw.arg == 'triton_meta' and isinstance(kw.value, ast.Dict):
                for k, v in zip(kw.value.keys, kw.value.values):
                    if isinstance(k, ast.Constant) and k.value == 'signature':
                        self.sig = ast.literal_eval(v)
        self.loaded = set(re.findall(r'tl\.(?:load|make_block_ptr)\(\s*(?:base=)?(\w+)', src))
        sig_params = [p for p, t in self.sig.items() if t != 'constexpr']
        if self.sig and sig_params != self.params:
            raise WrapperError(f'{where}\n  -> def params {self.params} != signature {sig_params}')


def call_name(node):
    return ast.unparse(node.func) if isinstance(node, ast.Call) else None


class Graph:
    """One output_code_<i>.py; `symbol(name, arg)` gives the value of a size symbol."""
    def __init__(self, path, symbol):
        self.path, self.symbol = path, symbol
        with open(path) as f:
            self.lines = f.read().splitlines()
        self.mod = ast.parse('\n'.join(self.lines), path)
        self.kernels, self.defs, self.input_dtype, self.int_args = {}, 0, {}, {}
        for node in self.mod.body:
            if isinstance(node, ast.Assign) and call_name(node.value) == 'async_compile.triton':
                name, src = (a.value for a in node.value.args[:2])
                self.kernels[name] = Kernel(name, src, self.where(node))
                self.defs += 1
            if isinstance(node, ast.FunctionDef) and node.name == 'get_args':
                for st in (s for s in node.body if isinstance(s, ast.Assign)):
                    name, v = st.targets[0].id, st.value
                    if isinstance(v, ast.Constant) and isinstance(v.value, int):
                        self.int_args[name] = v.value
                    self.input_dtype.update({name: kw.value.attr for kw in getattr(v, 'keywords', [])
                                             if kw.arg == 'dtype'})
        self.sizes, self.tensors, self.symbols, self.results = {}, {}, {}, set()
        self.launches, self.extern_calls, self.fallback_calls = [], 0, 0

    def where(self, node):
        return f'{self.path}:{node.lineno}: {self.lines[node.lineno - 1].strip()[:160]}'

    def fail(self, node, msg):
        raise WrapperError(f'{self.where(node)}\n  -> {msg}')

    def ev(self, node):
        """Evaluate a size expression (ints, size names, + - * // %, tuples)."""
        ops = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
               ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod}
        if isinstance(node, ast.Constant) and type(node.value) is int:
            return node.value
        if isinstance(node, ast.Name) and node.id in self.sizes:
            return self.sizes[node.id]
        if isinstance(node, ast.Tuple):
            return tuple(self.ev(e) for e in node.elts)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -self.ev(node.operand)
        if isinstance(node, ast.BinOp) and type(node.op) in ops:
            return ops[type(node.op)](self.ev(node.left), self.ev(node.right))
        raise WrapperError(f'cannot evaluate size expression `{ast.unparse(node)}`')

    def tensor(self, node):
        if isinstance(node, ast.Name) and node.id in self.tensors:
            return self.tensors[node.id]
        if call_name(node) == 'reinterpret_tensor':
            base = self.tensor(node.args[0])
            return Tensor(base.root, base.dtype, *(self.ev(a) for a in node.args[1:4]))
        raise WrapperError(f'`{ast.unparse(node)}` is not a known tensor')

    def run(self):
        fns = [n for n in ast.walk(self.mod) if isinstance(n, ast.FunctionDef) and n.name == 'call']
        if len(fns) != 1:
            raise WrapperError(f'{self.path}: expected one call() function, found {len(fns)}')
        self.block(fns[0].body)
        return self

    def block(self, body):
        for st in body:
            try:
                self.statement(st)
            except (WrapperError, AttributeError, IndexError, KeyError, TypeError, ValueError) as e:
                if isinstance(e, WrapperError) and str(e).startswith(self.path):
                    raise
                self.fail(st, str(e) or type(e).__name__)

    def statement(self, st):
        if isinstance(st, (ast.Delete, ast.Return)):
            return
        if isinstance(st, ast.With):
            if not ast.unparse(st.items[0].context_expr).startswith('torch.cuda._DeviceGuard'):
                self.fail(st, 'unknown `with` context')
            return self.block(st.body)
        if isinstance(st, ast.Expr) and isinstance(st.value, ast.Call):
            return self.expr_call(st, st.value, call_name(st.value))
        if not (isinstance(st, ast.Assign) and len(st.targets) == 1):
            self.fail(st, 'unrecognised statement in call()')
        tgt, v, fname = st.targets[0], st.value, call_name(st.value)
        if isinstance(tgt, ast.Tuple) and isinstance(v, ast.Name) and v.id == 'args':
            return                                    # primals_1, ... = args
        if not isinstance(tgt, ast.Name):
            self.fail(st, 'unrecognised assignment target')
        name = tgt.id
        if fname == 'empty_strided_cuda':
            if v.args[2].attr not in ITEMSIZE:
                self.fail(st, f'unknown dtype {v.args[2].attr}')
            self.tensors[name] = Tensor(name, v.args[2].attr, self.ev(v.args[0]), self.ev(v.args[1]))
        elif fname == 'reinterpret_tensor':
            self.tensors[name] = self.tensor(v)
        elif isinstance(v, ast.Name) and v.id in self.tensors:        # bufN = bufM  # reuse
            self.tensors[name] = self.tensors[v.id]
        elif isinstance(v, ast.Name) and (v.id in self.int_args or re.fullmatch(r's\d+', name)):
            self.sizes[name] = self.symbol(name, v.id)                 # s77 = arg0_1
            self.symbols[name] = {'arg': v.id, 'reference': self.int_args.get(v.id)}
        elif fname == 'get_raw_stream':
            pass
        elif fname and fname.startswith('extern_kernels.'):
            self.extern_calls += 1
            self.tensors[name] = Tensor(name, None)   # layout: the assert_size_stride after it
        elif fname and fname.startswith('torch.ops.'):
            self.fallback_calls += 1
            self.results.add(name)                    # a tuple of results, used as bufN = bufM[i]
        elif isinstance(v, ast.Subscript) and getattr(v.value, 'id', None) in self.results:
            self.tensors[name] = Tensor(name, None)
        elif fname is None:
            self.sizes[name] = self.ev(v)             # ks0 = s17*s77, kernel_xnumel = ...
        else:
            self.fail(st, f'unrecognised call {fname}')

    def expr_call(self, st, c, fname):
        if fname in ('args.clear', 'torch.cuda.set_device', 'assert_alignment'):
            return
        if fname == 'assert_size_stride':
            name = c.args[0].id
            t = self.tensors.get(name)
            if t is None:                              # a graph input
                t = self.tensors[name] = Tensor(name, self.input_dtype.get(name, 'float32'))
            t.sizes, t.strides = self.ev(c.args[1]), self.ev(c.args[2])
        elif fname and fname.startswith('extern_kernels.'):
            self.extern_calls += 1
        elif fname and fname.endswith('.run') and isinstance(c.func.value, ast.Name):
            self.launch(st, c, c.func.value.id)
        else:
            self.fail(st, f'unrecognised call {fname}')

    def launch(self, st, c, kname):
        k = self.kernels.get(kname) or self.fail(st, f'kernel {kname} is not defined in this file')
        if [kw.arg for kw in c.keywords] != ['stream'] or len(c.args) != len(k.params):
            self.fail(st, f'{len(c.args)} args for {len(k.params)} params {k.params}')
        reads, writes, loaded = {}, {}, set()
        for p, a in zip(k.params, c.args):
            ptype = k.sig.get(p, '*' if 'ptr' in p else 'i')
            if not ptype.startswith('*'):
                self.ev(a)                             # a size argument: must be understood
                continue
            if not re.fullmatch(r'(in_out|in|out)_ptr\d+', p):
                self.fail(st, f'pointer parameter {p} is not in_ptr*, out_ptr* or in_out_ptr*')
            t = self.tensor(a)
            if t.sizes is None:
                self.fail(st, f'layout of {ast.unparse(a)} unknown (no assert_size_stride)')
            itemsize = ITEMSIZE[t.dtype] if t.dtype else SIG_ITEMSIZE[ptype[1:]]
            if SIG_ITEMSIZE.get(ptype[1:], itemsize) != itemsize:
                self.fail(st, f'{ast.unparse(a)} is {t.dtype} but {p} is {ptype}')
            key = (t.root, str(t.offset), str(t.sizes), str(t.strides))
            entry = (ast.unparse(a), t.elements() * itemsize)
            if not p.startswith('out_'):
                reads.setdefault(key, entry)
                loaded |= {key} if p in k.loaded else set()
            if not p.startswith('in_ptr'):
                writes.setdefault(key, entry)
        self.launches.append({'kernel': kname, 'line': st.lineno, 'read': list(reads.values()),
                              'written': list(writes.values()),
                              'read_not_loaded': [n for key, (n, _) in reads.items()
                                                  if key not in loaded]})

    def totals(self):
        return {'bytes_read': sum(b for l in self.launches for _, b in l['read']),
                'bytes_written': sum(b for l in self.launches for _, b in l['written']),
                'bytes_read_loaded': sum(b for l in self.launches for n, b in l['read']
                                         if n not in l['read_not_loaded'])}


def with_totals(d):
    """Add bytes_total[_reference|_symbolic] and print polynomials as strings."""
    for sfx in ('', '_reference', '_symbolic'):
        if f'bytes_read{sfx}' in d:
            d[f'bytes_total{sfx}'] = d[f'bytes_read{sfx}'] + d[f'bytes_written{sfx}']
    return {k: str(v) if k.endswith('_symbolic') else v for k, v in d.items()}


def analyse(path, symbol_value):
    g = Graph(path, lambda name, arg: symbol_value).run()
    out = {'file': os.path.basename(path), 'kernels_defined': len(g.kernels),
           'kernel_definitions': g.defs, 'kernel_calls': len(g.launches),
           'distinct_kernels_called': len({l['kernel'] for l in g.launches}),
           'extern_calls': g.extern_calls, 'fallback_calls': g.fallback_calls,
           'extern_kernels_mentions': sum(l.count('extern_kernels.') for l in g.lines), **g.totals()}
    if g.symbols:
        out['symbols'] = g.symbols
        if all(s['reference'] is not None for s in g.symbols.values()):
            ref = Graph(path, lambda name, arg: g.int_args[arg]).run().totals()
            out.update({k + '_reference': v for k, v in ref.items()})
        try:
            sym = Graph(path, lambda name, arg: Poly({(name,): 1})).run().totals()
            out.update({k + '_symbolic': Poly.of(v) for k, v in sym.items()})
        except NotPolynomial:
            pass
    return out, g.launches


def workload(wdir, symbol_value):
    files = sorted((f for f in os.listdir(wdir) if re.fullmatch(r'output_code_\d+\.py', f)),
                   key=lambda f: int(re.findall(r'\d+', f)[0]))
    graphs = [analyse(os.path.join(wdir, f), symbol_value) for f in files]
    keys = [k for k in (graphs[0][0] if graphs else {})
            if k not in ('file', 'symbols', 'distinct_kernels_called')
            and all(k in g for g, _ in graphs)]
    total = with_totals({k: sum(g[k] for g, _ in graphs) for k in keys})
    meta, mismatches = {}, []
    if os.path.exists(os.path.join(wdir, 'meta.json')):
        with open(os.path.join(wdir, 'meta.json')) as f:
            m = json.load(f)
        meta = {k: m.get(k) for k in ('n_output_codes', 'triton_kernel_defs', 'extern_calls',
                                      'compiled_peak_bytes', 'compiled_ms', 'eager_ms')}
        for ours, theirs in [('kernels_defined', 'triton_kernel_defs'), ('extern_calls',) * 2]:
            if total.get(ours) != meta[theirs]:
                why = (" (meta.json counts the text 'extern_kernels.', provenance comments included)"
                       if ours == 'extern_calls' and total.get('extern_kernels_mentions') == meta[theirs]
                       else '')
                mismatches.append(f'{ours}={total.get(ours)} but meta.json {theirs}={meta[theirs]}{why}')
        if meta['n_output_codes'] != len(files):
            mismatches.append(f"{len(files)} output_code files, "
                              f"meta.json n_output_codes={meta['n_output_codes']}")
    return {'graphs': [{**with_totals(g), 'launches': l} for g, l in graphs], 'total': total,
            'meta': meta, 'mismatches': mismatches}


def markdown(res):
    rows = ['| workload | Inductor kernels (defined / launches) | Inductor kernel bytes read '
            '| written | total |', '|---|---|---:|---:|---:|']
    for w, r in res['workloads'].items():
        t = r['total']
        note = (f' (every size symbol = {res["symbol_value"]}; at get_args() sizes: '
                f'{t["bytes_total_reference"]:,})' if 'bytes_total_reference' in t else '')
        rows.append(f'| {w} | {t["kernels_defined"]} / {t["kernel_calls"]} | {t["bytes_read"]:,} '
                    f'| {t["bytes_written"]:,} | {t["bytes_total"]:,}{note} |')
    return '\n'.join(rows)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('corpus', nargs='?', default=os.path.join(here, '..', 'tests/data/corpus/inductor'))
    ap.add_argument('-o', '--output', help='write the JSON here instead of stdout')
    ap.add_argument('--markdown', action='store_true', help='print the per-workload table')
    ap.add_argument('--symbol-value', type=int, default=4099, help='value of every size symbol')
    a = ap.parse_args()
    res = {'source': SOURCE, 'symbol_value': a.symbol_value, 'workloads': {}}
    try:
        for w in sorted(os.listdir(a.corpus)):
            if os.path.isdir(os.path.join(a.corpus, w)):
                res['workloads'][w] = workload(os.path.join(a.corpus, w), a.symbol_value)
    except WrapperError as e:
        sys.exit(f'error: {e}')
    if a.output:
        with open(a.output, 'w') as f:
            f.write(json.dumps(res, indent=1) + '\n')
    if a.markdown or not a.output:
        print(markdown(res) if a.markdown else json.dumps(res, indent=1))


if __name__ == '__main__':
    main()
