#!/usr/bin/env bash
# First contact (issue 21): `fxkit help [CMD]`, `fxkit repl --help`, did-you-mean for
# subcommands and options, `repl` in the subcommand list, lists in help and errors derived from
# the registries (input formats, output formats, shell commands), examples in every --help, and
# messages that say what is wrong.
. "$(dirname "$0")/lib.bash"
g="$DATA/repl/small.graph.txt"

# `repl --help` prints the shell's help (with the command table) and opens no shell.
expect_exit 0 "$FXKIT" repl --help </dev/null
expect_out "fxkit -c \"CMD; CMD\" [FILE...]"
expect_out "--keep-going"
grep -qE -- "^  load FILE \[as NAME\].* \[--force\]" "$WORK/out" || fail "repl --help lacks the load command's usage"
expect_out "replace-pattern PATTERN REPLACEMENT"
expect_exit 0 "$FXKIT" -c "help" --help
expect_out "--keep-going"
[ -s "$WORK/err" ] && fail "repl --help wrote to stderr: $(head -c 300 "$WORK/err")"
expect_exit 2 "$FXKIT" repl --keep-goin </dev/null
expect_err "unknown option '--keep-goin'; did you mean '--keep-going'?"

# `fxkit help`, `fxkit help CMD`; `repl` and `help` in the subcommand list.
expect_exit 0 "$FXKIT" help
for cmd in convert info run compile repl help; do
  grep -qE "^  $cmd( |$)" "$WORK/out" || fail "fxkit help does not list '$cmd'"
done
expect_exit 0 "$FXKIT" help convert
expect_out "Examples:"
expect_out "fxkit convert model.graph.txt -o model.json"
expect_exit 0 "$FXKIT" help repl
expect_out "--keep-going"
expect_exit 2 "$FXKIT" help conver
expect_err "no command named 'conver'; did you mean 'convert'?"

# Every subcommand's --help has an example, and every --from lists every input format.
formats="$("$FXKIT" convert --from nosuch "$g" 2>&1 | sed -n 's/.*(expected \(.*\))$/\1/p')"
[ -n "$formats" ] || fail "the unknown --from error lists no formats"
for cmd in convert info run devices passes ops plan fuse compile report; do
  expect_exit 0 "$FXKIT" "$cmd" --help
  expect_out "Example"
  if grep -q -- "--from" "$WORK/out"; then
    expect_out "$formats"
  fi
done
case "$formats" in *inductor-cpp*) ;; *) fail "input formats lack inductor-cpp: $formats" ;; esac
# The shell's help lists the same registries: input formats, passes, backends.
expect_exit 0 "$FXKIT" -c "help load; help pass; help run"
expect_out "Formats: $formats."
expect_out "Passes: dce, infer-shapes, "
expect_out "Backends: interp ("

# Did-you-mean for subcommands and options.
expect_exit 2 "$FXKIT" conver x
expect_err "unknown command 'conver'; did you mean 'convert'?"
expect_err "(commands: convert, info,"
expect_exit 2 "$FXKIT" convert "$g" --too json
expect_err "unknown option '--too'; did you mean '--to'?"

# A file whose format cannot be told: the hint lists every input format.
printf 'not a graph\n' >"$WORK/mystery.bin"
expect_exit 2 "$FXKIT" info "$WORK/mystery.bin"
expect_err "cannot tell the format of '$WORK/mystery.bin': use --from FORMAT ($formats)"

# --to lists every format convert offers (fxir included) when the name is unknown.
expect_exit 2 "$FXKIT" convert "$g" --to yaml
expect_err "unknown format 'yaml' for --to (expected "
expect_err "fxir"

# fxkit JSON with a string version says so.
"$FXKIT" convert "$g" --to json -o "$WORK/g.json" || fail "convert --to json failed"
sed 's/"version": 1/"version": "1"/' "$WORK/g.json" >"$WORK/s.json"
grep -q '"version": "1"' "$WORK/s.json" || fail "the test could not make a string version"
expect_exit 2 "$FXKIT" info "$WORK/s.json"
expect_err "'version' is \"1\", a string: expected the number 1"

# -o naming an existing folder (or ending in /) for one input says it is a folder.
mkdir -p "$WORK/outdir"
expect_exit 2 "$FXKIT" convert "$g" --to json -o "$WORK/outdir/"
expect_err "-o $WORK/outdir/ is a folder: name the output file"
expect_exit 2 "$FXKIT" convert "$g" --to json -o "$WORK/outdir"
expect_err "is a folder"
[ -z "$(ls "$WORK/outdir")" ] || fail "a refused convert wrote into the folder"

# The shell's errors carry one 'error:' each (why on a graph that cannot lower said it twice).
expect_exit 2 "$FXKIT" -c "help nosuch"
[ "$(grep -o 'error:' "$WORK/err" | wc -l)" -eq 1 ] || fail "two 'error:' in one message: $(cat "$WORK/err")"
printf 'graph():\n    %%x : Tensor "f32[4][1]cpu"[num_users=1] = placeholder[target=x]\n    %%a : [num_users=1] = call_function[target=torch.ops.aten.frob.default](args = (%%x,), kwargs = {})\n    return (a,)\n' >"$WORK/frob.graph.txt"
expect_exit 2 "$FXKIT" -c "load '$WORK/frob.graph.txt'; why a"
expect_err "error: cannot lower and fuse 'frob': "
[ "$(grep -o 'error:' "$WORK/err" | wc -l)" -eq 1 ] || fail "why: two 'error:' in one message: $(cat "$WORK/err")"

# Unknown ops are reported all at once, each with its node and where it is, not the first only.
printf 'graph():\n    %%x : Tensor "f32[4][1]cpu"[num_users=1] = placeholder[target=x]\n    %%a : [num_users=1] = call_function[target=torch.ops.aten.frob.default](args = (%%x,), kwargs = {})\n    %%b : [num_users=1] = call_function[target=torch.ops.aten.blah.default](args = (%%a,), kwargs = {})\n    return (b,)\n' >"$WORK/two.graph.txt"
expect_exit 2 "$FXKIT" run "$WORK/two.graph.txt"
expect_err "$WORK/two.graph.txt:3:47: node 'a': unknown op 'torch.ops.aten.frob.default'; $WORK/two.graph.txt:4:47: node 'b': unknown op 'torch.ops.aten.blah.default'"
finish
