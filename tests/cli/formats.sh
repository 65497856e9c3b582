#!/usr/bin/env bash
# The output-format table (repl/OutputFormats.h): `--help` of convert and compile, the
# "unknown format" errors of convert, batch convert, compile and the shell, `export FILE` by
# extension, and one picture path (`export dot` = `render` = `compile --to dot` on a compiled graph).
. "$(dirname "$0")/lib.bash"
G="$DATA/corpus/reference/softmax/fw_0.graph.txt"
expect_exit 0 "$FXKIT" convert --help
expect_out "Output format: fx, fxpy, json, pt2 (the graph); dot, svg, png, pdf (its picture; of a compiled program, its kernels); model-explorer (the graph as Google Model Explorer's graph JSON); fxir, fxir-code (the wrapper program as PyTorch's FX IR: of Inductor's wrapper code or a compiled graph) (default: from the output name)"
expect_out "Input format: fx, fxpy, json, pt2, inductor-py, inductor-cpp or inductor-ir (default: from name/content)"
expect_exit 0 "$FXKIT" compile --help
expect_out "Output format: fx, fxpy, json, pt2 (the graph); dot, svg, png, pdf (its picture; of a compiled program, its kernels); model-explorer (the graph as Google Model Explorer's graph JSON); fxir, fxir-code (the wrapper program as PyTorch's FX IR: of Inductor's wrapper code or a compiled graph); wrapper-py (the compiled program as a Python wrapper); wrapper-cpp (the compiled program as a C++ wrapper, a folder); opencl (its kernels as OpenCL C; a folder unless -o names a .cl); ptx (its kernels as PTX, a folder); timeline (the memory plan as SVG)"
# Unknown formats: every list comes from the table (fxir included).
expect_exit 2 "$FXKIT" convert "$G" --to yaml
[ "$(cat "$WORK/err")" = "fxkit: error: unknown format 'yaml' for --to (expected fx, fxpy, json, pt2, dot, svg, png, pdf, model-explorer, fxir or fxir-code)" ] || fail "convert --to yaml: $(cat "$WORK/err")"
expect_exit 2 "$FXKIT" convert "$G" --to wrapper-py
expect_err "unknown format 'wrapper-py' for --to (expected fx, fxpy, json, pt2, dot, svg, png, pdf, model-explorer, fxir or fxir-code)"
expect_exit 2 "$FXKIT" compile "$G" --to yaml
[ "$(cat "$WORK/err")" = "fxkit: error: unknown format 'yaml' for --to (expected fx, fxpy, json, pt2, dot, svg, png, pdf, model-explorer, fxir, fxir-code, wrapper-py, wrapper-cpp, opencl, ptx or timeline)" ] || fail "compile --to yaml: $(cat "$WORK/err")"
mkdir -p "$WORK/in"
cp "$G" "$WORK/in/a.graph.txt"; cp "$DATA/corpus/reference/mlp/fw_0.graph.txt" "$WORK/in/b.graph.txt"
expect_exit 2 "$FXKIT" convert "$WORK/in/a.graph.txt" "$WORK/in/b.graph.txt" -o "$WORK/batch" --to yaml
expect_err "unknown format 'yaml' for --to (expected fx, fxpy, json, pt2, dot, svg, png, pdf, model-explorer, fxir or fxir-code)"
expect_exit 2 "$FXKIT" convert "$WORK/in/a.graph.txt" "$WORK/in/b.graph.txt" -o "$WORK/batch" --to fxir
expect_err "--to fxir converts one wrapper file at a time"
expect_exit 2 "$FXKIT" convert "$G" --from svg --to fx
expect_err "svg is an output format only (read fx, fxpy, json, pt2, inductor-py, inductor-cpp or inductor-ir)"
expect_exit 2 "$FXKIT" -c "load $G; export gif"
expect_err "error: unknown format 'gif' (expected fx, fxpy, json, pt2, dot, svg, png, pdf, model-explorer, fxir, fxir-code, wrapper-py, opencl or timeline)"
# compile -o X.cl: the format from the extension.
expect_exit 0 "$FXKIT" compile "$G" -o "$WORK/k.cl"
grep -q "__kernel" "$WORK/k.cl" || fail "compile -o k.cl wrote no OpenCL C"
# export FILE: the format from the extension; the JSON reads back as the same graph.
expect_exit 0 "$FXKIT" -c "load $G; export $WORK/s.json"
expect_err "wrote $WORK/s.json (json)"
expect_exit 0 "$FXKIT" convert "$WORK/s.json" --to fx -o "$WORK/back.graph.txt"
expect_exit 0 "$FXKIT" convert "$G" --to fx -o "$WORK/orig.graph.txt"
cmp -s "$WORK/back.graph.txt" "$WORK/orig.graph.txt" || fail "export s.json did not read back as the graph"
# One picture path: a compiled graph is drawn as its kernels by export, render and compile.
expect_exit 0 "$FXKIT" -c "load $G; pass lower; pass fuse; export dot"
cp "$WORK/out" "$WORK/export.dot" # the lines of load and the two passes are on stderr
grep -q 'subgraph "cluster_k' "$WORK/export.dot" || fail "export dot of a compiled graph has no kernels"
expect_exit 0 "$FXKIT" -c "load $G; pass lower; pass fuse; render"
cmp -s "$WORK/out" "$WORK/export.dot" || fail "render and export dot draw a compiled graph differently"
expect_exit 0 "$FXKIT" compile "$G" --passes lower,fuse --to dot
cmp -s "$WORK/out" "$WORK/export.dot" || fail "compile --to dot and export dot differ"
expect_exit 2 "$FXKIT" -c "load $G; render $WORK/x.gif"
expect_err "cannot render 'gif' pictures (formats: dot, svg, png, pdf)"
finish
