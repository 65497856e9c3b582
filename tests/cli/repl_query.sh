#!/usr/bin/env bash
# The REPL's query language (issue 21): ancestors, descendants, path, slice, match with inline
# patterns, let/set variables used by later commands, extract into a graph that verifies and
# exports, print_tabular, did-you-mean for node and op names, elided long lists and --full,
# `pass dce` naming what it removed. Results on stdout, status lines on stderr.
. "$(dirname "$0")/lib.bash"
g="$DATA/repl/small.graph.txt"
many="$DATA/repl/many_outputs.graph.txt"

# expect_stdout TEXT: stdout is exactly TEXT.
expect_stdout() {
  printf '%s\n' "$1" >"$WORK/want"
  diff -u "$WORK/want" "$WORK/out" >"$WORK/diff" || fail "stdout differs: $(cat "$WORK/diff")"
}

# Transitive ancestors and descendants, in graph order; --depth 1 is the direct neighbours.
expect_exit 0 "$FXKIT" -c "ancestors add_1" "$g"
expect_stdout '%x = placeholder : f32[4, 8][8, 1]cpu
%y = placeholder : f16[4, 8][8, 1]cpu
%mul = torch.ops.aten.mul.Tensor : f32[4, 8][8, 1]cpu
%convert = torch.ops.prims.convert_element_type.default : f32[4, 8][8, 1]cpu
%add = torch.ops.aten.add.Tensor : f32[4, 8][8, 1]cpu'
expect_err "5 ancestors of add_1"
expect_exit 0 "$FXKIT" -c "ancestors add_1 --depth 1" "$g"
expect_stdout '%convert = torch.ops.prims.convert_element_type.default : f32[4, 8][8, 1]cpu
%add = torch.ops.aten.add.Tensor : f32[4, 8][8, 1]cpu'
expect_exit 0 "$FXKIT" -c "descendants mul" "$g"
expect_stdout '%add = torch.ops.aten.add.Tensor : f32[4, 8][8, 1]cpu
%relu = torch.ops.aten.relu.default : f32[4, 8][8, 1]cpu
%add_1 = torch.ops.aten.add.Tensor : f32[4, 8][8, 1]cpu
%output = output'
expect_err "4 descendants of mul"

# Paths: one shortest, or all of them; the wrong direction says which way the data flows.
expect_exit 0 "$FXKIT" -c "path x add_1" "$g"
expect_stdout '%x = placeholder : f32[4, 8][8, 1]cpu
%add = torch.ops.aten.add.Tensor : f32[4, 8][8, 1]cpu
%add_1 = torch.ops.aten.add.Tensor : f32[4, 8][8, 1]cpu'
expect_err "a shortest path from x to add_1: 2 edges"
expect_exit 0 "$FXKIT" -c "path x add_1 --all" "$g"
expect_stdout 'x -> mul -> add -> add_1
x -> add -> add_1'
expect_err "2 paths from x to add_1"
expect_exit 0 "$FXKIT" -c "path x add_1 --all --limit 1" "$g"
expect_stdout 'x -> mul -> add -> add_1'
expect_err "1 path from x to add_1 (the first 1; --limit N for more)"
expect_exit 0 "$FXKIT" -c "path add_1 x" "$g"
expect_stdout '(no data path from add_1 to x)'
expect_err "hint: add_1 depends on x: try 'path x add_1'"

# Slices: what computes a node, what it feeds.
expect_exit 0 "$FXKIT" -c "slice --backward add" "$g"
expect_stdout '%x = placeholder : f32[4, 8][8, 1]cpu
%mul = torch.ops.aten.mul.Tensor : f32[4, 8][8, 1]cpu
%add = torch.ops.aten.add.Tensor : f32[4, 8][8, 1]cpu'
expect_err "backward slice of add: 3 nodes"
expect_exit 0 "$FXKIT" -c "slice --forward convert" "$g"
expect_stdout '%convert = torch.ops.prims.convert_element_type.default : f32[4, 8][8, 1]cpu
%add_1 = torch.ops.aten.add.Tensor : f32[4, 8][8, 1]cpu
%output = output'

