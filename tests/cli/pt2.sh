#!/usr/bin/env bash
# torch.export archives (tests/data/pt2, PyTorch 2.11's own): every one reads to the graph
# PyTorch printed (str(ep.graph)), runs with its weights on the eager inputs and gives the eager
# outputs, and writes back to an archive that reads to the same graph; bad archives exit 2.
. "$(dirname "$0")/lib.bash"
P="$DATA/pt2"

count=0
for a in "$P"/*.pt2; do
  name="$(basename "$a" .pt2)"
  count=$((count + 1))
  expect_exit 0 "$FXKIT" convert "$a" -o "$WORK/$name.graph.txt"
  cmp -s "$WORK/$name.graph.txt" "$P/$name.graph.txt" || fail "$name: FX text differs from str(ep.graph)"
  expect_exit 0 "$FXKIT" convert "$a" -o "$WORK/$name.pt2"
  expect_exit 0 "$FXKIT" convert "$WORK/$name.pt2" --to fx -o "$WORK/$name.back.graph.txt"
  cmp -s "$WORK/$name.back.graph.txt" "$P/$name.graph.txt" || fail "$name: archive -> archive changed the graph"
  # The archive's folder is named after the written file, as torch.export.save names it.
  head -c 200 "$WORK/$name.pt2" | grep -qaF "$name/" || fail "$name: archive folder not '$name/'"
done
[ "$count" -eq 4 ] || fail "read $count archives in $P, expected 4"

# Core ATen programs run with their archived weights; user inputs from --inputs.
for name in misc_ops.core vit.core; do
  model="${name%%.*}"
  expect_exit 0 "$FXKIT" run "$P/$name.pt2" --inputs "$P/$model.inputs.safetensors" \
    --check "$P/$model.outputs.safetensors"
  expect_out "check passed"
  # The written archive carries the weights too.
  expect_exit 0 "$FXKIT" run "$WORK/$name.pt2" --inputs "$P/$model.inputs.safetensors" \
    --check "$P/$model.outputs.safetensors"
done
expect_out "check passed: 1 of 1 outputs match"
# Random user inputs, archived weights; symbols of a dynamic program take their example values.
expect_exit 0 "$FXKIT" run "$P/vit.core.pt2"
expect_out "out_0: f32[2, 17, 64]"
expect_exit 0 "$FXKIT" info "$P/misc_ops.dyn.pt2"
expect_out "symbols: s10 s4 s86"

# Format from the content (stdin), batch conversion.
expect_exit 0 "$FXKIT" convert - --to fx -o "$WORK/stdin.graph.txt" < "$P/misc_ops.core.pt2"
cmp -s "$WORK/stdin.graph.txt" "$P/misc_ops.core.graph.txt" || fail "stdin: FX text differs"
expect_exit 0 "$FXKIT" convert "$P"/*.pt2 -o "$WORK/batch" --to fx
[ "$(ls "$WORK/batch" | wc -l)" -eq 4 ] || fail "batch wrote $(ls "$WORK/batch" | wc -l) files"

# Bad archives: exit 2 with the file named, no output written.
head -c 3000 "$P/misc_ops.core.pt2" > "$WORK/truncated.pt2"
expect_exit 2 "$FXKIT" convert "$WORK/truncated.pt2" -o "$WORK/t.graph.txt"
expect_err "truncated.pt2: error: not a zip archive (or truncated)"
[ ! -e "$WORK/t.graph.txt" ] || fail "a failed convert wrote its output"
printf 'not a zip' > "$WORK/text.pt2"
expect_exit 2 "$FXKIT" run "$WORK/text.pt2"
expect_err "text.pt2: error:"
# A user input missing from --inputs is named.
expect_exit 2 "$FXKIT" run "$P/misc_ops.core.pt2" --inputs "$P/vit.inputs.safetensors"
expect_err "no input 'arg_1'"
finish
