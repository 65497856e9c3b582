#!/usr/bin/env bash
# The core with every optional component off (cmake -DFXKIT_MINIMAL=ON: no nlohmann-json,
# readline, Graphviz, OpenCL, CLBlast, LLVM; the GPU machine's configuration without its extra
# packages). Not a ctest: that build has no GoogleTest, and tests/cli/*.sh run on the full one.
# setup.sh's test stage runs it on the minimal build: `tests/minimal/smoke.sh FXKIT tests/data`.
# What the core does works; what needs a missing component is refused with exit 2 and a message
# naming the component.
. "$(dirname "$0")/../cli/lib.bash"
G="$DATA/repl/small.graph.txt"

expect_exit 0 "$FXKIT" --help
expect_out "convert"
# Text formats in and out, and back: parse(print(g)) == g.
expect_exit 0 "$FXKIT" convert "$G" -o "$WORK/a.graph.txt"
expect_exit 0 "$FXKIT" convert "$WORK/a.graph.txt" -o "$WORK/b.graph.txt"
cmp -s "$WORK/a.graph.txt" "$WORK/b.graph.txt" || fail "FX text does not re-print identically"
expect_exit 0 "$FXKIT" convert "$G" --to fxpy -o "$WORK/a.py"
expect_exit 0 "$FXKIT" convert "$WORK/a.py" -o "$WORK/c.graph.txt"
expect_exit 0 "$FXKIT" convert "$G" --to dot -o "$WORK/a.dot"
grep -q "digraph" "$WORK/a.dot" || fail "no DOT graph written"
# The compiler and the two CPU executors.
expect_exit 0 "$FXKIT" run "$G" --backend interp
expect_out "out_0: f32[4, 8]"
expect_exit 0 "$FXKIT" run "$G" --backend loops --stats
expect_exit 0 "$FXKIT" fuse "$G" --explain
expect_out "fused_convert_element_type_mul_add_0"
expect_exit 0 "$FXKIT" compile "$G" --to wrapper-py -o "$WORK/w.py"
grep -q "def call" "$WORK/w.py" || fail "no wrapper written"
expect_exit 0 "$FXKIT" -c "load $G; info"
expect_out "nodes: 8"
# What needs a missing component: exit 2, the component named, no output.
expect_exit 2 "$FXKIT" convert "$G" --to json -o "$WORK/x.json"
expect_err "nlohmann-json"
expect_exit 2 "$FXKIT" convert "$G" --to svg -o "$WORK/x.svg"
expect_err "libgvc"
expect_exit 2 "$FXKIT" run "$G" --backend llvm
expect_err "LLVM"
expect_exit 2 "$FXKIT" compile "$G" --to ptx -o "$WORK/x.ptx"
expect_err "LLVM"
for f in x.json x.svg x.ptx; do [ -e "$WORK/$f" ] && fail "$f written by a refused command"; done
finish