# Variables: let keeps a query's nodes, every node-taking command accepts $NAME, set lists them.
expect_exit 0 "$FXKIT" -c "let a = ancestors add_1; set; find op=aten.add.Tensor \$a; users \$a; show \$a" "$g"
expect_stdout '$a = 5 nodes of small: x, y, mul, convert, add
%add = torch.ops.aten.add.Tensor : f32[4, 8][8, 1]cpu
%mul = torch.ops.aten.mul.Tensor : f32[4, 8][8, 1]cpu
%convert = torch.ops.prims.convert_element_type.default : f32[4, 8][8, 1]cpu
%add = torch.ops.aten.add.Tensor : f32[4, 8][8, 1]cpu
%relu = torch.ops.aten.relu.default : f32[4, 8][8, 1]cpu
%add_1 = torch.ops.aten.add.Tensor : f32[4, 8][8, 1]cpu
%x : Tensor "f32[4, 8][8, 1]cpu"[num_users=2] = placeholder[target=x]
%y : Tensor "f16[4, 8][8, 1]cpu"[num_users=1] = placeholder[target=y]
%mul : Tensor "f32[4, 8][8, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%x, %x), kwargs = {})
%convert : Tensor "f32[4, 8][8, 1]cpu"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%y, torch.float32), kwargs = {})
%add : Tensor "f32[4, 8][8, 1]cpu"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul, %x), kwargs = {})'
expect_err '$a = 5 nodes of small'
expect_err "1 of 5 nodes match"
expect_exit 0 "$FXKIT" -c "let m = find op=aten.mul.Tensor; let d = descendants \$m; let u = \$m \$d; set u" "$g"
expect_stdout 'mul
add
relu
add_1
output'
# A variable outlives edits that keep its nodes, and says so when they are gone.
expect_exit 2 "$FXKIT" -c "let r = find name=relu; erase relu; show \$r" "$g"
expect_err "error: '\$r': 1 of its 1 nodes are no longer in 'small' (first: relu); run its 'let' again"
expect_exit 2 "$FXKIT" -c "let a = find name=x; show \$zzz" "$g"
expect_err "error: no variable '\$zzz' (define one with 'let NAME = find ...'; 'set' lists them)"
expect_exit 2 "$FXKIT" -c "let abc = find name=x; show \$abd" "$g"
expect_err "error: no variable '\$abd' (did you mean '\$abc'?)"
expect_exit 2 "$FXKIT" -c "let a = rename x z" "$g"
expect_err "error: let: 'rename' does not answer with nodes (queries: find, users, inputs, ancestors, descendants, path, slice, match, kernel-of, computes)"

# Inline FX patterns, Python or FX text; find terms filter the roots.
expect_exit 0 "$FXKIT" -c "match 'm = aten.mul.Tensor(a, a); aten.add.Tensor(m, a)'" "$g"
expect_stdout '%add = torch.ops.aten.add.Tensor : f32[4, 8][8, 1]cpu  {a=x}'
expect_err "1 match (2 nodes)"
expect_exit 0 "$FXKIT" -c "match 'aten.add.Tensor(a, b)'; match 'aten.add.Tensor(a, b)' users=1" "$g"
expect_stdout '%add = torch.ops.aten.add.Tensor : f32[4, 8][8, 1]cpu  {a=mul, b=x}
%add_1 = torch.ops.aten.add.Tensor : f32[4, 8][8, 1]cpu  {a=add, b=convert}
%add_1 = torch.ops.aten.add.Tensor : f32[4, 8][8, 1]cpu  {a=add, b=convert}'
expect_exit 0 "$FXKIT" -c "match '%r = call_function[target=torch.ops.aten.relu.default](args = (%a,), kwargs = {})'" "$g"
expect_stdout '%relu = torch.ops.aten.relu.default : f32[4, 8][8, 1]cpu  {a=add}'
expect_exit 0 "$FXKIT" -c "let sq = match 'm = aten.mul.Tensor(a, a); aten.add.Tensor(m, a)'; set sq" "$g"
expect_stdout 'mul
add'
expect_exit 0 "$FXKIT" -c "match 'aten.sub.Tensor(a, b)'" "$g"
expect_stdout '(no match)'

# extract: a new graph with placeholders typed as the originals; it verifies and exports.
expect_exit 0 "$FXKIT" -c "let a = ancestors add_1; extract \$a as part; verify; export fx; list" "$g"
expect_err "extracted part: 6 nodes (2 inputs, 2 outputs) from small; current graph: part"
expect_out "ok: part verifies"
expect_out '    return (convert, add)'
expect_out '* part: 6 nodes'
expect_exit 0 "$FXKIT" -c "extract relu add_1; export $WORK/part.json; show" "$g"
expect_err "extracted small_extract: 5 nodes (2 inputs, 2 outputs) from small"
expect_out '%add : Tensor "f32[4, 8][8, 1]cpu"[num_users=2] = placeholder[target=add]'
expect_out '%convert : Tensor "f32[4, 8][8, 1]cpu"[num_users=1] = placeholder[target=convert]'
expect_out '    return (relu, add_1)'
expect_exit 0 "$FXKIT" info "$WORK/part.json"
expect_exit 2 "$FXKIT" -c "extract output" "$g"
expect_err "nothing to extract"

