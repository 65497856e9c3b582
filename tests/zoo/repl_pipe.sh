#!/usr/bin/env bash
# Issue 21: the shell's stdout carries only results. For every graph of the zoo
# (../shared/zoo/inductor/*/*.graph.txt: PyTorch 2.11 compiles of Hugging Face and torchvision
# models, not copied into tests/data), `fxkit -c "load G; export fx" > out.fx` gives a file
# that re-reads byte-identically (load it, export it again: the same bytes) and is what
# `convert --to fx` writes (plus the final newline a shell's output has); the status line `loaded ...` is on stderr. The count is asserted,
# so a graph that appears or stops working is noticed. Exits 77 (CTest: skipped) where the zoo
# is absent.
# Usage: repl_pipe.sh FXKIT DATA
. "$(dirname "$0")/../cli/lib.bash"
ZOO="${ZOO_DIR:-$(cd "$(dirname "$0")/../../.." && pwd)/shared/zoo}"
[ -d "$ZOO/inductor" ] || { echo "zoo not found at $ZOO: skipped"; exit 77; }

piped=0
for g in "$ZOO"/inductor/*/*.graph.txt; do
  name="${g#$ZOO/inductor/}"
  if ! "$FXKIT" -c "load '$g' as g; export fx" >"$WORK/a.fx" 2>"$WORK/err"; then
    fail "$name: load; export fx failed: $(head -c 300 "$WORK/err")"
    continue
  fi
  grep -qF "loaded g: " "$WORK/err" || fail "$name: no status line on stderr"
  grep -qF "loaded g: " "$WORK/a.fx" && fail "$name: the status line went to stdout"
  "$FXKIT" -c "load '$WORK/a.fx' as g; export fx" >"$WORK/b.fx" 2>"$WORK/err" ||
    { fail "$name: the piped export does not load: $(head -c 300 "$WORK/err")"; continue; }
  cmp -s "$WORK/a.fx" "$WORK/b.fx" || fail "$name: the piped export does not re-read byte-identically"
  "$FXKIT" convert "$g" --to fx >"$WORK/c.fx" 2>"$WORK/err" || fail "$name: convert --to fx failed"
  [ -n "$(tail -c1 "$WORK/c.fx")" ] && echo >>"$WORK/c.fx"
  cmp -s "$WORK/a.fx" "$WORK/c.fx" || fail "$name: the shell's export differs from convert --to fx"
  piped=$((piped + 1))
done
[ "$piped" -eq 77 ] || fail "piped $piped zoo graphs, expected 77"
finish
