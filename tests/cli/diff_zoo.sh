#!/usr/bin/env bash
# `fxkit diff` over the whole zoo (../shared/zoo; skipped where absent), issue 22's acceptance:
#  1. aten_pre_K against aten_post_K of every model folder that has both: every one finishes and
#     pairs at least 99% of the post-grad call nodes (measured: 100% of every one, 24 pairs of
#     graphs; the decompositions, addmm -> mm + add and softmax's prepare_softmax_online, as
#     regions);
#  2. Inductor's wrapper (output_code.py, its debug folder's provenance attached) against the
#     post-grad graph it computes (fx_graph_transformed.py of the same folder), for every debug
#     folder with a provenance file: at least 80% of the post-grad call nodes paired (measured
#     84.0% to 100%, 23 folders; llama_train's backward has no provenance file);
#  3. the FX IR of Inductor's wrapper (fxir_0.graph.txt, or `convert output_code_0.py --to fxir`
#     where PyTorch's converter failed) against fxkit's own (`compile aten_post_0 --to fxir`), for
#     every model: values followed through the buffers launches write; every graph input paired
#     and at least 70% of the kernel launches and extern calls of each side (measured 73% to
#     100%: the two compilers fuse differently; allocations differ by design, one pool in
#     fxkit's, so they are not counted).
. "$(dirname "$0")/lib.bash"
ZOO="$DATA/../../../shared/zoo/inductor"
if [ ! -d "$ZOO" ]; then
  echo "note: $ZOO absent: skipped"
  finish
  exit 0
fi
F="$FXKIT"
# "A of B (P%)" after "call nodes paired:" -> the second side's paired and total counts.
second_side() { sed -n 's/.*call nodes paired: [0-9]* of [0-9]* ([0-9.]*%) and \([0-9]*\) of \([0-9]*\) .*/\1 \2/p' "$WORK/out"; }

# 1. Pre-grad against post-grad ATen graphs.
pairs=0
for d in "$ZOO"/*/; do
  for pre in "$d"aten_pre_*.graph.txt; do
    post="${pre/aten_pre_/aten_post_}"
    [ -f "$post" ] || continue
    "$F" diff "$pre" "$post" >"$WORK/out" 2>"$WORK/err"
    rc=$?
    [ "$rc" -le 1 ] || { fail "diff $pre: exit $rc: $(head -c 300 "$WORK/err")"; continue; }
    read -r paired total < <(second_side)
    echo "pre/post $(basename "$d") $(basename "$pre" .graph.txt): $paired of $total post-grad call nodes paired"
    [ $((paired * 100)) -ge $((total * 99)) ] || fail "$pre: only $paired of $total paired"
    pairs=$((pairs + 1))
  done
done
[ "$pairs" -eq 24 ] || fail "expected 24 pre/post pairs of graphs, diffed $pairs"

# 2. Kernel calls against post-grad nodes, through Inductor's provenance.
folders=0
for dbg in "$ZOO"/*/debug/*/; do
  [ -f "$dbg/inductor_provenance_tracking_node_mappings.json" ] || continue
  "$F" diff "$dbg/output_code.py" "$dbg/fx_graph_transformed.py" >"$WORK/out" 2>"$WORK/err"
  rc=$?
  [ "$rc" -le 1 ] || { fail "diff $dbg: exit $rc: $(head -c 300 "$WORK/err")"; continue; }
  read -r paired total < <(second_side)
  kernels=$(grep -c '(provenance)' "$WORK/out")
  echo "kernels/post-grad ${dbg#"$ZOO"/}: $paired of $total post-grad call nodes paired"
  [ $((paired * 100)) -ge $((total * 80)) ] || fail "$dbg: only $paired of $total paired"
  grep -q "provenance [1-9]" "$WORK/out" || fail "$dbg: no pair by provenance"
  folders=$((folders + 1))
done
[ "$folders" -eq 23 ] || fail "expected 23 debug folders with provenance, diffed $folders"

# 3. Inductor's wrapper FX IR against fxkit's.
models=0
for d in "$ZOO"/*/; do
  m=$(basename "$d")
  ind="$d/fxir_0.graph.txt"
  if [ ! -f "$ind" ]; then
    ind="$WORK/$m.inductor.fxir.txt"
    "$F" convert "$d/output_code_0.py" --to fxir -o "$ind" 2>"$WORK/err" ||
      { fail "$m: convert --to fxir: $(head -c 300 "$WORK/err")"; continue; }
  fi
  "$F" compile "$d/aten_post_0.graph.txt" --to fxir -o "$WORK/$m.fxkit.fxir.txt" 2>"$WORK/err" ||
    { fail "$m: compile --to fxir: $(head -c 300 "$WORK/err")"; continue; }
  "$F" diff "$ind" "$WORK/$m.fxkit.fxir.txt" --json >"$WORK/json" 2>"$WORK/err"
  rc=$?
  [ "$rc" -le 1 ] || { fail "$m: fxir diff: exit $rc: $(head -c 300 "$WORK/err")"; continue; }
  "$F" diff "$ind" "$WORK/$m.fxkit.fxir.txt" >"$WORK/out" 2>/dev/null
  grep -q "^- %[a-z_0-9]* = placeholder\|^- %[a-z_0-9]* : .* = placeholder" "$WORK/out" &&
    fail "$m: a graph input of Inductor's wrapper is unpaired"
  launch='call_function\[target=torch\.ops\.(higher_order\.triton_kernel_wrapper_mutation|aten\.[a-z_0-9]*\.out)\]'
  la=$(grep -cE "$launch" "$ind")
  lb=$(grep -cE "$launch" "$WORK/$m.fxkit.fxir.txt")
  ua=$(grep -cE "^- %.*$launch" "$WORK/out")
  ub=$(grep -cE "^\+ %.*$launch" "$WORK/out")
  echo "fxir $m: launches and extern calls paired: Inductor $((la - ua)) of $la, fxkit $((lb - ub)) of $lb"
  [ $(((la - ua) * 100)) -ge $((la * 70)) ] && [ $(((lb - ub) * 100)) -ge $((lb * 70)) ] ||
    fail "$m: too few launches paired"
  models=$((models + 1))
done
[ "$models" -eq 12 ] || fail "expected 12 zoo models, diffed the wrappers of $models"
finish