# print_tabular: torch.fx's columns.
expect_exit 0 "$FXKIT" -c "print_tabular" "$g"
expect_stdout "opcode         name     target                              args                kwargs
-------------  -------  ----------------------------------  ------------------  ------
placeholder    x        x                                   ()                  {}
placeholder    y        y                                   ()                  {}
call_function  mul      aten.mul.Tensor                     (x, x)              {}
call_function  convert  prims.convert_element_type.default  (y, torch.float32)  {}
call_function  add      aten.add.Tensor                     (mul, x)            {}
call_function  relu     aten.relu.default                   (add,)              {}
call_function  add_1    aten.add.Tensor                     (add, convert)      {}
output         output   output                              ((add_1,),)         {}"

# Did-you-mean: node names, op names.
expect_exit 2 "$FXKIT" -c "users ad_1" "$g"
expect_err "error: no node named 'ad_1' in graph 'small' (did you mean 'add_1'?)"
expect_exit 0 "$FXKIT" -c "find op=mul" "$g"
expect_err "0 of 8 nodes match"
expect_err "hint: op=mul names no op of this graph; did you mean 'aten.mul.Tensor'?"
expect_exit 0 "$FXKIT" -c "find op=sub" "$g"
expect_err "hint: op=sub names no op of this graph, nor one close to it; in the op table: did you mean 'aten.sub."
expect_exit 0 "$FXKIT" -c "find name=reluu" "$g"
expect_err "hint: name=reluu: did you mean 'relu'?"
expect_exit 2 "$FXKIT" -c "help ancestor" "$g"
expect_err "error: no command named 'ancestor' (did you mean 'ancestors'? try 'help')"
expect_exit 2 "$FXKIT" -c "pass dcee" "$g"
expect_err "error: unknown pass 'dcee' (did you mean 'dce'? passes: dce, "

# The output node's long lists elided, --full prints them whole.
expect_exit 0 "$FXKIT" -c "show output; users n3" "$many"
expect_stdout 'return (n0, n1, n2, n3, n4, n5, n6, n7, ... 12 more)
type: unknown
%output = output'
expect_exit 0 "$FXKIT" -c "show output --full" "$many"
expect_out 'return (n0, n1, n2, n3, n4, n5, n6, n7, n8, n9, n10, n11, n12, n13, n14, n15, n16, n17, n18, n19)'
expect_exit 0 "$FXKIT" -c "print_tabular output" "$many"
expect_out 'output  output  output  ((n0, n1, n2, n3, n4, n5, n6, n7, ... 12 more),)  {}'

# pass dce says what it removed; export infers the format from the file's extension.
expect_exit 0 "$FXKIT" -c "pass dce; export $WORK/small.json" "$g"
expect_err "dce removed 1 node: relu"
expect_err "wrote $WORK/small.json (json)"
head -c 1 "$WORK/small.json" | grep -q '{' || fail "export small.json wrote no JSON"

# load --from names the reader when the file's name does not.
cp "$g" "$WORK/small.dat"
expect_exit 0 "$FXKIT" -c "load $WORK/small.dat --from fx; ancestors relu"
expect_err "loaded small: 8 nodes from $WORK/small.dat"
expect_out "%mul = torch.ops.aten.mul.Tensor"
expect_exit 2 "$FXKIT" -c "load $WORK/small.dat --from yaml"
expect_err "error: unknown input format 'yaml' (formats: fx, fxpy, json"

# On a terminal (readline under a pseudo-terminal), a find term and a $variable complete as
# one word: readline's own word breaks would split them at '=' and '$'.
python3 - "$FXKIT" "$g" <<'EOF' || fail "completion under a pseudo-terminal"
import os, pty, re, select, sys, time
fxkit, graph = sys.argv[1:3]
env = dict(os.environ, FXKIT_HISTORY="", TERM="dumb", INPUTRC="/dev/null")
pid, fd = pty.fork()
if pid == 0:
    os.execve(fxkit, [fxkit, "repl", graph], env)
buf = b""
def expect(pattern, timeout=30):
    global buf
    end = time.time() + timeout
    while time.time() < end:
        m = re.search(pattern, buf)
        if m:
            buf = buf[m.end():]
            return
        if select.select([fd], [], [], 0.1)[0]:
            try:
                buf += os.read(fd, 65536)
            except OSError:
                break
    print(f"FAIL: timed out waiting for {pattern!r}; got {buf[-300:]!r}", file=sys.stderr)
    os.kill(pid, 9)
    sys.exit(1)
expect(rb"fxkit:small> ")
os.write(fd, b"let q = find op=aten.mul.Tens\t")
expect(rb"op=aten\.mul\.Tensor ")
os.write(fd, b"\n")
expect(rb"fxkit:small> ")
os.write(fd, b"show $\t")
expect(rb"\$q ")
os.write(fd, b"\n")
expect(rb"%mul : Tensor")
os.write(fd, b"quit\n")
os.waitpid(pid, 0)
EOF
finish
