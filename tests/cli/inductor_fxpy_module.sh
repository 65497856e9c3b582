#!/usr/bin/env bash
# `convert output_code.py --to fxpy`: Inductor's program as a runnable module (the original
# Triton kernels and the FX IR forward that launches them). Running it needs a GPU with PyTorch
# and Triton (tests/gpu/check_inductor_fxpy.py, results in tests/gpu/README.md); here every
# corpus file is converted and the module checked statically: valid Python, every kernel source
# identical to the original's, one launch per `.run(` of the original, side-table ids used.
. "$(dirname "$0")/lib.bash"
C="$DATA/corpus/inductor"

checked=0
for f in "$C"/*/output_code_*.py "$C"/*/debug/*/output_code.py; do
  name="$(echo "${f#"$C"/}" | tr '/' '_')"
  "$FXKIT" convert "$f" --to fxpy -o "$WORK/$name" 2>"$WORK/err" \
    || fail "$f: convert --to fxpy failed: $(cat "$WORK/err")"
  python3 - "$f" "$WORK/$name" <<'PY' || fail "$f: the module does not match the original"
import ast, re, sys
original, module = (open(p).read() for p in sys.argv[1:3])

def kernels(tree, callee):
    out = {}
    for node in tree.body:
        if (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)
                and ast.unparse(node.value.func) == callee):
            out[node.value.args[0].value] = node.value.args[1].value
    return out

mine = ast.parse(module)  # a syntax error fails here
want = kernels(ast.parse(original), "async_compile.triton")
got = kernels(mine, "_triton_kernel")
assert want == got, f"kernel sources differ: {sorted(want)} vs {sorted(got)}"
launches = len(re.findall(r"^\s+\w+\.run\(", original, re.M))
hops = module.count("torch.ops.higher_order.triton_kernel_wrapper_mutation(")
assert launches == hops, f"{hops} launches, the original has {launches}"
assert module.count("kernel_idx = _kernel_ids[") == hops, "literal kernel_idx"
assert "class GraphModule(torch.nn.Module):" in module and "def get_args():" in module
PY
  checked=$((checked + 1))
done
[ "$checked" = 30 ] || fail "expected 30 Triton wrapper files in the corpus, checked $checked"

# C++ kernels (cpu_output_code) have no FX IR launch form: fxpy is the plain wrapper graph.
expect_exit 0 "$FXKIT" convert "$C/softmax/cpu_output_code_0.py" --to fxpy
expect_out "= fxkit.kernel(name = 'cpp_fused__softmax_0'"

# A launch config the Triton heuristics emulation does not cover (a tiled reduction): the
# wrapper graph instead, and a note that says why.
sed "s/size_hints={'x': 4096, 'r0_': 1024}/size_hints={'y': 64, 'x': 64, 'r0_': 1024}/" \
  "$C/softmax/output_code_0.py" >"$WORK/tiled.py"
expect_exit 0 "$FXKIT" convert "$WORK/tiled.py" --to fxpy
expect_out "= fxkit.kernel(name = 'triton_per_fused__softmax_exp_prepare_softmax_online_sub_0'"
expect_err "fxkit: note: no runnable module (fxir: kernel 'triton_per_fused__softmax_exp_prepare_softmax_online_sub_0': tiled or multi-dimensional reductions"

# A corrupt wrapper: exit 2 and no module left behind.
head -c 3000 "$C/softmax/output_code_0.py" >"$WORK/cut.py"
expect_exit 2 "$FXKIT" convert "$WORK/cut.py" --to fxpy -o "$WORK/cut_module.py"
[ ! -e "$WORK/cut_module.py" ] || fail "a partial module was left behind"
finish
